"""Slash commands in Hungarian and Czech (issue 27): every command, option and choice name and
description of the tree has both translations, the names obey Discord's rules for localised names,
and the bot hands them to Discord when it syncs (bot/discord_layer/translator.py)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord_layer.command_tree import bot_commands
from bot.discord_layer.translator import (
    CHOICE,
    COMMAND_NAME,
    OPTION_NAME,
    CatalogTranslator,
    command_strings,
)
from rules.i18n import Language, translator

LOCALISED: tuple[tuple[Language, discord.Locale], ...] = (
    ("hu", discord.Locale.hungarian),
    ("cs", discord.Locale.czech),
)
NAMES = (COMMAND_NAME, OPTION_NAME)


def valid_name(name: str) -> bool:
    """Discord's rule for a (localised) command or option name: ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$,
    lower case where the letter has a case."""
    letters_and_numbers = all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
    return 1 <= len(name) <= 32 and letters_and_numbers and name == name.lower()


@pytest.fixture(scope="module")
def strings() -> list[tuple[str, str]]:
    found = command_strings(bot_commands())
    assert len(found) > 100 and (COMMAND_NAME, "race") in found and (CHOICE, "my last decision") in found
    return found


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_command_string_has_a_translation(strings: list[tuple[str, str]], language: Language) -> None:
    messages = translator(language)
    missing = [(context, message) for context, message in strings if not messages.has(message, context)]
    assert missing == []


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_translated_names_are_valid_discord_names(strings: list[tuple[str, str]], language: Language) -> None:
    messages = translator(language)
    names = {m: messages.pgettext(c, m) for c, m in strings if c in NAMES}
    assert [(m, n) for m, n in names.items() if not valid_name(n)] == []
    too_long = [messages.pgettext(c, m) for c, m in strings if c not in NAMES and len(messages.pgettext(c, m)) > 100]
    assert too_long == []  # descriptions and choice names: 1-100 characters


def test_the_name_rule_refuses_what_discord_refuses() -> None:
    assert valid_name("závod") and valid_name("időzóna") and valid_name("until_number") and valid_name("do-číslo")
    assert not any(map(valid_name, ["Závod", "two words", "", "x" * 33, "ring=12", "új!"]))


def _siblings(payload: dict[str, Any], locale: str, where: str = "") -> list[str]:
    """Names localised to ``locale`` that clash among siblings, anywhere in a command's payload."""
    clashes: list[str] = []
    options = payload.get("options", [])
    names = Counter(o.get("name_localizations", {}).get(locale, o["name"]) for o in options)
    clashes += [f"{where}/{payload['name']}: {name}" for name, count in names.items() if count > 1]
    for option in options:
        clashes += _siblings(option, locale, f"{where}/{payload['name']}")
        choices = Counter(c.get("name_localizations", {}).get(locale, c["name"]) for c in option.get("choices", []))
        clashes += [f"{where}/{option['name']}: {name}" for name, count in choices.items() if count > 1]
    return clashes


async def test_the_translated_tree_has_no_two_siblings_of_one_name() -> None:
    """As discord.py sends the tree to Discord: names unique among the commands, among each command's
    subcommands and options, and among each option's choices, in every language."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    for command in bot_commands():
        tree.add_command(command)
    await tree.set_translator(CatalogTranslator())
    payloads = [await c.get_translated_payload(tree, CatalogTranslator()) for c in tree.get_commands()]
    for _, locale in LOCALISED:
        top = Counter(p["name_localizations"].get(locale.value, p["name"]) for p in payloads)
        assert [name for name, count in top.items() if count > 1] == []
        assert [clash for p in payloads for clash in _siblings(p, locale.value)] == []
    race = next(p for p in payloads if p["name"] == "race")
    assert race["name_localizations"] == {"hu": "verseny", "cs": "závod"}
    assert set(race["description_localizations"]) == {"hu", "cs"}


async def test_the_translator_answers_only_for_a_language_it_has() -> None:
    where = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    described = app_commands.TranslationContext(app_commands.TranslationContextLocation.parameter_description, None)
    said = CatalogTranslator()
    race = app_commands.locale_str("race")
    assert await said.translate(race, discord.Locale.hungarian, where) == "verseny"
    assert await said.translate(race, discord.Locale.czech, where) == "závod"
    for english_or_other in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.german):
        assert await said.translate(race, english_or_other, where) is None
    assert await said.translate(app_commands.locale_str("no such command"), discord.Locale.czech, where) is None
    assert await said.translate(app_commands.locale_str("…"), discord.Locale.czech, described) is None
    # a name is looked up in its own context: "timezone" is an option, no command is called so
    option = app_commands.TranslationContext(app_commands.TranslationContextLocation.parameter_name, None)
    timezone = app_commands.locale_str("timezone")
    assert await said.translate(timezone, discord.Locale.czech, option) == "časové-pásmo"
    assert await said.translate(timezone, discord.Locale.czech, where) is None


async def test_the_bot_syncs_its_commands_with_their_translations(simcord_env) -> None:
    race = simcord_env.backend.find_command("race", None)
    assert race is not None
    assert race["name_localizations"] == {"hu": "verseny", "cs": "závod"}
    new = next(o for o in race["options"] if o["name"] == "new")
    assert new["name_localizations"] == {"hu": "új", "cs": "nový"}
    assert new["description_localizations"]["cs"] == "Otevřít lobby závodu v tomto kanálu"
