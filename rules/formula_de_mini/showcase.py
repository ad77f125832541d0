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
    # a driving plan: the highest gear whose every roll can be driven clean braking at most 1 LP, each
    # roll driven as far as it goes clean braking at most 2 LP, a slipstream when it costs 1 LP
    habits=(("shift", 1, None, None), ("drive", 2, None, None), ("slipstream", 1, None, None)),
)
