"""The part of a record's player object every Leader 1 family game reads alike: its fields,
id, team colour, rider types and name; its riders at the start, or where a mid-race start puts them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from rules.errors import MalformedRecord
from rules.leader1.base import RiderBase
from rules.leader1.model import RIDER_TYPES
from rules.road import Road
from rules.track import parse_cell_id, whole_number


@dataclass(frozen=True)
class Identity:
    raw: Mapping[str, object]
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


R = TypeVar("R", bound=RiderBase)


class StartingPlayer(Protocol):
    """A player of either edition, as its riders are set at the start."""

    @property
    def id(self) -> str: ...

    @property
    def riders(self) -> tuple[str, ...]: ...

    @property
    def carry(self) -> tuple[tuple[str, int], ...]: ...

    def rider_ids(self) -> tuple[str, ...]: ...


P = TypeVar("P", bound=StartingPlayer)


def starting_riders(
    players: Sequence[P], energy: int, rider: Callable[..., R], own: Callable[[P, str], dict[str, object]]
) -> tuple[R, ...]:
    """Every player's riders in the peloton, each with the route's ``energy`` plus any carried from a
    league's last stage, and the edition's ``own(player, kind)`` fields."""
    return tuple(
        rider(id=rid, player=p.id, kind=kind, energy=energy + dict(p.carry).get(kind, 0), **own(p, kind))
        for p in players
        for rid, kind in zip(p.rider_ids(), p.riders, strict=True)
    )


START_STATUSES = ("peloton", "breakaway", "dropped", "fallen", "punctured")
MAX_TURN = 9999
MAX_ENERGY = 999


@dataclass(frozen=True)
class StartRider:
    """Where a record's mid-race start puts a rider, and what it holds."""

    status: str
    row: int | None
    lane: int | None
    energy: int
    risks: int
    kept: tuple[int, ...]


def parse_start_rider(
    spec: object, path: str, allowed: Sequence[str], road: Road, peloton: int, energy: int, occupied: set[str]
) -> StartRider:
    """A rider of ``$.start.riders``: its status, square (none in the peloton), energy, risks and kept tiles.

    A breakaway rider is ahead of the peloton, a dropped one behind it; two riders never share
    a square, except a fallen rider beside the road.
    """
    if not isinstance(spec, dict):
        raise MalformedRecord(path, f"expected {{{', '.join(allowed)}}}")
    for key in spec:
        if key not in allowed:
            raise MalformedRecord(f"{path}.{key}", f"unknown field; allowed: {', '.join(allowed)}")
    status = spec.get("status", "peloton" if spec.get("at") is None else "breakaway")
    if status not in START_STATUSES:
        raise MalformedRecord(f"{path}.status", f"expected one of {', '.join(START_STATUSES)}")
    row = lane = None
    if status != "peloton":
        row, lane = parse_cell_id(spec.get("at"), f"{path}.at")
        if not road.track.has(f"{row}.{lane}") or row >= road.finish:
            raise MalformedRecord(f"{path}.at", f"{spec.get('at')} is not a square before the finish")
        if status == "breakaway" and row <= peloton:
            raise MalformedRecord(f"{path}.at", f"a breakaway rider is ahead of the peloton (row > {peloton})")
        if status == "dropped" and row >= peloton - 1:
            raise MalformedRecord(f"{path}.at", f"a dropped rider is behind the peloton (row < {peloton - 1})")
        if status != "fallen":
            if f"{row}.{lane}" in occupied:
                raise MalformedRecord(f"{path}.at", f"two riders on {row}.{lane}")
            occupied.add(f"{row}.{lane}")
    elif spec.get("at") is not None:
        raise MalformedRecord(f"{path}.at", 'riders in the peloton have "at": null')
    energy = whole_number(spec.get("energy", energy), f"{path}.energy", 0, MAX_ENERGY)
    risks = whole_number(spec.get("risks", 0), f"{path}.risks", 0, MAX_TURN)
    kept = spec.get("kept", [])
    if not isinstance(kept, list) or any(type(v) is not int or v not in (2, 3, 4, 5) for v in kept):
        raise MalformedRecord(f"{path}.kept", "expected the values (2 to 5) of kept feed tiles")
    return StartRider(status, row, lane, energy, risks, tuple(kept))


def placed(rider: R, start: StartRider) -> R:
    """``rider`` where a mid-race ``start`` puts it (a fallen or punctured rider from turn 0); the
    edition sets its own fields."""
    return replace(
        rider,
        status=start.status,
        row=start.row,
        lane=start.lane,
        energy=start.energy,
        risks=start.risks,
        kept=start.kept,
        punctured_turn=0 if start.status == "punctured" else None,
        skip_turn=0 if start.status == "fallen" else None,
    )
