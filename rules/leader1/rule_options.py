"""Race options of the Leader 1 family for rulings players may want either way (issue 41): the host
picks one with /race option, the record keeps it under ``options``, and a record without it means
the first value, the ruling's own reading (docs/rulings.md names each option's ruling)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.game import RaceOption
from rules.i18n import N_, _


def choice_option(name: str, label: str, about: str, labels: Mapping[str, str]) -> RaceOption:
    """An option with a few named values, the first the one a record without it means."""
    values = tuple(labels)

    def value(typed: str) -> str:  # an id or its words in the reader's language, as the id
        said = typed.strip().casefold()
        chosen = next((v for v in values if said in (v, option.shown_value(v).casefold())), None)
        if chosen is None:
            every = ", ".join(option.shown_value(v) for v in values)
            raise ValueError(_("{option}: one of {values}.", option=option.shown_name(), values=every))
        return chosen

    option = RaceOption(name, about, values, value, label=label, labels=tuple(labels.items()), usual=values[0])
    return option


DROP = choice_option(
    "drop",
    N_("dropping on purpose"),
    N_("a rider dropped on purpose pays for the peloton's move (usual) or leaves before it and pays nothing"),
    {"pays": N_("pays with the peloton"), "leaves": N_("leaves before the move")},
)
BOXED_IN = choice_option(
    "boxed_in",
    N_("boxed in"),
    N_("a rider with no free square ahead stands still (usual) or rides through, +1 energy a square"),
    {"stands": N_("stands still"), "rides-through": N_("rides through")},
)
PELOTON_BONUS = choice_option(
    "peloton_bonus",
    N_("bonus the peloton crosses"),
    N_("a time bonus the peloton crosses first is lost (usual) or goes to the peloton's first rider"),
    {"lost": N_("nobody gets it"), "first-rider": N_("to the peloton's first rider")},
)
WEATHER_REVEAL = choice_option(
    "weather_reveal",
    N_("weather turned up"),
    N_("a weather marker turned face up acts from the next move (usual) or at once, on the move that reveals it"),
    {"next-move": N_("from the next move"), "at-once": N_("at once, mid-move")},
)
