"""Trademarks (USPTO TSDR and Trademark Center) in chained tasks: the
company's application, found by serial number, names outside counsel's matter
for the mark, the product it is used on and the response deadline of its open
office action; an office action gives its deadline and the matter; counsel's
matter leads to the live application's open office action. Writes: file the
response quoting a discovered value, request the one 3-month extension, or
docket a note with the deadline."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordExists, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS
from compoworld_gym.envs.services._trademarks_models import (
    GoodsServices, HistoryEntry, OfficeAction, TrademarkApplication,
)
from compoworld_gym.envs.services._trademarks_rules import add_months
from compoworld_gym.envs.services._trademarks_seed import (
    ATTORNEY, COUNSEL, EXAMINERS, FIRST_NEW_SERIAL, OWNER, OWNER_ADDRESS,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id,
)

SERVICE = "trademarks"
_WORDS = ("NOVA", "PIXEL", "ORBIT", "VERTEX", "ZENITH", "KODIAK", "ALTO", "BRISK", "CEDAR", "HALO")
_ENDS = ("DESK", "KEY", "WAVE", "HUB", "LINE", "CRAFT", "DOCK", "PAD")
_ISSUES = ("Section 2(d) refusal: likelihood of confusion with a prior registration",
           "Identification of goods indefinite", "Specimen does not show the mark in use on the goods")


def next_serial(state: dict[str, Any]) -> str:
    """Take the next free serial number, as the service's new applications do."""
    n = state["counters"].get("SN", FIRST_NEW_SERIAL)
    state["counters"]["SN"] = n + 1
    return str(n)


def next_action_id(state: dict[str, Any]) -> str:
    """Take the next free office action id (``OA-0009``)."""
    return next_id(state, "OA")


def matter_key(ctx: Ctx) -> str:
    """Outside counsel's matter id: the practice-management system's next one when it is mounted,
    else one counted here past the firm's seeded matters."""
    if "legal_matters" in ctx.states:
        return next_id(ctx.state("legal_matters"), "MAT")
    ctx.state(SERVICE)["counters"].setdefault("MAT", 11 + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, "MAT")


def _sku(ctx: Ctx) -> str:
    return ctx.rng.choice(PRODUCTS).sku


def plant_office_action(ctx: Ctx, oa_id: str, *, serial: str, deadline: str, matter: str, sku: str,
                        abandoned: bool = False) -> str:
    """Add a pending application ``serial`` of the company (validated) for outside counsel's ``matter`` and
    product ``sku``, with a non-final office action ``oa_id`` due on ``deadline``; ``abandoned`` plants an
    application abandoned after an unanswered action instead. Returns the office action id."""
    state = ctx.state(SERVICE)
    due = dt.date.fromisoformat(deadline) if isinstance(deadline, str) else deadline
    if abandoned:
        due = ctx.today - dt.timedelta(days=ctx.rng.randint(60, 90))
    issued = add_months(due, -3)
    product = next((p for p in PRODUCTS if p.sku == sku), PRODUCTS[0])
    mark = f"{ctx.rng.choice(_WORDS)}{ctx.rng.choice(_ENDS)}"
    examiner, office = ctx.rng.choice(EXAMINERS)
    filed = issued - dt.timedelta(days=ctx.rng.randint(150, 240))
    history = [HistoryEntry(entry_number=1, date=filed, code="NWAP", description="New application entered"),
               HistoryEntry(entry_number=2, date=issued, code="GNRN",
                            description=f"Non-final action e-mailed ({oa_id}, {examiner})")]
    gone = due + dt.timedelta(days=14) if abandoned else None
    if gone:
        history.append(HistoryEntry(entry_number=3, date=gone, code="MAB6",
                                    description=f"Notice of abandonment: no response to {oa_id}"))
    app = TrademarkApplication(
        id=serial, mark_literal=mark, mark_type="standard_characters", owner_name=OWNER, owner_address=OWNER_ADDRESS,
        attorney_name=ATTORNEY.name, attorney_email=ATTORNEY.email, docket_contact_email=COUNSEL.email,
        firm_matter_id=matter, product_sku=product.sku,
        goods_services=[GoodsServices(nice_class=20 if product.category == "furniture" else 9,
                                      description=product.name)],
        filing_basis="1(a)", filing_date=filed, status_code="602" if abandoned else "641",
        status_date=gone or issued, abandoned_on=gone, history=history)
    oa = OfficeAction(id=oa_id, serial_number=serial, action_type="non_final", issued_on=issued, response_deadline=due,
                      examining_attorney=examiner, law_office=office, issues=list(ctx.rng.sample(_ISSUES, 2)),
                      status="abandoned" if abandoned else "open")
    state["applications"][serial] = app.model_dump(mode="json")
    state["office_actions"][oa_id] = oa.model_dump(mode="json")
    return oa_id


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by: str) -> str:
    state = ctx.state(SERVICE)
    serial = key if by == "serial" else next_serial(state)
    oa_id = key if by == "action" else next_action_id(state)
    matter = key if by == "matter" else outs.get("matter_id") or matter_key(ctx)
    plant_office_action(ctx, oa_id, serial=serial, deadline=outs.get("date") or ctx.day(ctx.rng.randint(10, 50)),
                        matter=matter, sku=outs.get("sku") or _sku(ctx), abandoned=stale)
    return serial if by == "serial" else oa_id


def _live_action(reader: Reader, key: Any) -> dict[str, Any]:
    """The open office action of the one live (not abandoned) application under counsel's matter ``key``."""
    rows = [a for a in reader.read(SERVICE, "search_marks", firm_matter_id=key, limit=200) if a["status_code"] != "602"]
    if len(rows) != 1 or rows[0]["open_office_action"] is None:
        raise SolveError(f"matter {key}: {len(rows)} live applications, or no open office action")
    return reader.read(SERVICE, "get_office_action", office_action_id=rows[0]["open_office_action"]["id"])


_DEADLINE = Give("date", "response_deadline", "the response deadline of the office action")
_MATTER = Give("matter_id", "firm_matter_id", "outside counsel's matter for the trademark")

APPLICATION = Relay(
    service=SERVICE, name="trademark application", key="trademark_application_id",
    gives=(_MATTER, Give("sku", "product_sku", "the product the mark is used on", draw=_sku),
           Give("date", "open_office_action.response_deadline", "the response deadline of the open office action")),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "serial"),
    find=lambda reader, key: reader.read(SERVICE, "get_case_status", serial_number=key),
    where="Each of the company's trademark applications, under its USPTO serial number, names outside counsel's "
          "matter, the product the mark is used on and its open office action.",
    alloc=lambda ctx: next_serial(ctx.state(SERVICE)), entry=lambda key: f"trademark application serial no. {key}")

OFFICE_ACTION_RELAY = Relay(
    service=SERVICE, name="trademark office action", key="office_action_id", gives=(_DEADLINE, _MATTER),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "action"),
    find=lambda reader, key: reader.read(SERVICE, "get_office_action", office_action_id=key),
    where="A USPTO office action gives its response deadline, the examining attorney and outside counsel's matter "
          "for the mark.",
    alloc=lambda ctx: next_action_id(ctx.state(SERVICE)), entry=lambda key: f"USPTO office action {key}")

MATTER_ACTION = Relay(
    service=SERVICE, name="matter's trademark office action", key="matter_id",
    gives=(Give("office_action_id", "id", "the open office action on the matter's trademark"), _DEADLINE),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, "matter"), find=_live_action,
    alloc=matter_key, truth="An abandoned application is dead; only the live application's open office action "
                            "counts.",
    where="The trademark portfolio files each application under outside counsel's matter id; its open office "
          "action carries the response deadline.")


def _open(reader: Reader, oa_id: str) -> dict[str, Any]:
    oa = reader.read(SERVICE, "get_office_action", office_action_id=oa_id)
    if oa["status"] != "open" or oa["deadline_passed"]:
        raise SolveError(f"office action {oa_id} is not open before its deadline")
    return oa


def _scope(oa: dict[str, Any], kind: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="office_actions", allow_ids=[oa["id"]],
                        description="No other office action was answered or extended."),
            OnlyChanged(id="_", service=SERVICE, collection="filings", max_new=1,
                        allow_new={"office_action_id": oa["id"], "filing_type": kind},
                        description="Only the one filing on the case's office action was made."),
            OnlyChanged(id="_", service=SERVICE, collection="applications", allow_ids=[oa["serial_number"]],
                        description="No other application changed.")]


def _respond(reader: Reader, args: dict[str, Found]) -> Write:
    oa, mention, case = _open(reader, args["action"].value), args["mention"], args["case"].value
    text = f"Response for {case}: {mention.noun} is {mention.display}. The refusal should be withdrawn."
    return Write(
        calls=[call("file_office_action_response", office_action_id=oa["id"], response_text=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="office_actions", record_id=oa["id"],
                              where={"status": "responded"}, description="The office action is answered."),
                RecordExists(id="_", service=SERVICE, collection="filings",
                             where={"office_action_id": oa["id"], "filing_type": "response",
                                    "text": {"$contains": mention.display}},
                             description="The response filing quotes the right value.")],
        scope=_scope(oa, "response"), tool="file_office_action_response", where={"office_action_id": oa["id"]},
        label="the office action response")


def _extend(reader: Reader, args: dict[str, Found]) -> Write:
    oa = _open(reader, args["action"].value)
    if oa["extended"]:
        raise SolveError(f"office action {oa['id']} was already extended")
    return Write(
        calls=[call("request_extension", office_action_id=oa["id"])],
        checks=[RecordMatches(id="_", service=SERVICE, collection="office_actions", record_id=oa["id"],
                              where={"extended": True, "status": "open"},
                              description="The office action's response period is extended by 3 months.")],
        scope=_scope(oa, "extension_request"), tool="request_extension", where={"office_action_id": oa["id"]},
        label="the extension request", moves_money=True)


def _docket(reader: Reader, args: dict[str, Found]) -> Write:
    oa, mention, case = _open(reader, args["action"].value), args["mention"], args["case"].value
    note = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_docket_entry", serial_number=oa["serial_number"], office_action_id=oa["id"], note=note,
                    due_date=oa["response_deadline"])],
        checks=[RecordExists(id="_", service=SERVICE, collection="docket",
                             where={"office_action_id": oa["id"], "due_date": oa["response_deadline"],
                                    "note": {"$all": [{"$contains": case}, {"$contains": mention.display}]}},
                             description="A docket entry on the office action has its deadline and quotes the value.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="docket", max_new=1,
                           allow_new={"office_action_id": oa["id"]},
                           description="Only the one docket entry was added.")],
        tool="add_docket_entry", where={"office_action_id": oa["id"]}, label="the docket entry")


_NEED = (Need("action", "office_action_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the trademark portfolio (USPTO)",
    relays=(APPLICATION, OFFICE_ACTION_RELAY, MATTER_ACTION),
    actions=(
        Action(service=SERVICE, name="respond", needs=_NEED, build=_respond,
               goal="file the response to that USPTO office action before its deadline, quoting {mention}"),
        Action(service=SERVICE, name="extend", needs=_NEED, build=_extend,
               goal="request the one 3-month extension of that office action's response deadline"),
        Action(service=SERVICE, name="docket", needs=_NEED, build=_docket,
               goal="docket a note on that office action with its response deadline, quoting {mention}"),
    ),
)

__all__ = ["LINKS", "matter_key", "next_action_id", "next_serial", "plant_office_action"]
