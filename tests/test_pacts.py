"""The pact contract shared by every game (rules/pacts.py, rules/pact_play.py): who a pact binds towards
whom, when it holds, what a bad request is told, and the AI keeping several pacts at once."""

from __future__ import annotations

from dataclasses import replace

from rules.action import Action
from rules.pact_ledger import Entry, summary
from rules.pact_play import at_stake, keeping, why_not
from rules.pacts import Pact, Until
from rules.record import start_state
from rules.registry import find_game
from tests.leader1.test_pacts import NO_CHASE, RELAY, at_pursuit, away_record


def test_without_an_ally_named_every_member_is_bound_towards_every_other() -> None:
    pact = Pact("no-chase", ("ann", "bob", "cat"))
    assert pact.allies_of("ann") == ("bob", "cat") and pact.allies_of("dan") == ()
    assert pact.binds("cat") and not pact.binds("dan")


def test_with_an_ally_the_pact_is_between_that_ally_and_the_others() -> None:
    pact = Pact("no-chase", ("ann", "bob", "cat"), ally="bob")
    assert pact.allies_of("ann") == ("bob",) and pact.allies_of("cat") == ("bob",)
    assert pact.allies_of("bob") == ("ann", "cat")


def test_a_pact_holds_from_when_it_was_made_until_it_was_ended() -> None:
    pact = Pact("no-chase", ("ann", "bob"), made_at=4, ended_at=9)
    assert [n for n in range(12) if pact.in_force(n)] == [4, 5, 6, 7, 8]


def test_until_a_turn_a_row_a_stage_or_the_end() -> None:
    assert Until().holds(turn=99, row=99, stage=9)
    assert Until("turn", 5).holds(turn=5, row=None, stage=None) and not Until("turn", 5).holds(turn=6, row=0, stage=0)
    assert Until("row", 30).holds(turn=1, row=30, stage=None) and not Until("row", 30).holds(turn=1, row=31, stage=1)
    assert Until("stage", 2).holds(turn=1, row=1, stage=2) and not Until("stage", 2).holds(turn=1, row=1, stage=3)


def test_a_bad_pact_is_told_in_one_line() -> None:
    leader1, mini = find_game("leader1"), find_game("formula-de-mini")
    assert why_not(leader1, "no-chase", ("ann", "bob"), None, Until()) is None
    assert why_not(leader1, "tow", ("ann", "bob"), None, Until()) == (
        "Leader 1 has no pact “tow”; its pacts: no-chase, relay"
    )
    assert why_not(leader1, "relay", ("ann", "ann"), None, Until()) == "a pact needs two or more members"
    assert why_not(leader1, "relay", ("ann", "bob"), "cat", Until(), str.title) == "Cat is not in this alliance"
    assert why_not(leader1, "relay", ("ann", "bob"), None, Until("turn", 0)) is not None
    assert why_not(leader1, "relay", ("ann", "bob"), None, Until("row", 30)) is None
    assert why_not(mini, "tow", ("ann", "bob"), None, Until("row", 30)) == (
        "Formula Dé Mini has no rows to end a pact on: end it on a turn, a stage or at the end"
    )


def test_a_pact_of_a_kind_the_game_lacks_or_of_others_puts_nothing_to_the_test() -> None:
    game = find_game("leader1")
    state = at_pursuit()
    choices = game.rules.choices(state, "bob")
    assert at_stake(game, state, [Pact("tow", ("ann", "bob")), Pact("no-chase", ("ann", "cat"))], choices) == []
    assert [t.pact for t in at_stake(game, state, [RELAY, NO_CHASE], choices)] == [NO_CHASE]


def test_the_ai_keeps_the_pacts_it_can_and_stands_by_its_choice_when_none_keeps() -> None:
    game = find_game("leader1")
    state = at_pursuit()
    assert keeping(game, game.ai, [RELAY, NO_CHASE])(state, "bob") == Action("bob", "pass")
    _game, start = start_state(away_record(pursue=True))
    assert keeping(game, game.ai, [NO_CHASE])(start, "ann") == game.ai(start, "ann")  # nothing to keep there


def test_a_summary_spells_out_three_breaches_and_counts_the_rest() -> None:
    game = find_game("leader1")
    breach = Entry(0, "bob", "ann", 3, 3, False, "Bob pursued", "Pursue (+1)", "Pass")
    entries = [replace(breach, turn=turn) for turn in range(1, 6)]
    (line,) = summary(game, entries, [NO_CHASE])
    assert line == (
        "no chase: never kept, broken 5 times — turn 1: Bob pursued; turn 2: Bob pursued; turn 3: Bob pursued; "
        "and 2 more"
    )


def test_each_member_s_pacts_kept_and_broken_for_a_league() -> None:
    from rules.pact_ledger import by_member

    kept = Entry(0, "ann", "bob", 3, 3, True, "", "", "")
    assert by_member([kept, replace(kept, kept=False), replace(kept, player="bob")]) == {"ann": (1, 1), "bob": (1, 0)}
    assert by_member([]) == {}


def test_a_record_s_action_is_found_among_the_choices_by_all_it_says_less_the_path() -> None:
    from rules.game import Choice
    from rules.pact_play import choice_index

    braked = Choice(Action("ann", "drive", car="red-1", to="16.0", via=("15.0",), brake=1), "16.0 braked")
    plain = Choice(Action("ann", "drive", car="red-1", to="16.0", via=("15.1",)), "16.0")
    assert choice_index([braked, plain], Action("ann", "drive", car="red-1", to="16.0")) == 1
    assert choice_index([braked, plain], Action("ann", "drive", car="red-1", to="16.0", brake=1)) == 0
    assert choice_index([braked, plain], Action("ann", "drive", car="red-1", to="17.0")) is None
