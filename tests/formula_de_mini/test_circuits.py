"""Formula Dé Mini circuits as built from data: corners with their C and L, arrows, pit lane, grid."""

from __future__ import annotations

import pytest

from rules.formula_de_mini.circuit import circuit_names, load_circuit

NAMES = ["canyon", "island"]


def test_both_circuits_ship() -> None:
    assert circuit_names() == NAMES
    assert load_circuit("canyon").lanes == 2 and load_circuit("island").lanes == 3


def lane_spaces(circuit, lane: int, first: int, last: int) -> int:
    return sum(1 for cid, cell in circuit.track.cells.items() if cell.lane == lane and first <= cell.row <= last)


@pytest.mark.parametrize("name", NAMES)
def test_corner_lengths_c_and_l_are_those_of_the_built_lanes(name: str) -> None:
    circuit = load_circuit(name)
    for corner in circuit.corners:
        measured = [lane_spaces(circuit, lane, corner.first_row, corner.last_row) for lane in range(circuit.lanes)]
        assert tuple(measured) == corner.lengths
        assert measured[corner.inside_lane] == corner.shortest < corner.longest
        assert corner.stops in (1, 2)


@pytest.mark.parametrize("name", NAMES)
def test_corners_follow_arrows_and_their_entries_go_forward(name: str) -> None:
    circuit = load_circuit(name)
    cells = circuit.track.cells
    branching = 0
    for corner in circuit.corners:
        for lane in range(circuit.lanes):
            entry = cells[f"{(corner.first_row - 1) % circuit.rows}.{lane}"]
            assert len(entry.successors) == 1 and entry.successors[0].endswith(f".{lane}")
        for cell in cells.values():
            if cell.attrs.get("corner") == corner.id:
                lanes = {s.split(".")[1] for s in cell.successors}
                assert str(cell.lane) in lanes
                branching += len(lanes) > 1
    assert branching >= 1  # some corners have arrows to change lanes


@pytest.mark.parametrize("name", NAMES)
def test_straights_allow_one_lane_aside_and_the_pit_only_from_its_entry(name: str) -> None:
    circuit = load_circuit(name)
    pit_lane = circuit.lanes
    into_pit = [
        cid
        for cid, cell in circuit.track.cells.items()
        if cell.lane != pit_lane and any(s.endswith(f".{pit_lane}") for s in cell.successors)
    ]
    assert into_pit == [circuit.pit_entry]
    assert circuit.track.cells[circuit.pit_cells[-1]].successors[0].split(".")[1] == str(circuit.lanes - 1)
    assert len(set(circuit.stands)) == 4 and all(s in circuit.pit_cells for s in circuit.stands)


@pytest.mark.parametrize("name", NAMES)
def test_the_circuit_is_a_loop_every_space_reachable_from_the_grid(name: str) -> None:
    circuit = load_circuit(name)
    cells = circuit.track.cells
    seen = set()
    todo = [circuit.grid[0]]
    while todo:
        cid = todo.pop()
        if cid in seen:
            continue
        seen.add(cid)
        assert cells[cid].successors, cid
        todo += list(cells[cid].successors)
    assert seen == set(cells)
    assert all("corner" not in cells[g].attrs for g in circuit.grid) and len(circuit.grid) == 8


def test_the_island_has_a_space_straddling_the_line() -> None:
    island = load_circuit("island")
    assert island.straddle is not None and island.straddle.startswith(f"{island.rows - 1}.")
    assert load_circuit("canyon").straddle is None
