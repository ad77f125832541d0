"""Formula Dé Mini's per-race state as frozen values."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.events import Event
from rules.formula_de_mini.circuit import Circuit
from rules.formula_de_mini.path import Path
from rules.formula_de_mini.versions import THREE_LAPS, VERSIONS
from rules.rng import Dice
from rules.versions import RulesVersion

TEAMS = ("red", "blue", "green", "yellow")
START_LP = 20
BLOCKING_OUT = 7  # blocked this many spaces or more: eliminated
TURBO_LP = 3
SLIPSTREAM_LP = 1
SLIPSTREAM_SPACES = 3
SLIPSTREAM_MIN_GEAR = 3
COLLISION_ON = 4  # black die 1-4: damaged
ENGINE_LP = 2
PIT_EXIT_MAX_GEAR = 3
BOOK_LAPS = 3  # a race's laps on a circuit of the box (rulings.md R-FDM-LAPS)


@dataclass(frozen=True)
class Options:
    laps: int = 0  # 0: the default (Setup.laps, R-FDM-LAPS)
    shift_5_to_1: bool = True  # rulings.md R-FDM-5-TO-1
    pit_exit: str = "next-turn"  # rulings.md R-FDM-PIT: a car leaving its stand drives off next turn, or at once


OPTION_NAMES = {"laps", "shift_5_to_1", "pit_exit"}


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str
    cars: int  # 1 or 2


@dataclass(frozen=True)
class Setup:
    circuit: Circuit
    players: tuple[Player, ...]
    options: Options
    track_name: str
    rules: RulesVersion = VERSIONS.newest  # the rules version it is played under (rules/versions.py)

    @property
    def laps(self) -> int:
        """The race's laps: its ``laps`` option, else 3 on a circuit of the box (R-FDM-LAPS: "after the
        1st or 2nd lap" leaves laps to drive after either stop), else the circuit's own (an inline
        circuit's, and the box's 2 before rules 2026-12)."""
        if self.options.laps:
            return self.options.laps
        if self.rules.has(THREE_LAPS) and self.track_name != "inline":
            return BOOK_LAPS
        return self.circuit.laps


@dataclass(frozen=True)
class Car:
    id: str  # "<team>-<n>"
    player: str
    team: str
    cell: str
    gear: int = 0  # 0: on the grid, not started
    lp: int = START_LP
    status: str = "racing"  # racing, pits, spun, finished, eliminated
    lap: int = 0  # times it crossed the line (the start counts as the first)
    corner: int | None = None  # the corner it is in, and the stops made there
    stops: int = 0
    stamp: int = 0
    started: bool = False
    turbo_used: bool = False
    pitted: bool = False
    finished_turn: int | None = None

    @property
    def row(self) -> int:
        return int(self.cell.split(".")[0])


@dataclass(frozen=True)
class Moving:
    """The car whose turn it is, between its decisions."""

    car: str
    step: str  # gear, move, slipstream, pit-exit
    roll: int = 0  # spaces the die gave (or 4 for a flying start)
    path: tuple[str, ...] = ()  # squares already driven this turn (before a slipstream)
    braked: bool = False
    slipstreams: int = 0
    trail: Path | None = None  # the path.Path driven so far (corners, skids, laps), for a slipstream


@dataclass(frozen=True)
class State:
    setup: Setup
    cars: tuple[Car, ...]
    dice: Dice
    turn: int = 1
    queue: tuple[str, ...] = ()  # cars still to play this round, the one playing first
    moving: Moving | None = None
    stamp: int = 0
    arrivals: tuple[str, ...] = ()
    events: tuple[Event, ...] = field(default=())
    finished: bool = False

    def car(self, cid: str) -> Car:
        for c in self.cars:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def has_car(self, cid: str) -> bool:
        return any(c.id == cid for c in self.cars)
