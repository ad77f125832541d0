"""Who else hears of a race's changes: handed to the race service when it is built, subscribed to by
the league service (a stage's finish), the alliance service (lines naming a race's alliances, the pacts
made in it) and
the bot (a change of deadlines wakes its timer loop)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.model import Effect, Post
from bot.storage import RaceRow
from rules.pacts import Pact

StageFinished = Callable[[RaceRow, object], Awaitable[list[Post]]]
AllianceLines = Callable[[RaceRow], Awaitable[list[str]]]
RacePacts = Callable[[RaceRow, bool], Awaitable[list[Pact]]]
Committed = Callable[[RaceRow, int, object], Awaitable[list[Effect]]]
TeamAlliance = Callable[[RaceRow, list[str]], Awaitable[int | None]]
Changed = Callable[[], None]


@dataclass
class Listeners:
    stage_finished: list[StageFinished] = field(default_factory=list)  # posts after a league stage's finish
    alliance_lines: list[AllianceLines] = field(default_factory=list)  # a race's alliances in a line each
    changed: list[Changed] = field(default_factory=list)  # deadlines changed
    race_pacts: list[RacePacts] = field(default_factory=list)  # a race's pacts made (bot/service/pact_marks.py)
    committed: list[Committed] = field(default_factory=list)  # told after a commit (a pact broken, the ledger)
    team_alliances: list[TeamAlliance] = field(default_factory=list)  # a shared colour made an alliance

    async def after_stage(self, race: RaceRow, state: object) -> list[Post]:
        posts: list[Post] = []
        for listener in self.stage_finished:
            posts += await listener(race, state)
        return posts

    async def alliances(self, race: RaceRow) -> list[str]:
        lines: list[str] = []
        for listener in self.alliance_lines:
            lines += await listener(race)
        return lines

    async def pacts(self, race: RaceRow, *, public_only: bool = False) -> list[Pact]:
        """The pacts made in the race (``public_only``: those its alliances made public, for what the
        whole channel reads)."""
        found: list[Pact] = []
        for listener in self.race_pacts:
            found += await listener(race, public_only)
        return found

    async def after_commit(self, race: RaceRow, first: int, before: object) -> list[Effect]:
        """What is told after a commit whose new actions start at ``first`` (``race`` as saved, ``before``
        the state before them)."""
        effects: list[Effect] = []
        for listener in self.committed:
            effects += await listener(race, first, before)
        return effects

    async def team_alliance(self, race: RaceRow, players: list[str]) -> int | None:
        """The alliance made of players sharing a colour (its id, for its thread), if anyone makes one."""
        made = None
        for listener in self.team_alliances:
            made = await listener(race, players) or made
        return made

    def deadlines_changed(self) -> None:
        for listener in self.changed:
            listener()
