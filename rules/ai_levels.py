"""How strong an AI seat plays: ``easy``, ``normal`` or ``strong`` (the host's choice in the lobby).

``strong`` is the game's own AI. The weaker levels are that AI with lapses: on a share of its
decisions it plays as a simple player would (``rules/baselines.py``: the most distance for the
least cost, or now and then anything legal). Which decisions lapse comes from the race's own
state (turn, events, player), so a level plays the same race the same way; the record holds the
actions chosen, so a replay never asks the AI again. A seat played for an absent person always
plays ``strong``.
"""

from __future__ import annotations

from typing import TypeVar

from rules.action import Action
from rules.baselines import Policy, Random, greedy
from rules.game import Game
from rules.rng import below

S = TypeVar("S")  # the game's state
LEVELS = ("easy", "normal", "strong")
STRONGEST = "strong"
# in 100 decisions: how many are played greedily, how many at random
LAPSES = {"easy": (30, 35), "normal": (0, 15), "strong": (0, 0)}


def level_named(text: object) -> str:
    """A stored or typed level; anything else (an older lobby's seat) is the strongest."""
    return text if isinstance(text, str) and text in LEVELS else STRONGEST


def _roll(game: Game[S], state: S, player: str) -> int:
    salt = sum(ord(ch) * 31**i for i, ch in enumerate(player))
    key = game.rules.turn(state) * 1_000_003 + len(game.rules.events(state)) * 7919 + salt
    value, _ = below(key, 100)
    return value


def player_at(game: Game[S], level: str) -> Policy[S]:
    """The game's AI playing at ``level``."""
    greedily, randomly = LAPSES[level_named(level)]
    if not greedily and not randomly:
        return game.ai
    plain = greedy(game)
    anything = Random(game, 0)

    def play(state: S, player: str) -> Action:
        roll = _roll(game, state, player)
        if roll < randomly:
            anything.stream = roll * 2654435761 + game.rules.turn(state)  # no state carried between calls
            return anything(state, player)
        if roll < randomly + greedily:
            return plain(state, player)
        return game.ai(state, player)

    return play
