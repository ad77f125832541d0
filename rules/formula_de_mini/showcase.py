"""What the tools show of Formula Dé Mini with no person playing: the races the benchmarks time, the
README's picture, and a careful player's standing orders in ``bench pace``."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase

SHOWCASE = Showcase(
    bench_boards=Sample(
        "Formula Dé Mini, island circuit, 6 cars",
        stage="island",
        seed=4,
        seats=(
            {"id": "ann", "team": "red", "cars": 2},
            {"id": "bob", "team": "blue", "cars": 2},
            {"id": "cy", "team": "green", "cars": 1},
            {"id": "di", "team": "yellow", "cars": 1},
        ),
    ),
    bench_races=Sample("Formula Dé Mini, island circuit, 2 laps, 8 cars", stage="island"),
    pictures=(Picture("formula-de-mini-island.png", Sample("the island circuit", stage="island")),),
    habits=(("keep-gear", None, "last", 1), ("no-slipstream", None, None, None)),
)
