"""Shared fixtures: the Discord bot on a real SQLite file, driven offline by simcord; a real PostgreSQL server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.support.hang_watch import DUMPS, watched
from tests.support.pg_server import NoServer, PgServer
from tests.support.pictures import png_difference


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
async def _close_every_storage(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest):
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
    with watched(request.node.nodeid, "closing the storages the test opened"):
        for storage in opened:
            await storage.close()


@pytest_asyncio.fixture
async def simcord_env(simcord_bot: Any, request: pytest.FixtureRequest) -> AsyncIterator[Any]:
    """simcord's own fixture (``simcord.pytest_plugin``), its shutdown watched on real time
    (``tests/support/hang_watch.py``): one once waited for ever in CI."""
    from simcord import Env

    marker = request.node.get_closest_marker("simcord")
    env = Env(simcord_bot, **(marker.kwargs if marker else {}))
    await env.start()
    try:
        yield env
    finally:
        with watched(request.node.nodeid, "simcord's shutdown"):
            await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A test whose teardown hung gets what was waiting in its report (``hang_watch``)."""
    report = yield
    dump = DUMPS.pop(item.nodeid, None)
    if dump is not None:
        report.sections.append(("what was waiting", dump))
    return report


def pytest_assertrepr_compare(op: str, left: object, right: object) -> list[str] | None:
    """Two boards that differ are told apart in a few lines (where, how many bytes), not printed:
    a PNG printed whole filled CI's log and hid the name of the test that failed."""
    return png_difference(left, right) if op == "==" else None


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Any]:
    """Debian's chromium, headless, for the web pages' tests (``tests/support/chromium.py``); a machine
    without it fails the test in one line."""
    from tests.support.chromium import Browser, NoBrowser

    opened = Browser()
    try:
        await opened.start()
    except NoBrowser as exc:
        await opened.close()
        pytest.fail(f"no browser for the tests: {exc}", pytrace=False)
    yield opened
    await opened.close()
