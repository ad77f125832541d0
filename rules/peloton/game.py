"""Peloton as a ``rules.game.Game``: the dial as buttons with their energy cost, then the end
hexagon from a menu; time-trial cards; leg races as leagues with time, points and mountains."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules.action import Field, Vocabulary
from rules.errors import DomestiqueError, reason
from rules.events import Event, whole
from rules.game import (
    Choice,
    Decision,
    Game,
    LeagueSetting,
    LobbyDraft,
    Narration,
    Outcome,
    PieceCount,
    Placing,
    RaceOption,
    Rules,
    Seat,
    Standing,
    TeamResult,
    TrackCatalog,
)
from rules.i18n import N_, _, ngettext, npgettext, pgettext
from rules.peloton import ai, draft, engine, start_order, time_bonuses, timing, variants
from rules.peloton.cards import card
from rules.peloton.course import course_names, load_course, split
from rules.peloton.engine import Option, build, legal_actions, pending, speed_range
from rules.peloton.model import DIAL, FINISHED, TEAMS, Cyclist, State
from rules.peloton.numbers import peloton_numbers
from rules.peloton.pace import hooks as pace_hooks
from rules.peloton.pacts import PACTS
from rules.peloton.showcase import SHOWCASE
from rules.peloton.standings import classifications, finish_order, time_of
from rules.peloton.versions import VERSIONS
from rules.peloton.view import public_view
from rules.peloton.words import discipline_name, piece_name, wind_name
from rules.shown import seat_name
from rules.team_seats import NumberedTeams
from rules.teams import after_the_last, best_times

VOCABULARY = Vocabulary(
    (
        Field("cyclist", "text", "the cyclist's number, 1 to 24"),
        Field("card", "count", "a time-trial card, 1 to 13"),
        Field("dial", "count", "the acceleration dial's position, 0 to 4 (+0 +1 +1 +2 +2)"),
        Field("keep", "flag", "team time trial: keep the dial after a move in tandem"),
        Field("to", "text", "the hexagon the move ends on, <s>.<lane>"),
        Field("via", "cells", "the hexagons crossed before it"),
        Field("speed", "count", "a ride too fast for a turning's trail: its speed (it falls at to=)"),
    )
)
# a team colour a player and up to three cyclists in it; a league seat carries its cyclists' energy
# from the last leg, ±5 (II.5, rulings R-PEL-LEAGUE), and their overall places (R-PEL-START-ORDER)
SEATS = NumberedTeams(
    title="Peloton",
    colours=TEAMS,
    pieces=PieceCount(1, 3, 3),
    key="cyclists",
    fewest=1,
    refusal=N_("Peloton has 1 to 8 teams and at most 24 cyclists; there are {total}."),
    unstated=3,
    carry=lambda carried: start_order.split_carry(carried)[0],
    more=lambda seat: {"places": places} if (places := start_order.split_carry(seat.carry)[1]) else {},
)
HELP = N_(
    "**Peloton** — each player rides a team of up to three cyclists on a road of hexagons. Every move, "
    "cyclists go in order (the one ahead first). The **starting order** is drawn by lot unless the host "
    "picks the seats in turn in the lobby (`/race option start_order`); a league's legs start by the overall "
    "classification (the leader in front, last to start in a time trial). "
    "Set the **dial** (+0, +1, +1, +2, +2: always forward, "
    "never through +0; it costs its value in energy, +0 to +2 costs 3), then pick the **end hexagon**.\n"
    "Speed = basic (level 3, uphill 2, downhill 4, from the hexagon you start on) + 1 for tandem (a "
    "cyclist right in front; not uphill, not at the start or after a fall) + the dial. Ride at least the "
    "basic speed or fall; above speed 4 keep to the wide lanes of a turning or fall. Time trials: when the "
    "host starts, each cyclist takes a card (E energy, t seconds, W wind) in the starting order, with the "
    "menu on the lobby message; then basic speed +1 unless against the wind.\n"
    "**Board**: cyclists are discs in their team colour with their number (1-3 the first team, 4-6 the "
    "second ...); the panel gives each one's dial and energy. Letters on the road are where the cyclist to "
    "act can stop, as in its menu (with the hexagons ridden; T tandem, ! falls). Violet lines are speed "
    "bonuses, green ones uphill bonuses; the arrow is the wind; trails show the latest rides. A course "
    "marked on a board of roads is drawn over the board's other roads (faded).\n"
    "**Courses** (`stage:`): the shipped ones, `random-<hexagons>` (`random-itt-50`, `random-ttt-100`) for "
    "a random road, or `random-<board>-<hexagons>` (`random-bohemia-120`, `random-bohemia-itt-50`) for a "
    "random course marked on a board's roads; the same name is always the same course."
)


def _player_name(state: State, player: str) -> str:
    return seat_name(next((p.name for p in state.setup.players if p.id == player), player))


def letters(n: int) -> str:
    """A, B ... Z, AA, AB ...: the short names of the end hexagons on the board."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _then(after: list[int]) -> str:
    """What the dial may do next move (its positions left, then the rest at +0)."""
    if len(after) >= 2:
        return _("then +{a} or +{b} or rest", a=after[0], b=after[1])
    if after:
        return _("then +{a} or rest", a=after[0])
    return _("then rest")


def _dial_choice(state: State, o: Option) -> Choice:
    assert o.dial is not None
    c = state.cyclist(str(o.action.get("cyclist")))
    value = DIAL[o.dial.position]
    probe = replace(c, dial=o.dial.position)
    low, high = speed_range(state, probe)
    second = o.dial.position in (2, 4)  # the dial's second +1 or +2: fewer positions left after it
    dial = _("+{value} (2nd)", value=value) if second else f"+{value}"
    if o.dial.kept:
        dial = _("{setting} keep", setting=dial)
    label = (
        _("{setting} · {cost} energy", setting=dial, cost=o.dial.cost)
        if o.dial.cost
        else _("{setting} · free", setting=dial)
    )
    after = sorted({DIAL[p] for p in range(o.dial.position + 1, 5)}) if o.dial.position else []
    speed = (
        _("speed {low}-{high}, tandem", low=low, high=high)
        if c.id in state.tandem
        else _("speed {low}-{high}", low=low, high=high)
    )
    parts = [speed, _("{n} energy left", n=c.energy - o.dial.cost)]
    if o.dial.position:
        parts.append(_then(after))
    detail = "; ".join(parts)
    step = c.id if state.discipline == "ttt" else None
    return Choice(o.action, label, detail, piece=c.id, step=step, step_label=piece_name(state, c.id) if step else "")


FELL_WORDS = {
    "blocked": N_("cannot make the basic speed: falls"),
    "turning": N_("too fast for the trail: falls"),
}


def _ride_choice(state: State, o: Option, index: int) -> Choice:
    assert o.ride is not None
    c = state.cyclist(str(o.action.get("cyclist")))
    low, _high = speed_range(state, c)
    r = o.ride
    tandem = c.id in state.tandem and r.hexagons > low + DIAL[c.dial]
    short = letters(index)
    label = ngettext("{short}: {to} · {n} hexagons", "{short}: {to} · {n} hexagons", r.hexagons, short=short, to=r.to)
    if tandem:
        label = _("{ride} · tandem", ride=label)
    if r.fell:
        label = _("{ride} · FALLS", ride=label)
    s = split(r.to)[0]
    parts = [" → ".join([*r.via, r.to])]
    if r.speed:
        parts.append(
            _("rides in at speed {speed}, too fast for the turning: falls here and lies a move", speed=r.speed)
        )
    elif r.fell:
        parts.append(_(FELL_WORDS[r.fell]) if r.fell in FELL_WORDS else _("falls"))
    if s > state.course.finish:
        parts.append(_("finishes, {n} hexagons past the line", n=f"{(s - state.course.finish) / 2:g}"))
    return Choice(
        o.action, label[:80], "; ".join(parts)[:100], piece=c.id, target=r.to, short=short, risky=bool(r.fell), shows=r
    )


def choices(state: State, player: str) -> list[Choice]:
    d = pending(state)
    options = legal_actions(state, player)
    if d is None or not options:
        return []
    if d.kind == "card":
        # a target puts the 13 cards in a select menu: the bot lays a menu's untargeted choices out
        # as one row of five buttons (bot/discord_layer/components.py ``menus``), which would drop cards
        energy = state.cyclist(d.cyclist or "").energy
        return [
            Choice(
                o.action,
                card(o.card or 1).label,
                _("{card}; {n} energy to ride", card=card(o.card or 1).words, n=energy + card(o.card or 1).energy)[
                    :100
                ],
                piece=d.cyclist,
                target=f"card-{o.card}",
                short=str(o.card),
            )
            for o in options
        ]
    if d.kind == "dial":
        return [_dial_choice(state, o) for o in options]
    return [_ride_choice(state, o, i) for i, o in enumerate(options)]


def decision(state: State) -> Decision | None:
    d = pending(state)
    if d is None:
        return None
    layout = {"card": "menu", "ride": "menu", "dial": "two-step" if d.cyclist is None else "buttons"}[d.kind]
    return Decision(d.player, d.kind, d.cyclist, layout)  # type: ignore[arg-type]


def result_text(state: State, cid: str) -> str:
    c = state.cyclist(cid)
    if c.finish_round is None:
        return _("still racing")
    if state.discipline == "leg":
        rel, total = timing.relative(state, c), time_bonuses.leg_time(state, c)
        bonus = time_bonuses.seconds(state, c)
        if bonus:
            return _(
                "{gap} ({time}, time bonus {bonus} s)",
                gap=timing.gap(rel or 0),
                time=timing.hours(total or 0),
                bonus=bonus,
            )
        return f"{timing.gap(rel or 0)} ({timing.hours(total or 0)})"
    if state.discipline == "itt":
        return timing.clock(timing.individual(state, c) or 0)
    team_time = timing.team(state, c.team)
    return _("team {time}", time=timing.clock(team_time)) if team_time is not None else _("team still racing")


def outcome(state: State) -> Outcome:
    if state.discipline == "ttt":
        teams = sorted(
            {c.team for c in state.cyclists}, key=lambda t: (timing.team(state, t) is None, timing.team(state, t) or 0)
        )
        rank = {t: i + 1 for i, t in enumerate(teams) if timing.team(state, t) is not None}
        placings = [
            Placing(c.id, c.player, rank.get(c.team) if state.phase == "finished" else None, result_text(state, c.id))
            for c in sorted(state.cyclists, key=lambda c: (rank.get(c.team, 99), int(c.id)))
        ]
        return Outcome(state.phase == "finished", tuple(placings))
    order = finish_order(state)
    placings = [Placing(cid, state.player_of(cid), i + 1, result_text(state, cid)) for i, cid in enumerate(order)]
    placings += [Placing(c.id, c.player, None, _("still racing")) for c in state.cyclists if c.id not in order]
    return Outcome(state.phase == "finished", tuple(placings))


def ask(state: State, d: Decision, who: str) -> str:
    if d.kind == "card":
        return _(
            "{who}, choose a time-trial card for **{cyclist}**.", who=who, cyclist=piece_name(state, d.piece or "")
        )
    if d.kind == "dial" and d.piece is None:
        return _("{who}, move your team: pick a cyclist and set its dial (move {round}).", who=who, round=state.round)
    c = state.cyclist(d.piece or "")
    low, high = speed_range(state, c)
    if d.kind == "dial":
        said = {"who": who, "cyclist": piece_name(state, c.id), "dial": DIAL[c.dial], "energy": c.energy}
        if c.id in state.tandem:
            return _(
                "{who}, set the dial of **{cyclist}** (now +{dial}, {energy} energy), move {round}. "
                "It rides tandem (+1).",
                round=state.round,
                **said,
            )
        return _(
            "{who}, set the dial of **{cyclist}** (now +{dial}, {energy} energy), move {round}.",
            round=state.round,
            **said,
        )
    return ngettext(
        "{who}, **{cyclist}** rides {low} to {n} hexagons: choose where it stops.",
        "{who}, **{cyclist}** rides {low} to {n} hexagons: choose where it stops.",
        high,
        who=who,
        cyclist=piece_name(state, c.id),
        low=low,
    )


FALL_WORDS = {
    "turning": N_("too fast for the turning's trail"),
    "blocked": N_("it could not make its basic speed"),
    "swerve": N_("it swerved"),
}


def _ride_words(who: str, d: Mapping[str, object]) -> str:
    hexagons = whole(d.get("hexagons") or 0)
    if d.get("tandem"):
        text = ngettext(
            "{who} rides {n} to {to} (tandem)", "{who} rides {n} to {to} (tandem)", hexagons, who=who, to=d.get("to")
        )
    else:
        text = ngettext("{who} rides {n} to {to}", "{who} rides {n} to {to}", hexagons, who=who, to=d.get("to"))
    if d.get("fell"):  # the fall in the same line, so the line that answers the prompt tells it
        fell = str(d.get("fell"))
        why = _(FALL_WORDS[fell]) if fell in FALL_WORDS else _("falls")
        if d.get("speed"):
            return _("{ride} and falls there: {why} at speed {speed}", ride=text, why=why, speed=d.get("speed"))
        return _("{ride} and falls there: {why}", ride=text, why=why)
    return text


def describe(state: State, e: Event) -> str | None:
    d = e.data
    who = piece_name(state, str(d.get("cyclist", "")))
    if e.type == "ride":
        return _ride_words(who, d)
    if e.type == "dial":
        if d.get("cost"):
            return _("{who} sets +{value} ({cost} energy)", who=who, value=d.get("value"), cost=d.get("cost"))
        return _("{who} sets +{value}", who=who, value=d.get("value"))
    if e.type == "bonus-line":
        if d.get("kind") == "uphill":
            return _("{who} crosses the uphill bonus line, place {place}", who=who, place=d.get("place"))
        return _("{who} crosses the speed bonus line, place {place}", who=who, place=d.get("place"))
    if e.type == "checkpoint":
        if d.get("overdrawn"):
            return _("{who} passes the checkpoint, {n} overdrawn", who=who, n=d.get("overdrawn"))
        return _("{who} passes the checkpoint", who=who)
    texts = {
        "stood-up": lambda: _("{who} stands up", who=who),
        "started": lambda: _("{who} starts", who=who),
        "finished": lambda: _(
            "{who} crosses the line ({n} hexagons past it)", who=who, n=f"{whole(d.get('past', 0)) / 2:g}"
        ),
        "card": lambda: _(
            "{who} takes card {card} ({words})", who=who, card=d.get("card"), words=card(whole(d.get("card", 1))).words
        ),
        "wind": lambda: wind_name(whole(d.get("wind", 0))),
        "race-over": lambda: _("the race is over"),
    }
    said = texts.get(e.type)
    return said() if said is not None else None


def _status_word(status: str) -> str:
    words = {
        "waiting": pgettext("cyclist", "waiting"),
        "start": pgettext("cyclist", "start"),
        "racing": pgettext("cyclist", "racing"),
        "lying": pgettext("cyclist", "lying"),
        "standing": pgettext("cyclist", "standing"),
        "finished": pgettext("cyclist", "finished"),
    }
    return words.get(status, status)


def status(state: State) -> list[str]:
    lines = [
        _(
            "{discipline}, {course}, move {round}, {wind}",
            discipline=discipline_name(state.discipline),
            course=state.course.name,
            round=state.round,
            wind=wind_name(state.wind),
        )
    ]
    for c in state.cyclists:
        where = c.cell or _("waiting to start")
        if c.status == FINISHED:
            where = _("finished ({result})", result=result_text(state, c.id))
        lines.append(
            _(
                "{cyclist}, {owner}: {where}, dial +{dial}, {energy} energy, {status}",
                cyclist=piece_name(state, c.id),
                owner=_player_name(state, c.player),
                where=where,
                dial=DIAL[c.dial],
                energy=c.energy,
                status=_status_word(c.status),
            )
        )
    return lines


def results(state: State) -> list[str]:
    lines = []
    for p in outcome(state).placings:
        who, player = piece_name(state, p.piece), _player_name(state, p.player)
        if p.rank:
            lines.append(
                _("{rank}. {cyclist} ({owner}) {result}", rank=p.rank, cyclist=who, owner=player, result=p.result)
            )
        else:
            lines.append(_("— {cyclist} ({owner}) {result}", cyclist=who, owner=player, result=p.result))
    table = classifications(state)
    heads = {"points": N_("points: {best}"), "mountains": N_("mountains: {best}")}
    for name in ("points", "mountains"):
        if table[name]:
            best = sorted(table[name].items(), key=lambda kv: (-kv[1], int(kv[0])))[:3]
            lines.append(_(heads[name], best=", ".join(f"{piece_name(state, cid)} {pts}" for cid, pts in best)))
    return lines


RANDOM_SUGGESTIONS = [
    "random-120",
    "random-itt-25",
    "random-itt-50",
    "random-itt-75",
    "random-ttt-100",
    "random-bohemia-120",
    "random-bohemia-itt-50",
]


def resolve_track(name: str, seed: int) -> str:
    """A course name as a record's track; a random course gets the seed in its name (so it replays)."""
    name = name.strip().removeprefix("peloton/")
    if name.startswith("random-") and not name.rpartition("-s")[2].isdigit():  # a board may be named s...
        name = f"{name}-s{seed % 10**12}"
    try:
        load_course(name)
    except (DomestiqueError, OSError) as exc:
        raise ValueError(_("{name} is not a course: {why}", name=repr(name[:40]), why=reason(exc))) from None
    return f"peloton/{name}"


def _hexagons(name: str) -> int:
    try:
        return load_course(name.removeprefix("peloton/")).hexagons
    except (DomestiqueError, OSError):
        return 100


class StageRaceScoring:
    """A league of Peloton legs: overall time (the yellow jersey), points and mountains; energy carried
    ±5 to the next leg (II.5, rulings R-PEL-LEAGUE)."""

    settings: tuple[LeagueSetting, ...] = ()

    def stage_options(self, values: Mapping[str, int]) -> dict[str, object]:
        return {"borrow": True, "start_order": start_order.LEAGUE}

    def classify(
        self, previous: tuple[Standing, ...], final: State, options: Mapping[str, int]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        before = {s.piece: s for s in previous}
        table = classifications(final)
        standings = []
        for c in final.cyclists:
            old = before.get(c.id, Standing(c.id, c.player, 0, {"time": 0, "points": 0, "mountains": 0}))
            t = time_of(final, c) or 0
            seconds = (time_bonuses.leg_time(final, c) or 0) if final.discipline == "leg" else t // 10
            res = dict(old.resources)
            res["time"] = res.get("time", 0) + seconds
            res["points"] = res.get("points", 0) + table["points"].get(c.id, 0)
            res["mountains"] = res.get("mountains", 0) + table["mountains"].get(c.id, 0)
            res["energy"] = max(-5, min(5, c.energy)) if final.discipline == "leg" else 0
            standings.append(replace(old, score=-res["time"], resources=res))
        standings += [s for s in previous if s.piece not in {c.id for c in final.cyclists}]
        ordered = tuple(sorted(standings, key=lambda s: (-s.score, int(s.piece))))
        lines = [
            _("{rank}. {cyclist}: {result}", rank=p.rank, cyclist=piece_name(final, p.piece), result=p.result)
            for p in outcome(final).placings[:10]
        ]
        jerseys = (
            (N_("green jersey (points): {cyclist}, {n}"), "points"),
            (N_("polka-dot jersey (mountains): {cyclist}, {n}"), "mountains"),
        )
        for jersey, key in jerseys:
            best = max(ordered, key=lambda s: (s.resources.get(key, 0), -int(s.piece)), default=None)
            if best is not None and best.resources.get(key, 0):
                lines.append(_(jersey, cyclist=piece_name(final, best.piece), n=best.resources[key]))
        if ordered:
            lines.append(_("yellow jersey: {cyclist}", cyclist=piece_name(final, ordered[0].piece)))
        return ordered, lines

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        first = 3 * TEAMS.index(seat.colour) + 1 if seat.colour in TEAMS else 1
        carry = {
            k: int(st.resources.get("energy", 0)) for k in seat.kinds if (st := standings.get(str(first + int(k) - 1)))
        }
        ranked = [s.piece for s in sorted(standings.values(), key=lambda s: (-s.score, int(s.piece)))]
        return replace(seat, carry={**carry, **start_order.league_places(first, seat.kinds, ranked)})

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        total = int(standing.resources.get("time", 0))
        behind = total - int(leader.resources.get("time", 0))
        time = timing.hours(total) if rank == 1 else f"+{timing.hours(behind)}"
        return _(
            "{time}; {points} pts, {mountains} mountains",
            time=time,
            points=standing.resources.get("points", 0),
            mountains=standing.resources.get("mountains", 0),
        )


def _stage_seconds(final: State, c: Cyclist) -> int | None:
    """A cyclist's time in the stage as the league counts it, in seconds (None: not finished)."""
    if final.discipline == "leg":
        return time_bonuses.leg_time(final, c)
    t = time_of(final, c)
    return None if t is None else t // 10


def team_result(final: State, players: Sequence[str]) -> TeamResult:
    """A team's stage (docs/alliances.md): its best two cyclists' times, a cyclist who did not finish
    counting a minute (a move, III) after the slowest."""
    everyone = [_stage_seconds(final, c) for c in final.cyclists]
    mine = [_stage_seconds(final, c) for c in final.cyclists if c.player in players]
    seconds = best_times(mine, after_the_last(everyone, 60))
    return TeamResult(seconds, _("best two cyclists: {time}", time=timing.hours(seconds)))


GAME = Game(
    pacts=PACTS,
    team_result=team_result,
    numbers=lambda start, now: peloton_numbers(start, now, outcome(now)),
    id="peloton",
    title="Peloton",
    piece=N_("cyclist"),  # marked for the catalogs; translated where shown
    pieces_noun=N_("cyclists"),
    counted=lambda n: npgettext("after a number", "cyclist", "cyclists", n),
    turns_called="move",
    **SEATS.fields(),
    vocabulary=VOCABULARY,
    rules=Rules(
        build=build,
        pending=decision,
        choices=choices,
        apply=engine.apply,
        outcome=outcome,
        public_view=public_view,
        turn=lambda state: state.round,
        events=lambda state: state.events,
        rolled=lambda state: {"lots": list(state.setup.lots)} if state.setup.lots else {},
    ),
    narration=Narration(
        ask=ask,
        summary=lambda state, events: [line for e in events if (line := describe(state, e))],
        announce=lambda state, events: [],
        status=status,
        results=results,
        piece_name=piece_name,
        help=HELP,
    ),
    tracks=TrackCatalog(
        names=course_names,
        default="leg-bohemia",
        suggestions=lambda: course_names() + RANDOM_SUGGESTIONS,
        resolve=resolve_track,
        hexagons=_hexagons,
    ),
    ai=ai.choose,
    scoring=StageRaceScoring(),
    draft=LobbyDraft(drafting=draft.drafting, lines=draft.lines),
    showcase=SHOWCASE,
    race_options=(
        RaceOption(
            "start_order",
            N_("the starting order: drawn (lots, the default) or seats (the lobby's seats in turn)"),
            start_order.LOBBY,
            start_order.lobby_value,
            start_order.DEFAULT,
            label=start_order.TITLE,
            labels=tuple(start_order.SHORT.items()),
        ),
        *(o.race_option() for o in variants.OPTIONS),
    ),
    pace=pace_hooks(),
    versions=VERSIONS,
)
