"""Small builders for Leader 1 records in tests: an inline road, players, a mid-race start."""

from __future__ import annotations

from typing import Any

from rules.leader1.model import State
from rules.record import Record, parse_record, replay


def inline(profile: str, finish: int | None = None, **extra: Any) -> dict[str, Any]:
    return {"lanes": 3, "profile": profile, "finish": finish or len(profile) - 4, "energy": 40, **extra}


def players(*specs: tuple[str, str], riders: list[str] | None = None) -> list[dict[str, Any]]:
    kinds = riders or ["rouleur", "leader", "climber"]
    return [{"id": pid, "team": team, "riders": list(kinds)} for pid, team in specs]


TWO = players(("ann", "yellow"), ("bob", "blue"))
THREE = players(("ann", "yellow"), ("bob", "blue"), ("cat", "green"))


def record(
    track: Any,
    *,
    start: dict[str, Any] | None = None,
    actions: list[dict[str, Any]] | None = None,
    dice: dict[str, list[Any]] | None = None,
    seating: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
) -> Record:
    data: dict[str, Any] = {
        "format": "domestique.record/1",
        "game": "leader1",
        "track": track,
        "players": seating or TWO,
        "seed": seed,
        "options": options or {},
        "dice": dice or {},
        "actions": actions or [],
    }
    if start is not None:
        data["start"] = start
    return parse_record(data)


def play(rec: Record) -> State:
    result = replay(rec)
    assert result.error_at is None, f"action {result.error_at} refused: {result.error}"
    state: State = result.state
    return state


def ride(by: str, rider: str, to: str, **more: Any) -> dict[str, Any]:
    return {"by": by, "do": "ride", "rider": rider, "to": to, **more}


def act(state: State, text: str) -> State:
    from rules.leader1 import apply
    from rules.leader1.game import VOCABULARY

    new, _ = apply(state, VOCABULARY.from_text(text))
    return new


def pass_until_ride(state: State) -> State:
    """Everyone passes (breaking away, pursuit) until a rider must ride or the race ends."""
    from rules.leader1 import pending

    while (decision := pending(state)) is not None and decision.kind != "ride":
        state = act(state, f"{decision.player} pass")
    return state
