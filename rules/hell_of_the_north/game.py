"""Hell of the North as a ``rules.game.Game``: its rules, words, seats, stages, AI and league scoring."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.action import Field
from rules.events import Event
from rules.game import (
    Decision,
    LeagueSetting,
    PlayerRecord,
    RaceOption,
    Seat,
    SeatOption,
    Standing,
    TeamResult,
)
from rules.hell_of_the_north import ai, engine
from rules.hell_of_the_north.course import MAX_WEATHER, course_for, stage_names
from rules.hell_of_the_north.menu import choices, piece_name
from rules.hell_of_the_north.model import GAME_ID, QUALITIES, RIDER_TYPES, TEAMS, Rider, State
from rules.hell_of_the_north.narrate import describe, summary, weather_words
from rules.hell_of_the_north.numbers import hell_numbers
from rules.hell_of_the_north.order import arrival_order, classification
from rules.hell_of_the_north.pace import hooks as pace_hooks
from rules.hell_of_the_north.pacts import PACTS
from rules.hell_of_the_north.setup import build
from rules.hell_of_the_north.showcase import SHOWCASE
from rules.hell_of_the_north.stage import carried_energy, carried_pursuits, general_classification, stage_result
from rules.hell_of_the_north.versions import VERSIONS
from rules.hell_of_the_north.view import public_view
from rules.i18n import N_, _, ngettext, pgettext
from rules.leader1 import game_kit, rule_options, words
from rules.teams import after_the_last, best_times

VOCABULARY = game_kit.vocabulary("black-rouleur", Field("part", "text", "front or back of the peloton tile"))

HELP = N_(
    "**Leader 1: Hell of the North** — each team has a rouleur, a leader and a climber, each with one "
    "quality (descent, sprint or attack), and support riders with 6 pursuits. Every turn: (1) riders "
    "ahead of the peloton ride, first to last; (2) teams may break away from the front part of the "
    "peloton (2nd, 3rd, 4th marker, then 1st; at least 4 squares); (3) riders change part: the back "
    "pays less, only the front may attack; (4) any team may spend a pursuit to speed the peloton up (+1) "
    "and take the lead; the die moves it 3 to 5; the front pays 1 (2 for 5+), the back 0 (1); (5) dropped "
    "riders ride.\n"
    "A move has free squares (type, terrain, quality, slipstream) then paid ones (1, 3, 5, 8, 11, 15). "
    "Paid squares over dark squares risk a fall, over a mountain's category a crack; cobbles can puncture. "
    "Risks: 1st needs 4-5, 2nd a 5, then a yellow or blue 4.\n"
    "**Board**: riders are shapes with two letters (team, then R ● L ■ C ◆; K is black); dark squares "
    "are damaged asphalt, brown dotted rows cobbles; the peloton's riders are inside it, front part ahead; "
    "offered squares carry the menu's name (34.0: row 34, lane 0); ? marks face-down weather; the panel "
    "is each team's diary and last turn."
    "\n**Weather**: the host chooses how many markers lie face down beside the route before the start, "
    "0 to 6 (`/race option option:weather value:3`; empty: the route's own); "
    "each is turned when a rider or the peloton reaches the hexagon before it."
)


def _player_name(state: State, player: str) -> str:
    return game_kit.player_name(state, player)


def ask(state: State, decision: Decision, who: str) -> str:
    turn = state.turn
    if decision.kind == "ride":
        rider = piece_name(state, decision.piece or "")
        phase = words.phase(state.phase)
        return _("{who}, ride **{rider}** (turn {turn}, {phase}).", who=who, rider=rider, turn=turn, phase=phase)
    if decision.kind == "place":
        return _("{who}, put your riders in the front or back part of the peloton (before the start).", who=who)
    if decision.kind == "breakaway":
        return _("{who}, break away with a rider from the front part, or pass (turn {turn}).", who=who, turn=turn)
    if decision.kind == "position":
        return _("{who}, move riders inside the peloton, drop one back, or pass (turn {turn}).", who=who, turn=turn)
    left = state.pursuits_left(decision.player)
    return ngettext(
        "{who}, speed the peloton up (+1, {n} pursuit left) or pass (turn {turn}).",
        "{who}, speed the peloton up (+1, {n} pursuits left) or pass (turn {turn}).",
        left,
        who=who,
        turn=turn,
    )


def announce(state: State, events: list[Event]) -> list[str]:
    """Told at once, even mid-turn: a tile eaten or shown, weather turned up."""
    return [line for e in events if e.type in ("ate", "heat", "weather") and (line := describe(e))]


def status(state: State) -> list[str]:
    lines = [
        game_kit.rider_status(
            state,
            r,
            _where(r),
            _(", {quality}", quality=words.quality(r.quality)) if r.quality else "",
        )
        for r in [*arrival_order(state), *classification(state)]
    ]
    teams = ", ".join(f"{_player_name(state, p)} {n}" for p, n in state.pursuits)
    lines.append(_("pursuits: {teams}", teams=teams))
    shown = [
        _("row {row}: {weather}", row=row, weather=weather_words(m) if m else pgettext("weather", "face down"))
        for row, m in state.weather
    ]
    if shown:
        lines.append(_("weather: {markers}", markers="; ".join(shown)))
    return lines


def _where(r: Rider) -> str:
    """Where a rider is, after its status: the peloton's part it is in (none before the start), its
    square, or nothing once it finished with the peloton."""
    if r.status == "peloton":
        return _(" ({part})", part=words.part(r.part)) if r.part else ""
    # a rider who finished with the peloton has a row and no lane: no square to name
    return "" if r.row is None or r.lane is None else _(" at {cell}", cell=r.cell)


def news(before: State, after: State, events: list[Event]) -> list[tuple[str, str]]:
    """(player, private text) for each feed tile drawn in ``events``."""
    return [
        (
            player,
            _(
                "{rider} took a feed tile (form of the day) worth {value} (kept face down; eat it from your hand).",
                rider=piece_name(after, rider),
                value=value,
            )
            if e.data.get("form")
            else _(
                "{rider} took a feed tile (feed zone) worth {value} (kept face down; eat it from your hand).",
                rider=piece_name(after, rider),
                value=value,
            ),
        )
        for player, rider, value, e in game_kit.tiles_drawn(after, events)
    ]


def hides_from(state: State, viewer: str | None) -> bool:
    """A full record shows every tile drawn and the weather to come: hidden while either is secret."""
    return any(r.kept for r in state.riders if r.player != viewer) or any(m is None for _, m in state.weather)


# ---------------------------------------------------------------- seats


def own_colour(seats: Sequence[Seat], colour: str | None) -> str:
    return game_kit.own_colour(seats, TEAMS, colour, "team")


def seat(seats: Sequence[Seat], riders: int, colour: str | None) -> tuple[str, tuple[str, ...]]:
    """A team of its own (one support-rider marker each) with 1 to 3 riders."""
    return own_colour(seats, colour), tuple(RIDER_TYPES[: max(1, min(riders, 3))])


def record_players(seats: Sequence[Seat]) -> list[PlayerRecord]:
    out = []
    for s in seats:
        player: PlayerRecord = {"id": s.player, "name": s.name[:32], "team": s.colour, "riders": list(s.kinds)}
        given: set[str] = set()
        for quality in QUALITIES:
            kind = s.options.get(quality)
            if kind in s.kinds and kind not in given:
                player[quality] = kind
                given.add(kind)
        energy = {k: v for k, v in s.carry.items() if k in RIDER_TYPES}
        if energy:
            player["carry"] = energy
        if "pursuits" in s.carry:
            player["pursuits"] = s.carry["pursuits"]
        gc = {k.removeprefix("gc-"): v for k, v in s.carry.items() if k.startswith("gc-") and k[3:] in s.kinds}
        if gc:
            player["gc"] = gc
        out.append(player)
    return out


def check_lobby(seats: Sequence[Seat], riders: int) -> str | None:
    if not 2 <= len(seats) <= 4:
        return _("Hell of the North needs 2 to 4 teams; there are {count}.", count=len(seats))
    for s in seats:
        named = [s.options[q] for q in QUALITIES if s.options.get(q) in s.kinds]
        if len(set(named)) != len(named):
            return _(
                "{player}: one quality a rider (descent, sprint, attack are for three different riders)", player=s.name
            )
    return None


def sample_players(count: int) -> list[PlayerRecord]:
    """AI teams for a simulated race: 2 to 4 teams of three, each rider with a different quality."""
    if not 2 <= count <= 4:
        raise ValueError(f"Hell of the North is for 2 to 4 players, got {count}")
    return [
        {
            "id": f"ai{i + 1}",
            "name": f"AI {i + 1}",
            "team": TEAMS[i],
            "riders": list(RIDER_TYPES),
            "descent": "climber",
            "sprint": "leader",
            "attack": "rouleur",
        }
        for i in range(count)
    ]


# the qualities each player gives riders in the lobby (/race option)
QUALITY_OPTIONS = (
    SeatOption(
        "descent",
        N_("the rider with the descent quality (+1 square starting downhill)"),
        lambda s: s.kinds,
        lambda: words.quality("descent"),
        words.kind,
    ),
    SeatOption(
        "sprint",
        N_("the rider with the sprint quality (+1 square in a sprint zone)"),
        lambda s: s.kinds,
        lambda: words.quality("sprint"),
        words.kind,
    ),
    SeatOption(
        "attack",
        N_("the rider with the attack quality (first dark square ignored)"),
        lambda s: s.kinds,
        lambda: words.quality("attack"),
        words.kind,
    ),
)


def weather_count(value: str) -> int:
    """The lobby's ``weather`` option: a number of markers, 0 to 6 (Race conditions 5)."""
    text = value.strip()
    if not text.isdigit() or not 0 <= int(text) <= MAX_WEATHER:
        raise ValueError(_("weather: a number of markers from 0 to {most} (the box has {most}).", most=MAX_WEATHER))
    return int(text)


# the host's choices for the whole race (/race option), written in the record's options
RACE_OPTIONS = (
    RaceOption(
        "weather",
        N_("weather markers face down beside the route, 0 to 6 (empty: the route's own)"),
        tuple(str(n) for n in range(MAX_WEATHER + 1)),
        weather_count,
        label=N_("weather markers"),
    ),
    rule_options.PELOTON_BONUS,
    rule_options.WEATHER_REVEAL,
)


# ---------------------------------------------------------------- stages


# ``roubaix`` or ``random-12`` (a fresh route of 12 hexagons)
TRACKS = game_kit.tracks(GAME_ID, stage_names, "roubaix", (8, 12, 16), lambda name: len(course_for(name).road.tiles))


# ---------------------------------------------------------------- leagues


class HellOfTheNorthScoring:
    """Notes 2: the GC in turns behind (stage win -2, second -1, time bonus -1), out past 22
    turns, energy carried up to 15, pursuits 4 plus at most 2 carried."""

    settings: tuple[LeagueSetting, ...] = ()

    def stage_options(self, values: Mapping[str, int]) -> dict[str, object]:
        return {"multi_day": True}

    def classify(
        self, previous: tuple[Standing, ...], final: State, options: Mapping[str, int]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        lines = stage_result(final)
        totals = {s.piece: s.resources.get("turns", 0) for s in previous}
        out = {s.piece for s in previous if s.eliminated}
        ordered, out = general_classification(totals, out, lines)
        energy = {s.piece: s.resources.get("energy", 0) for s in previous}
        players = {s.piece: s.player for s in previous}
        for r in final.riders:
            energy[r.id] = r.energy
            players[r.id] = r.player
        ordered.sort(key=lambda item: (item[0] in out, item[1], -energy.get(item[0], 0), item[0]))  # R-HOTN-GC-TIE
        pursuits = {p: carried_pursuits(n) for p, n in final.pursuits}
        text = []
        for line in lines:
            name = piece_name(final, line.rider)
            if line.eliminated:
                text.append(_("— {rider}: out of the race", rider=name))
                continue
            extra = (_(" (stage bonus -{won})", won=line.won) if line.won else "") + (
                _(", time bonus -{bonuses}", bonuses=line.bonuses) if line.bonuses else ""
            )
            turns = f"{line.turns:+d}"
            text.append(
                _(
                    "{rider}: {turns} turn(s){extra}, {energy} energy left",
                    rider=name,
                    turns=turns,
                    extra=extra,
                    energy=line.energy,
                )
            )
        standings = tuple(
            Standing(
                rid,
                players.get(rid, ""),
                -turns,
                {
                    "turns": turns,
                    "energy": carried_energy(energy.get(rid, 0)),
                    "pursuits": pursuits.get(players.get(rid, ""), 0),
                },
                rid in out,
            )
            for rid, turns in ordered
        )
        return standings, text

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        racing = [s for s in standings.values() if not s.eliminated]
        leader = min((s.resources.get("turns", 0) for s in racing), default=0)

        def carry(kind: str, standing: Standing) -> dict[str, int]:
            return {
                kind: carried_energy(standing.resources.get("energy", 0)),
                f"gc-{kind}": standing.resources.get("turns", 0) - leader,
                "pursuits": carried_pursuits(standing.resources.get("pursuits", 0)),
            }

        return game_kit.surviving_seat(seat, standings, carry)

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        return game_kit.standing_text(
            standing,
            rank,
            leader,
            N_("out of the race"),
            lambda n: ngettext("{n} turn behind", "{n} turns behind", n),
        )


def team_result(final: State, players: Sequence[str]) -> TeamResult:
    """A team's stage (docs/alliances.md): its best two riders' turns behind the winner after the
    bonuses, as the GC counts them (Notes 2), a rider out counting one turn after the last."""
    lines = stage_result(final)
    everyone = [None if line.eliminated else line.turns for line in lines]
    mine = [None if line.eliminated else line.turns for line in lines if line.player in players]
    turns = best_times(mine, after_the_last(everyone, 1))
    return TeamResult(turns, _("best two riders: {turns} turn(s) after the bonuses", turns=f"{turns:+d}"))


GAME = replace(
    game_kit.family_game(
        id=GAME_ID,
        title=N_("Leader 1: Hell of the North"),
        colours=TEAMS,
        players=(2, 4),
        vocabulary=VOCABULARY,
        engine=game_kit.Engine(build, engine.pending, choices, engine.apply, public_view),
        out=N_("out of the race"),
        words=game_kit.Words(
            ask,
            lambda state, events: summary(events, lambda player: _player_name(state, player)),
            announce,
            status,
            HELP,
        ),
        tracks=TRACKS,
        ai=ai.choose,
        cautious_ai=ai.cautious,
        lobby=game_kit.Lobby(seat, record_players, check_lobby, sample_players, QUALITY_OPTIONS),
        news=news,
        hides_from=hides_from,
        scoring=HellOfTheNorthScoring(),
    ),
    race_options=RACE_OPTIONS,
    showcase=SHOWCASE,
    pacts=PACTS,
    team_result=team_result,
    numbers=hell_numbers,
    pace=pace_hooks(),
    versions=VERSIONS,
)
