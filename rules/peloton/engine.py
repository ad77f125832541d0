"""Peloton's move engine: the order of a move, the dial, speed (basic + tandem + acceleration),
the paths onto free hexagons, falls, turnings, wind, bonus lines, checkpoints and the finish.

One round ("a move" in the book) moves every cyclist once, in order. Each cyclist's player
sets the dial (``dial``), then picks the end hexagon (``ride``). Decisions with one answer (a
cyclist lying down, a dial that can only go to +0) are taken at once and told as events.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules import i18n
from rules.action import Action
from rules.errors import IllegalAction, InvalidSetup, MalformedRecord, NotYourTurn, RaceOver, WrongPhase
from rules.events import Event, event
from rules.game import Envelope
from rules.peloton import start_order, variants
from rules.peloton.cards import CARDS, card, wind_of
from rules.peloton.course import TERRAINS, Course, build_course, load_course, split
from rules.peloton.model import (
    DIAL,
    FINISHED,
    LYING,
    RACING,
    STANDING,
    START,
    TEAMS,
    WAITING,
    Cyclist,
    Player,
    Setup,
    State,
)
from rules.peloton.start_order import starting_order
from rules.peloton.versions import OVERSPEED, TRIAL_HEADWIND, VERSIONS

WIND_FROM = {1: 90.0, 2: 0.0, 3: 270.0, 4: 180.0}  # R-PEL-WIND: 1 north, 2 east, 3 south, 4 west


# ---------------------------------------------------------------- building a race


def course_of(track: object) -> Course:
    if isinstance(track, str):
        if not track.startswith("peloton/"):
            raise MalformedRecord("$.track", f"expected 'peloton/<course>', got {track[:40]!r}")
        return load_course(track.removeprefix("peloton/"))
    return build_course(track)


def _players(raw: object) -> tuple[Player, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= len(TEAMS):
        raise InvalidSetup("$.players", f"Peloton has 1 to {len(TEAMS)} players (one team each)")
    out: list[Player] = []
    for i, p in enumerate(raw):
        path = f"$.players[{i}]"
        if not isinstance(p, dict):
            raise MalformedRecord(path, "expected a player object")
        for key in p:
            if key not in ("id", "name", "team", "cyclists", "carry", "places"):
                raise MalformedRecord(
                    f"{path}.{key}", "unknown player field; allowed: id, name, team, cyclists, carry, places"
                )
        pid, team = p.get("id"), p.get("team")
        if not isinstance(pid, str) or not pid:
            raise MalformedRecord(f"{path}.id", "expected a player id")
        if team not in TEAMS or any(o.team == team for o in out):
            raise InvalidSetup(f"{path}.team", f"expected a free team colour of {', '.join(TEAMS)}, got {team!r}")
        count, carry = p.get("cyclists", 3), p.get("carry", {})
        if type(count) is not int or not 1 <= count <= 3:
            raise MalformedRecord(f"{path}.cyclists", "expected 1 to 3 cyclists")
        if not isinstance(carry, dict) or not all(
            k in ("1", "2", "3") and type(v) is int and -5 <= v <= 5 for k, v in carry.items()
        ):
            raise MalformedRecord(f"{path}.carry", 'expected energy carried by slot, -5 to +5: {"1": 3}')
        places = p.get("places", {})
        if not isinstance(places, dict) or not all(
            k in ("1", "2", "3") and type(v) is int and 1 <= v <= 999 for k, v in places.items()
        ):
            raise MalformedRecord(f"{path}.places", 'expected the overall places by slot, 1 to 999: {"1": 4}')
        out.append(
            Player(
                pid,
                str(p.get("name") or pid)[:32],
                team,
                count,
                tuple(sorted(carry.items())),
                tuple(sorted(places.items())),
            )
        )
    return tuple(out)


def numbers(player: Player) -> list[str]:
    first = 3 * TEAMS.index(player.team) + 1
    return [str(first + k) for k in range(player.cyclists)]


KNOWN_OPTIONS = ("wind", "cards", "gap", "energy", "borrow", "start_order", *(o.name for o in variants.OPTIONS))


def build(envelope: Envelope) -> State:
    """A race from a record's envelope: course, players, options, ``start`` (mid-race)."""
    course = course_of(envelope.get("track"))
    players = _players(envelope.get("players"))
    options = dict(envelope.get("options") or {})
    for key in options:
        if key not in KNOWN_OPTIONS:
            raise MalformedRecord(f"$.options.{key}", f"unknown option; allowed: {', '.join(KNOWN_OPTIONS)}")
    for choice in variants.OPTIONS:
        choice.of_record(options)
    wind = options.get("wind", course.wind)
    if type(wind) is not int or not 0 <= wind <= 4:
        raise MalformedRecord("$.options.wind", "expected the wind card 0 (none) to 4")
    gap = options.get("gap", 3)
    if type(gap) is not int or not 2 <= gap <= 3:
        raise MalformedRecord("$.options.gap", "the team time trial's starts are 2 or 3 moves apart")
    energy = options.get("energy", course.energy)
    if type(energy) is not int or not 0 <= energy <= 40:
        raise MalformedRecord("$.options.energy", "expected energy from 0 to 40")
    use_cards = options.get("cards", course.discipline != "leg")
    # the starting order "according to a chosen rule" (R-PEL-START-ORDER)
    teams = [numbers(p) for p in players]
    places = {numbers(p)[int(k) - 1]: v for p in players for k, v in p.places if int(k) <= p.cyclists}
    dice = start_order.dice_of(envelope, envelope.get("seed", 0))
    rule = start_order.rule_of(options)
    order, lots = starting_order(rule, teams, discipline=course.discipline, dice=dice, places=places)
    setup = Setup(course, players, options, envelope.get("track"), lots, VERSIONS.of_envelope(envelope))
    cells = course.start_cells()
    if course.discipline == "leg" and len(order) > len(cells):
        raise InvalidSetup(  # the host reads it when starting the race
            "$.players",
            i18n._("{n} cyclists do not fit the start area of {hexagons} hexagons", n=len(order), hexagons=len(cells)),
        )
    cyclists: list[Cyclist] = []
    owner = {cid: p for p in players for cid in numbers(p)}
    for i, cid in enumerate(order):
        p = owner[cid]
        if course.discipline == "leg":
            slot = str(numbers(p).index(cid) + 1)
            cyclists.append(Cyclist(cid, p.id, p.team, cells[i], energy + dict(p.carry).get(slot, 0)))
        elif course.discipline == "itt":
            cyclists.append(Cyclist(cid, p.id, p.team, None, energy, status=WAITING, start_round=1 + 2 * i))
        else:
            team_index = list(dict.fromkeys(owner[x].id for x in order)).index(p.id)
            cyclists.append(Cyclist(cid, p.id, p.team, None, energy, status=WAITING, start_round=1 + gap * team_index))
    if use_cards and len(order) > len(CARDS):
        # one card a cyclist (R-PEL-CARDS): a fourteenth would wait for a card forever
        raise InvalidSetup(
            "$.players",
            i18n._(
                "a time trial with cards has at most {cards} cyclists (one card each); {n} ride",
                cards=len(CARDS),
                n=len(order),
            ),
        )
    state = State(setup, tuple(cyclists), wind, card_queue=tuple(order) if use_cards else ())
    start = envelope.get("start")
    if start:
        return _start_mid_race(state, start)
    if state.card_queue:
        return replace(state, phase="cards")
    state, events = _new_round(state, [])
    state, events = _settle(state, events)
    return replace(state, events=tuple(events))


def _start_mid_race(state: State, start: object) -> State:
    """A race from the record's ``start``: round, and each cyclist's hexagon, dial, energy, status."""
    if not isinstance(start, dict):
        raise MalformedRecord("$.start", "expected an object")
    rnd = start.get("round", 1)
    if type(rnd) is not int or not 1 <= rnd <= 10_000:
        raise MalformedRecord("$.start.round", "expected a move number from 1")
    given = start.get("cyclists", {})
    if not isinstance(given, dict):
        raise MalformedRecord("$.start.cyclists", "expected an object by cyclist number")
    cyclists = list(state.cyclists)
    ids = [c.id for c in cyclists]
    taken: set[str] = set()
    for cid, spec in given.items():
        path = f"$.start.cyclists.{cid}"
        if cid not in ids or not isinstance(spec, dict):
            raise MalformedRecord(path, f"no such cyclist; cyclists: {', '.join(ids)}")
        c = cyclists[ids.index(cid)]
        at = spec.get("at", c.cell)
        if at is not None and (not isinstance(at, str) or not state.course.has(at) or at in taken):
            raise MalformedRecord(f"{path}.at", f"not a free hexagon of the course: {at!r}")
        if at is not None:
            taken.add(at)
        status = spec.get("status", RACING if at is not None else WAITING)
        if status not in (WAITING, START, RACING, LYING, STANDING):
            raise MalformedRecord(f"{path}.status", "expected waiting, start, racing, lying or standing")
        values = {}
        for key, low, high in (("dial", 0, 4), ("energy", 0, 40), ("start_round", 1, 10_000), ("card", 1, 13)):
            if key in spec:
                if type(spec[key]) is not int or not low <= spec[key] <= high:
                    raise MalformedRecord(f"{path}.{key}", f"expected a whole number from {low} to {high}")
                values[key] = spec[key]
        cyclists[ids.index(cid)] = replace(c, cell=at, status=status, **values)
    cells = [c.cell for c in cyclists if c.cell is not None]
    if len(set(cells)) != len(cells):
        raise MalformedRecord("$.start.cyclists", "two cyclists on one hexagon, or a cyclist without a hexagon")
    cards_given = [c.card for c in cyclists if c.card is not None]
    wind = state.wind
    if cards_given and "wind" not in state.setup.options:
        wind = wind_of([n.number for n in CARDS if n.number not in cards_given])
    state = replace(state, cyclists=tuple(cyclists), round=rnd - 1, card_queue=(), phase="ride", wind=wind)
    state, events = _new_round(state, [])
    state, events = _settle(state, events)
    return replace(state, events=tuple(events))


# ---------------------------------------------------------------- reading the road


def occupied(state: State) -> dict[str, str]:
    """Hexagon -> cyclist, for every cyclist on the road (finishers leave it when their move ends)."""
    return {
        c.cell: c.id
        for c in state.cyclists
        if c.cell is not None and (c.status not in (WAITING, FINISHED) or c.finish_round == state.round)
    }


def relative_wind(state: State, cell: str) -> str:
    """``head``, ``tail``, ``left``, ``right`` (side wind from that side) or ``none`` at ``cell`` (R-PEL-WIND)."""
    if state.wind == 0:
        return "none"
    s, _ = split(cell)
    d = (WIND_FROM[state.wind] - state.course.heading(s) + 180.0) % 360.0 - 180.0
    if abs(d) <= 30.0:
        return "head"
    if abs(d) >= 150.0:
        return "tail"
    return "left" if d > 0 else "right"


def tandem_cells(state: State, cell: str) -> list[str]:
    """The hexagons directly in front of ``cell`` (II.3b, picture 8): the 2-3 forward hexagons; with a
    side wind only the crosswise one against the wind (IV.1). Rulings R-PEL-TANDEM, R-PEL-PICTURE-6."""
    wind = relative_wind(state, cell)
    if wind in ("left", "right"):
        windward = state.course.crosswise_ahead(cell, wind)
        return [windward] if windward is not None else []
    return [to for _, to in state.course.forward(cell)]


def _narrowed_cells(state: State, cell: str) -> list[str]:
    """The team time trial's narrowed tandem on straights (VI.2): crosswise against a side wind,
    otherwise straight ahead ("they follow each other directly")."""
    if relative_wind(state, cell) in ("left", "right"):
        return tandem_cells(state, cell)
    ahead = state.course.ahead(cell)
    return [ahead] if ahead is not None else []


def behind(state: State, cell: str, team: str, taken: dict[str, str], me: str) -> bool:
    """Would a cyclist of ``team`` on ``cell`` ride behind someone (a team-mate in a team time trial)?"""
    ttt = state.discipline == "ttt"
    others = {x for x, cid in taken.items() if cid != me and (not ttt or state.cyclist(cid).team == team)}
    in_front = [x for x in tandem_cells(state, cell) if x in others]
    if not ttt:
        return bool(in_front)
    # the team time trial: at turnings the general definition, when the cyclist or the team-mate in
    # front of it has entered the turning (VI.2, picture 17); on straights the narrowed one
    course = state.course
    if any(course.turning_at(split(x)[0]) is not None for x in [cell, *in_front]):
        return bool(in_front)
    return any(x in others for x in _narrowed_cells(state, cell))


def _tandem_partners(state: State, c: Cyclist, taken: dict[str, str]) -> bool:
    assert c.cell is not None
    return behind(state, c.cell, c.team, taken, c.id)


def may_tandem(state: State, c: Cyclist, taken: dict[str, str]) -> bool:
    """Tandem (+1): not at the start, not after a fall, not uphill, never in an individual time trial."""
    if c.cell is None or c.status != RACING or state.discipline == "itt":
        return False
    if state.course.terrain_at(split(c.cell)[0]) == "up":
        return False
    return _tandem_partners(state, c, taken)


def is_leading(state: State, c: Cyclist) -> bool:
    """A lone or leading cyclist: nobody on a hexagon directly in front when the move began
    (R-PEL-HEADWIND; the cyclist ahead has always moved away by the time this one sets its dial)."""
    return c.id not in state.sheltered


def basic_speed(state: State, c: Cyclist) -> int:
    assert c.cell is not None
    speed = TERRAINS[state.course.terrain_at(split(c.cell)[0])]
    if state.discipline != "leg" and relative_wind(state, c.cell) != "head":
        speed += 1  # time trials: +1 unless against the wind (V)
    return speed


# ---------------------------------------------------------------- the dial


@dataclass(frozen=True)
class DialOption:
    position: int
    cost: int
    kept: bool = False

    @property
    def value(self) -> int:
        return DIAL[self.position]


def dial_cost(state: State, c: Cyclist, position: int, kept: bool = False) -> int:
    value = DIAL[position]
    if value == 0:
        return 0
    cost = value + (1 if c.dial == 0 and value == 2 and not kept else 0)  # +0 -> +2 costs 3 (II.5)
    if c.cell is not None and relative_wind(state, c.cell) == "head" and is_leading(state, c):
        cost += 1  # headwind (IV.1)
    return cost


def reserve(state: State) -> int:
    """Energy a leg of a stage race may borrow from the next leg (II.5: the red positions)."""
    return 5 if state.setup.options.get("borrow") and state.discipline == "leg" else 0


def dial_options(state: State, c: Cyclist) -> list[DialOption]:
    """The dial's legal positions this move: clockwise, never through +0, with their energy cost."""
    if c.status in (LYING, STANDING):
        return [DialOption(0, 0)]
    positions = [0, 1, 2, 3, 4] if c.dial == 0 else [*range(c.dial + 1, 5), 0]
    out = [DialOption(p, dial_cost(state, c, p)) for p in positions]
    out = [o for o in out if o.cost <= c.energy + reserve(state)]
    if state.discipline == "ttt" and c.dial > 0 and c.id in state.tandem:
        keep = DialOption(c.dial, dial_cost(state, c, c.dial, kept=True), kept=True)
        if keep.cost <= c.energy + reserve(state) and _keep_possible(state, c, keep):
            out.insert(0, keep)
    return sorted(out, key=lambda o: (o.position, not o.kept))


def _keep_possible(state: State, c: Cyclist, keep: DialOption) -> bool:
    probe = replace(state, acting=c.id, kept=True)
    moved = replace(c, dial=keep.position)
    return any(not r.fell for r in rides(probe, moved))


# ---------------------------------------------------------------- paths


@dataclass(frozen=True)
class Ride:
    to: str
    via: tuple[str, ...]
    fell: str = ""  # "", "blocked", "turning", "swerve"
    speed: int = 0  # a ride chosen too fast for a turning's trail: its speed (0: judged by its length)

    @property
    def hexagons(self) -> int:
        return len(self.via) + 1


def speed_range(state: State, c: Cyclist) -> tuple[int, int]:
    basic = basic_speed(state, c)
    if c.status == STANDING:
        return basic, basic
    return basic, basic + (1 if c.id in state.tandem else 0) + DIAL[c.dial]


def _safe(state: State, cell: str, speed: int, start: str | None = None) -> bool:
    """Is ``cell`` on a trail fit for ``speed`` (IV.2)? A cyclist whose move starts inside a crossroads
    has entered it and has the traverse road straight ahead: no trail binds it there (picture 14's
    no. 2); inside an ordinary turning it still follows the trail (no. 3). Rulings R-PEL-TRAILS."""
    s, lane = split(cell)
    turning = state.course.turning_at(s)
    if speed <= 4 or turning is None or speed <= turning.limit(lane, state.course.width):
        return True
    return turning.crossroads and start is not None and state.course.turning_at(split(start)[0]) == turning


def _walk(state: State, c: Cyclist, steps: int, speed: int | None) -> dict[str, tuple[str, ...]]:
    """End hexagon -> one path (the hexagons before it) after exactly ``steps`` steps onto free
    hexagons without a swerve; through safe turning hexagons only when ``speed`` is given."""
    assert c.cell is not None
    taken = occupied(state)
    layer: dict[tuple[str, str], tuple[str, ...]] = {(c.cell, ""): ()}
    for _ in range(steps):
        nxt: dict[tuple[str, str], tuple[str, ...]] = {}
        for (cell, last), path in layer.items():
            for direction, to in state.course.forward(cell):
                if to in taken or {last, direction} == {"left", "right"}:
                    continue
                if speed is not None and not _safe(state, to, speed, c.cell):
                    continue
                nxt.setdefault((to, direction), (*path, to))
        layer = nxt
    ends: dict[str, tuple[str, ...]] = {}
    for (cell, _), path in layer.items():
        ends.setdefault(cell, path[:-1])
    return ends


def rides(state: State, c: Cyclist) -> list[Ride]:
    """Every end hexagon the cyclist may choose this move, with one path each: the safe ones, then
    the falls of riding into a turning too fast for its trail (R-PEL-OVERSPEED); when no safe ride
    makes the basic speed, the forced falls."""
    low, high = speed_range(state, c)
    out: dict[str, Ride] = {}
    for speed in range(low, high + 1):
        for to, via in _walk(state, c, speed, speed).items():
            out.setdefault(to, Ride(to, via))
    if out:
        # before R-PEL-OVERSPEED a ride too fast for a turning's trail was refused, never offered
        chosen_falls = _overspeed_falls(state, c, low, high, set(out)) if state.setup.rules.has(OVERSPEED) else []
        if state.kept:
            out = {k: r for k, r in out.items() if _behind_mate(state, c, r.to)}
        return [*sorted(out.values(), key=_ride_order), *sorted(chosen_falls, key=_ride_order)]
    # no safe way to make the basic speed: the cyclist falls (II.6, IV.2), where the path it picks
    # leaves the safe trail: every path's first unsafe hexagon is offered (R-PEL-FALLS)
    falls = {to: Ride(to, via, "turning") for to, via in _turning_falls(state, c, low).items()}
    if not falls:
        for steps in range(low - 1, 0, -1):
            ends = _walk(state, c, steps, None)
            if ends:
                falls = {to: Ride(to, via, "blocked") for to, via in ends.items()}
                break
    if not falls:  # hemmed in: falls where it stands
        assert c.cell is not None
        return [Ride(c.cell, (), "blocked")]
    return sorted(falls.values(), key=_ride_order)


def _ride_order(r: Ride) -> tuple[int, int]:
    return (-split(r.to)[0], split(r.to)[1])


def _overspeed_falls(state: State, c: Cyclist, low: int, high: int, safe: set[str]) -> list[Ride]:
    """IV.2: "Exceeding the safe speed causes the cyclist to fall on the hexagon where he did not keep
    to the safe trail": at each speed above 4 it may ride, the first unsafe hexagon of every path,
    at the lowest such speed; not where a safe ride ends (that one is the same place, standing)."""
    falls: dict[str, Ride] = {}
    for speed in range(max(low, 5), high + 1):
        for to, via in _turning_falls(state, c, speed).items():
            if to not in safe and to not in falls:
                falls[to] = Ride(to, via, "turning", speed)
    return list(falls.values())


def _turning_falls(state: State, c: Cyclist, speed: int) -> dict[str, tuple[str, ...]]:
    """Fall hexagon -> a path before it: each path of free hexagons without a swerve, up to ``speed``
    steps, ends on its first hexagon unsafe at ``speed``; those are the places it may fall."""
    assert c.cell is not None
    taken = occupied(state)
    out: dict[str, tuple[str, ...]] = {}
    seen: set[tuple[str, str, int]] = set()
    stack: list[tuple[str, str, tuple[str, ...]]] = [(c.cell, "", ())]
    while stack:
        cell, last, path = stack.pop()
        if len(path) == speed or (cell, last, len(path)) in seen:
            continue
        seen.add((cell, last, len(path)))
        for direction, to in state.course.forward(cell):
            if to in taken or {last, direction} == {"left", "right"}:
                continue
            if not _safe(state, to, speed, c.cell):
                out.setdefault(to, path)
                continue
            stack.append((to, direction, (*path, to)))
    return out


def _behind_mate(state: State, c: Cyclist, cell: str) -> bool:
    """Would ``c`` end its move on ``cell`` behind a team-mate (the kept dial's condition, VI.3)?"""
    taken = occupied(state)
    taken.pop(c.cell or "", None)
    return behind(state, cell, c.team, taken, c.id)


# ---------------------------------------------------------------- the move's order


def move_order(state: State) -> list[str]:
    """Who goes first: the one ahead; on a strip, the one further forward; then the inside line (II.2)."""
    course = state.course

    def key(c: Cyclist) -> tuple[int, int]:
        assert c.cell is not None
        s, lane = split(c.cell)
        turning = course.next_turning(s)
        inside = lane if turning is None or turning.side == "left" else course.width - 1 - lane
        return (-s, inside)

    return [c.id for c in sorted((c for c in state.cyclists if c.on_road), key=key)]


def _new_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    rnd = state.round + 1
    cyclists = list(state.cyclists)
    taken = set(occupied(replace(state, round=rnd)))
    for i, c in enumerate(cyclists):
        if c.status == FINISHED:
            continue
        if c.status == WAITING and c.start_round <= rnd:
            free = [x for x in state.course.start_cells() if x not in taken]
            if not free:
                continue  # the start is still crowded: starts next move
            cyclists[i] = replace(c, cell=free[0], status=START)
            taken.add(free[0])
            events.append(event(rnd, "started", cyclist=c.id, at=free[0]))
    state = replace(state, cyclists=tuple(cyclists), round=rnd, acting=None, kept=False)
    taken_map = occupied(state)
    on_road = [c for c in state.cyclists if c.on_road]
    tandem = frozenset(c.id for c in on_road if may_tandem(state, c, taken_map))
    sheltered = frozenset(c.id for c in on_road if _sheltered(state, c, taken_map))
    return replace(state, queue=tuple(move_order(state)), tandem=tandem, sheltered=sheltered), events


def _sheltered(state: State, c: Cyclist, taken: dict[str, str]) -> bool:
    """Not lone or leading against a headwind (R-PEL-HEADWIND): in a leg race, anybody on a hexagon
    directly in front; in an individual time trial nobody ("no advantage from riding tandem in a
    time-trial", V); in a team time trial only a team-mate it follows as in tandem (VI.2). The race
    option ``trial_headwind: sheltered`` reads "lone or leading" as in a leg race in every discipline."""
    assert c.cell is not None
    general = variants.TRIAL_WIND.of_record(state.setup.options) == "sheltered"  # the race option
    if general or not state.setup.rules.has(TRIAL_HEADWIND):  # before: the general definition in every discipline
        return any(x in taken for x in tandem_cells(state, c.cell))
    if state.discipline == "itt":
        return False
    if state.discipline == "ttt":
        return behind(state, c.cell, c.team, taken, c.id)
    return any(x in taken for x in tandem_cells(state, c.cell))


def _update(state: State, c: Cyclist) -> State:
    return replace(state, cyclists=tuple(c if x.id == c.id else x for x in state.cyclists))


def _settle(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Take every decision that has one answer; start new moves; end the race."""
    while True:
        if state.phase == "finished":
            return state, events
        if state.phase == "cards":
            return state, events
        if all(c.status == FINISHED for c in state.cyclists):
            state = replace(state, phase="finished", queue=(), acting=None)
            events.append(event(state.round, "race-over"))
            return state, events
        if not state.queue:
            state, events = _new_round(state, events)
            if not state.queue and all(c.status in (WAITING, FINISHED) for c in state.cyclists):
                continue  # nobody on the road yet (a time trial's gap)
            continue
        if state.acting is not None:
            return state, events
        head = state.cyclist(state.queue[0])
        if head.status == LYING:
            state = _update(state, replace(head, status=STANDING))
            state = replace(state, queue=state.queue[1:])
            events.append(event(state.round, "stood-up", cyclist=head.id))
            continue
        if state.discipline == "ttt":
            return state, events
        options = dial_options(state, head)
        if len(options) == 1:
            state, more = _set_dial(state, head, options[0])
            events += more
            continue
        return state, events


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Pending:
    player: str
    kind: str  # "card", "dial", "ride"
    cyclist: str | None


def pending(state: State) -> Pending | None:
    if state.phase == "finished":
        return None
    if state.phase == "cards":
        cid = state.card_queue[0]
        return Pending(state.player_of(cid), "card", cid)
    if state.acting is not None:
        return Pending(state.player_of(state.acting), "ride", state.acting)
    head = state.cyclist(state.queue[0])
    if state.discipline == "ttt":
        return Pending(head.player, "dial", None)
    return Pending(head.player, "dial", head.id)


def dial_movers(state: State) -> list[Cyclist]:
    """The cyclists whose dial may be set now: the next one, or any of the team's in a team time trial."""
    if state.acting is not None or not state.queue:
        return []
    head = state.cyclist(state.queue[0])
    if state.discipline != "ttt":
        return [head]
    return [state.cyclist(cid) for cid in state.queue if state.cyclist(cid).team == head.team]


def cards_left(state: State) -> list[int]:
    chosen = {c.card for c in state.cyclists}
    return [n.number for n in CARDS if n.number not in chosen]


@dataclass(frozen=True)
class Option:
    action: Action
    dial: DialOption | None = None
    ride: Ride | None = None
    card: int | None = None


def legal_actions(state: State, player: str) -> list[Option]:
    d = pending(state)
    if d is None or d.player != player:
        return []
    if d.kind == "card":
        return [Option(Action(player, "card", cyclist=d.cyclist, card=n), card=n) for n in cards_left(state)]
    if d.kind == "ride":
        c = state.cyclist(d.cyclist or "")
        return [
            Option(Action(player, "ride", cyclist=c.id, to=r.to, via=r.via, speed=r.speed or None), ride=r)
            for r in rides(state, c)
        ]
    out = []
    for c in dial_movers(state):
        for o in dial_options(state, c):
            out.append(Option(Action(player, "dial", cyclist=c.id, dial=o.position, keep=o.kept), dial=o))
    return out


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check and resolve one action; returns the new state and what happened."""
    d = pending(state)
    if d is None:
        raise RaceOver(f"the race is over; {action.text()!r} comes too late")
    if action.by != d.player:
        raise NotYourTurn(f"{action.text()!r}: it is {d.player}'s turn ({d.kind})")
    if action.do != d.kind:
        raise WrongPhase(f"{action.text()!r}: expected a {d.kind} action now")
    events: list[Event] = []
    if d.kind == "card":
        n = action.get("card")
        if action.get("cyclist") != d.cyclist or not isinstance(n, int) or n not in cards_left(state):
            raise IllegalAction(f"{action.text()!r}: choose a card for {d.cyclist} from {cards_left(state)}")
        c = state.cyclist(d.cyclist or "")
        state = _update(state, replace(c, card=n, energy=max(0, c.energy + card(n).energy)))
        events.append(event(state.round, "card", cyclist=c.id, card=n))
        state = replace(state, card_queue=state.card_queue[1:])
        if not state.card_queue:
            wind = state.setup.options.get("wind")
            state = replace(state, phase="ride", wind=wind if isinstance(wind, int) else wind_of(cards_left(state)))
            events.append(event(state.round, "wind", wind=state.wind))
            state, events = _new_round(state, events)
    elif d.kind == "dial":
        cid = action.get("cyclist")
        movers = {c.id: c for c in dial_movers(state)}
        if cid not in movers:
            raise IllegalAction(f"{action.text()!r}: the dial to set now is {', '.join(movers)}'s")
        c = movers[str(cid)]
        keep = bool(action.get("keep"))
        options = dial_options(state, c)
        chosen = next((o for o in options if o.position == action.get("dial") and o.kept == keep), None)
        if chosen is None:
            allowed = ", ".join(f"{o.position}{' keep' if o.kept else ''}" for o in options)
            raise IllegalAction(f"{action.text()!r}: the dial of {c.id} may go to positions {allowed}")
        state = replace(state, queue=(c.id, *(x for x in state.queue if x != c.id)))
        state, events = _set_dial(state, c, chosen)
    else:
        c = state.cyclist(d.cyclist or "")
        via = action.get("via") or ()
        to = action.get("to")
        speed = action.get("speed")
        if action.get("cyclist") != c.id or not isinstance(to, str) or not isinstance(via, tuple):
            raise IllegalAction(f"{action.text()!r}: {c.id} rides now: give to= and via=")
        if speed is not None and not state.setup.rules.has(OVERSPEED):
            raise IllegalAction(
                f"{action.text()!r}: under the rules of {state.setup.rules.name} a ride keeps to a safe trail"
            )
        state, events = _ride(state, c, (*via, to), action.text(), speed if isinstance(speed, int) else None)
    state, events = _settle(state, events)
    return replace(state, events=state.events + tuple(events)), events


def _set_dial(state: State, c: Cyclist, o: DialOption) -> tuple[State, list[Event]]:
    c = replace(c, dial=o.position, energy=c.energy - o.cost)
    state = replace(_update(state, c), acting=c.id, kept=o.kept)
    data: dict[str, object] = {"cyclist": c.id, "dial": o.position, "value": o.value, "cost": o.cost}
    if o.kept:
        data["kept"] = True
    return state, [event(state.round, "dial", **data)]


def _ride(
    state: State, c: Cyclist, path: tuple[str, ...], text: str, speed: int | None = None
) -> tuple[State, list[Event]]:
    """Ride ``path``, judged at ``speed`` when given, else at its length and at least the basic
    speed. A path that leaves a turning's safe trail ends where the cyclist falls: on a hexagon the
    menu offers as a fall, at the speed it offers (R-PEL-OVERSPEED); a ride without ``speed`` that
    falls so is that ride, and its event names the speed (docs/actions.md)."""
    course = state.course
    assert c.cell is not None
    legal = {r.to: r for r in rides(state, c)}
    taken = occupied(state)
    low, high = speed_range(state, c)
    if speed is not None and not (low <= speed <= high and 0 < len(path) <= speed):
        raise IllegalAction(f"{text!r}: {c.id} rides {low} to {high} hexagons this move, and falls on its path")
    judged = speed if speed is not None else max(len(path), low)
    if path == (c.cell,):
        if c.cell not in legal:
            raise IllegalAction(f"{text!r}: {c.id} is not hemmed in; it must ride")
        path = ()
    cell, last, fell, stop = c.cell, "", "", len(path)
    for i, to in enumerate(path):
        step = next((dname for dname, x in course.forward(cell) if x == to), None)
        if step is None or to in taken:
            raise IllegalAction(f"{text!r}: {to} is not a free hexagon straight ahead or crosswise of {cell}")
        if {last, step} == {"left", "right"}:
            fell, stop = "swerve", i + 1
            break
        if not _safe(state, to, judged, c.cell):  # its speed: a fall cuts the path short
            fell, stop = "turning", i + 1
            break
        cell, last = to, step
    if stop < len(path):
        raise IllegalAction(f"{text!r}: the cyclist falls at {path[stop - 1]} ({fell}); the path ends there")
    if len(path) > high:
        raise IllegalAction(f"{text!r}: {c.id} rides at most {high} hexagons this move")
    if speed is not None and fell != "turning":
        raise IllegalAction(f"{text!r}: at speed {speed} this path keeps to a safe trail; leave speed= out")
    if fell == "turning":
        speed = _fall_speed(text, c, path[-1], legal.get(path[-1]), judged, speed)
    if not fell and len(path) < low:
        end_now = path[-1] if path else c.cell
        if end_now not in legal or legal[end_now].fell != "blocked":
            raise IllegalAction(f"{text!r}: {c.id} must ride at least its basic speed, {low} hexagons")
        fell = "blocked"
    end = path[-1] if path else c.cell
    if state.kept and not fell and not _behind_mate(state, c, end):
        raise IllegalAction(f"{text!r}: {c.id} kept its dial, so it must end its move behind a team-mate")
    events = [
        event(
            state.round,
            "ride",
            cyclist=c.id,
            to=end,
            hexagons=len(path),
            tandem=c.id in state.tandem,
            **({"fell": fell} if fell else {}),
            **({"speed": speed} if speed is not None else {}),
        )
    ]
    old_s, new_s = split(c.cell)[0], split(end)[0]
    c = replace(c, cell=end, status=LYING if fell else RACING)
    if fell:
        c = replace(c, dial=0)
        events.append(event(state.round, "fell", cyclist=c.id, at=end, reason=fell))
    crossings = list(state.crossings)
    for index, bonus in enumerate(course.bonuses):
        if old_s <= bonus.at < new_s:
            crossings.append((index, c.id))
            place = sum(1 for i, _ in crossings if i == index)
            events.append(event(state.round, "bonus-line", cyclist=c.id, kind=bonus.kind, place=place))
    if state.discipline == "itt":
        c, more = _checkpoints(state, c, old_s, new_s)
        events += more
    arrivals = state.arrivals
    if new_s > course.finish:
        c = replace(c, status=FINISHED, finish_round=state.round, past=new_s - course.finish)
        arrivals = (*arrivals, c.id)
        events.append(event(state.round, "finished", cyclist=c.id, past=c.past, place=len(arrivals)))
    state = _update(state, c)
    state = replace(
        state, queue=state.queue[1:], acting=None, kept=False, crossings=tuple(crossings), arrivals=arrivals
    )
    if state.discipline == "ttt":
        state = _retandem(state)
    return state, events


def _fall_speed(text: str, c: Cyclist, end: str, offered: Ride | None, judged: int, named: int | None) -> int | None:
    """The speed a ride that leaves a turning's safe trail on ``end`` is written with: the menu's
    (R-PEL-OVERSPEED), none for a fall forced by the basic speed (R-PEL-FALLS); anything else is refused."""
    if offered is None or offered.fell != "turning":
        raise IllegalAction(f"{text!r}: {c.id} may not fall on {end}; it may ride there, or fall where its menu says")
    if not offered.speed:
        if named is not None:
            raise IllegalAction(f"{text!r}: {c.id} cannot keep to a safe trail at its basic speed; leave speed= out")
        return None
    if judged != offered.speed:
        raise IllegalAction(f"{text!r}: {c.id} falls on {end} at speed {offered.speed}, not {judged}")
    return judged


def _retandem(state: State) -> State:
    """Team time trial: a team moves its cyclists in any order, so a cyclist still to move also rides
    tandem behind a team-mate who has moved in front of it; tandem judged at the start of the move is
    kept (VI.1, picture 15; rulings R-PEL-TTT)."""
    taken = occupied(state)
    now = {cid for cid in state.queue if may_tandem(state, state.cyclist(cid), taken)}
    return replace(state, tandem=state.tandem | frozenset(now))


def _checkpoints(state: State, c: Cyclist, old_s: int, new_s: int) -> tuple[Cyclist, list[Event]]:
    """At the midway or thirds, energy below the book's position costs one more point per point (V)."""
    events = []
    marks = state.course.checkpoints
    base = state.course.energy
    parts = len(marks) + 1
    for k, at in enumerate(marks, start=1):
        if old_s <= at < new_s:
            threshold = base * (parts - k) // parts
            over = max(0, threshold - c.energy)
            c = replace(c, energy=max(0, c.energy - over), checkpoints=c.checkpoints + 1)
            events.append(event(state.round, "checkpoint", cyclist=c.id, position=threshold, overdrawn=over))
    return c, events
