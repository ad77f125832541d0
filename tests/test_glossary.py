"""The games' own words in every language (docs/glossary-<lang>.md): where a catalog's English names a
game concept of the glossary, its translation uses the glossary's term."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rules.i18n import LANGUAGES, Language
from rules.resources import locale_file

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED: list[Language] = [lang for lang in LANGUAGES if lang != "en"]
# the concepts issue 27 names: every glossary must say how its language calls them
CONCEPTS = [
    "peloton",
    "breakaway",
    "chase",
    "feed",
    "energy-point",
    "crash",
    "puncture",
    "weather",
    "slipstream",
    "sprint",
    "time-trial",
    "dial",
    "lane",
    "hex",
    "leader's-jersey",
    "general-classification",
    "team",
    "alliance",
    "turn",
    "race",
    "league",
    "stage",
    # issue 38's words from the books
    "finished",
    "face-up",
    "intermediate-sprint",
    "quality",
    "orange",
    "lap",
    "round",
]


@dataclass(frozen=True)
class Term:
    concept: str
    english: re.Pattern[str]
    term: str
    check: re.Pattern[str]


def _cells(line: str) -> list[str]:
    """A markdown table row's cells: split on the pipes that are not escaped, code marks dropped."""
    cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
    return [cell.strip().strip("`").replace("\\|", "|") for cell in cells]


def glossary(language: Language) -> list[Term]:
    """The table of docs/glossary-<language>.md (the one whose header starts ``| concept |``)."""
    lines = (ROOT / "docs" / f"glossary-{language}.md").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| concept |"))
    terms = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        concept, english, term, check = _cells(line)
        terms.append(Term(concept, re.compile(english, re.IGNORECASE), term, re.compile(check, re.IGNORECASE)))
    return terms


def catalog_pairs(language: Language) -> list[tuple[str, str]]:
    """Every (English, translation) of the shipped catalog, each plural form against its English form."""
    with locale_file(language, "domestique").open("rb") as po:
        catalog = read_po(po)
    pairs: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            pairs.append((message.id, str(message.string)))
        else:
            singular, plural = message.id
            pairs += [(singular if i == 0 else plural, form) for i, form in enumerate(message.string)]
    return pairs


def misses(pairs: list[tuple[str, str]], terms: list[Term]) -> list[str]:
    """Each translation whose English names a concept and which does not use the glossary's term (a
    ``{placeholder}``'s name is no word of the text: ``{rider}`` is filled with a rider's name)."""
    return [
        f"{english!r} -> {said!r}: {t.concept} is {t.term!r}"
        for english, said in pairs
        for t in terms
        if t.english.search(PLACEHOLDER.sub(" ", english)) and not t.check.search(said)
    ]


PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_uses_the_glossary_s_terms(language: Language) -> None:
    pairs = catalog_pairs(language)
    assert len(pairs) > 100
    assert misses(pairs, glossary(language)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_glossary_names_every_concept_of_the_games(language: Language) -> None:
    concepts = " ".join(t.concept.replace(" ", "-") for t in glossary(language))
    assert [c for c in CONCEPTS if c not in concepts] == []


def test_every_language_has_the_same_concepts() -> None:
    by_language = {lang: [t.concept for t in glossary(lang)] for lang in TRANSLATED}
    first, *others = by_language.values()
    assert all(concepts == first for concepts in others), by_language


@pytest.mark.parametrize(
    ("language", "english", "wrong", "right"),
    [
        ("hu", "Run a race in this channel", "Futam ezen a csatornán", "Verseny ezen a csatornán"),
        ("hu", "The peloton catches YR", "A boly utoléri YR-t", "A mezőny utoléri YR-t"),
        ("cs", "A stage's result", "Výsledek kola", "Výsledek etapy"),
        ("cs", "What happened in the last turns", "Co se stalo v posledních tazích", "Co se stalo v posledních kolech"),
        ("hu", "yellow rouleur crossed the finish line", "sárga irammenő befejeződött", "sárga irammenő célba ért"),
        ("hu", "weather turned up on row 7: rain", "időjárás felfordult", "időjárás-jelző képpel felfelé fordul"),
        ("hu", "Canyon · round 3 · 2 laps", "Kanyon · 3. kör · 2 kör", "Kanyon · 3. forduló · 2 kör"),
        ("hu", "orange 4", "narancs 4-es", "narancssárga 4-es"),
        ("cs", "riders: energy, quality, risks", "jezdci: energie, síla, rizika", "jezdci: energie, schopnost, rizika"),
        ("cs", "yellow leader crossed the finish line", "žlutý lídr dokončen", "žlutý lídr v cíli"),
    ],
)
def test_the_check_catches_a_word_that_is_not_the_glossary_s(
    language: Language, english: str, wrong: str, right: str
) -> None:
    terms = glossary(language)
    assert misses([(english, wrong)], terms) and not misses([(english, right)], terms)


def test_a_verb_is_not_taken_for_the_game_concept() -> None:
    turn = next(t for t in glossary("cs") if t.concept.startswith("turn"))
    assert turn.english.search("turn by turn") and turn.english.search("the last turns")
    assert not turn.english.search("turn the page off") and not turn.english.search("turn it off")
