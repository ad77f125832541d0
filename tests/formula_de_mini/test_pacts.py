"""Formula Dé Mini's pacts (docs/alliances.md): no block (event 4) and tow (event 9), kept and broken in
records, the words on a move that breaks one, the AI that keeps them and the ledger."""

from __future__ import annotations

from typing import Any

from rules.pact_ledger import Entry, ledger, summary
from rules.pact_play import keeping, marks
from rules.pacts import Pact
from rules.record import Record, parse_record, start_state
from rules.registry import find_game

GAME = find_game("formula-de-mini")
NAMES = {"ann": "Ann", "bob": "Bob", "cid": "Cid"}
NO_BLOCK = Pact("no-block", ("ann", "bob"))
TOW = Pact("tow", ("ann", "bob"))


def names(player: str) -> str:
    return NAMES[player]


def record(cars: dict[str, Any], roll: tuple[int, int], to: str | None = None, brake: int = 0) -> Record:
    """Canyon (two lanes), turn 4: Ann's red car 1 shifts to a gear and rolls; then drives to ``to``
    (braking ``brake`` LP)."""
    gear, spaces = roll
    actions: list[dict[str, Any]] = [{"by": "ann", "do": "gear", "car": "red-1", "gear": gear}]
    if to is not None:
        actions.append({"by": "ann", "do": "drive", "car": "red-1", "to": to, **({"brake": brake} if brake else {})})
    return parse_record(
        {
            "format": "domestique.record/1",
            "game": "formula-de-mini",
            "options": {},
            "track": "formula-de-mini/canyon",
            "players": [{"id": "ann", "team": "red"}, {"id": "bob", "team": "blue"}, {"id": "cid", "team": "green"}],
            "seed": 5,
            "dice": {f"gear{gear}": [spaces]},
            "start": {"turn": 4, "to_act": "red-1", "cars": cars},
            "actions": actions,
        }
    )


# Bob's blue car behind in 4th (up to 12 spaces); Cid's green car on 16.1: Ann's red car rolls 4 in 3rd
BOXING = {"red-1": {"at": "12.0", "gear": 3}, "blue-1": {"at": "9.0", "gear": 4}, "green-1": {"at": "16.1", "gear": 3}}
# Bob's blue car far behind in 4th; Ann's red car rolls 9 in 4th and may leave him behind
TOWING = {"red-1": {"at": "12.0", "gear": 4}, "blue-1": {"at": "3.0", "gear": 4}, "green-1": {"at": "30.1", "gear": 3}}


def entries(rec: Record, pacts: list[Pact]) -> tuple[Entry, ...]:
    _game, start = start_state(rec)
    return ledger(GAME, start, rec.actions, pacts, names)


def at_move(rec: Record) -> object:
    _game, state = start_state(rec)
    state, _events = GAME.rules.apply(state, rec.actions[0])
    return state


def marked(rec: Record, pact: Pact) -> dict[str, tuple[str, ...]]:
    state = at_move(rec)
    choices = GAME.rules.choices(state, "ann")
    return {str(c.action.to): m for c, m in zip(choices, marks(GAME, state, [pact], choices, names), strict=True)}


def test_the_game_declares_its_kinds() -> None:
    assert [(k.id, k.rule) for k in GAME.pacts.kinds] == [("no-block", "4"), ("tow", "9")]


def test_no_block_is_broken_by_ending_beside_a_car_across_the_road() -> None:
    (entry,) = entries(record(BOXING, (3, 4), "16.0"), [NO_BLOCK])
    assert (entry.player, entry.ally, entry.kept) == ("ann", "bob", False)
    assert entry.done == "Ann's red car 1 boxed in Bob's blue car 1"


def test_no_block_is_kept_by_a_move_that_leaves_a_lane_open() -> None:
    (entry,) = entries(record(BOXING, (3, 4), "15.1", brake=1), [NO_BLOCK])
    assert entry.kept and entry.done == "Ann's red car 1 left Bob's blue car 1 a free road"
    assert summary(GAME, (entry,), [NO_BLOCK], names) == ["no block: kept once, never broken"]


def test_no_block_marks_the_moves_that_box_the_ally_in() -> None:
    found = marked(record(BOXING, (3, 4)), NO_BLOCK)
    assert found["16.0"] == ("breaks no block with Bob",)
    assert found["15.1"] == () and found["14.1"] == ()
    assert marked(record(BOXING, (3, 4)), Pact("no-block", ("ann", "cid")))["16.0"] == ()  # Cid is ahead


def test_the_ai_keeps_no_block() -> None:
    state = at_move(record(BOXING, (3, 4)))
    found = marked(record(BOXING, (3, 4)), NO_BLOCK)
    alone = GAME.ai(state, "ann")
    assert found[str(alone.to)]  # the AI alone ends where it boxes Bob in
    assert found[str(keeping(GAME, GAME.ai, [NO_BLOCK])(state, "ann").to)] == ()


def test_tow_is_kept_within_the_ally_s_reach_and_broken_beyond_it() -> None:
    (kept,) = entries(record(TOWING, (4, 9), "16.0", brake=5), [TOW])
    assert kept.kept and kept.done == "Ann's red car 1 left its slipstream to Bob's blue car 1"
    (broken,) = entries(record(TOWING, (4, 9), "21.0"), [TOW])
    assert not broken.kept and broken.done == "Ann's red car 1 left Bob's blue car 1 no slipstream"
    assert summary(GAME, (kept, broken), [TOW], names) == [
        "tow: kept once, broken once — turn 4: Ann's red car 1 left Bob's blue car 1 no slipstream"
    ]


def test_the_ai_keeps_the_tow() -> None:
    state = at_move(record(TOWING, (4, 9)))
    found = marked(record(TOWING, (4, 9)), TOW)
    assert found[str(GAME.ai(state, "ann").to)] == ("breaks tow with Bob",)
    assert found[str(keeping(GAME, GAME.ai, [TOW])(state, "ann").to)] == ()


def test_a_game_s_pacts_say_nothing_of_a_gear_choice() -> None:
    rec = record(TOWING, (4, 9))
    assert entries(parse_record({**rec.to_json(), "actions": [rec.actions[0].to_json()]}), [TOW, NO_BLOCK]) == ()
