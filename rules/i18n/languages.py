"""The languages Domestique speaks, and which of them a Discord locale asks for."""

from __future__ import annotations

from typing import Literal, get_args

Language = Literal["en", "hu", "cs"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
SOURCE: Language = "en"  # the code's own text; every other language is a catalog
DOMAIN = "domestique"  # the catalogs' file name: data/locale/<lang>/LC_MESSAGES/domestique.po


def lang_for(discord_locale: str | None) -> Language:
    """The language for a Discord locale (``hu``, ``cs``, ``en-US``, ``pt-BR`` ...): its own when
    Domestique has it, else English."""
    wanted = (discord_locale or "").split("-")[0].lower()
    for language in LANGUAGES:
        if language == wanted:
            return language
    return SOURCE
