"""The seats of a game whose players each bring a team of numbered pieces in a colour of their own
(Formula Dé Mini's cars 1 and 2, Peloton's cyclists 1 to 3): a new seat, the record's players, why a
lobby cannot start, a simulated race's players. A game describes its teams once (``NumberedTeams``)
and takes every seat field of its ``rules.game.Game`` from it: ``Game(..., **TEAMS.fields())``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from rules.game import PieceCount, PlayerRecord, Seat
from rules.i18n import _
from rules.leader1.game_kit import own_colour


class SeatFields(TypedDict):
    """The fields of a ``rules.game.Game`` about its seats."""

    colours: tuple[str, ...]
    pieces: PieceCount
    players: tuple[int, int]
    seat: Callable[[Sequence[Seat], int, str | None], tuple[str, tuple[str, ...]]]
    record_players: Callable[[Sequence[Seat]], list[PlayerRecord]]
    check_lobby: Callable[[Sequence[Seat], int], str | None]
    sample_players: Callable[[int], list[PlayerRecord]]


@dataclass(frozen=True)
class NumberedTeams:
    """One colour a player, 1 to ``len(colours)`` players; each brings ``pieces`` pieces numbered "1", "2" ...

    ``key`` is the record's field for how many pieces a player brings ("cars"). A race has at least
    ``fewest`` pieces in all; ``refusal`` says why a lobby cannot start (``{total}``: its pieces).
    ``unstated`` is what a seat stored without its pieces brings (a lobby saved before players chose
    how many). ``carry`` turns what a league seat carries from its last stage into the record's
    ``carry`` (None: the game carries nothing); ``more`` gives a seat's player further fields (Peloton's
    overall places, written for a league's leg)."""

    title: str
    colours: tuple[str, ...]
    pieces: PieceCount
    key: str
    fewest: int
    refusal: str
    unstated: int
    carry: Callable[[Mapping[str, int]], dict[str, int]] | None = None
    more: Callable[[Seat], dict[str, object]] = lambda seat: {}  # further fields of a seat's player in the record

    @property
    def players(self) -> tuple[int, int]:
        return 1, len(self.colours)

    def seat(self, seats: Sequence[Seat], pieces: int, colour: str | None) -> tuple[str, tuple[str, ...]]:
        """``colour`` (or the first free one) and ``pieces`` numbered pieces, kept within the game's limits."""
        count = min(max(pieces, self.pieces.minimum), self.pieces.maximum)
        return own_colour(seats, self.colours, colour), tuple(str(n + 1) for n in range(count))

    def brought(self, seat: Seat) -> int:
        return len(seat.kinds) or self.unstated

    def record_players(self, seats: Sequence[Seat]) -> list[PlayerRecord]:
        out = []
        for s in seats:
            player: PlayerRecord = {"id": s.player, "name": s.name[:32], "team": s.colour, self.key: self.brought(s)}
            if s.carry and self.carry is not None:
                player["carry"] = self.carry(s.carry)
            out.append({**player, **self.more(s)})
        return out

    def check_lobby(self, seats: Sequence[Seat], pieces: int) -> str | None:
        total = sum(self.brought(s) for s in seats)
        low, high = self.players
        if not low <= len(seats) <= high or not self.fewest <= total <= high * self.pieces.maximum:
            return _(self.refusal, total=total)  # the game's text, marked with N_, said in the language of the moment
        return None

    def sample_players(self, count: int) -> list[PlayerRecord]:
        low, high = self.players
        if not low <= count <= high:
            raise ValueError(f"{self.title} has {low} to {high} players, got {count}")
        return [
            {"id": f"ai{i + 1}", "name": f"AI {i + 1}", "team": self.colours[i], self.key: self.pieces.default}
            for i in range(count)
        ]

    def fields(self) -> SeatFields:
        return {
            "colours": self.colours,
            "pieces": self.pieces,
            "players": self.players,
            "seat": self.seat,
            "record_players": self.record_players,
            "check_lobby": self.check_lobby,
            "sample_players": self.sample_players,
        }
