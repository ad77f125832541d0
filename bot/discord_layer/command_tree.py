"""The bot's slash commands, all in one place: the modules that add them, ``register_all`` that puts
them on a tree (the client's), and the same tree offline for the catalogs' extractor and the tests
(no token, no network). Above the translator, which only translates what it is handed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

import discord
from babel.messages.extract import extract_python
from discord import app_commands

from bot.discord_layer import away_commands as away_commands  # adds /race mine, away
from bot.discord_layer import league_commands
from bot.discord_layer import pace_commands as pace_commands  # adds /race ahead, order, pace; /league pace
from bot.discord_layer.commands import register
from bot.discord_layer.translator import command_strings


def register_all(tree: app_commands.CommandTree[Any]) -> None:
    """Every slash command and context menu of the bot, on ``tree``."""
    register(tree)
    league_commands.register(tree)


def bot_commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """The bot's slash commands, on a tree of their own (no token, no network)."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    register_all(tree)
    return [c for c in tree.get_commands() if not isinstance(c, app_commands.ContextMenu)]


def extract(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Sequence[str], options: dict[str, Any]
) -> Iterator[tuple[Any, ...]]:
    """A Babel extractor for the file that registers the commands: its own gettext calls, then every
    command string of the tree as a ``pgettext`` message (its context saying name or description)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[arg-type]
    for context, message in command_strings(bot_commands()):
        yield 0, "pgettext", (context, message), []
