"""Slash commands in the player's language: discord.py passes every command, option and choice name
and description through ``CatalogTranslator`` when the tree is synced, and Discord shows each user
the ones of their client's language (docs/translating.md).

The catalogs tell a name from a description by message context (``COMMAND_NAME`` ...): one English
word can be a command and an option ("order") and want two translations. ``command_strings`` walks
the commands it is handed (the bot's whole tree: ``command_tree.py``, which also hands them to
``pybabel extract``, pyproject's [tool.babel])."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord
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
