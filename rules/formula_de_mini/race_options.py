"""Formula Dé Mini's race options the host chooses in the lobby (/race option)."""

from __future__ import annotations

from rules.i18n import N_
from rules.option_choice import OptionChoice

# Exit Procedure: "the driver can (if he wishes) immediately exit (on the same turn as he arrived) the
# pit stand in 3rd gear" -- leaving the stand ends the turn, or the car also drives (rulings R-FDM-PIT)
PIT_EXIT = OptionChoice(
    "pit_exit",
    N_("pit exit"),
    N_(
        "a car leaving its pit stand: next-turn (it drives off on its next turn, the default) "
        "or at-once (it drives off the same turn)"
    ),
    {
        "next-turn": N_("a car leaving its pit stand drives off on its next turn"),
        "at-once": N_("a car leaving its pit stand drives off the same turn"),
    },
)
