"""The offline world model: deterministic, schema-valid, plausible results.

No network, no model weights: a result is drawn from a ``random.Random``
and a Faker seeded by ``(task seed, service, tool, arguments)``, so the same
call in the same task always gives the same answer. A tool with an
``outputSchema`` gets a value of that schema; otherwise read-like tools
get a small list (or one object) of records about the tool's noun that echo
the arguments, and mutating tools get a status report plus an effect record
in the state.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Any

from faker import Faker

from compoworld_gym.importer.names import tokens
from compoworld_gym.importer.patterns import VERBS
from compoworld_gym.importer.samples import sample_value
from compoworld_gym.world_model.base import Simulation, SimulationRequest
from compoworld_gym.world_model.runtime import canonical

#: The date simulated records are placed around when the state has no date.
BASE_DATE = dt.date(2026, 1, 15)
_FAKER = Faker("en_US")
_PLURAL_HINTS = ("search", "list", "find", "query", "lookup")


def _rng(request: SimulationRequest) -> random.Random:
    material = f"{request.seed}|{request.service}|{request.tool}|{canonical(request.arguments)}"
    return random.Random(int.from_bytes(hashlib.sha256(material.encode()).digest()[:8], "big"))


def _noun(tool: str) -> str:
    words = [w for w in tokens(tool) if w not in VERBS]
    return words[-1] if words else "item"


def _item(request: SimulationRequest, noun: str, index: int, fake: Faker, rng: random.Random) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": f"{noun[:4].upper()}-{rng.randint(1000, 9999)}",
        "title": fake.catch_phrase(),
        "summary": fake.sentence(nb_words=12),
        "url": fake.url() + f"{noun}/{rng.randint(1, 99999)}",
        "date": (BASE_DATE - dt.timedelta(days=rng.randint(0, 60))).isoformat(),
        "rank": index + 1,
    }
    for name, value in request.arguments.items():
        if isinstance(value, (str, int, float, bool)) and name not in item:
            item[name] = value  # the answer is about what was asked
    return item


def _read_result(request: SimulationRequest, fake: Faker, rng: random.Random) -> Any:
    noun = _noun(request.tool)
    words = tokens(request.tool)
    many = bool(set(words) & set(_PLURAL_HINTS)) or (words and words[-1].endswith("s"))
    if not many:
        return _item(request, noun, 0, fake, rng)
    n = rng.randint(2, 4)
    return {"results": [_item(request, noun, i, fake, rng) for i in range(n)], "count": n}


class OfflineWorldModel:
    """Deterministic simulator seeded by (task seed, tool, arguments).

    Attributes:
        name: ``"offline"``.
    """

    name = "offline"

    def simulate(self, request: SimulationRequest) -> Simulation:
        """Simulate one call; never raises for a well-formed request.

        Returns:
            A :class:`Simulation`: reads have an empty state update; mutating
            tools add one record to the state's ``effects`` collection.
        """
        rng = _rng(request)
        _FAKER.seed_instance(rng.getrandbits(32))
        if request.output_schema:
            result = sample_value(request.output_schema, name=_noun(request.tool), fake=_FAKER, rng=rng,
                                  today=BASE_DATE)
        elif request.read_only:
            result = _read_result(request, _FAKER, rng)
        else:
            result = None
        if request.read_only:
            return Simulation(result=result, state_update={})
        effects = request.state.get("effects", {})
        effect_id = f"EFF-{len(effects) + 1:04d}"
        while effect_id in effects:
            effect_id += "b"
        if result is None:
            result = {"status": "completed", "tool": request.tool, "reference": effect_id,
                      "message": f"{request.tool.replace('_', ' ')} completed."}
        effect = {"tool": request.tool, "arguments": request.arguments, "outcome": result}
        return Simulation(result=result, state_update={"effects": {effect_id: effect}})
