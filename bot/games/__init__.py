"""Per-game adapters for the bot: lobby seats to record players, choices to labels, AI, pictures.

The service and the Discord layer only talk to a game through its adapter and the rules
registry, so a new game plugs in here without touching them.
"""

from __future__ import annotations

from bot.games.base import GameAdapter


def adapter(game: str) -> GameAdapter:
    if game == "leader1":
        from bot.games.leader1 import LEADER1

        return LEADER1
    if game == "formula-de-mini":
        from bot.games.formula_de_mini import FORMULA_DE_MINI

        return FORMULA_DE_MINI
    raise KeyError(game)


GAMES = {"leader1": "Leader 1", "formula-de-mini": "Formula Dé Mini"}
