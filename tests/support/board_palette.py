"""Boards of a whole race drawn both ways: on the palette (``compose(indexed=True)``, as a game's
painter draws them for the bot) and in RGB, then mapped; the same pixels or the test fails."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from bot.cli.sim import simulate
from renderer.encode import indexed
from rules.game import Choice
from rules.record import start_state

Draw = Callable[[object, Sequence[Choice], int, bool], Image.Image]  # (state, offered, n, indexed) -> board


def boards_drawn_both_ways(game_id: str, seed: int, every: int, draw: Draw) -> int:
    """Every ``every``-th decision of a four-player race of ``game_id``: the board on the palette
    against the RGB board mapped, the squares on offer named (``draw`` gets the decision's number
    ``n`` to vary what else it shows). How many boards were compared."""
    record, _ = simulate(game_id, seed=seed, players=4)
    game, state = start_state(record)
    boards = 0
    for n, action in enumerate(record.actions):
        decision = game.rules.pending(state)
        if n % every == 0 and decision is not None:
            offered = [c for c in game.rules.choices(state, decision.player) if c.target and c.step is None]
            on_palette = draw(state, offered, n, True)
            assert on_palette.tobytes() == indexed(draw(state, offered, n, False)).tobytes(), n
            boards += 1
        state, _events = game.rules.apply(state, action)
    return boards
