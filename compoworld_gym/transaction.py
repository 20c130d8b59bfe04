"""Transactions for mutating tool calls: rollback and validation.

A failed call must leave the state exactly as it was, and a successful one
must leave a state that validates against its model. Doing
both on the whole state costs two passes over every record per call (a dump
and a validation, ~30 + ~50 µs for a dozen records), so the default
:class:`JournalTransaction` works per record instead:

* every top-level ``dict`` field of the state is swapped for a
  :class:`_TrackedDict` for the duration of the call. The first time a
  tool *reads* a value out of it (``d[k]``, ``get``, ``values``, ``items``,
  iteration, ``dict(d)``, ``{**d}``...), the value's current form is saved
  (a record's Python-mode dump, straight from its pydantic-core serializer);
  the first time a tool *writes* a key (set, delete, pop, ``|=``...), its
  previous value (or absence) is saved. Saving on read, not on write, is
  what makes in-place mutation (``rec.status = ...``,
  ``rec.tags.append(...)``) undoable: no hook sees those;
* every other top-level field is saved before the call;
* on failure every saved value is put back (rebuilt from its dump) in the
  original key order;
* on success only touched values that may have changed are validated:
  new and replaced values, plain containers, and records that are still
  the same object but whose dump differs from the saved one (a record that
  dumps as saved was valid and nothing a validator reads has changed). The
  candidates of a dict are dumped in one call with ``warnings="error"``, so
  a value of the wrong type anywhere (a str in a date field, a dict where
  a model belongs) raises and they are all validated; what it cannot see
  (``True`` in an int field) has the same JSON. States whose dump is not a
  faithful image (custom serializers, excluded or computed fields) validate
  every touched record. Then the plain dicts are swapped back.

Records are reachable only through the state's top-level fields, so every
record a tool can change passes through a tracked dict first.
:class:`SnapshotTransaction` (dump everything, validate everything) is kept
for services whose state does not fit that pattern and as the reference in
tests.
"""

from __future__ import annotations

import copy
import datetime as dt
import decimal
import enum
import uuid
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError

_ABSENT = object()

#: Immutable value types: a value of one of these that is still the same
#: object after the call is unchanged. Enum classes are added on first sight.
_ATOMIC: set[type] = {str, int, float, bool, type(None), bytes, dt.date, dt.datetime, dt.time,
                      dt.timedelta, decimal.Decimal, uuid.UUID}


def _is_atomic(t: type) -> bool:
    if t in _ATOMIC:
        return True
    if issubclass(t, enum.Enum):  # members are singletons; their values never change
        _ATOMIC.add(t)
        return True
    return False


def _save(value: Any) -> tuple[Any, Any, Any]:
    """``(value, model class or None, restorable copy)`` of one value.

    A model's copy is its Python-mode dump (what ``model_dump()`` returns);
    plain containers are deep-copied; immutable scalars are kept as they are.
    """
    t = type(value)
    if isinstance(value, BaseModel):
        return value, t, t.__pydantic_serializer__.to_python(value)
    if t is dict or t is list or t is set or not _is_atomic(t):
        return value, None, copy.deepcopy(value)
    return value, None, value


def _load(saved: tuple[Any, Any, Any]) -> Any:
    _, cls, data = saved
    return cls.model_validate(data) if cls is not None else data


class _TrackedDict(dict):
    """A dict that remembers the original of every value a tool touches.

    ``__iter__`` is overridden (to the same behaviour) only so that
    CPython's bulk copies (``dict(d)``, ``{**d}``, ``d | x``, ``x.update(d)``)
    take the slow path through ``keys()`` and ``__getitem__`` and so save
    what they hand out.
    """

    __slots__ = ("saved", "order")

    def _before_removal(self) -> None:
        if self.order is None:
            # The original order: keys added earlier in the call (saved as absent) are not in it.
            saved = self.saved
            self.order = [k for k in dict.keys(self) if saved.get(k) is not _ABSENT]

    def _remember(self, key: Any) -> None:
        if key not in self.saved:
            self.saved[key] = _save(dict.__getitem__(self, key)) if dict.__contains__(self, key) else _ABSENT

    def _remember_all(self) -> None:
        saved = self.saved
        if saved.keys() >= dict.keys(self):  # already all saved (a set comparison in C)
            return
        pending = [(k, v) for k, v in dict.items(self) if k not in saved]
        cls = type(pending[0][1])
        if len(pending) >= 3 and issubclass(cls, BaseModel) and all(type(v) is cls for _, v in pending):
            # One dump for all (a list of one model class): what each record's own dump gives.
            for (key, value), data in zip(pending, _list_serializer(cls).to_python([v for _, v in pending])):
                saved[key] = (value, cls, data)
        else:
            for key, value in pending:
                saved[key] = _save(value)

    def __getitem__(self, key: Any) -> Any:
        value = dict.__getitem__(self, key)
        saved = self.saved
        if key not in saved:
            saved[key] = _save(value)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        if not dict.__contains__(self, key):
            return default
        value = dict.__getitem__(self, key)
        saved = self.saved
        if key not in saved:
            saved[key] = _save(value)
        return value

    def __iter__(self):
        return dict.__iter__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # copy.copy/deepcopy/pickle of a tracked dict give a plain dict (what
        # the tool would get outside a transaction); every value is saved first.
        self._remember_all()
        return dict, (dict(dict.items(self)),)

    def values(self):  # type: ignore[override]
        self._remember_all()
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._remember_all()
        return dict.items(self)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._remember(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._remember(key)
        self._before_removal()
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        if dict.__contains__(self, key):
            self._remember(key)
            self._before_removal()
        return dict.pop(self, key, *default)

    def copy(self) -> dict:
        self._remember_all()
        return dict(dict.items(self))

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._remember(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> "_TrackedDict":
        self.update(other)
        return self

    def popitem(self) -> tuple[Any, Any]:
        key = next(reversed(dict.keys(self)))
        return key, self.pop(key)

    def clear(self) -> None:
        for key in list(dict.keys(self)):
            del self[key]


class SnapshotTransaction:
    """Dump the whole state before; validate the whole state after."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.snapshot = service.state.model_dump()

    def commit(self) -> None:
        """Validate the new state (raises ``pydantic.ValidationError``)."""
        svc = self.service
        svc.state = svc.State.model_validate(svc.state)

    def rollback(self) -> None:
        """Restore the state as it was before the call."""
        self.service.state = self.service.State.model_validate(self.snapshot)


class JournalTransaction:
    """Per-record journal: save what a tool touches; validate only what changed.

    Attributes:
        validated: how many values :meth:`commit` re-validated (for tests
            and profiling; values shown to be unchanged are not counted).
    """

    def __init__(self, service: Any) -> None:
        self.service = service
        state = service.state
        self.tracked: dict[str, _TrackedDict] = {}
        self.others: dict[str, Any] = {}
        self.validated = 0
        values = state.__dict__  # fields live in the instance dict: no pydantic __setattr__ needed
        for name in _field_names(type(state)):
            value = values[name]
            if type(value) is dict:
                tracked = _TrackedDict(value)
                tracked.saved = {}
                tracked.order = None
                values[name] = tracked
                self.tracked[name] = tracked
            elif type(value) in _ATOMIC:  # the common case (clock, ids), without a call
                self.others[name] = (value, None, value)
            else:
                self.others[name] = _save(value)

    def _untrack(self) -> None:
        values = self.service.state.__dict__
        for name, tracked in self.tracked.items():
            if values[name] is tracked:
                values[name] = dict(dict.items(tracked))

    def commit(self) -> None:
        """Validate changed values and other fields; raises ``ValidationError``."""
        state = self.service.state
        model = type(state)
        values = state.__dict__
        try:
            for name, tracked in self.tracked.items():
                if values[name] is not tracked:  # the tool assigned a new dict to the field
                    self.validated += 1
                    values[name] = _field_adapter(model, name).validate_python(values[name])
                elif tracked.saved:
                    self._commit_dict(model, name, tracked)
            for name, saved in self.others.items():
                current = values[name]
                if current is saved[0] and saved[1] is None and saved[2] is current:
                    continue  # the same immutable value
                self.validated += 1
                values[name] = _field_adapter(model, name).validate_python(current)
        finally:
            self._untrack()

    def _commit_dict(self, model: type[BaseModel], name: str, tracked: _TrackedDict) -> None:
        """Validate the touched values of one tracked dict that may have changed."""
        todo: list[Any] = []  # keys to validate
        new: set[Any] = set()  # keys that did not exist before the call
        same: dict[Any, Any] = {}  # {key: saved dump} of records that are still the same object
        for key, saved in tracked.saved.items():
            if not dict.__contains__(tracked, key):
                continue
            if saved is _ABSENT:
                todo.append(key)
                new.add(key)
                continue
            value, cls, data = saved
            if dict.__getitem__(tracked, key) is not value:
                todo.append(key)
            elif cls is not None:
                same[key] = data
            elif data is not value:  # a mutable plain value: may have changed in place
                todo.append(key)
        pair, single = _dict_validators(model, name)
        if len(same) >= _COMPARE_FROM and _faithful(model):
            # One dump of all of them (the per-call cost of warnings="error" is paid once);
            # a value of the wrong type anywhere raises, and then all are validated.
            try:
                dumped = pair.serializer.to_python({k: dict.__getitem__(tracked, k) for k in same},
                                                   warnings="error")
            except PydanticSerializationError:
                dumped = {}
            if dumped != same:  # usually equal: one comparison in C, no loop
                todo.extend(k for k, data in same.items() if dumped.get(k, _ABSENT) != data)
        else:
            todo.extend(same)
        for key in todo:
            current = dict.__getitem__(tracked, key)
            self.validated += 1
            if single is None or key in new:
                checked = pair.validator.validate_python({key: current})[key]
            else:  # an existing key is unchanged and was valid: check the value alone
                try:
                    checked = single.validate_python(current)
                except ValidationError:
                    pair.validator.validate_python({key: current})  # the same error, located at the key
                    raise
            dict.__setitem__(tracked, key, checked)

    def rollback(self) -> None:
        """Put every saved value back exactly, in the original key order."""
        values = self.service.state.__dict__
        for name, tracked in self.tracked.items():
            for key, saved in tracked.saved.items():
                if saved is _ABSENT:
                    dict.pop(tracked, key, None)
                else:
                    dict.__setitem__(tracked, key, _load(saved))
            if tracked.order is not None:
                values[name] = {k: dict.__getitem__(tracked, k) for k in tracked.order}
            else:
                values[name] = dict(dict.items(tracked))
        for name, saved in self.others.items():
            values[name] = _load(saved)


#: Below this many unchanged-looking records, validating them is cheaper than
#: proving them unchanged (one dump ~0.8 µs each plus ~1.3 µs per call, against
#: ~1.6 µs per record validation).
_COMPARE_FROM = 3


_FIELDS: dict[type, tuple[str, ...]] = {}
_FAITHFUL: dict[type, bool] = {}
_ADAPTERS: dict[tuple[type, str, str], Any] = {}
#: Core-schema keys that make a dump differ from what a validator sees.
_UNFAITHFUL_KEYS = frozenset({"serialization", "computed_fields", "serialization_exclude", "exclude_if"})


def _list_serializer(cls: type[BaseModel]) -> Any:
    """The serializer of ``list[cls]`` (built once per class)."""
    key = (cls, "", "list")
    found = _ADAPTERS.get(key)
    if found is None:
        found = _ADAPTERS[key] = TypeAdapter(list[cls]).serializer  # type: ignore[valid-type]
    return found


def _field_names(model: type[BaseModel]) -> tuple[str, ...]:
    names = _FIELDS.get(model)
    if names is None:
        names = _FIELDS[model] = tuple(model.model_fields)
    return names


def _faithful(model: type[BaseModel]) -> bool:
    """Whether a dump of a ``model`` instance shows all a validator checks.

    False when the model's core schema (nested models included) has a
    custom serializer, an excluded or a computed field: then a changed
    record could dump like the original, so it is always re-validated.
    Computed once per class.
    """
    found = _FAITHFUL.get(model)
    if found is None:
        found = _FAITHFUL[model] = not _has_key(model.__pydantic_core_schema__, _UNFAITHFUL_KEYS)
    return found


def _has_key(node: Any, keys: frozenset[str]) -> bool:
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in keys and value:
                    return True
                if isinstance(value, (dict, list)):
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(x for x in node if isinstance(x, (dict, list)))
    return False


def _field_adapter(model: type[BaseModel], name: str) -> TypeAdapter:
    key = (model, name, "field")
    if key not in _ADAPTERS:
        info = model.model_fields[name]
        _ADAPTERS[key] = TypeAdapter(Annotated[info.annotation, info])
    return _ADAPTERS[key]


def _dict_validators(model: type[BaseModel], name: str) -> tuple[TypeAdapter, Any]:
    """The field's adapter (validates ``{key: value}`` dicts; its serializer
    dumps them) and, for a plain ``dict[K, V]``, ``V``'s validator (or None)."""
    key = (model, name, "dict")
    found = _ADAPTERS.get(key)
    if found is None:
        annotation = model.model_fields[name].annotation
        args = get_args(annotation)
        single = TypeAdapter(args[1]).validator if get_origin(annotation) is dict and len(args) == 2 else None
        found = _ADAPTERS[key] = (_value_adapter(model, name), single)  # type: ignore[assignment]
    return found  # type: ignore[return-value]


def _value_adapter(model: type[BaseModel], name: str) -> TypeAdapter:
    """Validator of a one-item dict of the field's type (keys and values checked)."""
    key = (model, name, "value")
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(model.model_fields[name].annotation)
    return _ADAPTERS[key]
