"""Every Hell of the North scenario record (the book's worked examples and rules) replays and
meets its expectations; ``expect.about`` quotes the rule it pins."""

from __future__ import annotations

from tests.support.scenario_check import scenario_folder, scenarios

ROOT = scenario_folder("hell-of-the-north")
SCENARIOS = scenarios("hell-of-the-north")


# Every figure and worked example of the book, and the scenario (by a part of its name) that plays it
WORKED_EXAMPLES = {
    "Figure 10 (markers first, riders placed in marker order)": "s6-building-the-peloton",
    "Figure 13 (free squares + paying movement)": "fig13",
    "Figure 14 (straight or diagonal, never sideways)": "fig14",
    "Figure 15 (the blocked road)": "fig15",
    "Figure 16 (catching up: the one who caught up goes first)": "fig16",
    "Figure 17.A (breakaway start squares)": "fig17a",
    "Figure 17.B (breakaway start squares on a bend)": "fig17b",
    "Figure 17.C (breaking away from a plain)": "fig17c",
    "Figure 18 (speeding up takes 1st place)": "fig18",
    "Figure 19 (slipstream / no slipstream)": "c1-slipstream",
    "Figure 20 (risk taking: the risk boxes)": "c2-second-risk",
    "Figure 21 (crack, three riders)": "fig21",
    "Crack example (5 becomes 10, needs 10)": "crack-doubles",
    "Crack example (energy to hold)": "crack-needs-10",
    "Figure 22 (fall, two riders; the slipstream lost)": "fig22",
    "Fall example (pays 5 once, needs 5)": "fall-example",
    "Figure 23 (risk on cobbles)": "c4-cobbles",
}


def test_every_worked_example_of_the_book_has_a_scenario() -> None:
    names = {p.stem for p in SCENARIOS}
    for example, part in WORKED_EXAMPLES.items():
        assert any(part in n for n in names), f"no scenario for {example}"
    fig21 = [n for n in names if "fig21" in n]
    fig22 = [n for n in names if "fig22" in n]
    assert len(fig21) == 3 and len(fig22) == 2  # each rider of the figure
