"""Hell of the North's pacts (docs/alliances.md): no chase and share the chase (step 4, the teams'
pursuits) and relay (race conditions 1, the slipstream), kept and broken in records, the words on a
choice that breaks one, the AI that keeps them and the ledger."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.action import Action
from rules.pact_ledger import Entry, ledger, summary
from rules.pact_play import keeping, marks
from rules.pacts import Pact
from rules.record import Record, parse_record, start_state
from rules.registry import find_game

GAME = find_game("hell-of-the-north")
NAMES = {"ann": "Ann", "bob": "Bob"}
SCENARIOS = Path(__file__).parent / "scenarios"


def names(player: str) -> str:
    return NAMES[player]


def scenario(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCENARIOS / name).read_text())
    del data["expect"]
    return data


def chase_record(*, second: str = "pursue") -> Record:
    """Ann's rouleur is away; Bob speeds the peloton up on turn 5, then does it again on turn 6 (or
    passes: ``second``), while Ann still has pursuits (step 4)."""
    data = scenario("t4-no-more-than-two-speed-ups-in-a-row.json")
    data["start"] = {"turn": 5, "peloton": {"at": 5}, "riders": {"black-rouleur": {"at": "15.1"}}}
    rouleur = "black-rouleur"
    data["actions"] = [
        {"by": "ann", "do": "ride", "rider": rouleur, "to": "19.2"},
        *({"by": p, "do": "pass"} for p in ("bob", "ann", "ann", "bob", "ann")),
        {"by": "bob", "do": "pursue"},
        {"by": "ann", "do": "ride", "rider": rouleur, "to": "23.2"},
        *({"by": p, "do": "pass"} for p in ("ann", "bob", "bob", "ann")),
        {"by": "bob", "do": second},
    ]
    return parse_record(data)


def played(rec: Record, count: int) -> object:
    _game, state = start_state(rec)
    for action in rec.actions[:count]:
        state, _events = GAME.rules.apply(state, action)
    return state


def entries(rec: Record, pacts: list[Pact]) -> tuple[Entry, ...]:
    _game, start = start_state(rec)
    return ledger(GAME, start, rec.actions, pacts, names)


NO_CHASE = Pact("no-chase", ("ann", "bob"))
SHARE = Pact("share-the-chase", ("ann", "bob"))
RELAY = Pact("relay", ("ann", "bob"))


def test_the_game_declares_three_kinds() -> None:
    assert [k.id for k in GAME.pacts.kinds] == ["no-chase", "share-the-chase", "relay"]


def test_no_chase_is_broken_by_each_speed_up_while_an_ally_s_rider_is_away() -> None:
    found = entries(chase_record(), [NO_CHASE])
    assert [(e.player, e.turn, e.kept) for e in found] == [("bob", 5, False), ("bob", 6, False)]
    assert found[0].done == "Bob pursued while Ann's black rouleur was away"
    assert summary(GAME, found, [NO_CHASE], names) == [
        "no chase: never kept, broken 2 times — turn 5: Bob pursued while Ann's black rouleur was away; "
        "turn 6: Bob pursued while Ann's black rouleur was away"
    ]


def test_no_chase_is_kept_by_passing() -> None:
    found = entries(chase_record(second="pass"), [NO_CHASE])
    assert [(e.turn, e.kept) for e in found] == [(5, False), (6, True)]


def test_share_the_chase_asks_the_last_pursuer_to_leave_the_next_one() -> None:
    broken = entries(chase_record(), [SHARE])
    assert [(e.player, e.turn, e.kept) for e in broken] == [("bob", 6, False)]  # turn 5: nobody had pursued
    assert broken[0].done == "Bob pursued again when it was Ann's turn"
    kept = entries(chase_record(second="pass"), [SHARE])
    assert [(e.turn, e.kept, e.done) for e in kept] == [(6, True, "Bob left the next pursuit to Ann")]


def test_the_speed_up_button_says_what_it_breaks() -> None:
    state = played(chase_record(), 12)
    choices = GAME.rules.choices(state, "bob")
    said = marks(GAME, state, [NO_CHASE, SHARE], choices, names)
    marked = dict(zip([c.action.do for c in choices], said, strict=True))
    assert marked == {"pursue": ("breaks no chase with Ann", "breaks share the chase with Ann"), "pass": ()}


def test_the_ai_keeps_no_chase_it_would_otherwise_break() -> None:
    state = played(chase_record(), 6)
    assert GAME.ai(state, "bob") == Action("bob", "pursue")
    assert keeping(GAME, GAME.ai, [NO_CHASE])(state, "bob") == Action("bob", "pass")
    later = played(chase_record(), 12)
    assert GAME.ai(later, "bob") == Action("bob", "pursue")
    assert keeping(GAME, GAME.ai, [SHARE])(later, "bob") == Action("bob", "pass")


def relay_record(to: str) -> Record:
    """Ann's rouleur starts on the cobbles at 20.1 with Bob's leader right behind it: 4 squares keep the
    slipstream, 5 cut it (race conditions 1: "5 squares starting from a cobbled square")."""
    data = scenario("c1-slipstream-lost-at-5-squares-from-cobbles.json")
    data["actions"] = [{"by": "ann", "do": "ride", "rider": "black-rouleur", "to": to}]
    return parse_record(data)


def test_relay_on_the_cobbles_is_kept_at_4_squares_and_broken_at_5() -> None:
    (kept,) = entries(relay_record("24.1"), [RELAY])
    assert kept.kept and kept.done == "Ann's black rouleur kept Bob's white leader in its slipstream"
    (broken,) = entries(relay_record("25.1"), [RELAY])
    assert not broken.kept and broken.done == "Ann's black rouleur rode away from Bob's white leader"


def test_the_ai_keeps_the_relay() -> None:
    _game, state = start_state(relay_record("24.1"))
    choices = [c for c in GAME.rules.choices(state, "ann") if not c.anytime]
    marked = marks(GAME, state, [RELAY], choices, names)

    def marks_of(action: Action) -> tuple[str, ...]:
        return marked[next(i for i, c in enumerate(choices) if c.action == action)]

    assert marks_of(GAME.ai(state, "ann")) == ("breaks relay with Bob",)
    assert marks_of(keeping(GAME, GAME.ai, [RELAY])(state, "ann")) == ()
