"""Leader 1's pacts (docs/alliances.md): **no chase** (B.3, the peloton's pursuit) and **relay**
(C.1, slipstreaming), read with the engine's own ride matching and slipstream."""

from __future__ import annotations

from rules.action import Action
from rules.i18n import N_
from rules.leader1 import actions, family
from rules.leader1.game_kit import piece_name
from rules.leader1.model import State
from rules.leader1.moves import ride_options
from rules.leader1.pacts_kit import no_chase, peloton_row, relay
from rules.pacts import PactKind, Pacts


def slipstream_after(state: State, rider_id: str, action: Action) -> State:
    """The riders after ``rider_id`` rides ``action``'s option, as C.1 leaves the one right behind its
    starting square (``family.give_slipstream`` with the ruleset's cut, as ``ride.resolve`` calls it)."""
    option = actions.match(state, rider_id, action, ride_options, breakaway=False)
    rider = state.rider(rider_id)
    assert rider.row is not None
    cut = state.setup.ruleset.slipstream_cut[state.setup.road.terrain(rider.row)]
    return family.give_slipstream(state, rider.row, rider.lane or 0, option.squares, cut)


PACTS: Pacts[State] = Pacts(
    kinds=(
        PactKind(
            "no-chase",
            N_("no chase"),
            "B.3",
            N_("A member who leads the peloton does not declare the pursuit (+1) while an ally's rider is away."),
            no_chase(piece_name),
        ),
        PactKind(
            "relay",
            N_("relay"),
            "C.1",
            N_(
                "A member's rider with an ally's rider right behind it moves short enough that the ally keeps "
                "the slipstream."
            ),
            relay(piece_name, slipstream_after),
        ),
    ),
    row=peloton_row,
)
