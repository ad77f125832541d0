"""The race's pacts where a decision is offered (docs/alliances.md): each choice that would break one
says so on its button or menu line, and is asked about again before it is taken. Never refused:
breaking a pact is part of the game.

The pacts come from the alliance service through ``Listeners.pacts`` (the service knows nothing of
alliances); with none, nothing here changes a prompt."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service import seats
from bot.service.listeners import Listeners
from bot.service.model import ChoiceView, Outcome, Prompt
from bot.service.store import Loaded
from bot.storage import RaceRow
from rules.action import Action
from rules.game import Choice
from rules.i18n import _
from rules.pact_play import Policy, choice_index, keeping, marks
from rules.pacts import Names, Pact
from rules.registry import AnyGame


def names_in(race: RaceRow) -> Names:
    """A player's name as the channel knows them, for the rules' words ("bob", "AI 2")."""
    return lambda player: seats.name_of(race.lobby, player)


def held(pacts: Sequence[Pact], race: RaceRow) -> list[Pact]:
    """The pacts in force at the race's next decision (made, not yet ended)."""
    return [p for p in pacts if p.in_force(len(race.actions))]


async def breaks_by_index(listeners: Listeners, loaded: Loaded, *, public_only: bool = False) -> dict[int, str]:
    """For the pending decision, each choice (by its index in the game's choices) that would break a
    pact of the player's, in words ("breaks no chase with bob"); empty with no pact at stake.

    ``public_only``: for a prompt the whole channel reads, only the pacts made public mark its buttons;
    a private pact is said privately (a private menu, the question asked again before the choice)."""
    race, game, state = loaded.race, loaded.game, loaded.state
    decision = game.rules.pending(state)
    if decision is None:
        return {}
    pacts = held(await listeners.pacts(race, public_only=public_only), race)
    if not any(p.binds(decision.player) for p in pacts):
        return {}
    everything = game.rules.choices(state, decision.player)
    offered: list[tuple[int, Choice]] = [(i, c) for i, c in enumerate(everything) if not c.anytime]
    found = marks(game, state, pacts, [c for _i, c in offered], names_in(race), stage=race.stage)
    return {i: "; ".join(lines) for (i, _c), lines in zip(offered, found, strict=True) if lines}


def marked(views: Sequence[ChoiceView], breaks: dict[int, str]) -> tuple[ChoiceView, ...]:
    """The prompt's choices, each that would break a pact saying so."""
    if not breaks:
        return tuple(views)
    return tuple(ChoiceView.marked(v, breaks[v.index]) if v.index in breaks else v for v in views)


async def asked_again(listeners: Listeners, loaded: Loaded, player: str, index: int) -> Outcome | None:
    """Choice ``index`` would break a pact: the question asked before it is taken, with one button to
    take it anyway (None: it breaks none, take it)."""
    breaks = (await breaks_by_index(listeners, loaded)).get(index)
    if not breaks:
        return None
    race = loaded.race
    choice = loaded.game.rules.choices(loaded.state, player)[index]
    question = _("“{choice}” {breaks}. Take it anyway?", choice=choice.label or choice.detail, breaks=breaks)
    confirm = ChoiceView(index, _("Take it anyway"), confirm=True, risky=True)
    prompt = Prompt(race.id, race.version, player, seats.user_of(race.lobby, player), "buttons", None, (confirm,))
    return Outcome(question, prompt=prompt)


def breaking(
    game: AnyGame, state: object, pacts: Sequence[Pact], action: Action, names: Names, stage: int | None
) -> str:
    """What ``action`` would break of its player's pacts at the pending decision, in words ("" none):
    a decision made ahead or a standing order is not applied silently when it would break one."""
    decision = game.rules.pending(state)
    if decision is None or not any(p.binds(decision.player) for p in pacts):
        return ""
    choices = [c for c in game.rules.choices(state, decision.player) if not c.anytime]
    index = choice_index(choices, action)
    if index is None:
        return ""
    return "; ".join(marks(game, state, pacts, choices, names, stage=stage)[index])


def ai_keeping(game: AnyGame, policy: Policy[object], pacts: Sequence[Pact], race: RaceRow) -> Policy[object]:
    """``policy`` (the AI playing a seat: an AI seat, an absent member, a timeout) keeping the seat's pacts."""
    return keeping(game, policy, pacts, stage=race.stage) if pacts else policy
