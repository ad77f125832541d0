"""The starting order "according to a chosen rule" (rulings R-PEL-START-ORDER).

The record's option ``start_order`` names the rule: ``seats`` (the lobby's seats in turn, each
team's first cyclist, then the seconds, then the thirds; what a record without the option
means), ``drawn`` (lots drawn from the record's ``seed``: what a new race uses) or ``standings``
(a league leg: the overall classification, the leader at the front of a leg race's start area
and starting last in a time trial; cyclists without a place, as in the first leg, count as
the last placed, among themselves by lot). A team time trial orders whole teams: by seats, by
lot, or by each team's best-placed cyclist.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.errors import MalformedRecord
from rules.game import Envelope
from rules.i18n import N_, _
from rules.rng import Dice, Die

RULES = ("seats", "drawn", "standings")
ABOUT = {
    "seats": N_("the lobby's seats in turn"),
    "drawn": N_("lots drawn from the race's seed"),
    "standings": N_("the overall classification (a league's legs)"),
}
TITLE = N_("starting order")  # the option's name as players read it
DEFAULT = "drawn"  # what a new race writes into its record (the lobby, sims)
LOBBY = ("drawn", "seats")  # what a lobby's host may choose (standings are a league's)
LEAGUE = "standings"  # what a league's leg writes
RECORD_DEFAULT = "seats"  # what a record without the option means (every record before the option)
NO_PLACE = 10**6
GC_PREFIX = "gc"  # a league seat carries its cyclists' places as gc1, gc2, gc3 beside the energy by slot


def rule_of(options: Mapping[str, object]) -> str:
    rule = options.get("start_order", RECORD_DEFAULT)
    if rule not in RULES:
        raise MalformedRecord("$.options.start_order", f"expected one of {', '.join(RULES)}, got {str(rule)[:40]!r}")
    return str(rule)


LOTS = "lots"  # the die of the draw: a record's ``dice.lots`` scripts it (a running race's export)


def lobby_value(typed: str) -> str:
    """The host's choice in the lobby as the record's option; ValueError says what may be chosen."""
    value = typed.strip().lower()
    if value not in LOBBY:
        choices = ", ".join(f"{v} ({_(ABOUT[v])})" for v in LOBBY)
        if value == "standings":
            raise ValueError(
                _(
                    "{option}: one of {choices}; {typed} is not one "
                    "(standings: only a league's legs start by the overall classification).",
                    option=_(TITLE),
                    choices=choices,
                    typed=repr(typed[:40]),
                )
            )
        raise ValueError(
            _(
                "{option}: one of {choices}; {typed} is not one.",
                option=_(TITLE),
                choices=choices,
                typed=repr(typed[:40]),
            )
        )
    return value


def _drawn(units: list[list[str]], dice: Dice) -> tuple[list[list[str]], Dice]:
    """Fisher-Yates with the record's seeded dice: the same seed (or script), the same lots."""
    out = list(units)
    for i in range(len(out) - 1, 0, -1):
        j, dice = dice.roll(Die(LOTS, tuple(range(i + 1))))
        if type(j) is not int or not 0 <= j <= i:
            raise MalformedRecord(f"$.dice.{LOTS}", f"a lot for the start order is 0 to {i}, got {str(j)[:20]!r}")
        out[i], out[j] = out[j], out[i]
    return out, dice


def starting_order(
    rule: str, teams: Sequence[Sequence[str]], *, discipline: str, dice: Dice, places: Mapping[str, int]
) -> tuple[list[str], tuple[int, ...]]:
    """The cyclists' numbers in starting order (the start area from the line backwards in a leg race,
    the order of the starts and of the card draft in time trials) and the lots drawn for it.
    ``teams`` are the players' cyclists in seat order; ``places`` a cyclist's overall place."""
    units = [list(t) for t in teams] if discipline == "ttt" else [[t[k]] for k in range(3) for t in teams if k < len(t)]
    if rule in ("drawn", "standings"):
        units, dice = _drawn(units, dice)
    if rule == "standings":
        units.sort(key=lambda unit: min((places.get(cid, NO_PLACE) for cid in unit), default=NO_PLACE))
        if discipline != "leg":
            units.reverse()  # the leader starts last
    lots = tuple(int(v) for name, v in dice.history if name == LOTS)
    return [cid for unit in units for cid in unit], lots


def dice_of(envelope: Envelope, seed: object) -> Dice:
    """The record's dice for the draw: its seed, and the ``lots`` script of an export if any."""
    if type(seed) is not int:
        raise MalformedRecord("$.seed", "expected an integer seed")
    script: dict[str, list[int | str]] = {}
    for name, values in dict(envelope.get("dice") or {}).items():
        if name != LOTS:
            raise MalformedRecord(f"$.dice.{name}", f"unknown die; Peloton's only die is {LOTS} (the start order)")
        if not isinstance(values, list):
            raise MalformedRecord(f"$.dice.{name}", "expected a list of outcomes")
        script[name] = values
    return Dice.new(seed, script)


def league_places(first: int, slots: Sequence[str], ranked: Sequence[str]) -> dict[str, int]:
    """A league seat's carried places: ``gc<slot>`` -> the overall place of that slot's cyclist
    (``first`` is the team's first number; ``ranked`` the classification's cyclists, leader first)."""
    where = {cid: i + 1 for i, cid in enumerate(ranked)}
    return {f"{GC_PREFIX}{k}": where[cid] for k in slots if (cid := str(first + int(k) - 1)) in where}


def split_carry(carry: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """A seat's carry as the record writes it: energy by slot (-5 to +5) and places by slot."""
    energy = {k: max(-5, min(5, v)) for k, v in carry.items() if not k.startswith(GC_PREFIX)}
    places = {k.removeprefix(GC_PREFIX): v for k, v in carry.items() if k.startswith(GC_PREFIX)}
    return energy, places
