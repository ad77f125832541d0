"""Leader 1's pacts (docs/alliances.md): no chase (B.3) and relay (C.1), kept and broken in records,
the words on a choice that breaks one, the AI that keeps them and the ledger."""

from __future__ import annotations

import json
from pathlib import Path

from rules.action import Action
from rules.pact_ledger import breach_line, ledger, summary
from rules.pact_play import keeping, marks
from rules.pacts import Pact, Until
from rules.record import Record, parse_record, start_state
from rules.registry import find_game
from tests.leader1.helpers import inline, record

GAME = find_game("leader1")
NAMES = {"ann": "Ann", "bob": "Bob", "cat": "Cat"}
SCENARIOS = Path(__file__).parent / "scenarios"


def names(player: str) -> str:
    return NAMES[player]


def away_record(pursue: bool) -> Record:
    """Ann's rouleur is away, ten rows ahead of the peloton; Bob holds the peloton token and then
    pursues or passes (B.3)."""
    start = {"turn": 3, "peloton": {"at": 10, "leader": "bob"}, "riders": {"yellow-rouleur": {"at": "20.1"}}}
    actions = [
        {"by": "ann", "do": "ride", "rider": "yellow-rouleur", "to": "23.1"},
        {"by": "bob", "do": "pass"},
        {"by": "ann", "do": "pass"},
        {"by": "bob", "do": "pursue" if pursue else "pass"},
    ]
    return record(inline("P" * 40), start=start, actions=actions)


def at_pursuit() -> object:
    rec = away_record(pursue=True)
    _game, state = start_state(rec)
    for action in rec.actions[:-1]:
        state, _events = GAME.rules.apply(state, action)
    return state


def relay_record(to: str) -> Record:
    """C.1's worked example: Ann's climber at 20.1 on the downhill, Bob's rouleur right behind it at
    19.1; the climber rides to ``to`` (7 squares keep the slipstream, 8 cut it)."""
    data = json.loads((SCENARIOS / "c1-slipstream-kept-by-a-7-square-downhill-move.json").read_text())
    data["actions"] = data["actions"][:1]
    data["actions"][0]["to"] = to
    del data["expect"]
    return parse_record(data)


NO_CHASE = Pact("no-chase", ("ann", "bob"))
RELAY = Pact("relay", ("ann", "bob"))


def entries(rec: Record, pacts: list[Pact]) -> tuple[object, ...]:
    _game, start = start_state(rec)
    return ledger(GAME, start, rec.actions, pacts, names)


def test_the_game_declares_its_kinds_with_their_rules() -> None:
    assert [(k.id, k.rule) for k in GAME.pacts.kinds] == [("no-chase", "B.3"), ("relay", "C.1")]


def test_no_chase_is_broken_by_a_pursuit_while_an_ally_s_rider_is_away() -> None:
    found = entries(away_record(pursue=True), [NO_CHASE])
    assert len(found) == 1
    entry = found[0]
    assert (entry.player, entry.ally, entry.kept, entry.turn, entry.index) == ("bob", "ann", False, 3, 3)
    assert entry.done == "Bob pursued while Ann's yellow rouleur was away"
    assert entry.chosen == "Pursue (+1)" and entry.other == "Pass"


def test_no_chase_is_kept_by_passing() -> None:
    (entry,) = entries(away_record(pursue=False), [NO_CHASE])
    assert entry.kept and entry.chosen == "Pass"
    assert summary(GAME, (entry,), [NO_CHASE], names) == ["no chase: kept once, never broken"]


def test_no_chase_says_nothing_without_an_ally_away_or_outside_the_pact() -> None:
    assert entries(away_record(pursue=True), [Pact("no-chase", ("bob", "cat"))]) == ()
    assert entries(away_record(pursue=True), [Pact("no-chase", ("ann", "bob"), made_at=4)]) == ()
    assert entries(away_record(pursue=True), [Pact("no-chase", ("ann", "bob"), ended_at=3)]) == ()
    assert entries(away_record(pursue=True), [Pact("no-chase", ("ann", "bob"), until=Until("turn", 2))]) == ()
    assert entries(away_record(pursue=True), [Pact("no-chase", ("ann", "bob"), until=Until("row", 9))]) == ()
    assert len(entries(away_record(pursue=True), [Pact("no-chase", ("ann", "bob"), until=Until("row", 10))])) == 1


def test_the_pursuit_button_says_it_breaks_no_chase() -> None:
    state = at_pursuit()
    choices = GAME.rules.choices(state, "bob")
    marked = dict(zip([c.action.do for c in choices], marks(GAME, state, [NO_CHASE], choices, names), strict=True))
    assert marked == {"pursue": ("breaks no chase with Ann",), "pass": ()}


def test_the_ai_keeps_no_chase_it_would_otherwise_break() -> None:
    state = at_pursuit()
    assert GAME.ai(state, "bob") == Action("bob", "pursue")  # the AI alone chases Ann's rider
    assert keeping(GAME, GAME.ai, [NO_CHASE])(state, "bob") == Action("bob", "pass")
    assert keeping(GAME, GAME.ai, [Pact("no-chase", ("bob", "cat"))])(state, "bob") == Action("bob", "pursue")


def test_relay_is_kept_by_a_move_short_enough_for_the_slipstream() -> None:
    (entry,) = entries(relay_record("27.1"), [RELAY])
    assert (entry.player, entry.ally, entry.kept) == ("ann", "bob", True)
    assert entry.done == "Ann's yellow climber kept Bob's green rouleur in its slipstream"
    assert entry.other.startswith("28.")  # 8 squares from a downhill cut it


def test_relay_is_broken_by_a_move_that_cuts_the_slipstream() -> None:
    rec = relay_record("28.1")
    (entry,) = entries(rec, [RELAY])
    assert not entry.kept and entry.done == "Ann's yellow climber rode away from Bob's green rouleur"
    assert summary(GAME, (entry,), [RELAY], names) == [
        "relay: never kept, broken once — turn 6: Ann's yellow climber rode away from Bob's green rouleur"
    ]
    assert breach_line(GAME, entry, [RELAY]).startswith("relay broken on turn 6: Ann's yellow climber rode away")


def test_relay_marks_exactly_the_moves_of_eight_squares_or_more() -> None:
    rec = relay_record("27.1")
    _game, state = start_state(rec)
    choices = [c for c in GAME.rules.choices(state, "ann") if not c.anytime]
    marked = marks(GAME, state, [RELAY], choices, names)
    breaking = {c.action.to for c, m in zip(choices, marked, strict=True) if m}
    assert breaking and all(int(str(to).split(".")[0]) - 20 >= 8 for to in breaking)
    assert all(m == ("breaks relay with Bob",) for m in marked if m)


def test_the_ai_keeps_the_relay() -> None:
    rec = relay_record("27.1")
    _game, state = start_state(rec)
    pacts = [RELAY]
    choices = [c for c in GAME.rules.choices(state, "ann") if not c.anytime]
    marked = marks(GAME, state, pacts, choices, names)

    def marks_of(action: Action) -> tuple[str, ...]:
        return marked[next(i for i, c in enumerate(choices) if c.action == action)]

    assert marks_of(GAME.ai(state, "ann")) == ("breaks relay with Bob",)  # the AI alone rides away
    assert marks_of(keeping(GAME, GAME.ai, pacts)(state, "ann")) == ()


def test_a_ledger_of_both_pacts_over_one_record() -> None:
    found = entries(away_record(pursue=True), [RELAY, NO_CHASE])
    assert [(e.pact, e.kept) for e in found] == [(1, False)]
