"""The shared storage: a PostgreSQL server (asyncpg), for several bot processes over one database.

``PostgresStorage`` is ``SqliteStorage`` with another connection underneath: every race,
league and alliance method is the same code and the same SQL (``pg_connection.py`` runs it on
PostgreSQL). What differs is here: the schema (PostgreSQL's types: ``BIGINT`` for Discord
ids, ``DOUBLE PRECISION`` for times, ``BYTEA`` for snapshots), migrations that several
processes may start at once, and a pool: each public method checks a connection out for its
whole transaction, so the tasks of one process no longer wait for each other.

A new migration in ``sqlite.MIGRATIONS`` needs its PostgreSQL twin in ``MIGRATIONS`` below,
at the same number (``tests/test_storage.py`` checks that both lists have the same length
and that both schemas have the same tables and columns).
"""

from __future__ import annotations

import contextvars
from types import TracebackType

import asyncpg

from bot.storage import NewerSchema
from bot.storage.pg_connection import PgConnection
from bot.storage.sqlite import SqliteStorage
from bot.storage.sqlite_away import AWAY_MIGRATION_PG
from bot.storage.url import shown

MIGRATIONS: list[str] = [
    """
    CREATE TABLE races (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        host_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        lobby TEXT NOT NULL,
        envelope TEXT,
        deadline DOUBLE PRECISION,
        reminded INTEGER NOT NULL DEFAULT 0,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_active_race_per_channel ON races(channel_id) WHERE status IN ('lobby', 'running');
    CREATE INDEX running_races ON races(status) WHERE status = 'running';
    CREATE TABLE actions (
        race_id BIGINT NOT NULL REFERENCES races(id),
        idx INTEGER NOT NULL,
        action TEXT NOT NULL,
        user_id BIGINT,
        automatic INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (race_id, idx)
    );
    CREATE TABLE snapshots (
        race_id BIGINT PRIMARY KEY REFERENCES races(id),
        version INTEGER NOT NULL,
        state BYTEA NOT NULL
    );
    """,
    # 2: leagues and alliances (league_members keeps SQLite's rowid as a column: members list in joining order)
    """
    ALTER TABLE races ADD COLUMN league_id BIGINT;
    ALTER TABLE races ADD COLUMN stage INTEGER;
    CREATE TABLE leagues (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        organiser_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX league_names ON leagues(guild_id, name);
    CREATE TABLE league_members (
        rowid BIGSERIAL,
        league_id BIGINT NOT NULL REFERENCES leagues(id),
        player TEXT NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        team TEXT NOT NULL,
        kinds TEXT NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (league_id, player)
    );
    CREATE TABLE league_stages (
        league_id BIGINT NOT NULL REFERENCES leagues(id),
        number INTEGER NOT NULL,
        track TEXT NOT NULL,
        due DOUBLE PRECISION,
        status TEXT NOT NULL,
        race_id BIGINT,
        channel_id BIGINT,
        result TEXT,
        PRIMARY KEY (league_id, number)
    );
    CREATE TABLE alliances (
        id BIGSERIAL PRIMARY KEY,
        race_id BIGINT NOT NULL REFERENCES races(id),
        proposer TEXT NOT NULL,
        partner TEXT NOT NULL,
        status TEXT NOT NULL,
        thread_id BIGINT,
        created DOUBLE PRECISION NOT NULL
    );
    """,
    # 3: how each person is told of a decision owed, and notes kept when a private message failed
    """
    CREATE TABLE people (
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        notify TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE notes (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        user_id BIGINT NOT NULL,
        text TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX notes_by_person ON notes(guild_id, user_id);
    """,
    # 4: premoves, standing orders, time banks and decision times (docs/pace.md)
    """
    CREATE TABLE premoves (
        race_id BIGINT NOT NULL REFERENCES races(id),
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        piece TEXT,
        action TEXT NOT NULL,
        label TEXT NOT NULL,
        detail TEXT NOT NULL,
        user_id BIGINT,
        PRIMARY KEY (race_id, player)
    );
    CREATE TABLE standing_orders (
        race_id BIGINT NOT NULL REFERENCES races(id),
        player TEXT NOT NULL,
        piece TEXT NOT NULL,
        kind TEXT NOT NULL,
        number INTEGER,
        until TEXT,
        until_number INTEGER,
        PRIMARY KEY (race_id, player, piece, kind)
    );
    CREATE TABLE clocks (
        race_id BIGINT NOT NULL REFERENCES races(id),
        player TEXT NOT NULL,
        budget DOUBLE PRECISION NOT NULL,
        used DOUBLE PRECISION NOT NULL DEFAULT 0,
        asked DOUBLE PRECISION,
        PRIMARY KEY (race_id, player)
    );
    CREATE TABLE pace_times (
        id BIGSERIAL PRIMARY KEY,
        race_id BIGINT NOT NULL REFERENCES races(id),
        player TEXT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        automatic INTEGER NOT NULL
    );
    CREATE INDEX pace_times_by_race ON pace_times(race_id);
    """,
    # 5: each decision time names the action that decided it (an undo gives the time back)
    """
    ALTER TABLE pace_times ADD COLUMN idx INTEGER;
    """,
    # 6: people away (/race away)
    AWAY_MIGRATION_PG,
]

MIGRATION_LOCK = 7_161_840  # pg_advisory_xact_lock key: processes starting together migrate one at a time


class _Checkout:
    """``_guard`` for PostgreSQL: a pooled connection held by the calling task for one method."""

    def __init__(self, storage: PostgresStorage) -> None:
        self.storage = storage

    async def __aenter__(self) -> None:
        pool = self.storage._pool
        if pool is None:
            raise RuntimeError("storage is not open")
        conn = await pool.acquire()
        self.storage._held.set(PgConnection(conn, self.storage._id_tables))

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        held = self.storage._held.get()
        self.storage._held.set(None)
        if held is not None and self.storage._pool is not None:
            await self.storage._pool.release(held.conn)


class PostgresStorage(SqliteStorage):
    """A PostgreSQL database (``postgresql://user@host/name``), migrated on open; safe for several processes."""

    def __init__(self, url: str, *, pool_size: int = 8) -> None:
        self.path = shown(url)
        self.url = url
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._held: contextvars.ContextVar[PgConnection | None] = contextvars.ContextVar("held", default=None)
        self._id_tables: frozenset[str] = frozenset()
        self._guard = _Checkout(self)

    @property
    def _conn(self) -> PgConnection:  # type: ignore[override]  # the same cursor interface as aiosqlite's
        held = self._held.get()
        if held is None:
            raise RuntimeError("storage is not open, or used outside a method")
        return held

    async def open(self) -> None:
        """Connect and migrate; a second call does nothing."""
        if self._pool is not None:
            return
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=self.pool_size)
        try:
            async with self._guard:
                await self._migrate()
                rows = await self._conn.conn.fetch(
                    "SELECT table_name FROM information_schema.columns "
                    "WHERE column_name = 'id' AND table_schema = current_schema()"
                )
            self._id_tables = frozenset(str(r[0]) for r in rows)
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    async def _migrate(self) -> None:
        conn = self._conn.conn
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if current > len(MIGRATIONS):
                raise NewerSchema(
                    f"{self.path} was written by a newer Domestique (schema {current}; this one knows "
                    f"{len(MIGRATIONS)}): upgrade Domestique, or use another DATABASE_URL"
                )
            for number, sql in enumerate(MIGRATIONS, start=1):
                if number > current:
                    await conn.execute(sql)
                    await conn.execute("INSERT INTO schema_version VALUES ($1)", number)

    async def execute_script(self, sql: str) -> None:
        """Run statements as they are (tests and ``domestique db copy`` use it)."""
        async with self._guard:
            await self._conn.conn.execute(sql)

    async def reset_ids(self) -> None:
        """Move each id sequence past the highest id (after rows were copied in with their ids)."""
        async with self._guard:
            for table in sorted(self._id_tables):
                await self._conn.conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"GREATEST((SELECT MAX(id) FROM {table}), 1), (SELECT MAX(id) FROM {table}) IS NOT NULL)"
                )
