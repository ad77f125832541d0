"""The parts of a Leader 1 family ``Game`` that read the same in every edition: names, the
outcome, results, a player's hand and private news, colours, stage names, league seats, and
the ``Game`` value itself (``family_game``: an edition passes only what differs)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Generic, NamedTuple, TypeVar

from rules.action import Action, Field, Vocabulary
from rules.errors import DomestiqueError, reason
from rules.events import Event, whole
from rules.frozen import built
from rules.game import (
    Choice,
    Decision,
    Envelope,
    Game,
    LeagueScoring,
    Narration,
    Outcome,
    PaceHooks,
    PieceCount,
    Placing,
    PlayerRecord,
    Seat,
    SeatOption,
    Secrets,
    Standing,
    TrackCatalog,
    rules_for_setup_states,
)
from rules.i18n import N_, _, current, ngettext, npgettext, pgettext
from rules.leader1 import words as terms
from rules.leader1.actions import Decision as EngineDecision
from rules.leader1.family import AnyFamilyState, FamilyRider, arrival_order
from rules.leader1.paths import RideOption
from rules.shown import seat_name

FS = TypeVar("FS", bound=AnyFamilyState)  # an edition's own state
Name = Callable[[AnyFamilyState, str], str]  # (state, rider id) -> what players call the rider


def vocabulary(rider_example: str, *own: Field) -> Vocabulary:
    """The family's action fields: the rider, an edition's ``own`` fields, the square, the path, the tile."""
    return Vocabulary(
        (
            Field("rider", "text", f"the rider, e.g. {rider_example}"),
            *own,
            Field("to", "text", "the square a move ends on, e.g. 14.2"),
            Field("via", "cells", "the squares crossed before it"),
            Field("tile", "count", "a kept feed tile (0 = first kept)"),
        )
    )


def piece_name(state: AnyFamilyState | None, rider_id: str) -> str:
    """A rider as players know it: its team colour and type ("yellow rouleur")."""
    if state is None or not state.has_rider(rider_id):
        return terms.rider_id(rider_id)
    rider = state.rider(rider_id)
    return terms.rider(rider.id.split("-")[0], rider.kind)


def player_name(state: AnyFamilyState, player: str) -> str:
    return seat_name(next((p.name or p.id for p in state.setup.players if p.id == player), player))


def outcome(state: AnyFamilyState, out: str) -> Outcome:
    """Finished riders by arrival, with their turn and delay; then the riders ``out`` of the race."""
    arrived = arrival_order(state)
    first = (arrived[0].arrived_turn or 0) if arrived else 0
    placings = []
    for rank, r in enumerate(arrived, start=1):
        delay = (r.arrived_turn or 0) - first
        if delay:
            result = ngettext(
                "turn {turn}, {n} turn behind", "turn {turn}, {n} turns behind", delay, turn=r.arrived_turn
            )
        else:
            result = _("turn {turn}", turn=r.arrived_turn)
        placings.append(Placing(r.id, r.player, rank, result))
    placings += [Placing(r.id, r.player, None, _(out), True) for r in state.riders if r.status == "eliminated"]
    return Outcome(state.finished, tuple(placings))


def results(state: AnyFamilyState, placed: Outcome, name: Name) -> list[str]:
    lines = []
    for p in placed.placings:
        rider, player = name(state, p.piece), player_name(state, p.player)
        if p.rank:
            lines.append(
                _("{rank}. {rider} ({player}) {result}", rank=p.rank, rider=rider, player=player, result=p.result)
            )
        else:
            lines.append(_("— {rider} ({player}) {result}", rider=rider, player=player, result=p.result))
    return lines


def hand(state: AnyFamilyState, player: str, name: Name) -> list[str]:
    """Each of ``player``'s riders with its energy and the feed tiles it keeps face down."""
    lines = []
    for r in state.riders:
        if r.player == player:
            tiles = ", ".join(f"#{i}: {v}" for i, v in enumerate(r.kept)) or pgettext("kept tiles", "none")
            lines.append(
                _("{rider}: energy {energy}; kept tiles {tiles}", rider=name(state, r.id), energy=r.energy, tiles=tiles)
            )
    return lines


def tiles_drawn(after: AnyFamilyState, events: list[Event]) -> list[tuple[str, str, int, Event]]:
    """(player, rider id, value, event) for each feed tile drawn in ``events``, told only to its player."""
    out = []
    for e in events:
        if e.type == "fed":
            rider = after.rider(str(e.data["rider"]))
            count = whole(e.data["kept"])
            if count <= len(rider.kept):
                out.append((rider.player, rider.id, rider.kept[count - 1], e))
    return out


def own_colour(seats: Sequence[Seat], colours: Sequence[str], colour: str | None, noun: str = "colour") -> str:
    """A colour nobody in ``seats`` has: ``colour`` if free, else the first free one (ValueError if none)."""
    taken = {s.colour for s in seats}
    free = [t for t in colours if t not in taken]
    if not free:
        raise ValueError(_("Every team is taken.") if noun == "team" else _("Every colour is taken."))
    chosen = colour or free[0]
    if chosen not in colours:
        listing = ", ".join(terms.typed_colour(c) for c in colours)
        raise ValueError(
            _("Teams: {listing}.", listing=listing) if noun == "team" else _("Colours: {listing}.", listing=listing)
        )
    if chosen in taken:
        listing = ", ".join(terms.typed_colour(c) for c in free)
        raise ValueError(
            _("{chosen} is taken; free teams: {listing}.", chosen=terms.typed_colour(chosen), listing=listing)
            if noun == "team"
            else _("{chosen} is taken; free colours: {listing}.", chosen=terms.typed_colour(chosen), listing=listing)
        )
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
        raise ValueError(_("{name} is not a stage: {why}", name=repr(name[:40]), why=reason(exc))) from None
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


def decision(d: EngineDecision | None) -> Decision | None:
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
    if o.recovery:
        label = ngettext(  # one form in English, three in Czech
            "{to} · {n} sq · +{recovery} energy back",
            "{to} · {n} sq · +{recovery} energy back",
            o.squares,
            to=o.to,
            recovery=o.recovery,
        )
    else:
        label = ngettext("{to} · {n} sq · cost {cost}", "{to} · {n} sq · cost {cost}", o.squares, to=o.to, cost=o.cost)
    free = _("{free} free incl. slipstream", free=o.free) if o.slipstream else _("{free} free", free=o.free)
    parts = [free, _("{paid} paid", paid=o.paid)]
    if o.crossings:
        parts.append(ngettext("crosses {n} on a blocked road", "crosses {n} on a blocked road", o.crossings))
    parts += middle
    if risky:
        label = _("{label} · RISK", label=label)
    if o.rejoins:
        parts.append(_("rejoins the peloton"))
    if o.finishes:
        parts.append(_("crosses the line"))
    return label, "; ".join(parts)[:100]


def ride_choice(a: Action, o: RideOption, label: str, detail: str, name: str) -> Choice:
    """A ride or breakaway choice: on the board at its square; a breakaway's first step is the rider."""
    rider, to = o.rider, o.to  # the action's own fields (``ride_action``), read without its field lookup
    step = rider if a.do == "breakaway" else None
    return built(  # Choice(...) in one step: a decision lists ~35 rides, a breakaway phase ~50
        Choice,
        {
            "action": a,
            "label": label,
            "detail": detail,
            "piece": rider,
            "target": to,
            "short": to,
            "step": step,
            "step_label": _break_away(name) if step else "",
            "risky": o.risk_count > 0,
            "anytime": False,
            "shows": o,
        },
    )


def _break_away(name: str) -> str:
    """A breakaway's first step, "Break away: yellow rouleur": written once per rider and language,
    not for each of its ~15 squares."""
    key = (current(), name)
    label = _BREAK_AWAY.get(key)
    if label is None:
        if len(_BREAK_AWAY) >= 1024:
            _BREAK_AWAY.clear()
        label = _BREAK_AWAY[key] = _("Break away: {rider}", rider=name)
    return label


_BREAK_AWAY: dict[tuple[str, str], str] = {}


def eat_choice(state: AnyFamilyState, a: Action, name: str) -> Choice:
    """Eating a kept tile: its value is told to its owner here, to everyone once eaten."""
    assert isinstance(a.rider, str) and isinstance(a.tile, int)
    value = state.rider(a.rider).kept[a.tile]
    label = _("Eat tile #{tile} ({value})", tile=a.tile, value=value)
    return Choice(a, label, _("{rider} gets {value} energy", rider=name, value=value), piece=a.rider, anytime=True)


def rider_status(state: AnyFamilyState, rider: FamilyRider, where: str, quality: str = "") -> str:
    """One ``/race status`` line: the rider, its player (and ``quality``), where it is, what it has."""
    return ngettext(
        "{rider} ({player}{quality}): {status}{where}, energy {energy}, {kept} kept, {n} risk",
        "{rider} ({player}{quality}): {status}{where}, energy {energy}, {kept} kept, {n} risks",
        rider.risks,
        rider=piece_name(state, rider.id),
        player=player_name(state, rider.player),
        quality=quality,
        status=terms.status(rider.status),
        where=where,
        energy=rider.energy,
        kept=len(rider.kept),
    )


def standing_text(standing: Standing, rank: int, leader: Standing, out: str, behind: Callable[[int], str]) -> str:
    """A general-classification line: ``out`` of the race, the leader, or ``behind(score gap)``; energy carried."""
    if standing.eliminated:
        return _(out)
    gap = "" if rank == 1 else behind(leader.score - standing.score)
    if "energy" not in standing.resources:
        return gap or pgettext("classification", "leader")
    energy = standing.resources["energy"]
    if rank == 1:
        return pgettext("classification", "leader, energy {energy}", energy=energy)
    return _("{gap}, energy {energy}", gap=gap, energy=energy)


def tracks(
    game_id: str, names: Callable[[], list[str]], default: str, randoms: Sequence[int], tiles: Callable[[str], int]
) -> TrackCatalog:
    """The shipped stages (``names``) and ``random-N`` routes; ``tiles(stage)`` counts a stage's hexagons."""
    return TrackCatalog(
        names=names,
        default=default,
        suggestions=lambda: [*names(), *(f"random-{n}" for n in randoms)],
        resolve=lambda name, seed: resolve_track(name, seed, game_id, tiles),
        hexagons=lambda name: tiles(name.removeprefix(f"{game_id}/")),
    )


class Engine(NamedTuple, Generic[FS]):
    """An edition's rules as its engine and game module give them."""

    build: Callable[[Envelope], FS]  # record envelope -> state at its first decision
    pending: Callable[[FS], EngineDecision | None]  # the engine's decision
    choices: Callable[[FS, str], list[Choice]]
    apply: Callable[[FS, Action], tuple[FS, list[Event]]]
    public_view: Callable[[FS], dict[str, object]]


class Words(NamedTuple, Generic[FS]):
    """What an edition says in its own words (``rules.game.Narration`` less names and results)."""

    ask: Callable[[FS, Decision, str], str]
    summary: Callable[[FS, list[Event]], list[str]]
    announce: Callable[[FS, list[Event]], list[str]]
    status: Callable[[FS], list[str]]
    help: str


class Lobby(NamedTuple):
    """An edition's seats: a new seat, the record's players, why a lobby cannot start, a simulated race's players."""

    seat: Callable[[Sequence[Seat], int, str | None], tuple[str, tuple[str, ...]]]
    record_players: Callable[[Sequence[Seat]], list[PlayerRecord]]
    check_lobby: Callable[[Sequence[Seat], int], str | None]
    sample_players: Callable[[int], list[PlayerRecord]]
    options: tuple[SeatOption, ...]


def family_game(
    *,
    id: str,
    title: str,
    colours: tuple[str, ...],
    players: tuple[int, int],
    vocabulary: Vocabulary,
    engine: Engine[FS],
    out: str,
    words: Words[FS],
    tracks: TrackCatalog,
    ai: Callable[[FS, str], Action],
    cautious_ai: Callable[[FS, str], Action],
    lobby: Lobby,
    news: Callable[[FS, FS, list[Event]], list[tuple[str, str]]],
    hides_from: Callable[[FS, str | None], bool],
    scoring: LeagueScoring[FS],
    pace: PaceHooks[FS] | None = None,
) -> Game[FS]:
    """A Leader 1 family ``Game``: riders (1 to 3 a player), the engine's decisions asked as the family
    asks them, the outcome and results with riders ``out`` of the race, riders' names, players' hands."""

    def placed(state: FS) -> Outcome:
        return outcome(state, out)

    return Game(
        id=id,
        title=title,
        piece=N_("rider"),  # marked for the catalogs; translated where shown
        pieces_noun=N_("riders"),
        counted=lambda n: npgettext("after a number", "rider", "riders", n),
        colours=colours,
        pieces=PieceCount(1, 3, 3),
        players=players,
        vocabulary=vocabulary,
        rules=rules_for_setup_states(
            engine.build,
            lambda state: decision(engine.pending(state)),
            engine.choices,
            engine.apply,
            placed,
            engine.public_view,
        ),
        narration=Narration(
            ask=words.ask,
            summary=words.summary,
            announce=words.announce,
            status=words.status,
            results=lambda state: results(state, placed(state), piece_name),
            piece_name=piece_name,
            help=words.help,
        ),
        tracks=tracks,
        ai=ai,
        cautious_ai=cautious_ai,
        seat=lobby.seat,
        record_players=lobby.record_players,
        check_lobby=lobby.check_lobby,
        secrets=Secrets(hand=lambda state, player: hand(state, player, piece_name), news=news, hides_from=hides_from),
        seat_options=lobby.options,
        scoring=scoring,
        sample_players=lobby.sample_players,
        pace=pace or PaceHooks(),
    )
