"""A league's team classification as a table image (docs/alliances.md): rank, team, its members and its
total, drawn like the general classification (``renderer/standings_table.py``)."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.standings_table import render_table
from rules.i18n import pgettext


def paint_team_standings(title: str, rows: Sequence[tuple[str, str, str, str]]) -> bytes:
    """``rows`` of (rank, team, members, total) in order."""
    headings = (pgettext("standings", "Team"), pgettext("standings", "Members"), pgettext("standings", "Total"))
    return render_table(title, rows, headings)
