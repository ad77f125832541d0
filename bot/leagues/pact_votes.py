"""How an alliance agrees a pact: every member in the race accepts it (the default), or a majority of
them decides when the league's organiser (``/league create pacts:majority``) or, in a race outside a
league, the race's host (``/alliance votes``) says so.

A proposal keeps its members' answers in ``PactRow.accepted``: a member who accepted by name, one who
declined as ``!name`` (under "all" the first decline ends the proposal, so only a majority vote keeps
one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.storage import PactRow, RaceRow, Storage
from bot.storage.lobby import LobbyData

Votes = Literal["all", "majority"]
VOTES: tuple[Votes, ...] = ("all", "majority")
DECLINED = "!"  # before a member's name in ``PactRow.accepted``: their "no"
LEAGUE_KEY = "pact_votes"  # a league: its organiser's, kept in its settings


def as_votes(value: object) -> Votes:
    return "majority" if value == "majority" else "all"


@dataclass(frozen=True)
class Tally:
    """A pact proposal's answers so far, under its race's rule."""

    members: tuple[str, ...]
    yes: frozenset[str]
    no: frozenset[str]
    votes: Votes

    @property
    def needed(self) -> int:
        """How many members' acceptances make the pact: all of them, or more than half."""
        return len(self.members) if self.votes == "all" else len(self.members) // 2 + 1

    @property
    def made(self) -> bool:
        return len(self.yes) >= self.needed

    @property
    def lost(self) -> bool:
        """Too many declined for it ever to be made."""
        return len(self.members) - len(self.no) < self.needed

    @property
    def by_majority(self) -> bool:
        """Made without every member's acceptance."""
        return self.made and len(self.yes) < len(self.members)

    def answered(self, player: str) -> bool:
        return player in self.yes or player in self.no


def tally(row: PactRow, votes: Votes) -> Tally:
    members = tuple(row.members)
    yes = frozenset(p for p in row.accepted if not p.startswith(DECLINED) and p in members)
    no = frozenset(p[len(DECLINED) :] for p in row.accepted if p.startswith(DECLINED))
    return Tally(members, yes, no, votes)


def with_answer(row: PactRow, player: str, accept: bool) -> list[str]:
    """``row``'s answers with ``player``'s added, as kept in ``PactRow.accepted``."""
    return sorted({*row.accepted, player if accept else DECLINED + player})


async def votes_of(race: RaceRow, store: Storage) -> Votes:
    """How the race's alliances agree their pacts: its league's setting, else its host's."""
    if race.league_id is not None:
        league = await store.league(race.league_id)
        return as_votes(league.settings.get(LEAGUE_KEY)) if league is not None else "all"
    return as_votes(race.lobby.get("pact_votes"))


def with_votes(lobby: LobbyData, votes: Votes) -> LobbyData:
    """The lobby with its host's choice of how pacts are agreed."""
    return {**lobby, "pact_votes": votes}
