"""Who must decide now, and how to ask: a game's ``pending`` answers with a ``Decision``. Below the
game contract (``rules/game.py``) and the pacts' contract (``rules/pacts.py``), which both name it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Layout = Literal["buttons", "menu", "two-step"]
"""How a decision is asked: a row of buttons, one menu of targets (paged past 25), or two
steps (pick the piece or group in ``Choice.step`` first, then its target)."""


@dataclass(frozen=True)
class Decision:
    """Who must decide now, what kind of decision (a game's word), for which piece, and how to ask."""

    player: str
    kind: str
    piece: str | None = None
    layout: Layout = "buttons"
