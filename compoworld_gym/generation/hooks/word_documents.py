"""Word documents in chained tasks: a contract (by file name, or the current
one filed for a company) names the customer company, its contact's email,
the contract value and the renewal date in its key-terms table; house
policies are Word documents in the policies folder (superseded copies in
policies/archive). Writes: a footnote on the contract's fees paragraph, or an
account note paragraph at its end, quoting the case."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._word_documents_seed import (
    ARCHIVE, CONTRACTS, FEES_HEADING, POLICIES, contract_document, contract_filename, contract_title, policy_document,
)
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.crm import staff_email
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, RuleHolder, ServiceLinks, SolveError, Write, pick,
)

SERVICE = "word_documents"
_STAMP = ("modified", "revision", "last_modified_by")


def plant_contract(ctx: Ctx, filename: str, *, company: str, email: str, value: float, renewal: str) -> str:
    """Add (or re-plant) the agreement ``filename`` with ``company``, its contact ``email``,
    contract ``value`` (USD) and ``renewal`` date (ISO) in its key-terms table; returns the name."""
    end = dt.date.fromisoformat(renewal)
    at = dt.datetime.combine(ctx.today - dt.timedelta(days=ctx.rng.randint(2, 20)), dt.time(11, 0))
    doc = contract_document(filename, company=company, contact_name=_name_of(email),
                            contact_email=email, owner_email=staff_email(ctx), value=value,
                            effective=end - dt.timedelta(days=364), renewal=end, at=at)
    ctx.state(SERVICE)["documents"][filename] = doc.model_dump(mode="json")
    return filename


def _name_of(email: str) -> str:
    """A contact name read off an email address ('olivia.martinez42@...' -> 'Olivia Martinez')."""
    return re.sub(r"[\d_]+", "", email.split("@")[0]).replace(".", " ").strip().title() or "Customer Contact"


def _current(ctx: Ctx, company: str) -> str:
    """The file name of a company's current agreement (its seeded one if it has one)."""
    for name, doc in ctx.state(SERVICE)["documents"].items():
        if name.rsplit("/", 1)[0] == CONTRACTS and doc["title"] == contract_title(company):
            return name
    return contract_filename(company, ctx.today.year)


def _plant(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    company = outs.get("company") or ctx.fresh("company") if by_id else str(key)
    if by_id:
        name = key
    elif stale:
        name = contract_filename(company, ctx.today.year - 2, ARCHIVE)
    else:
        name = _current(ctx, company)
    return plant_contract(ctx, name, company=company, email=outs.get("email") or ctx.person()[1],
                          value=outs.get("money") or ctx.fresh("money"), renewal=outs.get("date") or ctx.fresh("date"))


def _terms(reader: Reader, filename: str) -> dict[str, Any]:
    """The contract's key terms, read from table 0 of its outline (money as a number)."""
    outline = reader.read(SERVICE, "get_document_outline", filename=filename)
    if not outline["tables"]:
        raise SolveError(f"{filename} has no key-terms table")
    rows = {r[0]: r[1] for r in outline["tables"][0]["data"] if len(r) >= 2}
    try:
        value = float(rows["Contract value"].removeprefix("USD ").replace(",", ""))
        return {"id": outline["filename"], "company": rows["Customer"], "contact": rows["Customer contact"],
                "value": value, "renewal": rows["Renewal date"], "outline": outline}
    except (KeyError, ValueError) as exc:
        raise SolveError(f"{filename} has no readable key terms ({exc})") from None


def _company_contract(reader: Reader, key: Any) -> dict[str, Any]:
    docs = reader.read(SERVICE, "list_available_documents", directory=CONTRACTS)["documents"]
    return _terms(reader, pick(docs, title=contract_title(str(key)))["filename"])


def _alloc(ctx: Ctx) -> str:
    return f"{CONTRACTS}/Order_Form_{ctx.code()}.docx"


_VALUE = Give("money", "value", "the contract value in the agreement")
_RENEWAL = Give("date", "renewal", "the contract's renewal date")
_CONTACT = Give("email", "contact", "the customer contact's email address", "the customer")

CONTRACT = Relay(
    service=SERVICE, name="customer agreement", key="document_id",
    gives=(Give("document_id", "id", "the customer agreement"),
           Give("company", "company", "the customer company", party="customer"),
           _CONTACT, _VALUE, _RENEWAL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, True),
    find=lambda reader, key: _terms(reader, key),
    where="Each customer agreement in the Word documents has a key-terms table naming the customer company, the "
          "customer contact, the contract value and the renewal date.",
    alloc=_alloc, entry=lambda key: f"the Word document {key}")

COMPANY_CONTRACT = Relay(
    service=SERVICE, name="company's agreement", key="company", key_party="customer",
    gives=(Give("document_id", "id", "the company's current agreement"), _CONTACT, _VALUE, _RENEWAL),
    plant=lambda ctx, key, outs, stale: _plant(ctx, key, outs, stale, False), find=_company_contract,
    where="Each customer company's master services agreement is a Word document in the contracts folder, "
          "titled after the company, with a key-terms table.",
    truth="Agreements in contracts/archive are superseded; only the one in the contracts folder counts.")


def _policy_name(topic: str, stale: bool) -> str:
    slug = "".join(ch if ch.isalnum() else "_" for ch in topic).strip("_")
    return f"{POLICIES}/archive/{slug}.docx" if stale else f"{POLICIES}/{slug}.docx"


def _plant_policy(ctx: Ctx, topic: str, text: str, stale: bool) -> str:
    name = _policy_name(topic, stale)
    at = dt.datetime.combine(ctx.today - dt.timedelta(days=60 if stale else 5), dt.time(9, 30))
    ctx.state(SERVICE)["documents"][name] = policy_document(name, topic, [text], at).model_dump(mode="json")
    return name


def _policy(reader: Reader, topic: str) -> str:
    docs = reader.read(SERVICE, "list_available_documents", directory=POLICIES)["documents"]
    text = reader.read(SERVICE, "get_document_text", filename=pick(docs, title=topic)["filename"])["text"]
    # The document is its title, the rule paragraph ("<topic>. When ...") and an approval note.
    return next((line for line in text.splitlines() if line.startswith(f"{topic}.")), text)


POLICY_DOCS = RuleHolder(
    service=SERVICE, plant=_plant_policy, find=_policy,
    where="The '{topic}' policy is a Word document in the policies folder; copies in policies/archive are "
          "superseded.")


def _scope(name: str, grows: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="documents", allow_ids=[name],
                        allow_paths={name: list(_STAMP)}, max_added={grows: 1},
                        description="No other document was changed or created, and nothing else in this one.")]


def _footnote(reader: Reader, args: dict[str, Found]) -> Write:
    name, mention, case = args["contract"].value, args["mention"], args["case"].value
    paras = _terms(reader, name)["outline"]["paragraphs"]
    heading = pick(paras, text=FEES_HEADING)["index"]
    text = f"{case}: {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_footnote_to_document", filename=name, paragraph_index=heading + 1, footnote_text=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="documents", record_id=name,
                              where={"footnotes": {"$any": {"paragraph_index": heading + 1, "text": {"$all": [
                                  {"$contains": case}, {"$contains": mention.display}]}}}},
                              description="The agreement's fees paragraph has a footnote quoting the case and value.")],
        scope=_scope(name, "footnotes"), tool="add_footnote_to_document", where={"filename": name},
        label="the footnote on the agreement")


def _note(reader: Reader, args: dict[str, Found]) -> Write:
    name, mention, case = args["contract"].value, args["mention"], args["case"].value
    _terms(reader, name)
    text = f"Account note ({case}): {mention.noun} is {mention.display}."
    return Write(
        calls=[call("add_paragraph", filename=name, text=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="documents", record_id=name,
                              where={"paragraphs": {"$any": {"text": {"$all": [{"$contains": case},
                                                                               {"$contains": mention.display}]}}}},
                              description="The agreement ends with an account note quoting the case and value.")],
        scope=_scope(name, "paragraphs"), tool="add_paragraph", where={"filename": name},
        label="the account note in the agreement")


def _prepare(ctx: Ctx, values: dict[str, Any]) -> None:
    """The agreement is open for edits (an executed copy would be locked)."""
    doc = ctx.state(SERVICE)["documents"].get(values.get("contract"))
    if doc is not None:
        doc["protection"] = None


_CONTRACT = Need("contract", "document_id")

LINKS = ServiceLinks(
    service=SERVICE, label="the Word documents",
    relays=(CONTRACT, COMPANY_CONTRACT), rules=(POLICY_DOCS,),
    actions=(
        Action(service=SERVICE, name="footnote", needs=(_CONTRACT,), build=_footnote, prepare=_prepare,
               goal="add a footnote to the fees paragraph of the customer agreement, stating {mention}"),
        Action(service=SERVICE, name="note", needs=(_CONTRACT,), build=_note, prepare=_prepare,
               goal="add an account note at the end of the customer agreement, stating {mention}"),
    ),
)

__all__ = ["LINKS", "plant_contract"]
