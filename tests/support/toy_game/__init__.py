"""Dash: a test-only game that proves the game contract (docs/adding-a-game.md). Nothing outside this
package names it; tests register it as an installed plugin's entry points would."""

from tests.support.toy_game.painter import paint, paint_standings
from tests.support.toy_game.rules import COLOURS, GAME, ID, POINTS

__all__ = ["COLOURS", "GAME", "ID", "POINTS", "paint", "paint_standings"]
