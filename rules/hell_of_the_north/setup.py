"""From a record's envelope to a Hell of the North race: teams, qualities, options, course, dice, start."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from rules.errors import InvalidSetup, MalformedRecord
from rules.game import Envelope
from rules.hell_of_the_north.course import MAX_WEATHER, parse_track, without_bonus
from rules.hell_of_the_north.engine import start
from rules.hell_of_the_north.model import (
    FEED_COLOUR,
    MAX_CARRIED_ENERGY,
    MAX_CARRIED_PURSUITS,
    OPTION_CHOICES,
    OPTION_NAMES,
    PARTS,
    PELOTON,
    PURSUITS,
    QUALITIES,
    STAGE_PURSUITS,
    TEAMS,
    WEATHER_DIE,
    WEATHER_PLACE_DIE,
    Options,
    Player,
    Rider,
    Setup,
    State,
    event,
    weather_markers,
)
from rules.hell_of_the_north.versions import VERSIONS
from rules.hell_of_the_north.weather_setup import place_weather
from rules.leader1 import player_record
from rules.leader1.feed import COLOURS, check_script, die_name, draw, full_piles, without
from rules.leader1.player_record import MAX_TURN, parse_identity, parse_start_rider
from rules.rng import Dice
from rules.track import whole_number

PLAYER_FIELDS = {"id", "name", "team", "riders", *QUALITIES, "carry", "pursuits", "gc", "ai"}


def parse_options(raw: object) -> Options:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.options", "expected an object of rule options")
    for key in raw:
        if key not in OPTION_NAMES:
            raise MalformedRecord(f"$.options.{key}", f"unknown option; options: {', '.join(sorted(OPTION_NAMES))}")
    defaults = Options()
    values: dict[str, Any] = {}
    for f in fields(Options):
        if f.name in raw:
            value = raw[f.name]
            if f.name == "weather":
                if value is not None and (type(value) is not int or not 0 <= value <= MAX_WEATHER):
                    raise MalformedRecord("$.options.weather", f"expected 0 to {MAX_WEATHER} weather markers")
            elif type(value) is not type(getattr(defaults, f.name)):
                raise MalformedRecord(f"$.options.{f.name}", f"expected {type(getattr(defaults, f.name)).__name__}")
            allowed = OPTION_CHOICES.get(f.name)
            if allowed is not None and value not in allowed:
                raise MalformedRecord(f"$.options.{f.name}", f"expected one of {', '.join(allowed)}, got {value!r}")
            values[f.name] = value
    options = Options(**values)
    if not 1 <= options.stage <= 99:
        raise MalformedRecord("$.options.stage", "expected a stage number from 1 to 99")
    if not 1 <= options.late_turns <= 99:
        raise MalformedRecord("$.options.late_turns", "expected 1 to 99 turns")
    if options.cobble_risk not in ("dark", "all"):
        raise MalformedRecord("$.options.cobble_risk", "expected 'dark' or 'all' (R-HOTN-COBBLES)")
    return options


def _by_kind(raw: object, riders: list[str], path: str, high: int) -> tuple[tuple[str, int], ...]:
    if not isinstance(raw, dict) or any(
        k not in riders or type(v) is not int or not 0 <= v <= high for k, v in raw.items()
    ):
        raise MalformedRecord(path, f"expected {{rider type: a whole number 0 to {high}}}")
    return tuple(sorted(raw.items()))


def parse_player(raw_player: object, path: str) -> Player:
    who = parse_identity(raw_player, path, PLAYER_FIELDS, TEAMS)
    raw, pid, name, team, riders = who.raw, who.id, who.name, who.team, who.riders
    qualities: list[tuple[str, str]] = []
    for quality in QUALITIES:
        if quality in raw:
            kind = raw[quality]
            if kind not in riders:
                raise MalformedRecord(f"{path}.{quality}", f"must name one of this team's riders: {', '.join(riders)}")
            if any(k == kind for k, _ in qualities):
                raise MalformedRecord(f"{path}.{quality}", "Setup 5: a rider can have only one quality")
            qualities.append((kind, quality))
    pursuits = raw.get("pursuits")
    if pursuits is not None and (type(pursuits) is not int or not 0 <= pursuits <= MAX_CARRIED_PURSUITS):
        raise MalformedRecord(f"{path}.pursuits", "expected pursuits carried over, 0 to 2")
    return Player(
        pid,
        name,
        team,
        tuple(riders),
        tuple(qualities),
        _by_kind(raw.get("carry", {}), riders, f"{path}.carry", MAX_CARRIED_ENERGY),
        pursuits,
        _by_kind(raw.get("gc", {}), riders, f"{path}.gc", 10_000),
    )


def parse_players(raw: object) -> tuple[Player, ...]:
    if not isinstance(raw, list):
        raise MalformedRecord("$.players", "expected a list of teams in support-rider marker order")
    players = tuple(parse_player(p, f"$.players[{i}]") for i, p in enumerate(raw))
    if not 2 <= len(players) <= len(TEAMS):
        raise InvalidSetup("$.players", f"Hell of the North is for 2 to 4 teams, got {len(players)}")
    if len({p.id for p in players}) != len(players):
        raise InvalidSetup("$.players", "player ids must be unique")
    if len({p.team for p in players}) != len(players):
        raise InvalidSetup("$.players", "each team (support-rider marker) has a colour of its own")
    return players


def parse_dice(raw: object) -> dict[str, list[int | str]]:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.dice", "expected an object from die name to a list of outcomes")
    piles = {die_name(colour) for colour in COLOURS}
    markers = list(weather_markers())
    for name, values in raw.items():
        if name not in ("peloton", WEATHER_DIE, WEATHER_PLACE_DIE) and name not in piles:
            every = ", ".join(sorted({"peloton", WEATHER_DIE, WEATHER_PLACE_DIE, *piles}))
            raise MalformedRecord(f"$.dice.{name}", f"unknown die; {GAME} dice: {every}")
        if not isinstance(values, list):
            raise MalformedRecord(f"$.dice.{name}", "expected a list of outcomes")
        if name == WEATHER_PLACE_DIE:
            continue  # hexagons of the course: checked as they are drawn (weather_setup)
        if name in piles:
            check_script(name, values)
            continue
        faces = list(PELOTON.faces) if name == "peloton" else markers
        for i, v in enumerate(values):
            if type(v) not in (int, str) or v not in faces:
                raise MalformedRecord(f"$.dice.{name}[{i}]", f"{v!r} is not a face of this die ({faces})")
            if name == WEATHER_DIE:
                faces.remove(v)  # each marker is turned once
    return dict(raw)


GAME = "hell-of-the-north"


def marker_order(players: tuple[Player, ...], options: Options) -> tuple[str, ...]:
    """Setup 6: the record's order; in a multi-day race the GC leader's team first (R-HOTN-ORDER)."""
    order = [p.id for p in players]
    if options.multi_day and any(p.gc for p in players):
        best = min(players, key=lambda p: (min((v for _, v in p.gc), default=10**9), order.index(p.id)))
        order.remove(best.id)
        order.insert(0, best.id)
    return tuple(order)


def starting_riders(setup: Setup) -> tuple[Rider, ...]:
    """Setup 4: the milestones' energy (plus any carried over) for every rider, in the peloton."""
    return player_record.starting_riders(
        setup.players, setup.road.energy, Rider, lambda p, kind: {"quality": p.quality(kind)}
    )


def starting_pursuits(setup: Setup) -> tuple[tuple[str, int], ...]:
    """6 pursuits; from stage 2 (the option, or pursuits carried over), 4 plus at most 2 carried."""
    return tuple(
        (
            p.id,
            PURSUITS
            if setup.options.stage <= 1 and p.pursuits is None
            else STAGE_PURSUITS + min(p.pursuits or 0, MAX_CARRIED_PURSUITS),
        )
        for p in setup.players
    )


def build(record: Envelope) -> State:
    """The race a record's envelope describes, at its first decision."""
    options = parse_options(record.get("options", {}))
    course, track_name = parse_track(record["track"])
    if not options.multi_day:
        course = without_bonus(course)
    players = parse_players(record["players"])
    setup = Setup(
        course=course, players=players, options=options, track_name=track_name, rules=VERSIONS.of_envelope(record)
    )
    dice = Dice.new(record["seed"], parse_dice(record.get("dice", {})))
    weather = course.weather
    if options.weather is not None:  # Race conditions 5: the players' number (R-HOTN-WEATHER-COUNT)
        weather, dice = place_weather(course, options.weather, dice)
    state = State(
        setup=setup,
        riders=starting_riders(setup),
        dice=dice,
        order=marker_order(players, options),
        pursuits=starting_pursuits(setup),
        streak=tuple((p.id, 0) for p in players),
        piles=full_piles(),
        weather=tuple((row, None) for row in weather),
        weather_pool=weather_markers(),
    )
    raw_start = record.get("start")
    if raw_start:
        return start(_start(state, raw_start))
    if not options.multi_day:
        state = _form_of_the_day(state)
    return start(state)


def _form_of_the_day(state: State) -> State:
    """Notes 1: in a one-day race every rider draws a feed tile at the start, kept face down."""
    events = []
    for r in state.riders:
        value, dice, piles = draw(state.dice, state.piles, FEED_COLOUR[r.kind])
        state = replace(state, dice=dice, piles=piles)
        if value is not None:
            current = state.rider(r.id)
            state = replace(
                state,
                riders=tuple(replace(x, kept=(*x.kept, value)) if x.id == r.id else x for x in state.riders),
            )
            events.append(event(0, "fed", rider=r.id, kept=len(current.kept) + 1, form=True))
    return replace(state, events=state.events + tuple(events))


def _start(state: State, raw: object) -> State:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.start", "expected {turn, peloton, weather, riders}")
    for key in raw:
        if key not in ("turn", "peloton", "riders", "weather"):
            raise MalformedRecord(f"$.start.{key}", "unknown field; allowed: turn, peloton, weather, riders")
    turn = whole_number(raw.get("turn", 1), "$.start.turn", 1, MAX_TURN)
    road = state.setup.road
    peloton_raw = raw.get("peloton", {})
    if not isinstance(peloton_raw, dict) or any(k not in ("at", "order") for k in peloton_raw):
        raise MalformedRecord("$.start.peloton", 'expected {"at": row, "order": [player ids, 1st first]}')
    at = whole_number(peloton_raw.get("at", 1), "$.start.peloton.at", 1, road.finish - 1)
    order = peloton_raw.get("order", list(state.order))
    if not isinstance(order, list) or sorted(order) != sorted(state.order):
        raise MalformedRecord("$.start.peloton.order", f"expected every player once: {', '.join(state.order)}")
    weather = dict(state.weather)
    pool = list(state.weather_pool)
    raw_weather = raw.get("weather", {})
    if not isinstance(raw_weather, dict):
        raise MalformedRecord("$.start.weather", "expected {hexagon first row: marker}")
    for key, marker in raw_weather.items():
        if not key.isdigit() or int(key) not in weather or marker not in pool:
            raise MalformedRecord(
                f"$.start.weather.{key}", "expected a weather hexagon of the course and a marker left"
            )
        weather[int(key)] = marker
        pool.remove(marker)
    riders = {r.id: r for r in state.riders}
    given = raw.get("riders", {})
    if not isinstance(given, dict):
        raise MalformedRecord("$.start.riders", "expected an object from rider id to its position")
    occupied: set[str] = set()
    piles = state.piles
    for rid, spec in given.items():
        path = f"$.start.riders.{rid}"
        if rid not in riders:
            raise MalformedRecord(path, f"unknown rider; riders: {', '.join(riders)}")
        riders[rid] = _start_rider(riders[rid], spec, path, state, at, occupied)
        for value in riders[rid].kept:
            piles = without(piles, FEED_COLOUR[riders[rid].kind], value)
    riders = {
        rid: (replace(r, part="front") if r.status == "peloton" and r.part is None else r) for rid, r in riders.items()
    }
    return replace(
        state,
        riders=tuple(riders.values()),
        turn=turn,
        peloton=at,
        order=tuple(order),
        phase="breakaways",
        piles=piles,
        weather=tuple(sorted(weather.items())),
        weather_pool=tuple(pool),
    )


def _start_rider(rider: Rider, spec: object, path: str, state: State, peloton: int, occupied: set[str]) -> Rider:
    allowed = ("at", "energy", "status", "risks", "kept", "part", "slipstream")
    start = parse_start_rider(spec, path, allowed, state.setup.road, peloton, rider.energy, occupied)
    assert isinstance(spec, dict)
    part = None
    if start.status == "peloton":
        part = spec.get("part", "front")
        if part not in PARTS:
            raise MalformedRecord(f"{path}.part", "expected front or back")
    slip = spec.get("slipstream", False)
    if type(slip) is not bool:
        raise MalformedRecord(f"{path}.slipstream", "expected true or false")
    return replace(player_record.placed(rider, start), part=part, slipstream=slip)
