"""Pacts: agreements between allies that the rules can read (design.md, "Alliances and pacts").

An alliance is people: players of a race (or members of a league) who agree to help each other.
A pact is one of their agreements that a game can judge from its own state: each game declares
its pact kinds beside its rules (``Game.pacts``), and each kind is a pure function over the state
before a decision, the pending decision, the pact and a choice. It says whether the pact speaks to
that decision at all (``None``: it does not) and, when it does, whether the choice keeps or breaks
it, in words that name people and pieces as players know them.

The values here are the contract only; what is built on them is beside it: marking the choices on
offer and the AI that keeps its seat's pacts (``rules/pact_play.py``), the ledger computed from a
record (``rules/pact_ledger.py``). Breaking a pact is always allowed: it is part of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from rules.action import Action
from rules.decision import Decision

S = TypeVar("S")

UntilUnit = Literal["turn", "row", "stage", "end"]
UNTIL_UNITS: tuple[UntilUnit, ...] = ("turn", "row", "stage", "end")

Names = Callable[[str], str]
"""A player's name as the channel knows them, from their id."""


@dataclass(frozen=True)
class Until:
    """How long a pact holds: to the end of the race, or through a turn, a row of the road (the
    race's front, as the game measures it: ``Pacts.row``) or a league's stage, inclusive."""

    unit: UntilUnit = "end"
    value: int | None = None

    def holds(self, *, turn: int, row: int | None, stage: int | None) -> bool:
        """Does a pact with this end still hold at this turn, front row and league stage?"""
        if self.unit == "end" or self.value is None:
            return True
        if self.unit == "turn":
            return turn <= self.value
        if self.unit == "row":
            return row is None or row <= self.value
        return stage is None or stage <= self.value


@dataclass(frozen=True)
class Pact:
    """One agreement of an alliance in one race.

    ``members`` are the players (record ids) bound by it. With ``ally`` (the command's ``with:``)
    it is an agreement between that player and the other members: each of the others towards
    ``ally``, and ``ally`` towards each of them; without it, every member towards every other.
    ``made_at`` and ``ended_at`` are the record's action counts when it was made and when a member
    ended it: it judges the decisions in between (``ended_at`` None: not ended).
    """

    kind: str
    members: tuple[str, ...]
    ally: str | None = None
    until: Until = Until()
    made_at: int = 0
    ended_at: int | None = None

    def binds(self, player: str) -> bool:
        return player in self.members and bool(self.allies_of(player))

    def allies_of(self, player: str) -> tuple[str, ...]:
        """Whom ``player`` is bound towards by this pact."""
        if player not in self.members:
            return ()
        if self.ally is None or self.ally == player:
            return tuple(m for m in self.members if m != player)
        return (self.ally,) if self.ally in self.members else ()

    def in_force(self, actions_so_far: int) -> bool:
        """Was the pact made, and not yet ended, when the record held this many actions?"""
        return self.made_at <= actions_so_far and (self.ended_at is None or actions_so_far < self.ended_at)


@dataclass(frozen=True)
class Verdict:
    """What a pact says of one choice at one decision: kept or broken, towards which ally, and a
    sentence of what was done, naming people and pieces ("pursued while Bob's yellow rouleur was
    away"), for the ledger."""

    kept: bool
    ally: str
    done: str


@dataclass(frozen=True)
class PactKind(Generic[S]):
    """A kind of pact a game can read: its id (``no-chase``, what a command names), its name in
    words (marked with ``N_``), the rule of the book it is grounded in, one line saying what the
    members agree, its judge, and the parameters a pact of it takes (``with`` an ally, ``until``).

    ``judge(state before the decision, the pending decision, the pact, a choice's action, names)`` is
    the verdict on that choice, or None when the pact does not speak to this decision or this choice
    (an out-of-turn eat). The decision's player is bound by the pact (the caller checks)."""

    id: str
    name: str
    rule: str
    about: str
    judge: Callable[[S, Decision, Pact, Action, Names], Verdict | None]
    parameters: tuple[str, ...] = ("with", "until")


@dataclass(frozen=True)
class Pacts(Generic[S]):
    """The pact kinds a game declares (none by default: a game without them works unchanged), and
    ``row(state)``, how far the race's front has come on the road, for pacts that hold until a row
    (None: the game offers no such end)."""

    kinds: tuple[PactKind[S], ...] = ()
    row: Callable[[S], int] | None = None

    def kind(self, kind_id: str) -> PactKind[S] | None:
        return next((k for k in self.kinds if k.id == kind_id), None)
