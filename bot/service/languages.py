"""Who reads which language (issue 27). Public race text (the race channel, the lobby, boards,
league and alliance posts) is in the server's language: the one its manager chose with
``/race language``, else Discord's preferred locale of the server. A private reply is in the
person's own client language (the Discord layer sets it around the request); a private message in
the recipient's, as last seen when they used the bot. English for anything unknown.

Locales are recorded when an interaction shows them, because timers and league stages have none
to ask. Kept in memory once read: one process owns a server's commands (a shard cluster splits by
server)."""

from __future__ import annotations

from typing import Literal, cast

from bot.service.common import Refusal
from bot.service.model import Outcome
from bot.storage import Storage
from bot.storage.language_tables import GUILD, USER
from rules.i18n import LANGUAGES, SOURCE, Language, _, lang_for, speaking

Choice = Literal["auto", "en", "hu", "cs"]  # what a manager picks with /race language
CHOICES: tuple[Choice, ...] = ("auto", *LANGUAGES)
NAMES: dict[Language, str] = {"en": "English", "hu": "Magyar", "cs": "Čeština"}  # each in its own words


class Languages:
    """A server's public language and a person's own, read from and recorded in storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._guilds: dict[int, tuple[str | None, str | None]] = {}  # guild -> (locale seen, language chosen)
        self._users: dict[int, str | None] = {}  # user -> locale seen

    async def _guild(self, guild_id: int) -> tuple[str | None, str | None]:
        if guild_id not in self._guilds:
            self._guilds[guild_id] = await self.storage.locale_of(GUILD, guild_id)
        return self._guilds[guild_id]

    async def _user(self, user_id: int) -> str | None:
        if user_id not in self._users:
            self._users[user_id] = (await self.storage.locale_of(USER, user_id))[0]
        return self._users[user_id]

    async def seen(self, guild_id: int | None, guild_locale: str | None, user_id: int, locale: str | None) -> None:
        """An interaction showed a server's preferred locale and a person's client locale: remember
        them when they changed."""
        if guild_id is not None and guild_locale and (await self._guild(guild_id))[0] != guild_locale:
            await self.storage.see_locale(GUILD, guild_id, guild_locale)
            self._guilds[guild_id] = (guild_locale, self._guilds[guild_id][1])
        if locale and await self._user(user_id) != locale:
            await self.storage.see_locale(USER, user_id, locale)
            self._users[user_id] = locale

    async def public(self, guild_id: int | None) -> Language:
        """The language of a server's race channels, lobbies, boards and league posts."""
        if guild_id is None:
            return SOURCE
        seen, chosen = await self._guild(guild_id)
        if chosen in LANGUAGES:
            return chosen
        return lang_for(seen)

    async def private(self, user_id: int | None) -> Language:
        """The language of a person's private messages: their client's, as last seen."""
        if user_id is None:
            return SOURCE
        return lang_for(await self._user(user_id))

    async def choose(self, guild_id: int, choice: Choice) -> Language:
        """A manager's choice of the server's public language ('auto': Discord's preferred locale); the language now."""
        chosen = None if choice == "auto" else choice
        await self.storage.choose_language(guild_id, chosen)
        self._guilds[guild_id] = ((await self._guild(guild_id))[0], chosen)
        return await self.public(guild_id)

    async def chosen(self, guild_id: int) -> Choice:
        """What the manager chose ('auto' when nobody did)."""
        chosen = (await self._guild(guild_id))[1]
        return cast(Choice, chosen) if chosen in LANGUAGES else "auto"

    async def command(self, guild_id: int | None, can_manage: bool, choice: str) -> Outcome:
        """``/race language``: a manager sets the server's public language (``auto``: Discord's preferred
        locale of the server); told in the channel, in the language it now speaks."""
        if guild_id is None:
            raise Refusal(_("This command works in a server channel."))
        if not can_manage:
            raise Refusal(_("Only someone who can manage this server chooses the language of its races."))
        if choice not in CHOICES:
            raise Refusal(_("Choose one of: {choices}.", choices=", ".join(CHOICES)))
        language = await self.choose(guild_id, choice)
        with speaking(language):
            if choice == "auto":
                said = _(
                    "Races in this server now speak the server's preferred language in Discord: {language}.",
                    language=NAMES[language],
                )
            else:
                said = _("Races in this server now speak {language}.", language=NAMES[language])
            said += " " + _("Private answers and messages stay in each person's own Discord language.")
        return Outcome(said, ephemeral=False)
