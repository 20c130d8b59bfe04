"""Hotels: search hotels per city, check availability, reserve rooms without overbooking.

No hotel server is in ``compoworld_gym/data/mcp_servers.jsonl`` (the Airbnb servers
there search private listings, not hotel room inventory); the interface is
designed the way the Amadeus Hotel / Booking.com APIs look (hotel search by
city and stay dates, per-room-type offers with nightly rates, bookings with a
lead guest, a free-cancellation deadline). Rules: a room type never has more
rooms reserved on a night than it holds (409); Friday and Saturday nights
cost 20% more; 14% tax; free cancellation until 2 days before check-in,
afterwards the first night is charged.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Email, Id, Money, PersonName
from compoworld_gym.envs.services._commerce import MONEY_MAX, money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.errors import Conflict, InvalidArgument, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

RoomKind = Literal["standard", "deluxe", "suite"]
Amenity = Literal["wifi", "breakfast", "parking", "pool", "gym", "spa", "airport_shuttle"]
TAX_RATE = 0.14
WEEKEND_MULT = 1.2
FREE_CANCEL_DAYS = 2
MAX_NIGHTS = 30
#: City -> (street names, ZIP/postcode pattern, price level).
CITIES: dict[str, tuple[tuple[str, ...], str, float]] = {
    "San Francisco": (("Market St", "Geary St", "Mission St"), "CA 941{:02d}", 1.3),
    "New York": (("W 44th St", "Lexington Ave", "Broadway"), "NY 100{:02d}", 1.4),
    "Chicago": (("N Michigan Ave", "W Wacker Dr", "S State St"), "IL 606{:02d}", 1.0),
    "Austin": (("Congress Ave", "E 6th St", "S Lamar Blvd"), "TX 787{:02d}", 0.9),
    "Seattle": (("Pike St", "4th Ave", "Alaskan Way"), "WA 981{:02d}", 1.1),
    "London": (("Strand", "Euston Rd", "Kensington High St"), "WC2N {:d}HS", 1.5),
}
_NAMES = ("Harborview", "Grand Central", "Parkside", "The Foundry", "Riverside Inn", "Meridian", "The Lark",
          "Union Square Suites", "Cedar House", "Beacon")


class RoomType(Record):
    """A room type of a hotel and how many rooms of it exist."""

    kind: RoomKind = Field(description="standard, deluxe or suite.")
    count: int = Field(ge=0, description="Rooms of this type in the hotel.")
    max_guests: int = Field(ge=1, description="Guests one room sleeps.")
    nightly_rate: Money = Field(description="USD per room per weekday night, before tax.")


class Hotel(Record):
    """A hotel."""

    id: Id("hotel") = Field(description="Hotel id, e.g. HTL-0001.")
    name: str = Field(description="Hotel name.")
    city: City = Field(description="City.")
    address: Address = Field(description="Street address.")
    stars: int = Field(ge=1, le=5, description="Star rating.")
    guest_rating: float = Field(ge=0, le=10, description="Average guest score out of 10.")
    amenities: list[Amenity] = Field(description="Amenities offered.")
    room_types: dict[str, RoomType] = Field(description="Room types by kind.")


class Reservation(Record):
    """A hotel reservation."""

    id: Id("reservation") = Field(description="Reservation id, e.g. RSV-0001.")
    hotel_id: Id("hotel") = Field(description="The hotel.")
    hotel_name: str = Field(description="Hotel name.")
    city: City = Field(description="Hotel city.")
    room_type: RoomKind = Field(description="Room type reserved.")
    rooms: int = Field(ge=1, description="Number of rooms.")
    guests: int = Field(ge=1, description="Number of guests in total.")
    guest_name: PersonName = Field(description="Lead guest.")
    guest_email: Email = Field(description="Lead guest's email.")
    check_in: Date = Field(description="Arrival date.")
    check_out: Date = Field(description="Departure date (the last night is the day before).")
    total_price: Money = Field(description="USD for the whole stay, tax included.")
    status: Literal["confirmed", "cancelled"] = Field(description="Reservation status.")
    cancellation_fee: Money = Field(default=0.0, description="USD kept on cancellation.")
    special_requests: list[str] = Field(default_factory=list, description="Guest requests, oldest first.")
    created_on: Date = Field(description="Date booked.")


class HotelsState(ServiceState):
    """Hotels and reservations."""

    hotels: dict[str, Hotel] = Field(default_factory=dict, description="Hotels by id.")
    reservations: dict[str, Reservation] = Field(default_factory=dict, description="Reservations by id.")


def _nights(check_in: dt.date, check_out: dt.date) -> list[dt.date]:
    return [check_in + dt.timedelta(days=i) for i in range((check_out - check_in).days)]


class Hotels(Service):
    """Hotel search per city, availability by room type, reservations that never overbook."""

    name = "hotels"
    description = "Hotel booking: search hotels by city and dates, room availability and prices, reservations and cancellations."
    domain = "travel"
    spec_source = None
    State = HotelsState

    # ---------------------------------------------------------------- helpers
    def _stay(self, check_in: dt.date, check_out: dt.date) -> list[dt.date]:
        if check_out <= check_in:
            raise Unprocessable(f"check_out {check_out} must be after check_in {check_in}.")
        if check_in < self.today:
            raise Unprocessable(f"check_in {check_in} is in the past (today is {self.today}).")
        if (check_out - check_in).days > MAX_NIGHTS:
            raise Unprocessable(f"a stay may last at most {MAX_NIGHTS} nights.")
        return _nights(check_in, check_out)

    def _free(self, hotel: Hotel, kind: str, nights: list[dt.date], exclude: str = "") -> int:
        rt = hotel.room_types.get(kind)
        if rt is None:
            return 0
        mine = [r for r in self.state.reservations.values() if r.hotel_id == hotel.id and r.room_type == kind
                and r.status == "confirmed" and r.id != exclude]
        worst = rt.count
        for night in nights:
            taken = sum(r.rooms for r in mine if r.check_in <= night < r.check_out)
            worst = min(worst, rt.count - taken)
        return max(0, worst)

    @staticmethod
    def _price(rt: RoomType, nights: list[dt.date], rooms: int) -> dict:
        sub = money(sum(rt.nightly_rate * (WEEKEND_MULT if n.weekday() in (4, 5) else 1.0) for n in nights) * rooms)
        tax = money(sub * TAX_RATE)
        return {"nights": len(nights), "subtotal": sub, "tax": tax, "total_price": money(sub + tax)}

    def _room(self, hotel: Hotel, kind: str) -> RoomType:
        rt = hotel.room_types.get(kind)
        if rt is None:
            raise InvalidArgument(f"{hotel.name} has no {kind} rooms; it has: {', '.join(hotel.room_types)}.")
        return rt

    def _reserve_checks(self, hotel: Hotel, kind: str, nights: list, rooms: int, guests: int, exclude: str = "") -> RoomType:
        rt = self._room(hotel, kind)
        if guests > rt.max_guests * rooms:
            raise Unprocessable(f"{rooms} {kind} room(s) sleep at most {rt.max_guests * rooms} guests; book more rooms.")
        if guests < rooms:
            raise Unprocessable("each room needs at least one guest.")
        free = self._free(hotel, kind, nights, exclude)
        if free < rooms:
            raise Conflict(f"{hotel.name} has {free} {kind} room(s) free on every night of that stay, {rooms} "
                           "needed; try another room type, hotel or dates.")
        return rt

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def list_hotel_cities(self) -> list[dict]:
        """List the cities with hotels and how many hotels each has."""
        counts: dict[str, int] = {}
        for h in self.state.hotels.values():
            counts[h.city] = counts.get(h.city, 0) + 1
        return [{"city": c, "hotels": n} for c, n in counts.items()]

    @tool(read_only=True, returns=list[Hotel])
    def search_hotels(
        self,
        city: City = Field(min_length=1),
        check_in: Date = Field(),
        check_out: Date = Field(),
        guests: int = Field(default=1, ge=1, le=20),
        rooms: int = Field(default=1, ge=1, le=9),
        min_stars: int = Field(default=1, ge=1, le=5),
        max_price_per_night: Optional[Money] = Field(default=None, gt=0, le=MONEY_MAX),
        amenities: list[Amenity] = Field(default_factory=list),
        sort_by: Literal["price", "rating", "stars"] = "price",
    ) -> list[dict]:
        """Search hotels in a city with a room type free for the whole stay, cheapest offer per hotel.

        Args:
            city: city name, e.g. 'Chicago' (see list_hotel_cities).
            check_in: arrival date (YYYY-MM-DD).
            check_out: departure date (YYYY-MM-DD), after check_in.
            guests: total guests.
            rooms: rooms needed.
            min_stars: minimum star rating.
            max_price_per_night: only offers whose average nightly room rate (before tax) is at most this (USD).
            amenities: hotels must offer all of these.
            sort_by: price (total, low first), rating or stars (high first).
        """
        nights = self._stay(check_in, check_out)
        out = []
        for h in self.state.hotels.values():
            if h.city.lower() != city.lower() or h.stars < min_stars or not set(amenities) <= set(h.amenities):
                continue
            offers = []
            for kind, rt in h.room_types.items():
                if rt.max_guests * rooms < guests or self._free(h, kind, nights) < rooms:
                    continue
                p = self._price(rt, nights, rooms)
                avg = money(p["subtotal"] / len(nights) / rooms)
                if max_price_per_night is None or avg <= max_price_per_night:
                    offers.append({"room_type": kind, "average_nightly_rate": avg, **p})
            if offers:
                best = min(offers, key=lambda o: o["total_price"])
                out.append({"hotel_id": h.id, "name": h.name, "address": h.address, "stars": h.stars,
                            "guest_rating": h.guest_rating, "amenities": h.amenities, "cheapest_offer": best})
        key = {"price": lambda o: (o["cheapest_offer"]["total_price"], o["hotel_id"]),
               "rating": lambda o: (-o["guest_rating"], o["hotel_id"]),
               "stars": lambda o: (-o["stars"], o["hotel_id"])}[sort_by]
        return sorted(out, key=key)

    @tool(read_only=True, returns=Hotel)
    def get_hotel(self, hotel_id: Id("hotel")) -> dict:
        """Get a hotel's details: address, stars, rating, amenities and room types with rates.

        Args:
            hotel_id: the hotel id, e.g. HTL-0003.
        """
        return self.lookup(self.state.hotels, hotel_id, "hotel").model_dump()

    @tool(read_only=True)
    def check_availability(
        self, hotel_id: Id("hotel"), check_in: Date, check_out: Date, rooms: int = Field(default=1, ge=1, le=9)
    ) -> dict:
        """For each room type: rooms free on every night of the stay and the price of the stay.

        Args:
            hotel_id: the hotel.
            check_in: arrival date (YYYY-MM-DD).
            check_out: departure date (YYYY-MM-DD).
            rooms: rooms wanted (prices are for this many).
        """
        h = self.lookup(self.state.hotels, hotel_id, "hotel")
        nights = self._stay(check_in, check_out)
        types = []
        for kind, rt in h.room_types.items():
            free = self._free(h, kind, nights)
            types.append({"room_type": kind, "rooms_free": free, "available": free >= rooms,
                          "max_guests_per_room": rt.max_guests, **self._price(rt, nights, rooms)})
        return {"hotel_id": h.id, "name": h.name, "check_in": check_in, "check_out": check_out,
                "free_cancellation_until": check_in - dt.timedelta(days=FREE_CANCEL_DAYS), "room_types": types}

    @tool(read_only=True, returns=Reservation)
    def get_reservation(self, reservation_id: Id("reservation")) -> dict:
        """Get one reservation.

        Args:
            reservation_id: the reservation id, e.g. RSV-0002.
        """
        return self.lookup(self.state.reservations, reservation_id, "reservation").model_dump()

    @tool(read_only=True, returns=list[Reservation])
    def list_reservations(
        self,
        guest_email: Optional[Email] = None,
        hotel_id: Optional[Id("hotel")] = None,
        status: Optional[Literal["confirmed", "cancelled"]] = None,
        limit: int = Field(default=50, ge=1, le=200),
    ) -> list[dict]:
        """List reservations by guest email, hotel or status.

        Args:
            guest_email: lead guest's email.
            hotel_id: only this hotel.
            status: confirmed or cancelled.
            limit: maximum number of reservations (1-200).
        """
        low = guest_email.lower() if guest_email else None
        return [r.model_dump() for r in self.state.reservations.values()
                if (low is None or r.guest_email.lower() == low) and (hotel_id is None or r.hotel_id == hotel_id)
                and (status is None or r.status == status)][:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Reservation)
    def create_reservation(
        self,
        hotel_id: Id("hotel"),
        room_type: RoomKind,
        check_in: Date,
        check_out: Date,
        guest_name: PersonName = Field(min_length=1),
        guest_email: Email = Field(min_length=3),
        guests: int = Field(default=1, ge=1, le=20),
        rooms: int = Field(default=1, ge=1, le=9),
        special_requests: list[str] = Field(default_factory=list),
    ) -> dict:
        """Reserve rooms of one type for a stay; refused (409) if any night lacks free rooms.

        Args:
            hotel_id: the hotel.
            room_type: standard, deluxe or suite.
            check_in: arrival date (YYYY-MM-DD), today or later.
            check_out: departure date (YYYY-MM-DD).
            guest_name: lead guest's full name.
            guest_email: lead guest's email.
            guests: total guests (must fit the rooms).
            rooms: rooms to reserve.
            special_requests: e.g. 'late check-in', 'high floor'.
        """
        h = self.lookup(self.state.hotels, hotel_id, "hotel")
        nights = self._stay(check_in, check_out)
        rt = self._reserve_checks(h, room_type, nights, rooms, guests)
        r = Reservation(
            id=self.new_id("RSV"), hotel_id=h.id, hotel_name=h.name, city=h.city, room_type=room_type, rooms=rooms,
            guests=guests, guest_name=guest_name, guest_email=guest_email, check_in=check_in, check_out=check_out,
            total_price=self._price(rt, nights, rooms)["total_price"], status="confirmed",
            special_requests=list(special_requests), created_on=self.today)
        self.state.reservations[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=Reservation)
    def modify_reservation(
        self,
        reservation_id: Id("reservation"),
        check_in: Optional[Date] = None,
        check_out: Optional[Date] = None,
        room_type: Optional[RoomKind] = None,
        rooms: Optional[int] = Field(default=None, ge=1, le=9),
        guests: Optional[int] = Field(default=None, ge=1, le=20),
    ) -> dict:
        """Change dates, room type, rooms or guests of a confirmed reservation; re-priced at current rates.

        Args:
            reservation_id: a confirmed reservation.
            check_in: new arrival date.
            check_out: new departure date.
            room_type: new room type.
            rooms: new number of rooms.
            guests: new number of guests.
        """
        r = self.lookup(self.state.reservations, reservation_id, "reservation")
        if r.status != "confirmed":
            raise Conflict(f"reservation {reservation_id} is {r.status}.")
        if all(v is None for v in (check_in, check_out, room_type, rooms, guests)):
            raise InvalidArgument("nothing to change: give check_in, check_out, room_type, rooms or guests.")
        h = self.lookup(self.state.hotels, r.hotel_id, "hotel")
        ci, co = check_in or r.check_in, check_out or r.check_out
        kind, n_rooms, n_guests = room_type or r.room_type, rooms or r.rooms, guests or r.guests
        nights = self._stay(ci, co)
        rt = self._reserve_checks(h, kind, nights, n_rooms, n_guests, exclude=r.id)
        r.check_in, r.check_out, r.room_type, r.rooms, r.guests = ci, co, kind, n_rooms, n_guests
        r.total_price = self._price(rt, nights, n_rooms)["total_price"]
        return r.model_dump()

    @tool(read_only=False, destructive=True, returns=Reservation)
    def cancel_reservation(self, reservation_id: Id("reservation")) -> dict:
        """Cancel a reservation: free until 2 days before check-in, later the first night (with tax) is kept.

        Args:
            reservation_id: a confirmed reservation.
        """
        r = self.lookup(self.state.reservations, reservation_id, "reservation")
        if r.status != "confirmed":
            raise Conflict(f"reservation {reservation_id} is already {r.status}.")
        if r.check_out <= self.today:
            raise Conflict(f"the stay of {reservation_id} is over; it cannot be cancelled.")
        if (r.check_in - self.today).days < FREE_CANCEL_DAYS:
            h = self.lookup(self.state.hotels, r.hotel_id, "hotel")
            first = self._price(self._room(h, r.room_type), [r.check_in], r.rooms)["total_price"]
            r.cancellation_fee = min(first, r.total_price)
        r.status = "cancelled"
        return {**r.model_dump(), "refund": money(r.total_price - r.cancellation_fee)}

    @tool(read_only=False, returns=Reservation)
    def add_special_request(self, reservation_id: Id("reservation"), request: str = Field(min_length=3, max_length=300)) -> dict:
        """Add a special request (e.g. 'crib in room', 'late arrival 23:00') to a confirmed reservation.

        Args:
            reservation_id: a confirmed reservation.
            request: the request text.
        """
        r = self.lookup(self.state.reservations, reservation_id, "reservation")
        if r.status != "confirmed":
            raise Conflict(f"reservation {reservation_id} is {r.status}.")
        r.special_requests.append(request)
        return r.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> HotelsState:
        st = HotelsState()
        amen = ("wifi", "breakfast", "parking", "pool", "gym", "spa", "airport_shuttle")
        n = 0
        for city, (streets, code, level) in CITIES.items():
            for k in range(3):
                n += 1
                stars = (3, 4, 5)[k]
                base = round(level * (95 + 45 * k + rng.randrange(0, 30)), 0)
                # Small hotels on purpose: a few rooms per type make "sold out" reachable in tasks.
                types = {"standard": RoomType(kind="standard", count=rng.randint(2, 5), max_guests=2, nightly_rate=base),
                         "deluxe": RoomType(kind="deluxe", count=rng.randint(1, 3), max_guests=3,
                                            nightly_rate=round(base * 1.45, 0))}
                if stars >= 4:
                    types["suite"] = RoomType(kind="suite", count=1, max_guests=4, nightly_rate=round(base * 2.3, 0))
                hid = f"HTL-{n:04d}"
                st.hotels[hid] = Hotel(
                    id=hid, name=f"{_NAMES[(n * 3 + k) % len(_NAMES)]} {city}", city=city,
                    address=f"{rng.randint(10, 990)} {streets[k]}, {city}, {code.format(rng.randint(1, 9))}",
                    stars=stars, guest_rating=round(rng.uniform(7.0, 9.6), 1),
                    amenities=["wifi", *sorted(rng.sample(amen[1:], 2 + k))], room_types=types)
        svc = cls(st, today=today)
        hotels = list(st.hotels.values())
        for i in range(1, 11):
            h = hotels[rng.randrange(len(hotels))]
            ci = today + dt.timedelta(days=rng.randint(1, 30))
            co = ci + dt.timedelta(days=rng.randint(1, 4))
            kind = rng.choice(list(h.room_types))
            if svc._free(h, kind, _nights(ci, co)) < 1:
                continue
            guest = fake.name()
            st.reservations[f"RSV-{i:04d}"] = Reservation(
                id=f"RSV-{i:04d}", hotel_id=h.id, hotel_name=h.name, city=h.city, room_type=kind, rooms=1,
                guests=min(2, h.room_types[kind].max_guests), guest_name=guest,
                guest_email=email_for(guest, fake.free_email_domain()), check_in=ci, check_out=co,
                total_price=cls._price(h.room_types[kind], _nights(ci, co), 1)["total_price"],
                status="cancelled" if i == 10 else "confirmed", created_on=today - dt.timedelta(days=rng.randint(1, 30)))
        st.counters["RSV"] = 11
        return st
