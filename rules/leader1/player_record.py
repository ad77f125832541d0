"""The part of a record's player object every Leader 1 family game reads alike: its fields,
id, team colour, rider types and name."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import MalformedRecord
from rules.leader1.model import RIDER_TYPES


@dataclass(frozen=True)
class Identity:
    raw: dict[str, Any]
    id: str
    name: str
    team: str
    riders: list[str]


def parse_identity(raw: object, path: str, allowed: Collection[str], teams: Sequence[str]) -> Identity:
    """Check a player object's keys, id, team and riders; MalformedRecord names the field that is wrong."""
    if not isinstance(raw, dict):
        raise MalformedRecord(path, "expected a player object")
    for key in raw:
        if key not in allowed:
            raise MalformedRecord(f"{path}.{key}", f"unknown player field; allowed: {', '.join(sorted(allowed))}")
    pid = raw.get("id")
    if not isinstance(pid, str) or not 0 < len(pid) <= 32 or not pid.isprintable() or " " in pid or "=" in pid:
        raise MalformedRecord(f"{path}.id", "expected a short id without spaces")
    team = raw.get("team")
    if not isinstance(team, str) or team not in teams:
        raise MalformedRecord(f"{path}.team", f"expected a team colour: {', '.join(teams)}")
    riders = raw.get("riders", list(RIDER_TYPES))
    if (
        not isinstance(riders, list)
        or not riders
        or any(r not in RIDER_TYPES for r in riders)
        or len(set(riders)) != len(riders)
    ):
        raise MalformedRecord(f"{path}.riders", f"expected distinct rider types among {', '.join(RIDER_TYPES)}")
    name = raw.get("name", pid)
    if not isinstance(name, str):
        raise MalformedRecord(f"{path}.name", "expected a string")
    return Identity(raw, pid, name, team, riders)
