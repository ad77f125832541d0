"""Issue 38: the catalogs say numbers and nouns as the language does, never with a workaround: no
Hungarian "a(z)" guessing the article, no noun in brackets after a number ("3 (jezdci) pro každého"),
no "polí: 5" counting a noun without its plural form; and the plural forms are each language's."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from rules.i18n import LANGUAGES, Language, ngettext, speaking
from rules.resources import locale_file

TRANSLATED: list[Language] = [lang for lang in LANGUAGES if lang != "en"]
# an article guessed for a word not known yet: the sentence is to be written so it needs none
GUESSED_ARTICLE = re.compile(r"\b[aA]z?\(z\)")
# a noun placeholder put in brackets after a number or a range: "{n} ({noun})", "{most} ({noun})"
BRACKETED_NOUN = re.compile(r"\{\w+\}\s*\(\{noun\}\)|\d\s*\((jezdci|jezdců|auta|aut|cyklisté|cyklistů)\)")
# a counted noun of the games before a colon and its number ("polí: {squares}"): the noun's plural
# forms belong to an ngettext entry instead
COUNTED_NOUN = re.compile(
    r"\b(polí|pole|šestiúhelníků|jezdců|aut|cyklistů|mezők|mező|hatszög|versenyző|autó|kerékpáros)"
    r": \{(n|squares|crossings|count|hexagons)\}"
)


def translations(language: Language) -> list[tuple[str, str]]:
    with locale_file(language, "domestique").open("rb") as po:
        catalog = read_po(po)
    out = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        out += [(english, str(form)) for form in forms]
    return out


def workarounds(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [
        (english, said)
        for english, said in pairs
        if GUESSED_ARTICLE.search(said) or BRACKETED_NOUN.search(said) or _counted_by_colon(english, said)
    ]


def _counted_by_colon(english: str, said: str) -> bool:
    """A noun and a colon before a count the English says as "{n} squares" (not "riders: {n}")."""
    return any(f": {{{m.group(2)}}}" not in english for m in COUNTED_NOUN.finditer(said))


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_entry_works_around_the_grammar(language: Language) -> None:
    pairs = translations(language)
    assert len(pairs) > 100
    assert workarounds(pairs) == []


def test_the_scan_finds_each_workaround() -> None:
    found = workarounds(
        [
            ("a", "a mezőny a(z) {row}. sorba"),
            ("b", "{n} ({noun}) pro každého"),
            ("c", "{rider} jede na {to}, polí: {squares}"),
            ("d", "Každý hráč má 1 až 3 (jezdci)."),
        ]
    )
    assert [e for e, _said in found] == ["a", "b", "c", "d"]
    assert workarounds([("e", "{rider} jede o {n} polí na {to}"), ("f", "a mezőny {n} mezőt halad")]) == []


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("cs", {1: "o 1 pole", 3: "o 3 pole", 5: "o 5 polí"}),
        ("hu", {1: "1 mezőt", 3: "3 mezőt", 5: "5 mezőt"}),
    ],
)
def test_a_ride_counts_its_squares_in_the_language_s_plural(language: Language, counts: dict[int, str]) -> None:
    for n, said in counts.items():
        with speaking(language):
            line = ngettext(
                "{rider} rides to {to}, {n} square{details}",
                "{rider} rides to {to}, {n} squares{details}",
                n,
                rider="R",
                to="12.2",
                details="",
            )
        assert said in line, (n, line)
