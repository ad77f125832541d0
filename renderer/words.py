"""The boards' own short words for the games' states, in the language of the moment (``rules.i18n``).

A board names a rider's state, type and quality, a race's phase and a stretch's terrain in a word
or a letter; the rules keep these as ids (``"punctured"``, ``"descent"``), which are no player's
words. Each is translated where it is drawn, with the ``board`` contexts: the same English word
said in a menu or a sentence may need another translation than on a board's tag.
"""

from __future__ import annotations

from rules.i18n import pgettext


def phase(name: str) -> str:
    """A Leader 1 / Hell of the North phase, as the header names it (``breakaways``)."""
    return {
        "placing": pgettext("board phase", "placing"),
        "breakaways": pgettext("board phase", "breakaways"),
        "dropped": pgettext("board phase", "dropped"),
        "breaking-away": pgettext("board phase", "breaking-away"),
        "positioning": pgettext("board phase", "positioning"),
        "pursuit": pgettext("board phase", "pursuit"),
        "finished": pgettext("board phase", "finished"),
    }.get(name, name)


def rider_state(status: str) -> str:
    """A rider's state in one short word (``away``: in a breakaway; ``flat``: punctured)."""
    return {
        "breakaway": pgettext("board", "away"),
        "peloton": pgettext("board", "peloton"),
        "dropped": pgettext("board", "dropped"),
        "fallen": pgettext("board", "fell"),
        "punctured": pgettext("board", "flat"),
        "finished": pgettext("board", "arrived"),
        "eliminated": pgettext("board", "out"),
        "front": pgettext("board", "front"),
        "back": pgettext("board", "back"),
    }.get(status, status)


def badge(status: str) -> str:
    """The letter of a rider's badge (dropped, punctured, fallen); the legend says what it means."""
    return {
        "dropped": pgettext("board badge: dropped", "D"),
        "punctured": pgettext("board badge: punctured", "P"),
        "fallen": pgettext("board badge: fell", "X"),
    }.get(status, "")


def rider_kind(kind: str) -> str:
    """A rider's type as the legend names it."""
    return {
        "rouleur": pgettext("board", "rouleur"),
        "leader": pgettext("board", "leader"),
        "climber": pgettext("board", "climber"),
    }.get(kind, kind)


def quality(name: str) -> str:
    """A rider's quality, short (``desc``: descent)."""
    return {
        "descent": pgettext("board", "desc"),
        "sprint": pgettext("board", "sprint"),
        "attack": pgettext("board", "attack"),
    }.get(name, "")


def terrain(letter: str) -> str:
    """A stretch's terrain where it changes (P plain, R rise, M pass, D downhill)."""
    return {
        "P": pgettext("board", "plain"),
        "R": pgettext("board", "rise"),
        "M": pgettext("board", "pass"),
        "D": pgettext("board", "downhill"),
    }.get(letter, letter)


def team(colour: str) -> str:
    """A team by its colour."""
    return {
        "yellow": pgettext("board team", "yellow"),
        "blue": pgettext("board team", "blue"),
        "green": pgettext("board team", "green"),
        "white": pgettext("board team", "white"),
        "black": pgettext("board team", "black"),
        "red": pgettext("board team", "red"),
        "orange": pgettext("board team", "orange"),
        "grey": pgettext("board team", "grey"),
    }.get(colour, colour)
