"""``domestique bench pace``: how long a weekly league stage takes with people who answer at human speed.

Stages are played through the service layer (``LeagueService`` and ``RaceService`` on a real
SQLite file) under a fake clock. Simulated people answer each decision after a delay drawn
from a log-normal with the given median; absent people never answer (their decisions time
out, then the AI takes their seat). With habits, the people present give standing orders
at the start and decide ahead whenever the bot offers it just after they answered. What a
simulated person decides is what the AI would: the figures are about time, not tactics.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest.mock import patch

from rules.registry import AnyGame, find_game
from rules.registry import games as all_games

DAY = 24 * 3600.0
WEEK = 7 * DAY
LEAGUE_CHANNEL = 50


@dataclass(frozen=True)
class Setting:
    """One way of running a league stage: the league's time banks, and the people's habits."""

    label: str
    clock: bool  # the league gives time banks from its schedule (docs/pace.md)
    habits: bool  # standing orders at the start, decisions made ahead when offered
    shorten: bool = True  # without banks: the turn timer shortened to fit the week (as before)


SETTINGS = (
    Setting("before: turn timer shortened to fit the week, no premoves/orders/banks", clock=False, habits=False),
    Setting("before: a plain 24-hour turn timer, no premoves/orders/banks", clock=False, habits=False, shorten=False),
    Setting("after: time banks from the schedule, no habits", clock=True, habits=False),
    Setting("after: time banks, standing orders and decisions made ahead", clock=True, habits=True),
)


@dataclass
class Stage:
    days: float
    asked: int = 0  # decisions people were asked (prompted)
    automatic: int = 0  # decisions the AI made for people (timeouts, away seats, spent clocks)
    human: int = 0  # decisions people made (answers, premoves, standing orders)
    answered: dict[str, int] = field(default_factory=dict)  # decisions people answered, by kind
    present_automatic: int = 0  # decisions the AI made for people present (their clock or a turn ran out)


@dataclass
class People:
    median: float  # seconds
    sigma: float
    absent: set[int]
    rng: random.Random
    pending: dict[tuple[int, str], float] = field(default_factory=dict)

    def answer_at(self, now: float, user: int, key: tuple[int, str]) -> float:
        """When ``user`` answers the decision ``key`` asked now (never, if absent)."""
        if user in self.absent:
            return math.inf
        if key not in self.pending:
            self.pending[key] = now + self.median * math.exp(self.rng.gauss(0.0, self.sigma))
        return self.pending[key]


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def _habits(races: Any, channel: int, users: Sequence[int], game: Any) -> None:
    """Standing orders a careful player gives at the start (routine decisions, until the end nears).
    Given again after the person's first answer: answering the decision they were asked when the
    stage opened cancels the orders of its piece of that kind."""
    race = await races.storage.active_race(channel)
    if race is None:
        return
    state = await races.core.state_of(race)
    plans = game.showcase.habits  # the standing orders a careful player of this game gives
    for user in users:
        seat = next(s for s in race.lobby["seats"] if s.get("user") == user)
        given = {(o.piece, o.kind) for o in await races.storage.orders(race.id) if o.player == seat["player"]}
        for piece in game.pace.pieces(state, str(seat["player"])):
            for kind, number, until, until_number in plans:
                if (piece, kind) not in given:
                    await races.pace.order(channel, user, piece, kind, number, until, until_number)


async def _premove(races: Any, channel: int, user: int, game: Any) -> None:
    """Decide ahead if the bot offers it and no standing order of the piece speaks to it: pass, or
    the first choice without an over-rev."""
    from bot.service.common import Refusal

    try:
        offered = await races.pace.ahead(channel, user)
    except Refusal:
        return
    race = await races.storage.active_race(channel)
    found = game.pace.ahead(await races.core.state_of(race), f"u{user}")
    settles = {k.name: k.settles for k in game.pace.orders}
    if found is not None and any(
        o.player == f"u{user}" and o.piece in (found[0].piece, None) and found[0].kind in settles.get(o.kind, ())
        for o in await races.storage.orders(race.id)
    ):
        return  # the person's plan makes that decision
    prompt = offered.prompt
    labels = [c.label for c in prompt.choices]
    index = next((c.index for c in prompt.choices if c.label == "Pass"), None)
    if index is None:
        index = next((c.index for c in prompt.choices if "over-rev" not in c.label and "Pass" not in c.label), 0)
    if labels:
        await races.pace.decide_ahead(prompt.race_id, prompt.version, user, index)


async def _one_stage(game: AnyGame, setting: Setting, people: People, players: int, path: str, seed: int) -> Stage:
    from bot.leagues.league import LeagueService
    from bot.service.common import Refusal
    from bot.service.races import RaceService
    from bot.storage.sqlite import SqliteStorage

    storage = SqliteStorage(path)
    await storage.open()
    clock = Clock(1_767_225_600.0)  # Thursday 1 January 2026
    seeds = random.Random(seed)
    races = RaceService(storage, now=clock, render=False, seeds=lambda: seeds.getrandbits(63))
    leagues = LeagueService(races, storage)
    channels = iter(range(1000, 2000))

    async def make_channel(parent: int, name: str) -> int:
        return next(channels)

    try:
        track = game.tracks.default
        timer = 24 * 3600
        await leagues.create(
            1,
            9,
            "Sim",
            LEAGUE_CHANNEL,
            game=game.id,
            stages=f"{track},{track}",
            timer=timer,
            clock=setting.clock,
            pieces=game.showcase.pace_pieces,
        )
        users = list(range(1, players + 1))
        for person in users:
            await leagues.join(1, None, person, f"Rider {person}", None)
        await leagues.close(1, None, 9, False)
        league = (await storage.leagues())[0]
        clock.t = (await storage.stages(league.id))[0].due or clock.t
        if setting.shorten:
            await leagues.tick(make_channel)
        else:  # the league as the issue measured it: every decision has the full turn timer
            with patch("bot.leagues.league.stage_timer", lambda configured, hexagons, humans: configured):
                await leagues.tick(make_channel)
        stage = next(s for s in await storage.stages(league.id) if s.number == 1)
        assert stage.channel_id is not None and stage.race_id is not None
        channel, opened = stage.channel_id, clock.t
        present = [u for u in users if u not in people.absent]
        if setting.habits:
            await _habits(races, channel, present, game)
        result = Stage(0.0)
        answered: set[int] = set()
        for _ in range(20000):
            race = await storage.race(stage.race_id)
            if race is None or race.status != "running":
                break
            state = await races.core.state_of(race)
            decision = game.rules.pending(state)
            if decision is None:
                break
            seat = next((s for s in race.lobby["seats"] if s["player"] == decision.player), None)
            user: int | None = seat.get("user") if seat and not seat.get("ai") else None
            away = decision.player in race.lobby.get("away", [])
            answer = math.inf
            if user is not None and not away:
                answer = people.answer_at(clock.t, user, (race.version, decision.player))
            deadline = race.deadline if race.deadline is not None else math.inf
            if user is not None and answer <= deadline and answer < math.inf:
                clock.t = answer
                result.answered[decision.kind] = result.answered.get(decision.kind, 0) + 1
                action = game.ai(state, decision.player)
                offered = game.rules.choices(state, decision.player)
                index = next(i for i, c in enumerate(offered) if c.action == action)
                if offered[index].anytime:  # eating a feed tile is not an answer to the prompt: then pass, or the first
                    steps = [i for i, c in enumerate(offered) if not c.anytime]
                    index = next((i for i in steps if offered[i].action.do == "pass"), steps[0])
                try:
                    await races.core.decide(race.id, race.version, user, index)
                except Refusal:
                    continue
                if setting.habits:
                    if user not in answered:
                        answered.add(user)
                        await _habits(races, channel, [user], game)
                    await _premove(races, channel, user, game)
            elif deadline < math.inf:
                clock.t = max(clock.t, deadline)
                await races.timers.tick()
            else:
                break
        race = await storage.race(stage.race_id)
        assert race is not None
        result.days = (clock.t - opened) / DAY
        humans = {f"u{u}" for u in users}
        for stored in race.actions:
            by = stored.text.split(" ", 1)[0]
            if by in humans:
                if stored.automatic:
                    result.automatic += 1
                    result.present_automatic += int(by[1:]) not in people.absent
                else:
                    result.human += 1
        result.asked = len(await storage.pace_times([race.id]))
        return result
    finally:
        await storage.close()


Progress = Callable[[str], None]


async def _run(
    game: AnyGame,
    setting: Setting,
    runs: int,
    players: int,
    absent: int,
    median: float,
    sigma: float,
    progress: Progress | None = None,
) -> list[Stage]:
    """``runs`` stages of ``game`` under ``setting``; ``progress`` is told a line after each."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(runs):
            rng = random.Random(1000 * n + 7)
            gone = set(rng.sample(range(1, players + 1), absent))
            people = People(median, sigma, gone, rng)
            path = str(Path(folder) / f"stage-{n}.db")
            started = time.monotonic()
            out.append(await _one_stage(game, setting, people, players, path, seed=n))
            if progress is not None:
                took = time.monotonic() - started
                progress(
                    f"{game.title}, {setting.label}: stage {n + 1} of {runs} lasted {out[-1].days:.1f} days "
                    f"({took:.1f} s to simulate)"
                )
    return out


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def describe(label: str, stages: list[Stage]) -> str:
    days = [s.days for s in stages]
    within = sum(1 for d in days if d <= 7.0) / len(days)
    decided = sum(s.human + s.automatic for s in stages)
    automatic = sum(s.automatic for s in stages) / max(1, decided)
    asked = statistics.mean(s.asked for s in stages)
    return (
        f"  {label}\n    stage duration in days: p10 {_quantile(days, 0.1):.1f}, median {statistics.median(days):.1f}, "
        f"p90 {_quantile(days, 0.9):.1f}, p95 {_quantile(days, 0.95):.1f}, max {max(days):.1f}; "
        f"within 7 days: {within:.0%}\n"
        f"    people's decisions made by the AI: {automatic:.0%}; decisions asked per stage: {asked:.0f}"
    )


def bench_pace(
    runs: int = 40,
    players: int = 6,
    absent: int = 2,
    median_hours: float = 3.0,
    sigma: float = 1.0,
    games: Sequence[str] | None = None,
    progress: Progress | None = None,
) -> str:
    """The stage-duration distribution of each game, before and after premoves, orders and banks;
    ``progress`` is told a line after each simulated stage."""
    lines = [
        f"pace: {runs} simulated weekly stages per line, {players} people ({absent} absent), answers log-normal "
        f"with median {median_hours:g} h (sigma {sigma:g}), default league settings, the game's default stage"
    ]
    if games is None:  # the games whose people have habits to simulate (their showcase)
        games = [game.id for game in all_games() if game.showcase.habits]
    for game_id in games:
        game = find_game(game_id)
        seated = min(players, game.players[1])
        pieces = game.showcase.pace_pieces or game.pieces.default
        note = f" (it seats at most {game.players[1]} players)" if seated < players else ""
        lines.append(f"{game.title}: {seated} people{note}, {absent} absent, {pieces} {game.piece_word(pieces)} each")
        for setting in SETTINGS:
            stages = asyncio.run(_run(game, setting, runs, seated, absent, median_hours * 3600, sigma, progress))
            lines.append(describe(setting.label, stages))
    return "\n".join(lines)
