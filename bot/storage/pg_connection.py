"""The SQLite storage's SQL, run on a PostgreSQL connection (asyncpg).

``SqliteStorage`` and ``LeagueTables`` speak portable SQL through a small cursor interface
(``execute(sql, args)`` as an async context manager; ``fetchall``, ``fetchone``, ``rowcount``,
``lastrowid``). ``PgConnection`` offers the same interface on an asyncpg connection, so every
storage method is written once and runs on both backends. What it translates:

- ``?`` placeholders become ``$1, $2, ...`` (no storage SQL has a ``?`` inside a literal);
- ``BEGIN IMMEDIATE`` becomes ``BEGIN`` (PostgreSQL locks the rows an UPDATE touches; a
  second transaction updating the same race waits, then sees the new version and changes
  nothing, which is what the optimistic version check needs);
- an INSERT into a table with an ``id`` column returns that id (``lastrowid``);
- a unique or foreign-key violation is raised as the DB-API ``IntegrityError`` the storage
  already catches (``ChannelBusy``, ``NameTaken``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

PLACEHOLDER = re.compile(r"\?")
INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)


def numbered(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$n``."""
    count = 0

    def next_mark(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return PLACEHOLDER.sub(next_mark, sql)


class PgCursor:
    """The rows and counts of one statement, read at once (asyncpg has no server cursor here)."""

    def __init__(self, rows: Sequence[Any], rowcount: int, lastrowid: int | None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchall(self) -> list[Any]:
        return self._rows

    async def fetchone(self) -> Any:
        return self._rows[0] if self._rows else None


class _Statement:
    def __init__(self, owner: PgConnection, sql: str, args: Sequence[Any], many: bool = False) -> None:
        self.owner, self.sql, self.args, self.many = owner, sql, args, many

    async def __aenter__(self) -> PgCursor:
        if self.many:
            return await self.owner.run_many(self.sql, self.args)
        return await self.owner.run(self.sql, self.args)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


class PgConnection:
    """One asyncpg connection behind the cursor interface the storage's SQL uses."""

    def __init__(self, conn: PoolConnectionProxy[Any], id_tables: frozenset[str]) -> None:
        self.conn = conn
        self.id_tables = id_tables  # tables whose INSERT reports the new row's id

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> _Statement:
        return _Statement(self, sql, parameters)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> _Statement:
        return _Statement(self, sql, rows, many=True)

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[Any]:
        cursor = await self.run(sql, parameters)
        return await cursor.fetchall()

    async def run_many(self, sql: str, rows: Sequence[Any]) -> PgCursor:
        try:
            await self.conn.executemany(numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise sqlite3.IntegrityError(str(exc)) from exc
        return PgCursor([], len(rows), None)

    async def run(self, sql: str, args: Sequence[Any]) -> PgCursor:
        text = numbered(sql)
        if text.strip().upper() == "BEGIN IMMEDIATE":
            text = "BEGIN"
        inserted = INSERT_INTO.match(text)
        wants_id = inserted is not None and inserted.group(1).lower() in self.id_tables
        if wants_id and not RETURNS_ROWS.search(text):
            text += " RETURNING id"
        try:
            if RETURNS_ROWS.search(text):
                rows = await self.conn.fetch(text, *args)
                lastrowid = int(rows[0][0]) if wants_id and rows else None
                return PgCursor(rows, len(rows), lastrowid)
            status = await self.conn.execute(text, *args)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise sqlite3.IntegrityError(str(exc)) from exc
        last = status.rsplit(" ", 1)[-1]
        return PgCursor([], int(last) if last.isdigit() else -1, None)
