"""The storage's shape, kept (issue 42): table parts over one database, not a stack of mixins."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import bot.storage
from bot.storage import Storage
from bot.storage.forward import Forward
from bot.storage.sql import SqlStorage
from bot.storage.sqlite import SqliteStorage

PROJECT = ("bot", "rules", "renderer")


def _storage_classes() -> list[type]:
    found: list[type] = []
    for info in pkgutil.iter_modules(bot.storage.__path__, "bot.storage."):
        module = importlib.import_module(info.name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass) if c.__module__ == info.name]
    return found


def _project_bases(cls: type) -> list[str]:
    return [c.__qualname__ for c in cls.__mro__[1:] if c.__module__.split(".")[0] in PROJECT]


def test_no_storage_class_stacks_more_than_two_project_classes() -> None:
    """A storage class is built of parts, not of mixins: at most two project classes above it."""
    classes = _storage_classes()
    assert {"SqliteStorage", "PostgresStorage", "SqliteDatabase", "PostgresDatabase"} <= {c.__name__ for c in classes}
    stacked = {c.__qualname__: _project_bases(c) for c in classes if len(_project_bases(c)) > 2}
    assert not stacked, stacked


def test_every_method_of_the_protocol_is_a_table_part_method_or_the_storage_own(tmp_path: Path) -> None:
    """Each method the service calls resolves, on a storage, to its part's own method, bound to that part."""
    storage = SqliteStorage(str(tmp_path / "shape.db"))
    own = {"open", "close", "schema_version"}
    names = {n for n in dir(Storage) if not n.startswith("_")}
    assert own < names and len(names) > 80
    for name in sorted(names - own):
        forward = inspect.getattr_static(SqlStorage, name)
        assert isinstance(forward, Forward), name
        method = getattr(storage, name)
        assert method.__self__ is storage.parts[forward.part] and method.__self__.db is storage.db, name


def test_every_public_method_of_a_part_is_the_storage_s() -> None:
    """A method added to a table part is forwarded (``docs/architecture.md``), never left unreachable."""
    forwards = {name: f for name, f in vars(SqlStorage).items() if isinstance(f, Forward)}
    assert all(name == f.name for name, f in forwards.items())  # each under its own name
    forwarded = {(f.part, f.name) for f in forwards.values()}
    for part in ("RaceTables", "LeagueTables", "AllianceTables", "PaceTables", "OutboxTables", "HealthTables"):
        assert any(p == part for p, _ in forwarded), part
    parts = {type(p) for p in SqliteStorage(":memory:").parts.values()}
    public = {(c.__name__, n) for c in parts for n, f in vars(c).items() if inspect.iscoroutinefunction(f)}
    missing = {(c, n) for c, n in public if not n.startswith("_")} - forwarded
    assert not missing, sorted(missing)


def test_a_part_method_patched_on_its_part_is_the_one_the_storage_calls(tmp_path: Path) -> None:
    """``Forward`` looks the method up on the part at each call: a test may replace it there."""
    storage = SqliteStorage(str(tmp_path / "shape.db"))

    async def somewhere(user_ids: object) -> dict[int, float]:
        return {1: 2.0}

    storage.away_tables.away_until = somewhere  # type: ignore[method-assign]
    assert storage.away_until is somewhere
