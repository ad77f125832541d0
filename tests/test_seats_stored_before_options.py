"""A seat stored before seat options were generic kept each option as a key of its own (a Leader 1
seat's ``"sprinter": "yellow-rouleur"``): it is read into the seat's options, as the game asks them,
without the bot naming any game's option."""

from __future__ import annotations

from typing import Any

from bot.service.seats import seat_data, seat_from
from bot.storage.lobby import SeatData


def stored(**extra: Any) -> SeatData:
    seat: dict[str, Any] = {"player": "u1", "user": 1, "name": "Ann", "team": "yellow", "ai": False, **extra}
    return seat  # type: ignore[return-value]


def test_an_option_stored_as_a_key_of_its_own_is_read_as_an_option() -> None:
    seat = seat_from(stored(sprinter="yellow-rouleur", descender="", kinds=["rouleur", "leader"]))
    assert seat.options == {"sprinter": "yellow-rouleur"}  # an empty one is no choice
    assert seat.kinds == ("rouleur", "leader") and seat.colour == "yellow"


def test_the_options_field_wins_and_a_seat_written_today_reads_back_the_same() -> None:
    seat = seat_from(stored(options={"sprinter": "yellow-leader"}, sprinter="yellow-rouleur"))
    assert seat.options == {"sprinter": "yellow-leader"}
    assert seat_from(seat_data(seat, 1)) == seat
