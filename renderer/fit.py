"""Text fitted to the room a painter has for it: a board keeps every line in every language (issue 38).

A string too wide for its room is noted to ``renderer.layout`` (``lost``), so a recording test sees it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from renderer import layout
from renderer.text import text_length
from rules.i18n import pgettext


def clipped(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to ``width`` px (noted as lost when it is cut)."""
    if text_length(text, size, bold) <= width:
        return text
    layout.lost("cut", text)
    while text and text_length(text, size, bold) > width:
        text = text[:-2] + "…"
    return text


def largest(text: str, width: float, size: int, floor: int, bold: bool = False) -> int | None:
    """The largest size from ``size`` down to ``floor`` at which ``text`` is at most ``width`` px wide
    (None: not even at ``floor``)."""
    for candidate in range(size, floor - 1, -1):
        if text_length(text, candidate, bold) <= width:
            return candidate
    return None


def wrapped(text: str, width: float, size: int, bold: bool = False) -> list[str]:
    """``text`` on as many lines of at most ``width`` px as it needs, broken between words; a word
    wider than a line alone is broken between its letters (nothing is left out)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_length(f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while text_length(word, size, bold) > width and len(word) > 1:
            cut = max(1, next(k for k in range(len(word), 0, -1) if text_length(word[:k], size, bold) <= width))
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines


def split_in_two(text: str, width: float, size: int, bold: bool = False, at: str = " · ") -> tuple[str, str] | None:
    """``text`` broken at one ``at`` into two lines each at most ``width`` px wide, the break that
    leaves the longer line shortest (None when no break does)."""
    parts = text.split(at)
    best: tuple[float, tuple[str, str]] | None = None
    for k in range(1, len(parts)):
        pair = (at.join(parts[:k]), at.join(parts[k:]))
        widest = max(text_length(line, size, bold) for line in pair)
        if widest <= width and (best is None or widest < best[0]):
            best = (widest, pair)
    return best[1] if best else None


def whole_kept(events: Sequence[Sequence[str]], room: int) -> int:
    """How many of the latest ``events`` (each its wrapped lines) fit whole in ``room`` lines (as
    ``latest_whole`` keeps them, nothing noted)."""
    kept, used = 0, 0
    for event in reversed(events):
        if used + len(event) > room:
            break
        kept, used = kept + 1, used + len(event)
    return kept


def latest_whole(events: list[list[str]], room: int) -> list[str]:
    """The lines of the latest ``events`` (each its wrapped lines) that fit in ``room`` lines, every
    event whole: a later one is never given up for an earlier one, and an event left out is noted
    (``earlier``); none (the newest noted ``dropped``) when not even the newest fits."""
    kept: list[list[str]] = []
    for k, event in enumerate(reversed(events)):
        if sum(map(len, kept)) + len(event) > room:
            for earlier in events[: len(events) - k]:  # not even the newest: a loss
                layout.lost("earlier" if kept else "dropped", " ".join(earlier))
            break
        kept.insert(0, event)
    return [line for event in kept for line in event]


def abbreviated(line: str) -> str:
    """A last-turn line as a panel says it, in the language of the moment: an energy cost without its
    word ("(-15 energy)": "(-15)") and the catalog's short forms of its words (``short_forms``), so a
    turn's events keep to as few lines in Hungarian and Czech as in English (issue 38)."""
    energy = pgettext("board: the word after an energy cost, left out", "energy")
    line = re.sub(rf"\((-?\d+) {re.escape(energy)}\b", r"(\1", line)
    for long, short in short_forms():
        line = long.sub(_said_short(short), line)
    return line.replace(" energy", "")


def short_forms() -> list[tuple[re.Pattern[str], str]]:
    """The wordings a board's last turn says short, from the catalog: "long=short" pairs separated
    by "|", applied in their order, a # standing for a number (English: " squares= sq" and "crossed 3
    on a blocked road" as "crossed 3 blocked"; Hungarian has "eléhezik, és # energiát fizet=eléhezik (-#)")."""
    pairs = pgettext(
        "board: a last-turn line's wordings and their short forms on a board, as long=short pairs "
        "separated by |, in the order they are applied (spaces count; # stands for a number)",
        " squares= sq| on a blocked road= blocked",
    )
    out = []
    for long, _, short in (pair.partition("=") for pair in pairs.split("|")):
        if long:
            pattern = re.escape(long).replace(re.escape("#"), r"(\d+)", 1) if "#" in short else re.escape(long)
            out.append((re.compile(pattern), short))
    return out


def _said_short(short: str) -> Callable[[re.Match[str]], str]:
    """What a short form replaces a match with: its # the number the long one had."""
    return lambda found: short.replace("#", found.group(1)) if found.re.groups else short
