"""Pace without Discord: league clocks from the schedule, charging, the games' hooks, storage, the simulator."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.leagues.league import MARGIN, WEEK, LeagueService
from bot.service.common import Refusal
from bot.service.races import RaceService
from bot.storage import Charges, Clock, PaceTime, Premove, StandingOrder, StoredAction
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import is_postgres, sqlite_path, storage_for
from rules.registry import find_game


class FakeClock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def env(tmp_path: Path):
    storage = SqliteStorage(str(tmp_path / "pace.db"))
    await storage.open()
    clock = FakeClock(1_767_225_600.0)
    races = RaceService(storage, now=clock, render=False, seeds=iter(range(1, 10**6)).__next__)
    yield storage, races, clock
    await storage.close()


async def test_a_league_stage_gets_clocks_that_end_it_before_the_next_opens(env) -> None:
    storage, races, clock = env
    leagues = LeagueService(races, storage)
    await leagues.create(1, 9, "Tour", 50, game="leader1", stages="first-race,first-race", pieces=1)
    for user in range(1, 7):
        await leagues.join(1, None, user, f"P{user}", None)
    await leagues.close(1, None, 9, False)
    stages = await storage.stages(1)
    clock.t = stages[0].due or 0
    channels = iter(range(700, 800))

    async def make_channel(parent: int, name: str) -> int:
        return next(channels)

    opened = await leagues.tick(make_channel)
    assert "a clock of 27 h 0 min each" in opened[0][1].posts[0].text
    race = await storage.race((await storage.stages(1))[0].race_id or 0)
    assert race is not None
    window = (stages[1].due or 0) - clock.t
    assert window == WEEK and race.lobby["bank"] == (WEEK - MARGIN) // 6
    assert race.lobby["timer"] == 24 * 3600  # the league's own, under the clock
    prompt = next(p.text for p in opened[0][1].posts if "<t:" in p.text)
    assert prompt.count("<t:") == 2
    assert "No decisions asked yet" in (await leagues.pace(1, None)).reply
    state = await races.core.state_of(race)
    decision = find_game("leader1").rules.pending(state)
    assert decision is not None
    clock.t += 3600
    labels = [c.label for c in find_game("leader1").rules.choices(state, decision.player)]
    await races.core.decide(race.id, race.version, int(decision.player[1:]), labels.index("Pass"))
    told = (await leagues.pace(1, None)).reply
    assert f"P{decision.player[1:]}: median 1 h 00 min, slowest 1 h 00 min, 1 decision asked, 0 automatic" in told


async def test_an_answer_is_charged_to_its_players_clock_and_bounds_the_next_deadline(env) -> None:
    storage, races, clock = env
    await races.lobby.new_race(1, 5, 1, "ann", game="leader1", pieces=1, bank=2 * 3600)
    await races.lobby.join(5, 2, "bob")
    await races.lobby.start(5, 1)
    race = await storage.active_race(5)
    assert race is not None and race.deadline == clock.t + 2 * 3600  # the clock ends before the day's timer
    state = await races.core.state_of(race)
    first = find_game("leader1").rules.pending(state)
    assert first is not None
    user = 1 if first.player == "u1" else 2
    clock.t += 1800
    labels = [c.label for c in find_game("leader1").rules.choices(state, first.player)]
    await races.core.decide(race.id, race.version, user, labels.index("Pass"))
    clocks = {c.player: c for c in await storage.clocks(race.id)}
    assert clocks[first.player].used == 1800 and clocks[first.player].asked is None
    assert [(t.player, t.seconds, t.automatic) for t in await storage.pace_times([race.id])] == [
        (first.player, 1800, False)
    ]


async def test_an_order_ends_at_its_moment_and_its_player_is_told(env) -> None:
    storage, races, _clock = env
    await races.lobby.new_race(1, 5, 1, "ann", game="leader1", pieces=1)
    await races.lobby.join(5, 2, "bob")
    await races.lobby.start(5, 1)
    race = await storage.active_race(5)
    assert race is not None
    state = await races.core.state_of(race)
    second = state.queue[1]
    user = int(second[1:])
    rider = next(r.id for r in state.riders if r.player == second)
    # the last 99 hexagons: already there, so the order ends when bob's decision comes
    await races.pace.order(5, user, rider, "stay", until="last", until_number=99)
    first = find_game("leader1").rules.pending(state)
    assert first is not None
    labels = [c.label for c in find_game("leader1").rules.choices(state, first.player)]
    done = await races.core.decide(race.id, race.version, 3 - user, labels.index("Pass"))
    assert any(u == user and "standing order ends: the last 99 hexagons" in text for u, text in done.dms)
    assert not await storage.orders(race.id)
    assert any(f"<@{user}>" in p.text for p in done.posts)  # asked as usual


def _pursuit_moments(game_id: str, *, own_away: bool) -> Iterator[tuple[Any, Any, int]]:
    """Pursuit decisions of AI races with a rival breakaway up the road, and with (or without) one of
    the deciding player's own riders away too: (state, decision, the rivals' gap)."""
    from bot.cli.sim import simulate
    from rules.record import start_state

    game = find_game(game_id)
    for seed in range(1, 30):
        record, _ = simulate(game_id, players=3, seed=seed)
        _, state = start_state(record)
        for action in record.actions:
            decision = game.rules.pending(state)
            if decision is not None and decision.kind == "pursuit":
                away = [r for r in state.riders if r.status == "breakaway" and r.row is not None]
                rivals = [r.row for r in away if r.player != decision.player]
                mine = any(r.player == decision.player for r in away)
                if rivals and mine == own_away:
                    yield state, decision, max(rivals) - state.peloton
            state, _ = game.rules.apply(state, action)


@pytest.mark.parametrize("game_id", ["leader1", "hell-of-the-north"])
def test_pursue_over_chases_a_rival_breakaway_only_over_the_gap_it_was_given(game_id: str) -> None:
    game = find_game(game_id)
    state, decision, gap = next(_pursuit_moments(game_id, own_away=False))
    pursue_over = next(k for k in game.pace.orders if k.name == "pursue-over")
    choices = game.rules.choices(state, decision.player)
    assert pursue_over.decides(state, decision, choices, [("x", gap - 1)]).action.do == "pursue"
    assert pursue_over.decides(state, decision, choices, [("x", gap)]).action.do == "pass"
    never = next(k for k in game.pace.orders if k.name == "never-pursue")
    assert never.decides(state, decision, choices, [("x", None)]).action.do == "pass"


@pytest.mark.parametrize("game_id", ["leader1", "hell-of-the-north"])
def test_pursue_over_never_chases_the_players_own_rider(game_id: str) -> None:
    """A plan never makes a move its words do not say: with one of the player's own riders in the
    breakaway, the peloton does not speed up after it, however far ahead a rival is."""
    game = find_game(game_id)
    state, decision, gap = next(_pursuit_moments(game_id, own_away=True))
    pursue_over = next(k for k in game.pace.orders if k.name == "pursue-over")
    choices = game.rules.choices(state, decision.player)
    assert pursue_over.decides(state, decision, choices, [("x", 0)]).action.do == "pass"
    assert gap >= 0


def test_formula_de_mini_decides_a_gear_ahead_and_keeps_it() -> None:
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import apply, pending
    from rules.formula_de_mini.setup import build

    game = find_game("formula-de-mini")
    players = [{"id": "ann", "team": "red", "cars": 1}, {"id": "bob", "team": "blue", "cars": 1}]
    state = build({"track": "formula-de-mini/canyon", "players": players, "seed": 3})
    found = None
    for _ in range(200):  # on until a car waits its turn while the other is to choose its gear
        decision = pending(state)
        assert decision is not None
        waiting = [c for c in state.queue[1:] if state.car(c).started and state.car(c).status == "racing"]
        if decision.kind == "gear" and waiting:
            found = game.pace.ahead(state, state.car(waiting[0]).player)
            if found is not None:
                break
        state, _ = apply(state, ai.choose(state, decision.player))
    assert found is not None
    ahead_decision, choices = found
    assert ahead_decision.kind == "gear" and choices and all(c.action.do == "gear" for c in choices)
    car = state.car(ahead_decision.piece or "")
    keep = game.pace.orders[0]
    mine = replace(state, moving=replace(state.moving, car=car.id, step="gear"))
    picked = keep.decides(mine, replace(ahead_decision), game.rules.choices(mine, car.player), [(car.id, None)])
    assert picked is not None and picked.action.gear == car.gear
    costlier = replace(choices[0], label=choices[0].label + " (over-rev 1 LP)")
    assert not game.pace.same(choices[0], costlier) and game.pace.same(choices[0], choices[0])


async def test_both_storages_keep_premoves_orders_clocks_and_times(database_url: str) -> None:
    from bot.storage.url import storage_for

    storage = storage_for(database_url)
    await storage.open()
    try:
        race = await storage.create_race(1, 5, 1_180_000_000_000_000_001, "leader1", {"seats": []})
        premove = Premove("u1", "breakaway", None, "u1 pass", "Pass", "", 1_180_000_000_000_000_001)
        await storage.set_premove(race.id, premove)
        await storage.set_premove(race.id, replace(premove, label="Pass again"))
        assert await storage.premoves(race.id) == [replace(premove, label="Pass again")]
        assert await storage.drop_premove(race.id, "u1") and not await storage.drop_premove(race.id, "u1")
        await storage.set_order(race.id, StandingOrder("u1", "yellow-rouleur", "stay", None, "last", 2))
        await storage.set_order(race.id, StandingOrder("u1", "yellow-rouleur", "stay", None, "last", 3))
        await storage.set_order(race.id, StandingOrder("u1", "yellow-rouleur", "never-pursue"))
        assert [(o.kind, o.until_number) for o in await storage.orders(race.id)] == [
            ("never-pursue", None),
            ("stay", 3),
        ]
        assert await storage.drop_orders(race.id, "u1", "yellow-rouleur", "stay") == 1
        assert await storage.drop_orders(race.id, "u1") == 1 and not await storage.orders(race.id)
        await storage.save_clock(race.id, Clock("u1", 3600.0, 600.0, 42.0))
        await storage.save_clock(race.id, Clock("u1", 3600.0, 900.0, None))
        assert await storage.clocks(race.id) == [Clock("u1", 3600.0, 900.0, None)]
        await storage.add_pace_time(PaceTime(race.id, "u1", 60.0, True))
        await storage.add_pace_time(PaceTime(race.id, "u2", 30.5, False))
        assert await storage.pace_times([race.id]) == [
            PaceTime(race.id, "u1", 60.0, True),
            PaceTime(race.id, "u2", 30.5, False),
        ]
        assert await storage.pace_times([]) == []
    finally:
        await storage.close()


def test_the_simulator_ends_a_leader1_stage_with_clocks_and_habits_within_its_week() -> None:
    from bot.cli.pace_bench import SETTINGS, _run

    stages = asyncio.run(_run(find_game("leader1"), SETTINGS[3], 2, 6, 2, 3 * 3600, 1.0))
    assert all(0 < s.days <= 7 for s in stages)
    assert all(s.asked > 0 and s.human > 0 for s in stages)


async def test_a_manual_move_keeps_the_cars_gear_order_and_the_order_settles_its_gears(env) -> None:
    storage, races, _clock = env
    await races.lobby.new_race(1, 5, 1, "ann", game="formula-de-mini", pieces=1)
    await races.lobby.join(5, 2, "bob")
    await races.lobby.start(5, 1)
    rules = find_game("formula-de-mini").rules
    race = await storage.active_race(5)
    assert race is not None
    car = next(c.id for c in (await races.core.state_of(race)).cars if c.player == "u1")
    await races.pace.order(5, 1, car, "keep-gear")
    moves = 0
    while moves < 3:  # ann moves her car by hand three times; bob plays his first choice
        race = await storage.active_race(5)
        assert race is not None
        decision = rules.pending(await races.core.state_of(race))
        assert decision is not None
        assert (decision.player, decision.kind) != ("u1", "gear")  # the order settles ann's gears
        moves += decision.player == "u1"
        await races.core.decide(race.id, race.version, 1 if decision.player == "u1" else 2, 0)
    # a move is no gear decision: the order stands
    assert [o.kind for o in await storage.orders(race.id)] == ["keep-gear"]
    race = await storage.active_race(5)
    assert race is not None
    gears = [a for a in race.actions if a.text.startswith(f"u1 gear car={car}")]
    assert gears and all(a.user_id == 1 and not a.automatic for a in gears)


async def clocked_race(storage: Any, clock: FakeClock, bank: int) -> tuple[RaceService, Any, str, int]:
    """Ann (host) and Bob in a Leader 1 race with ``bank`` seconds each: the service, the race, who is
    asked first and their user id."""
    races = RaceService(storage, now=clock, render=False, seeds=lambda: 5)
    await races.lobby.new_race(1, 5, 1, "ann", game="leader1", pieces=1, bank=bank)
    await races.lobby.join(5, 2, "bob")
    await races.lobby.start(5, 1)
    race = await storage.active_race(5)
    first = find_game("leader1").rules.pending(await races.core.state_of(race))
    assert first is not None
    return races, race, first.player, int(first.player[1:])


async def pass_now(races: RaceService, storage: Any, user: int) -> None:
    race = await storage.active_race(5)
    state = await races.core.state_of(race)
    labels = [c.label for c in find_game("leader1").rules.choices(state, f"u{user}")]
    await races.core.decide(race.id, race.version, user, labels.index("Pass"))


async def fail_writes_to(storage: Any, url: str, table: str) -> None:
    """A trigger that makes any write to ``table`` fail (its transaction is rolled back)."""
    if is_postgres(url):
        await storage.execute_script(
            "CREATE FUNCTION injected() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$ "
            f"LANGUAGE plpgsql; CREATE TRIGGER injected BEFORE INSERT OR UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION injected()"
        )
        return
    with sqlite3.connect(sqlite_path(url)) as db:
        for when in ("INSERT", "UPDATE"):
            db.execute(
                f"CREATE TRIGGER injected_{when.lower()} BEFORE {when} ON {table} "
                "BEGIN SELECT RAISE(ABORT, 'injected'); END"
            )


async def stop_failing(storage: Any, url: str, table: str) -> None:
    if is_postgres(url):
        await storage.execute_script(f"DROP TRIGGER injected ON {table}; DROP FUNCTION injected()")
        return
    with sqlite3.connect(sqlite_path(url)) as db:
        db.execute("DROP TRIGGER injected_insert")
        db.execute("DROP TRIGGER injected_update")


@pytest.mark.parametrize("table", ["clocks", "pace_times"])
async def test_a_decision_and_its_clocks_charge_are_saved_together_or_not_at_all(database_url: str, table: str) -> None:
    storage = storage_for(database_url)
    await storage.open()
    try:
        clock = FakeClock(1_767_225_600.0)
        races, race, first, user = await clocked_race(storage, clock, 10 * 3600)
        clocks_before = await storage.clocks(race.id)
        clock.t += 2 * 3600
        await fail_writes_to(storage, database_url, table)
        with pytest.raises(Exception, match="injected"):  # the charge fails inside the decision's transaction
            await pass_now(races, storage, user)
        await stop_failing(storage, database_url, table)
        again = await storage.active_race(5)
        assert again is not None and again.version == race.version and again.actions == race.actions
        assert await storage.clocks(race.id) == clocks_before and await storage.pace_times([race.id]) == []
        clock.t += 3600
        await pass_now(races, storage, user)  # the race goes on: the decision, charged all its three hours
        clocks = {c.player: c for c in await storage.clocks(race.id)}
        assert clocks[first].used == 3 * 3600 and clocks[first].asked is None
        assert [(t.player, t.seconds, t.index) for t in await storage.pace_times([race.id])] == [(first, 3 * 3600, 0)]
    finally:
        await storage.close()


async def test_an_undo_gives_back_the_time_its_decision_charged(database_url: str) -> None:
    storage = storage_for(database_url)
    await storage.open()
    try:
        clock = FakeClock(1_767_225_600.0)
        races, race, first, user = await clocked_race(storage, clock, 10 * 3600)
        second = "u2" if first == "u1" else "u1"
        clock.t += 2 * 3600
        await pass_now(races, storage, user)
        status = (await races.reading.status(5)).reply
        assert f"Clock: {'ann' if first == 'u1' else 'bob'} has 8 h 00 min left" in status
        clock.t += 1800  # the second player's clock runs...
        undone = await races.reading.undo(5, 1)
        assert undone.reply == "Undone."
        clocks = {c.player: c for c in await storage.clocks(race.id)}
        assert clocks[first].used == 0 and clocks[first].asked == clock.t  # asked again: its clock runs from now
        assert clocks[second].used == 0 and clocks[second].asked is None  # ...and is stopped: not theirs to decide
        assert await storage.pace_times([race.id]) == []
        status = (await races.reading.status(5)).reply
        assert "Clock: ann has 10 h 00 min left" in status and "Clock: bob has 10 h 00 min left" in status
        race = await storage.active_race(5)
        assert race is not None and race.deadline == clock.t + 10 * 3600  # the clock ends before the day's timer
        clock.t += 1800
        await pass_now(races, storage, user)
        clocks = {c.player: c for c in await storage.clocks(race.id)}
        assert clocks[first].used == 1800 and clocks[second].asked == clock.t
        assert [(t.player, t.seconds, t.index) for t in await storage.pace_times([race.id])] == [(first, 1800, 0)]
    finally:
        await storage.close()


async def test_both_storages_write_charges_with_their_actions_and_an_undo_takes_them_back(database_url: str) -> None:
    storage = storage_for(database_url)
    await storage.open()
    try:
        race = await storage.create_race(1, 5, 1, "leader1", {"seats": []})
        assert await storage.start(race.id, race.version, {}, None)
        version = race.version + 1
        asked = Charges([Clock("u1", 3600.0, 0.0, 100.0)])
        assert await storage.append_actions(race.id, version, [], None, False, charges=asked)
        first = [StoredAction(0, "u1 pass", 1, False), StoredAction(1, "u2 pass", None, True)]
        charged = Charges(
            [Clock("u1", 3600.0, 60.0, None), Clock("u3", 3600.0, 0.0, 160.0)],
            [PaceTime(race.id, "u1", 60.0, False, 0)],
        )
        stale = Charges([Clock("u1", 3600.0, 999.0, None)], [PaceTime(race.id, "u1", 999.0, False, 0)])
        assert not await storage.append_actions(race.id, version, first, None, False, charges=stale)
        assert await storage.clocks(race.id) == [Clock("u1", 3600.0, 0.0, 100.0)]  # a stale commit writes nothing
        assert await storage.append_actions(race.id, version + 1, first, 70.0, False, charges=charged)
        later = Charges([Clock("u3", 3600.0, 30.0, None)], [PaceTime(race.id, "u3", 30.0, True, 2)])
        assert await storage.append_actions(
            race.id, version + 2, [StoredAction(2, "u3 pass", 3, True)], 80.0, False, charges=later
        )
        assert await storage.pace_times([race.id]) == [*charged.times, *later.times]
        rewound = [Clock("u1", 3600.0, 60.0, 200.0), Clock("u3", 3600.0, 0.0, None)]
        assert await storage.truncate(race.id, version + 3, 2, 90.0, rewound)  # the undo of the third action
        assert await storage.clocks(race.id) == rewound
        assert await storage.pace_times([race.id]) == charged.times
        again = await storage.race(race.id)
        assert again is not None and [a.index for a in again.actions] == [0, 1] and again.deadline == 90.0
    finally:
        await storage.close()


async def test_a_decision_made_ahead_survives_a_commit_that_loses_to_a_simultaneous_click(env, monkeypatch) -> None:
    storage, races, _clock = env
    await races.lobby.new_race(1, 7, 1, "ann", game="leader1", pieces=1)
    await races.lobby.join(7, 2, "bob")
    await races.lobby.start(7, 1)
    race = await storage.active_race(7)
    assert race is not None
    rules = find_game("leader1").rules
    state = await races.core.state_of(race)
    first = rules.pending(state)
    assert first is not None
    user = 1 if first.player == "u1" else 2
    passing = [c for c in rules.choices(state, first.player) if not c.anytime]
    index = [c.label for c in passing].index("Pass")
    after = rules.apply(state, passing[index].action)[0]
    following = rules.pending(after)
    assert following is not None and following.player != first.player
    ahead = next(c for c in rules.choices(after, following.player) if not c.anytime)
    premove = Premove(
        following.player, following.kind, following.piece, ahead.action.text(), ahead.label, ahead.detail, 3 - user
    )
    await storage.set_premove(race.id, premove)

    real_append = storage.append_actions

    async def someone_else_was_first(*args: Any, **kwargs: Any) -> bool:
        return False  # the race moved on between reading it and saving: this commit is not kept

    monkeypatch.setattr(storage, "append_actions", someone_else_was_first)
    with pytest.raises(Refusal, match="not applied"):
        await races.core.decide(race.id, race.version, user, index)
    assert await storage.premoves(race.id) == [premove]  # the lost commit spent nothing

    monkeypatch.setattr(storage, "append_actions", real_append)
    await races.core.decide(race.id, race.version, user, index)
    assert await storage.premoves(race.id) == []  # spent by the commit that was kept
    moved = await storage.active_race(7)
    assert moved is not None and len(moved.actions) >= 2  # the first player's pass, then the one made ahead
