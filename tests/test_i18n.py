"""The translation core (rules/i18n): catalogs read from .po files, plural forms per language,
placeholders, and which language a Discord locale gets."""

from __future__ import annotations

from io import BytesIO

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from rules.i18n import LANGUAGES, Language, lang_for, parse, translator
from rules.resources import locale_file


def _po(language: Language, *messages: tuple[object, object, str | None], fuzzy: bool = False) -> BytesIO:
    """A .po file as ``pybabel init`` writes it for ``language``, with ``(msgid, msgstr, context)`` entries."""
    catalog = Catalog(locale=language, domain="domestique")
    for msgid, msgstr, context in messages:
        catalog.add(msgid, msgstr, context=context, flags=("fuzzy",) if fuzzy else ())  # type: ignore[arg-type]
    out = BytesIO()
    write_po(out, catalog)
    out.seek(0)
    return out


@pytest.mark.parametrize(
    ("discord_locale", "language"),
    [
        ("hu", "hu"),
        ("cs", "cs"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("pt-BR", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_discord_locale_gets_its_language_or_english(discord_locale: str | None, language: str) -> None:
    assert lang_for(discord_locale) == language


def test_czech_has_three_plural_forms_chosen_by_the_number() -> None:
    czech = parse(_po("cs", (("{n} rider", "{n} riders"), ("{n} jezdec", "{n} jezdci", "{n} jezdců"), None)), "cs")
    said = [czech.ngettext("{n} rider", "{n} riders", n) for n in (1, 2, 4, 5, 11, 22)]
    assert said == ["1 jezdec", "2 jezdci", "4 jezdci", "5 jezdců", "11 jezdců", "22 jezdců"]


def test_hungarian_has_two_plural_forms_and_fills_named_placeholders() -> None:
    hungarian = parse(
        _po(
            "hu",
            (
                ("{who} moves {n} square", "{who} moves {n} squares"),
                ("{who} {n} mezőt lép", "{who} {n} mezőt lép"),
                None,
            ),
        ),
        "hu",
    )
    assert hungarian.ngettext("{who} moves {n} square", "{who} moves {n} squares", 3, who="Anna") == "Anna 3 mezőt lép"


def test_context_tells_two_uses_of_one_english_word_apart() -> None:
    czech = parse(_po("cs", ("order", "pořadí", "option name"), ("order", "příkaz", "command name")), "cs")
    assert (czech.pgettext("option name", "order"), czech.pgettext("command name", "order")) == ("pořadí", "příkaz")
    assert czech.has("order", "option name") and not czech.has("order")


def test_a_message_the_catalog_lacks_or_marks_fuzzy_stays_english() -> None:
    fuzzy = parse(_po("hu", ("Start the race", "Rajt", None), fuzzy=True), "hu")
    assert fuzzy.gettext("Start the race") == "Start the race" and not fuzzy.has("Start the race")
    assert translator("hu").gettext("No such message {x}", x=1) == "No such message 1"


def test_english_is_the_code_s_own_text() -> None:
    english = translator("en")
    assert english.gettext("{who} wins", who="Anna") == "Anna wins"
    assert [english.ngettext("{n} rider", "{n} riders", n) for n in (1, 2)] == ["1 rider", "2 riders"]
    assert english.has("anything at all")


def test_text_without_placeholders_is_returned_as_it_is() -> None:
    assert translator("cs").gettext("a {literal} brace") == "a {literal} brace"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_each_shipped_catalog_says_its_language_s_plural_forms(language: Language) -> None:
    with locale_file(language, "domestique").open("rb") as po:
        catalog = read_po(po)
    assert str(catalog.locale) == language
    assert catalog.plural_forms == get_plural(language).plural_forms
    assert translator(language).language == language
