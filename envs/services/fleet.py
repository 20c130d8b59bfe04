"""Fleet: vehicles, drivers with hours of service, and dispatched delivery routes.

No fleet-management server is in ``compoworld_gym/data/mcp_servers.jsonl``
(``spec_source = None``); the interface follows the Samsara API (Fleet
vehicles, drivers, HOS clocks, routes with ordered stops): a route is planned
for a day from a depot, its stops are numbered in delivery order and carry
the parcel's tracking number and order id; dispatching assigns a driver and
a vehicle. Rules of the real product: no dispatch of an out-of-service
vehicle, a deactivated driver, a driver whose licence lapses by the route
day, or one the route would push past the FMCSA 11-hour driving limit (or
the 70-hour/8-day cycle); a vehicle drives one route a day; stops are served
in order (arrive, then complete or skip); the route completes with its last
stop.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import Address, City, Date, Id, PersonName, TrackingNumber
from compoworld_gym.envs.services._fleet_seed import (
    LIVE_STATUSES, CYCLE_LIMIT_HOURS, DRIVE_LIMIT_HOURS, Driver, FleetState, Route, RouteStatus, Stop, Vehicle,
    VehicleStatus, seed_drivers, seed_routes, seed_vehicles,
)
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Service, tool

class Fleet(Service):
    """Samsara-style fleet management: vehicles, drivers, HOS, routes and stops."""

    name = "fleet"
    description = "Fleet management: vehicles, drivers and hours of service, delivery routes with ordered stops."
    domain = "logistics"
    spec_source = None
    State = FleetState

    # ---------------------------------------------------------------- helpers
    def _route(self, route_id: str) -> Route:
        return self.lookup(self.state.routes, route_id, "route")

    def _stop(self, route: Route, stop_id: str) -> Stop:
        for s in route.stops:
            if s.id == stop_id:
                return s
        raise NotFound(f"stop {stop_id!r} is not on route {route.id}; call get_route to see its stops.")

    @staticmethod
    def _require(route: Route, allowed: tuple[str, ...], action: str) -> None:
        if route.status not in allowed:
            raise Conflict(f"route {route.id} is {route.status}; {action} needs status {' or '.join(allowed)}.")

    def _scheduled_hours(self, driver_id: str, day: dt.date, skip: str = "") -> float:
        return sum(r.planned_drive_hours for r in self.state.routes.values()
                   if r.driver_id == driver_id and r.scheduled_date == day and r.status in LIVE_STATUSES and r.id != skip)

    def _clock(self, d: Driver, day: dt.date, skip: str = "") -> dict:
        driven = d.hours_driven_today if day == self.today else 0.0
        booked = self._scheduled_hours(d.id, day, skip)
        return {"driver_id": d.id, "date": day, "hours_driven": driven, "scheduled_drive_hours": booked,
                "drive_remaining_hours": round(max(DRIVE_LIMIT_HOURS - driven - booked, 0.0), 2),
                "cycle_hours": d.cycle_hours,
                "cycle_remaining_hours": round(max(CYCLE_LIMIT_HOURS - d.cycle_hours - booked, 0.0), 2)}

    def _stop_view(self, r: Route, s: Stop) -> dict:
        return {**s.model_dump(), "route_id": r.id, "route_status": r.status, "scheduled_date": r.scheduled_date}

    def _finish_if_done(self, r: Route) -> None:
        if r.status == "in_progress" and all(s.status in ("completed", "skipped") for s in r.stops):
            r.status = "completed"
            d = self.state.drivers[r.driver_id]
            d.hours_driven_today = min(round(d.hours_driven_today + r.planned_drive_hours, 2), 24.0)
            d.cycle_hours = min(round(d.cycle_hours + r.planned_drive_hours, 2), 80.0)

    # ------------------------------------------------------------------ reads
    @tool(read_only=True, returns=list[Vehicle])
    def list_vehicles(self, status: Optional[VehicleStatus] = None) -> list[dict]:
        """List the fleet's vehicles, optionally only in or out of service.

        Args:
            status: in_service or out_of_service.
        """
        return [v.model_dump() for v in self.state.vehicles.values() if status is None or v.status == status]

    @tool(read_only=True, returns=Vehicle)
    def get_vehicle(self, vehicle_id: Id("vehicle")) -> dict:
        """Get one vehicle: VIN, plate, odometer and service status.

        Args:
            vehicle_id: the vehicle id, e.g. VEH-0001.
        """
        return self.lookup(self.state.vehicles, vehicle_id, "vehicle").model_dump()

    @tool(read_only=True, returns=list[Driver])
    def list_drivers(self, status: Optional[Literal["active", "deactivated"]] = None) -> list[dict]:
        """List drivers with their licence expiry and hours-of-service totals.

        Args:
            status: active or deactivated.
        """
        return [d.model_dump() for d in self.state.drivers.values() if status is None or d.status == status]

    @tool(read_only=True, returns=Driver)
    def get_driver(self, driver_id: Id("driver")) -> dict:
        """Get one driver: contact details, licence and HOS totals.

        Args:
            driver_id: the driver id, e.g. DRV-0001.
        """
        return self.lookup(self.state.drivers, driver_id, "driver").model_dump()

    @tool(read_only=True)
    def get_driver_hos_clock(self, driver_id: Id("driver"), date: Optional[Date] = None) -> dict:
        """A driver's hours-of-service clock for a day: driving hours left under the
        11-hour limit (after hours driven and routes already dispatched) and the 70-hour cycle.

        Args:
            driver_id: the driver.
            date: the day (YYYY-MM-DD); default today.
        """
        d = self.lookup(self.state.drivers, driver_id, "driver")
        return self._clock(d, date or self.today)

    @tool(read_only=True, returns=list[Route])
    def list_routes(self, status: Optional[RouteStatus] = None, scheduled_date: Optional[Date] = None,
                    driver_id: Optional[Id("driver")] = None) -> list[dict]:
        """List routes (without stops), by status, day or driver.

        Args:
            status: only routes with this status.
            scheduled_date: only routes running on this day (YYYY-MM-DD).
            driver_id: only routes of this driver.
        """
        return [{**r.model_dump(exclude={"stops"}), "stop_count": len(r.stops)} for r in self.state.routes.values()
                if (status is None or r.status == status) and (scheduled_date is None or r.scheduled_date ==
                scheduled_date) and (driver_id is None or r.driver_id == driver_id)]

    @tool(read_only=True, returns=Route)
    def get_route(self, route_id: Id("delivery_route")) -> dict:
        """Get one route with its stops in delivery order.

        Args:
            route_id: the route id, e.g. RTE-0001.
        """
        return self._route(route_id).model_dump()

    @tool(read_only=True, returns=list[Stop])
    def list_route_stops(self, tracking_number: Optional[TrackingNumber] = None,
                         order_id: Optional[Id("order")] = None, address: Optional[Address] = None,
                         limit: int = Field(default=50, ge=1, le=200)) -> list[dict]:
        """Find stops on any route by parcel tracking number, order id or address (substring),
        each with its route id, route status and day.

        Args:
            tracking_number: the parcel's tracking number.
            order_id: the store order id, e.g. ORD-0003.
            address: part of the street address (case-insensitive).
            limit: maximum number of stops (1-200).
        """
        out = []
        for r in self.state.routes.values():
            for s in r.stops:
                if ((tracking_number is None or (s.tracking_number or "").lower() == tracking_number.lower())
                        and (order_id is None or s.order_id == order_id)
                        and (address is None or address.lower() in s.address.lower())):
                    out.append(self._stop_view(r, s))
        return out[:limit]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=Vehicle)
    def update_vehicle_status(self, vehicle_id: Id("vehicle"), status: VehicleStatus,
                              reason: Optional[str] = Field(default=None, max_length=200)) -> dict:
        """Put a vehicle in or out of service; not while it is out on a route in progress.

        Args:
            vehicle_id: the vehicle.
            status: in_service or out_of_service.
            reason: why (required to take it out of service).
        """
        v = self.lookup(self.state.vehicles, vehicle_id, "vehicle")
        if status == "out_of_service":
            if not reason:
                raise Unprocessable("give a reason to take a vehicle out of service.")
            busy = [r.id for r in self.state.routes.values() if r.vehicle_id == v.id and r.status == "in_progress"]
            if busy:
                raise Conflict(f"vehicle {v.id} is out on route {busy[0]}, in progress.")
        v.status, v.status_reason = status, reason if status == "out_of_service" else None
        return v.model_dump()

    @tool(read_only=False, returns=Route)
    def create_route(self, scheduled_date: Date, name: str = Field(min_length=1, max_length=120),
                     depot: str = Field(min_length=1, max_length=120),
                     planned_drive_hours: float = Field(default=4.0, gt=0, le=14)) -> dict:
        """Plan an empty route for today or a later day.

        Args:
            scheduled_date: the day it runs (YYYY-MM-DD), not in the past.
            name: route name.
            depot: depot it starts from.
            planned_drive_hours: planned driving time (hours).
        """
        if scheduled_date < self.today:
            raise Unprocessable(f"scheduled_date {scheduled_date} is in the past.")
        r = Route(id=self.new_id("RTE"), name=name, scheduled_date=scheduled_date, depot=depot, status="planned",
                  planned_drive_hours=planned_drive_hours)
        self.state.routes[r.id] = r
        return r.model_dump()

    @tool(read_only=False, returns=Stop)
    def add_route_stop(self, route_id: Id("delivery_route"), address: Address = Field(min_length=3),
                       city: City = Field(min_length=1), postal_code: str = Field(min_length=3, max_length=10),
                       recipient_name: PersonName = Field(min_length=1), tracking_number: Optional[TrackingNumber] = None,
                       order_id: Optional[Id("order")] = None) -> dict:
        """Append a stop to a planned or dispatched route; a parcel rides one live route only.

        Args:
            route_id: the route.
            address: street address.
            city: city.
            postal_code: postal code.
            recipient_name: who receives the parcel.
            tracking_number: the parcel's tracking number.
            order_id: the store order the parcel belongs to.
        """
        r = self._route(route_id)
        self._require(r, ("planned", "dispatched"), "adding stops")
        if tracking_number:
            for other in self.state.routes.values():
                if other.status in ("planned", *LIVE_STATUSES) and any(
                        (s.tracking_number or "").lower() == tracking_number.lower() and s.status != "skipped"
                        for s in other.stops):
                    raise Conflict(f"parcel {tracking_number} is already a stop on route {other.id}.")
        s = Stop(id=self.new_id("STP"), sequence=len(r.stops) + 1, address=address, city=city,
                 postal_code=postal_code, recipient_name=recipient_name, tracking_number=tracking_number,
                 order_id=order_id, status="scheduled")
        r.stops.append(s)
        return self._stop_view(r, s)

    @tool(read_only=False, destructive=True, returns=Route)
    def remove_route_stop(self, route_id: Id("delivery_route"), stop_id: str) -> dict:
        """Remove a scheduled stop from a planned or dispatched route; later stops move up.

        Args:
            route_id: the route.
            stop_id: the stop, e.g. STP-0012.
        """
        r = self._route(route_id)
        self._require(r, ("planned", "dispatched"), "removing stops")
        s = self._stop(r, stop_id)
        if s.status != "scheduled":
            raise Conflict(f"stop {s.id} is {s.status}; only scheduled stops can be removed.")
        r.stops = [x for x in r.stops if x.id != s.id]
        for n, x in enumerate(r.stops, start=1):
            x.sequence = n
        return r.model_dump()

    @tool(read_only=False, returns=Route)
    def dispatch_route(self, route_id: Id("delivery_route"), driver_id: Id("driver"),
                       vehicle_id: Id("vehicle")) -> dict:
        """Dispatch a planned route (or re-dispatch a dispatched one) to a driver and vehicle.

        Refused (422) for an out-of-service vehicle, a deactivated driver, a licence
        lapsing by the route day, a route breaking the driver's 11-hour or 70-hour
        limits, an empty or past route; (409) for a vehicle already on another route that day.

        Args:
            route_id: the route.
            driver_id: the driver.
            vehicle_id: the vehicle.
        """
        r = self._route(route_id)
        self._require(r, ("planned", "dispatched"), "dispatch")
        d = self.lookup(self.state.drivers, driver_id, "driver")
        v = self.lookup(self.state.vehicles, vehicle_id, "vehicle")
        if not r.stops:
            raise Unprocessable(f"route {r.id} has no stops.")
        if r.scheduled_date < self.today:
            raise Unprocessable(f"route {r.id} was scheduled for {r.scheduled_date}, in the past.")
        if v.status != "in_service":
            raise Unprocessable(f"vehicle {v.id} is out of service ({v.status_reason}).")
        if d.status != "active":
            raise Unprocessable(f"driver {d.id} is deactivated.")
        if d.license_expires < r.scheduled_date:
            raise Unprocessable(f"driver {d.id}'s licence expires {d.license_expires}, before {r.scheduled_date}.")
        clock = self._clock(d, r.scheduled_date, skip=r.id)
        if r.planned_drive_hours > clock["drive_remaining_hours"]:
            raise Unprocessable(f"driver {d.id} has {clock['drive_remaining_hours']:.1f} driving hours left on "
                                f"{r.scheduled_date}; the route needs {r.planned_drive_hours:.1f} (11-hour limit).")
        if r.planned_drive_hours > clock["cycle_remaining_hours"]:
            raise Unprocessable(f"driver {d.id} has {clock['cycle_remaining_hours']:.1f} hours left in the "
                                f"70-hour cycle; the route needs {r.planned_drive_hours:.1f}.")
        clash = [o.id for o in self.state.routes.values() if o.id != r.id and o.vehicle_id == v.id
                 and o.scheduled_date == r.scheduled_date and o.status in LIVE_STATUSES]
        if clash:
            raise Conflict(f"vehicle {v.id} already drives route {clash[0]} on {r.scheduled_date}.")
        r.status, r.driver_id, r.vehicle_id = "dispatched", d.id, v.id
        return r.model_dump()

    def _serving(self, route_id: str, stop_id: str, action: str) -> tuple[Route, Stop]:
        r = self._route(route_id)
        self._require(r, LIVE_STATUSES, action)
        return r, self._stop(r, stop_id)

    @tool(read_only=False, returns=Stop)
    def mark_stop_arrived(self, route_id: Id("delivery_route"), stop_id: str) -> dict:
        """Record the driver's arrival at the next stop in sequence (starts the route).

        Args:
            route_id: a dispatched or in-progress route.
            stop_id: the stop; earlier stops must be completed or skipped first (422).
        """
        r, s = self._serving(route_id, stop_id, "arrivals")
        if s.status != "scheduled":
            raise Conflict(f"stop {s.id} is {s.status}.")
        first = next(x for x in r.stops if x.status in ("scheduled", "arrived"))
        if first.id != s.id:
            raise Unprocessable(f"stops are served in order: finish stop {first.id} (#{first.sequence}) first.")
        r.status, s.status, s.arrived_at = "in_progress", "arrived", self.now()
        return self._stop_view(r, s)

    @tool(read_only=False, returns=Stop)
    def complete_stop(self, route_id: Id("delivery_route"), stop_id: str,
                      signed_by: Optional[PersonName] = None, note: Optional[str] = Field(default=None, max_length=500)
                      ) -> dict:
        """Complete the delivery at a stop the driver has arrived at; the last stop completes the route.

        Args:
            route_id: the route in progress.
            stop_id: the arrived stop.
            signed_by: who signed for the parcel.
            note: delivery note (e.g. 'left with concierge').
        """
        r, s = self._serving(route_id, stop_id, "completing stops")
        if s.status != "arrived":
            raise Conflict(f"stop {s.id} is {s.status}; mark_stop_arrived first.")
        s.status, s.completed_at, s.signed_by = "completed", self.now(), signed_by
        if note:
            s.notes.append(note)
        self._finish_if_done(r)
        return self._stop_view(r, s)

    @tool(read_only=False, returns=Stop)
    def skip_stop(self, route_id: Id("delivery_route"), stop_id: str,
                  reason: str = Field(min_length=3, max_length=500)) -> dict:
        """Skip a stop that is not yet completed (parcel held back), with a reason.

        Args:
            route_id: a planned, dispatched or in-progress route.
            stop_id: the stop.
            reason: why it is skipped.
        """
        r = self._route(route_id)
        self._require(r, ("planned", *LIVE_STATUSES), "skipping stops")
        s = self._stop(r, stop_id)
        if s.status not in ("scheduled", "arrived"):
            raise Conflict(f"stop {s.id} is already {s.status}.")
        s.status, s.skip_reason = "skipped", reason
        self._finish_if_done(r)
        return self._stop_view(r, s)

    @tool(read_only=False, returns=Route)
    def add_route_note(self, route_id: Id("delivery_route"), note: str = Field(min_length=1, max_length=500)) -> dict:
        """Add a dispatcher note to a route the driver sees in the app.

        Args:
            route_id: the route (not cancelled).
            note: the note.
        """
        r = self._route(route_id)
        self._require(r, ("planned", "dispatched", "in_progress", "completed"), "notes")
        r.notes.append(note)
        return r.model_dump(exclude={"stops"})

    @tool(read_only=False, returns=Route)
    def cancel_route(self, route_id: Id("delivery_route"), reason: str = Field(min_length=3, max_length=300)) -> dict:
        """Cancel a planned or dispatched route; its open stops are skipped.

        Args:
            route_id: the route.
            reason: why.
        """
        r = self._route(route_id)
        self._require(r, ("planned", "dispatched"), "cancellation")
        r.status, r.cancel_reason = "cancelled", reason
        for s in r.stops:
            if s.status == "scheduled":
                s.status, s.skip_reason = "skipped", f"Route cancelled: {reason}"
        return r.model_dump(exclude={"stops"})

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> FleetState:
        state = FleetState(vehicles={v["id"]: v for v in seed_vehicles(rng, today)},
                           drivers={d["id"]: d for d in seed_drivers(fake, rng, today)},
                           routes={r["id"]: r for r in seed_routes(fake, rng, today)})
        state.counters.update(RTE=len(state.routes) + 1,
                              STP=sum(len(r.stops) for r in state.routes.values()) + 1)
        return state
