"""Reads of the SQLite file on the event loop's own thread, through a second, read-only connection.

Every statement sent to aiosqlite's thread is a trip: a queue put that hands the GIL to that
thread, a wake-up of the event loop through its self-pipe, a future resolved. In a burst of
decisions a trip costs the bot about ten times what the read itself costs (a race's row and
its new actions, a race's clocks: tens of microseconds), and a decision made eight of them.
In WAL mode a reader never waits for a writer and sees every transaction committed before
it began, so the small reads run here directly, each in one read transaction. A read that
would wait (``SQLITE_BUSY``: the file being recovered, a checkpoint truncating the log) is
never waited for on the loop: ``Busy`` is raised and the caller takes the trip instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The read would have to wait for a lock: make it on the database thread instead."""


class LoopReader:
    """A read-only connection to ``path``, opened at the first read, used by one thread at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            # check_same_thread off: ``asyncio.run`` may be called from another thread than the
            # one that opened the storage; calls never overlap (each runs to its end on the loop)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA query_only=ON")
            db.execute("PRAGMA busy_timeout=0")  # never wait on the event loop: ``Busy`` instead
            self._db = db
        return self._db

    def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` run on the connection inside one read transaction (its reads see one moment)."""
        db = self._connection()
        try:
            db.execute("BEGIN")
            try:
                return work(db)
            finally:
                db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise Busy(str(exc)) from exc
            raise

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
