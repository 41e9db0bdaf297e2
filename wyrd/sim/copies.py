"""A run's own copy of rules data, made by type: what an action may change is copied, the rest shared.

A simulator's fast path starts every run from the state a story's opening left, and the
rules change that state in place; a run must not change the next one's. Pickling the state
and reading it back copies everything, a frozen skill as much as a score; this copies what an
action may change in place (dicts, lists, models that are not frozen) and shares what none can
(frozen models, strings, numbers, enums), in about half the time. A value of any other type is
refused rather than shared, so a field added to a state later cannot leak between runs.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar, cast

from pydantic import BaseModel

__all__ = ["fresh"]

T = TypeVar("T")

_SHARE, _DICT, _LIST, _MODEL = range(1, 5)  # from 1, so that a way looked up and found is never falsy
_HOW: dict[type, int] = {}  # how values of each type are copied, worked out once per type
_SHARED: set[type] = set()  # the types shared as they are (looked up inline: most values are)


def fresh(value: T) -> T:
    """A copy of ``value`` that a run may change without changing ``value``.

    Raises:
        TypeError: If it holds a value of a type not known here (neither shared nor copied).
    """
    return cast(T, _fresh(value))


def _how(kind: type) -> int:
    found = _HOW.get(kind)
    if found is None:
        if issubclass(kind, str | int | float | Enum | type(None)) or (
                issubclass(kind, BaseModel) and kind.model_config.get("frozen")):
            found = _SHARE  # no action changes these in place
        elif issubclass(kind, BaseModel):
            found = _MODEL
        elif kind is dict or kind is list:
            found = _DICT if kind is dict else _LIST
        else:
            raise TypeError(f"a run's state holds a {kind.__name__}, which a fast path does not know how to copy")
        _HOW[kind] = found
        if found == _SHARE:
            _SHARED.add(kind)
    return found


def _fresh(value: Any) -> Any:
    how = _HOW.get(type(value)) or _how(type(value))
    if how == _SHARE:
        return value
    shared = _SHARED
    # most containers hold only shared values (checked in one pass over their types): a shallow copy is enough
    if how == _DICT:
        if shared.issuperset(map(type, value.values())):
            return dict(value)
        return {k: v if type(v) in shared else _fresh(v) for k, v in value.items()}
    if how == _LIST:
        if shared.issuperset(map(type, value)):
            return list(value)
        return [v if type(v) in shared else _fresh(v) for v in value]
    copied = value.model_copy()  # its fields' values still shared: those an action may change are copied here
    fields = copied.__dict__
    if not shared.issuperset(map(type, fields.values())):
        for name, field_value in fields.items():
            if type(field_value) not in shared:
                fields[name] = _fresh(field_value)
    return copied
