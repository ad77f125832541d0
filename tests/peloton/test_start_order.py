"""Peloton's starting order "according to a chosen rule" (rulings R-PEL-START-ORDER): seats, lots
drawn from the record's seed, or a league's overall classification; the lobby's choice, the
record, the card draft and a running race's export all follow it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from rules.errors import MalformedRecord
from rules.game import Seat, Standing
from rules.peloton import draft
from rules.peloton.engine import build
from rules.peloton.game import GAME
from rules.peloton.model import State
from rules.record import load_record, replay
from tests.support.ai_races import ai_race
from tests.support.discord_play import world

PLAYERS = [{"id": f"p{i}", "team": t, "cyclists": 3} for i, t in enumerate(("grey", "red", "blue", "green"))]


def race(
    track: str, seed: int, rule: str | None = None, players: list[dict[str, Any]] | None = None, **more: Any
) -> State:
    options = {"start_order": rule} if rule else {}
    return build({"track": f"peloton/{track}", "players": players or PLAYERS, "options": options, "seed": seed, **more})


def order(state: State) -> list[str]:
    return [c.id for c in state.cyclists]


def test_a_record_without_the_option_starts_in_seat_order_whatever_its_seed() -> None:
    seat_order = ["1", "4", "7", "10", "2", "5", "8", "11", "3", "6", "9", "12"]
    for seed in (1, 2, 99):
        assert order(race("leg-bohemia", seed)) == seat_order
        assert order(race("leg-bohemia", seed, "seats")) == seat_order
    assert order(race("ttt-100", 7)) == [str(n) for n in range(1, 13)]


@pytest.mark.parametrize("track", ["leg-bohemia", "itt-25", "ttt-100"])
def test_drawn_lots_the_same_seed_the_same_order_other_seeds_other_orders(track: str) -> None:
    orders = {tuple(order(race(track, seed, "drawn"))) for seed in range(20)}
    assert order(race(track, 5, "drawn")) == order(race(track, 5, "drawn"))
    assert len(orders) >= 10
    assert all(sorted(o, key=int) == [str(n) for n in range(1, 13)] for o in orders)
    if track == "ttt-100":  # whole teams start together, by lot
        assert all(all(int(o[3 * k]) % 3 == 1 for k in range(4)) for o in orders)


def test_the_start_area_follows_the_drawn_order_and_time_trials_start_in_it() -> None:
    leg = race("leg-bohemia", 11, "drawn")
    cells = leg.course.start_cells()
    assert [c.cell for c in leg.cyclists] == cells[:12]
    itt = race("itt-25", 11, "drawn")
    assert [c.start_round for c in itt.cyclists] == [1 + 2 * i for i in range(12)]
    assert itt.card_queue == tuple(order(itt))  # the card draft goes in starting order
    ttt = race("ttt-100", 11, "drawn")
    first_team = ttt.cyclists[0].team
    assert {c.start_round for c in ttt.cyclists if c.team == first_team} == {1}


def test_the_card_draft_on_the_lobby_message_lists_the_drawn_order() -> None:
    itt = race("itt-25", 3, "drawn")
    assert order(itt) != order(race("itt-25", 3))
    shown = draft.lines(itt, lambda player: player)
    listed = [line.split(". No. ")[1].split(" ")[0] for line in shown if line[:1].isdigit() and ". No. " in line]
    assert listed == order(itt)
    assert f"1. No. {order(itt)[0]} " in "\n".join(shown) and "**picking now**" in shown[2]


def test_an_unknown_rule_or_a_bad_lot_is_refused_with_its_path() -> None:
    with pytest.raises(MalformedRecord, match=r"\$\.options\.start_order.*seats, drawn, standings"):
        race("leg-bohemia", 1, "fastest")
    with pytest.raises(MalformedRecord, match=r"\$\.dice\.lots"):
        race("leg-bohemia", 1, "drawn", dice={"lots": [99]})
    with pytest.raises(MalformedRecord, match=r"\$\.dice\.d6"):
        race("leg-bohemia", 1, "drawn", dice={"d6": [1]})


def test_scripted_lots_replay_the_order_without_the_seed() -> None:
    """A running race's export hands out a fresh seed and the lots drawn so far, as dice."""
    first = race("itt-50", 2026, "drawn")
    rolled = GAME.rules.rolled(first)
    assert rolled["lots"] and GAME.rules.rolled(race("itt-50", 2026)) == {}
    again = race("itt-50", 77, "drawn", dice=rolled)
    assert order(again) == order(first) != order(race("itt-50", 77, "drawn"))


def _league_players(places: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    return [dict(p, places=places[p["team"]]) if p["team"] in places else p for p in PLAYERS]


def test_standings_put_the_leader_first_on_the_line_and_last_in_a_time_trial() -> None:
    # overall places: no. 5 (red's second) leads, then 10 (green's first), then 3 (grey's third)
    places = {"red": {"2": 1}, "green": {"1": 2}, "grey": {"3": 3}}
    leg = order(race("leg-bohemia", 4, "standings", _league_players(places)))
    assert leg[:3] == ["5", "10", "3"]
    itt = order(race("itt-25", 4, "standings", _league_players(places)))
    assert itt[-3:] == ["3", "10", "5"]
    ttt = order(race("ttt-100", 4, "standings", _league_players(places)))
    assert ttt[-3:] == ["4", "5", "6"] and ttt[-6:-3] == ["10", "11", "12"]  # the leader's team last
    # those without a place (the first leg) come after the placed, by lot
    unplaced = {tuple(order(race("leg-bohemia", s, "standings", _league_players(places)))[3:]) for s in range(6)}
    assert len(unplaced) > 1


def test_a_league_leg_writes_the_overall_places_and_starts_by_them() -> None:
    scoring = GAME.scoring
    assert scoring is not None
    assert scoring.stage_options({})["start_order"] == "standings"
    standings = {
        cid: Standing(cid, "p", -t, {"time": t, "energy": 0})
        for cid, t in (("1", 500), ("2", 300), ("4", 100), ("5", 400))
    }
    grey = scoring.next_seat(Seat("p0", "Ann", "grey", ("1", "2")), standings)
    red = scoring.next_seat(Seat("p1", "Bo", "red", ("1", "2")), standings)
    assert grey is not None and red is not None
    players = GAME.record_players([grey, red])
    assert players[0]["places"] == {"1": 4, "2": 2} and players[1]["places"] == {"1": 1, "2": 3}
    assert players[0]["carry"] == {"1": 0, "2": 0}
    state = build({"track": "peloton/leg-bohemia", "players": players, "options": {"start_order": "standings"}})
    assert order(state) == ["4", "2", "5", "1"]


@pytest.mark.parametrize("stage", [None, "itt-25", "ttt-100"])
def test_twenty_seeds_of_the_sim_play_different_races_to_the_finish(stage: str | None) -> None:
    orders, records = set(), set()
    for seed in range(20):
        record, state = ai_race("peloton", 4, seed, stage)  # the races test_play reads too
        assert state.phase == "finished"
        assert record.options == {"start_order": "drawn"}
        orders.add(tuple(order(state)))
        records.add(json.dumps(record.to_json()["actions"]))
    assert len(orders) >= 10 and len(records) >= 10


# ---------------------------------------------------------------- the lobby (simcord, a real SQLite file)


async def test_the_lobby_shows_the_start_order_the_host_changes_it_and_the_record_has_it(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    opened = await alice.slash(channel, "race new", game="peloton", stage="leg-bohemia", pieces=1)
    assert "Race options (host, /race option): starting order: drawn;" in opened.response.content
    helped = await bob.slash(channel, "race help")
    assert "**starting order** is drawn by lot" in (helped.response or helped.followups[0]).content
    await bob.slash(channel, "race join")
    refused = await bob.slash(channel, "race option", option="start_order", value="seats")
    assert refused.ephemeral and "Only the host" in (refused.response or refused.followups[0]).content
    wrong = await alice.slash(channel, "race option", option="start_order", value="fastest")
    text = (wrong.response or wrong.followups[0]).content
    assert wrong.ephemeral and "starting order: one of drawn" in text and "seats (the lobby's seats in turn)" in text
    league_only = await alice.slash(channel, "race option", option="start_order", value="standings")
    assert "only a league's legs" in (league_only.response or league_only.followups[0]).content
    chosen = await alice.slash(channel, "race option", option="start_order", value="seats")
    shown = (chosen.response or chosen.followups[0]).content
    assert "The host chose starting order: seats." in shown
    await alice.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race_row = await bot.storage.active_race(channel.id)
    assert race_row.envelope["options"]["start_order"] == "seats"


async def test_a_new_race_draws_lots_and_its_running_export_replays_them(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice")
    alice = members["alice"]
    await alice.slash(channel, "race new", game="peloton", stage="leg-bohemia")
    for _ in range(3):
        await alice.slash(channel, "race ai")
    await alice.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race_row = await bot.storage.active_race(channel.id)
    assert race_row.envelope["options"] == {"start_order": "drawn"}
    state = await bot.service.core.state_of(race_row)
    exported = await alice.slash(channel, "race export")
    data = json.loads(await (exported.response or exported.followups[0]).attachments[0].read())
    assert data["seed"] != race_row.envelope["seed"] and data["dice"]["lots"]
    result = replay(load_record(json.dumps(data)))
    assert result.error_at is None and order(result.state) == order(state)
