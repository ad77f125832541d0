"""Peloton through the game contract: what the bot reads (decisions, labelled choices, words,
courses, seats, league scoring)."""

from __future__ import annotations

from rules.action import Action
from rules.game import Seat, Standing
from rules.peloton.engine import build
from rules.peloton.game import GAME, letters
from rules.registry import find_game


def test_peloton_is_registered() -> None:
    game = find_game("peloton")
    assert game is GAME and game.piece == "cyclist"
    assert "leg-bohemia" in game.tracks.names() and "random-itt-25" in game.tracks.suggestions()


def test_the_dial_is_buttons_labelled_with_their_energy_cost_then_a_menu_of_end_hexagons() -> None:
    state = build({"track": "peloton/leg-bohemia", "players": GAME.sample_players(2)})
    d = GAME.rules.pending(state)
    assert d is not None and d.kind == "dial" and d.layout == "buttons" and d.piece == "1"
    labels = [c.label for c in GAME.rules.choices(state, d.player)]
    assert labels == ["+0 · free", "+1 · 1 energy", "+1 (2nd) · 1 energy", "+2 · 3 energy", "+2 (2nd) · 3 energy"]
    details = [c.detail for c in GAME.rules.choices(state, d.player)]
    assert details[1].endswith("then +1 or +2 or rest") and details[4].endswith("then rest")
    state, _ = GAME.rules.apply(state, GAME.rules.choices(state, d.player)[3].action)
    d = GAME.rules.pending(state)
    assert d is not None and d.kind == "ride" and d.layout == "menu"
    choices = GAME.rules.choices(state, d.player)
    assert all(c.target and c.short and c.piece == "1" for c in choices)
    assert len({c.short for c in choices}) == len(choices)
    assert choices[0].label.startswith("A: ") and "hexagons" in choices[0].label
    assert GAME.narration.ask(state, d, "Ann").startswith("Ann, **No. 1 (grey)** rides 3 to 5")


def test_the_card_draft_is_a_menu_and_the_team_time_trial_dial_a_two_step_prompt() -> None:
    state = build({"track": "peloton/ttt-100", "players": GAME.sample_players(2)})
    d = GAME.rules.pending(state)
    assert d is not None and d.kind == "card" and d.layout == "menu"
    assert len(GAME.rules.choices(state, d.player)) == 13
    while (d := GAME.rules.pending(state)) is not None and d.kind == "card":
        state, _ = GAME.rules.apply(state, GAME.ai(state, d.player))
    assert d is not None and d.kind == "dial" and d.layout == "two-step"
    steps = {c.step for c in GAME.rules.choices(state, d.player)}
    assert steps == {"1", "2", "3"}


def test_random_courses_get_the_seed_in_their_name() -> None:
    assert GAME.tracks.resolve("random-itt-50", 42) == "peloton/random-itt-50-s42"
    assert GAME.tracks.resolve("itt-25", 42) == "peloton/itt-25"
    assert GAME.tracks.hexagons("peloton/itt-75") == 75


def test_seats_and_lobby() -> None:
    colour, kinds = GAME.seat([], 3, None)
    assert colour == "grey" and kinds == ("1", "2", "3")
    seat = Seat("u1", "Ann", "red", ("1", "2"), carry={"1": 4})
    assert GAME.record_players([seat]) == [{"id": "u1", "name": "Ann", "team": "red", "cyclists": 2, "carry": {"1": 4}}]
    many = [Seat(f"u{i}", "x", c, ("1", "2", "3")) for i, c in enumerate(GAME.colours)]
    assert GAME.check_lobby(many, 3) is None
    assert GAME.check_lobby([*many, many[0]], 3) is not None


def test_a_league_adds_times_points_and_mountains_and_carries_energy() -> None:
    from bot.cli.sim import simulate

    scoring = GAME.scoring
    assert scoring is not None
    assert scoring.stage_options({}) == {"borrow": True, "start_order": "standings"}  # R-PEL-START-ORDER
    _, final = simulate("peloton", players=2, seed=3, stage="leg-bohemia")
    standings, lines = scoring.classify((), final, {})
    assert standings[0].score >= standings[-1].score
    assert any("yellow jersey" in line for line in lines)
    leader = standings[0]
    assert leader.resources["time"] >= 260 * 60 - 600
    assert -5 <= leader.resources["energy"] <= 5
    twice, _ = scoring.classify(standings, final, {})
    assert twice[0].resources["time"] == 2 * leader.resources["time"] or twice[0].piece != leader.piece
    seat = Seat("ai1", "AI", "grey", ("1", "2", "3"))
    by_piece = {s.piece: s for s in standings}
    nxt = scoring.next_seat(seat, by_piece)
    assert nxt is not None and set(nxt.carry) == {"1", "2", "3", "gc1", "gc2", "gc3"}  # energy, overall places
    assert nxt.carry["1"] == by_piece["1"].resources["energy"]
    assert "pts" in scoring.standing_text(1, leader, leader)
    assert isinstance(Standing("1", "p", 0), Standing)


def test_action_text_round_trips() -> None:
    action = Action("ann", "ride", cyclist="4", to="82.2", via=("73.1", "75.1"))
    assert GAME.vocabulary.from_text(action.text()) == action
    assert GAME.vocabulary.from_json(action.to_json()) == action
    assert letters(0) == "A" and letters(25) == "Z" and letters(26) == "AA"
