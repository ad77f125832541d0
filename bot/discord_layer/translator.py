"""Slash commands in the player's language: discord.py passes every command, option and choice name
and description through ``CatalogTranslator`` when the tree is synced, and Discord shows each user
the ones of their client's language (docs/translating.md).

The catalogs tell a name from a description by message context (``COMMAND_NAME`` ...): one English
word can be a command and an option ("order") and want two translations. ``command_strings`` walks
the tree offline; ``extract`` hands the same strings to ``pybabel extract`` (pyproject's [tool.babel])."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

import discord
from babel.messages.extract import extract_python
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from rules.i18n import SOURCE, lang_for, translator

COMMAND_NAME = "command name"
COMMAND_DESCRIPTION = "command description"
OPTION_NAME = "option name"
OPTION_DESCRIPTION = "option description"
CHOICE = "choice"
CONTEXTS: Mapping[Where, str] = {
    Where.command_name: COMMAND_NAME,
    Where.group_name: COMMAND_NAME,
    Where.command_description: COMMAND_DESCRIPTION,
    Where.group_description: COMMAND_DESCRIPTION,
    Where.parameter_name: OPTION_NAME,
    Where.parameter_description: OPTION_DESCRIPTION,
    Where.choice_name: CHOICE,
}
UNDESCRIBED = "…"  # discord.py's description of an option nobody described: nothing to translate


class CatalogTranslator(app_commands.Translator):
    """Names and descriptions from the message catalogs; None (Discord shows the English) for English
    locales, languages Domestique lacks and any string its catalog does not translate."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        language = lang_for(locale.value)
        where = CONTEXTS.get(context.location)
        if language == SOURCE or where is None or string.message == UNDESCRIBED:
            return None
        messages = translator(language)
        return messages.pgettext(where, string.message) if messages.has(string.message, where) else None


def command_strings(
    commands: Sequence[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> list[tuple[str, str]]:
    """Every (context, English string) of ``commands`` and what they hold, once each, in tree order."""
    found: dict[tuple[str, str], None] = {}

    def walk(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> None:
        found[(COMMAND_NAME, command.name)] = None
        found[(COMMAND_DESCRIPTION, command.description)] = None
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                walk(sub)
            return
        for parameter in command.parameters:
            found[(OPTION_NAME, parameter.display_name)] = None
            found[(OPTION_DESCRIPTION, parameter.description)] = None
            for choice in parameter.choices:
                found[(CHOICE, choice.name)] = None

    for command in commands:
        walk(command)
    return [key for key in found if key[1] != UNDESCRIBED]


def bot_commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """The bot's slash commands, on a tree of their own (no token, no network)."""
    from bot.discord_layer import app, league_commands  # noqa: F401  (the app adds /race mine, away, ahead ...)
    from bot.discord_layer.commands import register

    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    register(tree)
    league_commands.register(tree)
    return [c for c in tree.get_commands() if not isinstance(c, app_commands.ContextMenu)]


def extract(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Sequence[str], options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """A Babel extractor for the file that registers the commands: its own gettext calls, then every
    command string of the tree as a ``pgettext`` message (its context saying name or description)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type]
    for context, message in command_strings(bot_commands()):
        yield 0, "pgettext", (context, message), []
