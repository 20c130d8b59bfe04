"""Seed factory of the flights service: eight bookings on timetable flights 3-40 days out.

Bookings are priced with the service's fare rules on the day they were booked
(1-20 days ago); every third has a second traveller with the lead's surname,
and the last is cancelled.
"""

from __future__ import annotations

import datetime as dt
import random

from faker import Faker

from compoworld_gym.envs.services._commerce import money
from compoworld_gym.envs.services._common import email_for
from compoworld_gym.envs.services._flights_models import FlightBooking, FlightsState, Passenger
from compoworld_gym.envs.services._flights_rules import fare, flight_times, seats_left
from compoworld_gym.envs.services._timetable import AIRPORTS, SCHEDULES


def seed_flights(fake: Faker, rng: random.Random, today: dt.date) -> FlightsState:
    """The background-load salt and eight bookings (FB-0001..FB-0008).

    Args:
        fake: the seeded Faker for travellers' names and email domains.
        rng: the seeded generator for the salt, flights, dates and booking days.
        today: the task's date.
    """
    st = FlightsState(load_salt=rng.randrange(10**6))
    numbers = sorted(SCHEDULES)
    n = 0
    while n < 8:
        s = SCHEDULES[rng.choice(numbers)]
        date = today + dt.timedelta(days=rng.randint(3, 40))
        fid = f"{s.flight_number}-{date:%Y%m%d}"
        # Background load only, not the bookings made so far: the seed has always checked seats so,
        # and counting them would change which flights seeded states book.
        if date.weekday() not in s.weekdays or seats_left(s, fid, st.load_salt, {}) < 3:
            continue
        n += 1
        lead = fake.name()
        pax = [Passenger(name=lead, email=email_for(lead, fake.free_email_domain()))]
        if n % 3 == 0:
            other = f"{fake.first_name()} {lead.split()[-1]}"
            pax.append(Passenger(name=other, email=email_for(other, fake.free_email_domain())))
        fare_class = ("basic", "standard", "flex")[n % 3]
        booked = today - dt.timedelta(days=rng.randint(1, 20))
        dep, arr = flight_times(s, date)
        price = fare(s, fare_class, date, booked)
        st.bookings[f"FB-{n:04d}"] = FlightBooking(
            id=f"FB-{n:04d}", flight_id=fid, flight_number=s.flight_number, origin=s.origin,
            destination=s.destination, origin_city=AIRPORTS[s.origin].city,
            destination_city=AIRPORTS[s.destination].city, departure=dep, arrival=arr, fare_class=fare_class,
            passengers=pax, contact_email=pax[0].email, price_per_passenger=price,
            total_paid=money(price * len(pax)), status="cancelled" if n == 8 else "confirmed",
            refund_amount=0.0, booked_on=booked)
    st.counters["FB"] = n + 1
    return st
