"""Random-value tools, drawn from the episode's seeded stream.

``random_int(low, high)``, ``random_shuffle(items)``, ``roll_dice("2d6+3")``,
``generate_password(length)``, ``generateUUID()``: the real servers call a
random generator. Here each call draws from ``random.Random`` seeded by the
service's seed and its logical clock (``service.now()`` advances it one
minute per call), so an episode replayed with the same seed and the same
actions gets the same values, and two calls in one episode differ.
``secure_*`` tools draw from the same stream: the values are as random to
the agent, but not secret (nothing here is).
"""

from __future__ import annotations

import math
import random
import re
import string
import uuid
from typing import Any, Callable

from compoworld_gym.errors import InvalidArgument

_DICE = re.compile(r"^(\d+)d(\d+)([+-]\d+)?$")


def _stream(service: Any) -> random.Random:
    minute = service.now()
    return random.Random(f"{getattr(service.state, 'sim_seed', 0)}:{minute.isoformat()}")


def _int(args: dict[str, Any], name: str, default: Any = None) -> int:
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"invalid argument '{name}': give an integer.")
    return value


def _list(args: dict[str, Any], name: str) -> list[Any]:
    value = args.get(name)
    if not isinstance(value, list) or not value:
        raise InvalidArgument(f"invalid argument '{name}': give a non-empty list.")
    return value


def _random_int(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    low, high = _int(args, "low"), _int(args, "high")
    if low > high:
        raise InvalidArgument("invalid argument 'low': must not exceed 'high'.")
    return {"value": _stream(service).randint(low, high)}


def _random_float(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    low, high = args.get("low", 0.0), args.get("high", 1.0)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high)) or low > high:
        raise InvalidArgument("invalid argument 'low'/'high': numbers with low <= high.")
    return {"value": _stream(service).uniform(low, high)}


def _choices(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    population, k, weights = _list(args, "population"), _int(args, "k", 1), args.get("weights")
    if weights is not None and (not isinstance(weights, list) or len(weights) != len(population)):
        raise InvalidArgument("invalid argument 'weights': one number per population item.")
    if not 1 <= k <= 10_000:
        raise InvalidArgument("invalid argument 'k': from 1 to 10000.")
    return {"choices": _stream(service).choices(population, weights=weights, k=k)}


def _shuffle(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    items = list(_list(args, "items"))
    _stream(service).shuffle(items)
    return {"items": items}


def _sample(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    population, k = _list(args, "population"), _int(args, "k")
    if not 0 <= k <= len(population):
        raise InvalidArgument(f"invalid argument 'k': from 0 to {len(population)} (the population size).")
    return {"sample": _stream(service).sample(population, k)}


def _below(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    bound = _int(args, "upper_bound")
    if bound < 1:
        raise InvalidArgument("invalid argument 'upper_bound': at least 1.")
    return {"value": _stream(service).randrange(bound)}


def _token_hex(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    nbytes = _int(args, "nbytes", 32)
    if not 1 <= nbytes <= 1024:
        raise InvalidArgument("invalid argument 'nbytes': from 1 to 1024.")
    return {"token": _stream(service).randbytes(nbytes).hex()}


def _dice(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    match = _DICE.match(str(args.get("notation", "")).strip())
    if match is None or not 1 <= int(match.group(1)) <= 100 or not 2 <= int(match.group(2)) <= 1000:
        raise InvalidArgument("invalid argument 'notation': NdM[+K], 1-100 dice of 2-1000 sides, e.g. 2d6+3.")
    rng, count, sides = _stream(service), int(match.group(1)), int(match.group(2))
    rolls = [rng.randint(1, sides) for _ in range(count)]
    modifier = int(match.group(3) or 0)
    return {"notation": match.group(0), "rolls": rolls, "modifier": modifier, "total": sum(rolls) + modifier}


def _password(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    length = _int(args, "length", 12)
    if not 8 <= length <= 64:
        raise InvalidArgument("invalid argument 'length': from 8 to 64.")
    rng = _stream(service)
    classes = [string.ascii_lowercase, string.ascii_uppercase, string.digits, "!@#$%^&*-_"]
    chars = [rng.choice(c) for c in classes] + [rng.choice("".join(classes)) for _ in range(length - 4)]
    rng.shuffle(chars)
    return {"password": "".join(chars)}


def _vonmises(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    mu, kappa = args.get("mu"), args.get("kappa", 1.0)
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (mu, kappa)):
        raise InvalidArgument("invalid argument 'mu'/'kappa': numbers.")
    if not 0 <= mu <= 2 * math.pi or kappa < 0:
        raise InvalidArgument("invalid argument: mu in [0, 2π], kappa >= 0.")
    return {"value": _stream(service).vonmisesvariate(mu, kappa)}


def _uuid(service: Any, args: dict[str, Any], schema: dict[str, Any]) -> Any:
    return {"uuid": str(uuid.UUID(int=_stream(service).getrandbits(128), version=4))}


#: Squashed tool name -> (function, the parameter names it may take).
RANDOM_TOOLS: dict[str, tuple[Callable[..., Any], frozenset[str]]] = {
    "randomint": (_random_int, frozenset({"low", "high"})),
    "randomfloat": (_random_float, frozenset({"low", "high"})),
    "randomchoices": (_choices, frozenset({"population", "k", "weights"})),
    "randomshuffle": (_shuffle, frozenset({"items"})),
    "randomsample": (_sample, frozenset({"population", "k"})),
    "securerandomint": (_below, frozenset({"upper_bound"})),
    "securetokenhex": (_token_hex, frozenset({"nbytes"})),
    "rolldice": (_dice, frozenset({"notation"})),
    "generatepassword": (_password, frozenset({"length"})),
    "vonmisesrandom": (_vonmises, frozenset({"mu", "kappa"})),
    "generateuuid": (_uuid, frozenset()),
}
