"""Firestore in chained tasks: the mobile app's customer profile, keyed by
the customer's email, names their phone number and city; the newest untriaged
in-app review of a SKU names the reviewing customer's email. Write: note the
case on the customer's app profile (a supportNote quoting a found value)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._firestore_models import FsDocument
from compoworld_gym.envs.services._firestore_seed import auto_id, feedback, profile
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.links import Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write

_CITIES = ("Portland", "Boston", "Austin", "Denver", "Chicago", "Seattle", "Atlanta")


def plant_document(ctx: Ctx, path: str, data: dict[str, Any], days_ago: int) -> str:
    """Store a :class:`FsDocument` (validated) at ``path`` in the firestore working state; returns the path."""
    collection, _, doc_id = path.rpartition("/")
    when = ctx.at(-days_ago)
    doc = FsDocument(path=path, id=doc_id, collectionPath=collection, data=data, createTime=when, updateTime=when)
    ctx.state("firestore")["documents"][path] = doc.model_dump(mode="json")
    return path


def _name_of(email: str) -> str:
    return " ".join(p.capitalize() for p in email.split("@")[0].replace("_", ".").split(".") if p.isalpha()) or "App User"


def _plant_profile(ctx: Ctx, email: str, outs: dict[str, Any]) -> str:
    phone = outs.get("phone") or ctx.fresh("phone")
    city = outs.get("city") or ctx.rng.choice(_CITIES)
    data = profile(_name_of(email), email, phone, city, "US", ctx.rng.choice(("bronze", "silver", "gold")),
                   ctx.today - dt.timedelta(days=ctx.rng.randint(60, 700)))
    return plant_document(ctx, f"customers/{email}", data, ctx.rng.randint(2, 30))


def _profile(reader: Reader, key: Any) -> dict[str, Any]:
    return reader.read("firestore", "firestore-get-document", collectionId="customers", documentId=str(key))


PROFILE = Relay(
    service="firestore", name="app customer profile", key="email",
    gives=(Give("phone", "data.phone", "the customer's phone number in the app profile", "the customer"),
           Give("city", "data.city", "the customer's city in the app profile", draw=lambda ctx: ctx.rng.choice(_CITIES))),
    plant=lambda ctx, key, outs, stale: _plant_profile(ctx, str(key), outs), find=_profile,
    where="The mobile app's Firestore database keeps each customer's profile in the 'customers' collection, "
          "under their email address, with their phone number and city.")


def _plant_review(ctx: Ctx, sku: Any, outs: dict[str, Any], stale: bool) -> str:
    email = outs.get("email") or ctx.fresh("email")
    n = len(ctx.state("firestore")["documents"])
    # Planted today: newer than every seeded review, so the live one is the SKU's newest untriaged review.
    data = feedback(email, str(sku), ctx.rng.choice((1, 2)), ctx.today, "triaged" if stale else "new")
    return plant_document(ctx, f"feedback/{auto_id(f'planted:{sku}:{n}')}", data, 0)


def _review(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read("firestore", "firestore-query-collection", collectionId="feedback",
                       filters=[{"field": "sku", "operator": "==", "value": str(key)},
                                {"field": "status", "operator": "==", "value": "new"}])
    if not rows:
        raise SolveError(f"no untriaged in-app review of SKU {key}")
    return max(rows, key=lambda r: (r["data"]["date"], r["createTime"]))


REVIEW = Relay(
    service="firestore", name="in-app product review", key="sku",
    gives=(Give("email", "data.email", "the email of the customer who reviewed the SKU in the app", "the customer"),),
    plant=_plant_review, find=_review,
    where="In-app product reviews are in the app's Firestore 'feedback' collection, each naming the SKU and the "
          "reviewing customer's email.",
    truth="A triaged review has been handled; only the SKU's newest untriaged (status new) review counts.")


def _prepare_note(ctx: Ctx, values: dict[str, Any]) -> None:
    email = str(values["customer"])
    if f"customers/{email}" not in ctx.state("firestore")["documents"]:
        _plant_profile(ctx, email, {})


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    email, mention, case = str(args["customer"].value), args["mention"], args["case"].value
    _profile(reader, email)
    path = f"customers/{email}"
    return Write(
        calls=[call("firestore-update-document", collectionId="customers", documentId=email,
                    data={"supportNote": f"{case}: {mention.display}"})],
        checks=[RecordMatches(id="_", service="firestore", collection="documents", record_id=path,
                              where={"data.supportNote": {"$contains": mention.display}},
                              description="The customer's app profile carries a support note quoting the value.")],
        scope=[OnlyChanged(id="_", service="firestore", collection="documents", allow_ids=[path],
                           description="No other Firestore document was changed, added or deleted.")],
        tool="firestore-update-document", where={"collectionId": "customers", "documentId": email},
        label="the support note on the app profile")


LINKS = ServiceLinks(
    service="firestore", label="the mobile app's database (Firestore)",
    relays=(PROFILE, REVIEW),
    actions=(Action(service="firestore", name="profile_note", needs=(Need("customer", "email", ("the customer",)),),
                    build=_note, prepare=_prepare_note,
                    goal="note the case on the customer's app profile in Firestore (a supportNote field quoting "
                         "{mention})"),),
)

__all__ = ["LINKS", "plant_document"]
