"""Maps: geocoding, places, distances, elevation and directions over a fixed gazetteer.

Follows the ``modelcontextprotocol-google-maps`` reference server in
``compoworld_gym/data/mcp_servers.jsonl`` (all 7 tools, same names, parameters and
enums; result shapes modelled on the Google responses it forwards), plus
designed tools for saved places and a meeting point. The world is the
built-in gazetteer of ``_gazetteer`` (45 places in seven cities), so results
are deterministic: distance is the haversine great-circle distance times a
per-mode road factor, travel time is road distance over a per-mode speed
(:data:`MODES`), elevation is interpolated from gazetteer points within
25 km. Nothing outside the gazetteer can be found (404 / ``NOT_FOUND``).
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Literal, Optional

from faker import Faker
from pydantic import Field

from compoworld_gym.entities import DateTime, Id
from compoworld_gym.envs.services._gazetteer import PLACES, GazPlace
from compoworld_gym.errors import Conflict, NotFound, Unprocessable
from compoworld_gym.service import Record, Service, ServiceState, tool

Mode = Literal["driving", "walking", "bicycling", "transit"]
#: mode -> (road factor over straight line, km/h, fixed overhead s, max straight-line km)
MODES: dict[str, tuple[float, float, int, float]] = {
    "driving": (1.3, 35.0, 120, 3000.0), "walking": (1.25, 5.0, 0, 50.0),
    "bicycling": (1.25, 16.0, 0, 150.0), "transit": (1.35, 25.0, 300, 60.0),
}
HIGHWAY_KMH, HIGHWAY_FROM_KM = 85.0, 30.0
_STOP = {"in", "near", "the", "of", "a", "an", "at", "around", "best"}
_COMPASS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")


class LatLng(Record):
    """A point on the earth."""

    latitude: float = Field(ge=-90, le=90, description="Latitude in degrees.")
    longitude: float = Field(ge=-180, le=180, description="Longitude in degrees.")


class SavedPlace(Record):
    """A place the user saved."""

    place_id: Id("place") = Field(description="Gazetteer place id, e.g. PLC-0004.")
    name: str = Field(description="Place name.")
    label: str = Field(description="User's label, e.g. 'Home' or 'Client office'.")
    note: str = Field(default="", description="Free note.")
    saved_at: DateTime = Field(description="When it was saved (logical clock).")


class MapsState(ServiceState):
    """The user's saved places (the gazetteer itself is fixed)."""

    saved: dict[str, SavedPlace] = Field(default_factory=dict, description="Saved places by place id.")


def haversine_km(a_lat: float, a_lng: float, b_lat: float, b_lng: float) -> float:
    """Great-circle distance in km on a 6371 km sphere."""
    p1, p2 = math.radians(a_lat), math.radians(b_lat)
    dp, dl = p2 - p1, math.radians(b_lng - a_lng)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


def _bearing(a: GazPlace, b: GazPlace) -> str:
    y = math.sin(math.radians(b.lng - a.lng)) * math.cos(math.radians(b.lat))
    x = (math.cos(math.radians(a.lat)) * math.sin(math.radians(b.lat))
         - math.sin(math.radians(a.lat)) * math.cos(math.radians(b.lat)) * math.cos(math.radians(b.lng - a.lng)))
    return _COMPASS[round(((math.degrees(math.atan2(y, x)) + 360) % 360) / 45) % 8]


def _dist_text(m: int) -> str:
    return f"{m / 1000:.1f} km" if m >= 1000 else f"{m} m"


def _dur_text(s: int) -> str:
    mins = max(1, round(s / 60))
    h, m = divmod(mins, 60)
    return (f"{h} hour{'s' * (h > 1)} " if h else "") + (f"{m} min{'s' * (m != 1)}" if m or not h else "").strip()


def travel(a: GazPlace, b: GazPlace, mode: str) -> Optional[tuple[int, int]]:
    """(metres, seconds) from a to b by mode, or None when the mode cannot make the trip."""
    km = haversine_km(a.lat, a.lng, b.lat, b.lng)
    factor, kmh, overhead, limit = MODES[mode]
    if km > limit:
        return None
    road = km * factor
    if mode == "driving" and road > HIGHWAY_FROM_KM:
        kmh = HIGHWAY_KMH  # long trips leave the city streets
    return round(road * 1000), round(road / kmh * 3600) + (overhead if road > 0 else 0)


#: (place, lower-case name, normalised address), built once for fast matching.
_INDEX = tuple((p, p.name.lower(), " ".join(p.address.lower().replace(",", " ").split())) for p in PLACES.values())


def _view(p: GazPlace) -> dict:
    return {"name": p.name, "formatted_address": p.address, "location": {"lat": p.lat, "lng": p.lng},
            "place_id": p.place_id, "rating": p.rating or None, "types": list(p.types)}


class Maps(Service):
    """Google-Maps-style geocoding, place search, distances, elevation and directions over a fixed gazetteer."""

    name = "maps"
    description = "Maps: geocode addresses, search places, place details, travel distances and times, directions, elevation."
    domain = "location"
    spec_source = "modelcontextprotocol-google-maps"
    designed_tools = frozenset({"maps_suggest_meeting_point", "maps_list_saved_places", "maps_save_place",
                                "maps_remove_saved_place"})
    State = MapsState

    # ---------------------------------------------------------------- helpers
    @staticmethod
    def _match(text: str) -> Optional[GazPlace]:
        q = " ".join(text.lower().replace(",", " ").split())
        if not q:
            return None
        best, score = None, (0, 0)
        for p, name, addr in _INDEX:
            level = (4 if q in (name, addr) else 3 if q in addr else 2 if name in q or addr in q
                     else 1 if q in name else 0)
            # Ties: the longer matched name wins ("willis tower chicago" -> Willis Tower, not Chicago).
            s = (level, len(name) if level == 2 else 0)
            if s > score:
                best, score = p, s
        return best

    @staticmethod
    def _nearest(lat: float, lng: float) -> tuple[GazPlace, float]:
        return min(((p, haversine_km(lat, lng, p.lat, p.lng)) for p in PLACES.values()), key=lambda t: t[1])

    def _point(self, text: str) -> Optional[GazPlace]:
        """A gazetteer place for an address, a place id, or 'lat,lng' (nearest place within 1 km)."""
        t = text.strip()
        if t in PLACES:
            return PLACES[t]
        parts = t.split(",")
        if len(parts) == 2:
            try:
                lat, lng = float(parts[0]), float(parts[1])
            except ValueError:
                return self._match(t)
            p, km = self._nearest(lat, lng)
            return p._replace(lat=lat, lng=lng) if km <= 1.0 else GazPlace(
                "", f"{lat},{lng}", f"{lat},{lng}", "", lat, lng, 0.0, (), 0.0)
        return self._match(t)

    def _place(self, place_id: str) -> GazPlace:
        p = PLACES.get(place_id)
        if p is None:
            raise NotFound(f"place {place_id!r} not found; get ids from maps_search_places or maps_geocode.")
        return p

    # ------------------------------------------------------------------ reads
    @tool(read_only=True)
    def maps_geocode(self, address: str = Field(min_length=1, max_length=300)) -> dict:
        """Convert an address, place name or city into geographic coordinates.

        Args:
            address: the address to geocode, e.g. '1100 Congress Ave, Austin' or 'Willis Tower'.
        """
        p = self._match(address)
        if p is None:
            raise NotFound(f"ZERO_RESULTS: nothing matches {address!r}; try a street address, landmark or city.")
        return {"location": {"lat": p.lat, "lng": p.lng}, "formatted_address": p.address, "place_id": p.place_id}

    @tool(read_only=True)
    def maps_reverse_geocode(
        self, latitude: float = Field(ge=-90, le=90), longitude: float = Field(ge=-180, le=180)
    ) -> dict:
        """Convert coordinates into the address of the nearest known place (within 2 km) or city (within 50 km).

        Args:
            latitude: latitude coordinate.
            longitude: longitude coordinate.
        """
        p, km = self._nearest(latitude, longitude)
        if km > 2.0:
            city = min((q for q in PLACES.values() if "locality" in q.types),
                       key=lambda q: haversine_km(latitude, longitude, q.lat, q.lng))
            if haversine_km(latitude, longitude, city.lat, city.lng) > 50.0:
                raise NotFound(f"ZERO_RESULTS: no known address near {latitude},{longitude}.")
            p = city
        return {"formatted_address": p.address, "place_id": p.place_id,
                "address_components": [{"long_name": p.city, "types": ["locality"]}]}

    @tool(read_only=True)
    def maps_search_places(
        self,
        query: str = Field(min_length=1, max_length=200),
        location: Optional[LatLng] = None,
        radius: Optional[float] = Field(default=None, gt=0, le=50000),
    ) -> dict:
        """Search places by text (name, type or city), optionally within a radius of a point.

        Args:
            query: search query, e.g. 'museum in Chicago' or 'pizza'.
            location: optional center point {latitude, longitude} for the search.
            radius: search radius in meters (max 50000); default 50000 when location is given.
        """
        words = [w.rstrip("s") if len(w) > 3 else w for w in query.lower().replace(",", " ").split() if w not in _STOP]
        hits = []
        for p in PLACES.values():
            if "locality" in p.types:
                continue
            text = f"{p.name} {' '.join(p.types).replace('_', ' ')} {p.city} {p.address}".lower()
            if not all(w in text for w in words):
                continue
            if location is not None:
                km = haversine_km(location.latitude, location.longitude, p.lat, p.lng)
                if km * 1000 > (radius or 50000):
                    continue
                hits.append((km, p))
            else:
                hits.append((-p.rating, p))
        hits.sort(key=lambda t: (t[0], t[1].place_id))
        return {"places": [_view(p) for _, p in hits[:20]]}

    @tool(read_only=True)
    def maps_place_details(self, place_id: Id("place")) -> dict:
        """Get detailed information about a place: address, location, types, rating, hours, elevation.

        Args:
            place_id: the place ID to get details for, e.g. PLC-0012.
        """
        p = self._place(place_id)
        always_open = {"park", "airport", "hospital", "train_station", "locality"} & set(p.types)
        hours = "Open 24 hours" if always_open else "09:00-17:00" if "office" in p.types else "10:00-20:00"
        return {**_view(p), "city": p.city, "elevation": p.elevation,
                "opening_hours": {"weekday_text": [f"{d}: {hours}" for d in
                                                   ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                                    "Saturday", "Sunday")]}}

    @tool(read_only=True)
    def maps_distance_matrix(
        self,
        origins: list[str] = Field(min_length=1, max_length=10),
        destinations: list[str] = Field(min_length=1, max_length=10),
        mode: Mode = "driving",
    ) -> dict:
        """Calculate travel distance and time for every origin-destination pair.

        Args:
            origins: array of origin addresses, place ids or 'lat,lng' coordinates.
            destinations: array of destination addresses, place ids or 'lat,lng' coordinates.
            mode: travel mode (driving, walking, bicycling, transit).
        """
        src = [self._point(o) for o in origins]
        dst = [self._point(d) for d in destinations]
        rows = []
        for a in src:
            elements = []
            for b in dst:
                t = travel(a, b, mode) if a and b else None
                if a is None or b is None:
                    elements.append({"status": "NOT_FOUND"})
                elif t is None:
                    elements.append({"status": "ZERO_RESULTS"})
                else:
                    elements.append({"status": "OK", "distance": {"text": _dist_text(t[0]), "value": t[0]},
                                     "duration": {"text": _dur_text(t[1]), "value": t[1]}})
            rows.append({"elements": elements})
        return {"origin_addresses": [a.address if a else "" for a in src],
                "destination_addresses": [b.address if b else "" for b in dst], "results": rows}

    @tool(read_only=True)
    def maps_elevation(self, locations: list[LatLng] = Field(min_length=1, max_length=50)) -> dict:
        """Get elevation in metres for locations, interpolated from known points within 25 km.

        Args:
            locations: array of {latitude, longitude} to get elevation for.
        """
        results = []
        for i, loc in enumerate(locations):
            near = [(haversine_km(loc.latitude, loc.longitude, p.lat, p.lng), p) for p in PLACES.values()]
            near = [(km, p) for km, p in near if km <= 25.0]
            if not near:
                raise Unprocessable(f"locations[{i}] ({loc.latitude},{loc.longitude}) is outside the covered area "
                                    "(no known point within 25 km).")
            weights = [(1.0 / max(km, 0.01) ** 2, p.elevation) for km, p in near]
            elev = sum(w * e for w, e in weights) / sum(w for w, _ in weights)
            results.append({"elevation": round(elev, 1), "location": {"lat": loc.latitude, "lng": loc.longitude},
                            "resolution": round(min(km for km, _ in near) * 1000, 1)})
        return {"results": results}

    @tool(read_only=True)
    def maps_directions(
        self,
        origin: str = Field(min_length=1, max_length=300),
        destination: str = Field(min_length=1, max_length=300),
        mode: Mode = "driving",
    ) -> dict:
        """Get directions between two points: total distance and time plus step-by-step instructions.

        Args:
            origin: starting point address, place id or 'lat,lng' coordinates.
            destination: ending point address, place id or 'lat,lng' coordinates.
            mode: travel mode (driving, walking, bicycling, transit).
        """
        a, b = self._point(origin), self._point(destination)
        if a is None or b is None:
            raise NotFound(f"NOT_FOUND: cannot locate {origin if a is None else destination!r}; geocode it first.")
        t = travel(a, b, mode)
        if t is None:
            raise Unprocessable(f"ZERO_RESULTS: no {mode} route from {a.name} to {b.name}; try driving or a flight.")
        metres, secs = t
        legs = ((0.1, f"Head {_bearing(a, b)} from {a.name}"),
                (0.8, f"Continue {_bearing(a, b)} toward {b.name}" if mode != "transit"
                 else f"Take transit toward {b.name}"),
                (0.1, f"Arrive at {b.name}"))
        steps = [{"instructions": text, "distance": {"text": _dist_text(round(metres * f)), "value": round(metres * f)},
                  "duration": {"text": _dur_text(round(secs * f)), "value": round(secs * f)}, "travel_mode": mode.upper()}
                 for f, text in legs]
        return {"routes": [{"summary": f"{a.name} to {b.name}", "distance": {"text": _dist_text(metres), "value": metres},
                            "duration": {"text": _dur_text(secs), "value": secs}, "start_address": a.address,
                            "end_address": b.address, "steps": steps}]}

    @tool(read_only=True)
    def maps_suggest_meeting_point(
        self,
        origins: list[str] = Field(min_length=2, max_length=10),
        place_type: Optional[str] = None,
        mode: Mode = "driving",
    ) -> dict:
        """Suggest the known place that minimises the longest travel time from all origins.

        Args:
            origins: addresses, place ids or 'lat,lng' of the people meeting (2-10).
            place_type: only places of this type, e.g. 'cafe', 'restaurant', 'park'.
            mode: travel mode used for every origin.
        """
        pts = [self._point(o) for o in origins]
        if any(p is None for p in pts):
            raise NotFound(f"cannot locate origin {origins[pts.index(None)]!r}; geocode it first.")
        best = None
        for p in PLACES.values():
            if "locality" in p.types or (place_type and place_type.lower() not in p.types):
                continue
            times = [travel(o, p, mode) for o in pts]
            if any(t is None for t in times):
                continue
            worst = max(t[1] for t in times)
            if best is None or (worst, p.place_id) < (best[0], best[1].place_id):
                best = (worst, p, [t[1] for t in times])
        if best is None:
            raise Unprocessable(f"no {place_type or 'known place'} is reachable by {mode} from every origin.")
        return {**_view(best[1]), "max_duration_seconds": best[0], "durations_seconds": best[2]}

    @tool(read_only=True, returns=list[SavedPlace])
    def maps_list_saved_places(self) -> list[dict]:
        """List the user's saved places with their labels and notes."""
        return [s.model_dump() for s in self.state.saved.values()]

    # ----------------------------------------------------------------- writes
    @tool(read_only=False, returns=SavedPlace)
    def maps_save_place(
        self, place_id: Id("place"), label: str = Field(min_length=1, max_length=60),
        note: str = Field(default="", max_length=300),
    ) -> dict:
        """Save a place under a label (each place once; labels are unique).

        Args:
            place_id: the place to save.
            label: the user's label, e.g. 'Home', 'Client office'.
            note: optional note.
        """
        p = self._place(place_id)
        if place_id in self.state.saved:
            raise Conflict(f"{p.name} is already saved as {self.state.saved[place_id].label!r}.")
        if any(s.label.lower() == label.lower() for s in self.state.saved.values()):
            raise Conflict(f"label {label!r} is already used; pick another or remove that saved place first.")
        s = SavedPlace(place_id=p.place_id, name=p.name, label=label, note=note, saved_at=self.now())
        self.state.saved[p.place_id] = s
        return s.model_dump()

    @tool(read_only=False, destructive=True, returns=SavedPlace)
    def maps_remove_saved_place(self, place_id: Id("place")) -> dict:
        """Remove a place from the saved places.

        Args:
            place_id: a saved place's id.
        """
        s = self.state.saved.pop(place_id, None)
        if s is None:
            raise NotFound(f"place {place_id!r} is not saved; see maps_list_saved_places.")
        return s.model_dump()

    # ------------------------------------------------------------------ seeds
    @classmethod
    def build_seed_state(cls, fake: Faker, rng: random.Random, today: dt.date) -> MapsState:
        st = MapsState()
        offices = [p for p in PLACES.values() if "office" in p.types]
        work = offices[rng.randrange(len(offices))]
        food = [p for p in PLACES.values() if "food" in p.types and p.city == work.city] or [
            p for p in PLACES.values() if "food" in p.types]
        lunch = food[rng.randrange(len(food))]
        at = dt.datetime.combine(today - dt.timedelta(days=30), dt.time(12, 0))
        st.saved[work.place_id] = SavedPlace(place_id=work.place_id, name=work.name, label="Work", saved_at=at)
        st.saved[lunch.place_id] = SavedPlace(place_id=lunch.place_id, name=lunch.name, label="Lunch spot",
                                              note="Go before noon to skip the line.", saved_at=at)
        return st
