"""A league's general classification image with its pacts column (docs/alliances.md): once a pact was
put to the test in the league, each member's pacts kept and broken over its stages, in a table under the
game's own standings picture (a ring, a table), drawn like the team classification's."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from renderer.encode import png_bytes
from renderer.palette import BACKGROUND
from renderer.standings_table import _noun, render_table
from rules.i18n import pgettext


def with_pacts_column(
    standings: bytes, title: str, piece: str, rows: Sequence[tuple[str, str, str, str]]
) -> bytes:
    """``standings`` (a PNG) with the table of ``rows`` (rank, piece, person, pacts kept and broken) under it;
    ``piece``: the game's noun for its pieces (rider, car, cyclist)."""
    headings = (_noun(piece), pgettext("board standings", "player"), pgettext("standings", "pacts"))
    table = Image.open(io.BytesIO(render_table(title, rows, headings))).convert("RGB")
    above = Image.open(io.BytesIO(standings)).convert("RGB")
    width = max(above.width, table.width)
    both = Image.new("RGB", (width, above.height + table.height), BACKGROUND)
    both.paste(above, ((width - above.width) // 2, 0))
    both.paste(table, ((width - table.width) // 2, above.height))
    return png_bytes(both)
