"""Typed errors named by their cause. Every message says what was wrong and what is allowed."""

from __future__ import annotations


class DomestiqueError(Exception):
    """Base of every error the rules raise on purpose."""


class IllegalAction(DomestiqueError):
    """An action that the rules do not allow in this state."""


class NotYourTurn(IllegalAction):
    """The action comes from a player who is not the one to act now."""


class WrongPhase(IllegalAction):
    """The action does not belong to the current phase of the turn."""


class RaceOver(IllegalAction):
    """The race is finished; no more actions are accepted."""


class MalformedRecord(DomestiqueError):
    """A record (or setup) that is not valid; ``path`` is the JSON path of the problem."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class InvalidSetup(MalformedRecord):
    """A race setup that breaks a preparation rule (players, riders, route)."""


class UnknownTrack(MalformedRecord):
    """A track name that is not shipped in data/."""


def reason(exc: BaseException) -> str:
    """What went wrong as a player reads it: a record error's message without its JSON path ("$.track")."""
    return exc.message if isinstance(exc, MalformedRecord) else str(exc)
