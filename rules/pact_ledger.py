"""The ledger of a race's pacts, computed from its record, never typed by anyone.

The record is replayed from its start; at each decision of a member bound by a pact in force (made
and not ended by then, and within its ``until``), the pact's kind judges the choice the record
holds. A decision counts when it put the pact to the test (some choice on offer kept it and some
broke it, ``rules/pact_play.py``): the entry says who decided, towards which ally, on which turn,
whether the pact was kept, what was chosen and what the other side offered (a choice that would
have kept it, for a broken pact; one that would have broken it, for a kept one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.action import Action
from rules.game import Choice, Game
from rules.i18n import _, ngettext
from rules.pact_play import at_stake, choice_index, plain_names
from rules.pacts import Names, Pact

S = TypeVar("S")
SHOWN = 3  # breaches a summary line spells out; the rest are counted


@dataclass(frozen=True)
class Entry:
    """One decision that put a pact to the test: ``pact`` is its index among the race's pacts,
    ``index`` the action's number in the record, ``done`` the kind's sentence of what was done,
    ``chosen`` the choice made and ``other`` one the player could have made instead, in words."""

    pact: int
    player: str
    ally: str
    turn: int
    index: int
    kept: bool
    done: str
    chosen: str
    other: str


def ledger(
    game: Game[S],
    start: S,
    actions: Sequence[Action],
    pacts: Sequence[Pact],
    names: Names = plain_names,
    *,
    stage: int | None = None,
) -> tuple[Entry, ...]:
    """Every decision of ``actions`` (played from ``start``) that put one of ``pacts`` to the test."""
    entries: list[Entry] = []
    state = start
    for index, action in enumerate(actions):
        decision = game.rules.pending(state)
        if decision is not None and action.by == decision.player:
            held = [p for p in pacts if p.in_force(index) and p.binds(decision.player)]
            if held:
                entries += _judged(game, state, action, held, pacts, names, index, stage)
        state, _events = game.rules.apply(state, action)
    return tuple(entries)


def _judged(
    game: Game[S],
    state: S,
    action: Action,
    held: Sequence[Pact],
    pacts: Sequence[Pact],
    names: Names,
    index: int,
    stage: int | None,
) -> list[Entry]:
    choices = [c for c in game.rules.choices(state, action.by) if not c.anytime]
    at = choice_index(choices, action)
    if at is None:
        return []  # an out-of-turn choice (eating): no pact speaks to it
    found = []
    for test in at_stake(game, state, held, choices, names, stage=stage):
        said = test.verdicts[at]
        if said is None:
            continue
        other = next(
            (choices[i] for i, v in enumerate(test.verdicts) if v is not None and v.kept != said.kept), choices[at]
        )
        found.append(
            Entry(
                pacts.index(test.pact),
                action.by,
                said.ally,
                game.rules.turn(state),
                index,
                said.kept,
                said.done,
                _label(choices[at]),
                _label(other),
            )
        )
    return found


def _label(choice: Choice) -> str:
    return choice.label or choice.detail


def summary(game: Game[S], entries: Sequence[Entry], pacts: Sequence[Pact], names: Names = plain_names) -> list[str]:
    """One line per pact that was put to the test: "no chase: kept 7 times, broken once — turn 12: Bob
    pursued while Alice's yellow rouleur was away" (the first three breaches, then how many more)."""
    lines = []
    for number, pact in enumerate(pacts):
        mine = [e for e in entries if e.pact == number]
        if not mine:
            continue
        kind = game.pacts.kind(pact.kind)
        title = _(kind.name) if kind is not None else pact.kind
        kept = sum(1 for e in mine if e.kept)
        broken = [e for e in mine if not e.kept]
        line = _(
            "{pact}: {kept}, {broken}",
            pact=title,
            kept=ngettext("kept once", "kept {n} times", kept) if kept else _("never kept"),
            broken=ngettext("broken once", "broken {n} times", len(broken)) if broken else _("never broken"),
        )
        if broken:
            breaches = "; ".join(_("turn {turn}: {done}", turn=e.turn, done=e.done) for e in broken[:SHOWN])
            if len(broken) > SHOWN:
                more = len(broken) - SHOWN
                breaches = ngettext("{breaches}; and {n} more", "{breaches}; and {n} more", more, breaches=breaches)
            line = _("{line} — {breaches}", line=line, breaches=breaches)
        lines.append(line)
    return lines


def breach_line(game: Game[S], entry: Entry, pacts: Sequence[Pact]) -> str:
    """The one line the allies' thread is told at once when a pact is broken."""
    kind = game.pacts.kind(pacts[entry.pact].kind)
    title = _(kind.name) if kind is not None else pacts[entry.pact].kind
    return _(
        "{pact} broken on turn {turn}: {done} (chose “{chosen}”)",
        pact=title,
        turn=entry.turn,
        done=entry.done,
        chosen=entry.chosen,
    )


def by_member(entries: Sequence[Entry]) -> dict[str, tuple[int, int]]:
    """Each member's pacts kept and broken (the decisions they made that put a pact to the test), for a
    league's standings over its stages: add the stages' tallies up."""
    tally: dict[str, tuple[int, int]] = {}
    for e in entries:
        kept, broken = tally.get(e.player, (0, 0))
        tally[e.player] = (kept + 1, broken) if e.kept else (kept, broken + 1)
    return tally
