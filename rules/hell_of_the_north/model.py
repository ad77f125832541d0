"""Hell of the North's fixed facts (tables, course, setup) and its per-race state, as frozen values."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from rules.events import Event as Event
from rules.events import event as event
from rules.hell_of_the_north.versions import VERSIONS
from rules.leader1.base import RiderBase, StateBase
from rules.leader1.model import FEED_COLOUR as FEED_COLOUR
from rules.leader1.model import RIDER_TYPES as RIDER_TYPES
from rules.leader1.ruleset import Ruleset
from rules.resources import game_data
from rules.rng import Die
from rules.road import Road
from rules.versions import RulesVersion

GAME_ID = "hell-of-the-north"
DATA = game_data("hell_of_the_north")
TEAMS = ("black", "white", "green", "orange")  # the four support-rider markers (Figure 7)
QUALITIES = ("descent", "sprint", "attack")
PARTS = ("front", "back")

# Setup 4: every team starts with 6 pursuits; from stage 2, 4 plus at most 2 carried
PURSUITS = 6
STAGE_PURSUITS = 4
MAX_CARRIED_PURSUITS = 2
MAX_PURSUIT_STREAK = 2  # "No player may speed up the peloton more than 2 times in a row"
MAX_CARRIED_ENERGY = 15
# Step 4: what a peloton rider pays by part, for a move of 3-4 and of 5 or more
PELOTON_COST = {"back": (0, 1), "front": (1, 2)}
ROULEUR_MOUNTAIN_EXTRA = 1
COBBLE_SLIPSTREAM_CUT = 5  # Race conditions 1: 5 squares starting from cobbles
# Multi-day: 2 turns for the stage winner, 1 for the second, 1 a time bonus; out past 22
STAGE_WIN_BONUS = (2, 1)
TIME_BONUS = 1
GC_ELIMINATION = 22

# The classic tables that are the same (free squares, paying costs, breakaway, slipstream);
# a crack doubles the cost and a fall pays it once (Race conditions 2).
HOTN = Ruleset(
    name=GAME_ID,
    crack_factor=2,
    fall_factor=1,
    risk_thresholds=(),
)


@cache
def _dice_data() -> dict[str, object]:
    data: dict[str, object] = json.loads((DATA / "dice.json").read_text(encoding="utf-8"))
    return data


def peloton_die() -> Die:
    faces = _dice_data()["dice"]
    assert isinstance(faces, dict)
    return Die("peloton", tuple(faces["peloton"]))


def weather_markers() -> tuple[str, ...]:
    markers = _dice_data()["weather"]
    assert isinstance(markers, list)
    return tuple(str(m) for m in markers)


PELOTON = peloton_die()
WEATHER_DIE = "weather"
WEATHER_PLACE_DIE = "weather-hexagon"  # where the players lay a face-down marker (option ``weather``)


def face_value(face: int | str) -> int:
    """The number a face shows: a coloured 4 is a 4."""
    return face if isinstance(face, int) else int(face.rsplit("-", 1)[-1])


def risk_holds(face: int | str, risks_taken: int) -> bool:
    """Race conditions 2: 1st risk > 3, 2nd > 4, 3rd (and later, R-HOTN-RISK-4TH) a yellow or blue 4."""
    if risks_taken == 0:
        return face_value(face) > 3
    if risks_taken == 1:
        return face_value(face) > 4
    return face in ("yellow-4", "blue-4")


def risk_need(risks_taken: int) -> str:
    """What a rider who has run ``risks_taken`` risks needs, in words."""
    return ("4 or 5", "5", "a yellow or blue 4")[min(risks_taken, 2)]


def cobble_result(face: int | str) -> str:
    """Race conditions 4: orange 4 or blue 4 falls, red 4 punctures (R-HOTN-COBBLE-FACES)."""
    if face in ("orange-4", "blue-4"):
        return "fall"
    if face == "red-4":
        return "puncture"
    return "safe"


@dataclass(frozen=True)
class Course:
    """A road plus what only Hell of the North marks on it: hexagons, sprint zones, weather."""

    road: Road
    hex_rows: int = 6
    sprint_zones: tuple[tuple[int, int], ...] = ()  # (first row, last row) inclusive
    weather: tuple[int, ...] = ()  # the first row of each hexagon with a face-down marker

    def hexagon(self, row: int) -> int:
        """The first row of the hexagon that holds ``row``."""
        return (max(row, 0) // self.hex_rows) * self.hex_rows

    def in_sprint(self, row: int) -> bool:
        return any(first <= row <= last for first, last in self.sprint_zones)

    def cobbled(self, row: int) -> bool:
        surface = self.road.surface
        return surface is not None and 0 <= row < len(surface) and surface[row] == "c"

    def dark(self, cid: str) -> bool:
        return self.road.is_fall(cid)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    team: str
    riders: tuple[str, ...]
    qualities: tuple[tuple[str, str], ...] = ()  # (rider type, quality)
    carry: tuple[tuple[str, int], ...] = ()  # energy carried by rider type (multi-day)
    pursuits: int | None = None  # pursuits carried from the last stage (0-2); None: a first stage
    gc: tuple[tuple[str, int], ...] = ()  # turns behind the GC leader by rider type

    def rider_ids(self) -> tuple[str, ...]:
        return tuple(f"{self.team}-{kind}" for kind in self.riders)

    def quality(self, kind: str) -> str | None:
        return dict(self.qualities).get(kind)


@dataclass(frozen=True)
class Options:
    multi_day: bool = False
    stage: int = 1
    late_turns: int = 22
    cobble_risk: str = "dark"
    weather: int | None = None  # markers the players lay (0 to 6); None: the route's own (R-HOTN-WEATHER-COUNT)
    # race options for rulings players may want either way (issue 41); the first value is today's
    peloton_bonus: str = "lost"  # R-HOTN-BONUS-PELOTON: "lost"; "first-rider" in peloton order
    weather_reveal: str = "next-move"  # R-HOTN-WEATHER-REVEAL: a turned marker acts from the next move, or "at-once"


OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "peloton_bonus": ("lost", "first-rider"),
    "weather_reveal": ("next-move", "at-once"),
}
OPTION_NAMES = {"multi_day", "stage", "late_turns", "cobble_risk", "weather", *OPTION_CHOICES}


@dataclass(frozen=True)
class Setup:
    course: Course
    players: tuple[Player, ...]  # in the support-rider markers' starting order, 1st first
    options: Options
    track_name: str
    ruleset: Ruleset = HOTN
    rules: RulesVersion = VERSIONS.newest  # the rules version it is played under (rules/versions.py)

    @property
    def road(self) -> Road:
        return self.course.road

    def player(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)


@dataclass(frozen=True)
class Rider(RiderBase):
    """A rider of Hell of the North. ``part`` is its part of the peloton tile while ``status`` is ``peloton``."""

    quality: str | None = None
    part: str | None = None  # front or back (None before placing)
    moved_part: bool = False  # step 3: changed its part this turn
    bonuses: int = 0


@dataclass(frozen=True)
class State(StateBase[Setup, Rider]):
    phase: str = "placing"
    order: tuple[str, ...] = ()  # support-rider markers, 1st first
    pursuits: tuple[tuple[str, int], ...] = ()
    streak: tuple[tuple[str, int], ...] = ()  # consecutive turns each team sped the peloton up
    weather: tuple[tuple[int, str | None], ...] = ()  # hexagon first row -> marker (None: face down)
    weather_pool: tuple[str, ...] = ()

    def pursuits_left(self, player: str) -> int:
        return dict(self.pursuits).get(player, 0)

    def weather_at(self, row: int) -> str | None:
        """The revealed marker on the hexagon of ``row`` (None: none, or still face down)."""
        hexagon = self.setup.course.hexagon(row)
        return dict(self.weather).get(hexagon)


def weather_mapping(state: State) -> MappingProxyType[int, str | None]:
    return MappingProxyType(dict(state.weather))
