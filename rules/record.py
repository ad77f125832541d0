"""The public race record, format ``domestique.record/1`` (docs/record-format.md).

Loading is strict: unknown fields, another format, bad cell ids are refused with the
JSON path of the problem. Whatever the input, loading raises ``MalformedRecord`` (or
another ``DomestiqueError``) and nothing else: a record is untrusted text from a user.
``replay`` plays a record's actions and stops at the first illegal one, reporting its index.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from rules.action import Action
from rules.errors import DomestiqueError, IllegalAction, MalformedRecord
from rules.game import Envelope, PlayerRecord
from rules.registry import AnyGame, find_game
from rules.versions import RulesVersion, VersionTable

FORMAT = "domestique.record/1"
ENVELOPE = ("format", "game", "rules", "options", "track", "players", "seed", "dice", "start", "actions", "expect")
# Bounds on the shape of any record, far beyond what a race needs, so that no value can
# reach the rules that Python cannot handle (recursion, int(str) limits, non-finite floats)
# and no message about a bad value grows without bound.
MAX_DEPTH = 20
MAX_DIGITS = 100
MAX_STRING = 10_000
MAX_KEY = 64
KEY = re.compile(r"^[A-Za-z0-9_-]+$")
# control characters and line or paragraph separators: a value that reaches a one-line
# message (an id in "it is ann's turn") must not break it
LINE_BREAKING = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True)
class Record:
    game: str
    track: object
    players: list[PlayerRecord]
    seed: int
    options: dict[str, object] = field(default_factory=dict)
    dice: dict[str, object] = field(default_factory=dict)
    start: dict[str, object] | None = None
    actions: tuple[Action, ...] = ()
    expect: dict[str, object] | None = None
    rules: str | None = None  # the rules version it was played under; None: written before versions

    def envelope(self) -> Envelope:
        return {
            "game": self.game,
            "rules": self.rules,
            "options": self.options,
            "track": self.track,
            "players": self.players,
            "seed": self.seed,
            "dice": self.dice,
            "start": self.start,
        }

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "format": FORMAT,
            "game": self.game,
        }
        if self.rules is not None and self.rules != find_game(self.game).rules_versions.unversioned.name:
            # the version a record without ``rules`` means is left out, so that readers from before
            # versions read the record (they refuse a field they do not know)
            out["rules"] = self.rules
        out |= {
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
        return replace(self, actions=actions)

    def under(self, rules: str | None) -> Record:
        """This record naming the rules version ``rules`` (None: none)."""
        return replace(self, rules=rules)


def parse_record(data: object) -> Record:
    """A record from parsed JSON; anything malformed raises ``MalformedRecord`` with its JSON path."""
    check_shape(data)
    if not isinstance(data, dict):
        raise MalformedRecord("$", "a record is a JSON object")
    for key in data:
        if key not in ENVELOPE:
            raise MalformedRecord(f"$.{key}", f"unknown field; a record has {', '.join(ENVELOPE)}")
    if data.get("format") != FORMAT:
        raise MalformedRecord("$.format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    if not isinstance(data.get("game"), str):
        raise MalformedRecord("$.game", f"expected a game id such as 'leader1', got {data.get('game')!r}")
    game = find_game(data["game"])
    for key in ("track", "players", "seed"):
        if key not in data:
            raise MalformedRecord(f"$.{key}", "missing")
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise MalformedRecord("$.seed", f"expected an integer seed, got {seed!r}")
    for key in ("options", "dice", "start", "expect"):
        if key in data and data[key] is not None and not isinstance(data[key], dict):
            raise MalformedRecord(f"$.{key}", "expected an object")
    rules = game.rules_versions.of_envelope(data)  # an unknown version is refused at $.rules
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
        rules=None if data.get("rules") is None else rules.name,
    )


def load_record(text: str | bytes) -> Record:
    """A record from the contents of a record file (text, or bytes in UTF-8).

    Whatever the input, this returns a record or raises ``MalformedRecord``: the JSON
    parser's own failures (bytes that are not UTF-8, nesting past its recursion limit,
    integers past Python's digit limit) are refused here, where the file is read.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedRecord("$", f"not UTF-8 text: byte {exc.start} cannot be decoded") from None
    text = text.removeprefix("\ufeff")  # a byte order mark, as some editors write (RFC 8259 allows ignoring it)
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_Unparsed, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise MalformedRecord("$", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise MalformedRecord("$", f"nested too deeply; a record nests at most {MAX_DEPTH} levels") from None
    return parse_record(data)


class _Unparsed(str):
    """A JSON number that is no value in a record (a huge integer, NaN, Infinity), kept as its text
    so that ``check_shape`` can refuse it with its JSON path (the parser knows no paths)."""


class _Twice(dict[str, object]):
    """A JSON object that gives a key twice (the parser would keep the last silently)."""

    key = ""


def _parse_int(text: str) -> int | _Unparsed:
    # Python refuses int() of more than 4,300 digits with a ValueError; stop well before
    return _Unparsed(text) if len(text.lstrip("-")) > MAX_DIGITS else int(text)


def _object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out = dict(pairs)
    if len(out) == len(pairs):
        return out
    twice = _Twice(out)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            twice.key = key
            break
        seen.add(key)
    return twice


def _step(path: str, key: str) -> str:
    return f"{path}.{key}" if KEY.match(key) else f"{path}[{json.dumps(key)}]"


def _check_string(text: str, path: str) -> None:
    if len(text) > MAX_STRING:
        raise MalformedRecord(path, f"a string of {len(text)} characters; at most {MAX_STRING}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedRecord(path, "not Unicode text (a lone surrogate \\u escape)") from None
    bad = LINE_BREAKING.search(text)
    if bad:
        raise MalformedRecord(path, f"a control character or line break {bad[0]!r} in a string")


def check_shape(data: object) -> None:
    """Refuse, with its JSON path, what no record holds: deep nesting, odd keys, huge numbers, NaN."""
    stack: list[tuple[object, str, int]] = [(data, "$", 0)]
    while stack:
        value, path, depth = stack.pop()
        children: list[tuple[object, str, int]] = []
        if depth > MAX_DEPTH:
            raise MalformedRecord(path, f"nested too deeply; a record nests at most {MAX_DEPTH} levels")
        if isinstance(value, _Unparsed):
            if value.lstrip("-").isdigit():
                raise MalformedRecord(path, f"a number of {len(value.lstrip('-'))} digits; at most {MAX_DIGITS}")
            raise MalformedRecord(path, f"{value} is not a number in JSON")
        if isinstance(value, float) and not math.isfinite(value):
            raise MalformedRecord(path, f"the number {value} is out of range")
        if isinstance(value, str):
            _check_string(value, path)
        elif isinstance(value, dict):
            if isinstance(value, _Twice):
                raise MalformedRecord(_step(path, value.key), "given twice")
            for key, item in value.items():
                if not isinstance(key, str) or not key or len(key) > MAX_KEY or not key.isprintable() or " " in key:
                    shown = key if not isinstance(key, str) or len(key) <= MAX_KEY else f"{key[:MAX_KEY]}..."
                    where = f"{path}[{json.dumps(shown)}]" if isinstance(key, str) else path
                    raise MalformedRecord(where, f"not a field name (1 to {MAX_KEY} printable characters, no spaces)")
                children.append((item, _step(path, key), depth + 1))
        elif isinstance(value, list):
            children = [(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value)]
        stack.extend(reversed(children))  # the first problem in reading order is the one reported


@dataclass(frozen=True)
class Replay:
    game: AnyGame
    state: object  # the game's own state
    applied: int
    error_at: int | None = None
    error: str | None = None
    rules: RulesVersion | None = None  # the rules version it was replayed under


def dated(record: Record, created: float) -> Record:
    """``record`` naming its rules version: its own, else (written before versions) the version that was
    the newest when its race was created (``created``: seconds since the epoch)."""
    if record.rules is not None:
        return record
    return record.under(find_game(record.game).rules_versions.on(created).name)


def versions_of(record: Record) -> VersionTable:
    """The rules versions of ``record``'s game."""
    return find_game(record.game).rules_versions


def rules_of(record: Record) -> RulesVersion:
    """The rules version ``record`` is played under: the one it names, else the last before versions."""
    return versions_of(record).resolve(record.rules)


def start_state(record: Record) -> tuple[AnyGame, object]:
    game = find_game(record.game)
    return game, game.rules.build(record.envelope())


def replay(record: Record) -> Replay:
    """Play every action of ``record``; stop at the first illegal one."""
    game, state = start_state(record)
    played = rules_of(record)
    for index, action in enumerate(record.actions):
        try:
            state, _ = game.rules.apply(state, action)
        except IllegalAction as exc:
            return Replay(game, state, index, index, str(exc), played)
        except DomestiqueError as exc:  # pragma: no cover - defensive: any rules error names its action
            return Replay(game, state, index, index, str(exc), played)
    return Replay(game, state, len(record.actions), rules=played)


def scenario_problems(record: Record) -> list[str]:
    """What the replayed scenario ``record`` does not meet of its ``expect`` (empty: all of it)."""
    result = replay(record)
    view = {**result.game.rules.public_view(result.state), "rules": rules_of(record).name}  # as replay prints it
    return check_expectations(record.expect or {}, view, result.error_at)


def check_expectations(expect: Mapping[str, object], view: Mapping[str, object], error_at: int | None) -> list[str]:
    """Every field given in ``expect`` must match the replay output; returns what differs."""
    problems: list[str] = []
    if "error_at" in expect and expect["error_at"] != error_at:
        problems.append(f"error_at: expected {expect['error_at']}, got {error_at}")
    elif "error_at" not in expect and error_at is not None:
        problems.append(f"action {error_at} was refused")
    _match(expect, view, "$", problems, top=True)
    return problems


def _match(expected: object, actual: object, path: str, problems: list[str], top: bool = False) -> None:
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            problems.append(f"{path}: expected an object, got {actual!r}")
            return
        for key, value in expected.items():
            if top and key in ("error_at", "about"):  # about: the rulebook's words a scenario pins
                continue
            if key == "events" and isinstance(value, list) and isinstance(actual.get(key), list):
                _match_events(value, actual[key], f"{path}.events", problems)
            elif key not in actual:
                problems.append(f"{path}.{key}: missing in the output")
            else:
                _match(value, actual[key], f"{path}.{key}", problems)
    elif expected != actual:
        problems.append(f"{path}: expected {expected!r}, got {actual!r}")


def _match_events(
    expected: list[Mapping[str, object]], actual: list[Mapping[str, object]], path: str, problems: list[str]
) -> None:
    """Expected events must appear in the output in this order (others may come between)."""
    position = 0
    for i, want in enumerate(expected):
        while position < len(actual) and not all(actual[position].get(k) == v for k, v in want.items()):
            position += 1
        if position == len(actual):
            problems.append(f"{path}[{i}]: no event matching {want} (in order)")
            return
        position += 1
