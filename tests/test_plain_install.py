"""A plain install works: a wheel built from the checkout, installed into a fresh virtual environment,
runs `domestique sim` and `domestique demo` for every game from a folder outside the checkout.

An editable install hides a missing data file (it reads the checkout); this test is what notices."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from rules.registry import folder, game_ids

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("*.json", "*.po", "*.pot")  # the data files read at run time: tracks, dice, message catalogs
NOT_SOURCE = (".git", ".venv", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "*.db", "demo-out")


def _run(args: list[str], cwd: Path) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)
    said = f"{done.stdout[-2000:]}{done.stderr[-3000:]}"
    assert done.returncode == 0, f"{' '.join(args)} failed ({done.returncode}):\n{said}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkout built as a wheel, as a server host or a container build makes it."""
    dist = tmp_path_factory.mktemp("dist")
    # built from a copy: setuptools never empties a build/ folder, so a stale one in the checkout
    # would put modules that no longer exist into the wheel
    source = dist / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(dist)], dist)
    (built,) = dist.glob("domestique-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``domestique`` command of a fresh virtual environment with the wheel installed (not editable)."""
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(venv)], venv)
    _run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], venv)
    return venv / "bin" / "domestique"


def test_the_wheel_carries_every_data_file(wheel: Path) -> None:
    shipped = {p.relative_to(ROOT).as_posix() for ext in SHIPPED for p in (ROOT / "data").rglob(ext)}
    assert shipped, "no data files found in the checkout"
    shipped |= {p.relative_to(ROOT).as_posix() for p in (ROOT / "renderer" / "fonts").iterdir()}  # the boards' font
    with zipfile.ZipFile(wheel) as archive:
        carried = {n for n in archive.namelist() if n.startswith(("data/", "renderer/fonts/"))}
    assert shipped <= carried, f"missing from the wheel: {sorted(shipped - carried)}"


@pytest.mark.parametrize("game", game_ids())
def test_sim_and_demo_run_from_a_plain_install(installed: Path, game: str, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    said = _run([str(installed), "sim", "--game", game, "--seed", "3"], outside)
    assert "finish:" in said
    _run([str(installed), "demo", "--game", game, "--out", "demo"], outside)
    boards = sorted((outside / "demo").glob("board-*.png"))
    assert len(boards) >= 3, f"{game}: only {len(boards)} boards"
    assert all(b.read_bytes().startswith(b"\x89PNG") for b in boards)
    assert (outside / "demo" / "recap.gif").stat().st_size > 0


@pytest.mark.parametrize("game", game_ids())
def test_a_game_s_scenarios_check_from_a_plain_install(installed: Path, game: str, tmp_path: Path) -> None:
    """What a game kept in a package of its own does in its CI (docs/adding-a-game.md, step 13)."""
    scenarios = ROOT / "tests" / folder(game) / "scenarios"
    said = _run([str(installed), "check", str(scenarios)], tmp_path)
    count = len(list(scenarios.glob("*.json")))
    assert count >= 5 and said.endswith(f"{count} passed, 0 failed\n"), said[-300:]


def test_the_catalogs_load_from_a_plain_install(installed: Path, tmp_path: Path) -> None:
    python = installed.parent / "python"
    said = _run(
        [str(python), "-c", "from rules.i18n import translator; print(translator('cs').messages.plural(3))"], tmp_path
    )
    assert said.strip() == "1"  # Czech's second form (2-4), from the catalog's own header
