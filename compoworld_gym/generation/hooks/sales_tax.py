"""Sales tax in chained tasks: a tax transaction, found by its id or by the
invoice number it is coded with, names the invoice, the customer's email and
the invoice amount the tax was computed on; a customer's valid exemption
certificate is found by their email. Writes: commit the invoice's tax
transaction, void it, or adjust it with a description quoting a value."""

from __future__ import annotations

from typing import Any

from compoworld_gym.checks import OnlyChanged, RecordMatches
from compoworld_gym.envs.services._commerce import PRODUCTS, money
from compoworld_gym.envs.services._sales_tax_models import AddressInfo, Certificate, Customer, LineIn
from compoworld_gym.envs.services._sales_tax_rules import JURISDICTIONS, make_transaction
from compoworld_gym.generation.context import Ctx, call
from compoworld_gym.generation.hooks.invoicing import next_invoice_id
from compoworld_gym.generation.links import (
    Action, Found, Give, Need, Reader, Relay, ServiceLinks, SolveError, Write, next_id, pick,
)

SERVICE = "sales_tax"
#: ZIP codes with sales tax: where planted customers live.
_TAXED = sorted(z for z, zone in JURISDICTIONS.items() if zone.rates)


def next_tax_transaction_id(state: dict[str, Any]) -> str:
    """Take the next free tax transaction id from the service's counters (as ``new_id("AVT")``)."""
    return next_id(state, "AVT")


def invoice_code(ctx: Ctx) -> str:
    """A document code: invoicing's next invoice id when it is mounted, else one past the seeded codes."""
    if "invoicing" in ctx.states:
        return next_invoice_id(ctx.state("invoicing"))
    ctx.state(SERVICE)["counters"].setdefault("INV", 30 + ctx.rng.randrange(25))
    return ctx.new_id(SERVICE, "INV")


def certificate_expiry(ctx: Ctx) -> str:
    """A future expiration date of a certificate (ISO)."""
    return ctx.day(ctx.rng.randint(60, 700))


def plant_customer(ctx: Ctx, email: str) -> str:
    """The customer with ``email`` (added at an address in a taxed ZIP if new); returns its code."""
    state = ctx.state(SERVICE)
    for c in state["customers"].values():
        if c["email_address"].lower() == email.lower():
            return c["customer_code"]
    zone_zip = ctx.rng.choice(_TAXED)
    zone = JURISDICTIONS[zone_zip]
    code = next_id(state, "CUS")
    addr = AddressInfo(line1=ctx.fresh("address"), city=zone.city, region=zone.region, postal_code=zone_zip)
    state["customers"][code] = Customer(customer_code=code, name=ctx.client(), email_address=email, address=addr,
                                        created_date=ctx.day(-200)).model_dump(mode="json")
    return code


def plant_tax_transaction(ctx: Ctx, tid: str, *, code: str, customer_code: str, amount: float,
                          voided: bool = False) -> str:
    """Add a Saved one-line SalesInvoice (validated) of ``amount`` USD coded ``code`` for the customer,
    taxed at their address, or a voided one (``voided``); returns its id."""
    state = ctx.state(SERVICE)
    cust = Customer.model_validate(state["customers"][customer_code])
    line = LineIn(number="1", amount=money(amount), tax_code="P0000000", description=ctx.rng.choice(PRODUCTS).name)
    day = ctx.today.fromordinal(ctx.today.toordinal() - (30 if voided else ctx.rng.randint(1, 8)))
    doc = make_transaction(tid, code, day, customer_code, cust.address, [line], None, day,
                           status="Cancelled" if voided else "Saved", void_reason="DocVoided" if voided else None,
                           description=f"Invoice {code}")
    state["transactions"][tid] = doc.model_dump(mode="json")
    return tid


def _plant_doc(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool, by_id: bool) -> str:
    state = ctx.state(SERVICE)
    cust = plant_customer(ctx, outs.get("email") or ctx.person()[1])
    tid = key if by_id else next_tax_transaction_id(state)
    code = (outs.get("invoice_id") or invoice_code(ctx)) if by_id else key
    amount = outs.get("money") or round(ctx.rng.randint(6000, 90000) / 100, 2)
    return plant_tax_transaction(ctx, tid, code=code, customer_code=cust, amount=amount, voided=stale)


def _plant_cert(ctx: Ctx, key: Any, outs: dict[str, Any], stale: bool) -> str:
    state = ctx.state(SERVICE)
    cust = Customer.model_validate(state["customers"][plant_customer(ctx, key)])
    expires = ctx.today.fromordinal(ctx.today.toordinal() - 30) if stale else \
        ctx.today.fromisoformat(outs.get("date") or certificate_expiry(ctx))
    cid = next_id(state, "CERT")
    signed = expires.fromordinal(expires.toordinal() - 365)
    number = f"{cust.address.region}-{ctx.rng.randint(10**7, 10**8 - 1)}"
    state["certificates"][cid] = Certificate(
        id=cid, customer_code=cust.customer_code, exemption_number=number, exemption_reason="RESALE",
        exposure_zone=cust.address.region, signed_date=min(signed, ctx.today),
        expiration_date=expires, status="COMPLETE").model_dump(mode="json")
    return cid


def _get(reader: Reader, tid: Any) -> dict[str, Any]:
    return reader.read(SERVICE, "get_transaction", transaction_id=tid)


def _by_invoice(reader: Reader, key: Any) -> dict[str, Any]:
    rows = reader.read(SERVICE, "list_transactions", code=key, limit=200)
    return _get(reader, pick([r for r in rows if r["status"] != "Cancelled"], code=key)["id"])


def _valid_cert(reader: Reader, key: Any) -> dict[str, Any]:
    cust = pick(reader.read(SERVICE, "list_customers", email_address=key), email_address=key)
    certs = reader.read(SERVICE, "list_certificates", customer_code=cust["customer_code"])
    return pick([c for c in certs if c["valid_today"]], customer_code=cust["customer_code"])


_AMOUNT = Give("money", "total_amount", "the invoice amount the sales tax was computed on")

TAX_TRANSACTION = Relay(
    service=SERVICE, name="tax transaction", key="tax_transaction_id",
    gives=(Give("invoice_id", "code", "the invoice the tax transaction is for"),
           Give("email", "customer_email", "the customer's email address", "the customer"), _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant_doc(ctx, key, outs, stale, True), find=_get,
    where="Each tax transaction in the sales tax system is coded with its invoice number and names the customer "
          "and the amount taxed.",
    alloc=lambda ctx: next_tax_transaction_id(ctx.state(SERVICE)), entry=lambda key: f"tax transaction {key}")

INVOICE_TAX = Relay(
    service=SERVICE, name="invoice's tax transaction", key="invoice_id",
    gives=(Give("tax_transaction_id", "id", "the invoice's tax transaction"), _AMOUNT),
    plant=lambda ctx, key, outs, stale: _plant_doc(ctx, key, outs, stale, False), find=_by_invoice,
    where="The sales tax system files each invoice's tax transaction under the invoice number as its document code.",
    truth="A voided tax transaction no longer counts; only the invoice's live tax transaction does.",
    alloc=invoice_code)

CUSTOMER_CERTIFICATE = Relay(
    service=SERVICE, name="customer's exemption certificate", key="email",
    gives=(Give("tax_exemption_id", "id", "the customer's valid exemption certificate"),
           Give("date", "expiration_date", "the day the exemption certificate expires", "the certificate expiry",
                draw=certificate_expiry)),
    plant=lambda ctx, key, outs, stale: _plant_cert(ctx, key, outs, stale), find=_valid_cert,
    where="Customers' sales tax exemption certificates are on file in the sales tax system, under the customer's "
          "email.",
    truth="An expired exemption certificate does not exempt anything; only the customer's valid certificate counts.")


def _scope(tid: str) -> list[OnlyChanged]:
    return [OnlyChanged(id="_", service=SERVICE, collection="transactions", allow_ids=[tid],
                        description="No other tax transaction was changed or created.")]


def _saved(reader: Reader, tid: str) -> dict[str, Any]:
    doc = _get(reader, tid)
    if doc["status"] != "Saved":
        raise SolveError(f"tax transaction {tid} is {doc['status']}")
    return doc


def _commit(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["tax"].value
    _saved(reader, tid)
    return Write(
        calls=[call("commit_transaction", transaction_id=tid)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"status": "Committed"},
                              description="The invoice's tax transaction is committed.")],
        scope=_scope(tid), tool="commit_transaction", where={"transaction_id": tid},
        label="the committed tax transaction")


def _void(reader: Reader, args: dict[str, Found]) -> Write:
    tid = args["tax"].value
    _saved(reader, tid)
    return Write(
        calls=[call("void_transaction", transaction_id=tid, code="DocVoided")],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"status": "Cancelled", "void_reason": "DocVoided"},
                              description="The tax transaction is voided (DocVoided).")],
        scope=_scope(tid), tool="void_transaction", where={"transaction_id": tid}, label="the voided tax transaction")


def _adjust(reader: Reader, args: dict[str, Found]) -> Write:
    tid, mention, case = args["tax"].value, args["mention"], args["case"].value
    doc = _get(reader, tid)
    if doc["status"] == "Cancelled":
        raise SolveError(f"tax transaction {tid} is voided")
    text = f"{case}: {mention.noun} is {mention.display}."
    if len(text) > 255:
        raise SolveError(f"{mention.noun} does not fit in an adjustment description")
    lines = [{"number": ln["line_number"], "quantity": ln["quantity"], "amount": ln["line_amount"],
              "tax_code": ln["tax_code"], "item_code": ln["item_code"], "description": ln["description"]}
             for ln in doc["lines"]]
    return Write(
        calls=[call("adjust_transaction", transaction_id=tid, adjustment_reason="Other", lines=lines,
                    adjustment_description=text)],
        checks=[RecordMatches(id="_", service=SERVICE, collection="transactions", record_id=tid,
                              where={"adjustment_reason": "Other", "version": doc["version"] + 1,
                                     "total_amount": doc["total_amount"],
                                     "adjustment_description": {"$all": [{"$contains": case},
                                                                         {"$contains": mention.display}]}},
                              description="The tax transaction is adjusted once, same lines, the description "
                                          "quoting the case and the value.")],
        scope=_scope(tid), tool="adjust_transaction", where={"transaction_id": tid},
        label="the tax transaction adjustment")


_TAX = (Need("tax", "tax_transaction_id"),)

LINKS = ServiceLinks(
    service=SERVICE, label="the sales tax system",
    relays=(TAX_TRANSACTION, INVOICE_TAX, CUSTOMER_CERTIFICATE),
    actions=(
        Action(service=SERVICE, name="commit", needs=_TAX, build=_commit,
               goal="commit the tax transaction so that the sales tax is reported"),
        Action(service=SERVICE, name="void", needs=_TAX, build=_void,
               goal="void the tax transaction (reason code DocVoided)"),
        Action(service=SERVICE, name="adjust", needs=_TAX, build=_adjust,
               goal="adjust the tax transaction (reason Other, same lines), quoting {mention} in the adjustment "
                    "description"),
    ),
)

__all__ = ["LINKS", "certificate_expiry", "invoice_code", "next_tax_transaction_id", "plant_customer",
           "plant_tax_transaction"]
