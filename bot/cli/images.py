"""``domestique render --readme-images DIR``: the pictures the README and docs show, drawn the way
the bot draws them (the games' painters through the registry, highlights from the legal choices),
from seeded races, so they can be drawn again whenever a board changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.cli.sim import simulate
from renderer.recap import painted, render_recap, turn_states
from renderer.registry import paint, paint_standings
from rules.game import Standing
from rules.record import Record, parse_record, replay, start_state
from rules.registry import find_game

# A Leader 1 stage mid-race with every kind of rider on show: a breakaway, the peloton, a dropped
# group, a fallen and a punctured rider (a record's "start", docs/record-format.md).
LEADER1_SEATS = [
    {"id": n, "team": t, "riders": ["rouleur", "leader", "climber"]}
    for n, t in (("ann", "yellow"), ("bob", "blue"), ("cat", "green"), ("dan", "white"))
]
LEADER1_MID_RACE = {
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


def board(game: str, state: Any, title: str, *, highlight: bool = True) -> bytes:
    """The board as the bot posts it: with the squares of the piece to act and their short names."""
    rules = find_game(game).rules
    decision = rules.pending(state)
    choices = []
    acting: list[str] = []
    if highlight and decision is not None:
        choices = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
        acting = [decision.piece] if decision.piece else []
    png = paint(game, state, highlight=choices, acting=acting, title=title)
    assert png is not None, f"{game} has no painter"
    return png


def mid_race(record: Record, fraction: float = 0.4, span: float = 0.15) -> Any:
    """A state from ``fraction`` to ``fraction + span`` of ``record`` where the piece to act chooses a
    square: the one with the most squares on offer (the first such state past it, if none)."""
    game, state = start_state(record)
    best: tuple[int, Any] = (0, None)
    count = len(record.actions)
    for index, action in enumerate(record.actions):
        if index >= count * fraction:
            decision = game.rules.pending(state)
            offered = 0
            if decision is not None:
                choices = game.rules.choices(state, decision.player)
                offered = len({c.target for c in choices if c.target is not None and c.step is None})
            if offered > best[0]:
                best = (offered, state)
            if best[1] is not None and index >= count * (fraction + span):
                break
        state, _ = game.rules.apply(state, action)
    return best[1] if best[1] is not None else state


def readme_images(out: Path) -> list[Path]:
    """Draw every README and docs picture into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    leader1 = {"format": "domestique.record/1", "game": "leader1", "players": LEADER1_SEATS, "seed": 4}
    start = replay(parse_record({**leader1, "track": "leader1/first-race", "actions": []})).state
    files["board-start.png"] = board("leader1", start, "Race 1 · first-race")
    middle = parse_record({**leader1, "track": "leader1/first-race", "actions": [], "start": LEADER1_MID_RACE})
    files["board-mid-race.png"] = board("leader1", replay(middle).state, "Race 1 · first-race")
    record, final = simulate("leader1", players=4, seed=3, stage="first-race")
    files["board-finish.png"] = board("leader1", final, "Race 1 · first-race")
    files["recap.gif"] = render_recap(turn_states(record), width=480, board=painted("leader1", "Race 1 · first-race"))
    for game, stage, name in (
        ("formula-de-mini", "island", "formula-de-mini-island.png"),
        ("hell-of-the-north", None, "hell-of-the-north.png"),
        ("peloton", None, "peloton.png"),
    ):
        record, _ = simulate(game, players=4, seed=3, stage=stage)
        title = f"Race 1 · {str(record.track).split('/', 1)[-1]}"
        files[name] = board(game, mid_race(record), title)
    # a course marked on the bohemia board, at the crossroads where the forest road crosses the ridge: a
    # moment whose hexagons on show the turning does not squeeze (a squeezed one is drawn straight, without
    # the board's roads around it: renderer/peloton_painter.laid_out)
    record, _ = simulate("peloton", players=4, seed=3, stage="leg-ridge-and-river")
    files["peloton-board-map.png"] = board("peloton", mid_race(record, 0.485, 0.01), "Race 1 · leg-ridge-and-river")
    standings = (
        Standing("white-rouleur", "dan", 2, {"energy": 20}),
        Standing("blue-leader", "bob", 0, {"energy": 18}),
        Standing("blue-climber", "bob", -7, {"energy": 9}),
        Standing("green-leader", "cat", -20, {"energy": 5}, True),
    )
    gc = paint_standings("leader1", standings, title="General classification after stage 2", options={"ring": 12})
    assert gc is not None
    files["standings.png"] = gc
    written = []
    for name, data in files.items():
        (out / name).write_bytes(data)
        written.append(out / name)
    return written
