"""Peloton's race state: frozen values, replaced by ``apply`` (never changed in place)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.events import Event
from rules.peloton.course import Course
from rules.peloton.versions import VERSIONS
from rules.versions import RulesVersion

TEAMS = ("grey", "red", "blue", "green", "white", "yellow", "black", "orange")  # numbers 1-3, 4-6 ... 22-24
DIAL = (0, 1, 1, 2, 2)  # the acceleration indicator's five positions, clockwise (II.4)
WAITING, START, RACING, LYING, STANDING, FINISHED = "waiting", "start", "racing", "lying", "standing", "finished"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str
    cyclists: int
    carry: tuple[tuple[str, int], ...] = ()  # energy carried from the last leg by slot, -5 to +5 (II.5)
    places: tuple[tuple[str, int], ...] = ()  # a league leg: the overall places by slot (R-PEL-START-ORDER)


@dataclass(frozen=True)
class Cyclist:
    id: str  # its number, "1" to "24"
    player: str
    team: str
    cell: str | None  # None while waiting to start
    energy: int
    dial: int = 0  # the indicator's position, 0-4 (DIAL gives its value)
    status: str = START
    start_round: int = 1
    card: int | None = None
    finish_round: int | None = None
    past: int = 0  # half hexagons past the finish line
    checkpoints: int = 0  # time-trial checkpoints passed

    @property
    def on_road(self) -> bool:
        return self.cell is not None and self.status not in (WAITING, FINISHED)


@dataclass(frozen=True)
class Setup:
    course: Course
    players: tuple[Player, ...]
    options: dict[str, object] = field(default_factory=dict)
    track: object = None  # the record's track (a name, or an inline course)
    lots: tuple[int, ...] = ()  # the lots drawn for the starting order (R-PEL-START-ORDER), as a record's dice.lots
    rules: RulesVersion = VERSIONS.newest  # the rules version it is played under (rules/versions.py)


@dataclass(frozen=True)
class State:
    setup: Setup
    cyclists: tuple[Cyclist, ...]
    wind: int
    round: int = 0
    phase: str = "ride"  # "cards", "ride", "finished"
    queue: tuple[str, ...] = ()  # cyclists still to move this round, in order
    tandem: frozenset[str] = frozenset()  # cyclists who may ride tandem this round (judged at its start)
    sheltered: frozenset[str] = frozenset()  # cyclists with a cyclist directly in front at the round's start
    acting: str | None = None  # the cyclist whose dial is set and who rides now
    kept: bool = False  # the acting cyclist kept its dial (team time trial, VI.3)
    card_queue: tuple[str, ...] = ()
    arrivals: tuple[str, ...] = ()
    crossings: tuple[tuple[int, str], ...] = ()  # (bonus line index, cyclist) in crossing order
    events: tuple[Event, ...] = ()

    @property
    def course(self) -> Course:
        return self.setup.course

    @property
    def discipline(self) -> str:
        return self.setup.course.discipline

    def cyclist(self, cid: str) -> Cyclist:
        for c in self.cyclists:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def player_of(self, cid: str) -> str:
        return self.cyclist(cid).player
