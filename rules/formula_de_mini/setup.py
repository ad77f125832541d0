"""From a record's envelope to a Formula Dé Mini race: 2 to 8 cars, one or two per player."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rules.errors import InvalidSetup, MalformedRecord
from rules.formula_de_mini.circuit import Circuit, build_circuit, load_circuit
from rules.formula_de_mini.engine import new_race
from rules.formula_de_mini.gears import dice
from rules.formula_de_mini.model import OPTION_NAMES, TEAMS, Options, Player, Setup, State
from rules.formula_de_mini.race_options import PIT_EXIT
from rules.formula_de_mini.versions import VERSIONS
from rules.game import Envelope
from rules.track import whole_number


def parse_options(raw: object) -> Options:
    if not isinstance(raw, dict):
        raise MalformedRecord("$.options", "expected an object of rule options")
    values: dict[str, Any] = {}
    defaults = Options()
    for key, value in raw.items():
        if key not in OPTION_NAMES:
            raise MalformedRecord(
                f"$.options.{key}", f"unknown option; formula-de-mini options: {', '.join(sorted(OPTION_NAMES))}"
            )
        if type(value) is not type(getattr(defaults, key)):
            raise MalformedRecord(f"$.options.{key}", f"expected {type(getattr(defaults, key)).__name__}")
        values[key] = value
    if values.get("laps", 0) < 0:
        raise MalformedRecord("$.options.laps", "expected a number of laps from 1 (0: the default)")
    PIT_EXIT.of_record(values)
    assert {f.name for f in fields(Options)} == OPTION_NAMES
    return Options(**values)


def parse_players(raw: object) -> tuple[Player, ...]:
    if not isinstance(raw, list):
        raise MalformedRecord("$.players", "expected a list of players")
    players = []
    for i, p in enumerate(raw):
        path = f"$.players[{i}]"
        if not isinstance(p, dict):
            raise MalformedRecord(path, "expected a player object")
        for key in p:
            if key not in ("id", "name", "team", "cars"):
                raise MalformedRecord(f"{path}.{key}", "unknown field; allowed: id, name, team, cars")
        pid = p.get("id")
        if not isinstance(pid, str) or not 0 < len(pid) <= 32 or not pid.isprintable() or " " in pid or "=" in pid:
            raise MalformedRecord(f"{path}.id", "expected a short id without spaces")  # it shows in one-line messages
        if p.get("team") not in TEAMS:
            raise MalformedRecord(f"{path}.team", f"expected a team colour: {', '.join(TEAMS)}")
        cars = p.get("cars", 1)
        if type(cars) is not int or cars not in (1, 2):  # not 2.0, not true
            raise MalformedRecord(f"{path}.cars", "a player drives 1 or 2 cars (a team shares a livery)")
        if not isinstance(p.get("name", ""), str):
            raise MalformedRecord(f"{path}.name", "expected a string")
        players.append(Player(p["id"], str(p.get("name", p["id"])), p["team"], cars))
    if len({p.team for p in players}) != len(players) or len({p.id for p in players}) != len(players):
        raise InvalidSetup("$.players", "each player has an id and a team colour of their own")
    total = sum(p.cars for p in players)
    if not 2 <= total <= 8:
        raise InvalidSetup("$.players", f"a race has 2 to 8 cars, got {total}")
    return tuple(players)


def build(record: Envelope) -> State:
    track = record["track"]
    if isinstance(track, dict):
        circuit, name = _inline(track), "inline"
    elif isinstance(track, str) and track.startswith("formula-de-mini/"):
        circuit, name = load_circuit(track.split("/", 1)[1]), track
    else:
        raise MalformedRecord(
            "$.track",
            "expected 'formula-de-mini/canyon', 'formula-de-mini/island' or an inline circuit (docs/actions.md)",
        )
    options = parse_options(record.get("options", {}))
    setup = Setup(circuit, parse_players(record["players"]), options, name, VERSIONS.of_envelope(record))
    if sum(p.cars for p in setup.players) > len(circuit.grid):
        raise InvalidSetup("$.track.grid", f"this circuit's grid has {len(circuit.grid)} slots")
    if len(setup.players) > len(set(circuit.stands)):
        raise InvalidSetup("$.track.pit.stands", f"this circuit has {len(set(circuit.stands))} pit stands")
    known = dice()
    script: dict[str, list[int | str]] = {}
    for name, values in record.get("dice", {}).items():
        if name not in known:
            raise MalformedRecord(f"$.dice.{name}", f"unknown die; dice: {', '.join(sorted(known))}")
        if not isinstance(values, list):
            raise MalformedRecord(f"$.dice.{name}", "expected a list of outcomes")
        for i, v in enumerate(values):
            if type(v) is not int or v not in known[name].faces:  # not 5.0, not true
                raise MalformedRecord(f"$.dice.{name}[{i}]", f"{v!r} is not a face of this die")
        script[name] = values
    if record.get("start"):
        return _start(new_race(setup, record["seed"], script, roll_grid=False), record["start"])
    return new_race(setup, record["seed"], script)


INLINE = {"name", "lanes", "laps", "grid", "straddle", "segments", "pit", "about"}
MAX_ROWS = 1000  # bounds for an inline circuit, far beyond the shipped ones
MAX_LAPS = 99


def _inline(data: dict[str, Any]) -> Circuit:
    """An inline circuit, in the same form as data/formula_de_mini/*.json."""
    for key in data:
        if key not in INLINE:
            raise MalformedRecord(f"$.track.{key}", f"unknown field; allowed: {', '.join(sorted(INLINE))}")
    lanes = data.get("lanes")
    if type(lanes) is not int or lanes not in (2, 3):
        raise MalformedRecord("$.track.lanes", "a circuit has 2 or 3 lanes")
    for key, kind in (("name", str), ("about", str), ("straddle", bool)):
        if key in data and not isinstance(data[key], kind):
            raise MalformedRecord(f"$.track.{key}", f"expected {'true or false' if kind is bool else 'a string'}")
    if "laps" in data:
        whole_number(data["laps"], "$.track.laps", 1, MAX_LAPS)
    segments = data.get("segments")
    if not isinstance(segments, list) or not segments:
        raise MalformedRecord(
            "$.track.segments", "expected a list of {straight: n} and {corner, stops, outside, inside, turn}"
        )
    rows = 0
    for i, seg in enumerate(segments):
        path = f"$.track.segments[{i}]"
        if not isinstance(seg, dict):
            raise MalformedRecord(path, "expected an object")
        if "straight" in seg:
            rows += whole_number(seg["straight"], f"{path}.straight", 1, MAX_ROWS)
        elif not all(type(seg.get(k)) in (int, float) for k in ("corner", "stops", "outside", "inside", "turn")):
            raise MalformedRecord(path, "a corner needs corner, stops, outside, inside and turn")
        else:
            outside = whole_number(seg["outside"], f"{path}.outside", 1, MAX_ROWS)
            whole_number(seg["inside"], f"{path}.inside", 1, outside)
            whole_number(seg["stops"], f"{path}.stops", 1, 3)
            whole_number(seg["corner"], f"{path}.corner", 1, 99)
            if abs(seg["turn"]) > 360:
                raise MalformedRecord(f"{path}.turn", "expected degrees from -360 to 360")
            branches = seg.get("branches", [])
            if not isinstance(branches, list) or not all(
                isinstance(b, list)
                and len(b) == 3
                and all(type(n) is int and 0 <= n < high for n, high in zip(b, (outside, lanes, lanes), strict=True))
                for b in branches
            ):
                raise MalformedRecord(f"{path}.branches", "expected a list of [row offset, from lane, to lane]")
            rows += outside
        if rows > MAX_ROWS:
            raise MalformedRecord(path, f"a circuit has at most {MAX_ROWS} rows")
    if "grid" in data:
        whole_number(data["grid"], "$.track.grid", 1, min(rows, 8))
    pit = data.get("pit")
    if not isinstance(pit, dict) or {"from", "to", "stands"} - set(pit):
        raise MalformedRecord("$.track.pit", "expected {from, to, stands}")
    first = whole_number(pit["from"], "$.track.pit.from", 0, 2 * rows - 1)
    last = whole_number(pit["to"], "$.track.pit.to", first, first + rows - 2)
    stands = pit["stands"]
    if not isinstance(stands, list) or not all(type(n) is int and 0 <= n <= last - first for n in stands):
        raise MalformedRecord("$.track.pit.stands", f"expected pit-lane indexes from 0 to {last - first}")
    try:
        circuit = build_circuit({"name": "inline", **data})
    except (KeyError, IndexError, ValueError) as exc:
        raise MalformedRecord("$.track", f"this circuit cannot be built: {exc}") from None
    _check_spaces(circuit)
    return circuit


def _check_spaces(circuit: Circuit) -> None:
    """Every space the circuit names (grid, pit, stands, each space's successors) is a space of its track:
    segments that do not fit (a corner's inside lane has no space on the last row, where the grid
    starts) would otherwise fail the first move, far from their cause."""
    cells = circuit.track.cells
    named = [
        ("grid", circuit.grid),
        ("pit", (circuit.pit_entry, *circuit.pit_cells, *circuit.stands)),
        ("segments", [nxt for cell in cells.values() for nxt in cell.successors]),
        ("straddle", () if circuit.straddle is None else (circuit.straddle,)),
    ]
    for field, spaces in named:
        missing = next((cid for cid in spaces if cid not in cells), None)
        if missing is not None:
            raise MalformedRecord(
                f"$.track.{field}", f"this circuit names space {missing}, which its segments do not make"
            )


START_CAR = {"at", "gear", "lp", "lap", "status", "stops"}


def _start(state: State, raw: object) -> State:
    """A mid-race position: cars placed, then ``to_act`` plays first in the round of ``turn``."""
    from dataclasses import replace

    from rules.formula_de_mini.engine import _next, _race_order

    if not isinstance(raw, dict) or any(k not in ("turn", "cars", "to_act") for k in raw):
        raise MalformedRecord("$.start", "expected {turn, cars, to_act}")
    turn = whole_number(raw.get("turn", 2), "$.start.turn", 1, 9999)
    cars = {c.id: c for c in state.cars}
    circuit = state.setup.circuit
    given = raw.get("cars", {})
    if not isinstance(given, dict):
        raise MalformedRecord("$.start.cars", "expected an object from car id to its position")
    for cid, spec in given.items():
        path = f"$.start.cars.{cid}"
        if cid not in cars:
            raise MalformedRecord(path, f"unknown car; cars: {', '.join(cars)}")
        if not isinstance(spec, dict) or any(k not in START_CAR for k in spec):
            raise MalformedRecord(path, f"expected fields among {', '.join(sorted(START_CAR))}")
        at = spec.get("at", cars[cid].cell)
        if not isinstance(at, str) or at not in circuit.track.cells:
            raise MalformedRecord(f"{path}.at", f"{at!r} is not a space of this circuit")
        gear = whole_number(spec.get("gear", 3), f"{path}.gear", 1, 5)
        lp = whole_number(spec.get("lp", 20), f"{path}.lp", 0, 99)
        lap = whole_number(spec.get("lap", 1), f"{path}.lap", 1, MAX_LAPS)
        status = spec.get("status", "racing")
        if status not in ("racing", "pits", "spun"):
            raise MalformedRecord(f"{path}.status", "expected racing, pits or spun")
        if status == "spun":
            gear = 1  # a spun-out car starts off again in 1st gear
        corner = circuit.corner_number(at)
        cars[cid] = replace(
            cars[cid],
            cell=at,
            gear=gear,
            lp=lp,
            lap=lap,
            status=status,
            started=True,
            corner=corner,
            stops=whole_number(spec.get("stops", 1 if corner else 0), f"{path}.stops", 0, 3),
        )
    cells = [c.cell for c in cars.values()]
    if len(set(cells)) != len(cells):
        raise MalformedRecord("$.start.cars", "two cars on one space")
    for c in cars.values():  # cars not placed keep their grid slot but count as started
        cars[c.id] = replace(c, started=True, gear=max(c.gear, 1))
    state = replace(state, cars=tuple(cars[c.id] for c in state.cars), turn=turn, moving=None)
    order = list(_race_order(state))
    first = raw.get("to_act")
    if first is not None:
        if first not in order:
            raise MalformedRecord("$.start.to_act", f"expected a car id: {', '.join(order)}")
        order.remove(first)
        order.insert(0, first)  # it plays first this round, the others in race order
    return _next(replace(state, queue=tuple(order)))
