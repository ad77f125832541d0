"""The embedded storage: one SQLite file (aiosqlite, WAL), migrated on open.

Every statement is a table part's (``bot/storage/sql.py``); what is SQLite's own is its ``Database``,
here. One connection serves every task, so each public method holds it for its whole transaction
(``guard``); the busy ones (a race read, an append, a transaction of several statements) make
one trip to the database thread, so the lock is held briefly; small reads and writes run on the
event loop's own connection (``bot/storage/sqlite_loop.py``) unless they would wait for a lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import aiosqlite

from bot.storage import ConstraintFailed
from bot.storage.database import Database, Statement, grouped
from bot.storage.dialect import SQLITE
from bot.storage.sql import SqlStorage
from bot.storage.sqlite_loop import Busy, LoopConnection

T = TypeVar("T")


@contextmanager
def _constraints() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise ConstraintFailed(str(exc)) from exc


def _closed(cursor: sqlite3.Cursor) -> sqlite3.Cursor:
    """The cursor, closed (an open cursor blocks COMMIT); its rowcount stays readable."""
    cursor.close()
    return cursor


class SqliteDatabase(Database):
    """One SQLite file in WAL mode, migrated on open."""

    dialect = SQLITE
    setting = "DOMESTIQUE_DB file"

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        # one connection serves every task: its transactions must not interleave
        self.guard = asyncio.Lock()

    @property
    def _here(self) -> LoopConnection:
        """The connection used on the event loop's thread (``bot/storage/sqlite_loop.py``)."""
        here: LoopConnection | None = self.__dict__.get("_loop_connection")
        if here is None:
            here = self.__dict__["_loop_connection"] = LoopConnection(self.path)
        return here

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open(self) -> None:
        """Connect and migrate; a second call (the bot's start after ``domestique run`` opened it) does nothing."""
        if self._db is not None:
            return
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
                await self.run(f"PRAGMA {pragma}")
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close after the transaction under way (if any) ends: a decision being saved is not cut off."""
        async with self.guard:
            self._here.close()
            if self._db is not None:
                await self._db.close()
                self._db = None

    # ---- the primitives: one trip to aiosqlite's thread each (every trip waits its turn for the GIL)

    async def _in_db_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the sqlite3 connection in aiosqlite's own thread: one trip, not one per statement.

        Under load every trip waits for a turn of the event loop, and the connection is held
        (``guard``) the whole time: a read or a commit of several statements in one trip frees
        it several times sooner. aiosqlite has no public call for this; ``_execute`` (queue a
        function for its thread) and ``_conn`` (the sqlite3 connection) are its internals.
        """
        conn = self._conn
        run: Callable[[Callable[[], T]], Awaitable[T]] = conn._execute

        def guarded() -> T:
            with _constraints():
                return work(conn._conn)

        return await run(guarded)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        marked = self.dialect.sql(sql)
        return await self._in_db_thread(lambda db: db.execute(marked, tuple(args)).fetchall())

    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        marked = self.dialect.sql(sql)
        return await self._in_db_thread(lambda db: int(_closed(db.execute(marked, tuple(args))).rowcount))

    async def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        marked = self.dialect.sql(sql)
        await self._in_db_thread(lambda db: _closed(db.executemany(marked, [tuple(r) for r in rows])))

    # ---- shortcuts: small reads and writes on the event loop's own connection, transactions in one trip

    async def _read_here(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` (reads only) on the event loop's own connection: no trip to the database thread,
        unless the read would wait for a lock; then one trip."""
        try:
            done = self._here.read(work)
        except Busy:
            return await self._in_db_thread(work)
        await asyncio.sleep(0)  # a turn for the other ready tasks, as a trip gave: none waits long
        return done

    async def _write_here(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` (one small write) committed on the event loop's own connection, unless it would
        wait for a lock (another process writing); then in one trip to the database thread."""
        try:
            with _constraints():
                done = self._here.write(work)
        except Busy:
            return await self._in_db_thread(work)
        await asyncio.sleep(0)
        return done

    async def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        marked = self.dialect.sql(sql)
        async with self.guard:
            return await self._read_here(lambda db: db.execute(marked, args).fetchall())

    async def reads(self, statements: list[Statement]) -> list[list[Any]]:
        """Each statement's rows, all in one trip (one read transaction: they see the same moment)."""
        marked = [(self.dialect.sql(sql), args) for sql, args in statements]

        def read(db: sqlite3.Connection) -> list[list[Any]]:
            return [db.execute(sql, args).fetchall() for sql, args in marked]

        async with self.guard:
            return await self._read_here(read)

    async def insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        marked = self.dialect.sql(sql)
        async with self.guard:
            return await self._write_here(lambda db: int(db.execute(marked, args).fetchall()[0][0]))

    async def update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        marked = self.dialect.sql(sql)
        async with self.guard:
            return await self._write_here(lambda db: int(_closed(db.execute(marked, args)).rowcount))

    async def transaction(self, statements: list[Statement]) -> None:
        """Run ``statements`` in one transaction, in one trip to the database thread."""
        marked = [(self.dialect.sql(sql), args) for sql, args in statements]

        def run(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in marked:
                    db.execute(sql, args)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

        async with self.guard:
            await self._in_db_thread(run)

    async def fetch_each(
        self, parent: Statement, child: str, child_args: Callable[[Any], tuple[Any, ...]]
    ) -> list[tuple[Any, list[Any]]]:
        """Each row of ``parent`` with its rows of ``child``, in one read (on the event loop's connection)."""
        parent_sql, parent_args = self.dialect.sql(parent[0]), parent[1]
        child_sql = self.dialect.sql(child)

        def read(db: sqlite3.Connection) -> list[tuple[Any, list[Any]]]:
            return [
                (row, db.execute(child_sql, child_args(row)).fetchall())
                for row in db.execute(parent_sql, parent_args).fetchall()
            ]

        return await self._read_here(read)

    async def run_if(self, check: Statement, writes: list[Statement]) -> bool:
        """``check``, then ``writes`` if it changed one row, in one transaction and one trip."""
        check_sql, check_args = self.dialect.sql(check[0]), check[1]
        batches = [(self.dialect.sql(sql), rows) for sql, rows in grouped(writes)]

        def run(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            try:
                if len(db.execute(check_sql, check_args).fetchall()) != 1:
                    db.execute("ROLLBACK")
                    return False
                for sql, rows in batches:
                    db.executemany(sql, rows)
                db.execute("COMMIT")
                return True
            except BaseException:
                db.execute("ROLLBACK")
                raise

        return await self._in_db_thread(run)


class SqliteStorage(SqlStorage):
    """The storage on one SQLite file (``SqliteDatabase``)."""

    def __init__(self, path: str) -> None:
        super().__init__(SqliteDatabase(path))
