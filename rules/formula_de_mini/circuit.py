"""Formula Dé Mini circuits built from compact data: straights, corners, the pit lane, the grid.

Rows run along the centre line from the finish line (row 0 is the first row after it) and
wrap every lap. Through a corner the inside lane has fewer spaces than the outside one (the
yellow flag's C and L); successors follow the printed arrows there (straight on unless a
branch is listed), the spaces just before a corner only go straight into it, and the pit
lane is reached from its entry space only. See docs/formula-de-mini-design.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.errors import UnknownTrack
from rules.i18n import _
from rules.pickling import pickle_by_name, shared_by_name
from rules.resources import game_data, json_names
from rules.track import Track, build_track, cell_id

DATA = game_data("formula_de_mini")


@dataclass(frozen=True)
class Corner:
    id: int
    first_row: int
    last_row: int
    stops: int
    inside_lane: int
    lengths: tuple[int, ...]  # spaces through the corner, by lane

    @property
    def shortest(self) -> int:  # "C"
        return min(self.lengths)

    @property
    def longest(self) -> int:  # "L"
        return max(self.lengths)


@dataclass(frozen=True)
class Circuit:
    name: str
    lanes: int  # racing lanes; the pit lane is lane index ``lanes``
    laps: int
    track: Track
    corners: tuple[Corner, ...]
    grid: tuple[str, ...]  # grid slots, pole first
    pit_entry: str  # the racing space from which a car may turn into the pit lane
    pit_cells: tuple[str, ...]  # the pit lane in driving order
    stands: tuple[str, ...]  # one pit stand per team, in team order
    straddle: str | None  # the space that straddles the finish line (3-lane circuit)

    @property
    def rows(self) -> int:
        return self.track.row_count

    def corner_number(self, cid: str) -> int | None:
        """The number of the corner a space is in (None: a straight)."""
        number = self.track.cells[cid].attrs.get("corner")
        assert number is None or isinstance(number, int)  # as ``build_circuit`` writes it
        return number

    def corner_of(self, cid: str) -> Corner | None:
        number = self.corner_number(cid)
        return next((c for c in self.corners if c.id == number), None) if number is not None else None


def _spread(first: int, rows: int, count: int) -> list[int]:
    """``count`` spaces evenly over ``rows`` rows from ``first`` (the first on the first row)."""
    return [first + (i * rows) // count for i in range(count)]


def build_circuit(data: dict[str, Any]) -> Circuit:
    lanes = int(data["lanes"])
    pit_lane = lanes
    segments = data["segments"]
    row_count = sum(int(s.get("straight", 0)) or int(s["outside"]) for s in segments)
    spaces: dict[int, set[int]] = {lane: set() for lane in range(lanes + 1)}
    attrs: dict[str, dict[str, object]] = {}
    bends: list[tuple[int, int, float]] = []
    corners: list[Corner] = []
    forward_only: set[str] = set()
    branches: dict[str, list[int]] = {}
    row = 0
    for seg in segments:
        if "straight" in seg:
            length = int(seg["straight"])
            for lane in range(lanes):
                spaces[lane].update(range(row, row + length))
        else:
            outside, inside, turn = int(seg["outside"]), int(seg["inside"]), float(seg["turn"])
            inside_lane = 0 if turn > 0 else lanes - 1
            lengths = []
            for lane in range(lanes):
                share = abs(lane - inside_lane) / max(lanes - 1, 1)
                count = round(inside + (outside - inside) * share)
                lengths.append(count)
                for r in _spread(row, outside, count):
                    spaces[lane].add(r)
                    attrs[cell_id(r, lane)] = {"corner": int(seg["corner"])}
            corners.append(
                Corner(int(seg["corner"]), row, row + outside - 1, int(seg["stops"]), inside_lane, tuple(lengths))
            )
            bends.append((row, outside, turn))
            for lane in range(lanes):
                forward_only.add(cell_id((row - 1) % row_count, lane))
            for offset, source, target in seg.get("branches", []):
                at = min(r for r in spaces[source] if r >= row + int(offset))
                branches.setdefault(cell_id(at, int(source)), []).append(int(target))
            row += outside
            continue
        row += length
    pit = data["pit"]
    pit_rows = [r % row_count for r in range(int(pit["from"]), int(pit["to"]) + 1)]
    spaces[pit_lane].update(pit_rows)
    pit_cells = tuple(cell_id(r, pit_lane) for r in pit_rows)
    entry_row = (pit_rows[0] - 1) % row_count
    pit_entry = cell_id(entry_row, lanes - 1)
    exit_cell = cell_id((pit_rows[-1] + 1) % row_count, lanes - 1)
    for cid in pit_cells:
        attrs.setdefault(cid, {})["pit"] = True
    stands = tuple(pit_cells[int(i)] for i in pit["stands"])
    for team, cid in enumerate(stands):
        attrs[cid]["stand"] = team

    rows_of = {lane: sorted(spaces[lane]) for lane in spaces}

    def following(lane: int, after: int) -> str:
        later = [r for r in rows_of[lane] if r > after]
        return cell_id(later[0] if later else rows_of[lane][0], lane)

    successors: dict[str, tuple[str, ...]] = {}
    for lane in range(lanes):
        for r in rows_of[lane]:
            cid = cell_id(r, lane)
            ahead = following(lane, r)
            if (cid in attrs and "corner" in attrs[cid]) or cid in forward_only:
                nxt = [ahead, *(following(t, r) for t in branches.get(cid, []))]
            else:  # a straight: on, or one lane aside (the space before a corner is forward-only)
                nxt = [following(lane + d, r) for d in (0, -1, 1) if 0 <= lane + d < lanes]
            if cid == pit_entry:
                nxt.append(pit_cells[0])
            successors[cid] = tuple(dict.fromkeys(nxt))
    for i, cid in enumerate(pit_cells):
        successors[cid] = (pit_cells[i + 1],) if i + 1 < len(pit_cells) else (exit_cell,)

    row_attrs: list[dict[str, object]] = [{} for _ in range(row_count)]
    grid_rows = int(data.get("grid", 8))
    grid = tuple(cell_id(row_count - 1 - i, i % lanes) for i in range(grid_rows))
    straddle = cell_id(row_count - 1, lanes // 2) if data.get("straddle") else None
    track = build_track(
        str(data["name"]),
        lanes + 1,
        row_attrs,
        bends=bends,
        cell_attrs=attrs,
        successors=successors,
        spaces={lane: rows_of[lane] for lane in rows_of},
        closed=True,
    )
    return Circuit(
        str(data["name"]),
        lanes,
        int(data.get("laps", 2)),
        track,
        tuple(corners),
        grid,
        pit_entry,
        pit_cells,
        stands,
        straddle,
    )


def circuit_names() -> list[str]:
    return [n for n in json_names(DATA) if n != "dice"]


@shared_by_name
@cache
def load_circuit(name: str) -> Circuit:
    """A shipped circuit by name; the name is user text, so it is looked up, never made into a path."""
    if name not in circuit_names():
        shown = name if len(name) <= 40 else f"{name[:40]}..."
        raise UnknownTrack(
            "$.track",
            _(
                "no circuit {name}; shipped: {circuits}",
                name=repr("formula-de-mini/" + shown),
                circuits=", ".join(circuit_names()),
            ),
        )
    return build_circuit(json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")))


pickle_by_name(Circuit)  # a state pickles its circuit as load_circuit(name) (rules/pickling.py)
