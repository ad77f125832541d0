"""Names that people type or bring (display names, league names) made safe to show anywhere.

A name is shown in channel messages (where Discord reads markdown and mentions), in thread
names and in board images. Rather than escape it differently for each, it is cleaned once,
when it enters the bot: characters that markdown or mentions give a meaning to become
spaces, control characters go, runs of spaces shrink to one, and the name is capped. The
same clean name then reads the same in a message, a thread title and a picture
(ruling R-BOT-NAMES in docs/rulings.md).
"""

from __future__ import annotations

import re
import unicodedata

NAME_LIMIT = 32
# markdown (bold, italics, underline, strike, code, spoiler, quotes, headings, lists, links,
# masked links, escapes) and mentions (@everyone, <@id>, <#channel>, <t:…>)
_MEANINGFUL = re.compile(r"[*_~`|>#<@\[\]\\:]")
_SPACES = re.compile(r"\s+")


def clean_name(raw: str, fallback: str = "Player", limit: int = NAME_LIMIT) -> str:
    """``raw`` with every character that Discord would read as markup or a mention removed."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in text)
    text = _MEANINGFUL.sub(" ", text)
    text = _SPACES.sub(" ", text).strip(" -.")
    return text[:limit].strip() or fallback
