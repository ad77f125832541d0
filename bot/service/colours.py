"""A colour as a player types it: its id (``yellow``) or its name in the language of the moment
(``sárga``, ``žlutý``, ``žlutí``), so that no one must type an English word."""

from __future__ import annotations

from collections.abc import Sequence

from renderer.words import team
from rules.i18n import pgettext
from rules.leader1.words import colour as rider_colour


def colour_id(colours: Sequence[str], typed: str | None) -> str | None:
    """The id of the colour ``typed`` names (as it is when it names none: the game's refusal lists them)."""
    if typed is None:
        return None
    said = typed.strip().casefold()
    for colour in colours:
        names = {colour, team(colour), rider_colour(colour), pgettext("board team", colour)}
        if said in {n.casefold() for n in names}:
            return colour
    return typed
