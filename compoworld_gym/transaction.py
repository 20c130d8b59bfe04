"""Transactions for mutating tool calls: rollback and validation.

A failed call must leave the state exactly as it was, and a successful one
must leave a state that validates against its model (DESIGN.md §5). Doing
both on the whole state costs two passes over every record per call (a dump
and a validation, ~30 + ~50 µs for a dozen records), so the default
:class:`JournalTransaction` works per record instead:

* every top-level ``dict`` field of the state is swapped for a
  :class:`_TrackedDict` for the duration of the call. The first time a
  tool *reads* a value out of it (``d[k]``, ``get``, ``values``, ``items``,
  iteration over values), the value's current form is saved; the first
  time a tool *writes* a key (set, delete, pop, ...), its previous value
  (or absence) is saved;
* every other top-level field is dumped before the call;
* on failure the saved values are put back; on success only the touched
  and new values are validated, then the plain dicts are swapped back.

Records are reachable only through the state's top-level fields, so every
record a tool can change passes through a tracked dict first.
:class:`SnapshotTransaction` (dump everything, validate everything) is kept
for services whose state does not fit that pattern and as the reference in
tests.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any

from pydantic import BaseModel, TypeAdapter

_ABSENT = object()


def _save(value: Any) -> Any:
    """A restorable copy of one value (a pydantic model or plain data)."""
    if isinstance(value, BaseModel):
        return (type(value), value.model_dump())
    if isinstance(value, (dict, list, set)):
        return (None, copy.deepcopy(value))
    return (None, value)  # immutable scalars, dates, None


def _load(saved: Any) -> Any:
    cls, data = saved
    return cls.model_validate(data) if cls is not None else data


class _TrackedDict(dict):
    """A dict that remembers the original of every value a tool touches."""

    __slots__ = ("saved", "order")

    def __init__(self, data: dict) -> None:
        super().__init__(data)
        self.saved: dict[Any, Any] = {}
        self.order: list[Any] | None = None  # original key order, kept once a key is removed

    def _before_removal(self) -> None:
        if self.order is None:
            self.order = list(dict.keys(self))

    def _remember(self, key: Any) -> None:
        if key not in self.saved:
            self.saved[key] = _save(dict.__getitem__(self, key)) if dict.__contains__(self, key) else _ABSENT

    def __getitem__(self, key: Any) -> Any:
        if dict.__contains__(self, key):
            self._remember(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if dict.__contains__(self, key) else default

    def values(self):  # type: ignore[override]
        for key in dict.keys(self):
            self._remember(key)
        return dict.values(self)

    def items(self):  # type: ignore[override]
        for key in dict.keys(self):
            self._remember(key)
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
        for key in dict.keys(self):
            self._remember(key)
        return dict(dict.items(self))

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._remember(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

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
    """Per-record journal: save what a tool touches; validate only that."""

    def __init__(self, service: Any) -> None:
        self.service = service
        state = service.state
        self.tracked: dict[str, _TrackedDict] = {}
        self.others: dict[str, Any] = {}
        for name in type(state).model_fields:
            value = getattr(state, name)
            if type(value) is dict:
                tracked = _TrackedDict(value)
                object.__setattr__(state, name, tracked)
                self.tracked[name] = tracked
            else:
                self.others[name] = _save(value)

    def _untrack(self) -> None:
        state = self.service.state
        for name, tracked in self.tracked.items():
            object.__setattr__(state, name, dict(tracked))

    def commit(self) -> None:
        """Validate touched values and other fields; raises ``ValidationError``."""
        state = self.service.state
        try:
            for name, tracked in self.tracked.items():
                if not tracked.saved:
                    continue
                adapter = _value_adapter(type(state), name)
                for key in tracked.saved:
                    if dict.__contains__(tracked, key):
                        validated = adapter.validate_python({key: dict.__getitem__(tracked, key)})
                        dict.__setitem__(tracked, key, validated[key])
            for name in self.others:
                value = _field_adapter(type(state), name).validate_python(getattr(state, name))
                object.__setattr__(state, name, value)
        finally:
            self._untrack()

    def rollback(self) -> None:
        """Put every saved value back exactly, in the original key order."""
        state = self.service.state
        for name, tracked in self.tracked.items():
            for key, saved in tracked.saved.items():
                if saved is _ABSENT:
                    dict.pop(tracked, key, None)
                else:
                    dict.__setitem__(tracked, key, _load(saved))
            if tracked.order is not None:
                restored = {k: dict.__getitem__(tracked, k) for k in tracked.order}
                object.__setattr__(state, name, restored)
            else:
                object.__setattr__(state, name, dict(tracked))
        for name, saved in self.others.items():
            object.__setattr__(state, name, _load(saved))


_ADAPTERS: dict[tuple[type, str, str], TypeAdapter] = {}


def _field_adapter(model: type[BaseModel], name: str) -> TypeAdapter:
    key = (model, name, "field")
    if key not in _ADAPTERS:
        info = model.model_fields[name]
        _ADAPTERS[key] = TypeAdapter(Annotated[info.annotation, info])
    return _ADAPTERS[key]


def _value_adapter(model: type[BaseModel], name: str) -> TypeAdapter:
    """Validator of a one-item dict of the field's type (keys and values checked)."""
    key = (model, name, "value")
    if key not in _ADAPTERS:
        _ADAPTERS[key] = TypeAdapter(model.model_fields[name].annotation)
    return _ADAPTERS[key]
