"""The shape issue 23 asked for, kept: nothing in bot/ names a game, and a request looks its game up once."""

from __future__ import annotations

import ast
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


def _module_imports() -> dict[str, set[str]]:
    """Each module of rules/, renderer/ and bot/ -> the project modules it imports: at its top, inside a
    function, or for types only (``from a import b`` counts as importing ``a.b`` when that is a module)."""
    top = BOT.parent
    paths = {}
    for package in ("rules", "renderer", "bot"):
        for path in sorted((top / package).rglob("*.py")):
            parts = path.relative_to(top).with_suffix("").parts
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
                wanted = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names]
            else:
                continue
            for target in wanted:
                while target and target not in paths:  # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round and round (strongly connected, more than one)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_two_modules_import_each_other() -> None:
    """A circle is a seam in the wrong place: what both sides need goes below both (issue 42), never a
    lazy import. Imports inside functions and for types only count too."""
    circles = [", ".join(group) for group in _circles(_module_imports())]
    assert not circles, "\n".join(circles)


def test_the_circle_check_sees_imports_inside_functions() -> None:
    """The check itself: a circle made by an import inside a function is found."""
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    graph = _module_imports()
    assert "bot.storage.postgres" in graph["bot.storage.url"]  # ``storage_for`` imports it inside the function
