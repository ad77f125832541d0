"""Actions: small values with a text form that round-trips (records, database, logs).

An action is who (``by``), what (``do``) and the game's own fields. The class never grows
with a new game: each game declares its fields in a ``Vocabulary`` (name and kind, in the
order the text form writes them), and one reader turns JSON or text into an ``Action``
checked against it. Text form: ``ann ride rider=yellow-rouleur to=14.2 via=12.1,13.2``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import MalformedRecord

FieldValue = str | int | bool | tuple[str, ...]
FieldKind = Literal["text", "count", "flag", "cells"]
TOKEN = re.compile(r"^[A-Za-z0-9_.,\-]+$")
MAX_TEXT = 64  # a field's text (ids, cell names) is short: longer is malformed
MAX_COUNT = 10**6
MAX_CELLS = 64


class Action:
    """One decision by one player. Fields absent, ``None``, ``False`` or empty are left out.

    ``action.rider`` reads a field (``None`` when absent); ``action.get`` does the same.
    Two actions are equal when ``by``, ``do`` and the fields are, whatever their order.
    """

    __slots__ = ("_fields", "by", "do")
    by: str
    do: str
    _fields: tuple[tuple[str, FieldValue], ...]

    def __init__(self, by: str, do: str, /, **fields: FieldValue | None) -> None:
        # set past the immutability guard below (the AI builds thousands of actions a race)
        kept: tuple[tuple[str, FieldValue], ...] = tuple(
            (k, v) for k, v in fields.items() if v is not None and v is not False and v != ()
        )
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "do", do)
        object.__setattr__(self, "_fields", kept)

    @classmethod
    def of(cls, by: str, do: str, fields: tuple[tuple[str, FieldValue], ...]) -> Action:
        """``Action(by, do, **dict(fields))`` for ``fields`` already as kept (none ``None``, ``False``
        or empty), in their order: a listing builds one per choice, ~45 a Leader 1 breakaway phase."""
        action = object.__new__(cls)
        object.__setattr__(action, "by", by)
        object.__setattr__(action, "do", do)
        object.__setattr__(action, "_fields", fields)
        return action

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)

    def get(self, name: str) -> FieldValue | None:
        for key, value in self._fields:
            if key == name:
                return value
        return None

    @property
    def fields(self) -> Mapping[str, FieldValue]:
        return dict(self._fields)

    def items(self) -> Iterator[tuple[str, FieldValue]]:
        return iter(self._fields)

    def replace(self, **fields: FieldValue | None) -> Action:
        merged: dict[str, FieldValue | None] = dict(self._fields)
        merged.update(fields)
        return Action(self.by, self.do, **merged)

    def _key(self) -> tuple[str, str, frozenset[tuple[str, FieldValue]]]:
        return (self.by, self.do, frozenset(self._fields))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action) or self.by != other.by or self.do != other.do:
            return False
        return self._fields == other._fields or frozenset(self._fields) == frozenset(other._fields)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Action({self.text()!r})"

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "_fields"):
            raise AttributeError("actions are immutable")
        object.__setattr__(self, name, value)

    def __reduce__(self) -> tuple[Callable[..., Action], tuple[str, str, tuple[tuple[str, FieldValue], ...]]]:
        return (_rebuild, (self.by, self.do, self._fields))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"by": self.by, "do": self.do}
        for key, value in self._fields:
            out[key] = list(value) if isinstance(value, tuple) else value
        return out

    def text(self) -> str:
        """Compact text form: ``ann ride rider=yellow-rouleur to=14.2 via=12.1,13.2``."""
        parts = [self.by, self.do]
        for key, value in self._fields:
            if isinstance(value, tuple):
                parts.append(f"{key}=" + ",".join(value))
            elif isinstance(value, bool):
                parts.append(f"{key}=1")
            else:
                parts.append(f"{key}={value}")
        return " ".join(parts)


def _rebuild(by: str, do: str, fields: tuple[tuple[str, FieldValue], ...]) -> Action:
    return Action(by, do, **dict(fields))


@dataclass(frozen=True)
class Field:
    """One action field of a game: its name, its kind, and a word on what it holds."""

    name: str
    kind: FieldKind
    about: str = ""
    zero_is_absent: bool = False  # a count of 0 means the same as no field (Formula Dé Mini's brake)


@dataclass(frozen=True)
class Vocabulary:
    """A game's action fields, in the order the text form writes them."""

    fields: tuple[Field, ...]

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def _names(self) -> str:
        return ", ".join(["by", "do", *(f.name for f in self.fields)])

    def from_json(self, data: object, path: str = "$") -> Action:
        if not isinstance(data, dict):
            raise MalformedRecord(path, 'expected an action object such as {"by": "ann", "do": "pass"}')
        for key in ("by", "do"):
            value = data.get(key)
            if not isinstance(value, str) or not value or len(value) > MAX_TEXT or not TOKEN.match(value):
                raise MalformedRecord(f"{path}.{key}", "missing or not a short name")
        values: dict[str, FieldValue | None] = {}
        for key, raw in data.items():
            if key in ("by", "do"):
                continue
            spec = self.field(key) if isinstance(key, str) else None
            if spec is None:
                raise MalformedRecord(f"{path}.{key}", f"unknown action field; allowed: {self._names()}")
            values[spec.name] = _check_json(spec, raw, f"{path}.{key}")
        return Action(data["by"], data["do"], **self._ordered(values))

    def from_text(self, text: str) -> Action:
        words = text.split()
        if len(words) < 2 or len(text) > 2000 or not all(TOKEN.match(w.split("=", 1)[-1] or "x") for w in words):
            raise MalformedRecord("$", f"not an action: {text[:80]!r}; expected 'player do key=value ...'")
        values: dict[str, FieldValue | None] = {}
        for word in words[2:]:
            key, sep, raw = word.partition("=")
            spec = self.field(key)
            if not sep or spec is None or key in values:
                raise MalformedRecord("$", f"bad action field {word[:80]!r}; allowed: {self._names()}")
            values[key] = _check_text(spec, raw, text)
        return Action(words[0], words[1], **self._ordered(values))

    def _ordered(self, values: dict[str, FieldValue | None]) -> dict[str, FieldValue | None]:
        return {
            f.name: None if (f.zero_is_absent and values[f.name] == 0) else values[f.name]
            for f in self.fields
            if f.name in values
        }


def _check_json(spec: Field, raw: object, path: str) -> FieldValue | None:
    if spec.kind == "text":
        if not isinstance(raw, str) or not 0 < len(raw) <= MAX_TEXT or not TOKEN.match(raw):
            raise MalformedRecord(path, "expected a short name or cell id")
        return raw
    if spec.kind == "count":
        if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= MAX_COUNT:
            raise MalformedRecord(path, "expected a whole number from 0")
        return raw
    if spec.kind == "flag":
        if not isinstance(raw, bool):
            raise MalformedRecord(path, "expected true or false")
        return raw
    if (
        not isinstance(raw, list)
        or len(raw) > MAX_CELLS
        or not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT and TOKEN.match(v) for v in raw)
    ):
        raise MalformedRecord(path, "expected a list of cell ids")
    return tuple(raw)


def _check_text(spec: Field, raw: str, text: str) -> FieldValue | None:
    if spec.kind == "text":
        if not raw or len(raw) > MAX_TEXT:
            raise MalformedRecord("$", f"{spec.name} must be a short name in {text[:80]!r}")
        return raw
    if not raw:
        raise MalformedRecord("$", f"{spec.name} has no value in {text[:80]!r}")
    if spec.kind in ("count", "flag"):
        if not raw.isdigit() or len(raw) > 7:
            raise MalformedRecord("$", f"{spec.name} must be a number in {text[:80]!r}")
        return int(raw) if spec.kind == "count" else raw != "0"
    cells = tuple(raw.split(","))
    if len(cells) > MAX_CELLS or not all(cells):
        raise MalformedRecord("$", f"{spec.name} must list cell ids in {text[:80]!r}")
    return cells
