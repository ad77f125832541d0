"""Peloton's AI paces its dial (issue 30): in a leg race it never pays 3 energy for a move (the
abrupt +0 -> +2, or +1 into a headwind) while its energy is short, where it used to on one dial
setting in ten; a time trial's card is weighed by what its energy buys against its seconds."""

from __future__ import annotations

from bot.service import race_options
from rules.peloton import ai
from rules.peloton.cards import card
from rules.peloton.engine import apply, build, legal_actions, pending
from rules.record import Record, start_state
from rules.registry import find_game


def test_a_leg_race_ai_never_pays_three_energy_for_a_move_while_energy_is_short() -> None:
    game = find_game("peloton")
    paid, settings = 0, 0
    for seed in (1, 2):
        track = game.tracks.resolve("leg-bohemia", seed)
        record = Record("peloton", track, game.sample_players(4), seed, options=race_options.defaults(game))
        rules, state = start_state(record)
        while not rules.rules.outcome(state).finished:
            decision = rules.rules.pending(state)
            assert decision is not None
            action = rules.ai(state, decision.player)
            if action.do == "dial":
                option = next(o for o in legal_actions(state, decision.player) if o.action == action)
                assert option.dial is not None
                cyclist = state.cyclist(str(action.get("cyclist")))
                short = cyclist.energy <= ai.SPENDABLE_PER_MOVE * ai._moves_left(state, cyclist)
                settings += 1
                paid += option.dial.cost >= 3
                assert not (short and option.dial.cost >= 3), (seed, cyclist.id)
            state, _ = rules.rules.apply(state, action)
    assert settings > 300 and paid <= settings // 50, (paid, settings)  # it was one in ten


def test_the_plan_of_the_dial_spends_plentiful_energy_on_the_abrupt_plus_two_and_short_energy_on_the_cycle() -> None:
    # five moves and energy to burn: +2 +2 rest +2 +2 (3+2+3+2) buys 8; the cycle +1 +1 +2 +2 buys 6
    assert ai.plan(5, 0, 20, 0.0, 1.0) == 8
    # six energy over five moves: the cycle's +1 +1 +2 +2 (6 energy) is the most it can buy
    assert ai.plan(5, 0, 6, 0.0, 1.0) == 6
    # energy left at an individual time trial's line is worth 4 s of a hexagon's 10
    assert ai.plan(0, 0, 5, 0.4, 1.0) == 2.0


def test_a_time_trial_card_is_weighed_by_what_its_energy_buys_against_its_seconds() -> None:
    players = [{"id": "p", "team": "grey", "cyclists": 1}]
    state = build({"track": "peloton/random-itt-25-s1", "players": players})
    decision = pending(state)
    assert decision is not None and decision.kind == "card"
    cyclist = state.cyclist(decision.cyclist or "")
    assert cyclist.energy == 5  # a 25-hexagon time trial: about a point a move, all of it spent
    chosen = card(int(ai.choose(state, decision.player).get("card") or 0))
    # a point more is a hexagon more (10 s): the +2 card for 18.3 s, where it took the middle card
    assert (chosen.energy, chosen.tenths) == (2, 183)
    while (d := pending(state)) is not None:
        state, _ = apply(state, ai.choose(state, d.player))


def test_a_cyclist_that_can_cross_the_line_now_does_not_stop_short_for_a_faster_start() -> None:
    """A move later is a minute: where the next move would start (downhill, in tandem) counts only
    short of the line. Time trials and leg races, every ride the AI chose."""
    crossed = 0
    for track in ("peloton/random-itt-25-s1", "peloton/random-itt-25-s2", "peloton/random-60-s4"):
        players = [{"id": "p", "team": "grey", "cyclists": 3}, {"id": "q", "team": "red", "cyclists": 3}]
        state = build({"track": track, "players": players})
        while (d := pending(state)) is not None:
            action = ai.choose(state, d.player)
            if d.kind == "ride":
                ends = [int(str(o.action.get("to")).split(".")[0]) for o in legal_actions(state, d.player)]
                safe = [o for o in legal_actions(state, d.player) if o.ride is not None and not o.ride.fell]
                if any(int(str(o.action.get("to")).split(".")[0]) > state.course.finish for o in safe):
                    assert int(str(action.get("to")).split(".")[0]) > state.course.finish, (track, ends)
                    crossed += 1
            state, _ = apply(state, action)
    assert crossed >= 6
