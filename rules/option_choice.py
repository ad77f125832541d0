"""A race option that is one of a few named readings of a rule (Formula Dé Mini's ``pit_exit``,
Peloton's ``time_bonuses``): the lobby's choice, the record's value, the line of ``/race status``.

The first reading is the default, what a record without the option means; a new race writes the
option only when the host chooses it, so the records made before the option keep their meaning."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.errors import MalformedRecord
from rules.game import RaceOption
from rules.i18n import _


@dataclass(frozen=True)
class OptionChoice:
    """``readings``: each value (an id, as the record writes it) with its words (marked with ``N_``)."""

    name: str
    title: str  # the option's name as players read it, marked with N_
    about: str  # what /race option's autocomplete says of it, marked with N_
    readings: Mapping[str, str]

    @property
    def default(self) -> str:
        return next(iter(self.readings))

    def lobby_value(self, typed: str) -> str:
        """What the host typed as the record's value; ValueError says what may be chosen."""
        value = typed.strip().lower()
        if value not in self.readings:
            choices = ", ".join(f"{v} ({_(words)})" for v, words in self.readings.items())
            raise ValueError(
                _(
                    "{option}: one of {choices}; {typed} is not one.",
                    option=_(self.title),
                    choices=choices,
                    typed=repr(typed[:40]),
                )
            )
        return value

    def race_option(self) -> RaceOption:
        return RaceOption(
            self.name,
            self.about,
            tuple(self.readings),
            self.lobby_value,
            usual=self.default,
            label=self.title,
            labels=tuple(self.readings.items()),
        )

    def of_record(self, options: Mapping[str, object]) -> str:
        """The record's value (the default when it has none); MalformedRecord when it is not a reading."""
        value = options.get(self.name, self.default)
        if value not in self.readings:
            raise MalformedRecord(
                f"$.options.{self.name}", f"expected one of {', '.join(self.readings)}, got {str(value)[:40]!r}"
            )
        return str(value)

