"""Pacts at a decision: which of a player's pacts a decision puts to the test, the choices on offer
that would break one (the words the bot shows on them), and an AI that keeps its seat's pacts.

A pact is *put to the test* by a decision when, among the choices on offer, some keep it and some
break it: a decision where every choice keeps it (or every choice breaks it) asks nothing of the
player, and neither the marks, the AI nor the ledger count it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from rules.action import Action
from rules.baselines import measure_for
from rules.game import Choice, Game
from rules.i18n import _
from rules.pacts import Names, Pact, PactKind, Until, Verdict

S = TypeVar("S")
Policy = Callable[[S, str], Action]


def plain_names(player: str) -> str:
    """Names for code that shows nothing (the AI): the id itself."""
    return player


def choice_index(choices: Sequence[Choice], action: Action) -> int | None:
    """Which of ``choices`` ``action`` is: the same action, else one that says all it says and adds only
    its path (a record may name a ride by its square alone, where the choice also gives its ``via``)."""
    exact = next((i for i, c in enumerate(choices) if c.action == action), None)
    if exact is not None:
        return exact
    said = set(action.items())
    for i, c in enumerate(choices):
        given = set(c.action.items())
        same = c.action.by == action.by and c.action.do == action.do
        if same and said <= given and {key for key, _value in given - said} <= {"via"}:
            return i
    return None


def verdict(
    game: Game[S], state: S, pact: Pact, action: Action, names: Names = plain_names, *, stage: int | None = None
) -> Verdict | None:
    """What ``pact`` says of ``action`` at the state's pending decision (None: nothing), while it holds
    (its ``until``; whether it was made yet is the caller's: ``Pact.in_force``)."""
    decision = game.rules.pending(state)
    if decision is None or action.by != decision.player or not pact.binds(decision.player):
        return None
    kind = game.pacts.kind(pact.kind)
    if kind is None:
        return None
    row = game.pacts.row(state) if game.pacts.row is not None else None
    if not pact.until.holds(turn=game.rules.turn(state), row=row, stage=stage):
        return None
    return kind.judge(state, decision, pact, action, names)


@dataclass(frozen=True)
class AtStake(Generic[S]):
    """A pact put to the test by a decision: its verdict on each choice on offer (None: not concerned)."""

    pact: Pact
    kind: PactKind[S]
    verdicts: tuple[Verdict | None, ...]

    def breaks(self, index: int) -> Verdict | None:
        found = self.verdicts[index]
        return found if found is not None and not found.kept else None


def at_stake(
    game: Game[S],
    state: S,
    pacts: Sequence[Pact],
    choices: Sequence[Choice],
    names: Names = plain_names,
    *,
    stage: int | None = None,
) -> list[AtStake[S]]:
    """The pacts among ``pacts`` that the pending decision puts to the test, with their verdicts on
    each of ``choices`` (the decision's choices, as ``game.rules.choices`` lists them)."""
    decision = game.rules.pending(state)
    if decision is None:
        return []
    found: list[AtStake[S]] = []
    for pact in pacts:
        kind = game.pacts.kind(pact.kind)
        if kind is None or not pact.binds(decision.player):
            continue
        verdicts = tuple(verdict(game, state, pact, c.action, names, stage=stage) for c in choices)
        said = {v.kept for v in verdicts if v is not None}
        if said == {True, False}:
            found.append(AtStake(pact, kind, verdicts))
    return found


def breaking_words(kind: PactKind[S], verdict_: Verdict, names: Names) -> str:
    """The short line on a choice that would break a pact: "breaks no chase with Bob"."""
    return _("breaks {pact} with {ally}", pact=_(kind.name), ally=names(verdict_.ally))


def marks(
    game: Game[S],
    state: S,
    pacts: Sequence[Pact],
    choices: Sequence[Choice],
    names: Names = plain_names,
    *,
    stage: int | None = None,
) -> list[tuple[str, ...]]:
    """For each of ``choices``, what it would break, in words ("breaks no chase with Bob"); empty for a
    choice that breaks nothing. The bot shows them on the button or menu line and asks again before
    such a choice is taken; it never refuses one."""
    found = at_stake(game, state, pacts, choices, names, stage=stage)
    out: list[tuple[str, ...]] = []
    for index in range(len(choices)):
        lines = []
        for test in found:
            broken = test.breaks(index)
            if broken is not None:
                lines.append(breaking_words(test.kind, broken, names))
        out.append(tuple(lines))
    return out


def keeping(game: Game[S], policy: Policy[S], pacts: Sequence[Pact], *, stage: int | None = None) -> Policy[S]:
    """``policy`` (an AI) that keeps the seat's ``pacts`` (those in force now): when its choice would break
    one of them and another choice keeps them all, it takes the best of those instead, as the simple
    player of ``rules/baselines.py`` measures them (the most distance for the least cost, no needless
    risk). When no choice keeps them all, the fewest broken; otherwise its own choice stands."""
    measure_of = measure_for(game)

    def play(state: S, player: str) -> Action:
        action = policy(state, player)
        mine = [p for p in pacts if p.binds(player)]
        if not mine:
            return action
        choices = [c for c in game.rules.choices(state, player) if not c.anytime]
        found = at_stake(game, state, mine, choices, stage=stage)
        if not found:
            return action
        index = choice_index(choices, action)
        if index is None or not any(t.breaks(index) for t in found):
            return action
        broken = [sum(1 for t in found if t.breaks(i)) for i in range(len(choices))]
        fewest = min(broken)
        if broken[index] == fewest:
            return action
        keepers = [c for i, c in enumerate(choices) if broken[i] == fewest]
        safe = [c for c in keepers if not c.risky] or keepers
        measure = measure_of(state, player)
        scored = [(*_worth(measure(c)), -i, c) for i, c in enumerate(safe)]
        return max(scored, key=lambda t: t[:3])[3].action

    return play


def _worth(measured: tuple[float, float]) -> tuple[float, float]:
    distance, cost = measured
    return distance - cost, distance


def why_not(
    game: Game[S], kind_id: str, members: Sequence[str], ally: str | None, until: Until, names: Names = plain_names
) -> str | None:
    """Why a pact cannot be made as asked, in one line (None: it can): a kind the game does not have,
    fewer than two members, an ally outside them, an end the game cannot measure."""
    kind = game.pacts.kind(kind_id)
    if kind is None:
        kinds = ", ".join(k.id for k in game.pacts.kinds)
        if not kinds:
            return _("{game} has no pacts", game=game.title)
        return _("{game} has no pact “{kind}”; its pacts: {kinds}", game=game.title, kind=kind_id, kinds=kinds)
    if len(set(members)) < 2:
        return _("a pact needs two or more members")
    if ally is not None and ally not in members:
        return _("{ally} is not in this alliance", ally=names(ally))
    if until.unit != "end" and (until.value is None or until.value < 1):
        return _("a pact ends on a turn, a row or a stage from 1, or at the end")
    if until.unit == "row" and game.pacts.row is None:
        return _("{game} has no rows to end a pact on: end it on a turn, a stage or at the end", game=game.title)
    return None
