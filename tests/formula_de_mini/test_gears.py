"""Formula Dé Mini's gearbox: dice faces within the book's ranges, shifting, over-revving."""

from __future__ import annotations

import pytest

from rules.formula_de_mini.gears import dice, gear_die, legal_shifts

RANGES = {1: (1, 2), 2: (2, 4), 3: (4, 8), 4: (7, 12), 5: (11, 20)}


@pytest.mark.parametrize("gear", [1, 2, 3, 4, 5])
def test_each_gear_die_covers_exactly_its_range(gear: int) -> None:
    low, high = RANGES[gear]
    assert set(gear_die(gear).faces) == set(range(low, high + 1))


def test_the_black_die_has_twenty_faces() -> None:
    assert sorted(dice()["black"].faces) == list(range(1, 21))


def test_up_one_gear_at_a_time() -> None:
    assert [s.gear for s in legal_shifts(1)] == [1, 2]
    assert [s.gear for s in legal_shifts(3)] == [1, 2, 3, 4]
    assert 5 not in [s.gear for s in legal_shifts(3)]


@pytest.mark.parametrize(
    ("current", "target", "lp"), [(5, 3, 1), (5, 2, 2), (5, 1, 3), (4, 1, 2), (4, 3, 0), (3, 1, 1)]
)
def test_over_revving_costs_one_lp_per_gear_skipped(current: int, target: int, lp: int) -> None:
    assert {s.gear: s.over_rev for s in legal_shifts(current)}[target] == lp


def test_fifth_to_first_is_a_ruling_and_an_option() -> None:
    assert 1 in [s.gear for s in legal_shifts(5)]
    assert 1 not in [s.gear for s in legal_shifts(5, shift_5_to_1=False)]
