"""Plausible, schema-valid sample values drawn from a JSON Schema.

Used for the seeded records of imported services and by the offline world
model. Values are drawn from a seeded ``random.Random`` and a seeded Faker
(never a global generator), with the parameter name steering the kind of
value (an ``email`` gets an address, a ``title`` a short phrase).
"""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

from faker import Faker

from compoworld_gym.importer.names import tokens

_MAX_DEPTH = 4
_HARD_DEPTH = 10


def _text_for(name: str, fake: Faker, rng: random.Random, today: dt.date) -> str:
    words = tokens(name)
    last = words[-1] if words else ""
    if "email" in words or last == "mail":
        return fake.email()
    if last in ("url", "uri", "link", "website", "homepage", "href"):
        return fake.url()
    if last in ("phone", "mobile", "telephone"):
        return fake.phone_number()
    if last in ("city",):
        return fake.city()
    if last in ("country",):
        return fake.country()
    if last == "address":
        return fake.address().replace("\n", ", ")
    if last in ("date", "day"):
        return (today + dt.timedelta(days=rng.randint(-30, 30))).isoformat()
    if last in ("company", "organization"):
        return fake.company()
    if last == "name" and len(words) > 1 and words[-2] in ("full", "contact", "customer", "author", "person"):
        return fake.name()
    if last in ("name", "title", "subject", "label", "topic"):
        return fake.catch_phrase()
    if last in ("description", "body", "content", "text", "message", "notes", "note", "summary", "comment"):
        return fake.sentence(nb_words=10)
    if last in ("path", "filepath", "file", "filename"):
        return "/" + "/".join(fake.words(2)) + "/" + fake.file_name()
    if last in ("id", "uuid", "key"):
        return f"{(words[-2] if len(words) > 1 else 'item')[:4].upper()}-{rng.randint(1, 9999):04d}"
    if last in ("query", "q", "keyword", "search", "term"):
        return " ".join(fake.words(2))
    if last in ("currency",):
        return rng.choice(["USD", "EUR", "GBP"])
    return fake.word()


def _string(schema: dict[str, Any], name: str, fake: Faker, rng: random.Random, today: dt.date) -> str:
    fmt = schema.get("format")
    if fmt in ("email", "idn-email"):
        value = fake.email()
    elif fmt == "date":
        value = (today + dt.timedelta(days=rng.randint(-30, 30))).isoformat()
    elif fmt == "date-time":
        moment = dt.datetime.combine(today, dt.time(9)) + dt.timedelta(minutes=rng.randint(-40000, 40000))
        value = moment.isoformat() + "Z"
    elif fmt in ("uri", "url", "iri", "uri-reference"):
        value = fake.url()
    elif fmt == "uuid":
        value = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    elif fmt == "ipv4":
        value = fake.ipv4()
    elif fmt == "hostname":
        value = fake.domain_name()
    else:
        value = _text_for(name, fake, rng, today)
    lo = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    hi = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    if len(value) < lo:
        value = value + "x" * (lo - len(value))
    if hi is not None and len(value) > hi:
        value = value[:max(hi, lo)]
    return value


def _number(schema: dict[str, Any], integer: bool, rng: random.Random) -> int | float:
    lo = schema.get("minimum", schema.get("exclusiveMinimum"))
    hi = schema.get("maximum", schema.get("exclusiveMaximum"))
    lo = lo if isinstance(lo, (int, float)) and not isinstance(lo, bool) else (1 if integer else 0)
    hi = hi if isinstance(hi, (int, float)) and not isinstance(hi, bool) else max(lo, 0) + 100
    if isinstance(schema.get("exclusiveMinimum"), (int, float)):
        lo = lo + 1 if integer else lo + 0.01
    if isinstance(schema.get("exclusiveMaximum"), (int, float)):
        hi = hi - 1 if integer else hi - 0.01
    hi = max(hi, lo)
    if integer:
        return rng.randint(int(lo), int(hi)) if int(hi) >= int(lo) else int(lo)
    return round(rng.uniform(float(lo), float(hi)), 2)


def sample_value(schema: Any, *, name: str, fake: Faker, rng: random.Random, today: dt.date,
                 depth: int = 0) -> Any:
    """One value valid for ``schema`` (best effort for patterns and combinators).

    Args:
        schema: a JSON Schema (anything else gives a short string).
        name: the property name, which steers the kind of string produced.
        fake: a seeded Faker.
        rng: a seeded random generator.
        today: the task's date (dates land within a month of it).
        depth: nesting depth (past 4 only required properties are drawn).

    Returns:
        A JSON-compatible value.
    """
    if not isinstance(schema, dict):
        return _text_for(name, fake, rng, today)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return rng.choice(schema["enum"])
    if schema.get("default") is not None and rng.random() < 0.3:
        return schema["default"]
    for key in ("anyOf", "oneOf"):
        options = [s for s in schema.get(key, []) if isinstance(s, dict) and s.get("type") != "null"]
        if options:
            return sample_value(options[0], name=name, fake=fake, rng=rng, today=today, depth=depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "string" or (kind is None and "properties" not in schema and "items" not in schema):
        return _string(schema, name, fake, rng, today)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer", rng)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "array":
        lo = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 1
        n = max(lo, 1 if depth < _MAX_DEPTH else 0)
        n = n if depth < _HARD_DEPTH else 0
        item_name = name[:-1] if name.endswith("s") else name
        return [sample_value(schema.get("items"), name=item_name, fake=fake, rng=rng, today=today,
                             depth=depth + 1) for _ in range(n)]
    return _object(schema, fake, rng, today, depth)


def _object(schema: dict[str, Any], fake: Faker, rng: random.Random, today: dt.date, depth: int) -> dict:
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [r for r in schema.get("required", []) if isinstance(r, str)] \
        if isinstance(schema.get("required"), list) else []
    out: dict[str, Any] = {}
    if depth >= _HARD_DEPTH:
        return out
    for pname, prop in props.items():
        # Past _MAX_DEPTH only required properties are drawn, so values stay small but valid.
        if pname in required or (depth < _MAX_DEPTH and rng.random() < 0.7):
            out[pname] = sample_value(prop, name=pname, fake=fake, rng=rng, today=today, depth=depth + 1)
    for pname in required:
        out.setdefault(pname, _text_for(pname, fake, rng, today))
    return out
