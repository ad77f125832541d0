"""Peloton's race options for rules players may want either way (rulings R-PEL-HEADWIND,
R-PEL-BONUS-POINTS): the host chooses them in the lobby (/race option), the record keeps them."""

from __future__ import annotations

from rules.i18n import N_
from rules.option_choice import OptionChoice

# IV.1 "Headwind causes a lone cyclist or a leading cyclist the loss of 1 point of energy" against V
# "The cyclists gain no advantage from riding tandem in a time-trial!" (R-PEL-HEADWIND)
TRIAL_WIND = OptionChoice(
    "trial_headwind",
    N_("headwind in time trials"),
    N_(
        "in a time trial, is a cyclist right behind another sheltered from a headwind? "
        "alone (no, the default) or sheltered (yes, as in a leg race)"
    ),
    {
        "alone": N_("in a time trial a cyclist pays the headwind even right behind a rival"),
        "sheltered": N_("in a time trial, as in a leg race, a cyclist right behind another pays no headwind"),
    },
)

# III: "4 and 12 4:19:25 (without time bonuses)" (R-PEL-BONUS-POINTS)
TIME_BONUSES = OptionChoice(
    "time_bonuses",
    N_("time bonuses"),
    N_(
        "seconds off a leg's time for the first across the line: none (the default) "
        "or on (10, 6, 4 s at the finish; 3, 2, 1 s at each bonus line)"
    ),
    {
        "none": N_("bonus lines and the finish give points only"),
        "on": N_("10, 6 and 4 seconds off the first three at the finish, 3, 2 and 1 at each bonus line"),
    },
)

OPTIONS = (TRIAL_WIND, TIME_BONUSES)
