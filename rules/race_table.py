"""A race's numbers, piece by piece, for a table a reader can sort (the web pages' standings and
finish table, issue 39): each game says which columns it has and fills them from its states.

A value is a whole number to sort by (None: none yet, sorted last) and its text as shown; the
headings are catalog entries (``N_``), translated where they are shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.i18n import N_


@dataclass(frozen=True)
class Value:
    """One cell: the number it sorts by and the text it shows (the number itself when empty)."""

    number: int | None
    text: str = ""

    @property
    def shown(self) -> str:
        return self.text or ("" if self.number is None else str(self.number))


@dataclass(frozen=True)
class Line:
    """One piece's numbers, in the table's columns' order, and its player."""

    piece: str
    player: str
    values: tuple[Value, ...]


@dataclass(frozen=True)
class Numbers:
    """A game's columns (catalog headings) and each piece's values, in the race's order now (first
    to last); ``lower_first`` names the columns where less is better (a time), sorted from the
    smallest at the first click."""

    columns: tuple[str, ...]
    lines: tuple[Line, ...]
    lower_first: frozenset[str] = frozenset()

    def of(self, piece: str) -> Line | None:
        return next((line for line in self.lines if line.piece == piece), None)


ENERGY_SPENT = N_("energy spent")
ENERGY_LEFT = N_("energy left")
RISKS = N_("risks taken")

NumbersOf = Callable[[Any, Any], Numbers]  # (the race's first state, the state now): a game's ``numbers``

