"""Mutations of valid race records, for the fuzz tests of the record loader.

A mutation changes one place of a valid record: a value of another type, a huge or
odd number, a long or strange string, a deeper nesting, a missing or unknown key, a
value moved from elsewhere in the record. Some values cannot be built as Python
objects and written by ``json.dumps`` (an integer of 5,000 digits, nesting deeper than
the parser's recursion limit, ``NaN``), so the record is written as text with a
placeholder string that is then replaced by the raw JSON text.

The choices are made through a ``Chooser`` so that one mutator serves both the
hypothesis test (which can shrink its draws) and a plain ``random.Random`` loop.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
RAW = "\x00raw:"  # a placeholder string: json.dumps writes it as "\u0000raw:<n>"


class Chooser(Protocol):
    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, low: int, high: int) -> int: ...


class RandomChooser:
    def __init__(self, rnd: Any) -> None:
        self.rnd = rnd

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rnd.randrange(len(options))]

    def number(self, low: int, high: int) -> int:
        return int(self.rnd.randint(low, high))


@cache
def base_records() -> tuple[str, ...]:
    """Valid records as JSON text: every scenario record, and a few races played by the AI."""
    from bot.cli.sim import simulate
    from rules.registry import game_ids
    from tests.support.scenario_check import scenarios

    paths = sorted(path for game in game_ids() for path in scenarios(game))
    texts = [p.read_text() for p in paths]
    for game, stage, hexagons in (
        ("leader1", "first-race", None),
        ("leader1", None, 6),
        ("hell-of-the-north", "roubaix", None),
        ("hell-of-the-north", None, 6),
        ("formula-de-mini", "canyon", None),  # last: the fuzz test's nasty files start from it
    ):
        record, _ = simulate(game, players=2, seed=3, stage=stage, random_hexagons=hexagons)
        # a prefix of a legal race is a legal race; short ones keep each example fast
        texts.append(json.dumps(record.with_actions(record.actions[:40]).to_json()))
    return tuple(texts)


@cache
def inline_track_records() -> tuple[str, ...]:
    """Valid records of every game whose track is inline (an object in the record, not a name): each
    form a game takes (Leader 1 and Hell of the North rows, a Formula Dé Mini circuit, a Peloton course
    of segments and one marked on a board), a few actions in, so that a mutated track is met at once."""
    from bot.cli.sim import simulate
    from rules.peloton.course import random_course_data
    from rules.peloton.random_board import board_course_data
    from rules.registry import folder
    from rules.resources import game_data
    from tests.support.scenario_check import scenarios

    def data_of(track: str) -> dict[str, Any]:
        """A shipped or random track's data, as an inline track writes it."""
        game, name = track.split("/", 1)
        if name.startswith("random-bohemia-"):
            return board_course_data(name)
        if name.startswith("random-"):
            return random_course_data(name)
        loaded: dict[str, Any] = json.loads(game_data(folder(game)).joinpath(f"{name}.json").read_text())
        return loaded

    texts = []
    for game, stage in (
        ("formula-de-mini", "canyon"),
        ("formula-de-mini", "island"),
        ("peloton", "leg-bohemia"),
        ("peloton", "leg-ridge-and-river"),  # marked on a board
        ("peloton", "random-itt-50"),
        ("peloton", "random-bohemia-30"),
    ):
        record, _ = simulate(game, players=2, seed=3, stage=stage)
        track = data_of(str(record.track))
        texts.append(json.dumps({**record.with_actions(record.actions[:12]).to_json(), "track": track}))
    for game in ("leader1", "hell-of-the-north", "peloton"):  # the scenarios: rows, surfaces, weather
        for path in scenarios(game)[:4]:
            record = json.loads(path.read_text())
            if isinstance(record.get("track"), dict):
                texts.append(json.dumps({**record, "actions": record.get("actions", [])[:12]}))
    return tuple(texts)


# raw JSON text that json.dumps cannot write from a Python value
RAW_TEXTS = (
    "1" * 5000,  # over Python's 4,300-digit limit for int(str)
    "-" + "9" * 4301,
    "[" * 100_000 + "]" * 100_000,  # over the parser's recursion limit
    '{"a":' * 5000 + "1" + "}" * 5000,
    "[" * 300 + "]" * 300,  # parses, but deeper than any record
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",  # parses as a float infinity
    '"\\ud800"',  # a lone surrogate: not Unicode text, cannot be written as UTF-8
)

STRINGS = (
    "",
    " ",
    "\n",
    "x" * 10_000,
    "leader1/" + "a" * 5000,
    "formula-de-mini/" + "a" * 5000,
    "leader1/../formula-de-mini/canyon",
    "formula-de-mini/../leader1/tiles",
    "formula-de-mini/../../pyproject",
    "formula-de-mini/dice",
    "leader1/stages/../../leader1/dice",
    "leader1/random-9999999999-1",
    "leader1/random-6-" + "9" * 4000,
    "leader1/random-06-1",
    "leader1/random-6--1",
    "leader1/random-٦-1",  # an Arabic-Indic digit: str.isdigit() says yes
    "leader1/first-race\x00",
    "leader1/FIRST-RACE",
    "leader1/first-race/",
    "/etc/passwd",
    "yellow-rouleur",
    "red-1",
    "14.2",
    "99999.0",
    "0.99999",
    "1." + "9" * 4500,
    "Zoë 🚴",
    "\u2028",
    "\u202e",
    "ann",
    "pass",
    "ride",
    "breakaway",
    "gear",
    "drive",
    "pit",
)

NUMBERS = (0, 1, -1, 2, 3, 7, 20, 99, 255, 10**6, 2**63, -(2**63), 2**64 + 1, 10**100, 10**4000, -(10**4000))
FLOATS = (0.0, -0.0, 0.5, 1.0, 2.0, 3.0, 1e308, -1e308, 5e-324)
OTHERS: tuple[Any, ...] = (None, True, False, [], {}, [None], {"": None}, [[[]]], {"a": {"b": {"c": {}}}})
KEYS = ("", " ", "\n", "x" * 300, "\ud800", "at", "to", "riders", "cars", "fall", "__class__", "yellow-rouleur")


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, as a path of keys and indexes (the root is ``()``)."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _nodes(item, (*path, index))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _nasty(choose: Chooser, record: Any, raws: list[str]) -> Any:
    kind = choose.pick(("string", "number", "float", "other", "raw", "moved", "wrapped", "deep"))
    if kind == "string":
        return choose.pick(STRINGS)
    if kind == "number":
        return choose.pick(NUMBERS)
    if kind == "float":
        return choose.pick(FLOATS)
    if kind == "other":
        return copy.deepcopy(choose.pick(OTHERS))
    if kind == "raw":
        raws.append(choose.pick(RAW_TEXTS))
        return f"{RAW}{len(raws) - 1}"
    if kind == "moved":  # a value from elsewhere in the record: right types in the wrong place
        return copy.deepcopy(_get(record, choose.pick(_nodes(record))))
    if kind == "wrapped":
        inner = copy.deepcopy(_get(record, choose.pick(_nodes(record))))
        return choose.pick(([inner], {"value": inner}, [inner, inner]))
    depth = choose.number(1, 60)
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def mutate(text: str, choose: Chooser, rounds: int) -> str:
    """``rounds`` mutations of the record ``text``, returned as JSON text."""
    record = json.loads(text)
    raws: list[str] = []
    for _ in range(rounds):
        path = choose.pick(_nodes(record))
        op = choose.pick(("replace", "replace", "replace", "delete", "add", "duplicate"))
        if path == ():
            if op in ("replace", "delete"):
                record = _nasty(choose, record, raws)
            elif isinstance(record, dict):
                record[choose.pick(KEYS)] = _nasty(choose, record, raws)
            continue
        parent, last = _get(record, path[:-1]), path[-1]
        if op == "replace":
            parent[last] = _nasty(choose, record, raws)
        elif op == "delete":
            del parent[last]
        elif op == "add" and isinstance(parent, dict):
            parent[choose.pick(KEYS)] = _nasty(choose, record, raws)
        elif op == "add":
            parent.insert(last, _nasty(choose, record, raws))
        elif isinstance(parent, list):  # duplicate an element of a list (two players, two actions)
            parent.insert(last, copy.deepcopy(parent[last]))
    out = json.dumps(record, ensure_ascii=choose.pick((True, False)))
    for index, raw in enumerate(raws):
        out = out.replace(json.dumps(f"{RAW}{index}"), raw)
    return out


def mutated_records(choose: Chooser) -> str:
    return mutate(choose.pick(base_records()), choose, choose.number(1, 3))


def mutated_tracks(choose: Chooser) -> str:
    """A record whose inline track has 1 to 3 mutations (the rest of the record kept as it was)."""
    record = json.loads(choose.pick(inline_track_records()))
    track = mutate(json.dumps(record["track"]), choose, choose.number(1, 3))
    marker = "\x00track"
    return json.dumps({**record, "track": marker}).replace(json.dumps(marker), track)


# a mutation can also break the file below the JSON: bytes that are not UTF-8, a cut-off text
def damaged_bytes(text: str, choose: Chooser) -> bytes:
    data = text.encode("utf-8", "surrogatepass")
    damage: Callable[[bytes], bytes] = choose.pick(
        (
            lambda d: d,
            lambda d: b"\xff\xfe" + d,
            lambda d: d[: len(d) // 2],
            lambda d: d.replace(b'"', b"\xc3", 1),
            lambda d: b"\xef\xbb\xbf" + d,  # a UTF-8 byte order mark
            lambda d: d.decode("utf-8", "surrogatepass").encode("utf-16", "surrogatepass"),
        )
    )
    return damage(data)
