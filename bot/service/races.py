"""``RaceService``: every race intent of the bot, on one storage."""

from __future__ import annotations

from bot.service.away import AwayIntents
from bot.service.core import MESSAGE_LIMIT, Refusal, chunks
from bot.service.draft import DraftIntents
from bot.service.pace import PaceIntents
from bot.service.people import PeopleIntents
from bot.service.reading import ReadingIntents
from bot.service.recap import RecapIntents
from bot.service.timers import TimerIntents
from bot.service.web_pages import WebIntents

__all__ = ["MESSAGE_LIMIT", "RaceService", "Refusal", "chunks"]


class RaceService(
    AwayIntents, DraftIntents, ReadingIntents, TimerIntents, PeopleIntents, RecapIntents, PaceIntents, WebIntents
):
    """Every intent of the bot, on one storage."""
