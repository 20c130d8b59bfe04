"""Running simulated tools: the cache, the default model, validation.

:func:`simulate_call` is the handler body of every simulated tool. It asks
the service's world model (or the process default, the offline simulator),
caches the answer by ``(service, tool, arguments, state digest)`` so an
episode replays exactly, then validates the result and the state update
against the service's types before anything enters the state (paper §2.1).
An invalid simulation is a 500 and the state is left unchanged.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Optional

import orjson
from jsonschema import Draft202012Validator
from jsonschema.validators import validator_for
from pydantic import TypeAdapter, ValidationError

from compoworld_gym.errors import InternalError
from compoworld_gym.world_model.base import Simulation, SimulationError, SimulationRequest, WorldModel

#: Most simulations kept in the cache (least recently used are dropped).
CACHE_SIZE = 100_000
_LOCK = threading.Lock()
_CACHE: "OrderedDict[tuple[str, str, str, str], Simulation]" = OrderedDict()
_DEFAULT: list[Optional[WorldModel]] = [None]
_ADAPTERS: dict[tuple[type, str], TypeAdapter] = {}
_RECORD_SCHEMAS: dict[type, dict[str, Any]] = {}


def set_world_model(model: Optional[WorldModel]) -> None:
    """Set the process-wide default world model (None: the offline simulator).

    The cache is cleared, so answers of the previous model are not replayed.
    """
    with _LOCK:
        _DEFAULT[0] = model
        _CACHE.clear()


def get_world_model() -> WorldModel:
    """The process-wide default world model."""
    if _DEFAULT[0] is None:
        from compoworld_gym.world_model.offline import OfflineWorldModel

        _DEFAULT[0] = OfflineWorldModel()
    return _DEFAULT[0]


def clear_cache() -> None:
    """Forget every cached simulation."""
    with _LOCK:
        _CACHE.clear()


def cache_size() -> int:
    """How many simulations are cached."""
    return len(_CACHE)


def canonical(value: Any) -> str:
    """Canonical JSON text (sorted keys) used in cache keys and seeds."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


def state_digest(state: dict[str, Any]) -> str:
    """A short SHA-256 digest of a state's canonical JSON."""
    return hashlib.sha256(canonical(state).encode()).hexdigest()[:24]


def _request(service: Any, spec: Any, arguments: dict[str, Any], view: dict[str, Any]) -> SimulationRequest:
    cls = type(service)
    if cls not in _RECORD_SCHEMAS:  # building JSON Schemas costs ~1 ms per model
        _RECORD_SCHEMAS[cls] = {c.field: service.record_models[c.name].model_json_schema(by_alias=True)
                                for c in getattr(service, "collections", {}).values()}
    schemas = _RECORD_SCHEMAS[cls]
    return SimulationRequest(
        service=service.name, service_description=service.description, tool=spec.name,
        description=spec.description, input_schema=spec.input_schema, arguments=arguments, state=view,
        seed=int(view.get("sim_seed", 0)), read_only=spec.read_only,
        output_schema=getattr(service, "output_schemas", {}).get(spec.name), collections=schemas)


def simulate(service: Any, spec: Any, arguments: dict[str, Any]) -> Simulation:
    """The (cached) simulation of one call; does not validate or apply it.

    Raises:
        InternalError: the world model failed (500).
    """
    view = service.state_dict()
    key = (service.name, spec.name, canonical(arguments), state_digest(view))
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    model = getattr(service, "world_model", None) or get_world_model()
    try:
        sim = model.simulate(_request(service, spec, arguments, view))
    except SimulationError as exc:
        raise InternalError(f"the world model could not simulate tool {spec.name!r} ({exc}); "
                            "nothing was changed.") from None
    if not isinstance(sim, Simulation):
        raise InternalError(f"the world model returned no simulation for tool {spec.name!r}; nothing was changed.")
    with _LOCK:
        _CACHE[key] = sim
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return sim


def _invalid(tool: str, why: str) -> InternalError:
    return InternalError(f"simulated result of tool {tool!r} failed type validation ({why}); nothing was changed.")


def _value_adapter(state_cls: type, field: str) -> TypeAdapter:
    key = (state_cls, field)
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(state_cls.model_fields[field].annotation)
    return _ADAPTERS[key]


def _check_result(service: Any, spec: Any, result: Any) -> Any:
    try:
        data = orjson.loads(orjson.dumps(result))
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise _invalid(spec.name, f"result is not JSON: {exc}") from None
    schema = getattr(service, "output_schemas", {}).get(spec.name)
    if isinstance(schema, dict):
        cls = validator_for(schema, default=Draft202012Validator)
        error = next(iter(cls(schema).iter_errors(data)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "result"
            raise _invalid(spec.name, f"{where}: {error.message[:160]}")
    return data


def _checked_update(service: Any, spec: Any, update: Any) -> list[tuple[str, str, Any]]:
    """Validate every write of a state update before any is applied."""
    if not isinstance(update, dict):
        raise _invalid(spec.name, "state_update is not an object")
    if update and spec.read_only:
        raise _invalid(spec.name, "a read-only tool cannot change the state")
    state_cls = type(service.state)
    writes: list[tuple[str, str, Any]] = []
    for field, changes in update.items():
        info = state_cls.model_fields.get(field)
        if field in ("counters",) or info is None or not isinstance(getattr(service.state, field), dict):
            raise _invalid(spec.name, f"{field!r} is not a collection of this service")
        if not isinstance(changes, dict):
            raise _invalid(spec.name, f"{field}: expected {{id: record or null}}")
        store = getattr(service.state, field)
        for key, record in changes.items():
            if record is None:
                if key not in store:
                    raise _invalid(spec.name, f"{field}.{key}: cannot delete a record that does not exist")
                writes.append((field, key, None))
                continue
            if isinstance(record, dict) and "id" in record and str(record["id"]) != key:
                raise _invalid(spec.name, f"{field}.{key}: record id {record['id']!r} differs from its key")
            try:
                value = _value_adapter(state_cls, field).validate_python({key: record})[key]
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                where = ".".join(str(x) for x in (field, *first.get("loc", ())))
                raise _invalid(spec.name, f"{where}: {first['msg']}") from None
            writes.append((field, key, value))
    return writes


def simulate_call(service: Any, tool: str, arguments: dict[str, Any]) -> Any:
    """Simulate, validate and apply one call of a simulated tool.

    Args:
        service: the imported service instance.
        tool: the tool name.
        arguments: validated arguments.

    Returns:
        The simulated result (JSON).

    Raises:
        InternalError: the world model failed or its answer did not validate
            (500); nothing has been written to the state.
    """
    spec = service.tools[tool]
    sim = simulate(service, spec, arguments)
    result = _check_result(service, spec, sim.result)
    for field, key, value in _checked_update(service, spec, sim.state_update):
        store = getattr(service.state, field)
        if value is None:
            del store[key]
        else:
            store[key] = value
    return result
