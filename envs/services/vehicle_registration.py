"""Vehicle registration: vehicles by VIN, registrations, renewals with fees, holds, smog and title transfers.

No DMV server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the California DMV Business
Partner Automation program as partner platforms (Vitu) expose it: a
``vehicle`` by VIN (make, model, model year, body type, unladen weight, title
number, legal owner / lienholder), a ``registration`` (plate, registered
owner, expiration date; fleet registrations carry the fleet's unit number),
renewal ``transactions`` whose fees are the registration fee, CHP fee, vehicle
license fee on market value, commercial weight fee, smog abatement or road
improvement fee and a late penalty, DMV ``holds`` (stops) placed by parking
and toll agencies, smog certificates, lien releases and a title transfer from
seller to buyer with use tax. Rules (``_vehicle_registration_rules``): every
VIN passes the ISO 3779 / NHTSA check digit and its model-year code matches;
renewal opens 90 days before expiry; no renewal with an open parking or toll
hold; an older gasoline/diesel/hybrid vehicle renews only with a passed smog
certificate from the last 90 days; a transfer needs a released lien, the
registered owner as seller and an honest odometer. Fleet registrations line
up with the ``fleet`` service's vans. Left out: plates by mail, IRP
apportioned plates and out-of-state transfers.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, CompanyName, Date, Email, Id, Money, PersonName
from compoworld_gym.envs.services import _vehicle_registration_rules as rules
from compoworld_gym.envs.services._blocks import eq, ieq, select
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._vehicle_registration_models import (
    FuelType, Hold, PaymentMethod, Plate, Registration, RegistrationRenewal, RegistrationStatus, SmogCertificate,
    TitleTransfer, Vehicle, VehicleClass, VehicleRegistrationState, Vin,
)
from compoworld_gym.envs.services._vehicle_registration_seed import build_state
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

_Text = Field(min_length=3, max_length=300)


class VehicleRegistration(Service):
    """DMV business-partner registration: VIN checks, registrations, renewals, holds, smog, title transfers."""

    name = "vehicle_registration"
    description = ("DMV vehicle registration (business partner): vehicles by VIN with titles and liens, "
                   "registrations and plates, renewal fees, parking/toll holds, smog certificates, title transfers.")
    domain = "government"
    spec_source = None
    State = VehicleRegistrationState

    # ---------------------------------------------------------------- helpers
    def _vehicle(self, vin: str) -> Vehicle:
        v = self.state.vehicles.get(vin)
        if v is None:
            raise NotFound(f"no vehicle with VIN {vin} on file; check the VIN (validate_vin) or "
                           "search_registrations by plate.")
        return v

    def _reg(self, registration_id: str) -> Registration:
        return self.lookup(self.state.registrations, registration_id, "registration")

    def _holds_of(self, rid: str) -> list[Hold]:
        return [h for h in self.state.holds.values() if h.registration_id == rid]

    def _quote(self, reg: Registration) -> rules.RenewalQuote:
        return rules.quote(reg, self.state.vehicles[reg.vin], self._holds_of(reg.id), self.today)

    def _view(self, reg: Registration) -> dict:
        v, q = self.state.vehicles[reg.vin], self._quote(reg)
        return {**reg.model_dump(), "vehicle": f"{v.year} {v.make} {v.model}", "expired": self.today > reg.expires_on,
                "renewal_due": q.total_due, "open_holds": q.open_holds}

    def _new_plate(self) -> str:
        taken = {r.plate for r in self.state.registrations.values()}
        while True:
            n = self.state.counters.get("PLT", 1)
            self.state.counters["PLT"] = n + 1
            letters = "".join(string.ascii_uppercase[n // 26 ** k % 26] for k in (2, 1, 0))
            p = f"9{letters}{100 + n % 900}"
            if p not in taken:
                return p

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_fee_schedule(self) -> dict:
        """The registration fee schedule (USD) and the renewal, smog and transfer terms."""
        return rules.schedule()

    @tool(read_only=True)
    def validate_vin(self, vin: Vin) -> dict:
        """Check a VIN's check digit (position 9, ISO 3779 / NHTSA) and whether it is on file.

        Args:
            vin: the 17-character VIN.
        """
        want = rules.check_digit(vin)
        return {"vin": vin, "valid": vin[8] == want, "check_digit": want, "model_year_code": vin[9],
                "on_file": vin in self.state.vehicles}

    @tool(read_only=True, returns=Vehicle)
    def get_vehicle(self, vin: Vin) -> dict:
        """A vehicle by VIN: title, lienholder and lien status, smog certificates and its registrations.

        Args:
            vin: the 17-character VIN.
        """
        v = self._vehicle(vin)
        return {**v.model_dump(), "registrations": [r.id for r in self.state.registrations.values() if r.vin == vin],
                "smog_required": rules.smog_required(v, self.today),
                "smog_certified": rules.smog_certified(v, self.today)}

    @tool(read_only=True, returns=list[Registration])
    def search_registrations(self, plate: Optional[Plate] = None, vin: Optional[Vin] = None,
                             owner_email: Optional[Email] = None, owner_company: Optional[CompanyName] = None,
                             unit_number: Optional[Id("vehicle")] = None, status: Optional[RegistrationStatus] = None,
                             limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Search registrations by plate, VIN, owner email, owning company, fleet unit number or status.

        Args:
            plate: the licence plate.
            vin: the VIN.
            owner_email: the registered owner's (or fleet contact's) email.
            owner_company: the owning company (case-insensitive).
            unit_number: the fleet's unit number, e.g. VEH-0003.
            status: active or cancelled.
            limit: maximum number of registrations (1-200).
        """
        hits = select(self.state.registrations.values(), eq("plate", plate), eq("vin", vin),
                      ieq("owner_email", owner_email), eq("unit_number", unit_number), eq("status", status),
                      None if owner_company is None
                      else lambda r: (r.owner_company or "").lower() == owner_company.lower(),
                      limit=limit)
        return [self._view(r) for r in hits]

    @tool(read_only=True, returns=Registration)
    def get_registration(self, registration_id: Id("vehicle_registration")) -> dict:
        """One registration with its vehicle, renewal amount due, open holds, renewals and notes.

        Args:
            registration_id: the registration id, e.g. REG-0004.
        """
        return self._view(self._reg(registration_id))

    @tool(read_only=True, returns=rules.RenewalQuote)
    def get_renewal_fees(self, registration_id: Id("vehicle_registration")) -> dict:
        """The fees of renewing a registration today, the new expiration date, and what blocks a renewal
        (cancelled, too early, open holds, smog certificate missing).

        Args:
            registration_id: the registration.
        """
        return self._quote(self._reg(registration_id)).model_dump()

    @tool(read_only=True, returns=list[Hold])
    def list_holds(self, registration_id: Optional[Id("vehicle_registration")] = None,
                   status: Optional[Literal["open", "cleared"]] = None) -> list[dict]:
        """Parking and toll holds, optionally of one registration or one status.

        Args:
            registration_id: the registration.
            status: open or cleared.
        """
        return [h.model_dump() for h in select(self.state.holds.values(), eq("registration_id", registration_id),
                                               eq("status", status))]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Registration)
    def register_vehicle(self, vin: Vin, make: str = Field(min_length=2, max_length=40),
                         model: str = Field(min_length=1, max_length=40), year: int = Field(ge=1981, le=2100),
                         vehicle_class: VehicleClass = "passenger", fuel: FuelType = "gasoline",
                         body_type: str = Field(default="SD", pattern="^(SD|VN|PK|TK|MC|TL|SW|CP)$"),
                         unladen_weight_lbs: int = Field(ge=100, le=80000),
                         market_value: Money = Field(ge=0, le=MONEY_MAX), odometer: int = Field(ge=0, le=2_000_000),
                         registered_owner: str = Field(min_length=2, max_length=120), owner_email: Email = Field(),
                         mailing_address: Address = Field(min_length=5, max_length=120),
                         city: City = Field(min_length=2),
                         owner_company: Optional[CompanyName] = None, unit_number: Optional[Id("vehicle")] = None,
                         lienholder: Optional[CompanyName] = None) -> dict:
        """Register a vehicle (original registration): a plate is assigned and a year's fees are charged.

        The VIN must pass the check digit and its position-10 code must match ``year`` (422); a VIN with
        an active registration cannot be registered again (409).

        Args:
            vin: the 17-character VIN.
            make: manufacturer.
            model: model.
            year: model year.
            vehicle_class: passenger, commercial, motorcycle or trailer.
            fuel: gasoline, diesel, hybrid or electric.
            body_type: SD, VN, PK, TK, MC, TL, SW or CP.
            unladen_weight_lbs: unladen weight (lbs).
            market_value: market value (USD).
            odometer: odometer reading (miles).
            registered_owner: the owner (person or company).
            owner_email: the owner's or the fleet contact's email.
            mailing_address: street address for the registration card.
            city: city of the mailing address.
            owner_company: owning company, for a fleet.
            unit_number: the fleet's own unit number, e.g. VEH-0009.
            lienholder: the lender, when the vehicle is financed.
        """
        rules.validate_vin(vin)
        if vin[9] != rules.model_year_code(year):
            raise Unprocessable(f"VIN {vin} encodes model year code {vin[9]!r}, but {year} is "
                                f"{rules.model_year_code(year)!r}; check the model year.")
        if year > self.today.year + 1:
            raise Unprocessable(f"model year {year} is not on sale yet.")
        live = [r.id for r in self.state.registrations.values() if r.vin == vin and r.status == "active"]
        if live:
            raise Conflict(f"VIN {vin} already has active registration {live[0]}; renew or transfer it instead.")
        v = Vehicle(vin=vin, make=make, model=model, year=year, body_type=body_type, vehicle_class=vehicle_class,
                    fuel=fuel, unladen_weight_lbs=unladen_weight_lbs, market_value=money(market_value),
                    odometer=odometer, title_number=f"{self.new_id('TTL', 7).split('-')[1]}",
                    title_issued_on=self.today, lienholder=lienholder,
                    lien_status="active" if lienholder else "none")
        fees = rules.fee_lines(v, self.today)
        reg = Registration(id=self.new_id("REG"), vin=vin, plate=self._new_plate(), registered_owner=registered_owner,
                           owner_email=owner_email, owner_company=owner_company, unit_number=unit_number,
                           mailing_address=mailing_address, city=city, status="active", issued_on=self.today,
                           expires_on=rules.add_year(self.today),
                           notes=[f"Registered; fees paid {money(sum(f.amount for f in fees)):.2f}."])
        self.state.vehicles[vin], self.state.registrations[reg.id] = v, reg
        return {**self._view(reg), "fees_paid": [f.model_dump() for f in fees]}

    @tool(read_only=False, returns=RegistrationRenewal)
    def renew_registration(self, registration_id: Id("vehicle_registration"),
                           amount: Money = Field(ge=0.01, le=MONEY_MAX), payment_method: PaymentMethod = "credit_card",
                           reference: str = Field(default="", max_length=120)) -> dict:
        """Renew a registration for a year, paying get_renewal_fees' total_due exactly (422 otherwise).

        Refused for a cancelled registration or an open parking/toll hold (409), before the renewal
        opens or without a needed smog certificate (422).

        Args:
            registration_id: the registration.
            amount: the total due (USD).
            payment_method: credit_card, ach, check or cash.
            reference: the payer's reference.
        """
        reg = self._reg(registration_id)
        q = self._quote(reg)
        rules.check_renewable(q)
        if money(amount) != q.total_due:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the renewal fees {q.total_due:.2f}; "
                                "see get_renewal_fees.")
        ren = RegistrationRenewal(id=self.new_id("RNW"), renewed_on=self.today, previous_expiration=reg.expires_on,
                                  new_expiration=q.new_expiration, fees=q.fees, total=q.total_due,
                                  method=payment_method, reference=reference)
        reg.renewals.append(ren)
        reg.expires_on = q.new_expiration
        return {**ren.model_dump(), "registration_id": reg.id}

    @tool(read_only=False, returns=Hold)
    def pay_hold(self, hold_id: str = Field(pattern=r"^HLD-\d{4,}$"), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                 reference: str = Field(default="", max_length=120)) -> dict:
        """Pay an open parking or toll hold in full (``amount`` must equal it), which clears it.

        Args:
            hold_id: the hold, e.g. HLD-0001.
            amount: the hold's amount (USD).
            reference: the payer's reference.
        """
        h = self.lookup(self.state.holds, hold_id, "hold")
        if h.status != "open":
            raise Conflict(f"hold {h.id} is already cleared.")
        if money(amount) != h.amount:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the hold's {h.amount:.2f}.")
        h.status, h.cleared_on, h.reference = "cleared", self.today, reference
        return h.model_dump()

    @tool(read_only=False, returns=SmogCertificate)
    def record_smog_certificate(self, vin: Vin, result: Literal["passed", "failed"],
                                certificate_number: str = Field(pattern=r"^SC\d{7}$"),
                                station: str = Field(min_length=3, max_length=80),
                                odometer: int = Field(ge=0, le=2_000_000)) -> dict:
        """Record a smog inspection a STAR station performed today.

        The odometer may not be lower than the last reading on file (422: odometer rollback).

        Args:
            vin: the vehicle.
            result: passed or failed.
            certificate_number: SC followed by 7 digits.
            station: the station.
            odometer: the reading at the inspection (miles).
        """
        v = self._vehicle(vin)
        if odometer < v.odometer:
            raise Unprocessable(f"odometer {odometer} is below the {v.odometer} miles on file for {vin}.")
        if any(c.certificate_number == certificate_number for c in v.smog_certificates):
            raise Conflict(f"certificate {certificate_number} is already on file.")
        cert = SmogCertificate(certificate_number=certificate_number, station=station, tested_on=self.today,
                               result=result, odometer=odometer)
        v.smog_certificates.append(cert)
        v.odometer = odometer
        return {**cert.model_dump(), "vin": vin}

    @tool(read_only=False, returns=Vehicle)
    def record_lien_release(self, vin: Vin, lienholder: CompanyName = Field(min_length=2)) -> dict:
        """Record the lienholder's release of interest (the loan is paid off), so the title can transfer.

        Args:
            vin: the vehicle.
            lienholder: the lender releasing its interest (must be the one on the title).
        """
        v = self._vehicle(vin)
        if v.lien_status != "active":
            raise Conflict(f"vehicle {vin} has no active lien (lien status {v.lien_status}).")
        if (v.lienholder or "").lower() != lienholder.lower():
            raise Unprocessable(f"the lienholder on the title of {vin} is {v.lienholder}, not {lienholder}.")
        v.lien_status, v.lien_released_on = "released", self.today
        return v.model_dump()

    @tool(read_only=False, returns=TitleTransfer)
    def transfer_title(self, registration_id: Id("vehicle_registration"), seller_name: str = Field(min_length=2),
                       buyer_name: PersonName = Field(min_length=2), buyer_email: Email = Field(),
                       buyer_address: Address = Field(min_length=5, max_length=120),
                       buyer_city: City = Field(min_length=2), sale_price: Money = Field(ge=0, le=MONEY_MAX),
                       odometer: int = Field(ge=0, le=2_000_000), amount: Money = Field(ge=0.01, le=MONEY_MAX),
                       sale_date: Optional[Date] = None) -> dict:
        """Transfer the title and registration from the registered owner to a buyer, paying the transfer
        fee plus use tax on the sale price (``amount`` must equal it).

        Needs an active registration (409), no active lien (409: record_lien_release first), the
        registered owner as seller, a sale date not in the future and an odometer not below the one on
        file (422).

        Args:
            registration_id: the registration.
            seller_name: the registered owner selling.
            buyer_name: the buyer.
            buyer_email: the buyer's email.
            buyer_address: the buyer's street address.
            buyer_city: the buyer's city.
            sale_price: purchase price (USD).
            odometer: odometer disclosure (miles).
            amount: transfer fee + use tax (USD).
            sale_date: date of sale (default today).
        """
        reg = self._reg(registration_id)
        v = self.state.vehicles[reg.vin]
        if reg.status != "active":
            raise Conflict(f"registration {reg.id} is {reg.status}; only an active registration transfers.")
        if v.lien_status == "active":
            raise Conflict(f"{v.lienholder} still holds a lien on {v.vin}; record_lien_release before the transfer.")
        if seller_name.lower() != reg.registered_owner.lower():
            raise Unprocessable(f"the seller must be the registered owner, {reg.registered_owner}.")
        day = sale_date or self.today
        if day > self.today:
            raise Unprocessable(f"sale date {day} is in the future.")
        if odometer < v.odometer:
            raise Unprocessable(f"odometer {odometer} is below the {v.odometer} miles on file (odometer rollback).")
        tax = money(sale_price * rules.USE_TAX_RATE)
        total = money(rules.TRANSFER_FEE + tax)
        if money(amount) != total:
            raise Unprocessable(f"amount {money(amount):.2f} does not match the transfer fee {rules.TRANSFER_FEE:.2f} "
                                f"+ use tax {tax:.2f} = {total:.2f}.")
        t = TitleTransfer(id=self.new_id("TRF"), vin=v.vin, registration_id=reg.id, seller=reg.registered_owner,
                          buyer_name=buyer_name, buyer_email=buyer_email, sale_price=money(sale_price), sale_date=day,
                          odometer=odometer, transfer_fee=rules.TRANSFER_FEE, use_tax=tax, total=total,
                          new_title_number=self.new_id("TTL", 7).split("-")[1])
        self.state.transfers[t.id] = t
        v.title_number, v.title_issued_on, v.odometer = t.new_title_number, self.today, odometer
        v.lienholder, v.lien_status, v.lien_released_on = None, "none", None
        reg.registered_owner, reg.owner_email, reg.owner_company, reg.unit_number = buyer_name, buyer_email, None, None
        reg.mailing_address, reg.city = buyer_address, buyer_city
        reg.notes.append(f"Title transferred from {t.seller} to {buyer_name} ({t.id}).")
        return t.model_dump()

    @tool(read_only=False, destructive=True, returns=Registration)
    def cancel_registration(self, registration_id: Id("vehicle_registration"), reason: str = _Text) -> dict:
        """Cancel an active registration (vehicle junked, stolen or moved out of state).

        Args:
            registration_id: the registration.
            reason: why.
        """
        reg = self._reg(registration_id)
        if reg.status != "active":
            raise Conflict(f"registration {reg.id} is already cancelled.")
        reg.status, reg.cancel_reason = "cancelled", reason
        return self._view(reg)

    @tool(read_only=False, returns=Registration)
    def add_registration_note(self, registration_id: Id("vehicle_registration"),
                              note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a note to a registration.

        Args:
            registration_id: the registration.
            note: the note.
        """
        reg = self._reg(registration_id)
        reg.notes.append(note)
        return self._view(reg)

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> VehicleRegistrationState:
        return build_state(fake, rng, today)
