"""Peloton's pacts (docs/alliances.md): share the pace (II.3b, riding tandem) and no attack (II.3c,
acceleration), kept and broken in records, the words on a dial that breaks one, the AI that keeps them
and the ledger."""

from __future__ import annotations

from typing import Any

from rules.action import Action
from rules.pact_ledger import Entry, ledger, summary
from rules.pact_play import keeping, marks
from rules.pacts import Pact, Until
from rules.record import Record, parse_record, start_state
from rules.registry import find_game

GAME = find_game("peloton")
NAMES = {"ann": "Ann", "bob": "Bob"}
PACE = Pact("share-the-pace", ("ann", "bob"))
NO_ATTACK = Pact("no-attack", ("ann", "bob"))
LEVEL_40 = {"hexagons": 40, "terrain": "level"}


def names(player: str) -> str:
    return NAMES[player]


def record(front: str, behind: str, dial: int | None = None, *, energy: int = 25) -> Record:
    """A level road of 40 hexagons, move 5: Ann's cyclist 1 at ``front`` with Bob's cyclist 4 right
    behind it at ``behind``, riding tandem (II.3b); Ann then sets her dial to ``dial``."""
    actions: list[dict[str, Any]] = []
    if dial is not None:
        actions.append({"by": "ann", "do": "dial", "cyclist": "1", "dial": dial})
    return parse_record(
        {
            "format": "domestique.record/1",
            "game": "peloton",
            "options": {},
            "seed": 1,
            "players": [{"id": "ann", "team": "grey", "cyclists": 1}, {"id": "bob", "team": "red", "cyclists": 1}],
            "track": {"name": "level", "discipline": "leg", "width": 3, "segments": [LEVEL_40]},
            "start": {
                "round": 5,
                "cyclists": {"1": {"at": front, "energy": energy}, "4": {"at": behind, "energy": 20}},
            },
            "actions": actions,
        }
    )


def entries(rec: Record, pacts: list[Pact]) -> tuple[Entry, ...]:
    _game, start = start_state(rec)
    return ledger(GAME, start, rec.actions, pacts, names)


def dial_marks(rec: Record, pact: Pact) -> dict[int, tuple[str, ...]]:
    _game, state = start_state(rec)
    choices = GAME.rules.choices(state, "ann")
    said = marks(GAME, state, [pact], choices, names)
    return {int(str(c.action.get("dial"))): m for c, m in zip(choices, said, strict=True)}


def test_the_game_declares_its_kinds() -> None:
    assert [(k.id, k.rule) for k in GAME.pacts.kinds] == [("share-the-pace", "II.3b"), ("no-attack", "II.3c")]


def test_share_the_pace_is_kept_at_a_pace_the_ally_holds_on_tandem() -> None:
    (entry,) = entries(record("40.0", "38.0", 1), [PACE])  # +1: 4 hexagons, Bob's 3 + 1 tandem
    assert (entry.player, entry.ally, entry.kept) == ("ann", "bob", True)
    assert entry.done == "Ann's No. 1 set a pace Bob's No. 4 could hold"


def test_share_the_pace_is_broken_by_plus_two() -> None:
    (entry,) = entries(record("40.0", "38.0", 3), [PACE])
    assert not entry.kept and entry.done == "Ann's No. 1 rode away from Bob's No. 4"
    assert dial_marks(record("40.0", "38.0"), PACE) == {
        0: (),
        1: (),
        2: (),
        3: ("breaks share the pace with Bob",),
        4: ("breaks share the pace with Bob",),
    }


def test_the_ai_keeps_the_pace_in_the_sprint() -> None:
    _game, state = start_state(record("78.0", "76.0"))
    assert GAME.ai(state, "ann").get("dial") in (3, 4)  # +2 for the line, alone
    kept = keeping(GAME, GAME.ai, [PACE])(state, "ann")
    assert dial_marks(record("78.0", "76.0"), PACE)[int(str(kept.get("dial")))] == ()


def test_no_attack_is_kept_without_acceleration_and_broken_with_any() -> None:
    (kept,) = entries(record("40.0", "38.0", 0), [NO_ATTACK])
    assert kept.kept and kept.done == "Ann's No. 1 stayed in Bob's No. 4's group"
    (broken,) = entries(record("40.0", "38.0", 1), [NO_ATTACK])
    assert not broken.kept and broken.done == "Ann's No. 1 attacked Bob's No. 4's group"
    assert summary(GAME, (kept, broken), [NO_ATTACK], names) == [
        "no attack: kept once, broken once — turn 5: Ann's No. 1 attacked Bob's No. 4's group"
    ]


def test_no_attack_holds_for_a_number_of_moves_and_only_near_the_ally() -> None:
    assert entries(record("40.0", "38.0", 1), [Pact("no-attack", ("ann", "bob"), until=Until("turn", 4))]) == ()
    assert len(entries(record("40.0", "38.0", 1), [Pact("no-attack", ("ann", "bob"), until=Until("turn", 5))])) == 1
    assert entries(record("40.0", "30.0", 1), [NO_ATTACK]) == ()  # Bob is five hexagons back


def test_the_ai_keeps_no_attack() -> None:
    _game, state = start_state(record("40.0", "38.0"))
    assert GAME.ai(state, "ann") != Action("ann", "dial", cyclist="1", dial=0)
    assert keeping(GAME, GAME.ai, [NO_ATTACK])(state, "ann") == Action("ann", "dial", cyclist="1", dial=0)
