"""The tables a Leader 1 family game reads (free and paid squares, the peloton's cost, slipstream,
risks), as one frozen ``Ruleset``; Hell of the North is another instance. Below the shared state
(``base.py``, whose setup names its ruleset) and each edition's model."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

# B.1 free movement (base squares) by rider type and the terrain where the move starts
FREE_SQUARES: dict[str, dict[str, int]] = {
    "rouleur": {"P": 3, "M": 1, "D": 4, "R": 2},
    "leader": {"P": 2, "M": 2, "D": 4, "R": 2},
    "climber": {"P": 1, "M": 3, "D": 4, "R": 2},
}
# B.1 paying movement: energy for 1..6 extra squares
PAYING_COST = (0, 1, 3, 5, 8, 11, 15)
# B.2 a breakaway is a move of at least this many squares ahead of the peloton's front
BREAKAWAY_MIN = 4
# B.4 energy each peloton rider pays for a peloton move of 5, 6, 7 squares
PELOTON_COST = {5: 1, 6: 2, 7: 3}
# C.1 a front rider's move this long (by start terrain) cuts the slipstream behind it
SLIPSTREAM_CUT = {"P": 6, "R": 6, "M": 6, "D": 8}
# C.2 events-die result needed for the 1st, 2nd, 3rd-and-more risk
RISK_THRESHOLDS = (5, 8, 11)
CRACK_FACTOR = 3
FALL_FACTOR = 2
# C.3 the events-die result that punctures
PUNCTURE_ON = 1


@dataclass(frozen=True)
class Ruleset:
    """The tables a Leader 1 family game reads; Hell of the North is another instance."""

    name: str = "leader1"
    free_squares: MappingProxyType[str, MappingProxyType[str, int]] = field(
        default_factory=lambda: MappingProxyType({k: MappingProxyType(v) for k, v in FREE_SQUARES.items()})
    )
    paying_cost: tuple[int, ...] = PAYING_COST
    breakaway_min: int = BREAKAWAY_MIN
    peloton_cost: MappingProxyType[int, int] = field(default_factory=lambda: MappingProxyType(PELOTON_COST))
    slipstream_cut: MappingProxyType[str, int] = field(default_factory=lambda: MappingProxyType(SLIPSTREAM_CUT))
    risk_thresholds: tuple[int, ...] = RISK_THRESHOLDS
    crack_factor: int = CRACK_FACTOR
    fall_factor: int = FALL_FACTOR
    puncture_on: int = PUNCTURE_ON

    @property
    def max_paying(self) -> int:
        return len(self.paying_cost) - 1

    def risk_threshold(self, risks_taken: int) -> int:
        """Events-die result needed for a rider who has already run ``risks_taken`` risks."""
        return self.risk_thresholds[min(risks_taken, len(self.risk_thresholds) - 1)]


LEADER1 = Ruleset()
