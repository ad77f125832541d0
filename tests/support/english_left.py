"""English left in text a player reads in another language (issue 27): the words of the games'
narration, prompts and choices that a translation never keeps. Names (players, AI seats, courses)
and `code` (what a player types) are not words to translate and are taken out first."""

from __future__ import annotations

import re
from collections.abc import Iterable

ENGLISH = frozenset(
    """
    the and your you is with of to turn rider riders energy car cars gear lap laps round move moves speed
    hexagon hexagons card cards wind cyclist cyclists falls fall fell finished finishes racing choose pick
    picking left points point place out brake braking blocked overshoot slipstream slipstreams pits team time
    trial jersey mountains still rest free keep dial set sets drives spins stalls loses leaves crosses takes
    rides stands starts line race order starting draft waiting lying standing then behind right decide may
    rolled rolls stop where it its at for from over each every highest furthest clean never take last
    until up uphill bonus checkpoint overdrawn past north east south west shipped course circuit not one
    red blue green yellow grey white black orange
    """.split()  # noqa: SIM905 - a paragraph of words reads better than a list of 120 strings
)
# words a language has of its own that are also English words above
OWN = {"hu": frozenset({"is"}), "cs": frozenset({"to"})}


def english_words(line: str, language: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``line`` (names and `code` taken out), for a line in ``language``."""
    text = re.sub(r"`[^`]*`", " ", line)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    words = re.findall(r"[A-Za-z]+", text)
    return [w for w in words if w.lower() in ENGLISH and w.lower() not in OWN.get(language, frozenset())]


def untranslated(lines: Iterable[str], language: str, names: Iterable[str] = ()) -> list[str]:
    """The lines with English left in them, each with its English words, at most 20."""
    names = list(names)
    found = []
    for line in dict.fromkeys(lines):
        words = english_words(line, language, names)
        if words:
            found.append(f"{line!r}: {sorted(set(words))}")
    return found[:20]
