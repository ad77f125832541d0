"""What happened: one ``Event`` type shared by every game (narration, boards, replay output)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Event:
    """One thing that happened in ``turn``: its ``type`` (a game's word) and its data."""

    turn: int
    type: str
    data: MappingProxyType[str, object]

    def to_json(self) -> dict[str, object]:
        return {"turn": self.turn, "type": self.type, **self.data}


def event(turn: int, type_: str, **data: object) -> Event:
    return Event(turn, type_, MappingProxyType(data))


def whole(value: object) -> int:
    """A number in an event's data (written as an int by the rules) read as ``int()`` reads it."""
    if not isinstance(value, int | float | str):
        raise TypeError(f"expected a number in an event, got {value!r}")
    return int(value)
