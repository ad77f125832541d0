"""Board images drawn with Pillow: read a track and a state, return PNG (or GIF) bytes.

Every picture is designed to be read 400 px wide on a phone: see docs/board.md.
"""

from renderer.board import render_board
from renderer.recap import render_recap
from renderer.standings import render_standings

__all__ = ["render_board", "render_recap", "render_standings"]
