"""The shipped catalogs are complete and well formed (rules/i18n/check.py), and the template is what
the code says: a message added to the code and not extracted fails here, not in front of a player."""

from __future__ import annotations

import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from rules.i18n import LANGUAGES, Language
from rules.i18n.check import placeholders, problems
from rules.resources import files

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED: list[Language] = [lang for lang in LANGUAGES if lang != "en"]


def template() -> Catalog:
    with files("data").joinpath("locale", "domestique.pot").open("rb") as pot:
        return read_po(pot)


def shipped(language: Language) -> Catalog:
    with files("data").joinpath("locale", language, "LC_MESSAGES", "domestique.po").open("rb") as po:
        return read_po(po)


def keys(catalog: Catalog) -> set[tuple[str | None, object]]:
    return {(m.context, m.id) for m in catalog if m.id}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: Language) -> None:
    assert len(keys(template())) > 100
    assert problems(template(), shipped(language)) == []


def test_the_template_holds_every_message_of_the_code(tmp_path: Path) -> None:
    """``pybabel extract`` as docs/translating.md says, compared with the shipped template."""
    fresh = tmp_path / "fresh.pot"
    command = [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "pyproject.toml"]
    done = subprocess.run([*command, "-o", str(fresh), "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    with fresh.open("rb") as pot:
        extracted = keys(read_po(pot))
    assert extracted - keys(template()) == set(), "extract again: pybabel extract -F pyproject.toml ..."
    assert keys(template()) - extracted == set(), "the template has messages the code no longer says"


def _po(text: str) -> Catalog:
    plural = "nplurals=3; plural=(n==1 ? 0 : n>=2 && n<=4 ? 1 : 2);"
    header = f'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"Plural-Forms: {plural}\\n"\n\n'
    return read_po(BytesIO((header + text).encode()))


TEMPLATE = """
msgid "{who} wins"
msgstr ""

msgid "{n} rider"
msgid_plural "{n} riders"
msgstr[0] ""
msgstr[1] ""
"""


def test_the_check_names_each_way_a_catalog_falls_short() -> None:
    good = _po(
        'msgid "{who} wins"\nmsgstr "{who} vyhrává"\n\n'
        'msgid "{n} rider"\nmsgid_plural "{n} riders"\n'
        'msgstr[0] "jeden jezdec"\nmsgstr[1] "{n} jezdci"\nmsgstr[2] "{n} jezdců"\n'
    )
    assert problems(_po(TEMPLATE), good) == []  # the singular may say the number in words
    bad = _po(
        'msgid "{who} wins"\nmsgstr "{kdo} vyhrává"\n\n'
        'msgid "{n} rider"\nmsgid_plural "{n} riders"\nmsgstr[0] "{n} jezdec"\nmsgstr[1] "{n} jezdci"\n\n'
        'msgid "Not in the template"\nmsgstr "Není v šabloně"\n'
    )
    said = "\n".join(problems(_po(TEMPLATE), bad))
    assert "'{who} wins'" in said and "['kdo']" in said
    assert "form 2 untranslated" in said  # Czech's third form (5 and more) left out
    assert "not in the template" in said
    untranslated = _po(
        'msgid "{n} rider"\nmsgid_plural "{n} riders"\nmsgstr[0] "{n} jezdec"\nmsgstr[1] ""\nmsgstr[2] "x {"\n'
    )
    said = "\n".join(problems(_po(TEMPLATE), untranslated))
    assert "form 1 untranslated" in said and "unpaired brace" in said and "'{who} wins' (None): missing" in said


def test_placeholders_are_the_format_fields() -> None:
    assert placeholders("{who} rides {n} squares") == {"who", "n"}
    assert placeholders("no fields, {{braces}} doubled") == set()
    assert placeholders("a lone { brace") is None
