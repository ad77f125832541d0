"""A race's lobby as it is stored (a JSON object in the race's row): its seats and settings, typed.

The lobby is written when a race opens and changed by the lobby commands; once the race runs it
keeps who sits where (and who is away) beside the record. Old rows may lack the keys marked
``NotRequired`` (they were added later): readers use ``.get`` for those.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict


class SeatData(TypedDict):
    """One seat: a person's (``user``) or an AI's, its colour (``team``) and piece kinds."""

    player: str  # the record's player id: ``u<user id>`` or ``ai<n>``
    user: int | None
    name: str
    team: str
    ai: bool
    kinds: NotRequired[list[str]]
    level: NotRequired[str]  # an AI seat's level (easy, normal, strong)
    options: NotRequired[dict[str, str]]  # seat options, the game's own (rules.game.SeatOption)
    carry: NotRequired[dict[str, int]]  # what a league carries from stage to stage
    # a seat stored before seat options were generic has each option as a key of its own
    # (``bot.service.seats.seat_from`` reads it into ``options``)


class LobbyData(TypedDict):
    """The race's settings and seats."""

    track: str
    riders: int  # pieces per player
    timer: int  # seconds per decision at most
    seed: int
    seats: list[SeatData]
    away: list[str]  # players whose seat the AI plays now
    bank: NotRequired[int | None]  # each player's time for the whole race (docs/pace.md)
    title: NotRequired[str]  # a league stage's ("Stage 2")
    message: NotRequired[int]  # the message that shows the lobby (and becomes a game's draft)
    holiday: NotRequired[dict[str, float]]  # away until when, by player (``/race away``)
    spent: NotRequired[list[str]]  # players whose clock ran out
    options: NotRequired[dict[str, str]]  # the host's race options, as typed
    pact_votes: NotRequired[str]  # how its alliances agree pacts: "all" (the default) or "majority"
