"""Every letter players can read on a board is in the boards' font: a glyph the font lacks is drawn as
its empty box (.notdef), which says nothing. Checked for every character of every message catalog and
glossary, and for the Hungarian and Czech alphabets, in the regular and the bold face."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw, ImageFont

from renderer.palette import TEXT, font

ROOT = Path(__file__).resolve().parents[1]
ALPHABETS = "aábcčdďeéěfghiíjklmnňoóöőpqrřsštťuúůüűvwxyzýž" + "0123456789.,:;!?()[]-–—/%+'\"…·×→"
NOT_A_CHARACTER = "\U0010fffd"  # a private-use code point no font draws: its box is the .notdef glyph


def _picture(face: ImageFont.FreeTypeFont, ch: str) -> tuple[tuple[int, int, int, int] | None, bytes]:
    image = Image.new("L", (3 * TEXT, 3 * TEXT), 0)
    ImageDraw.Draw(image).text((TEXT, TEXT), ch, fill=255, font=face)
    return image.getbbox(), image.tobytes()


def missing(face: ImageFont.FreeTypeFont, text: str) -> list[str]:
    """The characters of ``text`` that ``face`` draws as its .notdef box."""
    notdef = _picture(face, NOT_A_CHARACTER)
    return sorted(ch for ch in set(text) if not ch.isspace() and _picture(face, ch) == notdef)


def catalog_text() -> str:
    """Every msgid and msgstr of every shipped catalog and template, and every glossary."""
    said: list[str] = []
    for po in sorted((ROOT / "data" / "locale").rglob("*.po*")):
        with po.open("rb") as f:
            for message in read_po(f):
                for text in (message.id, message.string, message.context):
                    said.extend([text] if isinstance(text, str) else list(text or ()))
    said.extend(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("glossary-*.md")))
    return "".join(said)


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_the_board_font_draws_every_letter_of_english_hungarian_and_czech(bold: bool) -> None:
    face = font(TEXT, bold)
    assert missing(face, "ő") == [], "the .notdef check cannot tell a real glyph"
    letters = ALPHABETS + ALPHABETS.upper()
    assert missing(face, letters) == []


@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
def test_the_board_font_draws_every_character_of_the_catalogs_and_glossaries(bold: bool) -> None:
    text = catalog_text()
    assert missing(font(TEXT, bold), text) == []


def test_the_check_notices_a_font_without_the_letters() -> None:
    """Pillow's built-in face (the boards' font before issue 27) lacks ő ű ě ř ů: the check says so."""
    builtin = ImageFont.load_default(size=TEXT)
    assert isinstance(builtin, ImageFont.FreeTypeFont)
    assert {"ő", "ű", "ě", "ř", "ů"} <= set(missing(builtin, ALPHABETS))
