"""Leader 1's fixed facts (tables, setup) and its per-race state, as frozen values."""

from __future__ import annotations

from dataclasses import dataclass

from rules.events import Event as Event
from rules.events import event as event
from rules.leader1.base import RiderBase, StateBase
from rules.leader1.ruleset import LEADER1, Ruleset
from rules.leader1.versions import VERSIONS
from rules.road import Road
from rules.versions import RulesVersion

RIDER_TYPES = ("rouleur", "leader", "climber")
TEAMS = ("yellow", "blue", "green", "white", "black")
FEED_COLOUR = {"rouleur": "green", "leader": "yellow", "climber": "red"}


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
    # race options for rulings players may want either way (issue 41); the first value is today's
    drop: str = "pays"  # R-DROP: "pays" rides the move in the peloton; "leaves" before it (as R-HOTN-DROP)
    boxed_in: str = "stands"  # R-STUCK: "stands" still; "rides-through" as R-HOTN-BOXED-IN
    peloton_bonus: str = "lost"  # R-BONUS-PELOTON: "lost"; "first-rider" in peloton order


OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "drop": ("pays", "leaves"),
    "boxed_in": ("stands", "rides-through"),
    "peloton_bonus": ("lost", "first-rider"),
}
OPTION_NAMES = {"elimination", "elimination_turns", "gc_ring", "stage_race", *OPTION_CHOICES}


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
