"""One legal destination of a rider and what it costs (squares, energy, risks): what the path search
(``paths.py``) finds and what the family's steps (``family.py``) write into a ride's event."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RideOption:
    """One legal destination of a rider with every consequence spelled out."""

    rider: str
    to: str
    via: tuple[str, ...]  # the squares crossed before ``to``
    squares: int
    free: int
    paid: int
    crossings: int  # occupied squares crossed on a blocked road, +1 energy each
    cost: int  # energy paid if no risk goes wrong
    recovery: int  # energy regained for unused free squares
    slipstream: bool  # the free squares include a slipstream square
    crack: bool
    fall: bool
    worst_cost: int  # energy paid if every risk goes wrong; must be held before moving
    rejoins: bool  # a dropped rider reaching the peloton rejoins it
    finishes: bool
    breakaway: bool

    @property
    def risk_count(self) -> int:
        return int(self.crack) + int(self.fall)
