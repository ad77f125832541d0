"""One database as the table parts see it: its connection(s), its dialect, its migrations.

Every table part (``bot/storage/*_tables.py``) is built over one ``Database`` and runs its SQL
through it; ``bot/storage/sqlite.py`` and ``bot/storage/postgres.py`` are the two databases. The
calls come in two tiers:

- guarded: ``rows``, ``insert``, ``update``, ``transaction``, ``reads`` each hold the connection
  for their own statement(s); a part's method that runs one statement (or one transaction) uses them;
- held: ``fetch``, ``run``, ``run_many``, ``fetch_each``, ``run_if`` run on the connection the
  caller already holds (``async with db.guard``), for a method whose statements must not be
  interleaved with another task's (a race read with its actions, a versioned append).

Statements write their parameters as ``{}`` (``bot/storage/dialect.py``); a statement that needs the
new row's id ends with ``RETURNING id``. Migrations (``bot/storage/schema.py``) run here, on open.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.storage.dialect import Dialect
from bot.storage.schema import MIGRATIONS, NewerSchema

Statement = tuple[str, tuple[Any, ...]]


def grouped(writes: Sequence[Statement]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Consecutive writes of the same statement together, in order (one ``executemany`` each)."""
    out: list[tuple[str, list[tuple[Any, ...]]]] = []
    for sql, row in writes:
        if out and out[-1][0] == sql:
            out[-1][1].append(row)
        else:
            out.append((sql, [row]))
    return out


class Database(ABC):
    """A connection (or a pool of them) and its dialect, migrated on open."""

    dialect: Dialect
    path: str  # the database as it may be shown (no password)
    setting: str  # where the operator names it (a newer schema's advice)
    guard: AbstractAsyncContextManager[Any]  # held by a task for one method's statements

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    # ---- held: one statement on the connection the caller holds

    @abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement."""

    @abstractmethod
    async def run(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""

    @abstractmethod
    async def run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row."""

    async def fetch_each(
        self, parent: Statement, child: str, child_args: Callable[[Any], tuple[Any, ...]]
    ) -> list[tuple[Any, list[Any]]]:
        """Each row of ``parent``, with the rows of ``child`` for it (its parameters ``child_args(row)``)."""
        found = []
        for row in await self.fetch(*parent):
            found.append((row, await self.fetch(child, child_args(row))))
        return found

    async def run_if(self, check: Statement, writes: list[Statement]) -> bool:
        """In one transaction: ``check`` (a statement ``RETURNING`` the rows it changed), then, if it
        changed exactly one row, ``writes``; else nothing. An error rolls it all back."""
        await self.run(self.dialect.begin)
        try:
            if len(await self.fetch(*check)) != 1:
                await self.run("ROLLBACK")
                return False
            for sql, rows in grouped(writes):
                await self.run_many(sql, rows)
            await self.run("COMMIT")
            return True
        except BaseException:
            await self.run("ROLLBACK")
            raise

    # ---- guarded: each holds the connection for its statement(s)

    async def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        async with self.guard:
            return await self.fetch(sql, args)

    async def insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an INSERT ending with ``RETURNING id``; the new row's id."""
        async with self.guard:
            rows = await self.fetch(sql, args)
            return int(rows[0][0])

    async def update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an UPDATE, DELETE or upsert; how many rows changed."""
        async with self.guard:
            return await self.run(sql, args)

    async def transaction(self, statements: list[Statement]) -> None:
        """Run ``statements`` in one transaction."""
        async with self.guard:
            await self.run(self.dialect.begin)
            try:
                for sql, args in statements:
                    await self.run(sql, args)
                await self.run("COMMIT")
            except BaseException:
                await self.run("ROLLBACK")
                raise

    async def reads(self, statements: list[Statement]) -> list[list[Any]]:
        """Each statement's rows (SQLite reads them in one trip, as one moment)."""
        return [await self.rows(sql, args) for sql, args in statements]

    # ---- the schema

    async def migration_lock(self) -> None:
        """Inside the migration's transaction: wait for another process migrating the same database
        (SQLite's ``BEGIN IMMEDIATE`` already does)."""
        return None

    async def migrate(self) -> None:
        """Bring the schema to the latest migration, in one transaction (``bot/storage/schema.py``);
        the caller holds the connection."""
        await self.run(self.dialect.begin)
        try:
            await self.migration_lock()
            await self.run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await self._schema_version()
            if current > len(MIGRATIONS):
                raise NewerSchema(
                    f"{self.path} was written by a newer Domestique (schema {current}; this one knows "
                    f"{len(MIGRATIONS)}): upgrade Domestique, or use another {self.setting}"
                )
            for number, migration in enumerate(MIGRATIONS, start=1):
                if number > current:
                    for statement in migration.statements(self.dialect):
                        await self.run(statement)
                    await self.run("INSERT INTO schema_version VALUES ({})", (number,))
            await self.run("COMMIT")
        except BaseException:
            await self.run("ROLLBACK")
            raise

    async def schema_version(self) -> int:
        async with self.guard:
            return await self._schema_version()

    async def _schema_version(self) -> int:
        rows = await self.fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0
