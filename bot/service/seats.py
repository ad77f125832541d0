"""Lobby seats as stored (JSON objects in the race's lobby) and as games see them (``rules.game.Seat``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.lobby import LobbyData, SeatData
from rules.ai_levels import STRONGEST, level_named
from rules.game import Seat
from rules.i18n import _
from rules.shown import seat_name

SEAT_FIELDS = SeatData.__required_keys__ | SeatData.__optional_keys__


def seat_from(data: SeatData) -> Seat:
    options = {k: str(v) for k, v in (data.get("options") or {}).items() if v}
    for key, value in data.items():  # a seat stored before seat options were generic: one key each
        if key not in SEAT_FIELDS and value:
            options.setdefault(key, str(value))
    return Seat(
        player=str(data["player"]),
        name=str(data.get("name", data["player"])),
        colour=str(data["team"]),
        kinds=tuple(data.get("kinds") or ()),
        options=options,
        carry={str(k): int(v) for k, v in (data.get("carry") or {}).items()},
        ai=bool(data.get("ai")),
    )


def seats_from(lobby: LobbyData) -> list[Seat]:
    return [seat_from(s) for s in lobby["seats"]]


def seat_data(seat: Seat, user: int | None) -> SeatData:
    out: SeatData = {
        "player": seat.player,
        "user": user,
        "name": seat.name,
        "team": seat.colour,
        "ai": seat.ai,
        "kinds": list(seat.kinds),
    }
    if seat.options:
        out["options"] = dict(seat.options)
    if seat.carry:
        out["carry"] = dict(seat.carry)
    return out


def human_seat(lobby: LobbyData, user_id: int) -> SeatData | None:
    """The seat of Discord user ``user_id`` (not an AI seat), if any."""
    return next((s for s in lobby["seats"] if s.get("user") == user_id and not s.get("ai")), None)


def user_of(lobby: LobbyData, player: str) -> int | None:
    seat = next((s for s in lobby["seats"] if s["player"] == player), None)
    return None if seat is None or seat.get("ai") else seat.get("user")


def name_of(lobby: LobbyData, player: str) -> str:
    seat = next((s for s in lobby["seats"] if s["player"] == player), None)
    if seat is None:
        return player
    return shown_name(seat)


def shown_name(seat: SeatData) -> str:
    """A seat's name as players read it: an AI seat's stored name ("AI 2") in the reader's language."""
    name = str(seat.get("name") or "")
    if seat.get("ai"):
        return seat_name(name) if name else _("AI")
    return name or _("a player")


def plays_itself(lobby: LobbyData, player: str) -> bool:
    """An AI seat, or a seat handed to the AI (``away``)."""
    seat = next((s for s in lobby["seats"] if s["player"] == player), None)
    return seat is None or bool(seat.get("ai")) or player in lobby.get("away", [])


def ai_level(lobby: LobbyData, player: str) -> str:
    """How strong the AI plays ``player``'s seat: an AI seat's level as the host chose it; a seat
    played for an absent person (away, out of time) always the strongest."""
    seat = next((s for s in lobby["seats"] if s["player"] == player), None)
    return level_named(seat.get("level")) if seat is not None and seat.get("ai") else STRONGEST


def users(seats: Sequence[SeatData]) -> list[int]:
    return [user for s in seats if not s.get("ai") and (user := s.get("user"))]
