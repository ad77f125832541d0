"""The steps every game of the Leader 1 family has in common (classic Leader 1 and Hell of the North).

The helpers are generic over the game's own frozen ``Rider`` and ``State`` (subclasses of
``rules.leader1.base``'s): each game keeps its types and passes what differs (its peloton
order, its die, its risk rule, its ride options) as arguments, so no game's branches live here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, TypeVar

from rules.events import Event, event
from rules.i18n import _
from rules.leader1.base import FamilySetup, RiderBase, StateBase
from rules.leader1.feed import Piles, draw
from rules.leader1.model import FEED_COLOUR
from rules.rng import Dice, Die

if TYPE_CHECKING:
    from rules.leader1.ride_option import RideOption


FamilyRider = RiderBase
R = TypeVar("R", bound=RiderBase)
R_co = TypeVar("R_co", bound=RiderBase, covariant=True)
FamilyState = StateBase[FamilySetup, R_co]  # a race state of either game, as the shared steps read it
AnyFamilyState = FamilyState[RiderBase]  # a race of either game, whichever its riders
S = TypeVar("S", bound=AnyFamilyState)


def replace_rider(state: S, rider: FamilyRider) -> S:
    return replace(state, riders=tuple(rider if r.id == rider.id else r for r in state.riders))


def add_events(state: S, events: Iterable[Event]) -> S:
    return replace(state, events=(*state.events, *events))


# ---------------------------------------------------------------- order


def road_key(rider: FamilyRider) -> tuple[int, int]:
    assert rider.row is not None
    return (rider.row, rider.stamp)  # on the same row, whoever got there last is ahead


def classification(state: FamilyState[R], in_peloton: list[R]) -> list[R]:
    """Every rider still racing, first to last: ahead of the peloton, ``in_peloton``, behind it."""
    on_board = [r for r in state.riders if r.racing and r.status != "peloton"]
    ahead = sorted((r for r in on_board if (r.row or 0) > state.peloton), key=road_key, reverse=True)
    behind = sorted((r for r in on_board if (r.row or 0) <= state.peloton), key=road_key, reverse=True)
    return [*ahead, *in_peloton, *behind]


def arrival_order(state: FamilyState[R]) -> list[R]:
    """Finished riders: by turn of arrival, then furthest past the line, then latest there."""
    done = [r for r in state.riders if r.status == "finished"]
    return sorted(done, key=lambda r: (r.arrived_turn or 0, -(r.row or 0), -r.stamp))


def riders_to_ride(state: FamilyState[R], classified: list[R], *, ahead: bool) -> tuple[str, ...]:
    """Riders who ride now, in ``classified`` order: ahead of the peloton, or behind it with the
    punctured ones last. A fallen rider sits out the turn after its fall; a rider the peloton
    left behind rides from the next turn."""
    arrived = state.peloton_arrived_turn is not None
    if ahead and arrived:
        return ()
    ready: list[str] = []
    punctured: list[str] = []
    for r in classified:
        if r.status == "punctured":
            if not ahead and (r.punctured_turn or 0) < state.turn:
                punctured.append(r.id)
        elif r.status in ("breakaway", "dropped") or (r.status == "fallen" and (r.skip_turn or 0) < state.turn):
            if r.status == "dropped" and (r.left_behind_turn or 0) >= state.turn:
                continue
            is_ahead = not arrived and (r.row or 0) > state.peloton
            if is_ahead == ahead:
                ready.append(r.id)
    return (*ready, *punctured)


def skip_stuck(state: S, can_ride: Callable[[S, str], bool]) -> S:
    """Drop from the queue riders with no legal square (a road blocked across that they cannot pay)."""
    while state.queue and state.phase in ("breakaways", "dropped"):
        rid = state.queue[0]
        if can_ride(state, rid):
            break
        state = replace(state, queue=state.queue[1:])
        state = add_events(state, [event(state.turn, "stuck", rider=rid)])
    return state


# ---------------------------------------------------------------- the road behind and around


def behind_peloton(state: AnyFamilyState, lane_hint: int | None = None) -> tuple[int, int]:
    """The first free square behind the peloton, its row and lane (nearest ``lane_hint`` first)."""
    road = state.setup.road
    taken = {r.cell for r in state.riders if r.on_road}
    lanes = list(range(road.lanes))
    if lane_hint is not None:
        lanes.sort(key=lambda lane: abs(lane - lane_hint))
    row = state.peloton - 2
    while row > 0:
        for lane in lanes:
            if f"{row}.{lane}" not in taken:
                return row, lane
        row -= 1
    return 0, lanes[0]


def lose_slipstream_behind(state: S, rider: FamilyRider) -> S:
    """Whoever rides exactly behind a rider who fell or punctured loses its slipstream."""
    behind = f"{(rider.row or 0) - 1}.{rider.lane}"
    for r in state.riders:
        if r.cell == behind and r.slipstream:
            state = replace_rider(state, replace(r, slipstream=False))
    return state


def give_slipstream(state: S, start_row: int, lane: int, squares: int, cut: int) -> S:
    """The rider exactly behind a mover's starting square gets a free square, unless the move was ``cut`` or longer."""
    if squares >= cut:
        return state
    behind = f"{start_row - 1}.{lane}"
    for r in state.riders:
        if r.cell == behind and r.status in ("breakaway", "dropped"):
            return replace_rider(state, replace(r, slipstream=True))
    return state


def crossed(rows: Iterable[int], start_row: int, dest_row: int) -> list[int]:
    """The marked ``rows`` a move from ``start_row`` to ``dest_row`` passes or reaches."""
    return [row for row in rows if start_row < row <= dest_row]


def bonus_rows_won(
    state: AnyFamilyState, start_row: int, dest_row: int, winner: str
) -> tuple[tuple[tuple[int, str], ...], list[int]]:
    """The bonus rows still unclaimed that ``winner`` (a rider, or ``peloton``) claims by this move."""
    won = state.bonus_won
    new: list[int] = []
    for row in crossed(state.setup.road.bonus, start_row, dest_row):
        if all(claimed != row for claimed, _ in won):
            won = (*won, (row, winner))
            new.append(row)
    return won, new


def peloton_arrives(state: S, ordered: Sequence[FamilyRider], events: list[Event]) -> S:
    """The peloton crosses the line: its riders arrive in ``ordered`` order, then the riders
    left behind it who are already past the line."""
    turn = state.turn
    stamp = state.stamp + len(ordered)
    for i, r in enumerate(ordered):
        arrived = replace(r, status="finished", arrived_turn=turn, row=state.peloton, lane=None, stamp=stamp - i)
        state = replace_rider(state, arrived)
        events.append(event(turn, "arrived", rider=r.id, at="peloton"))
    for r in state.riders:
        if r.on_road and (r.row or 0) >= state.setup.road.finish:
            state = replace_rider(state, replace(r, status="finished", arrived_turn=turn))
            events.append(event(turn, "arrived", rider=r.id, at=r.cell))
    return replace(state, stamp=stamp, peloton_arrived_turn=turn)


# ---------------------------------------------------------------- feed zones


def take_tile(
    dice: Dice, piles: Piles, rider: FamilyRider, kept: tuple[int, ...], turn: int, events: list[Event]
) -> tuple[tuple[int, ...], Dice, Piles]:
    """A feed zone: ``rider`` draws a tile of its colour (a ``feed-empty`` event when the pile is out)."""
    colour = FEED_COLOUR[rider.kind]
    value, dice, piles = draw(dice, piles, colour)
    if value is None:
        events.append(event(turn, "feed-empty", rider=rider.id, colour=colour))
        return kept, dice, piles
    events.append(event(turn, "fed", rider=rider.id, kept=len(kept) + 1))
    return (*kept, value), dice, piles


def feed_rider(
    state: AnyFamilyState, rider: FamilyRider, dice: Dice, start_row: int, dest_row: int, events: list[Event]
) -> tuple[tuple[int, ...], Dice, Piles]:
    """Each feed zone a rider's move passes or reaches gives it a tile: what it keeps, the dice, the piles."""
    kept, piles = rider.kept, state.piles
    for _zone in crossed(state.setup.road.feed, start_row, dest_row):
        kept, dice, piles = take_tile(dice, piles, rider, kept, state.turn, events)
    return kept, dice, piles


def feed_peloton(
    state: S,
    riders: Sequence[FamilyRider],
    old: int,
    new: int,
    events: list[Event],
    caught_at: Mapping[str, int] | None = None,
) -> S:
    """Each feed zone the peloton passes gives each of ``riders`` a tile, in that order.

    ``caught_at``: the riders the peloton caught in this move, each with the row it was caught
    on. A zone behind that row the rider passes inside the peloton and is fed there; a zone on
    that row or before it the rider reached on its own ride and drew for then, so never twice
    (rulings.md R-FEED-CAUGHT, R-HOTN-FEED-CAUGHT)."""
    caught = caught_at or {}
    for row in crossed(state.setup.road.feed, old, new):
        for r in riders:
            if r.id in caught and caught[r.id] >= row:
                continue
            current = state.rider(r.id)
            kept, dice, piles = take_tile(state.dice, state.piles, current, current.kept, state.turn, events)
            state = replace(replace_rider(state, replace(current, kept=kept)), dice=dice, piles=piles)
    return state


def peloton_passes(
    state: S,
    riders: Sequence[FamilyRider],
    old: int,
    new: int,
    events: list[Event],
    caught_at: Mapping[str, int] | None = None,
    *,
    bonus_to_first: bool = False,
) -> S:
    """What the peloton passes from row ``old`` to ``new``: each feed zone feeds ``riders`` (in that
    order; those it caught in this move, ``caught_at``, as ``feed_peloton`` says), each bonus line
    nobody has claimed yet is the peloton's, lost (R-BONUS-PELOTON, R-HOTN-BONUS-PELOTON); with
    ``bonus_to_first`` (the race option ``peloton_bonus: first-rider``) it is the first of ``riders``'
    (a ``bonus`` event), and still lost when the peloton is empty."""
    state = feed_peloton(state, riders, old, new, events, caught_at)
    winner = riders[0].id if bonus_to_first and riders else "peloton"
    bonus_won, rows = bonus_rows_won(state, old, new, winner)
    if winner != "peloton":
        events.extend(event(state.turn, "bonus", rider=winner, row=row) for row in rows)
    return replace(state, bonus_won=bonus_won)


# ---------------------------------------------------------------- a ride's risks


class RiskRule(Protocol):
    """How a game rolls one risk: its die, and whether a face holds for a rider with ``risks`` run."""

    @property
    def die(self) -> str: ...
    def roll(self, dice: Dice, risks: int) -> tuple[int | str, Dice]: ...
    def holds(self, face: int | str, risks: int) -> bool: ...
    def need(self, risks: int) -> int | str: ...


@dataclass(frozen=True)
class Risked:
    """What a ride's crack and fall rolls came to."""

    cost: int
    risks: int
    cracked: bool
    fell: bool
    dice: Dice


def roll_risks(
    state: AnyFamilyState, rider: FamilyRider, crack: bool, fall: bool, cost: int, rule: RiskRule, events: list[Event]
) -> Risked:
    """Roll the crack, then the fall: each risk run is counted whatever the result; a crack
    multiplies the cost by the ruleset's crack factor, a fall by its fall factor."""
    rules = state.setup.ruleset
    dice = state.dice
    risks = rider.risks
    cracked = fell = False
    for kind, taken in (("crack", crack), ("fall", fall)):
        if not taken:
            continue
        need = rule.need(risks)
        face, dice = rule.roll(dice, risks)
        ok = rule.holds(face, risks)
        events.append(event(state.turn, "rolled", die=rule.die, value=face, rider=rider.id, risk=kind, need=need))
        risks += 1
        if not ok and kind == "crack":
            cracked = True
            cost *= rules.crack_factor
        elif not ok:
            fell = True
            cost *= rules.fall_factor
    return Risked(cost, risks, cracked, fell, dice)


def ride_event(turn: int, option: RideOption, start: str | None, cost: int, **extra: object) -> Event:
    """The ``breakaway`` or ``rode`` event of a resolved ride option."""
    return event(
        turn,
        "breakaway" if option.breakaway else "rode",
        rider=option.rider,
        **{"from": start},
        to=option.to,
        squares=option.squares,
        free=option.free,
        paid=option.paid,
        cost=cost,
        recovered=option.recovery,
        crossings=option.crossings,
        slipstream=option.slipstream,
        **extra,
    )


def drop_chosen(state: S, place_behind: Callable[[S, str, str], S], events: list[Event]) -> S:
    """The riders whose players chose to drop them leave the peloton for the first square behind it
    (``place_behind(state, rider id, status)``)."""
    for rid in state.drop_requests:
        r = state.rider(rid)
        if r.status == "peloton":
            state = place_behind(state, rid, "dropped")
            events.append(event(state.turn, "dropped", rider=rid, reason="chosen"))
    return replace(state, drop_requests=())


def rider_view(r: FamilyRider) -> dict[str, object]:
    """A rider in the public view: kept feed tiles only as a count (their values are secret)."""
    view: dict[str, object] = {
        "at": None if r.status == "peloton" or r.row is None or r.lane is None else r.cell,
        "energy": r.energy,
        "status": r.status,
        "risks": r.risks,
        "kept": len(r.kept),
        "player": r.player,
        "type": r.kind,
    }
    if r.slipstream:
        view["slipstream"] = True
    return view


def ride_line(kind: str, d: Mapping[str, object], rider: str, more: Sequence[str] = ()) -> str:
    """A ride or breakaway told in one line, with what it cost and what helped or hindered
    (``more``: what the edition adds)."""
    extra = []
    if d.get("cost"):
        extra.append(_("-{cost} energy", cost=d["cost"]))
    if d.get("recovered"):
        extra.append(_("+{recovered} recovered", recovered=d["recovered"]))
    if d.get("slipstream"):
        extra.append(_("slipstream"))
    if d.get("crossings"):
        extra.append(_("crossed {crossings} on a blocked road", crossings=d["crossings"]))
    extra += more
    tail = _(" ({details})", details=", ".join(extra)) if extra else ""
    if kind == "breakaway":
        return _(
            "{rider} breaks away to {to}, {squares} squares{details}",
            rider=rider,
            to=d["to"],
            squares=d["squares"],
            details=tail,
        )
    return _(
        "{rider} rides to {to}, {squares} squares{details}", rider=rider, to=d["to"], squares=d["squares"], details=tail
    )


@dataclass(frozen=True)
class PelotonRoll:
    """The peloton's die rolled and its move: the face, the squares and the rows it goes from and to."""

    face: int | str
    squares: int
    old: int
    new: int


def roll_peloton(
    state: S, die: Die, value: Callable[[int | str], int], events: list[Event], leaving: Collection[str] = ()
) -> tuple[S, PelotonRoll]:
    """Roll the peloton die; it moves the face's value, +1 with a pursuit, +1 when nobody rides in it
    (``leaving``: riders who leave it before it moves and so do not count)."""
    face, dice = state.dice.roll(die)
    events.append(event(state.turn, "rolled", die="peloton", value=face))
    pursuit = state.pursuit
    empty = not any(r.status == "peloton" and r.id not in leaving for r in state.riders)
    squares = value(face) + int(pursuit) + int(empty)
    old = state.peloton
    new = min(old + squares, state.setup.road.last_row)
    events.append(event(state.turn, "peloton", squares=squares, to=new, pursuit=pursuit, empty=empty))
    return replace(state, dice=dice, peloton=new), PelotonRoll(face, squares, old, new)


def ridden(rider: R, to: str, energy: int, risks: int, kept: tuple[int, ...], stamp: int) -> R:
    """``rider`` after a ride to ``to``: its energy, risks and tiles, no slipstream yet, no longer
    left behind or punctured (what only the game's rider has, its caller sets)."""
    row, lane = (int(x) for x in to.split("."))
    return replace(
        rider,
        energy=energy,
        risks=risks,
        kept=kept,
        slipstream=False,
        stamp=stamp,
        row=row,
        lane=lane,
        punctured_turn=None,
        left_behind_turn=None,
    )


def place_behind(state: S, rider: FamilyRider, status: str, lane_hint: int | None) -> S:
    """``rider`` goes to the first free square behind the peloton with ``status``; a rider left
    behind (``dropped``) rides from the next turn (what only the game's rider has, its caller sets)."""
    row, lane = behind_peloton(state, lane_hint)
    stamp = state.stamp + 1
    moved = replace(rider, status=status, row=row, lane=lane, slipstream=False, stamp=stamp)
    if status == "dropped":
        moved = replace(moved, left_behind_turn=state.turn)
    return replace(replace_rider(state, moved), stamp=stamp)
