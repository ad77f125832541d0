"""Leader 1 as a ``rules.game.Game``: its rules, words, seats, stages, AI and league scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.action import Action
from rules.events import Event
from rules.game import Decision, LeagueSetting, PlayerRecord, Seat, SeatOption, Standing, TeamResult
from rules.i18n import N_, _, ngettext, pgettext
from rules.leader1 import ai, engine, game_kit, rule_options, words
from rules.leader1.menu import choices, piece_name
from rules.leader1.model import RIDER_TYPES, TEAMS, Rider, State
from rules.leader1.narrate import describe, summary
from rules.leader1.numbers import leader1_numbers
from rules.leader1.order import arrival_order, classification
from rules.leader1.pace import hooks as pace_hooks
from rules.leader1.pacts import PACTS
from rules.leader1.route import road_for, stage_names
from rules.leader1.setup import build, riders_allowed
from rules.leader1.showcase import SHOWCASE
from rules.leader1.stage import carried_energy, general_classification, stage_result
from rules.leader1.versions import VERSIONS
from rules.leader1.view import public_view
from rules.teams import after_the_last, best_times

VOCABULARY = game_kit.vocabulary("yellow-rouleur")

HELP = N_(
    "**Leader 1** — each player runs a team of riders (rouleur, leader, climber). Every turn: "
    "riders ahead of the peloton ride first, the leader first; then players may break away from the "
    "peloton (at least 4 squares ahead of it); the peloton token holder may pursue (+1); the peloton "
    "rolls its die and moves; riders who fell behind ride last.\n"
    "A move has free squares (by rider type and terrain) and paid squares (1, 3, 5, 8, 11, 15 energy "
    "for 1 to 6 more). Long moves risk a crack (climbs) or a fall (descents): roll the number shown or "
    "more. Riding right behind someone keeps a slipstream. Feed zones give a face-down tile; eat it "
    "any time for energy.\n"
    "**Board**: riders are shapes with two letters (team, then R ● L ■ C ◆; K is black); the shaded "
    "band is the peloton with its riders inside; the rider to act has a ring and an arrow; highlighted "
    "squares are where it can go, named as in its menu (33.1: row 33, lane 1) with their energy cost."
)


def ask(state: State, decision: Decision, who: str) -> str:
    if decision.kind == "ride":
        return _(
            "{who}, ride your **{rider}** (turn {turn}, {phase}).",
            who=who,
            rider=piece_name(state, decision.piece or ""),
            turn=state.turn,
            phase=words.phase(state.phase),
        )
    if decision.kind == "breakaway":
        gone = [
            piece_name(state, str(e.data["rider"]))
            for e in state.events
            if e.turn == state.turn
            and e.type in ("breakaway", "dropped")
            and state.has_rider(str(e.data.get("rider", "")))
            and state.rider(str(e.data["rider"])).player == decision.player
        ]
        if gone:  # asked again in the same turn: say what changed since the last prompt
            return _(
                "{who}, another rider? Break away, drop a rider, or pass (turn {turn}; already gone: {gone}).",
                who=who,
                turn=state.turn,
                gone=", ".join(gone),
            )
        return _("{who}, break away, drop a rider, or pass (turn {turn}).", who=who, turn=state.turn)
    return _("{who}, you hold the peloton token: pursue (+1) or pass (turn {turn}).", who=who, turn=state.turn)


def announce(state: State, events: list[Event]) -> list[str]:
    """What is told at once, even mid-turn: a feed tile eaten shows its value then."""
    return [line for e in events if e.type == "ate" and (line := describe(e))]


def status(state: State) -> list[str]:
    return [game_kit.rider_status(state, r, _where(r)) for r in [*arrival_order(state), *classification(state)]]


def _where(r: Rider) -> str:
    """A rider's square after its status; nothing in the peloton or once it finished with it (no lane)."""
    return "" if r.status == "peloton" or r.row is None or r.lane is None else _(" at {cell}", cell=r.cell)


def news(before: State, after: State, events: list[Event]) -> list[tuple[str, str]]:
    """(player, private text) for each feed tile drawn in ``events``."""
    return [
        (
            player,
            _(
                "{rider} took a feed tile worth {value} (kept face down; eat it with /play move or /race hand).",
                rider=piece_name(after, rider),
                value=value,
            ),
        )
        for player, rider, value, _event in game_kit.tiles_drawn(after, events)
    ]


def hides_from(state: State, viewer: str | None) -> bool:
    """A replayable record shows every feed tile drawn: hidden while others keep theirs."""
    return any(r.kept for r in state.riders if r.player != viewer)


def cautious(state: State, player: str) -> Action:
    """The AI for a player who did not answer in time: no risk it would not take for itself."""
    action = ai.choose(state, player)
    if action.do not in ("ride", "breakaway"):
        return action
    legal = engine.legal_actions(state, player)
    chosen = next((c for c in legal if c.action == action), None)
    if chosen is None or chosen.option is None or not chosen.option.risk_count:
        return action
    if action.do == "breakaway":
        return Action(player, "pass")
    safe = [c for c in legal if c.option is not None and not c.option.risk_count and c.action.do == "ride"]
    if not safe:
        return action
    return max(safe, key=lambda c: (c.option.squares - c.option.cost if c.option else 0, c.action.to or "")).action


# ---------------------------------------------------------------- seats


def seat(seats: Sequence[Seat], riders: int, colour: str | None) -> tuple[str, tuple[str, ...]]:
    """A colour and rider types for a new seat (A.2); ValueError says why there is none.

    With one rider each (up to 10 players) colours may be shared, each seat taking a type
    of that colour nobody rides yet; otherwise each player has a colour of their own.
    """
    if riders == 1:
        if len(seats) >= 10:
            raise ValueError(_("The race is full: 10 players at most."))
        used = {(s.colour, k) for s in seats for k in s.kinds}
        open_teams = [t for t in TEAMS if any((t, k) not in used for k in RIDER_TYPES)]
        unseated = [t for t in open_teams if all(s.colour != t for s in seats)]
        chosen = colour or next(iter(unseated or open_teams), None)
        if chosen is None or chosen not in open_teams:
            free = ", ".join(words.typed_colour(t) for t in open_teams) or pgettext("free colours", "none")
            raise ValueError(_("No rider of that colour is free; free colours: {free}.", free=free))
        return chosen, (next(k for k in RIDER_TYPES if (chosen, k) not in used),)
    return own_colour(seats, TEAMS, colour), tuple(RIDER_TYPES[:riders])


def own_colour(seats: Sequence[Seat], colours: Sequence[str], colour: str | None) -> str:
    """A colour nobody in ``seats`` has: ``colour`` if free, else the first free one (ValueError if none)."""
    return game_kit.own_colour(seats, colours, colour)


def record_players(seats: Sequence[Seat]) -> list[PlayerRecord]:
    out = []
    for s in seats:
        player: PlayerRecord = {"id": s.player, "name": s.name[:32], "team": s.colour, "riders": list(s.kinds)}
        for quality in ("sprinter", "descender"):
            if s.options.get(quality) in s.kinds:
                player[quality] = s.options[quality]
        if s.carry:
            player["carry"] = dict(s.carry)
        out.append(player)
    return out


def check_lobby(seats: Sequence[Seat], riders: int) -> str | None:
    count = len(seats)
    allowed = riders_allowed(count)
    if not allowed:
        return _("Leader 1 needs 2 to 10 players; there are {count}. Add AI riders or invite friends.", count=count)
    if riders not in allowed and count <= 5:
        if len(allowed) > 1:
            riders_text = _("{first} or {second}", first=allowed[0], second=allowed[1])
            return _("with {count} players each rides {riders} rider(s)", count=count, riders=riders_text)
        return _("with {count} players each rides {riders} rider(s)", count=count, riders=allowed[0])
    return None


def sample_players(count: int) -> list[PlayerRecord]:
    """AI players for a simulated race: as many riders each as A.2 allows (12 riders at most)."""
    allowed = riders_allowed(count)
    if not allowed:
        raise ValueError(f"Leader 1 is for 2 to 10 players, got {count}")
    per = min(max(allowed), 12 // count)
    players = []
    for i in range(count):
        kinds = list(RIDER_TYPES[:per]) if count <= 5 else [RIDER_TYPES[(i // len(TEAMS)) % 3]]
        player: PlayerRecord = {"id": f"ai{i + 1}", "name": f"AI {i + 1}", "team": TEAMS[i % 5], "riders": kinds}
        if len(kinds) >= 2:
            player["sprinter"], player["descender"] = kinds[1], kinds[0]
        players.append(player)
    return players


# the qualities each player gives riders in the lobby (/race option)
QUALITY_OPTIONS = (
    SeatOption(
        "sprinter", N_("the rider who sprints for bonus time"), lambda s: s.kinds, lambda: _("sprinter"), words.kind
    ),
    SeatOption("descender", N_("the rider who descends best"), lambda s: s.kinds, lambda: _("descender"), words.kind),
)


# ---------------------------------------------------------------- stages


# ``first-race`` or ``random-12`` (a fresh route of 12 hexagons)
TRACKS = game_kit.tracks("leader1", stage_names, "first-race", (10, 15, 20), lambda name: len(road_for(name).tiles))


# ---------------------------------------------------------------- leagues


class Leader1Scoring:
    """D: the GC ring (+2 a stage win, +1 a bonus time, -1 a turn of delay), energy carried up to 15."""

    settings: tuple[LeagueSetting, ...] = (
        LeagueSetting("ring", N_("squares of the GC hexagon: a rider lapped is eliminated"), 12, 3, 40),
    )

    def stage_options(self, values: Mapping[str, int]) -> dict[str, object]:
        return {"stage_race": True, "gc_ring": int(values.get("ring", 12))}

    def classify(
        self, previous: tuple[Standing, ...], final: State, options: Mapping[str, int]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        from rules.leader1.stage import Standing as RingStanding

        lines = stage_result(final)
        ring_before = tuple(
            RingStanding(s.piece, s.player, s.score, s.resources.get("energy", 0), s.eliminated) for s in previous
        )
        gc = general_classification(ring_before, lines, int(options.get("ring", final.setup.options.gc_ring)))
        text = []
        for line in lines:
            name = piece_name(final, line.rider)
            if line.eliminated:
                text.append(_("— {rider}: eliminated (more than 3 turns after the peloton)", rider=name))
            else:
                extra = (_(" (stage win +2)") if line.won else "") + (
                    _(", bonus ×{bonuses}", bonuses=line.bonuses) if line.bonuses else ""
                )
                delay = ngettext("+{n} turn", "+{n} turns", line.delay) if line.delay else _("winner")
                text.append(
                    _(
                        "{rider}: {delay}{extra}, {energy} energy left",
                        rider=name,
                        delay=delay,
                        extra=extra,
                        energy=line.energy,
                    )
                )
        standings = tuple(Standing(s.rider, s.player, s.position, {"energy": s.energy}, s.eliminated) for s in gc)
        return standings, text

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        return game_kit.surviving_seat(
            seat, standings, lambda kind, standing: {kind: carried_energy(standing.resources.get("energy", 0))}
        )

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        return game_kit.standing_text(
            standing,
            rank,
            leader,
            N_("eliminated"),
            lambda n: ngettext("{n} square behind on the ring", "{n} squares behind on the ring", n),
        )


def team_result(final: State, players: Sequence[str]) -> TeamResult:
    """A team's stage (docs/alliances.md): its best two riders' turns behind the stage winner, a rider
    who did not finish counting one turn after the last to arrive."""
    lines = stage_result(final)
    everyone = [None if line.eliminated else line.delay for line in lines]
    mine = [None if line.eliminated else line.delay for line in lines if line.player in players]
    turns = best_times(mine, after_the_last(everyone, 1))
    return TeamResult(turns, ngettext("best two riders: {n} turn behind", "best two riders: {n} turns behind", turns))


GAME = replace(
    game_kit.family_game(
        id="leader1",
        title=N_("Leader 1"),
        colours=TEAMS,
        players=(2, 10),
        vocabulary=VOCABULARY,
        engine=game_kit.Engine(build, engine.pending, choices, engine.apply, public_view),
        out=N_("eliminated"),
        words=game_kit.Words(ask, lambda state, events: summary(events), announce, status, HELP),
        tracks=TRACKS,
        ai=ai.choose,
        cautious_ai=cautious,
        lobby=game_kit.Lobby(seat, record_players, check_lobby, sample_players, QUALITY_OPTIONS),
        news=news,
        hides_from=hides_from,
        scoring=Leader1Scoring(),
        pace=pace_hooks(),
    ),
    showcase=SHOWCASE,
    pacts=PACTS,
    team_result=team_result,
    numbers=leader1_numbers,
    versions=VERSIONS,
    race_options=(rule_options.DROP, rule_options.BOXED_IN, rule_options.PELOTON_BONUS, rule_options.BUNCH_FINISH),
)
