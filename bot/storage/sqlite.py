"""The embedded storage: one SQLite file (aiosqlite, WAL), migrated on open.

One connection serves every task, so each public method holds it for its whole
transaction (``_guard``); the busy ones (a race read, an append, a transaction of several
statements) make one trip to the database thread, so the lock is held briefly. Leagues and
alliances (``bot/storage/sqlite_leagues.py``) go through the same connection and lock.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

import aiosqlite

from bot.shards import Shards
from bot.storage import ChannelBusy, Charges, Clock, NewerSchema, RaceRow, StoredAction
from bot.storage.action_cache import ActionCache
from bot.storage.sqlite_away import AWAY_MIGRATION, AwayTables
from bot.storage.sqlite_leagues import LeagueTables
from bot.storage.sqlite_loop import Busy, LoopConnection
from bot.storage.sqlite_pace import (
    CLOCK_SQL,
    PACE_INDEX_MIGRATION,
    PACE_MIGRATION,
    PACE_TIME_SQL,
    PaceTables,
    clock_rows,
    pace_time_rows,
)
from bot.storage.sqlite_people import PeopleTables

T = TypeVar("T")

MIGRATIONS: list[str] = [
    """
    CREATE TABLE races (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        host_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        lobby TEXT NOT NULL,
        envelope TEXT,
        deadline REAL,
        reminded INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_active_race_per_channel ON races(channel_id) WHERE status IN ('lobby', 'running');
    CREATE TABLE actions (
        race_id INTEGER NOT NULL REFERENCES races(id),
        idx INTEGER NOT NULL,
        action TEXT NOT NULL,
        user_id INTEGER,
        automatic INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (race_id, idx)
    );
    CREATE TABLE snapshots (
        race_id INTEGER PRIMARY KEY REFERENCES races(id),
        version INTEGER NOT NULL,
        state BLOB NOT NULL
    );
    """,
    # 2: leagues (a stage a week, a general classification) and alliances between players of a race
    """
    ALTER TABLE races ADD COLUMN league_id INTEGER;
    ALTER TABLE races ADD COLUMN stage INTEGER;
    CREATE TABLE leagues (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        organiser_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE UNIQUE INDEX league_names ON leagues(guild_id, name);
    CREATE TABLE league_members (
        league_id INTEGER NOT NULL REFERENCES leagues(id),
        player TEXT NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        team TEXT NOT NULL,
        kinds TEXT NOT NULL,
        removed INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (league_id, player)
    );
    CREATE TABLE league_stages (
        league_id INTEGER NOT NULL REFERENCES leagues(id),
        number INTEGER NOT NULL,
        track TEXT NOT NULL,
        due REAL,
        status TEXT NOT NULL,
        race_id INTEGER,
        channel_id INTEGER,
        result TEXT,
        PRIMARY KEY (league_id, number)
    );
    CREATE TABLE alliances (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        race_id INTEGER NOT NULL REFERENCES races(id),
        proposer TEXT NOT NULL,
        partner TEXT NOT NULL,
        status TEXT NOT NULL,
        thread_id INTEGER,
        created REAL NOT NULL
    );
    """,
    # 3: how each person wants to be told of a decision owed (per server), and notes kept for
    # people whose direct messages could not be delivered
    """
    CREATE TABLE people (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        notify TEXT NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        text TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE INDEX notes_by_person ON notes(guild_id, user_id);
    """,
    # 4: premoves, standing orders, time banks and decision times (docs/pace.md)
    PACE_MIGRATION,
    # 5: each decision time names the action that decided it (an undo gives the time back)
    PACE_INDEX_MIGRATION,
    # 6: people away (/race away): their seats in every race played by the AI until a time
    AWAY_MIGRATION,
]


def _grouped(writes: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Consecutive writes of the same statement together, in order (one ``executemany`` each)."""
    out: list[tuple[str, list[tuple[Any, ...]]]] = []
    for sql, row in writes:
        if out and out[-1][0] == sql:
            out[-1][1].append(row)
        else:
            out.append((sql, [row]))
    return out


def _closed(cursor: sqlite3.Cursor) -> sqlite3.Cursor:
    """The cursor, closed (an open cursor blocks COMMIT); its rowcount and lastrowid stay readable."""
    cursor.close()
    return cursor


class SqliteStorage(LeagueTables, PeopleTables, PaceTables, AwayTables):
    """One SQLite file in WAL mode, migrated on open."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None
        # one connection serves every task: its transactions must not interleave
        self._guard: AbstractAsyncContextManager[Any] = asyncio.Lock()

    @property
    def _read(self) -> ActionCache:
        """Action rows already read, per race (``bot/storage/action_cache.py``)."""
        cache: ActionCache | None = self.__dict__.get("_action_cache")
        if cache is None:
            cache = self.__dict__["_action_cache"] = ActionCache()
        return cache

    @property
    def _here(self) -> LoopConnection:
        """The connection used on the event loop's thread (``bot/storage/sqlite_loop.py``)."""
        here: LoopConnection | None = self.__dict__.get("_loop_connection")
        if here is None:
            here = self.__dict__["_loop_connection"] = LoopConnection(self.path)
        return here

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
            done = self._here.write(work)
        except Busy:
            return await self._in_db_thread(work)
        await asyncio.sleep(0)
        return done

    @property
    def _one_trip(self) -> bool:
        """Whether a transaction can run in one trip (aiosqlite's thread; not another connection)."""
        return type(self)._conn is SqliteStorage._conn and isinstance(getattr(self, "_db", None), aiosqlite.Connection)

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
            await self._prepare()
        except BaseException:
            await self.close()
            raise

    async def _prepare(self) -> None:
        await self._exec("PRAGMA journal_mode=WAL")
        await self._exec("PRAGMA synchronous=NORMAL")
        await self._exec("PRAGMA foreign_keys=ON")
        await self._exec("PRAGMA busy_timeout=5000")
        await self._migrate()

    async def _exec(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """Run one statement and close its cursor at once (an open cursor blocks COMMIT).

        One trip to the database thread (``execute_fetchall``), not two (execute, then close):
        every trip waits its turn for the GIL behind the bot's own work.
        """
        await self._conn.execute_fetchall(sql, args)

    async def close(self) -> None:
        """Close after the transaction under way (if any) ends: a decision being saved is not cut off."""
        async with self._guard:
            self._here.close()
            if self._db is not None:
                await self._db.close()
                self._db = None

    async def _migrate(self) -> None:
        await self._exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self._conn.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        current = row[0] if row and row[0] is not None else 0
        if current > len(MIGRATIONS):
            raise NewerSchema(
                f"{self.path} was written by a newer Domestique (schema {current}; this one knows "
                f"{len(MIGRATIONS)}): upgrade Domestique, or use another DOMESTIQUE_DB file"
            )
        for number, sql in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            await self._exec("BEGIN IMMEDIATE")
            try:
                for statement in filter(str.strip, sql.split(";")):
                    await self._exec(statement)
                await self._exec("INSERT INTO schema_version VALUES (?)", (number,))
                await self._exec("COMMIT")
            except BaseException:
                await self._exec("ROLLBACK")
                raise

    # One statement, one trip to the database thread (aiosqlite's execute, fetchall and close
    # are three): a burst of decisions makes several of these each, and every trip waits for a
    # turn of the GIL behind the bot's own work.

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        async with self._guard:
            if self._one_trip:
                return await self._read_here(lambda db: db.execute(sql, args).fetchall())
            async with self._conn.execute(sql, args) as cur:
                return list(await cur.fetchall())

    async def _reads(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[list[Any]]:
        """Each statement's rows, all in one trip (one read transaction: they see the same moment)."""
        if not self._one_trip:
            return await super()._reads(statements)

        def read(db: sqlite3.Connection) -> list[list[Any]]:
            return [db.execute(sql, args).fetchall() for sql, args in statements]

        async with self._guard:
            return await self._read_here(read)  # one read transaction: they see the same moment

    async def _insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an INSERT; the new row's id."""
        async with self._guard:
            if self._one_trip:
                return await self._write_here(lambda db: int(_closed(db.execute(sql, args)).lastrowid or 0))
            async with self._conn.execute(sql, args) as cur:
                return int(cur.lastrowid or 0)

    async def _update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an UPDATE; how many rows changed."""
        async with self._guard:
            if self._one_trip:
                return await self._write_here(lambda db: int(_closed(db.execute(sql, args)).rowcount))
            async with self._conn.execute(sql, args) as cur:
                return int(cur.rowcount)

    async def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run ``statements`` in one transaction, in one trip to the database thread."""

        def run(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

        async with self._guard:
            if self._one_trip:
                await self._in_db_thread(run)
                return
            await self._exec("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    await self._exec(sql, args)
                await self._exec("COMMIT")
            except BaseException:
                await self._exec("ROLLBACK")
                raise

    async def _schema_version(self) -> int:
        async with self._conn.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def _row(self, row: Any) -> RaceRow:
        return RaceRow(
            id=row[0],
            guild_id=row[1],
            channel_id=row[2],
            host_id=row[3],
            game=row[4],
            status=row[5],
            version=row[6],
            lobby=json.loads(row[7]),
            envelope=json.loads(row[8]) if row[8] else None,
            deadline=row[9],
            reminded=bool(row[10]),
            created=row[11],
            league_id=row[12],
            stage=row[13],
        )

    async def _in_db_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the sqlite3 connection in aiosqlite's own thread: one trip, not one per statement.

        Under load every trip waits for a turn of the event loop, and the connection is held
        (``_guard``) the whole time: a read or a commit of several statements in one trip frees
        it several times sooner. aiosqlite has no public call for this; ``_execute`` (queue a
        function for its thread) and ``_conn`` (the sqlite3 connection) are its internals.
        """
        conn = self._conn
        run: Callable[[Callable[[], T]], Awaitable[T]] = conn._execute
        return await run(lambda: work(conn._conn))

    async def _load(self, where: str, args: tuple[Any, ...]) -> list[RaceRow]:
        sql = (
            "SELECT id, guild_id, channel_id, host_id, game, status, version, lobby, envelope, deadline, "
            f"reminded, created, league_id, stage FROM races WHERE {where} ORDER BY id"
        )

        def read(db: sqlite3.Connection) -> list[tuple[Any, list[Any]]]:
            found = []
            for row in db.execute(sql, args).fetchall():
                rows = db.execute(
                    "SELECT idx, action, user_id, automatic FROM actions WHERE race_id = ? AND idx >= ? ORDER BY idx",
                    (row[0], starts.get(row[0], 0)),
                ).fetchall()
                found.append((row, rows))
            return found

        # the rows already read: only the database's from the last of them on are fetched
        kept = self._read.kept()
        starts = {race_id: rows[-1].index for race_id, rows in kept.items()}
        found: list[tuple[Any, list[Any]]] = []
        if self._one_trip:
            found = await self._read_here(read)
        else:
            for row in await self._conn.execute_fetchall(sql, args):
                more = await self._conn.execute_fetchall(
                    "SELECT idx, action, user_id, automatic FROM actions WHERE race_id = ? AND idx >= ? ORDER BY idx",
                    (row[0], starts.get(row[0], 0)),
                )
                found.append((row, list(more)))
        races = []
        for row, rows in found:
            race = self._row(row)
            fetched = [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in rows]
            merged = self._read.merge(race.id, kept.get(race.id, []), fetched)
            race.actions = list(merged) if merged is not None else await self._actions_of(race.id)
            races.append(race)
        return races

    async def _actions_of(self, race_id: int) -> list[StoredAction]:
        """Every action row of the race, read again from the first."""
        self._read.forget(race_id)
        found = await self._conn.execute_fetchall(
            "SELECT idx, action, user_id, automatic FROM actions WHERE race_id = ? ORDER BY idx", (race_id,)
        )
        rows = self._read.merge(race_id, [], [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in found])
        assert rows is not None
        return list(rows)

    async def _create_race(
        self, guild_id: int, channel_id: int, host_id: int, game: str, lobby: dict[str, Any]
    ) -> RaceRow:
        try:
            async with self._conn.execute(
                "INSERT INTO races (guild_id, channel_id, host_id, game, status, lobby, created) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?)",
                (guild_id, channel_id, host_id, game, json.dumps(lobby), time.time()),
            ) as cur:
                race_id = cur.lastrowid
        except aiosqlite.IntegrityError:
            raise ChannelBusy(channel_id) from None
        race = await self._race(int(race_id or 0))
        assert race is not None
        return race

    async def _link_league(self, race_id: int, league_id: int, stage: int) -> None:
        await self._exec("UPDATE races SET league_id = ?, stage = ? WHERE id = ?", (league_id, stage, race_id))

    async def link_league(self, race_id: int, league_id: int, stage: int) -> None:
        async with self._guard:
            await self._link_league(race_id, league_id, stage)

    async def _active_race(self, channel_id: int) -> RaceRow | None:
        rows = await self._load("channel_id = ? AND status IN ('lobby', 'running')", (channel_id,))
        return rows[0] if rows else None

    async def _race(self, race_id: int) -> RaceRow | None:
        rows = await self._load("id = ?", (race_id,))
        return rows[0] if rows else None

    async def _running_races(self, shards: Shards | None = None) -> list[RaceRow]:
        owned, args = (shards or Shards.everything()).where()
        return await self._load(f"status = 'running' AND {owned}", args)

    async def _latest_race(self, channel_id: int) -> RaceRow | None:
        rows = await self._load("id = (SELECT MAX(id) FROM races WHERE channel_id = ?)", (channel_id,))
        return rows[0] if rows else None

    async def _bump(self, race_id: int, version: int, sets: str, args: tuple[Any, ...]) -> bool:
        changed = await self._conn.execute_fetchall(
            f"UPDATE races SET version = version + 1, {sets} WHERE id = ? AND version = ? RETURNING id",
            (*args, race_id, version),
        )
        return len(list(changed)) == 1

    async def _update_lobby(self, race_id: int, version: int, lobby: dict[str, Any]) -> bool:
        return await self._bump(race_id, version, "lobby = ?", (json.dumps(lobby),))

    async def _start(self, race_id: int, version: int, envelope: dict[str, Any], deadline: float | None) -> bool:
        return await self._bump(
            race_id,
            version,
            "status = 'running', envelope = ?, deadline = ?, reminded = 0",
            (json.dumps(envelope), deadline),
        )

    async def _append_actions(
        self,
        race_id: int,
        version: int,
        actions: list[StoredAction],
        deadline: float | None,
        finished: bool,
        lobby: dict[str, Any] | None = None,
        charges: Charges | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> bool:
        """Append decisions and their clocks' charges in one transaction, only if the race is still
        at ``version`` (one trip). With ``envelope`` the same transaction starts the race: a crash
        leaves it in its lobby or running with its first deadline, never running without one."""
        status = "finished" if finished else "running"
        sets = "deadline = ?, reminded = 0, status = ?"
        args: tuple[Any, ...] = (deadline, status)
        if lobby is not None:
            sets, args = sets + ", lobby = ?", (*args, json.dumps(lobby))
        if envelope is not None:
            sets, args = sets + ", envelope = ?", (*args, json.dumps(envelope))
        writes: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO actions (race_id, idx, action, user_id, automatic) VALUES (?, ?, ?, ?, ?)", row)
            for row in [(race_id, a.index, a.text, a.user_id, int(a.automatic)) for a in actions]
        ]
        if charges is not None:
            writes += [(CLOCK_SQL, row) for row in clock_rows(race_id, charges.clocks)]
            writes += [(PACE_TIME_SQL, row) for row in pace_time_rows(charges.times)]
            writes += [
                ("DELETE FROM premoves WHERE race_id = ? AND player = ?", (race_id, player))
                for player in charges.premoves_used
            ]
        return await self._versioned(race_id, version, sets, args, writes)

    async def _truncate(
        self, race_id: int, version: int, keep: int, deadline: float | None, clocks: Sequence[Clock] = ()
    ) -> bool:
        """Drop the actions from ``keep`` on (an undo) with their decision times, and set ``clocks``
        (as they were before those actions), in one transaction and one trip."""
        self._read.forget(race_id)
        writes: list[tuple[str, tuple[Any, ...]]] = [
            ("DELETE FROM actions WHERE race_id = ? AND idx >= ?", (race_id, keep)),
            ("DELETE FROM snapshots WHERE race_id = ?", (race_id,)),
            ("DELETE FROM pace_times WHERE race_id = ? AND idx >= ?", (race_id, keep)),
            *[(CLOCK_SQL, row) for row in clock_rows(race_id, clocks)],
        ]
        sets = "deadline = ?, reminded = 0, status = 'running'"
        return await self._versioned(race_id, version, sets, (deadline,), writes)

    async def _versioned(
        self, race_id: int, version: int, sets: str, args: tuple[Any, ...], writes: list[tuple[str, tuple[Any, ...]]]
    ) -> bool:
        """Bump the race from ``version`` (setting ``sets``) and make ``writes``, all in one transaction
        (one trip where it can), or nothing if the race has moved on; an error rolls it all back."""

        def run(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            try:
                bumped = db.execute(
                    f"UPDATE races SET version = version + 1, {sets} WHERE id = ? AND version = ? RETURNING id",
                    (*args, race_id, version),
                ).fetchall()
                if len(bumped) != 1:
                    db.execute("ROLLBACK")
                    return False
                for sql, rows in _grouped(writes):
                    db.executemany(sql, rows)
                db.execute("COMMIT")
                return True
            except BaseException:
                db.execute("ROLLBACK")
                raise

        if self._one_trip:
            return await self._in_db_thread(run)
        await self._exec("BEGIN IMMEDIATE")
        try:
            if not await self._bump(race_id, version, sets, args):
                await self._exec("ROLLBACK")
                return False
            for sql, row in writes:
                await self._exec(sql, row)
            await self._exec("COMMIT")
            return True
        except BaseException:
            await self._exec("ROLLBACK")
            raise

    async def _set_status(self, race_id: int, version: int, status: str) -> bool:
        return await self._bump(race_id, version, "status = ?, deadline = NULL", (status,))

    async def _set_reminded(self, race_id: int, version: int) -> bool:
        # only the first caller reminds: two processes (a shard moving) never both remind
        async with self._conn.execute(
            "UPDATE races SET reminded = 1 WHERE id = ? AND version = ? AND reminded = 0", (race_id, version)
        ) as cur:
            return cur.rowcount == 1

    async def _save_snapshot(self, race_id: int, version: int, blob: bytes) -> None:
        await self._exec(
            "INSERT INTO snapshots (race_id, version, state) VALUES (?, ?, ?) "
            "ON CONFLICT(race_id) DO UPDATE SET version = excluded.version, state = excluded.state "
            "WHERE excluded.version > snapshots.version",
            (race_id, version, blob),
        )

    async def _snapshot(self, race_id: int) -> tuple[int, bytes] | None:
        sql = "SELECT version, state FROM snapshots WHERE race_id = ?"
        rows = list(await self._conn.execute_fetchall(sql, (race_id,)))
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None

    # ---- public methods: each holds the connection for its whole transaction

    async def schema_version(self) -> int:
        async with self._guard:
            return await self._schema_version()

    async def create_race(
        self, guild_id: int, channel_id: int, host_id: int, game: str, lobby: dict[str, Any]
    ) -> RaceRow:
        async with self._guard:
            return await self._create_race(guild_id, channel_id, host_id, game, lobby)

    async def active_race(self, channel_id: int) -> RaceRow | None:
        async with self._guard:
            return await self._active_race(channel_id)

    async def race(self, race_id: int) -> RaceRow | None:
        async with self._guard:
            return await self._race(race_id)

    async def running_races(self, shards: Shards | None = None) -> list[RaceRow]:
        """The running races, or only those of the servers in ``shards``."""
        async with self._guard:
            return await self._running_races(shards)

    async def latest_race(self, channel_id: int) -> RaceRow | None:
        async with self._guard:
            return await self._latest_race(channel_id)

    async def update_lobby(self, race_id: int, version: int, lobby: dict[str, Any]) -> bool:
        async with self._guard:
            return await self._update_lobby(race_id, version, lobby)

    async def keep_lobby(self, race_id: int, version: int, lobby: dict[str, Any]) -> bool:
        """The lobby's bookkeeping (which message shows it) without a new version: the buttons and
        menus made for this version stay good."""
        sql = "UPDATE races SET lobby = ? WHERE id = ? AND version = ?"
        return await self._update(sql, (json.dumps(lobby), race_id, version)) == 1

    async def start(self, race_id: int, version: int, envelope: dict[str, Any], deadline: float | None) -> bool:
        async with self._guard:
            return await self._start(race_id, version, envelope, deadline)

    async def append_actions(
        self,
        race_id: int,
        version: int,
        actions: list[StoredAction],
        deadline: float | None,
        finished: bool,
        lobby: dict[str, Any] | None = None,
        charges: Charges | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> bool:
        async with self._guard:
            return await self._append_actions(race_id, version, actions, deadline, finished, lobby, charges, envelope)

    async def truncate(
        self, race_id: int, version: int, keep: int, deadline: float | None, clocks: Sequence[Clock] = ()
    ) -> bool:
        async with self._guard:
            return await self._truncate(race_id, version, keep, deadline, clocks)

    async def set_status(self, race_id: int, version: int, status: str) -> bool:
        async with self._guard:
            return await self._set_status(race_id, version, status)

    async def set_reminded(self, race_id: int, version: int) -> bool:
        async with self._guard:
            return await self._set_reminded(race_id, version)

    async def save_snapshot(self, race_id: int, version: int, blob: bytes) -> None:
        async with self._guard:
            await self._save_snapshot(race_id, version, blob)

    async def snapshot(self, race_id: int) -> tuple[int, bytes] | None:
        async with self._guard:
            return await self._snapshot(race_id)

    async def drop_snapshot(self, race_id: int) -> None:
        """Forget an unreadable snapshot, so the next load replays once and saves a good one."""
        async with self._guard:
            await self._exec("DELETE FROM snapshots WHERE race_id = ?", (race_id,))
