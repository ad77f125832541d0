"""Board images drawn with Pillow: read a track and a state, return PNG bytes."""

from renderer.board import render_board
from renderer.standings import render_standings

__all__ = ["render_board", "render_standings"]
