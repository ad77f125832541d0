"""The rider and the race state every Leader 1 family game keeps; each edition's model adds
its own fields (the classic's sprinter and token, Hell of the North's qualities, parts,
markers and weather)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from rules.events import Event
from rules.leader1.feed import Piles, full_piles
from rules.leader1.ruleset import Ruleset
from rules.rng import Dice
from rules.road import Road


@dataclass(frozen=True)
class RiderBase:
    """One rider's state. ``row``/``lane`` are None while the rider rides in the peloton."""

    id: str
    player: str
    kind: str
    energy: int
    status: str = "peloton"  # peloton breakaway dropped fallen punctured finished eliminated
    row: int | None = None
    lane: int | None = None
    risks: int = 0
    kept: tuple[int, ...] = ()
    fed_at: tuple[int, ...] = ()  # the feed rows it has drawn for (R-FEED-TILES: one tile per token)
    slipstream: bool = False
    stamp: int = 0  # when the rider last reached its row: later is ahead
    skip_turn: int | None = None  # the turn a fallen rider sits out
    punctured_turn: int | None = None
    left_behind_turn: int | None = None  # the turn the peloton left it behind; it rides from the next
    arrived_turn: int | None = None

    @property
    def cell(self) -> str | None:
        return None if self.row is None else f"{self.row}.{self.lane}"

    @property
    def on_road(self) -> bool:
        """Occupies its square (fallen riders are beside the road)."""
        return self.status in ("breakaway", "dropped", "punctured")

    @property
    def racing(self) -> bool:
        return self.status not in ("finished", "eliminated")


class FamilyPlayer(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


class FamilySetup(Protocol):
    """What the shared steps read of a game's setup."""

    @property
    def road(self) -> Road: ...
    @property
    def ruleset(self) -> Ruleset: ...
    @property
    def players(self) -> tuple[FamilyPlayer, ...]: ...
    def player(self, pid: str) -> FamilyPlayer | None: ...


SetupT = TypeVar("SetupT", bound=FamilySetup, covariant=True)
RiderT = TypeVar("RiderT", bound=RiderBase, covariant=True)


@dataclass(frozen=True)
class StateBase(Generic[SetupT, RiderT]):
    """A race: its fixed setup, its riders, the seeded dice and where the turn stands."""

    setup: SetupT
    riders: tuple[RiderT, ...]
    dice: Dice
    turn: int = 1
    phase: str = "breakaways"
    queue: tuple[str, ...] = ()  # riders (ride phases) or players (team steps) still to act
    peloton: int = 1  # row of the peloton's front square; it also covers the row behind
    pursuit: bool = False
    drop_requests: tuple[str, ...] = ()
    piles: Piles = field(default_factory=full_piles)  # feed tiles still face down, by colour
    stamp: int = 0
    peloton_arrived_turn: int | None = None
    bonus_won: tuple[tuple[int, str], ...] = ()
    events: tuple[Event, ...] = ()

    def rider(self, rid: str) -> RiderT:
        for r in self.riders:
            if r.id == rid:
                return r
        raise KeyError(rid)

    def has_rider(self, rid: str) -> bool:
        return any(r.id == rid for r in self.riders)

    @property
    def finished(self) -> bool:
        return self.phase == "finished"
