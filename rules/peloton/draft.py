"""The time-trial card draft as players read it on the lobby message (rulings R-PEL-CARDS).

Once the host starts the race the starting order is fixed; each cyclist, in that order, takes
one of the 13 cards (``card`` actions, the race's first decisions). These lines are the draft:
the starting order with each cyclist's card, the cards left with E / t / W in words, and the
wind those left make. Nothing here is hidden: the cards lie face up, and the wind is read from
the two that remain.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.i18n import _
from rules.peloton.cards import card, wind_of
from rules.peloton.engine import cards_left
from rules.peloton.model import State
from rules.peloton.words import cyclist_name, discipline_name, wind_name


def drafting(state: State) -> bool:
    return state.phase == "cards"


def _name(state: State, cid: str) -> str:
    return cyclist_name(cid, state.cyclist(cid).team)


def lines(state: State, name: Callable[[str], str]) -> list[str]:
    """The draft: the starting order and each cyclist's card, the cards left, the wind."""
    picking = state.card_queue[0] if state.card_queue else None
    out = [
        _(
            "Card draft: {discipline}, {course}. The starting order was fixed when the host started the race; "
            "each cyclist takes one card, in that order.",
            discipline=discipline_name(state.discipline),
            course=state.course.name,
        ),
        _("**Starting order**"),
    ]
    for i, c in enumerate(state.cyclists):
        head = _(
            "{place}. {cyclist}, {owner}, starts move {round}",
            place=i + 1,
            cyclist=_name(state, c.id),
            owner=name(c.player),
            round=c.start_round,
        )
        if c.card is not None:
            out.append(_("{line}: card {card} ({words})", line=head, card=c.card, words=card(c.card).words))
        elif c.id == picking:
            out.append(_("{line}: **picking now**", line=head))
        else:
            out.append(head)
    left = cards_left(state)
    out.append(
        _("**Cards left** (E: energy added to the ride; t: seconds added to the finish time; W: the wind value)")
    )
    out += [_("card {card}: {words}", card=n, words=card(n).words) for n in left]
    fixed = state.setup.options.get("wind")
    if isinstance(fixed, int):
        out.append(_("Wind: set for this race, {wind}.", wind=wind_name(fixed if fixed in range(5) else 0)))
    elif left:
        last_two = sorted(left)[-2:]
        total = " + ".join(str(card(n).wind) for n in last_two)
        if len(last_two) == 2:
            out.append(
                _(
                    "Wind: the W of the two highest-numbered cards left when the draft ends; as it stands, cards "
                    "{a} and {b} ({total}): {wind}.",
                    a=last_two[0],
                    b=last_two[1],
                    total=total,
                    wind=wind_name(wind_of(left)),
                )
            )
        else:
            out.append(
                _(
                    "Wind: the W of the two highest-numbered cards left when the draft ends; as it stands, cards "
                    "{a} ({total}): {wind}.",
                    a=last_two[0],
                    total=total,
                    wind=wind_name(wind_of(left)),
                )
            )
    return out
