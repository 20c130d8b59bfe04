"""Shipping: rates, shipments, labels, tracking events and address validation.

No shipping server is in ``compoworld_gym/data/mcp_servers.jsonl``; the interface
is designed the way ShipStation / EasyPost look: validate an address, quote
rates per carrier and service level, create a shipment, buy its label
(which assigns the tracking number), then follow carrier tracking events
``label_purchased -> in_transit -> out_for_delivery -> delivered`` (or
``exception``). Rates are a fixed, deterministic tariff: base per carrier
and service plus a per-kg charge, doubled for international parcels.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Country, Date, DateTime, Id, Money, PersonName, TrackingNumber, Url
from compoworld_gym.envs.services._commerce import PRODUCTS_BY_SKU, book_tracking_number, money, order_book
from compoworld_gym.errors import Conflict, InvalidArgument, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

Carrier = Literal["ups", "fedex", "usps", "dhl"]
ServiceLevel = Literal["ground", "express", "overnight"]
ShipmentStatus = Literal["created", "label_purchased", "in_transit", "out_for_delivery", "delivered",
                         "exception", "cancelled"]
EventStatus = Literal["in_transit", "out_for_delivery", "delivered", "exception"]
#: (base USD, per-kg USD, transit days) per carrier and service level.
TARIFF: dict[str, dict[str, tuple[float, float, int]]] = {
    "ups": {"ground": (8.50, 1.10, 5), "express": (19.00, 2.40, 2), "overnight": (38.00, 3.90, 1)},
    "fedex": {"ground": (8.90, 1.05, 5), "express": (18.50, 2.50, 2), "overnight": (36.50, 4.10, 1)},
    "usps": {"ground": (6.95, 0.95, 6), "express": (16.00, 2.20, 3)},
    "dhl": {"express": (24.00, 2.80, 3), "overnight": (49.00, 4.50, 1)},
}
_PREFIX = {"ups": "1ZCW", "fedex": "7712", "usps": "9400", "dhl": "JD01"}
_NEXT = {"label_purchased": ("in_transit",), "in_transit": ("in_transit", "out_for_delivery", "exception"),
         "out_for_delivery": ("delivered", "exception", "in_transit"), "exception": ("in_transit", "delivered")}
_POSTAL = {"US": r"^\d{5}(-\d{4})?$", "DE": r"^\d{5}$", "FR": r"^\d{5}$", "CA": r"^[A-Z]\d[A-Z] ?\d[A-Z]\d$",
           "GB": r"^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$"}
ORIGIN = {"WH-EAST": "Newark", "WH-WEST": "Reno", "WH-CENT": "Columbus"}
#: Furthest ship date a label can be created for, in days after today (carriers book weeks, not years, ahead).
MAX_SHIP_AHEAD_DAYS = 90


class TrackingEvent(Record):
    """One carrier scan."""

    at: DateTime = Field(description="When the scan happened.")
    status: EventStatus = Field(description="Status reported by the scan.")
    location: City = Field(description="Where the scan happened.")
    description: str = Field(default="", description="Carrier message.")


class Shipment(Record):
    """A parcel from a warehouse to a recipient."""

    id: Id("shipment") = Field(description="Shipment id, e.g. SHP-0001.")
    order_id: Optional[Id("order")] = Field(default=None, description="Store order shipped, if any.")
    from_warehouse: Id("warehouse") = Field(description="Origin warehouse code.")
    to_name: PersonName = Field(description="Recipient's name.")
    to_address: Address = Field(description="Recipient's street address.")
    to_city: City = Field(description="Recipient's city.")
    to_postal_code: str = Field(description="Recipient's postal code.")
    to_country: Country = Field(description="ISO alpha-2 country code.")
    weight_kg: float = Field(gt=0, description="Parcel weight in kg.")
    carrier: Carrier = Field(description="Carrier.")
    service: ServiceLevel = Field(description="Service level.")
    rate: Money = Field(description="Postage (USD).")
    status: ShipmentStatus = Field(description="Lifecycle status.")
    tracking_number: Optional[TrackingNumber] = Field(default=None, description="Assigned when the label is bought.")
    label_url: Optional[Url] = Field(default=None, description="Label PDF once bought.")
    ship_date: Date = Field(description="Planned ship date.")
    estimated_delivery: Date = Field(description="Estimated delivery date.")
    events: list[TrackingEvent] = Field(default_factory=list, description="Tracking events, oldest first.")


class ShippingState(ServiceState):
    """All shipments."""

    shipments: dict[str, Shipment] = Field(default_factory=dict, description="Shipments by id.")


def _rate(carrier: str, service: str, weight_kg: float, country: str) -> float:
    base, per_kg, _ = TARIFF[carrier][service]
    return money((base + per_kg * weight_kg) * (1 if country == "US" else 2))


def _address_problems(address: str, city: str, postal_code: str, country: str) -> list[str]:
    problems = []
    if not re.search(r"\d", address) or len(address.split()) < 2:
        problems.append("street address needs a house number and a street name")
    if not city.strip():
        problems.append("city is empty")
    pattern = _POSTAL.get(country)
    if pattern is None:
        problems.append(f"country {country!r} is not served (served: {', '.join(sorted(_POSTAL))})")
    elif not re.match(pattern, postal_code.strip().upper()):
        problems.append(f"postal code {postal_code!r} is not valid for {country}")
    return problems


class Shipping(Service):
    """Parcel shipping: address validation, rates, shipments, labels and tracking."""

    name = "shipping"
    description = "Parcel shipping (ShipStation-like): address validation, rate quotes, shipments, labels, tracking."
    domain = "logistics"
    spec_source = None
    State = ShippingState

    def _shipment(self, shipment_id: str) -> Shipment:
        return self.lookup(self.state.shipments, shipment_id, "shipment")

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_carriers(self) -> list[dict]:
        """Carriers with their service levels, tariff (base + per kg, USD) and transit days."""
        return [{"carrier": c, "services": [{"service": s, "base": b, "per_kg": k, "transit_days": d}
                                            for s, (b, k, d) in svc.items()]} for c, svc in TARIFF.items()]

    @tool(read_only=True)
    def validate_address(self, address: Address, city: City, postal_code: str,
                         country: Country = Field(default="US", pattern=r"^[A-Z]{2}$")) -> dict:
        """Check that an address is deliverable; returns valid, the problems found and a normalised form.

        Args:
            address: street address with house number.
            city: city.
            postal_code: postal code.
            country: ISO alpha-2 country code.
        """
        problems = _address_problems(address, city, postal_code, country)
        return {"valid": not problems, "problems": problems,
                "normalized": {"address": address.strip().title(), "city": city.strip().title(),
                               "postal_code": postal_code.strip().upper(), "country": country}}

    @tool(read_only=True)
    def get_rates(self, weight_kg: float = Field(gt=0, le=70),
                  to_country: Country = Field(default="US", pattern=r"^[A-Z]{2}$"),
                  service: Optional[ServiceLevel] = None) -> list[dict]:
        """Quote postage for every carrier and service level, cheapest first.

        Args:
            weight_kg: parcel weight in kg (max 70).
            to_country: destination ISO alpha-2 country code (international costs double).
            service: only this service level.
        """
        quotes = [{"carrier": c, "service": s, "rate": _rate(c, s, weight_kg, to_country),
                   "transit_days": TARIFF[c][s][2]}
                  for c in TARIFF for s in TARIFF[c] if service is None or s == service]
        return sorted(quotes, key=lambda q: (q["rate"], q["carrier"]))

    @tool(read_only=True, returns=Shipment)
    def get_shipment(self, shipment_id: Id("shipment")) -> dict:
        """Get one shipment with its tracking events.

        Args:
            shipment_id: the shipment id, e.g. SHP-0001.
        """
        return self._shipment(shipment_id).model_dump()

    @tool(read_only=True, returns=list[Shipment])
    def list_shipments(self, status: Optional[ShipmentStatus] = None, carrier: Optional[Carrier] = None,
                       order_id: Optional[Id("order")] = None,
                       limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """List shipments by status, carrier or order (without events).

        Args:
            status: only shipments with this status.
            carrier: only this carrier.
            order_id: only shipments of this order.
            limit: maximum number of shipments (1-200).
        """
        return [s.model_dump(exclude={"events"}) for s in self.state.shipments.values()
                if (status is None or s.status == status) and (carrier is None or s.carrier == carrier)
                and (order_id is None or s.order_id == order_id)][:limit]

    @tool(read_only=True, returns=Shipment)
    def track_shipment(self, tracking_number: TrackingNumber) -> dict:
        """Tracking history of a parcel by tracking number.

        Args:
            tracking_number: the carrier tracking number.
        """
        for s in self.state.shipments.values():
            if s.tracking_number == tracking_number.strip().upper():
                return {"shipment_id": s.id, "carrier": s.carrier, "status": s.status,
                        "estimated_delivery": s.estimated_delivery, "events": [e.model_dump() for e in s.events]}
        raise NotFound(f"tracking number {tracking_number!r} not found; labels get one when purchased.")

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Shipment)
    def create_shipment(self, to_name: PersonName = Field(min_length=1), to_address: Address = Field(min_length=3),
                        to_city: City = Field(min_length=1), to_postal_code: str = Field(min_length=2, max_length=12),
                        weight_kg: float = Field(gt=0, le=70), carrier: Carrier = "ups",
                        service: ServiceLevel = "ground",
                        to_country: Country = Field(default="US", pattern=r"^[A-Z]{2}$"),
                        from_warehouse: Id("warehouse") = "WH-EAST", order_id: Optional[Id("order")] = None,
                        ship_date: Optional[Date] = None) -> dict:
        """Create a shipment (status 'created') priced from the tariff; the address must validate (422).

        Args:
            to_name: recipient's name.
            to_address: street address with house number.
            to_city: city.
            to_postal_code: postal code.
            weight_kg: parcel weight in kg (max 70).
            carrier: ups, fedex, usps or dhl.
            service: ground, express or overnight (not every carrier offers every level).
            to_country: ISO alpha-2 country code.
            from_warehouse: origin warehouse code: WH-EAST, WH-WEST or WH-CENT.
            order_id: store order shipped, if any.
            ship_date: planned ship date (YYYY-MM-DD), today to 90 days ahead; defaults to today.
        """
        if from_warehouse not in ORIGIN:
            raise NotFound(f"warehouse {from_warehouse!r} not found; use one of {', '.join(ORIGIN)}.")
        if service not in TARIFF[carrier]:
            raise InvalidArgument(f"{carrier} does not offer {service}; it offers {', '.join(TARIFF[carrier])}.")
        problems = _address_problems(to_address, to_city, to_postal_code, to_country)
        if problems:
            raise Unprocessable("address is not deliverable: " + "; ".join(problems) + ".")
        day = ship_date or self.today
        if day < self.today:
            raise Unprocessable(f"ship_date {day} is in the past.")
        if (day - self.today).days > MAX_SHIP_AHEAD_DAYS:  # also keeps estimated_delivery a valid date
            last = self.today + dt.timedelta(days=MAX_SHIP_AHEAD_DAYS)
            raise Unprocessable(f"ship_date {day} is more than {MAX_SHIP_AHEAD_DAYS} days ahead; "
                                f"labels can be created for ship dates up to {last}.")
        s = Shipment(id=self.new_id("SHP"), order_id=order_id, from_warehouse=from_warehouse, to_name=to_name,
                     to_address=to_address, to_city=to_city, to_postal_code=to_postal_code.strip().upper(),
                     to_country=to_country, weight_kg=weight_kg, carrier=carrier, service=service,
                     rate=_rate(carrier, service, weight_kg, to_country), status="created", ship_date=day,
                     estimated_delivery=day + dt.timedelta(days=TARIFF[carrier][service][2]))
        self.state.shipments[s.id] = s
        return s.model_dump()

    @tool(read_only=False, returns=Shipment)
    def purchase_label(self, shipment_id: Id("shipment")) -> dict:
        """Buy the label of a created shipment: assigns the tracking number and label URL.

        Args:
            shipment_id: the shipment.
        """
        s = self._shipment(shipment_id)
        if s.status != "created":
            raise Conflict(f"shipment {s.id} is {s.status}; a label can only be bought for a created shipment.")
        n = self.state.counters.get("TRK", 1)
        self.state.counters["TRK"] = n + 1
        s.tracking_number = f"{_PREFIX[s.carrier]}{9100 + n:04d}{int(s.id.split('-')[1]):04d}"
        s.label_url = f"https://labels.shipping.example/{s.id}.pdf"
        s.status = "label_purchased"
        return s.model_dump(exclude={"events"})

    @tool(read_only=False, destructive=True, returns=Shipment)
    def cancel_shipment(self, shipment_id: Id("shipment")) -> dict:
        """Cancel a shipment (voiding its label) before the carrier picks it up.

        Args:
            shipment_id: the shipment; status must be created or label_purchased.
        """
        s = self._shipment(shipment_id)
        if s.status not in ("created", "label_purchased"):
            raise Conflict(f"shipment {s.id} is {s.status}; only created or label_purchased can be cancelled.")
        s.status = "cancelled"
        return s.model_dump(exclude={"events"})

    @tool(read_only=False, returns=Shipment)
    def update_shipment_address(self, shipment_id: Id("shipment"), to_address: Address = Field(min_length=3),
                                to_city: City = Field(min_length=1),
                                to_postal_code: str = Field(min_length=2, max_length=12),
                                to_country: Country = Field(default="US", pattern=r"^[A-Z]{2}$")) -> dict:
        """Change the destination of a shipment whose label is not bought yet; the rate is re-quoted.

        Args:
            shipment_id: the created shipment.
            to_address: new street address.
            to_city: new city.
            to_postal_code: new postal code.
            to_country: new ISO alpha-2 country code.
        """
        s = self._shipment(shipment_id)
        if s.status != "created":
            raise Conflict(f"shipment {s.id} is {s.status}; cancel it and create a new one to change the address.")
        problems = _address_problems(to_address, to_city, to_postal_code, to_country)
        if problems:
            raise Unprocessable("address is not deliverable: " + "; ".join(problems) + ".")
        s.to_address, s.to_city, s.to_country = to_address, to_city, to_country
        s.to_postal_code = to_postal_code.strip().upper()
        s.rate = _rate(s.carrier, s.service, s.weight_kg, to_country)
        return s.model_dump(exclude={"events"})

    @tool(read_only=False, returns=TrackingEvent)
    def add_tracking_event(self, shipment_id: Id("shipment"), status: EventStatus, location: City = Field(min_length=1),
                           description: str = "") -> dict:
        """Record a carrier scan; the transition must be allowed (409), e.g. nothing after delivered.

        Args:
            shipment_id: the shipment.
            status: in_transit, out_for_delivery, delivered or exception.
            location: city of the scan.
            description: carrier message.
        """
        s = self._shipment(shipment_id)
        allowed = _NEXT.get(s.status, ())
        if status not in allowed:
            raise Conflict(f"shipment {s.id} is {s.status}; next status can be "
                           f"{', '.join(allowed) if allowed else 'nothing (final)'}.")
        ev = TrackingEvent(at=self.now(), status=status, location=location, description=description)
        s.events.append(ev)
        s.status = status
        return {"shipment_id": s.id, "shipment_status": s.status, **ev.model_dump()}

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> ShippingState:
        state = ShippingState()
        n = 0
        for b in order_book(today):
            if b.status not in ("fulfilled", "delivered", "refunded"):
                continue
            n += 1
            c = b.customer
            weight = round(sum(PRODUCTS_BY_SKU[ln.sku].weight_kg * ln.quantity for ln in b.lines) + 0.3, 2)
            service = "express" if b.shipping_method == "express" else "ground"
            ship = b.placed_on + dt.timedelta(days=1)
            s = Shipment(id=f"SHP-{n:04d}", order_id=b.id, from_warehouse="WH-EAST", to_name=c.name,
                         to_address=c.address, to_city=c.city, to_postal_code=c.postal_code, to_country=c.country,
                         weight_kg=weight, carrier="ups", service=service,
                         rate=_rate("ups", service, weight, c.country),
                         status="label_purchased", tracking_number=book_tracking_number(b.id),
                         label_url=f"https://labels.shipping.example/SHP-{n:04d}.pdf", ship_date=ship,
                         estimated_delivery=ship + dt.timedelta(days=TARIFF["ups"][service][2]))
            route = [("in_transit", "Newark", "Departed facility"), ("in_transit", "Columbus", "Arrived at hub")]
            if b.status in ("delivered", "refunded"):
                route += [("out_for_delivery", c.city, "Out for delivery"), ("delivered", c.city, "Left at front door")]
            elif rng.random() < 0.5:
                route.append(("exception", "Columbus", "Weather delay"))
            for k, (st, loc, desc) in enumerate(route):
                at = dt.datetime.combine(ship + dt.timedelta(days=k), dt.time(8 + rng.randint(0, 9), 15))
                s.events.append(TrackingEvent(at=at, status=st, location=loc, description=desc))
                s.status = st
            state.shipments[s.id] = s
        for _ in range(3):  # outbound parcels not yet labelled (samples to business contacts)
            n += 1
            s = Shipment(id=f"SHP-{n:04d}", from_warehouse=rng.choice(tuple(ORIGIN)), to_name=fake.name(),
                         to_address=f"{rng.randint(10, 999)} {fake.street_name()}", to_city=fake.city(),
                         to_postal_code=f"{rng.randint(10000, 99999)}", to_country="US", weight_kg=1.5,
                         carrier="usps", service="ground", rate=_rate("usps", "ground", 1.5, "US"), status="created",
                         ship_date=today, estimated_delivery=today + dt.timedelta(days=TARIFF["usps"]["ground"][2]))
            state.shipments[s.id] = s
        state.counters.update({"SHP": n + 1, "TRK": 1})
        return state
