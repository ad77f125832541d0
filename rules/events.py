"""What happened: one ``Event`` type shared by every game (narration, boards, replay output)."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened in ``turn``: its ``type`` (a game's word) and its data."""

    turn: int
    type: str
    data: MappingProxyType[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "type": self.type, **self.data}


def event(turn: int, type_: str, **data: Any) -> Event:
    return Event(turn, type_, MappingProxyType(data))
