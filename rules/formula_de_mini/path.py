"""The way a car has driven: its spaces and what they count (corners, skids, laps). Below the state
(``model.py``, a car keeps its trail for a slipstream) and the move search (``moves.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Path:
    cells: tuple[str, ...]
    changes: int  # lane changes on straights
    left: tuple[tuple[int, int], ...]  # (lane, row) where the path left a lane
    corner: int | None  # the corner the car is in after the last space
    stops: int  # stops already made in that corner (before this move)
    overshoot: int  # spaces driven while skidding past a corner missed
    skidding: bool
    crossings: int
    pit: bool  # the path is in the pit lane
