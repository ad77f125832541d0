"""The shape issue 23 asked for, kept: nothing in bot/ names a game, and a request looks its game up once."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from rules.registry import game_ids

BOT = Path(__file__).resolve().parents[1] / "bot"
# a game id that is also a word of the games' events: the bunch's event, not the game
NOT_THE_GAME = {("bot/service/catch_up.py", "peloton")}


def sources() -> list[tuple[Path, str]]:
    return [(path, path.read_text(encoding="utf-8")) for path in sorted(BOT.rglob("*.py"))]


def test_no_module_of_the_bot_names_a_game() -> None:
    named = [
        f"{path.relative_to(BOT.parent)}: {game!r}"
        for path, text in sources()
        for game in game_ids()
        if re.search(rf"[\"']{re.escape(game)}[\"'/]", text)
        and (str(path.relative_to(BOT.parent)), game) not in NOT_THE_GAME
    ]
    assert not named, named


def test_the_bot_looks_a_game_up_in_at_most_fifteen_places() -> None:
    calls = [
        f"{path.relative_to(BOT.parent)}:{number}"
        for path, text in sources()
        for number, line in enumerate(text.splitlines(), start=1)
        if "find_game(" in line and not line.lstrip().startswith("def ")
    ]
    assert len(calls) <= 15, "\n".join(calls)


def test_the_top_of_the_repository_holds_no_race_record_or_picture() -> None:
    """`domestique sim` and `render` write race.json and board.png where they run: one was committed (issue 42)."""
    top = BOT.parent
    if not (top / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files"], cwd=top, capture_output=True, text=True, check=True).stdout
    outputs = {".json", ".png", ".gif"}
    stray = [name for name in tracked.splitlines() if "/" not in name and Path(name).suffix in outputs]
    assert not stray, stray
