"""Which language a page is read in: the one the viewer picked (``?lang=hu``), else the first of their
browser's (``Accept-Language``) that Domestique speaks, else English."""

from __future__ import annotations

from aiohttp import web

from rules.i18n import LANGUAGES, SOURCE, Language

NAMES: dict[Language, str] = {"en": "English", "hu": "magyar", "cs": "čeština"}  # each in its own language


def _known(tag: str) -> Language | None:
    wanted = tag.strip().split("-")[0].split(";")[0].strip().lower()
    return next((language for language in LANGUAGES if language == wanted), None)


def picked(request: web.Request) -> bool:
    """Whether the address names the page's language (then the answer does not depend on a header)."""
    return _known(request.query.get("lang", "")) is not None


def language_of(request: web.Request) -> Language:
    picked = _known(request.query.get("lang", ""))
    if picked is not None:
        return picked
    offered: list[tuple[float, int, Language]] = []
    for n, part in enumerate(request.headers.get("Accept-Language", "")[:200].split(",")):
        tag, _, weight = part.partition(";q=")
        known = _known(tag)
        try:
            quality = float(weight) if weight else 1.0
        except ValueError:
            quality = 0.0
        if known is not None and quality > 0:
            offered.append((-quality, n, known))
    return min(offered)[2] if offered else SOURCE
