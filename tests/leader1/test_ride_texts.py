"""A ride's menu words are remembered by what they say (``rules.leader1.menu.option_text``): the
remembered words are those written afresh, in every language, and a language never gets another's."""

from __future__ import annotations

from dataclasses import replace

from bot.cli.sim import simulate
from rules.i18n import speaking
from rules.leader1 import menu as leader1
from rules.leader1.engine import pending
from rules.record import start_state


def test_remembered_ride_texts_are_the_texts_written_afresh_in_each_language() -> None:
    checked = 0
    seen: dict[str, set[tuple[str, str]]] = {"en": set(), "hu": set(), "cs": set()}
    for seed, hexagons in ((1, None), (2, 20), (3, 12)):  # roads of other lengths: another square is the line
        record, _ = simulate("leader1", seed=seed, players=4, random_hexagons=hexagons)
        game, state = start_state(record)
        for action in record.actions:
            decision = pending(state)
            assert decision is not None
            for language in ("en", "hu", "cs"):
                with speaking(language):
                    for choice in game.rules.choices(state, decision.player):
                        option = choice.shows
                        if isinstance(option, leader1.RideOption):
                            need = state.setup.ruleset.risk_threshold(state.rider(option.rider).risks)
                            fresh = leader1._option_text(option, need if option.crack or option.fall else None)
                            assert leader1.option_text(option, state) == fresh
                            assert (choice.label, choice.detail) == fresh
                            seen[language].add(fresh)
                            checked += 1
            state, _events = game.rules.apply(state, action)
    assert checked > 1000
    assert seen["en"].isdisjoint(seen["hu"]) and seen["en"].isdisjoint(seen["cs"])


def test_every_field_the_words_read_is_part_of_what_they_are_remembered_by() -> None:
    record, _ = simulate("leader1", seed=1, players=4)
    game, state = start_state(record)
    decision = pending(state)
    assert decision is not None
    option = next(c.shows for c in game.rules.choices(state, decision.player) if c.shows is not None)
    assert isinstance(option, leader1.RideOption)
    risky = replace(option, crack=True, worst_cost=option.cost * 2)
    variants = [
        replace(option, to="99.1"),
        replace(option, squares=option.squares + 1),
        replace(option, free=option.free + 1),
        replace(option, paid=option.paid + 1),
        replace(option, crossings=option.crossings + 1),
        replace(option, cost=option.cost + 1),
        replace(option, recovery=option.recovery + 1),
        replace(option, slipstream=not option.slipstream),
        replace(option, rejoins=not option.rejoins),
        replace(option, finishes=not option.finishes),
        risky,
        replace(risky, crack=False, fall=True),
        replace(risky, worst_cost=risky.worst_cost + 1),
    ]
    for language in ("en", "hu"):
        with speaking(language):
            leader1.option_text(option, state)  # remembered first: a variant must not be given its words
            for variant in variants:
                need = 4
                fresh = leader1._option_text(variant, need if variant.crack or variant.fall else None)
                assert leader1.option_text(variant, state, need) == fresh, variant
            assert leader1.option_text(risky, state, 5) == leader1._option_text(risky, 5)
