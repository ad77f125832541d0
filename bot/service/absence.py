"""When a person is away (``/race away until:``): the date as they write it, and how a race's lobby marks it.

A seat whose owner is away is in the lobby's ``away`` list (the AI plays it at once, so no prompt
waits for it, pings it or times out, and its clock is never started) and in its ``holiday`` map,
which says until when, so that ``/race status`` tells an absence from a seat the AI took after
timeouts, and coming back returns exactly these seats.
"""

from __future__ import annotations

import datetime
import re

from bot.service import seats
from bot.service.common import Refusal
from bot.storage.lobby import LobbyData
from rules.i18n import N_, _

MAX_DAYS = 60
_SPAN = re.compile(r"^\s*(\d{1,3})\s*(h|hours?|d|days?|w|weeks?)\s*$")
_UNIT = {"h": 3600, "d": 86400, "w": 7 * 86400}
_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2}):(\d{2}))?\s*$")
BACK = "back"
MONTHS = (
    N_("Jan"), N_("Feb"), N_("Mar"), N_("Apr"), N_("May"), N_("Jun"),
    N_("Jul"), N_("Aug"), N_("Sep"), N_("Oct"), N_("Nov"), N_("Dec"),
)  # fmt: skip


def parse_until(text: str, now: float) -> float | None:
    """When an absence ends: ``2d``, ``1w``, ``36h``, a date ``2026-12-24`` (midnight UTC) or
    ``2026-12-24 18:00`` (UTC); None for ``back``. Refused when unreadable, past, or more than
    60 days away."""
    typed = text.strip().lower()
    if typed == BACK:
        return None
    span = _SPAN.match(typed)
    date = _DATE.match(typed)
    if span is not None:
        until = now + int(span.group(1)) * _UNIT[span.group(2)[0]]
    elif date is not None:
        year, month, day, hour, minute = (int(g) if g else 0 for g in date.groups())
        try:
            when = datetime.datetime(year, month, day, hour, minute, tzinfo=datetime.UTC)
        except ValueError:
            raise Refusal(_("{typed} is not a date on the calendar.", typed=repr(text[:30]))) from None
        until = when.timestamp()
    else:
        raise Refusal(
            _(
                "{typed} is not a return date: write e.g. 2d, 1w, 36h, a date like 2026-12-24, or back.",
                typed=repr(text[:30]),
            )
        )
    if until <= now:
        raise Refusal(_("That moment has passed: give a return date in the future (or until:back)."))
    if until - now > MAX_DAYS * 86400:
        raise Refusal(_("You can be away for {days} days at most: give an earlier return date.", days=MAX_DAYS))
    return until


def holiday(lobby: LobbyData) -> dict[str, float]:
    """The seats of this race whose owner is away, and until when (a seat its owner played since,
    ``/race back`` or a manual decision, is no longer away)."""
    away = set(lobby.get("away", []))
    return {str(p): float(t) for p, t in (lobby.get("holiday") or {}).items() if p in away}


def marked_away(lobby: LobbyData, player: str, until: float) -> LobbyData:
    """``lobby`` with ``player``'s seat played by the AI until ``until``."""
    away = [*(p for p in lobby.get("away", []) if p != player), player]
    return {**lobby, "away": away, "holiday": {**holiday(lobby), player: until}}


def marked_back(lobby: LobbyData, player: str) -> LobbyData:
    """``lobby`` with ``player``'s seat theirs again."""
    rest = {p: t for p, t in holiday(lobby).items() if p != player}
    away = [p for p in lobby.get("away", []) if p != player]
    out: LobbyData = {**lobby, "away": away, "holiday": rest}
    if not rest:
        del out["holiday"]
    return out


def link(guild_id: int, channel_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}"


def away_lines(lobby: LobbyData) -> list[str]:
    """Under the board, who is away and until when (a picture: the day in UTC)."""
    return [
        _("{name} away until {day} (the AI plays)", name=seats.name_of(lobby, p), day=_day(until))
        for p, until in holiday(lobby).items()
    ]


def away_status(lobby: LobbyData) -> list[str]:
    """In ``/race status``, who is away and until when (a Discord timestamp: the reader's time zone)."""
    return [
        _(
            "Away until {when}: {name} (the AI plays their seat)",
            when=f"<t:{int(until)}:f>",
            name=seats.name_of(lobby, player),
        )
        for player, until in holiday(lobby).items()
    ]


def _day(when: float) -> str:
    moment = datetime.datetime.fromtimestamp(when, datetime.UTC)
    return _("{day} {month}", day=moment.day, month=_(MONTHS[moment.month - 1]))
