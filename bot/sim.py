"""AI-against-AI races: the engine driven by the AI players, producing a record."""

from __future__ import annotations

from typing import Any

from rules.action import Action
from rules.errors import InvalidSetup
from rules.leader1 import ai as leader1_ai
from rules.leader1.model import RIDER_TYPES, TEAMS
from rules.leader1.setup import riders_allowed
from rules.record import Record, start_state
from rules.registry import find_game

MAX_DECISIONS = 20_000


def leader1_players(count: int, riders: int | None) -> list[dict[str, Any]]:
    allowed = riders_allowed(count)
    if not allowed:
        raise InvalidSetup("--players", f"Leader 1 is for 2 to 10 players, got {count}")
    per = riders or max(allowed)
    if count * per > 12:
        per = 12 // count
    players = []
    for i in range(count):
        team = TEAMS[i % len(TEAMS)]
        kinds = list(RIDER_TYPES[:per]) if count <= 5 else [RIDER_TYPES[(i // len(TEAMS)) % 3]]
        player: dict[str, Any] = {"id": f"ai{i + 1}", "name": f"AI {i + 1}", "team": team, "riders": kinds}
        if len(kinds) >= 2:
            player["sprinter"], player["descender"] = kinds[1], kinds[0]
        players.append(player)
    return players


def simulate(
    game: str,
    *,
    players: int,
    seed: int,
    riders: int | None = None,
    stage: str | None = None,
    random_hexagons: int | None = None,
) -> tuple[Record, Any]:
    """Play a whole race with AI players; returns its record and final state."""
    find_game(game)
    if game == "formula-de-mini":
        from rules.formula_de_mini import ai as fdm_ai

        teams = ["red", "blue", "green", "yellow"]
        if not 1 <= players <= 4:
            raise InvalidSetup("--players", "Formula Dé Mini has 1 to 4 teams of 1 or 2 cars")
        seats = [
            {"id": f"ai{i + 1}", "name": f"AI {i + 1}", "team": teams[i], "cars": riders or 2} for i in range(players)
        ]
        record = Record(game=game, track=f"formula-de-mini/{stage or 'canyon'}", players=seats, seed=seed)
        choose = fdm_ai.choose
    else:
        track = f"leader1/random-{random_hexagons}-{seed}" if random_hexagons else f"leader1/{stage or 'first-race'}"
        record = Record(game=game, track=track, players=leader1_players(players, riders), seed=seed)
        choose = leader1_ai.choose
    game_def, state = start_state(record)
    actions: list[Action] = []
    while not game_def.outcome(state).finished:
        decision = game_def.pending(state)
        action = choose(state, decision.player)
        state, _ = game_def.apply(state, action)
        actions.append(action)
        if len(actions) > MAX_DECISIONS:
            raise RuntimeError("the race did not end")  # a bug, never a rules outcome
    return record.with_actions(tuple(actions)), state
