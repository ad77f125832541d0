"""Small reads and writes of the SQLite file on the event loop's own thread, through a second connection.

Every statement sent to aiosqlite's thread is a trip: a queue put that hands the GIL to that
thread, a wake-up of the event loop through its self-pipe, a future resolved. In a burst of
decisions a trip costs the bot about ten times what a small statement costs (a race's row
and its new actions, a race's clocks: tens of microseconds), and a decision made eight.

In WAL mode a reader never waits for a writer and sees every transaction committed before
it began, and a commit (``synchronous=NORMAL``) writes the log without waiting for the disk,
so the small statements run here directly, each in its own transaction. Whatever would wait
is never waited for on the loop: a read or write that meets a lock (``SQLITE_BUSY``: another
process writing, the file being recovered) raises ``Busy`` having changed nothing, and the
caller takes the trip instead. This connection never checkpoints the log (that may write
the whole file): the database thread's connection does, as its commits come (every decision).
A race's actions are always appended by the database thread's connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The statement would have to wait for a lock: nothing was done; make it on the database thread."""


class LoopConnection:
    """A connection to ``path`` opened at its first use, used by one thread at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            # check_same_thread off: ``asyncio.run`` may be called from another thread than the
            # one that opened the storage; calls never overlap (each runs to its end on the loop)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA busy_timeout=0")  # never wait on the event loop: ``Busy`` instead
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA wal_autocheckpoint=0")
            self._db = db
        return self._db

    def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` (reads only) inside one read transaction (its reads see one moment)."""
        return self._run("BEGIN", work)

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` inside one write transaction, committed before this returns."""
        return self._run("BEGIN IMMEDIATE", work)

    def _run(self, begin: str, work: Callable[[sqlite3.Connection], T]) -> T:
        db = self._connection()
        try:
            db.execute(begin)
        except sqlite3.OperationalError as exc:
            raise _busy(exc) from exc
        try:
            result = work(db)
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            _roll_back(db)
            raise _busy(exc) from exc
        except BaseException:
            _roll_back(db)
            raise
        return result

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def _roll_back(db: sqlite3.Connection) -> None:
    """End the transaction under way, if any, with nothing done."""
    if db.in_transaction:
        db.execute("ROLLBACK")


def _busy(exc: sqlite3.OperationalError) -> Exception:
    """``Busy`` for a lock that would have to be waited for, else the error itself."""
    if exc.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return Busy(str(exc))
    return exc
