"""The storage's SQL, written once for both databases: races, their actions and snapshots, and (through
the table mixins) leagues, alliances, people, pace and languages.

``SqlStorage`` holds every statement and transaction; a database is a subclass that gives it three
primitives on the connection the calling method holds (``_fetch`` rows, ``_run`` a statement for its
count of changed rows, ``_run_many``), its ``_guard`` (how a method holds that connection) and its
``Dialect`` (``bot/storage/dialect.py``: parameter marks, how a write transaction begins, the schema's
words). ``SqliteStorage`` adds its one-trip shortcuts; ``PostgresStorage`` its pool.

Statements write their parameters as ``{}``; a statement that needs the new row's id ends with
``RETURNING id``.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.shards import Shards
from bot.storage import ChannelBusy, Charges, Clock, ConstraintFailed, NewerSchema, RaceRow, StoredAction
from bot.storage.action_cache import ActionCache
from bot.storage.alliance_tables import AllianceTables
from bot.storage.away_tables import AwayTables
from bot.storage.dialect import Dialect
from bot.storage.health_tables import HealthTables
from bot.storage.language_tables import LanguageTables
from bot.storage.league_tables import LeagueTables
from bot.storage.lobby import LobbyData
from bot.storage.outbox_tables import OutboxTables
from bot.storage.pace_tables import CLOCK_SQL, PACE_TIME_SQL, PaceTables, clock_rows, pace_time_rows
from bot.storage.people_tables import PeopleTables
from bot.storage.prompt_tables import PromptTables
from bot.storage.schema import MIGRATIONS
from bot.storage.web_tables import WebTables

RACE_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, status, version, lobby, envelope, deadline, "
    "reminded, created, league_id, stage"
)
ACTIONS_FROM = "SELECT idx, action, user_id, automatic FROM actions WHERE race_id = {} AND idx >= {} ORDER BY idx"
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


class SqlStorage(
    LeagueTables,
    AllianceTables,
    PeopleTables,
    PaceTables,
    WebTables,
    AwayTables,
    LanguageTables,
    PromptTables,
    OutboxTables,
    HealthTables,
    ABC,
):
    """Everything the bot keeps, in SQL both databases run (``bot/storage/dialect.py``)."""

    dialect: Dialect
    path: str  # the database as it may be shown (no password)
    setting: str  # where the operator names it (a newer schema's advice)
    _guard: AbstractAsyncContextManager[Any]

    # ---- what a database gives: one statement on the connection the calling method holds

    @abstractmethod
    async def _fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one statement (written with ``{}`` parameters)."""

    @abstractmethod
    async def _run(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; how many rows it changed."""

    @abstractmethod
    async def _run_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement once per row."""

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def _migration_lock(self) -> None:
        """Inside the migration's transaction: wait for another process migrating the same database."""

    @property
    def _read(self) -> ActionCache:
        """Action rows already read, per race (``bot/storage/action_cache.py``)."""
        cache: ActionCache | None = self.__dict__.get("_action_cache")
        if cache is None:
            cache = self.__dict__["_action_cache"] = ActionCache()
        return cache

    async def _exec(self, sql: str, args: Sequence[Any] = ()) -> None:
        await self._run(sql, args)

    async def _migrate(self) -> None:
        """Bring the schema to the latest migration, in one transaction (``bot/storage/schema.py``)."""
        await self._exec(self.dialect.begin)
        try:
            await self._migration_lock()
            await self._exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await self._schema_version()
            if current > len(MIGRATIONS):
                raise NewerSchema(
                    f"{self.path} was written by a newer Domestique (schema {current}; this one knows "
                    f"{len(MIGRATIONS)}): upgrade Domestique, or use another {self.setting}"
                )
            for number, migration in enumerate(MIGRATIONS, start=1):
                if number > current:
                    for statement in migration.statements(self.dialect):
                        await self._exec(statement)
                    await self._exec("INSERT INTO schema_version VALUES ({})", (number,))
            await self._exec("COMMIT")
        except BaseException:
            await self._exec("ROLLBACK")
            raise

    async def _schema_version(self) -> int:
        rows = await self._fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0]) if rows and rows[0][0] is not None else 0

    # ---- guarded helpers (the table mixins' too): each holds the connection for its statement(s)

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        async with self._guard:
            return await self._fetch(sql, args)

    async def _insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an INSERT ending with ``RETURNING id``; the new row's id."""
        async with self._guard:
            rows = await self._fetch(sql, args)
            return int(rows[0][0])

    async def _update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an UPDATE, DELETE or upsert; how many rows changed."""
        async with self._guard:
            return await self._run(sql, args)

    async def _transaction(self, statements: list[Statement]) -> None:
        """Run ``statements`` in one transaction."""
        async with self._guard:
            await self._exec(self.dialect.begin)
            try:
                for sql, args in statements:
                    await self._exec(sql, args)
                await self._exec("COMMIT")
            except BaseException:
                await self._exec("ROLLBACK")
                raise

    # ---- races

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

    async def _found(self, where: str, args: tuple[Any, ...], starts: dict[int, int]) -> list[tuple[Any, list[Any]]]:
        """The races ``where`` says, each with its action rows from ``starts`` (by race) on."""
        found = []
        for row in await self._fetch(f"SELECT {RACE_COLUMNS} FROM races WHERE {where} ORDER BY id", args):
            found.append((row, await self._fetch(ACTIONS_FROM, (row[0], starts.get(row[0], 0)))))
        return found

    async def _load(self, where: str, args: tuple[Any, ...]) -> list[RaceRow]:
        # the rows already read: only the database's from the last of them on are fetched
        kept = self._read.kept()
        starts = {race_id: rows[-1].index for race_id, rows in kept.items()}
        races = []
        for row, rows in await self._found(where, args, starts):
            race = self._row(row)
            fetched = [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in rows]
            merged = self._read.merge(race.id, kept.get(race.id, []), fetched)
            race.actions = list(merged) if merged is not None else await self._actions_of(race.id)
            races.append(race)
        return races

    async def _actions_of(self, race_id: int) -> list[StoredAction]:
        """Every action row of the race, read again from the first."""
        self._read.forget(race_id)
        found = await self._fetch(ACTIONS_FROM, (race_id, 0))
        rows = self._read.merge(race_id, [], [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in found])
        assert rows is not None
        return list(rows)

    async def _create_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        lobby: LobbyData,
        league: tuple[int, int] | None = None,
    ) -> RaceRow:
        league_id, stage = league if league is not None else (None, None)
        try:
            rows = await self._fetch(
                "INSERT INTO races (guild_id, channel_id, host_id, game, status, lobby, created, league_id, stage) "
                "VALUES ({}, {}, {}, {}, 'lobby', {}, {}, {}, {}) RETURNING id",
                (guild_id, channel_id, host_id, game, json.dumps(lobby), time.time(), league_id, stage),
            )
        except ConstraintFailed:
            raise ChannelBusy(channel_id) from None
        race = await self._race(int(rows[0][0]))
        assert race is not None
        return race

    async def _race(self, race_id: int) -> RaceRow | None:
        rows = await self._load("id = {}", (race_id,))
        return rows[0] if rows else None

    async def _bump(self, race_id: int, version: int, sets: str, args: tuple[Any, ...]) -> bool:
        """Set ``sets`` and the next version, if the race is still at ``version``."""
        changed = await self._fetch(
            "UPDATE races SET version = version + 1, " + sets + " WHERE id = {} AND version = {} RETURNING id",
            (*args, race_id, version),
        )
        return len(changed) == 1

    async def _versioned(
        self, race_id: int, version: int, sets: str, args: tuple[Any, ...], writes: list[Statement]
    ) -> bool:
        """Bump the race from ``version`` (setting ``sets``) and make ``writes``, all in one transaction,
        or nothing if the race has moved on; an error rolls it all back."""
        await self._exec(self.dialect.begin)
        try:
            if not await self._bump(race_id, version, sets, args):
                await self._exec("ROLLBACK")
                return False
            for sql, rows in grouped(writes):
                await self._run_many(sql, rows)
            await self._exec("COMMIT")
            return True
        except BaseException:
            await self._exec("ROLLBACK")
            raise

    def _appended(
        self,
        race_id: int,
        actions: list[StoredAction],
        deadline: float | None,
        finished: bool,
        lobby: LobbyData | None,
        charges: Charges | None,
        envelope: dict[str, Any] | None,
    ) -> tuple[str, tuple[Any, ...], list[Statement]]:
        """What appending decisions sets on the race and writes beside it: the actions, the clocks'
        charges and decision times, the decisions made ahead now spent."""
        sets = "deadline = {}, reminded = 0, status = {}"
        args: tuple[Any, ...] = (deadline, "finished" if finished else "running")
        if lobby is not None:
            sets, args = sets + ", lobby = {}", (*args, json.dumps(lobby))
        if envelope is not None:
            sets, args = sets + ", envelope = {}", (*args, json.dumps(envelope))
        writes: list[Statement] = [
            ("INSERT INTO actions (race_id, idx, action, user_id, automatic) VALUES ({}, {}, {}, {}, {})", row)
            for row in [(race_id, a.index, a.text, a.user_id, int(a.automatic)) for a in actions]
        ]
        if charges is not None:
            writes += [(CLOCK_SQL, row) for row in clock_rows(race_id, charges.clocks)]
            writes += [(PACE_TIME_SQL, row) for row in pace_time_rows(charges.times)]
            writes += [
                ("DELETE FROM premoves WHERE race_id = {} AND player = {}", (race_id, player))
                for player in charges.premoves_used
            ]
        return sets, args, writes

    def _truncated(
        self, race_id: int, keep: int, deadline: float | None, clocks: Sequence[Clock]
    ) -> tuple[str, tuple[Any, ...], list[Statement]]:
        """What an undo sets and writes: the actions from ``keep`` on dropped with their decision times,
        the snapshot forgotten, the clocks as they were."""
        self._read.forget(race_id)
        writes: list[Statement] = [
            ("DELETE FROM actions WHERE race_id = {} AND idx >= {}", (race_id, keep)),
            ("DELETE FROM snapshots WHERE race_id = {}", (race_id,)),
            ("DELETE FROM pace_times WHERE race_id = {} AND idx >= {}", (race_id, keep)),
            *[(CLOCK_SQL, row) for row in clock_rows(race_id, clocks)],
        ]
        return "deadline = {}, reminded = 0, status = 'running'", (deadline,), writes

    # ---- public methods: each holds the connection for its whole transaction

    async def schema_version(self) -> int:
        async with self._guard:
            return await self._schema_version()

    async def create_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        lobby: LobbyData,
        league: tuple[int, int] | None = None,
    ) -> RaceRow:
        async with self._guard:
            return await self._create_race(guild_id, channel_id, host_id, game, lobby, league)

    async def active_race(self, channel_id: int) -> RaceRow | None:
        async with self._guard:
            rows = await self._load("channel_id = {} AND status IN ('lobby', 'running')", (channel_id,))
            return rows[0] if rows else None

    async def race(self, race_id: int) -> RaceRow | None:
        async with self._guard:
            return await self._race(race_id)

    async def running_races(self, shards: Shards | None = None) -> list[RaceRow]:
        """The running races, or only those of the servers in ``shards``."""
        owned, args = (shards or Shards.everything()).where()
        async with self._guard:
            return await self._load(f"status = 'running' AND {owned}", args)

    async def latest_race(self, channel_id: int) -> RaceRow | None:
        async with self._guard:
            rows = await self._load("id = (SELECT MAX(id) FROM races WHERE channel_id = {})", (channel_id,))
            return rows[0] if rows else None

    async def league_race(self, league_id: int, stage: int) -> RaceRow | None:
        async with self._guard:
            where = "id = (SELECT MAX(id) FROM races WHERE league_id = {} AND stage = {})"
            rows = await self._load(where, (league_id, stage))
            return rows[0] if rows else None

    async def update_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool:
        async with self._guard:
            return await self._bump(race_id, version, "lobby = {}", (json.dumps(lobby),))

    async def keep_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool:
        """The lobby's bookkeeping (which message shows it) without a new version: the buttons and
        menus made for this version stay good."""
        sql = "UPDATE races SET lobby = {} WHERE id = {} AND version = {}"
        return await self._update(sql, (json.dumps(lobby), race_id, version)) == 1

    async def start(self, race_id: int, version: int, envelope: dict[str, Any], deadline: float | None) -> bool:
        sets = "status = 'running', envelope = {}, deadline = {}, reminded = 0"
        async with self._guard:
            return await self._bump(race_id, version, sets, (json.dumps(envelope), deadline))

    async def append_actions(
        self,
        race_id: int,
        version: int,
        actions: list[StoredAction],
        deadline: float | None,
        finished: bool,
        lobby: LobbyData | None = None,
        charges: Charges | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> bool:
        """Append decisions and their clocks' charges in one transaction, only if the race is still
        at ``version``. With ``envelope`` the same transaction starts the race: a crash leaves it in
        its lobby or running with its first deadline, never running without one."""
        sets, args, writes = self._appended(race_id, actions, deadline, finished, lobby, charges, envelope)
        async with self._guard:
            return await self._versioned(race_id, version, sets, args, writes)

    async def truncate(
        self, race_id: int, version: int, keep: int, deadline: float | None, clocks: Sequence[Clock] = ()
    ) -> bool:
        """Drop the actions from ``keep`` on (an undo) with their decision times, and set ``clocks``
        (as they were before those actions), in one transaction."""
        sets, args, writes = self._truncated(race_id, keep, deadline, clocks)
        async with self._guard:
            return await self._versioned(race_id, version, sets, args, writes)

    async def set_status(self, race_id: int, version: int, status: str) -> bool:
        async with self._guard:
            return await self._bump(race_id, version, "status = {}, deadline = NULL", (status,))

    async def set_reminded(self, race_id: int, version: int) -> bool:
        # only the first caller reminds: two processes (a shard moving) never both remind
        sql = "UPDATE races SET reminded = 1 WHERE id = {} AND version = {} AND reminded = 0"
        return await self._update(sql, (race_id, version)) == 1

    async def save_snapshot(self, race_id: int, version: int, blob: bytes) -> None:
        await self._update(
            "INSERT INTO snapshots (race_id, version, state) VALUES ({}, {}, {}) "
            "ON CONFLICT(race_id) DO UPDATE SET version = excluded.version, state = excluded.state "
            "WHERE excluded.version > snapshots.version",
            (race_id, version, blob),
        )

    async def snapshot(self, race_id: int) -> tuple[int, bytes] | None:
        rows = await self._rows("SELECT version, state FROM snapshots WHERE race_id = {}", (race_id,))
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None

    async def drop_snapshot(self, race_id: int) -> None:
        """Forget an unreadable snapshot, so the next load replays once and saves a good one."""
        await self._update("DELETE FROM snapshots WHERE race_id = {}", (race_id,))
