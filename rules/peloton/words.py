"""Names players read, shared by the game's narration and the card draft."""

from __future__ import annotations

from rules.i18n import N_, _, pgettext
from rules.peloton.model import State

DISCIPLINE_NAMES = {"leg": N_("leg race"), "itt": N_("individual time trial"), "ttt": N_("team time trial")}
WIND_NAMES = {
    0: N_("no wind"),
    1: N_("wind 1 (from the north)"),
    2: N_("wind 2 (from the east)"),
    3: N_("wind 3 (from the south)"),
    4: N_("wind 4 (from the west)"),
}


def discipline_name(discipline: str) -> str:
    return _(DISCIPLINE_NAMES[discipline]) if discipline in DISCIPLINE_NAMES else discipline


def wind_name(wind: int) -> str:
    return _(WIND_NAMES[wind]) if wind in WIND_NAMES else _("wind")


def team_name(team: str) -> str:
    """A team as players call it, by its colour (Czech: the team's riders, ``červení``)."""
    names = {
        "grey": pgettext("team", "grey"),
        "red": pgettext("team", "red"),
        "blue": pgettext("team", "blue"),
        "green": pgettext("team", "green"),
        "white": pgettext("team", "white"),
        "yellow": pgettext("team", "yellow"),
        "black": pgettext("team", "black"),
        "orange": pgettext("team", "orange"),
    }
    return names.get(team, team)


def cyclist_name(number: str, team: str) -> str:
    """A cyclist as players call it: its number and its team (``No. 5 (red)``)."""
    return _("No. {number} ({colour})", number=number, colour=team_name(team))


def piece_name(state: State | None, cid: str) -> str:
    """A cyclist as players call it; from its number alone without a state (a league table, a pact's words)."""
    if state is None:
        return _("No. {number}", number=cid)
    try:
        return cyclist_name(cid, state.cyclist(cid).team)
    except KeyError:
        return _("No. {number}", number=cid)
