"""Actions: small values with a text form that round-trips (records, database, button ids, logs)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.errors import MalformedRecord

FIELD_ORDER = ("rider", "car", "gear", "to", "via", "brake", "turbo", "tile")
TOKEN = re.compile(r"^[A-Za-z0-9_.,\-]+$")


@dataclass(frozen=True)
class Action:
    """One decision by one player, named as the rulebook names it.

    ``by`` and ``do`` are always present; the other fields depend on ``do``.
    """

    by: str
    do: str
    rider: str | None = None
    to: str | None = None
    via: tuple[str, ...] = ()
    tile: int | None = None
    car: str | None = None  # Formula Dé Mini
    gear: int | None = None
    brake: int | None = None
    turbo: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "do": self.do}
        if self.rider is not None:
            out["rider"] = self.rider
        if self.car is not None:
            out["car"] = self.car
        if self.gear is not None:
            out["gear"] = self.gear
        if self.to is not None:
            out["to"] = self.to
        if self.via:
            out["via"] = list(self.via)
        if self.brake:
            out["brake"] = self.brake
        if self.turbo:
            out["turbo"] = True
        if self.tile is not None:
            out["tile"] = self.tile
        return out

    @staticmethod
    def from_json(data: object, path: str = "$") -> Action:
        if not isinstance(data, dict):
            raise MalformedRecord(path, 'expected an action object such as {"by": "ann", "do": "pass"}')
        allowed = {"by", "do", *FIELD_ORDER}
        for key in data:
            if key not in allowed:
                raise MalformedRecord(f"{path}.{key}", f"unknown action field; allowed: {', '.join(sorted(allowed))}")
        for key in ("by", "do"):
            if not isinstance(data.get(key), str) or not data[key]:
                raise MalformedRecord(f"{path}.{key}", "missing or not a string")
        for key in ("rider", "to", "car"):
            if key in data and not isinstance(data[key], str):
                raise MalformedRecord(f"{path}.{key}", "expected a string")
        for key in ("gear", "brake"):
            if key in data and (not isinstance(data[key], int) or isinstance(data[key], bool) or data[key] < 0):
                raise MalformedRecord(f"{path}.{key}", "expected a whole number from 0")
        if "turbo" in data and not isinstance(data["turbo"], bool):
            raise MalformedRecord(f"{path}.turbo", "expected true or false")
        via = data.get("via", [])
        if not isinstance(via, list) or not all(isinstance(v, str) for v in via):
            raise MalformedRecord(f"{path}.via", "expected a list of cell ids")
        tile = data.get("tile")
        if tile is not None and (not isinstance(tile, int) or isinstance(tile, bool) or tile < 0):
            raise MalformedRecord(f"{path}.tile", "expected the index of a kept tile (0 = first kept)")
        return Action(
            data["by"],
            data["do"],
            data.get("rider"),
            data.get("to"),
            tuple(via),
            tile,
            data.get("car"),
            data.get("gear"),
            data.get("brake"),
            bool(data.get("turbo", False)),
        )

    def text(self) -> str:
        """Compact text form: ``ann ride rider=yellow-rouleur to=14.2 via=12.1,13.2``."""
        parts = [self.by, self.do]
        if self.rider is not None:
            parts.append(f"rider={self.rider}")
        if self.car is not None:
            parts.append(f"car={self.car}")
        if self.gear is not None:
            parts.append(f"gear={self.gear}")
        if self.to is not None:
            parts.append(f"to={self.to}")
        if self.via:
            parts.append("via=" + ",".join(self.via))
        if self.brake:
            parts.append(f"brake={self.brake}")
        if self.turbo:
            parts.append("turbo=1")
        if self.tile is not None:
            parts.append(f"tile={self.tile}")
        return " ".join(parts)

    @staticmethod
    def from_text(text: str) -> Action:
        words = text.split()
        if len(words) < 2 or not all(TOKEN.match(w.split("=", 1)[-1] or "x") for w in words):
            raise MalformedRecord("$", f"not an action: {text!r}; expected 'player do key=value ...'")
        fields: dict[str, str] = {}
        for word in words[2:]:
            key, sep, value = word.partition("=")
            if not sep or key not in FIELD_ORDER or key in fields:
                raise MalformedRecord("$", f"bad action field {word!r} in {text!r}")
            fields[key] = value
        numbers: dict[str, int | None] = {}
        for key in ("tile", "gear", "brake", "turbo"):
            number = fields.get(key)
            if number is not None and not number.isdigit():
                raise MalformedRecord("$", f"{key} must be a number in {text!r}")
            numbers[key] = int(number) if number is not None else None
        return Action(
            words[0],
            words[1],
            fields.get("rider"),
            fields.get("to"),
            tuple(fields["via"].split(",")) if "via" in fields else (),
            numbers["tile"],
            fields.get("car"),
            numbers["gear"],
            numbers["brake"] or None,
            bool(numbers["turbo"]),
        )
