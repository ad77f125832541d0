"""The service layer: one method per user intent (bot/race_*.py), gathered in ``RaceService``.

See bot/race_core.py for how every intent loads, applies, saves and reports.
"""

from __future__ import annotations

from bot.race_core import MESSAGE_LIMIT, Refusal, chunks
from bot.race_lobby import LobbyIntents
from bot.race_reading import ReadingIntents
from bot.race_timers import TimerIntents

__all__ = ["MESSAGE_LIMIT", "RaceService", "Refusal", "chunks"]


class RaceService(LobbyIntents, ReadingIntents, TimerIntents):
    """Every intent of the bot, on one storage."""
