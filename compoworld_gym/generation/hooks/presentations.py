"""Presentations in chained tasks: a customer company leads to its open
customer QBR deck, which names the customer's contact (their email, in the
deck's comments); a deck id leads to the customer it is for. Writes: put a
discovered value (a CRM deal amount, an invoice total) in the Open
opportunity cell of the deck's account-summary table, or add it as a next
step, and save the deck to its file."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._presentations_models import PresentationsState
from compoworld_gym.envs.services._presentations_seed import (
    OPPORTUNITY_ROW, QBR_SUMMARY_SHAPE, QBR_SUMMARY_SLIDE, VALUE_COL, build_deck, next_presentation_id, qbr_props,
    qbr_specs,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write,
)

SERVICE = "presentations"
EMAIL_RX = r"[^<>\s]+@[^<>\s]+"
_NEXT_STEPS_SLIDE = 3
_MANAGERS = ("Jamal Wright", "Hannah Kovacs")


def plant_qbr_deck(ctx: Ctx, company: str, *, contact: str, email: str, pid: str | None = None) -> str:
    """Open (and save under ``decks/customers/``) a customer QBR deck for ``company`` whose Open
    opportunity cell is still TBD; returns its presentation id."""
    raw = ctx.state(SERVICE)
    if pid is None:
        same = [d["id"] for d in raw["presentations"].values() if (d.get("customer") or "").casefold()
                == company.casefold()]
        if same:
            return same[0]
    state = PresentationsState.model_validate(raw)
    pid = pid or next_presentation_id(state.counters)
    manager = ctx.rng.choice(_MANAGERS)
    when = dt.datetime.combine(ctx.today - dt.timedelta(days=2), dt.time(16, 0))
    specs = qbr_specs(company, contact, "Operations Director", ctx.rng.randint(120, 900) * 100.0,
                      ctx.day(ctx.rng.randint(30, 150)), manager,
                      [float(ctx.rng.randint(60, 300)) for _ in range(6)])
    slug = "".join(ch if ch.isalnum() else "-" for ch in company.lower()).strip("-")
    build_deck(state, pid, qbr_props(company, contact, email, manager, when), specs, customer=company,
               file_path=f"decks/customers/{slug}-{pid[-2:].strip('_')}-qbr.pptx")
    dumped = state.model_dump(mode="json")
    raw.clear()
    raw.update(dumped)
    return pid


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    name, mail = ctx.person()
    email = outs.get("email") or mail
    company = outs.get("company") or ctx.fresh("company") if by_id else key
    return plant_qbr_deck(ctx, company, contact=outs.get("person_name") or name, email=email,
                          pid=key if by_id else None)


def _by_company(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_presentations")["presentations"]
    hits = [r for r in rows if (r.get("customer") or "").casefold() == str(key).casefold()]
    if len(hits) != 1:
        raise SolveError(f"{len(hits)} open decks are for {key!r}")
    return reader.read(SERVICE, "get_presentation_info", presentation_id=hits[0]["id"])


_CONTACT = Give("email", "core_properties.comments", "the email address of the customer's contact named in the deck",
                "the customer", pattern=EMAIL_RX)

CUSTOMER_DECK = Relay(
    service=SERVICE, name="customer QBR deck", key="company", key_party="customer",
    gives=(Give("presentation_id", "id", "the customer's QBR deck"), _CONTACT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_by_company,
    where="Each customer's QBR deck is open in the presentation workspace under the customer company, with the "
          "customer's contact in the deck's comments.")

DECK = Relay(
    service=SERVICE, name="QBR deck", key="presentation_id",
    gives=(Give("company", "customer", "the customer the deck is for", party="customer"), _CONTACT),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True),
    find=lambda reader, key: reader.read(SERVICE, "get_presentation_info", presentation_id=key),
    where="A customer QBR deck names the customer company it is for and the customer's contact.",
    alloc=lambda ctx: next_presentation_id(ctx.state(SERVICE)["counters"]),
    entry=lambda key: f"the customer QBR deck {key}")


def _deck(reader: Reader, pid: str, slide: int) -> tuple[str, str]:
    info = reader.read(SERVICE, "get_presentation_info", presentation_id=pid)
    if not info.get("customer") or not info.get("file_path") or len(info["slide_ids"]) <= slide:
        raise SolveError(f"presentation {pid} is not a saved customer QBR deck")
    return info["slide_ids"][slide], info["file_path"]


def _write(pid: str, sid: str, path: str, edit: Any, shape_where: dict[str, Any], tool: str, label: str,
           what: str) -> Write:
    saved = {"slides": {"$any": {"id": {"$exists": True}, "shapes": {"$any": shape_where}}}}
    return Write(
        calls=[edit, call("save_presentation", file_path=path, presentation_id=pid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="slides", record_id=sid,
                              where={"shapes": {"$any": shape_where}}, description=f"The deck's {what}."),
                RecordMatches(id="_", service=SERVICE, collection="files", record_id=path, where=saved,
                              description="The deck is saved to its file with the change.")],
        scope=[OnlyChanged(id="_", service=SERVICE, collection="slides", allow_ids=[sid],
                           description="No other slide was changed or added."),
               OnlyChanged(id="_", service=SERVICE, collection="files", allow_ids=[path],
                           description="No other file was written."),
               OnlyChanged(id="_", service=SERVICE, collection="presentations", allow_ids=[pid],
                           description="No other presentation was opened, created or changed.")],
        tool=tool, where={"presentation_id": pid}, label=label)


def _opportunity(reader: Reader, args: dict[str, Found]) -> Write:
    pid, display = args["deck"].value, args["mention"].display
    sid, path = _deck(reader, pid, QBR_SUMMARY_SLIDE)
    edit = call("update_table_cell", slide_index=QBR_SUMMARY_SLIDE, shape_index=QBR_SUMMARY_SHAPE,
                row=OPPORTUNITY_ROW, col=VALUE_COL, text=display, presentation_id=pid)
    where = {"name": "Account summary",
             f"table.cells.{OPPORTUNITY_ROW},{VALUE_COL}.text": {"$contains": display}}
    return _write(pid, sid, path, edit, where, "update_table_cell", "the Open opportunity cell of the QBR deck",
                  "Open opportunity cell quotes the right value")


def _next_step(reader: Reader, args: dict[str, Found]) -> Write:
    pid, mention = args["deck"].value, args["mention"]
    sid, path = _deck(reader, pid, _NEXT_STEPS_SLIDE)
    bullet = f"{args['case'].value}: {mention.noun} is {mention.display}"
    edit = call("add_bullet_points", slide_index=_NEXT_STEPS_SLIDE, placeholder_idx=1, bullet_points=[bullet],
                presentation_id=pid)
    where = {"placeholder_idx": 1, "paragraphs": {"$some": {"$contains": mention.display}}}
    return _write(pid, sid, path, edit, where, "add_bullet_points", "the next step on the QBR deck",
                  "Next steps slide has a bullet quoting the right value")


_DECK = (Need("deck", "presentation_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the presentation workspace",
    relays=(CUSTOMER_DECK, DECK),
    actions=(
        Action(service=SERVICE, name="opportunity_cell", needs=_DECK, build=_opportunity,
               goal="put {mention} in the Open opportunity cell of the account summary in the customer's QBR deck, "
                    "and save the deck to its file"),
        Action(service=SERVICE, name="next_step", needs=_DECK, build=_next_step,
               goal="add a bullet quoting {mention} to the Next steps slide of the customer's QBR deck, and save "
                    "the deck to its file"),
    ),
)

__all__ = ["LINKS", "plant_qbr_deck"]
