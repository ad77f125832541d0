"""Formula Dé Mini as a ``rules.game.Game``: gears as buttons with their die, end squares with
every consequence, slipstreams and pits; one or two cars a player; league points."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from rules.action import Field, Vocabulary
from rules.errors import DomestiqueError
from rules.events import Event, whole
from rules.formula_de_mini import ai, engine
from rules.formula_de_mini.circuit import circuit_names, load_circuit
from rules.formula_de_mini.gears import gear_die
from rules.formula_de_mini.model import TEAMS, State
from rules.formula_de_mini.moves import MoveOption
from rules.formula_de_mini.pace import hooks as pace_hooks
from rules.formula_de_mini.setup import build
from rules.formula_de_mini.showcase import SHOWCASE
from rules.formula_de_mini.view import public_view
from rules.game import (
    Choice,
    Decision,
    Game,
    LeagueSetting,
    Narration,
    Outcome,
    PieceCount,
    Placing,
    Seat,
    Standing,
    TrackCatalog,
    rules_for_setup_states,
)
from rules.team_seats import NumberedTeams

VOCABULARY = Vocabulary(
    (
        Field("car", "text", "the car, e.g. red-1"),
        Field("gear", "count", "a gear, 1 to 5"),
        Field("to", "text", "the space a move ends on"),
        Field("via", "cells", "the spaces crossed before it"),
        Field("brake", "count", "LP spent braking", zero_is_absent=True),
        Field("turbo", "flag", "the once-a-race turbo"),
    )
)
# a team colour a player and one or two cars in it, numbered 1 and 2; 2 to 8 cars a race
SEATS = NumberedTeams(
    title="Formula Dé Mini",
    colours=TEAMS,
    pieces=PieceCount(1, 2, 2),
    key="cars",
    fewest=2,
    refusal="A race has 2 to 8 cars; there are {total}. Add AI drivers or invite friends.",
    unstated=1,
)
GEAR_NAMES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
# League points by place (rulings R-FDM-LEAGUE-POINTS): a grid of up to 8 cars scores down to 8th.
POINTS = (10, 8, 6, 5, 4, 3, 2, 1)

HELP = (
    "**Formula Dé Mini** — each player drives one or two cars. Each round, every car in race order "
    "picks a gear (up one, or down; skipping gears down costs life points, LP), rolls that gear's die "
    "and moves that many spaces.\n"
    "Corners demand stops: a car must stop in a corner as many times as its flag says, or pay LP for "
    "the spaces it overshoots (too many and it spins out). Braking to stop short costs 1 LP a space; a "
    "blocked car pays too. Right behind another car, a slipstream gives 3 more spaces for 1 LP. The "
    "turbo adds a space once a race for 3 LP. Stop in your pit stand once to get LP back. Lose all LP "
    "and you are out.\n"
    "**Board**: cars carry their team letter and number, their gear in a white box behind them; corner "
    "flags show the stops; the car to act has a ring and an arrow; highlighted spaces are where it can "
    "stop, named as in its menu (12.1: row 12, lane 1) with their LP cost."
)


def _decision(state: State) -> Decision | None:
    d = engine.pending(state)
    if d is None:
        return None
    return Decision(d.player, d.kind, d.car, "menu" if d.kind in ("move", "slipstream") else "buttons")


def collision_risk(state: State, car_id: str, o: MoveOption) -> list[str]:
    """Cars the move would stop beside or behind, by name (each rolls the black die, then the mover)."""
    if o.pit:
        return []
    probe = replace(state.car(car_id), cell=o.to)
    return [piece_name_of(c.id) for c in engine._neighbours(state, probe)]


def option_text(o: MoveOption, risk: list[str] | None = None) -> tuple[str, str]:
    cost = o.brake + o.overshoot + o.blocked + (3 if o.turbo else 0)
    label = f"{o.to} · {o.spaces} sp · " + (f"-{cost} LP" if cost else "no LP")
    parts = []
    if o.brake:
        parts.append(f"brake {o.brake}")
    if o.blocked:
        parts.append(f"blocked {o.blocked}" + (" (out)" if o.blocked >= 7 else ""))
    if o.overshoot:
        parts.append(f"overshoot {o.overshoot}")
        label += " · OVERSHOOT"
    if o.turbo:
        parts.append("turbo (3 LP, once a race)")
    if o.pit:
        parts.append("into your pit stand")
    if o.pit_lane:
        parts.append("waits in the pit lane, short of the stand")
    if o.crossings:
        parts.append("crosses the line")
    if risk:
        parts.append(f"collision check with {', '.join(risk)}")
    return label[:100], ("; ".join(parts) or "a clean move")[:100]


def die_range(gear: int) -> str:
    faces = [int(f) for f in gear_die(gear).faces]
    return f"{min(faces)}–{max(faces)}"


def _choice(state: State, c: engine.Choice) -> Choice:
    a = c.action
    if a.do == "gear":
        cost = f" (over-rev {c.lp} LP)" if c.lp else ""
        return Choice(a, f"{GEAR_NAMES[a.gear or 1]} · {die_range(a.gear or 1)}{cost}", "", piece=a.car)
    if a.do in ("drive", "slipstream") and c.option is not None:
        label, detail = option_text(c.option, collision_risk(state, a.car or "", c.option))
        if a.do == "slipstream":
            label = f"Slipstream to {c.option.to} ({c.lp} LP)"
        risky = bool(c.option.overshoot or c.option.blocked)
        return Choice(a, label, detail, piece=a.car, target=a.to, short=str(a.to), risky=risky, shows=c.option)
    if a.do == "pit":
        return Choice(a, f"Leave the pits in {GEAR_NAMES[a.gear or 1]}", "", piece=a.car)
    pending = engine.pending(state)
    label = "No slipstream" if pending is not None and pending.kind == "slipstream" else "Stay in the pits"
    return Choice(a, label, "", piece=a.car)


def choices(state: State, player: str) -> list[Choice]:
    return [_choice(state, c) for c in engine.legal_actions(state, player)]


def outcome(state: State) -> Outcome:
    placings = [
        Placing(cid, state.car(cid).player, rank, f"round {state.car(cid).finished_turn}")
        for rank, cid in enumerate(state.arrivals, start=1)
    ]
    placings += [Placing(c.id, c.player, None, "out", True) for c in state.cars if c.status == "eliminated"]
    return Outcome(state.finished, tuple(placings))


def _player_name(state: State, player: str) -> str:
    return next((p.name or p.id for p in state.setup.players if p.id == player), player)


def piece_name_of(car_id: str) -> str:
    """A car as players call it: ``blue-1`` is the blue car 1."""
    team, _, number = car_id.partition("-")
    return f"{team} car {number}" if number else car_id


def _cars_named(text: str) -> str:
    """Car ids inside an engine's reason ("collision with red-2") as players say them."""
    return re.sub(r"\b([a-z]+-\d)\b", lambda m: piece_name_of(m.group(1)), text)


def piece_name(state: State | None, car_id: str) -> str:
    return piece_name_of(car_id)


def ask(state: State, decision: Decision, who: str) -> str:
    moving = state.moving
    roll = moving.roll if moving else "?"
    car = f"**{piece_name(state, decision.piece or '')}**"
    texts = {
        "gear": f"{who}, choose a gear for {car} (round {state.turn}).",
        "move": f"{who}, {car} rolled {roll}: choose where to stop.",
        "slipstream": f"{who}, {car} is right behind a car: slipstream (+3 spaces)?",
        "pit-exit": f"{who}, {car} may leave the pits with {roll} LP.",
    }
    return texts.get(decision.kind, f"{who}, decide for {car}.")


def describe(e: Event) -> str | None:
    d = e.data
    car = piece_name_of(str(d.get("car", "")))
    texts = {
        "drive": f"{car} drives {d.get('spaces')} to {d.get('to')}"
        + "".join(f", {k} {d[k]}" for k in ("brake", "blocked", "overshoot") if d.get(k))
        + (", turbo" if d.get("turbo") else ""),
        "gear": f"{car} in {GEAR_NAMES.get(whole(d.get('gear', 1)), '?')}"
        + (f" (over-rev {d['over_rev']} LP)" if d.get("over_rev") else ""),
        "slipstream": f"{car} slipstreams to {d.get('to')}",
        "lost": f"{car} loses {d.get('lp')} LP ({_cars_named(str(d.get('reason')))})",
        "eliminated": f"{car} is out ({_cars_named(str(d.get('reason')))})",
        "spun": f"{car} spins out",
        "stalled": f"{car} stalls on the grid",
        "flying-start": f"{car} makes a flying start",
        "pitted": f"{car} pits",
        "left-pits": f"{car} leaves the pits with {d.get('lp')} LP",
        "finished-race": f"{car} finishes, place {d.get('place')}",
    }
    if e.type == "rolled" and str(d.get("die", "")).startswith("gear"):
        return f"{car} rolls {d.get('value')}"
    return texts.get(e.type)


def status(state: State) -> list[str]:
    return [
        f"{piece_name_of(c.id)} ({_player_name(state, c.player)}): {c.status} at {c.cell}, lap {c.lap}, "
        f"{GEAR_NAMES.get(c.gear, c.gear)} gear, {c.lp} LP"
        for c in state.cars
    ]


def results(state: State) -> list[str]:
    return [
        (f"{p.rank}. " if p.rank else "— ") + f"{piece_name_of(p.piece)} ({_player_name(state, p.player)}) {p.result}"
        for p in outcome(state).placings
    ]


def resolve_track(name: str, seed: int) -> str:
    try:
        load_circuit(name)
    except (DomestiqueError, OSError) as exc:
        raise ValueError(f"{name[:40]!r} is not a circuit: {exc}") from None
    return f"formula-de-mini/{name}"


class PointsScoring:
    """A league of Formula Dé Mini races: points by place (R-FDM-LEAGUE-POINTS), nobody eliminated."""

    settings: tuple[LeagueSetting, ...] = ()

    def stage_options(self, values: Mapping[str, int]) -> dict[str, object]:
        return {}

    def classify(
        self, previous: tuple[Standing, ...], final: State, options: Mapping[str, int]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        before = {s.piece: s for s in previous}
        points = {cid: POINTS[i] if i < len(POINTS) else 0 for i, cid in enumerate(final.arrivals)}
        standings = []
        for c in final.cars:
            old = before.get(c.id, Standing(c.id, c.player, 0))
            standings.append(replace(old, score=old.score + points.get(c.id, 0)))
        standings += [s for s in previous if s.piece not in {c.id for c in final.cars}]
        lines = [
            f"{rank}. {piece_name(final, cid)}: +{points[cid]} points" for rank, cid in enumerate(final.arrivals, 1)
        ]
        lines += [f"— {piece_name(final, c.id)}: out, no points" for c in final.cars if c.status == "eliminated"]
        return tuple(sorted(standings, key=lambda s: (-s.score, s.piece))), lines

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        return seat

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        return f"{standing.score} points"


GAME = Game(
    id="formula-de-mini",
    title="Formula Dé Mini",
    piece="car",
    pieces_noun="cars",
    **SEATS.fields(),
    vocabulary=VOCABULARY,
    rules=rules_for_setup_states(build, _decision, choices, engine.apply, outcome, public_view),
    narration=Narration(
        ask=ask,
        summary=lambda state, events: [line for e in events if (line := describe(e))],
        announce=lambda state, events: [],
        status=status,
        results=results,
        piece_name=piece_name,
        help=HELP,
    ),
    tracks=TrackCatalog(
        names=circuit_names,
        default="canyon",
        suggestions=circuit_names,
        resolve=resolve_track,
        hexagons=lambda name: 10,
    ),
    ai=ai.choose,
    scoring=PointsScoring(),
    pace=pace_hooks(),
    showcase=SHOWCASE,
)
