"""``domestique check``: replay scenario records and check their expectations.

A scenario is a record whose ``expect`` names what the replay must show (docs/record-format.md,
"Expectations"). This project's own scenarios run in its tests (``tests/test_scenarios.py``); a game
kept in a package of its own checks its scenarios with this command, from an installed Domestique."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from rules.errors import DomestiqueError
from rules.record import load_record, rules_of, scenario_problems


def check(names: Sequence[str]) -> int:
    """Check every scenario file named (a folder: its ``*.json``); 0 if all pass, 1 if one fails its
    expectations, 2 if one cannot be read or is no record (or a folder holds none)."""
    passed = failed = unusable = 0
    for path in _files(names):
        if path.is_dir():
            print(f"{path}: no scenario records (*.json) in this folder", file=sys.stderr)
            unusable += 1
            continue
        try:
            record = load_record(path.read_bytes())
            found = scenario_problems(record) if record.expect else ["no expectations: a scenario asserts something"]
            played = rules_of(record).name
        except OSError as exc:
            print(f"{path}: cannot read: {exc.strerror}", file=sys.stderr)
            unusable += 1
            continue
        except DomestiqueError as exc:
            print(f"{path}: malformed record: {exc}", file=sys.stderr)
            unusable += 1
            continue
        if found:
            failed += 1
            print(f"FAILED {path}")
            print("\n".join(f"  {problem}" for problem in found))
            print(f"  (replayed under the rules of {played})")
        else:
            passed += 1
            print(f"ok     {path} (rules {played})")
    print(f"{passed} passed, {failed} failed" + (f", {unusable} not checked" if unusable else ""))
    return 2 if unusable else 1 if failed else 0


def _files(names: Sequence[str]) -> Iterator[Path]:
    for name in names:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.glob("*.json")) or [path]  # an empty folder is named, not passed over
        else:
            yield path
