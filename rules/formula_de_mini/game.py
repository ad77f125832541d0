"""Formula Dé Mini as a ``rules.game.Game``: gears as buttons with their die, end squares with
every consequence, slipstreams and pits; one or two cars a player; league points."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.action import Field, Vocabulary
from rules.errors import DomestiqueError
from rules.errors import reason as error_reason
from rules.events import Event, whole
from rules.formula_de_mini import ai, engine
from rules.formula_de_mini.circuit import circuit_names, load_circuit
from rules.formula_de_mini.menu import choices, gear_name, piece_name_of
from rules.formula_de_mini.model import TEAMS, State
from rules.formula_de_mini.numbers import car_numbers
from rules.formula_de_mini.pace import hooks as pace_hooks
from rules.formula_de_mini.pacts import PACTS
from rules.formula_de_mini.race_options import PIT_EXIT
from rules.formula_de_mini.setup import build
from rules.formula_de_mini.showcase import SHOWCASE
from rules.formula_de_mini.versions import VERSIONS
from rules.formula_de_mini.view import public_view
from rules.game import (
    Decision,
    Game,
    LeagueSetting,
    Narration,
    Outcome,
    PieceCount,
    Placing,
    Seat,
    Standing,
    TeamResult,
    TrackCatalog,
    rules_for_setup_states,
)
from rules.i18n import N_, _, ngettext, npgettext, pgettext
from rules.shown import seat_name
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
    refusal=N_("A race has 2 to 8 cars; there are {total}. Add AI drivers or invite friends."),
    unstated=1,
)
GEAR_NAMES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}  # English; players read gear_name()
# League points by place (rulings R-FDM-LEAGUE-POINTS): a grid of up to 8 cars scores down to 8th.
POINTS = (10, 8, 6, 5, 4, 3, 2, 1)

HELP = N_(
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


def outcome(state: State) -> Outcome:
    placings = [
        Placing(cid, state.car(cid).player, rank, _("round {n}", n=state.car(cid).finished_turn))
        for rank, cid in enumerate(state.arrivals, start=1)
    ]
    placings += [
        Placing(c.id, c.player, None, pgettext("car", "out"), True) for c in state.cars if c.status == "eliminated"
    ]
    return Outcome(state.finished, tuple(placings))


def _player_name(state: State, player: str) -> str:
    return seat_name(next((p.name or p.id for p in state.setup.players if p.id == player), player))


REASONS = {
    "blocked": N_("blocked"),
    "overshot a corner": N_("overshot a corner"),
    "hit by a blocked car": N_("hit by a blocked car"),
    "eliminated another car": N_("eliminated another car"),
    "engine damage": N_("engine damage"),
}


def _reason(text: str) -> str:
    """An engine's reason ("collision with red-2") in words, its car ids as players say them."""
    if (hit := re.fullmatch(r"collision with ([a-z]+-\d)", text)) is not None:
        return _("collision with {vehicle}", vehicle=piece_name_of(hit.group(1)))
    return _(REASONS[text]) if text in REASONS else text


def piece_name(state: State | None, car_id: str) -> str:
    return piece_name_of(car_id)


def ask(state: State, decision: Decision, who: str) -> str:
    moving = state.moving
    roll = moving.roll if moving else "?"
    car = f"**{piece_name(state, decision.piece or '')}**"
    if decision.kind == "gear":
        return _("{who}, choose a gear for {vehicle} (round {round}).", who=who, vehicle=car, round=state.turn)
    if decision.kind == "move":
        return _("{who}, {vehicle} rolled {roll}: choose where to stop.", who=who, vehicle=car, roll=roll)
    if decision.kind == "slipstream":
        return _("{who}, {vehicle} is right behind a car: slipstream (+3 spaces)?", who=who, vehicle=car)
    if decision.kind == "pit-exit":
        return _("{who}, {vehicle} may leave the pits with {roll} LP.", who=who, vehicle=car, roll=roll)
    return _("{who}, decide for {vehicle}.", who=who, vehicle=car)


def _drive(car: str, d: Mapping[str, object]) -> str:
    spaces = whole(d.get("spaces") or 0)
    parts = [
        ngettext("{vehicle} drives {n} to {to}", "{vehicle} drives {n} to {to}", spaces, vehicle=car, to=d.get("to"))
    ]
    words = {"brake": N_("brake {n}"), "blocked": N_("blocked {n}"), "overshoot": N_("overshoot {n}")}
    parts += [_(words[k], n=d[k]) for k in ("brake", "blocked", "overshoot") if d.get(k)]
    if d.get("turbo"):
        parts.append(_("turbo"))
    return ", ".join(parts)


def describe(e: Event) -> str | None:
    d = e.data
    car = piece_name_of(str(d.get("car", "")))
    if e.type == "rolled":
        return (
            _("{vehicle} rolls {value}", vehicle=car, value=d.get("value"))
            if str(d.get("die", "")).startswith("gear")
            else None
        )
    if e.type == "drive":
        return _drive(car, d)
    if e.type == "gear":
        gear = gear_name(whole(d.get("gear", 1)))
        if d.get("over_rev"):
            return _("{vehicle} in {gear} (over-rev {lp} LP)", vehicle=car, gear=gear, lp=d["over_rev"])
        return _("{vehicle} in {gear}", vehicle=car, gear=gear)
    reason = _reason(str(d.get("reason")))
    texts = {
        "slipstream": lambda: _("{vehicle} slipstreams to {to}", vehicle=car, to=d.get("to")),
        "lost": lambda: _("{vehicle} loses {lp} LP ({reason})", vehicle=car, lp=d.get("lp"), reason=reason),
        "eliminated": lambda: _("{vehicle} is out ({reason})", vehicle=car, reason=reason),
        "spun": lambda: _("{vehicle} spins out", vehicle=car),
        "stalled": lambda: _("{vehicle} stalls on the grid", vehicle=car),
        "flying-start": lambda: _("{vehicle} makes a flying start", vehicle=car),
        "pitted": lambda: _("{vehicle} pits", vehicle=car),
        "left-pits": lambda: _("{vehicle} leaves the pits with {lp} LP", vehicle=car, lp=d.get("lp")),
        "finished-race": lambda: _("{vehicle} finishes, place {place}", vehicle=car, place=d.get("place")),
    }
    said = texts.get(e.type)
    return said() if said is not None else None


def _status_word(status: str) -> str:
    words = {
        "racing": pgettext("car", "racing"),
        "pits": pgettext("car", "pits"),
        "spun": pgettext("car", "spun"),
        "finished": pgettext("car", "finished"),
        "eliminated": pgettext("car", "eliminated"),
    }
    return words.get(status, status)


def status(state: State) -> list[str]:
    return [
        _(
            "{vehicle} ({owner}): {status} at {cell}, lap {lap}, {gear} gear, {lp} LP",
            vehicle=piece_name_of(c.id),
            owner=_player_name(state, c.player),
            status=_status_word(c.status),
            cell=c.cell,
            lap=c.lap,
            gear=gear_name(c.gear),
            lp=c.lp,
        )
        for c in state.cars
    ]


def results(state: State) -> list[str]:
    lines = []
    for p in outcome(state).placings:
        car, player = piece_name_of(p.piece), _player_name(state, p.player)
        if p.rank:
            lines.append(
                _("{rank}. {vehicle} ({owner}) {result}", rank=p.rank, vehicle=car, owner=player, result=p.result)
            )
        else:
            lines.append(_("— {vehicle} ({owner}) {result}", vehicle=car, owner=player, result=p.result))
    return lines


def resolve_track(name: str, seed: int) -> str:
    try:
        load_circuit(name)
    except (DomestiqueError, OSError) as exc:
        raise ValueError(_("{name} is not a circuit: {why}", name=repr(name[:40]), why=error_reason(exc))) from None
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
            ngettext(
                "{rank}. {vehicle}: +{n} point",
                "{rank}. {vehicle}: +{n} points",
                points[cid],
                rank=rank,
                vehicle=piece_name(final, cid),
            )
            for rank, cid in enumerate(final.arrivals, 1)
        ]
        lines += [
            _("— {vehicle}: out, no points", vehicle=piece_name(final, c.id))
            for c in final.cars
            if c.status == "eliminated"
        ]
        return tuple(sorted(standings, key=lambda s: (-s.score, s.piece))), lines

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        return seat

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        return ngettext("{n} point", "{n} points", standing.score)


def team_result(final: State, players: Sequence[str]) -> TeamResult:
    """A team's stage (docs/alliances.md): the sum of its members' cars' points (R-FDM-LEAGUE-POINTS)."""
    points = sum(
        POINTS[i] if i < len(POINTS) else 0 for i, cid in enumerate(final.arrivals) if final.car(cid).player in players
    )
    return TeamResult(points, ngettext("{n} point", "{n} points", points), higher_better=True)


GAME = Game(
    pacts=PACTS,
    team_result=team_result,
    numbers=car_numbers,
    id="formula-de-mini",
    title="Formula Dé Mini",
    piece=N_("car"),  # marked for the catalogs; translated where shown
    pieces_noun=N_("cars"),
    counted=lambda n: npgettext("after a number", "car", "cars", n),
    turns_called="round",
    **SEATS.fields(),
    vocabulary=VOCABULARY,
    # the game's own choices, remembered by language (the shared memo would hand one language's labels to another)
    rules=replace(
        rules_for_setup_states(build, _decision, choices, engine.apply, outcome, public_view), choices=choices
    ),
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
    race_options=(PIT_EXIT.race_option(),),
    versions=VERSIONS,
)
