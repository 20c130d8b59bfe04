"""The built-in gazetteer of the ``maps`` service: 45 places in seven cities.

Coordinates are the real ones of public landmarks, rounded to four decimals
(about 10 m); elevations in metres are approximate. Three entries are the
company's offices at the addresses the ``meeting_rooms`` sites use. Each city
also has a ``locality`` entry at its centre, which geocoding a bare city name
returns.
"""

from __future__ import annotations

from typing import NamedTuple


class GazPlace(NamedTuple):
    """One gazetteer row: id, name, address, city, lat, lng, elevation (m), types, rating."""

    place_id: str
    name: str
    address: str
    city: str
    lat: float
    lng: float
    elevation: float
    types: tuple[str, ...]
    rating: float


_ROWS = (
    # San Francisco
    ("San Francisco", "San Francisco, CA, USA", "San Francisco", 37.7749, -122.4194, 16, ("locality",), 0),
    ("Ferry Building Marketplace", "1 Ferry Building, San Francisco, CA 94111, USA", "San Francisco", 37.7955, -122.3937, 3, ("market", "point_of_interest"), 4.6),
    ("Golden Gate Park", "501 Stanyan St, San Francisco, CA 94117, USA", "San Francisco", 37.7694, -122.4862, 60, ("park",), 4.8),
    ("San Francisco International Airport", "San Francisco, CA 94128, USA", "San Francisco", 37.6213, -122.3790, 4, ("airport",), 4.1),
    ("Salesforce Tower", "415 Mission St, San Francisco, CA 94105, USA", "San Francisco", 37.7897, -122.3972, 10, ("point_of_interest",), 4.5),
    ("Tartine Bakery", "600 Guerrero St, San Francisco, CA 94110, USA", "San Francisco", 37.7614, -122.4241, 20, ("bakery", "cafe", "food"), 4.5),
    ("Coit Tower", "1 Telegraph Hill Blvd, San Francisco, CA 94133, USA", "San Francisco", 37.8024, -122.4058, 64, ("tourist_attraction",), 4.5),
    ("UCSF Medical Center", "505 Parnassus Ave, San Francisco, CA 94143, USA", "San Francisco", 37.7631, -122.4576, 110, ("hospital",), 4.0),
    ("San Francisco HQ", "101 Spear St, San Francisco, CA 94105, USA", "San Francisco", 37.7924, -122.3920, 5, ("office",), 0),
    # New York
    ("New York", "New York, NY, USA", "New York", 40.7128, -74.0060, 10, ("locality",), 0),
    ("Empire State Building", "20 W 34th St, New York, NY 10001, USA", "New York", 40.7484, -73.9857, 17, ("tourist_attraction",), 4.7),
    ("Central Park", "New York, NY 10024, USA", "New York", 40.7812, -73.9665, 40, ("park",), 4.8),
    ("Grand Central Terminal", "89 E 42nd St, New York, NY 10017, USA", "New York", 40.7527, -73.9772, 14, ("train_station", "transit_station"), 4.7),
    ("John F. Kennedy International Airport", "Queens, NY 11430, USA", "New York", 40.6413, -73.7781, 4, ("airport",), 3.9),
    ("The Metropolitan Museum of Art", "1000 5th Ave, New York, NY 10028, USA", "New York", 40.7794, -73.9632, 25, ("museum",), 4.8),
    ("Joe's Pizza", "7 Carmine St, New York, NY 10014, USA", "New York", 40.7306, -74.0021, 8, ("restaurant", "food"), 4.5),
    ("New York Office", "250 Park Ave S, New York, NY 10003, USA", "New York", 40.7376, -73.9875, 12, ("office",), 0),
    # Chicago
    ("Chicago", "Chicago, IL, USA", "Chicago", 41.8781, -87.6298, 181, ("locality",), 0),
    ("Millennium Park", "201 E Randolph St, Chicago, IL 60602, USA", "Chicago", 41.8826, -87.6226, 180, ("park",), 4.8),
    ("Willis Tower", "233 S Wacker Dr, Chicago, IL 60606, USA", "Chicago", 41.8789, -87.6359, 181, ("tourist_attraction",), 4.6),
    ("O'Hare International Airport", "10000 W O'Hare Ave, Chicago, IL 60666, USA", "Chicago", 41.9742, -87.9073, 205, ("airport",), 4.0),
    ("Art Institute of Chicago", "111 S Michigan Ave, Chicago, IL 60603, USA", "Chicago", 41.8796, -87.6237, 180, ("museum",), 4.8),
    ("Lou Malnati's Pizzeria", "439 N Wells St, Chicago, IL 60654, USA", "Chicago", 41.8902, -87.6337, 180, ("restaurant", "food"), 4.6),
    # Austin
    ("Austin", "Austin, TX, USA", "Austin", 30.2672, -97.7431, 149, ("locality",), 0),
    ("Texas State Capitol", "1100 Congress Ave, Austin, TX 78701, USA", "Austin", 30.2747, -97.7404, 168, ("tourist_attraction",), 4.8),
    ("Zilker Metropolitan Park", "2100 Barton Springs Rd, Austin, TX 78746, USA", "Austin", 30.2669, -97.7729, 140, ("park",), 4.7),
    ("Austin-Bergstrom International Airport", "3600 Presidential Blvd, Austin, TX 78719, USA", "Austin", 30.1975, -97.6664, 165, ("airport",), 4.2),
    ("Franklin Barbecue", "900 E 11th St, Austin, TX 78702, USA", "Austin", 30.2701, -97.7313, 160, ("restaurant", "food"), 4.7),
    ("Dell Seton Medical Center", "1500 Red River St, Austin, TX 78701, USA", "Austin", 30.2761, -97.7347, 160, ("hospital",), 3.9),
    ("Austin Hub", "500 W 2nd St, Austin, TX 78701, USA", "Austin", 30.2651, -97.7479, 140, ("office",), 0),
    # Seattle
    ("Seattle", "Seattle, WA, USA", "Seattle", 47.6062, -122.3321, 53, ("locality",), 0),
    ("Pike Place Market", "85 Pike St, Seattle, WA 98101, USA", "Seattle", 47.6097, -122.3422, 20, ("market", "tourist_attraction"), 4.7),
    ("Space Needle", "400 Broad St, Seattle, WA 98109, USA", "Seattle", 47.6205, -122.3493, 50, ("tourist_attraction",), 4.6),
    ("Seattle-Tacoma International Airport", "17801 International Blvd, Seattle, WA 98158, USA", "Seattle", 47.4502, -122.3088, 132, ("airport",), 4.1),
    ("Kerry Park", "211 W Highland Dr, Seattle, WA 98119, USA", "Seattle", 47.6295, -122.3599, 95, ("park",), 4.8),
    # Boston
    ("Boston", "Boston, MA, USA", "Boston", 42.3601, -71.0589, 43, ("locality",), 0),
    ("Boston Common", "139 Tremont St, Boston, MA 02111, USA", "Boston", 42.3550, -71.0656, 15, ("park",), 4.7),
    ("Fenway Park", "4 Jersey St, Boston, MA 02215, USA", "Boston", 42.3467, -71.0972, 6, ("stadium",), 4.7),
    ("Boston Logan International Airport", "1 Harborside Dr, Boston, MA 02128, USA", "Boston", 42.3656, -71.0096, 6, ("airport",), 4.0),
    ("Massachusetts General Hospital", "55 Fruit St, Boston, MA 02114, USA", "Boston", 42.3626, -71.0686, 10, ("hospital",), 4.1),
    # London
    ("London", "London, UK", "London", 51.5074, -0.1278, 11, ("locality",), 0),
    ("British Museum", "Great Russell St, London WC1B 3DG, UK", "London", 51.5194, -0.1270, 25, ("museum",), 4.7),
    ("Tower of London", "London EC3N 4AB, UK", "London", 51.5081, -0.0759, 13, ("tourist_attraction",), 4.6),
    ("Heathrow Airport", "Longford, Hounslow TW6 1QG, UK", "London", 51.4700, -0.4543, 25, ("airport",), 4.0),
    ("Borough Market", "8 Southwark St, London SE1 1TL, UK", "London", 51.5055, -0.0910, 6, ("market", "food"), 4.6),
)

#: The gazetteer by place id (PLC-0001 ...), in table order.
PLACES: dict[str, GazPlace] = {
    f"PLC-{i:04d}": GazPlace(f"PLC-{i:04d}", *row) for i, row in enumerate(_ROWS, start=1)
}
