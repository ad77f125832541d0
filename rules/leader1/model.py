"""Leader 1's fixed facts (tables, setup) and its per-race state, as frozen values."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from rules.events import Event as Event
from rules.events import event as event
from rules.leader1.base import RiderBase, StateBase
from rules.leader1.versions import VERSIONS
from rules.road import Road
from rules.versions import RulesVersion

RIDER_TYPES = ("rouleur", "leader", "climber")
TEAMS = ("yellow", "blue", "green", "white", "black")
FEED_COLOUR = {"rouleur": "green", "leader": "yellow", "climber": "red"}

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


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str
    riders: tuple[str, ...]  # rider types, in the player's order
    sprinter: str | None = None
    descender: str | None = None
    # D.3 energy carried over from the previous stage, by rider type (already capped)
    carry: tuple[tuple[str, int], ...] = ()

    def rider_ids(self) -> tuple[str, ...]:
        return tuple(f"{self.team}-{kind}" for kind in self.riders)


@dataclass(frozen=True)
class Options:
    # D: a rider ending more than 3 turns after the peloton is eliminated (rulings.md R-ELIM)
    elimination: bool = True
    elimination_turns: int = 3
    # D: squares around the general-classification hexagon (rulings.md R-GC-RING)
    gc_ring: int = 12
    # D: a later stage of a stage race, where eliminations leave players with unequal teams (R-STAGE-RIDERS)
    stage_race: bool = False


OPTION_NAMES = {"elimination", "elimination_turns", "gc_ring", "stage_race"}


@dataclass(frozen=True)
class Setup:
    """Everything fixed for one race: road, players in seating order, options."""

    road: Road
    players: tuple[Player, ...]
    options: Options
    track_name: str
    ruleset: Ruleset = LEADER1
    rules: RulesVersion = VERSIONS.newest  # the rules version it is played under (rules/versions.py)

    def player(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)

    def player_index(self, pid: str) -> int:
        return next(i for i, p in enumerate(self.players) if p.id == pid)


@dataclass(frozen=True)
class Rider(RiderBase):
    """A classic rider: B.1 "reach" by ``stamp``, C.2 ``skip_turn``, B.5 ``left_behind_turn``."""

    sprinter: bool = False
    descender: bool = False


@dataclass(frozen=True)
class State(StateBase[Setup, Rider]):
    token: int = 0  # index of the player holding the peloton token
    puncture_checks: bool = False  # C.3 a red face: everyone rolls once the riders left behind have moved
    arrivals: tuple[str, ...] = ()
