"""The game contract is generic in the game's state (``Game[S]``): mypy checks a game's hooks
against its own state class, so handing one game's state to another game's rules is a type
error, where ``State = Any`` let it through (issue 23, types end to end)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parents[1]

WRONG_STATE = """
from rules.formula_de_mini.model import State as Cars
from rules.leader1.game import GAME


def ask(cars: Cars) -> None:
    GAME.rules.pending(cars)
"""

OWN_STATE = """
from rules.leader1.game import GAME
from rules.leader1.model import State


def ask(state: State) -> None:
    GAME.rules.pending(state)
"""


def _mypy(source: str, tmp_path: Path) -> tuple[str, int]:
    module = tmp_path / "probe.py"
    module.write_text(source, encoding="utf-8")
    out, err, status = api.run(["--strict", "--cache-dir", str(ROOT / ".mypy_cache"), str(module)])
    return out + err, status


@pytest.mark.parametrize(("source", "refused"), [(WRONG_STATE, True), (OWN_STATE, False)])
def test_a_game_takes_only_its_own_state(
    source: str, refused: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    report, status = _mypy(source, tmp_path)
    if refused:
        assert status == 1 and 'incompatible type "rules.formula_de_mini.model.State"' in report, report
    else:
        assert status == 0, report
