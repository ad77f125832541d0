"""What the tools show of Leader 1 with no person playing: the game the command line plays when none
is named, the races the benchmarks time, the README's pictures and sample classification, and a
careful player's standing orders in ``bench pace``."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase, Standing

SEATS = tuple(
    {"id": n, "team": t, "riders": ["rouleur", "leader", "climber"]}
    for n, t in (("ann", "yellow"), ("bob", "blue"), ("cat", "green"), ("dan", "white"))
)
# A stage mid-race with every kind of rider on show: a breakaway, the peloton, a dropped group, a
# fallen and a punctured rider (a record's "start", docs/record-format.md).
MID_RACE = {
    "turn": 9,
    "peloton": {"at": 24, "leader": "bob"},
    "riders": {
        "yellow-rouleur": {"at": "31.1", "energy": 22},
        "blue-climber": {"at": "30.1", "energy": 25},
        "green-leader": {"at": "29.0", "energy": 30},
        "white-rouleur": {"at": "18.1", "status": "dropped", "energy": 2},
        "white-leader": {"at": "17.1", "status": "dropped", "energy": 4},
        "yellow-climber": {"at": "16.2", "status": "dropped", "energy": 9},
        "green-climber": {"at": "27.2", "status": "fallen", "energy": 12},
        "blue-rouleur": {"at": "20.0", "status": "punctured", "energy": 15},
    },
}
FIRST_RACE = Sample("the first race, 4 players", stage="first-race", seed=3)

SHOWCASE = Showcase(
    featured=True,
    bench_boards=Sample("Leader 1, grand-tour stage, 12 riders", stage="grand-tour", seed=11),
    bench_races=Sample("Leader 1, 20-hexagon route, 4 players", stage="random-20"),
    translated="board-mid-race.png",
    pictures=(
        Picture("board-start.png", Sample("the first race's start", "first-race", seed=4, seats=SEATS), "start"),
        Picture(
            "board-mid-race.png",
            Sample("the first race mid-race", "first-race", seed=4, seats=SEATS, start=MID_RACE),
            "start",
        ),
        Picture("board-finish.png", FIRST_RACE, "finish"),
        Picture("recap.gif", FIRST_RACE, "recap"),
    ),
    standings=(
        Standing("white-rouleur", "dan", 2, {"energy": 20}),
        Standing("blue-leader", "bob", 0, {"energy": 18}),
        Standing("blue-climber", "bob", -7, {"energy": 9}),
        Standing("green-leader", "cat", -20, {"energy": 5}, True),
    ),
    standings_options={"ring": 12},
    habits=(("stay", None, "last", 2), ("pursue-over", 6, None, None)),
    pace_pieces=1,  # six teams share jerseys, one rider each (A.2)
)
