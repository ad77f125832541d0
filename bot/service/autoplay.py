"""The decisions that take themselves: AI seats, and seats the AI plays for an absent person."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from bot.service import seats
from bot.service.common import AUTOPLAY_LIMIT
from bot.service.pact_marks import ai_keeping
from bot.storage import RaceRow
from rules.action import Action
from rules.ai_levels import player_at
from rules.pacts import Pact
from rules.registry import AnyGame


@dataclass
class Played:
    """What a commit's automatic decisions did: the state after them, each (action, user, automatic),
    and private messages to send (a decision made ahead that no longer held)."""

    state: object
    actions: list[tuple[Action, int | None, bool]]
    dms: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said in the channel first (a decision made ahead, applied)
    premoves_used: list[str] = field(default_factory=list)  # players whose decision made ahead is now spent


def autoplay(
    race: RaceRow, state: object, game: AnyGame, stop: Collection[str] = (), pacts: Sequence[Pact] = ()
) -> tuple[object, list[Action]]:
    """The AI's decisions for AI seats (at their level) and seats it plays for their absent person
    (the strongest), up to a decision of a player in ``stop`` (whose plans decide) or of a person;
    keeping the seats' ``pacts`` (``pact_marks.ai_keeping``)."""
    actions: list[Action] = []
    for _ in range(AUTOPLAY_LIMIT):
        decision = game.rules.pending(state)
        if decision is None or decision.player in stop or not seats.plays_itself(race.lobby, decision.player):
            break
        policy = player_at(game, seats.ai_level(race.lobby, decision.player))
        action = ai_keeping(game, policy, pacts, race)(state, decision.player)
        state, _ = game.rules.apply(state, action)
        actions.append(action)
    return state, actions
