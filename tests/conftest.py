"""Shared fixtures: the Discord bot on a real SQLite file, driven offline by simcord; a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.pg_server import NoServer, PgServer


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bot.db")


@pytest.fixture
def simcord_bot(db_path: str):
    import random

    from bot.discord_layer.app import DomestiqueBot

    seeds = random.Random(2026)  # the same races every run (the bot itself uses unguessable seeds)
    return DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One throwaway PostgreSQL server for the whole run (started on first use, stopped at the end)."""
    try:
        server = PgServer()
        try:
            server.start()
        except BaseException:
            server.stop()
            raise
    except NoServer as exc:
        pytest.fail(f"no PostgreSQL for the tests: {exc}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database."""
    return pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on both backends: an SQLite file, and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'races.db'}"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture(autouse=True)
async def _close_every_storage(monkeypatch: pytest.MonkeyPatch):
    """Close every storage a test opened and left open (simcord detaches a bot without closing it,
    and a restarted bot's storage belongs to no fixture): an open aiosqlite connection keeps a
    thread alive, and the test process would wait for it at exit."""
    from bot.storage.postgres import PostgresStorage
    from bot.storage.sqlite import SqliteStorage

    opened: list[SqliteStorage] = []
    for cls in (SqliteStorage, PostgresStorage):
        original = cls.open

        async def open_and_keep(self: SqliteStorage, _original=original) -> None:
            await _original(self)
            opened.append(self)

        monkeypatch.setattr(cls, "open", open_and_keep)
    yield
    for storage in opened:
        await storage.close()
