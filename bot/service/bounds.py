"""The whole numbers commands take, and their ranges: the Discord layer declares them on its slash
commands (``app_commands.Range``), and the service refuses a number outside them itself, whatever
the caller (a script, a test, a web form), before it reaches a database column (issue 42)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.common import Refusal
from rules.i18n import _, pgettext

OPTION_NAME = "option name"  # the catalogs' context of a command option's name (bot/discord_layer/translator.py)


@dataclass(frozen=True)
class Bounds:
    """A command option's name as typed, and the numbers it takes."""

    option: str
    low: int
    high: int

    def check(self, value: int | None) -> None:
        """Refuse ``value`` in one line when it is given and out of range."""
        if value is not None and not self.low <= value <= self.high:
            option = pgettext(OPTION_NAME, self.option)  # as the person's client shows the option
            raise Refusal(
                _("{option}: a whole number from {low} to {high}.", option=option, low=self.low, high=self.high)
            )


ORDER_NUMBER = Bounds("number", 0, 99)  # /race order
ORDER_UNTIL = Bounds("until_number", 1, 99)  # /race order
RECAP_TURNS = Bounds("turns", 1, 500)  # /race recap
MINE_PAGE = Bounds("page", 1, 100)  # /race mine
PIECES = Bounds("pieces", 1, 12)  # /race new, /league create (each game narrows it)
CLOCK_HOURS = Bounds("clock", 1, 672)  # /race new: hours of a time bank
LEAGUE_HOUR = Bounds("hour", 0, 23)  # /league create
LEAGUE_STAGE = Bounds("stage", 1, 50)  # /league results
RACE_NUMBER = Bounds("race", 1, 2**53)  # /race resume: a race's id
