"""Who else hears of a race's changes: handed to the race service when it is built, subscribed to by
the league service (a stage's finish), the alliance service (lines naming a race's alliances) and
the bot (a change of deadlines wakes its timer loop)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service.model import Post
from bot.storage import RaceRow

StageFinished = Callable[[RaceRow, object], Awaitable[list[Post]]]
AllianceLines = Callable[[RaceRow], Awaitable[list[str]]]
Changed = Callable[[], None]


@dataclass
class Listeners:
    stage_finished: list[StageFinished] = field(default_factory=list)  # posts after a league stage's finish
    alliance_lines: list[AllianceLines] = field(default_factory=list)  # a race's alliances in a line each
    changed: list[Changed] = field(default_factory=list)  # deadlines changed

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

    def deadlines_changed(self) -> None:
        for listener in self.changed:
            listener()
