"""Hell of the North's pacts (docs/alliances.md): **no chase** and **share the chase** (step 4, the
teams' pursuits) and **relay** (race conditions 1, the slipstream), read with the engine's own
ride matching, slipstream and pursuit rules."""

from __future__ import annotations

from rules.action import Action
from rules.game import Decision
from rules.hell_of_the_north import ride
from rules.hell_of_the_north.model import State
from rules.hell_of_the_north.moves import ride_options
from rules.hell_of_the_north.turn import may_pursue
from rules.i18n import N_, _
from rules.leader1 import actions
from rules.leader1.game_kit import piece_name
from rules.leader1.pacts_kit import no_chase, peloton_row, relay
from rules.pacts import Names, Pact, PactKind, Pacts, Verdict


def slipstream_after(state: State, rider_id: str, action: Action) -> State:
    """The riders after ``rider_id`` rides ``action``'s option, as race conditions 1 leave the one right
    behind its starting square (cut by 6+, 5+ from cobbles, 8+ from a downhill: ``ride._give_slipstream``)."""
    option = actions.match(state, rider_id, action, ride_options, breakaway=False)
    if option.start is None:
        return state
    row, lane = (int(part) for part in option.start.split("."))
    return ride._give_slipstream(state, row, lane, option.squares)


def last_pursuer(state: State, players: tuple[str, ...]) -> str | None:
    """Which of ``players`` sped the peloton up last (None: none of them yet)."""
    for e in reversed(state.events):
        if e.type == "pursued" and e.data.get("player") in players:
            return str(e.data["player"])
    return None


def share_the_chase(state: State, decision: Decision, pact: Pact, action: Action, names: Names) -> Verdict | None:
    """The members take turns at speeding the peloton up: the one who pursued last among them passes
    while an ally may still pursue."""
    if decision.kind != "pursuit" or action.do not in ("pursue", "pass"):
        return None
    allies = pact.allies_of(decision.player)
    if last_pursuer(state, (decision.player, *allies)) != decision.player:
        return None
    ready = next((a for a in allies if may_pursue(state, a)), None)
    if ready is None:
        return None
    words = {"player": names(decision.player), "ally": names(ready)}
    if action.do == "pursue":
        return Verdict(False, ready, _("{player} pursued again when it was {ally}'s turn", **words))
    return Verdict(True, ready, _("{player} left the next pursuit to {ally}", **words))


PACTS: Pacts[State] = Pacts(
    kinds=(
        PactKind(
            "no-chase",
            N_("no chase"),
            "4",
            N_("A member does not speed the peloton up (+1) while an ally's rider is away."),
            no_chase(piece_name),
        ),
        PactKind(
            "share-the-chase",
            N_("share the chase"),
            "4",
            N_("The members speed the peloton up in rotation: who pursued last leaves the next one to an ally."),
            share_the_chase,
        ),
        PactKind(
            "relay",
            N_("relay"),
            "1",
            N_(
                "A member's rider with an ally's rider right behind it moves short enough that the ally keeps "
                "the slipstream."
            ),
            relay(piece_name, slipstream_after),
        ),
    ),
    row=peloton_row,
)
