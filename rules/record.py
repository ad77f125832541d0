"""The public race record, format ``domestique.record/1`` (../shared/spec/record-format.md).

Loading is strict: unknown fields, another format, bad cell ids are refused with the
JSON path of the problem. ``replay`` plays a record's actions and stops at the first
illegal one, reporting its index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rules.action import Action
from rules.errors import DomestiqueError, IllegalAction, MalformedRecord
from rules.game import Game
from rules.registry import find_game

FORMAT = "domestique.record/1"
ENVELOPE = ("format", "game", "options", "track", "players", "seed", "dice", "start", "actions", "expect")


@dataclass(frozen=True)
class Record:
    game: str
    track: Any
    players: list[dict[str, Any]]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    dice: dict[str, list[Any]] = field(default_factory=dict)
    start: dict[str, Any] | None = None
    actions: tuple[Action, ...] = ()
    expect: dict[str, Any] | None = None

    def envelope(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "track": self.track,
            "players": self.players,
            "seed": self.seed,
            "dice": self.dice,
            "start": self.start,
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "track": self.track,
            "players": self.players,
            "seed": self.seed,
        }
        if self.dice:
            out["dice"] = self.dice
        if self.start:
            out["start"] = self.start
        out["actions"] = [a.to_json() for a in self.actions]
        if self.expect is not None:
            out["expect"] = self.expect
        return out

    def with_actions(self, actions: tuple[Action, ...]) -> Record:
        return Record(
            self.game, self.track, self.players, self.seed, self.options, self.dice, self.start, actions, self.expect
        )


def parse_record(data: object) -> Record:
    if not isinstance(data, dict):
        raise MalformedRecord("$", "a record is a JSON object")
    for key in data:
        if key not in ENVELOPE:
            raise MalformedRecord(f"$.{key}", f"unknown field; a record has {', '.join(ENVELOPE)}")
    if data.get("format") != FORMAT:
        raise MalformedRecord("$.format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    game = find_game(data.get("game"))
    for key in ("track", "players", "seed"):
        if key not in data:
            raise MalformedRecord(f"$.{key}", "missing")
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise MalformedRecord("$.seed", f"expected an integer seed, got {seed!r}")
    for key in ("options", "dice", "start", "expect"):
        if key in data and data[key] is not None and not isinstance(data[key], dict):
            raise MalformedRecord(f"$.{key}", "expected an object")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise MalformedRecord("$.actions", "expected a list of actions")
    return Record(
        game=data["game"],
        track=data["track"],
        players=data["players"],
        seed=seed,
        options=data.get("options") or {},
        dice=data.get("dice") or {},
        start=data.get("start"),
        actions=tuple(game.vocabulary.from_json(a, f"$.actions[{i}]") for i, a in enumerate(actions)),
        expect=data.get("expect"),
    )


def load_record(text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedRecord("$", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return parse_record(data)


@dataclass(frozen=True)
class Replay:
    game: Game
    state: Any
    applied: int
    error_at: int | None = None
    error: str | None = None


def start_state(record: Record) -> tuple[Game, Any]:
    game = find_game(record.game)
    return game, game.rules.build(record.envelope())


def replay(record: Record) -> Replay:
    """Play every action of ``record``; stop at the first illegal one."""
    game, state = start_state(record)
    for index, action in enumerate(record.actions):
        try:
            state, _ = game.rules.apply(state, action)
        except IllegalAction as exc:
            return Replay(game, state, index, index, str(exc))
        except DomestiqueError as exc:  # pragma: no cover - defensive: any rules error names its action
            return Replay(game, state, index, index, str(exc))
    return Replay(game, state, len(record.actions))


def check_expectations(expect: dict[str, Any], view: dict[str, Any], error_at: int | None) -> list[str]:
    """Every field given in ``expect`` must match the replay output; returns what differs."""
    problems: list[str] = []
    if "error_at" in expect and expect["error_at"] != error_at:
        problems.append(f"error_at: expected {expect['error_at']}, got {error_at}")
    elif "error_at" not in expect and error_at is not None:
        problems.append(f"action {error_at} was refused")
    _match(expect, view, "$", problems, top=True)
    return problems


def _match(expected: Any, actual: Any, path: str, problems: list[str], top: bool = False) -> None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            problems.append(f"{path}: expected an object, got {actual!r}")
            return
        for key, value in expected.items():
            if top and key == "error_at":
                continue
            if key == "events" and isinstance(value, list) and isinstance(actual.get(key), list):
                _match_events(value, actual[key], f"{path}.events", problems)
            elif key not in actual:
                problems.append(f"{path}.{key}: missing in the output")
            else:
                _match(value, actual[key], f"{path}.{key}", problems)
    elif expected != actual:
        problems.append(f"{path}: expected {expected!r}, got {actual!r}")


def _match_events(expected: list[Any], actual: list[Any], path: str, problems: list[str]) -> None:
    """Expected events must appear in the output in this order (others may come between)."""
    position = 0
    for i, want in enumerate(expected):
        while position < len(actual) and not all(actual[position].get(k) == v for k, v in want.items()):
            position += 1
        if position == len(actual):
            problems.append(f"{path}[{i}]: no event matching {want} (in order)")
            return
        position += 1
