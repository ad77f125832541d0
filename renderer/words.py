"""The boards' own short words for the games' states, in the language of the moment (``rules.i18n``).

A board names a rider's state, type and quality, a race's phase and a stretch's terrain in a word
or a letter; the rules keep these as ids (``"punctured"``, ``"descent"``), which are no player's
words. Each is translated where it is drawn, with the ``board`` contexts: the same English word
said in a menu or a sentence may need another translation than on a board's tag.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.i18n import pgettext

# each table translates only the word looked up (a board looks up a few hundred)
_PHASE: dict[str, Callable[[], str]] = {
    "placing": lambda: pgettext("board phase", "placing"),
    "breakaways": lambda: pgettext("board phase", "breakaways"),
    "dropped": lambda: pgettext("board phase", "dropped"),
    "breaking-away": lambda: pgettext("board phase", "breaking-away"),
    "positioning": lambda: pgettext("board phase", "positioning"),
    "pursuit": lambda: pgettext("board phase", "pursuit"),
    "finished": lambda: pgettext("board phase", "finished"),
}

_RIDER_STATE: dict[str, Callable[[], str]] = {
    "breakaway": lambda: pgettext("board", "away"),
    "peloton": lambda: pgettext("board", "peloton"),
    "dropped": lambda: pgettext("board", "dropped"),
    "fallen": lambda: pgettext("board", "fell"),
    "punctured": lambda: pgettext("board", "flat"),
    "finished": lambda: pgettext("board", "arrived"),
    "eliminated": lambda: pgettext("board", "out"),
    "front": lambda: pgettext("board", "front"),
    "back": lambda: pgettext("board", "back"),
}

_BADGE: dict[str, Callable[[], str]] = {
    "dropped": lambda: pgettext("board badge: dropped", "D"),
    "punctured": lambda: pgettext("board badge: punctured", "P"),
    "fallen": lambda: pgettext("board badge: fell", "X"),
}

_RIDER_KIND: dict[str, Callable[[], str]] = {
    "rouleur": lambda: pgettext("board", "rouleur"),
    "leader": lambda: pgettext("board", "leader"),
    "climber": lambda: pgettext("board", "climber"),
}

_QUALITY: dict[str, Callable[[], str]] = {
    "descent": lambda: pgettext("board", "desc"),
    "sprint": lambda: pgettext("board", "sprint"),
    "attack": lambda: pgettext("board", "attack"),
}

_TERRAIN: dict[str, Callable[[], str]] = {
    "P": lambda: pgettext("board", "plain"),
    "R": lambda: pgettext("board", "rise"),
    "M": lambda: pgettext("board", "pass"),
    "D": lambda: pgettext("board", "downhill"),
}

_TEAM: dict[str, Callable[[], str]] = {
    "yellow": lambda: pgettext("board team", "yellow"),
    "blue": lambda: pgettext("board team", "blue"),
    "green": lambda: pgettext("board team", "green"),
    "white": lambda: pgettext("board team", "white"),
    "black": lambda: pgettext("board team", "black"),
    "red": lambda: pgettext("board team", "red"),
    "orange": lambda: pgettext("board team", "orange"),
    "grey": lambda: pgettext("board team", "grey"),
}


def phase(name: str) -> str:
    """A Leader 1 / Hell of the North phase, as the header names it (``breakaways``)."""
    word = _PHASE.get(name)
    return word() if word is not None else name


def rider_state(status: str) -> str:
    """A rider's state in one short word (``away``: in a breakaway; ``flat``: punctured)."""
    word = _RIDER_STATE.get(status)
    return word() if word is not None else status


def badge(status: str) -> str:
    """The letter of a rider's badge (dropped, punctured, fallen); the legend says what it means."""
    word = _BADGE.get(status)
    return word() if word is not None else ""


def rider_kind(kind: str) -> str:
    """A rider's type as the legend names it."""
    word = _RIDER_KIND.get(kind)
    return word() if word is not None else kind


def quality(name: str) -> str:
    """A rider's quality, short (``desc``: descent)."""
    word = _QUALITY.get(name)
    return word() if word is not None else ""


def terrain(letter: str) -> str:
    """A stretch's terrain where it changes (P plain, R rise, M pass, D downhill)."""
    word = _TERRAIN.get(letter)
    return word() if word is not None else letter


def team(colour: str) -> str:
    """A team by its colour."""
    word = _TEAM.get(colour)
    return word() if word is not None else colour
