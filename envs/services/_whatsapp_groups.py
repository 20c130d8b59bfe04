"""Group administration tools of the whatsapp service (see whatsapp.py for the rules)."""

from __future__ import annotations

from pydantic import Field

from compoworld_gym.envs.services._whatsapp_models import Group
from compoworld_gym.envs.services._whatsapp_rules import INVITE_URL, MAX_GROUP_SIZE, group_key, invite_code, number
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

Numbers = list[str]


class GroupTools(Service, register=False):
    """Helpers and the admin-only group tools shared by the whatsapp service."""

    def _registered(self, digits: str) -> None:
        if digits in self.state.unregistered:
            raise Unprocessable(f"{digits} is not on WhatsApp (check_id_exists); reach them another way.")

    def _group(self, gid: str, *, admin: bool = False) -> Group:
        group = self.lookup(self.state.groups, group_key(gid), "group")
        if group.left or self.state.my_number not in group.participants:
            raise Conflict(f"this number left group {group.id} ({group.name}); it can no longer act in it.")
        if admin and self.state.my_number not in group.admins:
            raise Conflict(f"only group admins can do that in {group.name}; this number is a participant, not an "
                           f"admin (admins: {', '.join(group.admins)}).")
        return group

    def _numbers(self, participants: Numbers) -> list[str]:
        out = [number(p) for p in participants]
        if len(set(out)) != len(out):
            raise InvalidArgument("a number is listed twice.")
        return out

    def _view(self, g: Group) -> dict:
        out = g.model_dump(exclude={"revoked_invite_codes"})
        out["size"], out["i_am_admin"] = len(g.participants), self.state.my_number in g.admins
        return out

    def _new_code(self) -> str:
        n = self.state.counters.get("INV", 1)
        self.state.counters["INV"] = n + 1
        return invite_code(n)

    @tool(read_only=False, destructive=True)
    def remove_group_participants(self, id: str = Field(min_length=1),
                                  participants: Numbers = Field(min_length=1, max_length=50)) -> dict:
        """Remove participants from a group (admins only; not the creator, not this number: use leave).

        Args:
            id: the group id.
            participants: numbers to remove, 1 to 50.
        """
        g, people = self._group(id, admin=True), self._numbers(participants)
        for p in people:
            if p not in g.participants:
                raise NotFound(f"{p} is not a participant of {g.name}.")
            if p == self.state.my_number:
                raise InvalidArgument("to take this number out of the group, use leave_whatsapp_group.")
            if p == g.owner:
                raise Conflict(f"{p} created {g.name}; the group's creator cannot be removed by other admins.")
        if not [a for a in g.admins if a not in people]:
            raise Conflict(f"{g.name} would be left without an admin.")
        g.participants = [p for p in g.participants if p not in people]
        g.admins = [a for a in g.admins if a not in people]
        return {"group": g.id, "removed": people, "size": len(g.participants)}

    @tool(read_only=False)
    def promote_group_participants(self, id: str = Field(min_length=1),
                                   participants: Numbers = Field(min_length=1, max_length=20)) -> dict:
        """Make participants admins of a group (admins only).

        Args:
            id: the group id.
            participants: numbers to promote, 1 to 20.
        """
        g, people = self._group(id, admin=True), self._numbers(participants)
        for p in people:
            if p not in g.participants:
                raise NotFound(f"{p} is not a participant of {g.name}; add them first.")
            if p in g.admins:
                raise Conflict(f"{p} is already an admin of {g.name}.")
        g.admins += people
        return {"group": g.id, "promoted": people, "admins": g.admins}

    @tool(read_only=False)
    def demote_group_participants(self, id: str = Field(min_length=1),
                                  participants: Numbers = Field(min_length=1, max_length=20)) -> dict:
        """Take admin rights from participants of a group (admins only; never the last admin or the creator).

        Args:
            id: the group id.
            participants: admin numbers to demote, 1 to 20.
        """
        g, people = self._group(id, admin=True), self._numbers(participants)
        for p in people:
            if p not in g.admins:
                raise Conflict(f"{p} is not an admin of {g.name}.")
            if p == g.owner and p != self.state.my_number:
                raise Conflict(f"{p} created {g.name}; other admins cannot demote the group's creator.")
        rest = [a for a in g.admins if a not in people]
        if not rest:
            raise Conflict(f"{g.name} must keep at least one admin; promote someone before demoting the last admin.")
        g.admins = rest
        return {"group": g.id, "demoted": people, "admins": g.admins}

    @tool(read_only=False, destructive=True)
    def leave_whatsapp_group(self, id: str = Field(min_length=1)) -> dict:
        """Take this number out of a group (the last admin must promote someone first).

        Args:
            id: the group id.
        """
        g, me = self._group(id), self.state.my_number
        others = [p for p in g.participants if p != me]
        if g.admins == [me] and others:
            raise Conflict(f"this number is the only admin of {g.name}; promote another participant first.")
        g.participants, g.admins, g.left = others, [a for a in g.admins if a != me], True
        return {"group": g.id, "left": True, "remaining": len(others)}

    @tool(read_only=True)
    def get_group_invite_link(self, id: str = Field(min_length=1)) -> dict:
        """The group's current invite link (admins only).

        Args:
            id: the group id.
        """
        g = self._group(id, admin=True)
        return {"group": g.id, "invite_code": g.invite_code, "invite_link": INVITE_URL + g.invite_code}

    @tool(read_only=False)
    def change_group_invite_code(self, id: str = Field(min_length=1)) -> dict:
        """Rotate the group's invite code (admins only): the old link stops working at once.

        Args:
            id: the group id.
        """
        g = self._group(id, admin=True)
        old, g.invite_code = g.invite_code, self._new_code()
        g.revoked_invite_codes.append(old)
        return {"group": g.id, "revoked_link": INVITE_URL + old, "invite_code": g.invite_code,
                "invite_link": INVITE_URL + g.invite_code}

    @tool(read_only=True)
    def get_group_requests(self, id: str = Field(min_length=1),
                           numbers: Numbers = Field(min_length=1, max_length=20)) -> dict:
        """The pending join requests of the given numbers in a group (admins only).

        Args:
            id: the group id.
            numbers: numbers to look up, 1 to 20.
        """
        g, wanted = self._group(id, admin=True), self._numbers(numbers)
        found = [r.model_dump() for r in g.requests if r.number in wanted]
        have = {r["number"] for r in found}
        return {"group": g.id, "requests": found, "no_request": [n for n in wanted if n not in have],
                "pending_total": len(g.requests)}

    def _pending(self, g: Group, numbers: Numbers) -> list[str]:
        wanted = self._numbers(numbers)
        have = {r.number for r in g.requests}
        for n in wanted:
            if n not in have:
                raise NotFound(f"{n} has no pending request to join {g.name} (get_group_requests).")
        return wanted

    @tool(read_only=False)
    def approve_group_request(self, id: str = Field(min_length=1),
                              numbers: Numbers = Field(min_length=1, max_length=20)) -> dict:
        """Approve pending join requests (admins only): the numbers become participants.

        Args:
            id: the group id.
            numbers: requesters' numbers, 1 to 20.
        """
        g = self._group(id, admin=True)
        wanted = self._pending(g, numbers)
        if len(g.participants) + len(wanted) > MAX_GROUP_SIZE:
            raise Unprocessable(f"a group holds at most {MAX_GROUP_SIZE} participants.")
        g.requests = [r for r in g.requests if r.number not in wanted]
        g.participants += [n for n in wanted if n not in g.participants]
        return {"group": g.id, "approved": wanted, "size": len(g.participants)}

    @tool(read_only=False, destructive=True)
    def reject_group_request(self, id: str = Field(min_length=1),
                             numbers: Numbers = Field(min_length=1, max_length=20)) -> dict:
        """Reject pending join requests (admins only).

        Args:
            id: the group id.
            numbers: requesters' numbers, 1 to 20.
        """
        g = self._group(id, admin=True)
        wanted = self._pending(g, numbers)
        g.requests = [r for r in g.requests if r.number not in wanted]
        return {"group": g.id, "rejected": wanted, "pending_total": len(g.requests)}
