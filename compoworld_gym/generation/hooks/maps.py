"""Maps in chained tasks: a client's site is a saved place labelled with the
company's name, whose note gives the site contact's email and phone; the
case's facts are added to the client site's note."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._gazetteer import PLACES
from compoworld_gym.envs.services.maps import SavedPlace
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, Write, pick

EMAIL_RX = r"(?<=Site contact: )[^\s,]+@[^\s,]+"
PHONE_RX = r"(?<=, phone )\+[\d-]+"
_ENTRANCES = ("Sign in at reception.", "Use the loading dock entrance.", "Visitor parking on level 2.")
#: Place kinds a client site can be (not a city, not a park or an airport).
_SITE_TYPES = {"office", "point_of_interest", "hospital", "museum", "market", "stadium", "tourist_attraction"}


def plant_saved_place(state: dict[str, Any], place_id: str, label: str, note: str, saved_at: str) -> str:
    """Save gazetteer place ``place_id`` under ``label`` (a :class:`SavedPlace`,
    validated); returns the place id.

    Raises:
        ValueError: the place or the label is already saved.
    """
    if place_id in state["saved"] or any(s["label"].lower() == label.lower() for s in state["saved"].values()):
        raise ValueError(f"{place_id} or label {label!r} is already saved")
    place = SavedPlace(place_id=place_id, name=PLACES[place_id].name, label=label, note=note, saved_at=saved_at)
    state["saved"][place_id] = place.model_dump(mode="json")
    return place_id


def _free_site(ctx: Ctx) -> str:
    saved = ctx.state("maps")["saved"]
    free = [pid for pid, p in sorted(PLACES.items()) if _SITE_TYPES & set(p.types) and pid not in saved]
    return ctx.rng.choice(free)


def site_note(email: str, phone: str, extra: str) -> str:
    """The note of a client site: the site contact's email and phone, then ``extra``."""
    return f"Site contact: {email}, phone {phone}. {extra}"


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    note = site_note(outs.get("email") or ctx.person()[1], outs.get("phone") or ctx.fresh("phone"),
                     ctx.rng.choice(_ENTRANCES))
    return plant_saved_place(ctx.state("maps"), _free_site(ctx), key, note, ctx.at(-ctx.rng.randint(20, 200), 11))


def _find(reader: Reader, key: Any) -> dict[str, Any]:
    return pick(reader.read("maps", "maps_list_saved_places"), label=key)


CLIENT_SITE = Relay(
    service="maps", name="client site", key="company", key_party="customer",
    gives=(Give("email", "note", "the site contact's email address", "the site contact", pattern=EMAIL_RX),
           Give("phone", "note", "the site contact's phone number", pattern=PHONE_RX)),
    plant=_plant, find=_find,
    where="Client sites are saved places in maps labelled with the company's name; "
          "the note names the site contact and their phone number.")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """Save the client's site if the chain did not plant it."""
    company = values["client"]
    if not any(s["label"].lower() == str(company).lower() for s in ctx.state("maps")["saved"].values()):
        _plant(ctx, company, {}, False)


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    company, mention, case = args["client"].value, args["mention"], args["case"].value
    site = _find(reader, company)
    note = f"{site['note']} {case}: {mention.noun} is {mention.display}."[:300]
    pid = site["place_id"]
    return Write(
        calls=[call("maps_remove_saved_place", place_id=pid),
               call("maps_save_place", place_id=pid, label=site["label"], note=note)],
        checks=[RecordMatches(id="_", service="maps", collection="saved", record_id=pid,
                              where={"label": {"$ieq": site["label"]},
                                     "note": {"$all": [{"$contains": site["note"]}, {"$contains": case},
                                                       {"$contains": mention.display}]}},
                              description="The client's saved site keeps its label and note; the note adds "
                                          "the value.")],
        scope=[OnlyChanged(id="_", service="maps", collection="saved", allow_ids=[pid],
                           description="No other saved place was changed, removed or added.")],
        tool="maps_save_place", where={"place_id": pid}, label="the note on the client's saved site")


LINKS = ServiceLinks(
    service="maps", label="maps",
    relays=(CLIENT_SITE,),
    actions=(Action(service="maps", name="site note", needs=(Need("client", "company"),), build=_note,
                    prepare=_prepare, goal="add {mention} to the note of the saved maps place for {client}"),),
)

__all__ = ["LINKS", "plant_saved_place", "site_note"]
