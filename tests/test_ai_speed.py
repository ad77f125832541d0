"""The AIs' shortcuts (issue 13) give the answers of the plain way, decision for decision.

Each test plays real races and compares a shortcut with the plain computation it replaces:
the Leader 1 family AIs choosing among every legal action, a chosen ride found by a search
along its path, every roll of a Formula Dé Mini gear scored from its own move options.
Speed itself is ``domestique bench engine``, never a timed test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from rules import road as road_module
from rules import track as track_module
from rules.action import Action
from rules.formula_de_mini import ai as fdm_ai
from rules.formula_de_mini import moves as fdm_moves
from rules.formula_de_mini.engine import legal_actions as fdm_legal_actions
from rules.formula_de_mini.gears import gear_die
from rules.hell_of_the_north import ai as hotn_ai
from rules.hell_of_the_north import engine as hotn_engine
from rules.leader1 import ai as l1_ai
from rules.leader1 import ai_kit, engine, moves
from rules.leader1.paths import cracks_by_length, risks_crack
from rules.leader1.route import build_road, random_plan
from rules.memo import by_state_identity
from rules.record import Record, start_state
from rules.registry import find_game
from rules.track import cell_id


def race(game: str, stage: str | None, seed: int, players: int = 4) -> Iterator[tuple[Any, Any]]:
    """(state, decision) at every decision of an AI race, as ``domestique sim`` plays it."""
    rules = find_game(game)
    track = rules.tracks.resolve(stage or rules.tracks.default, seed)
    record = Record(game=game, track=track, players=rules.sample_players(players), seed=seed)
    game_def, state = start_state(record)
    while not game_def.rules.outcome(state).finished:
        decision = game_def.rules.pending(state)
        yield state, decision
        state, _ = game_def.rules.apply(state, game_def.ai(state, decision.player))


# ---------------------------------------------------------------- Leader 1 family


def plain_choice(state: Any, player: str, game: Any, score: Any, pursuit: Any) -> Action:
    """The family AI as it chose before issue 13 (with issue 30's final attack): from every legal
    action, destinations listed."""
    choices = game.legal_actions(state, player)
    for c in choices:
        if c.action.do == "eat":
            rider = state.rider(c.action.rider)
            if rider.energy < ai_kit.LOW_ENERGY or rider.status == "finished":
                return c.action  # type: ignore[no-any-return]
    decision = game.pending(state)
    if decision.kind == "ride":
        rides = [c for c in choices if c.option is not None]
        return max(rides, key=lambda c: (score(state, c.option), c.action.to)).action  # type: ignore[no-any-return]
    if decision.kind == "pursuit":
        return pursuit(state, player)  # type: ignore[no-any-return]
    mine_away = sum(1 for r in state.riders if r.player == player and r.status == "breakaway")
    options = [c for c in choices if c.action.do == "breakaway" and c.option is not None]
    start = state.setup.road.energy
    # the final attack (issue 30): a rider whose energy the rest of the stage would not use
    late = [
        c
        for c in options
        if ai_kit.attack_worth(state, state.rider(c.option.rider))
        and c.option.worst_cost <= state.rider(c.option.rider).energy
    ]
    if late:
        return max(late, key=lambda c: (score(state, c.option), c.action.to)).action  # type: ignore[no-any-return]
    if mine_away == 0 and options and ai_kit.seeded_roll(state, player, 100) < 22:
        good = [
            c
            for c in options
            if c.option.risk_count == 0
            and c.option.cost <= max(3, state.rider(c.option.rider).energy // 8)
            and state.rider(c.option.rider).energy > start * 0.45
        ]
        if good:
            return max(good, key=lambda c: (score(state, c.option), c.action.to)).action  # type: ignore[no-any-return]
    return Action(player, "pass")


def l1_score(state: Any, option: Any) -> float:
    rider = state.rider(option.rider)
    return l1_ai._score(state, rider, option, ai_kit.wheels(state, rider.id))


def hotn_score(state: Any, option: Any) -> float:
    return hotn_ai.score(state, state.rider(option.rider), option)


def l1_pursuit(state: Any, player: str) -> Action:
    return Action(player, "pursue" if ai_kit.wants_pursuit(state, player, lead=5, energy=10) else "pass")


@pytest.mark.parametrize(("stage", "seed"), [("random-20", 1), ("random-20", 2), ("grand-tour", 3)])
def test_leader1_ai_chooses_what_it_chose_from_every_legal_action(stage: str, seed: int) -> None:
    kinds: Counter[str] = Counter()
    for state, decision in race("leader1", stage, seed):
        action = l1_ai.choose(state, decision.player)
        assert action == plain_choice(state, decision.player, engine, l1_score, l1_pursuit)
        kinds[f"{decision.kind} {action.do}"] += 1
    assert kinds["breakaway breakaway"] and kinds["breakaway pass"] and kinds["ride ride"]


def test_hell_of_the_north_ai_chooses_what_it_chose_from_every_legal_action() -> None:
    kinds: Counter[str] = Counter()
    for state, decision in race("hell-of-the-north", None, 4):
        action = hotn_ai.choose(state, decision.player)
        if decision.kind in ("ride", "breakaway"):
            plain = plain_choice(state, decision.player, hotn_engine, hotn_score, None)
            assert action == plain
            kinds[f"{decision.kind} {action.do}"] += 1
    assert kinds["breakaway breakaway"] and kinds["breakaway pass"] and kinds["ride ride"], kinds


def test_a_breakaway_phase_the_ai_passes_lists_no_destination(monkeypatch: pytest.MonkeyPatch) -> None:
    listed: list[str] = []
    plain = moves.ride_options

    def counted(state: Any, rider_id: str, **kwargs: Any) -> list[Any]:
        listed.append(rider_id)
        return plain(state, rider_id, **kwargs)

    monkeypatch.setattr(l1_ai, "ride_options", counted)
    passes = 0
    for state, decision in race("leader1", "random-20", 1):
        if decision.kind != "breakaway":
            continue
        listed.clear()
        attack = any(ai_kit.attack_worth(state, r) for r in engine.breakaway_candidates(state, decision.player))
        if ai_kit.seeded_roll(state, decision.player, 100) >= 22 and not attack:
            assert l1_ai.choose(state, decision.player).do in ("pass", "eat")
            assert listed == []
            passes += 1
    assert passes > 20


def test_a_cheap_breakaway_listing_is_the_full_listing_cut_after_its_dearest_move() -> None:
    checked = 0
    for state, decision in race("leader1", "random-20", 2):
        if decision.kind != "breakaway":
            continue
        for rider in engine.breakaway_candidates(state, decision.player):
            full = moves.ride_options(state, rider.id, breakaway=True)
            for most in (0, 3, 5):
                cut = moves.ride_options(state, rider.id, breakaway=True, most_cost=most)
                assert cut == full[: len(cut)]
                assert [o for o in full if o.cost <= most] == [o for o in cut if o.cost <= most]
                checked += len(full) - len(cut)
    assert checked > 100  # the cut left dear moves out


def test_a_chosen_ride_is_the_option_a_search_along_its_path_finds() -> None:
    rides = 0
    for state, decision in race("leader1", "random-20", 3):
        if decision.kind != "ride":
            continue
        for option in moves.ride_options(state, decision.piece):
            route = (*option.via, option.to)
            assert moves.chosen_ride(state, decision.piece, route=route) == [option]
            assert moves.ride_options(state, decision.piece, route=route) == [option]
            rides += 1
        nowhere = (cell_id(0, 0),)  # a path the rider cannot ride: searched, and nothing found
        assert moves.chosen_ride(state, decision.piece, route=nowhere) == []
    assert rides > 1000


@pytest.mark.parametrize("stage", ["grand-tour", "col-du-domestique", "random-20"])
def test_cracks_worked_out_in_one_pass_match_the_rule_for_every_length(stage: str) -> None:
    state, _ = next(race("leader1", stage, 7))
    road = state.setup.road
    assert road.mountains
    for start in range(0, road.finish):
        for free in range(0, 6):
            by_length = cracks_by_length(state, start, free, 12)
            for squares in range(1, 13):
                cells = tuple(cell_id(start + step, 0) for step in range(1, squares + 1))
                assert by_length[squares] == risks_crack(state, cells, free)


def test_remembered_calls_are_one_question_however_the_arguments_are_spelled() -> None:
    calls: list[tuple[object, ...]] = []

    @by_state_identity
    def listing(state: object, who: str, *, wide: bool = False, route: tuple[str, ...] | None = None) -> list[str]:
        calls.append((who, wide, route))
        return [who]

    class Frozen:
        pass

    state = Frozen()
    assert listing(state, "ann") == listing(state, "ann", wide=False) == listing(state, who="ann", route=None)
    assert listing(state=state, who="ann") == ["ann"] and len(calls) == 1
    listing(state, "ann", route=("1.0",))
    listing(state, "ann", wide=True)
    assert len(calls) == 3
    for wrong in (lambda: listing(state), lambda: listing(state, "ann", True), lambda: listing(state, "a", x=1)):
        with pytest.raises(TypeError):
            wrong()  # refused as the function itself refuses it


# ---------------------------------------------------------------- Formula Dé Mini


@pytest.mark.parametrize(("track", "seed"), [("island", 3), ("canyon", 5)])
def test_every_roll_keeps_the_moves_its_own_move_options_keep(track: str, seed: int) -> None:
    seen: Counter[str] = Counter()
    for n, (state, _) in enumerate(race("formula-de-mini", track, seed)):
        if n % 6:
            continue
        for car in state.cars:
            if car.status not in ("racing", "pits"):
                continue
            reached = fdm_moves.reachable(state, car, 20)
            by_roll = fdm_moves.kept_moves_by_roll(state, car, range(1, 21), reached)
            for roll in range(1, 21):
                plain = fdm_moves.kept_moves(state, car, roll, reached=reached)
                assert Counter(by_roll[roll]) == Counter(plain)
                seen["in the pit lane"] += car.cell in state.setup.circuit.pit_cells
                kinds = ("pit", "pit_lane", "blocked", "overshoot")
                seen.update(kind for kind in kinds if any(getattr(m, kind) for m in plain))
                seen["boxed in"] += any(m.path is None for m in plain)
    assert len(seen) == 6, seen  # every kind of move was compared


def test_formula_de_mini_gear_choice_is_the_one_scored_from_each_rolls_options() -> None:
    gears = 0
    for state, decision in race("formula-de-mini", "island", 4):
        if decision.kind != "gear":
            continue
        car = state.car(decision.piece)
        choices = fdm_legal_actions(state, decision.player)

        def expected(c: Any, state: Any = state, car: Any = car) -> tuple[float, int]:
            faces = [int(f) for f in gear_die(c.action.gear or 1).faces]
            total = 0.0
            for roll in sorted(set(faces)):
                options = fdm_moves.move_options(state, car, roll)
                best = max((fdm_ai._move_score(state, car, o) for o in options), default=-1000.0)
                total += best * faces.count(roll) / len(faces)
            return (total - c.lp * 2.5, c.action.gear or 0)

        assert fdm_ai.choose(state, decision.player) == max(choices, key=expected).action
        gears += 1
    assert gears > 50


# ---------------------------------------------------------------- the road a race builds


def test_a_road_built_the_quick_way_is_the_road_the_general_way_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every random Leader 1 road is built for its race, every lane on every row: its successors
    are taken from the next row's ids. Built again with each lane's rows spelled out (the
    general way, for circuits with short lanes), it must be the same road, square by square."""
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return track_module.build_track(*args, **kwargs)

    monkeypatch.setattr(road_module, "build_track", spy)
    for seed in (3, 11):
        build_road(random_plan(20, seed))
    assert len(calls) == 2
    for args, kwargs in calls:
        assert kwargs.get("spaces") is None
        quick = track_module.build_track(*args, **kwargs)
        every_row = {lane: range(quick.row_count) for lane in range(quick.lanes)}
        general = track_module.build_track(*args, **{**kwargs, "spaces": every_row})
        assert list(quick.cells) == list(general.cells)
        for cid, cell in quick.cells.items():
            other = general.cells[cid]
            assert (cell.successors, cell.polygon, dict(cell.attrs)) == (
                other.successors,
                other.polygon,
                dict(other.attrs),
            )
