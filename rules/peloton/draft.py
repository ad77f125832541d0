"""The time-trial card draft as players read it on the lobby message (rulings R-PEL-CARDS).

Once the host starts the race the starting order is fixed; each cyclist, in that order, takes
one of the 13 cards (``card`` actions, the race's first decisions). These lines are the draft:
the starting order with each cyclist's card, the cards left with E / t / W in words, and the
wind those left make. Nothing here is hidden: the cards lie face up, and the wind is read from
the two that remain.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.peloton.cards import card, wind_of
from rules.peloton.engine import cards_left
from rules.peloton.model import State
from rules.peloton.words import DISCIPLINE_NAMES, WIND_NAMES


def drafting(state: State) -> bool:
    return state.phase == "cards"


def _name(state: State, cid: str) -> str:
    return f"No. {cid} ({state.cyclist(cid).team})"


def _starts(state: State, cid: str) -> str:
    return f"starts move {state.cyclist(cid).start_round}"


def lines(state: State, name: Callable[[str], str]) -> list[str]:
    """The draft: the starting order and each cyclist's card, the cards left, the wind."""
    picking = state.card_queue[0] if state.card_queue else None
    out = [
        f"Card draft: {DISCIPLINE_NAMES[state.discipline]}, {state.course.name}. "
        "The starting order was fixed when the host started the race; each cyclist takes one card, in that order.",
        "**Starting order**",
    ]
    for i, c in enumerate(state.cyclists):
        head = f"{i + 1}. {_name(state, c.id)}, {name(c.player)}, {_starts(state, c.id)}"
        if c.card is not None:
            out.append(f"{head}: card {c.card} ({card(c.card).words})")
        elif c.id == picking:
            out.append(f"{head}: **picking now**")
        else:
            out.append(head)
    left = cards_left(state)
    out.append("**Cards left** (E: energy added to the ride; t: seconds added to the finish time; W: the wind value)")
    out += [f"card {n}: {card(n).words}" for n in left]
    fixed = state.setup.options.get("wind")
    if isinstance(fixed, int):
        out.append(f"Wind: set for this race, {WIND_NAMES.get(fixed, 'no wind')}.")
    elif left:
        last_two = sorted(left)[-2:]
        total = " + ".join(str(card(n).wind) for n in last_two)
        out.append(
            "Wind: the W of the two highest-numbered cards left when the draft ends; as it stands, cards "
            f"{' and '.join(str(n) for n in last_two)} ({total}): {WIND_NAMES[wind_of(left)]}."
        )
    return out
