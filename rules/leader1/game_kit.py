"""The parts of a Leader 1 family ``Game`` that read the same in every edition: names, the
outcome, results, a player's hand and private news, colours, stage names, league seats."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.action import Action
from rules.errors import DomestiqueError
from rules.events import Event
from rules.game import Choice, Decision, Outcome, Placing, Seat, Standing
from rules.leader1.family import FamilyState, arrival_order
from rules.leader1.paths import RideOption

Name = Callable[[Any, str], str]  # (state, rider id) -> what players call the rider


def piece_name(state: FamilyState[Any], rider_id: str) -> str:
    """A rider as players know it: its team colour and type ("yellow rouleur")."""
    if not state.has_rider(rider_id):
        return rider_id
    rider = state.rider(rider_id)
    return f"{rider.id.split('-')[0]} {rider.kind}"


def player_name(state: FamilyState[Any], player: str) -> str:
    return next((p.name or p.id for p in state.setup.players if p.id == player), player)


def outcome(state: FamilyState[Any], out: str) -> Outcome:
    """Finished riders by arrival, with their turn and delay; then the riders ``out`` of the race."""
    arrived = arrival_order(state)
    first = (arrived[0].arrived_turn or 0) if arrived else 0
    placings = []
    for rank, r in enumerate(arrived, start=1):
        delay = (r.arrived_turn or 0) - first
        behind = f", {delay} turn{'s' if delay != 1 else ''} behind" if delay else ""
        placings.append(Placing(r.id, r.player, rank, f"turn {r.arrived_turn}{behind}"))
    placings += [Placing(r.id, r.player, None, out, True) for r in state.riders if r.status == "eliminated"]
    return Outcome(state.finished, tuple(placings))


def results(state: FamilyState[Any], placed: Outcome, name: Name) -> list[str]:
    return [
        (f"{p.rank}. " if p.rank else "— ") + f"{name(state, p.piece)} ({player_name(state, p.player)}) {p.result}"
        for p in placed.placings
    ]


def hand(state: FamilyState[Any], player: str, name: Name) -> list[str]:
    """Each of ``player``'s riders with its energy and the feed tiles it keeps face down."""
    lines = []
    for r in state.riders:
        if r.player == player:
            tiles = ", ".join(f"#{i}: {v}" for i, v in enumerate(r.kept)) or "none"
            lines.append(f"{name(state, r.id)}: energy {r.energy}; kept tiles {tiles}")
    return lines


def tiles_drawn(after: FamilyState[Any], events: list[Event]) -> list[tuple[str, str, int, Event]]:
    """(player, rider id, value, event) for each feed tile drawn in ``events``, told only to its player."""
    out = []
    for e in events:
        if e.type == "fed":
            rider = after.rider(str(e.data["rider"]))
            count = int(e.data["kept"])
            if count <= len(rider.kept):
                out.append((rider.player, rider.id, rider.kept[count - 1], e))
    return out


def own_colour(seats: Sequence[Seat], colours: Sequence[str], colour: str | None, noun: str = "colour") -> str:
    """A colour nobody in ``seats`` has: ``colour`` if free, else the first free one (ValueError if none)."""
    taken = {s.colour for s in seats}
    free = [t for t in colours if t not in taken]
    if not free:
        raise ValueError(f"Every {noun} is taken.")
    chosen = colour or free[0]
    if chosen not in colours:
        raise ValueError(f"{noun.capitalize()}s: {', '.join(colours)}.")
    if chosen in taken:
        raise ValueError(f"{chosen} is taken; free {noun}s: {', '.join(free)}.")
    return chosen


def resolve_track(name: str, seed: int, game_id: str, load: Callable[[str], object]) -> str:
    """``<stage>`` or ``random-12`` (a fresh route of 12 hexagons) -> the record's track name."""
    if name.startswith("random-"):
        parts = name.split("-")
        if len(parts) == 2 and parts[1].isdigit():
            name = f"random-{int(parts[1])}-{seed}"
    try:
        load(name)
    except (DomestiqueError, OSError) as exc:
        raise ValueError(f"{name[:40]!r} is not a stage: {exc}") from None
    return f"{game_id}/{name}"


def out(standing: Standing | None) -> bool:
    return standing is not None and standing.eliminated


def surviving_seat(
    seat: Seat, standings: Mapping[str, Standing], carry: Callable[[str, Standing], dict[str, int]]
) -> Seat | None:
    """A league seat for the next stage: its riders still in, each carrying what ``carry`` says."""
    alive = tuple(k for k in seat.kinds if not out(standings.get(f"{seat.colour}-{k}")))
    if not alive:
        return None
    carried: dict[str, int] = {}
    for k in alive:
        standing = standings.get(f"{seat.colour}-{k}")
        if standing is not None:
            carried.update(carry(k, standing))
    return replace(seat, kinds=alive, carry=carried)


def decision(d: Any) -> Decision | None:
    """The engine's decision as the bot asks it: a rider's ride from a menu, a breakaway in two
    steps (the rider, then its square), anything else with buttons."""
    if d is None:
        return None
    if d.kind == "ride":
        return Decision(d.player, "ride", d.rider, "menu")
    if d.kind == "breakaway":
        return Decision(d.player, "breakaway", None, "two-step")
    return Decision(d.player, d.kind, None, "buttons")


def ride_texts(o: RideOption, middle: list[str], risky: bool) -> tuple[str, str]:
    """A ride's menu label (``RISK`` when ``risky``) and its description: free and paid squares,
    crossings, then ``middle`` (what the edition adds: risks, weather), rejoining, the line."""
    label = f"{o.to} · {o.squares} sq · " + (f"+{o.recovery} energy back" if o.recovery else f"cost {o.cost}")
    parts = [f"{o.free} free" + (" incl. slipstream" if o.slipstream else ""), f"{o.paid} paid"]
    if o.crossings:
        parts.append(f"crosses {o.crossings} on a blocked road")
    parts += middle
    if risky:
        label += " · RISK"
    if o.rejoins:
        parts.append("rejoins the peloton")
    if o.finishes:
        parts.append("crosses the line")
    return label, "; ".join(parts)[:100]


def ride_choice(a: Action, o: RideOption, label: str, detail: str, name: str) -> Choice:
    """A ride or breakaway choice: on the board at its square; a breakaway's first step is the rider."""
    step = a.rider if a.do == "breakaway" else None
    return Choice(
        a,
        label,
        detail,
        piece=a.rider,
        target=str(a.to),
        short=str(a.to),
        step=step,
        step_label=f"Break away: {name}" if step else "",
        risky=o.risk_count > 0,
    )


def eat_choice(state: FamilyState[Any], a: Action, name: str) -> Choice:
    """Eating a kept tile: its value is told to its owner here, to everyone once eaten."""
    assert isinstance(a.rider, str) and isinstance(a.tile, int)
    value = state.rider(a.rider).kept[a.tile]
    return Choice(a, f"Eat tile #{a.tile} ({value})", f"{name} gets {value} energy", piece=a.rider, anytime=True)
