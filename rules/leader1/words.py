"""The Leader 1 family's own words in the language of the moment: riders' colours and types, the
phases, a rider's status, the peloton's parts, the qualities, the dice's coloured faces.

Ids (``yellow-rouleur``, ``breaking-away``, ``orange-4``) stay the record's; these turn them into
what players read. Each word is looked up when shown (a rider's name is kept per language), so no language
leaks into another.
"""

from __future__ import annotations

from functools import cache

from rules.i18n import _, current, pgettext


def colour(team: str) -> str:
    """A team's colour as the adjective before a rider type ("yellow" rouleur)."""
    words = {
        "yellow": pgettext("rider colour", "yellow"),
        "blue": pgettext("rider colour", "blue"),
        "green": pgettext("rider colour", "green"),
        "white": pgettext("rider colour", "white"),
        "black": pgettext("rider colour", "black"),
        "orange": pgettext("rider colour", "orange"),
        "red": pgettext("rider colour", "red"),
        "grey": pgettext("rider colour", "grey"),
    }
    return words.get(team, team)


def typed_colour(team: str) -> str:
    """A colour as a player may type it: its name in the language of the moment ("sárga"; the service
    takes the name or the id, ``bot/service/colours.py``)."""
    return colour(team)


def kind(rider_type: str) -> str:
    """A rider type: rouleur, leader, climber."""
    words = {
        "rouleur": pgettext("rider type", "rouleur"),
        "leader": pgettext("rider type", "leader"),
        "climber": pgettext("rider type", "climber"),
    }
    return words.get(rider_type, rider_type)


def rider(team: str, rider_type: str) -> str:
    """A rider as players know it: its team colour and type ("yellow rouleur")."""
    return _rider_in(current(), team, rider_type)


@cache
def _rider_in(language: str, team: str, rider_type: str) -> str:
    """``rider`` in ``language`` (the language of the moment: the key keeps the languages apart); named
    dozens of times per decision (every choice names its rider), made once per language."""
    return _("{colour} {kind}", colour=colour(team), kind=kind(rider_type))


def rider_id(rider_id: str) -> str:
    """A rider from its id alone (``yellow-rouleur``), in words; an id of another form as it is, spaced."""
    team, _sep, rider_type = rider_id.partition("-")
    if rider_type and "-" not in rider_type:
        return rider(team, rider_type)
    return rider_id.replace("-", " ")


def phase(name: str) -> str:
    """A phase of the turn as the prompt names it."""
    words = {
        "breakaways": pgettext("phase", "breakaways"),
        "breaking-away": pgettext("phase", "breaking-away"),
        "pursuit": pgettext("phase", "pursuit"),
        "dropped": pgettext("phase", "dropped"),
        "placing": pgettext("phase", "placing"),
        "positioning": pgettext("phase", "positioning"),
    }
    return words.get(name, name)


def status(name: str) -> str:
    """Where a rider stands in the race (``/race status``)."""
    words = {
        "peloton": pgettext("rider status", "peloton"),
        "breakaway": pgettext("rider status", "breakaway"),
        "dropped": pgettext("rider status", "dropped"),
        "fallen": pgettext("rider status", "fallen"),
        "punctured": pgettext("rider status", "punctured"),
        "finished": pgettext("rider status", "finished"),
        "eliminated": pgettext("rider status", "eliminated"),
    }
    return words.get(name, name)


def part(name: object) -> str:
    """A part of Hell of the North's peloton: front or back."""
    words = {"front": pgettext("peloton part", "front"), "back": pgettext("peloton part", "back")}
    return words.get(str(name), str(name))


def quality(name: str) -> str:
    """A Hell of the North rider's quality: descent, sprint, attack."""
    words = {
        "descent": pgettext("rider quality", "descent"),
        "sprint": pgettext("rider quality", "sprint"),
        "attack": pgettext("rider quality", "attack"),
    }
    return words.get(name, name)


def risk(name: object) -> str:
    """A risk a move runs: crack or fall."""
    words = {"crack": pgettext("risk", "crack"), "fall": pgettext("risk", "fall")}
    return words.get(str(name), str(name))


def risks(names: list[str]) -> str:
    """The risks of a move together: "crack", "fall" or "crack and fall"."""
    if len(names) >= 2:
        return _("crack and fall")
    return risk(names[0]) if names else ""


def face(value: object) -> str:
    """A die's face: a number, or a coloured 4 (``orange-4`` is an orange 4)."""
    words = {
        "yellow-4": pgettext("die face", "yellow 4"),
        "blue-4": pgettext("die face", "blue 4"),
        "orange-4": pgettext("die face", "orange 4"),
        "red-4": pgettext("die face", "red 4"),
        "red": pgettext("die face", "red"),
    }
    return words.get(str(value), str(value).replace("-", " "))


def need(value: object) -> str:
    """What a risk's roll needs: a number, or Hell of the North's words for it (``4 or 5``)."""
    words = {
        "4 or 5": pgettext("risk need", "4 or 5"),
        "a yellow or blue 4": pgettext("risk need", "a yellow or blue 4"),
    }
    return words.get(str(value), str(value))


def reason(text: object) -> str:
    """Why a rider was dropped or eliminated, as the event says it."""
    words = {
        "chosen": pgettext("reason", "chosen"),
        "cannot pay": pgettext("reason", "cannot pay"),
        "too far behind the peloton": pgettext("reason", "too far behind the peloton"),
        "too long after the winner": pgettext("reason", "too long after the winner"),
    }
    return words.get(str(text), str(text))


def cobbles(result: object) -> str:
    """What a roll on the cobbles came to: fall or puncture (or safe)."""
    words = {
        "fall": pgettext("cobbles", "fall"),
        "puncture": pgettext("cobbles", "puncture"),
        "safe": pgettext("cobbles", "safe"),
    }
    return words.get(str(result), str(result))
