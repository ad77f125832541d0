"""From a record's envelope to a Leader 1 race: players (A.2), options, track, dice, start."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rules.errors import InvalidSetup, MalformedRecord
from rules.game import Envelope
from rules.leader1 import player_record
from rules.leader1.dice import dice as leader1_dice
from rules.leader1.engine import new_race, starting_riders
from rules.leader1.feed import COLOURS, check_script, die_name, full_piles, without
from rules.leader1.model import FEED_COLOUR, OPTION_CHOICES, OPTION_NAMES, TEAMS, Options, Player, Rider, Setup, State
from rules.leader1.player_record import MAX_TURN, parse_identity, parse_start_rider
from rules.leader1.route import road_for
from rules.leader1.versions import VERSIONS
from rules.road import Road, road_from_inline
from rules.track import whole_number

PLAYER_FIELDS = {"id", "name", "team", "riders", "sprinter", "descender", "carry", "ai"}


def riders_allowed(players: int) -> tuple[int, ...]:
    """A.2: riders per player by the number of players."""
    if 2 <= players <= 4:
        return (1, 2, 3)
    if players == 5:
        return (1, 2)
    if 6 <= players <= 10:
        return (1,)
    return ()


def parse_options(raw: object) -> Options:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.options", "expected an object of rule options")
    for key in raw:
        if key not in OPTION_NAMES:
            raise MalformedRecord(
                f"$.options.{key}", f"unknown option; leader1 options: {', '.join(sorted(OPTION_NAMES))}"
            )
    defaults = Options()
    values: dict[str, Any] = {}
    for f in fields(Options):
        if f.name in raw:
            value = raw[f.name]
            expected = type(getattr(defaults, f.name))
            if type(value) is not expected:
                raise MalformedRecord(f"$.options.{f.name}", f"expected {expected.__name__}, got {value!r}")
            allowed = OPTION_CHOICES.get(f.name)
            if allowed is not None and value not in allowed:
                raise MalformedRecord(f"$.options.{f.name}", f"expected one of {', '.join(allowed)}, got {value!r}")
            values[f.name] = value
    return Options(**values)


def parse_track(raw: object) -> tuple[Road, str]:
    if isinstance(raw, str):
        game, _, name = raw.partition("/")
        if game != "leader1" or not name:
            raise MalformedRecord("$.track", f"expected 'leader1/<stage>' or an inline track, got {raw!r}")
        return road_for(name), raw
    return road_from_inline(raw), "inline"


def parse_player(raw_player: object, path: str) -> Player:
    who = parse_identity(raw_player, path, PLAYER_FIELDS, TEAMS)
    raw, pid, name, team, riders = who.raw, who.id, who.name, who.team, who.riders
    for quality in ("sprinter", "descender"):
        if quality in raw and raw[quality] not in riders:
            raise MalformedRecord(f"{path}.{quality}", f"must name one of this player's riders: {', '.join(riders)}")
    if "sprinter" in raw and raw.get("sprinter") == raw.get("descender"):
        raise MalformedRecord(f"{path}.descender", "A.3: the same rider cannot be both sprinter and descender")
    carry = raw.get("carry", {})
    if not isinstance(carry, dict) or any(
        k not in riders or type(v) is not int or not 0 <= v <= 15 for k, v in carry.items()
    ):
        raise MalformedRecord(f"{path}.carry", "expected {rider type: energy carried over, 0 to 15} (D.3)")
    sprinter, descender = (str(raw[quality]) if quality in raw else None for quality in ("sprinter", "descender"))
    return Player(pid, name, team, tuple(riders), sprinter, descender, tuple(sorted(carry.items())))


def parse_players(raw: object, options: Options | None = None) -> tuple[Player, ...]:
    if not isinstance(raw, list):
        raise MalformedRecord("$.players", "expected a list of players in seating order")
    players = tuple(parse_player(p, f"$.players[{i}]") for i, p in enumerate(raw))
    count = len(players)
    allowed = riders_allowed(count)
    if not allowed:
        raise InvalidSetup("$.players", f"A.2: Leader 1 is for 2 to 10 players, got {count}")
    ids = [p.id for p in players]
    if len(set(ids)) != count:
        raise InvalidSetup("$.players", f"player ids must be unique: {ids}")
    sizes = {len(p.riders) for p in players}
    if options is not None and options.stage_race:
        sizes = {max(sizes)}  # R-STAGE-RIDERS: eliminations may leave teams of different sizes
    if len(sizes) != 1:
        raise InvalidSetup("$.players", "A.2: all players must have the same number of riders")
    size = sizes.pop()
    if size not in allowed:
        raise InvalidSetup(
            "$.players", f"A.2: with {count} players each has {' or '.join(map(str, allowed))} rider(s), not {size}"
        )
    if sum(len(p.riders) for p in players) > 12:
        raise InvalidSetup(
            "$.players", f"A.2: no more than 12 riders in a race, got {sum(len(p.riders) for p in players)}"
        )
    if count <= 5 and len({p.team for p in players}) != count:
        raise InvalidSetup("$.players", "A.2: with 2 to 5 players each player has a team colour of their own")
    rider_ids = [rid for p in players for rid in p.rider_ids()]
    if len(set(rider_ids)) != len(rider_ids):
        raise InvalidSetup("$.players", "A.2: two players cannot ride the same rider (same colour and type)")
    return players


def parse_dice(raw: object) -> dict[str, list[int | str]]:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.dice", "expected an object from die name to a list of outcomes")
    known = leader1_dice()
    piles = {die_name(colour) for colour in COLOURS}
    for name, values in raw.items():
        if name not in known and name not in piles:
            every = ", ".join(sorted({*known, *piles}))
            raise MalformedRecord(f"$.dice.{name}", f"unknown die; leader1 dice: {every}")
        if not isinstance(values, list):
            raise MalformedRecord(f"$.dice.{name}", "expected a list of outcomes")
        if name in piles:
            check_script(name, values)  # C.4: feed tiles come from finite piles (R-FEED-TILES)
            continue
        faces = set(known[name].faces)
        for i, v in enumerate(values):
            if type(v) not in (int, str) or v not in faces:  # not 3.0 or true, equal to 3 and 1
                raise MalformedRecord(
                    f"$.dice.{name}[{i}]", f"{v!r} is not a face of this die ({sorted(map(str, faces))})"
                )
    return dict(raw)


def build(record: Envelope) -> State:
    """The race a record's envelope describes, at its first decision."""
    options = parse_options(record.get("options", {}))
    road, track_name = parse_track(record["track"])
    setup = Setup(
        road=road,
        players=parse_players(record["players"], options),
        options=options,
        track_name=track_name,
        rules=VERSIONS.of_envelope(record),
    )
    dice_script = parse_dice(record.get("dice", {}))
    start = record.get("start")
    if not start:
        return new_race(setup, record["seed"], dice_script)
    return _start(setup, record["seed"], dice_script, start)


def _start(setup: Setup, seed: int, dice_script: dict[str, list[int | str]], raw: object) -> State:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.start", "expected {turn, peloton, riders}")
    for key in raw:
        if key not in ("turn", "peloton", "riders"):
            raise MalformedRecord(f"$.start.{key}", "unknown field; allowed: turn, peloton, riders")
    turn = whole_number(raw.get("turn", 1), "$.start.turn", 1, MAX_TURN)
    road = setup.road
    peloton_raw = raw.get("peloton", {})
    if not isinstance(peloton_raw, dict) or any(k not in ("at", "leader") for k in peloton_raw):
        raise MalformedRecord("$.start.peloton", 'expected {"at": row, "leader": player id}')
    at = whole_number(peloton_raw.get("at", 1), "$.start.peloton.at", 1, road.finish - 1)
    leader = peloton_raw.get("leader", setup.players[0].id)
    if setup.player(leader) is None:
        raise MalformedRecord("$.start.peloton.leader", f"unknown player {leader!r}")
    riders = {r.id: r for r in starting_riders(setup)}
    given = raw.get("riders", {})
    if not isinstance(given, dict):
        raise MalformedRecord("$.start.riders", "expected an object from rider id to its position")
    occupied: set[str] = set()
    for rid, spec in given.items():
        path = f"$.start.riders.{rid}"
        if rid not in riders:
            raise MalformedRecord(path, f"unknown rider; riders: {', '.join(riders)}")
        riders[rid] = _start_rider(riders[rid], spec, path, road, at, occupied)
    piles = full_piles()
    for rider in riders.values():  # kept tiles were drawn from their colour's pile
        for value in rider.kept:
            try:
                piles = without(piles, FEED_COLOUR[rider.kind], value)
            except MalformedRecord:
                colour = FEED_COLOUR[rider.kind]
                raise MalformedRecord(
                    f"$.start.riders.{rider.id}.kept", f"more kept tiles of value {value} than the {colour} pile holds"
                ) from None
    return new_race(
        setup,
        seed,
        dice_script,
        riders=tuple(riders.values()),
        turn=turn,
        peloton=at,
        token=setup.player_index(leader),
        piles=piles,
    )


def _start_rider(rider: Rider, spec: object, path: str, road: Road, peloton: int, occupied: set[str]) -> Rider:
    allowed = ("at", "energy", "status", "risks", "kept")
    start = parse_start_rider(spec, path, allowed, road, peloton, rider.energy, occupied)
    return player_record.placed(rider, start)
