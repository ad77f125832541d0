"""How each person wants to be told that a decision is theirs (``/race notify``), per server,
and the notes kept for them when a private message could not be delivered."""

from __future__ import annotations

from bot.service.common import Refusal
from bot.service.model import Outcome
from bot.storage import NOTIFY_MODES, Storage
from rules.i18n import N_, _

NOTIFY_WORDS = {
    "mention": N_("I mention you in the race channel when a decision is yours (and once more as a reminder)."),
    "dm": N_("I send you a private message when a decision is yours; the channel names you without a ping."),
    "none": N_("I do not ping you when a decision is yours, only once as a reminder when half your time is gone."),
}


class People:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def notify(self, guild_id: int, user_id: int, mode: str | None) -> Outcome:
        """Show (``mode`` None) or set how the person is told in this server."""
        if mode is None:
            current = await self.storage.notify_mode(guild_id, user_id) or "mention"
            return Outcome(_("Now: {how} Change it with /race notify how:.", how=_(NOTIFY_WORDS[current])))
        if mode not in NOTIFY_MODES:
            raise Refusal(_("Choose one of: {modes}.", modes=", ".join(NOTIFY_MODES)))
        await self.storage.set_notify_mode(guild_id, user_id, mode)
        return Outcome(_("From now on in this server: {how}", how=_(NOTIFY_WORDS[mode])))

    async def notes_for(self, guild_id: int, user_id: int) -> list[str]:
        return await self.storage.take_notes(guild_id, user_id)

    async def keep_note(self, guild_id: int, user_id: int, text: str) -> None:
        await self.storage.add_note(guild_id, user_id, text)
