"""``domestique bench pace`` shows it is alive: a line per simulated stage on standard error, the table
on standard output, and its help says how long a run takes (issue 42: ``--stages 20`` ran 14 minutes
on a loaded machine without a word)."""

from __future__ import annotations

import pytest

from bot.cli import main as cli
from bot.cli import parser
from bot.cli.pace_bench import SETTINGS


def test_bench_pace_prints_a_line_per_stage_as_it_goes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["bench", "pace", "--stages", "2", "--game", "leader1"]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 2 * len(SETTINGS), err
    for setting in SETTINGS:
        for n in (1, 2):
            assert sum(f"Leader 1, {setting.label}: stage {n} of 2 lasted" in line for line in lines) == 1, err
    assert "stage duration in days" in out and "stage 1 of 2" not in out
    assert "Peloton" not in out  # one game only


def test_bench_help_says_how_long_pace_takes() -> None:
    bench = parser()._subparsers._group_actions[0].choices["bench"]  # type: ignore[union-attr]
    stages = next(a for a in bench._actions if "--stages" in a.option_strings)
    assert "minutes" in (stages.help or "") and "--game" in (stages.help or "")
