"""The races: their rows, their append-only actions and their cached snapshots (a part of ``SqlStorage``).

Every change bumps the race's version in the transaction that checks the version it started from
(``Database.run_if``); a race read brings its action rows with it (``Database.fetch_each``), only
those past the rows already read (``bot/storage/action_cache.py``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bot.shards import Shards
from bot.storage import ChannelBusy, Charges, Clock, ConstraintFailed, RaceRow, StoredAction
from bot.storage.action_cache import ActionCache
from bot.storage.database import Database, Statement
from bot.storage.lobby import LobbyData
from bot.storage.pace_tables import CLOCK_SQL, PACE_TIME_SQL, clock_rows, pace_time_rows

RACE_COLUMNS = (
    "id, guild_id, channel_id, host_id, game, status, version, lobby, envelope, deadline, "
    "reminded, created, league_id, stage"
)
ACTIONS_FROM = "SELECT idx, action, user_id, automatic FROM actions WHERE race_id = {} AND idx >= {} ORDER BY idx"


def _bumped(race_id: int, version: int, sets: str, args: tuple[Any, ...]) -> Statement:
    """The UPDATE that sets ``sets`` and the next version, if the race is still at ``version``."""
    sql = "UPDATE races SET version = version + 1, " + sets + " WHERE id = {} AND version = {} RETURNING id"
    return sql, (*args, race_id, version)


class RaceTables:
    """The races part of ``SqlStorage``: a public method holds the connection for its whole transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.read = ActionCache()  # action rows already read, per race

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

    async def _load(self, where: str, args: tuple[Any, ...]) -> list[RaceRow]:
        # the rows already read: only the database's from the last of them on are fetched
        kept = self.read.kept()
        starts = {race_id: rows[-1].index for race_id, rows in kept.items()}
        races = []
        parent = (f"SELECT {RACE_COLUMNS} FROM races WHERE {where} ORDER BY id", args)

        def actions_since(found: Any) -> tuple[Any, ...]:
            return found[0], starts.get(found[0], 0)

        for row, rows in await self.db.fetch_each(parent, ACTIONS_FROM, actions_since):
            race = self._row(row)
            fetched = [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in rows]
            merged = self.read.merge(race.id, kept.get(race.id, []), fetched)
            race.actions = list(merged) if merged is not None else await self._actions_of(race.id)
            races.append(race)
        return races

    async def _actions_of(self, race_id: int) -> list[StoredAction]:
        """Every action row of the race, read again from the first."""
        self.read.forget(race_id)
        found = await self.db.fetch(ACTIONS_FROM, (race_id, 0))
        rows = self.read.merge(race_id, [], [StoredAction(i, a, u, bool(auto)) for i, a, u, auto in found])
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
            rows = await self.db.fetch(
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
        return len(await self.db.fetch(*_bumped(race_id, version, sets, args))) == 1

    async def _versioned(
        self, race_id: int, version: int, sets: str, args: tuple[Any, ...], writes: list[Statement]
    ) -> bool:
        """Bump the race from ``version`` (setting ``sets``) and make ``writes``, all in one transaction,
        or nothing if the race has moved on; an error rolls it all back."""
        return await self.db.run_if(_bumped(race_id, version, sets, args), writes)

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
        self.read.forget(race_id)
        writes: list[Statement] = [
            ("DELETE FROM actions WHERE race_id = {} AND idx >= {}", (race_id, keep)),
            ("DELETE FROM snapshots WHERE race_id = {}", (race_id,)),
            ("DELETE FROM pace_times WHERE race_id = {} AND idx >= {}", (race_id, keep)),
            *[(CLOCK_SQL, row) for row in clock_rows(race_id, clocks)],
        ]
        return "deadline = {}, reminded = 0, status = 'running'", (deadline,), writes

    # ---- public methods: each holds the connection for its whole transaction

    async def create_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game: str,
        lobby: LobbyData,
        league: tuple[int, int] | None = None,
    ) -> RaceRow:
        async with self.db.guard:
            return await self._create_race(guild_id, channel_id, host_id, game, lobby, league)

    async def active_race(self, channel_id: int) -> RaceRow | None:
        async with self.db.guard:
            rows = await self._load("channel_id = {} AND status IN ('lobby', 'running')", (channel_id,))
            return rows[0] if rows else None

    async def race(self, race_id: int) -> RaceRow | None:
        async with self.db.guard:
            return await self._race(race_id)

    async def running_races(self, shards: Shards | None = None) -> list[RaceRow]:
        """The running races, or only those of the servers in ``shards``."""
        owned, args = (shards or Shards.everything()).where()
        async with self.db.guard:
            return await self._load(f"status = 'running' AND {owned}", args)

    async def latest_race(self, channel_id: int) -> RaceRow | None:
        async with self.db.guard:
            rows = await self._load("id = (SELECT MAX(id) FROM races WHERE channel_id = {})", (channel_id,))
            return rows[0] if rows else None

    async def league_race(self, league_id: int, stage: int) -> RaceRow | None:
        async with self.db.guard:
            where = "id = (SELECT MAX(id) FROM races WHERE league_id = {} AND stage = {})"
            rows = await self._load(where, (league_id, stage))
            return rows[0] if rows else None

    async def update_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool:
        async with self.db.guard:
            return await self._bump(race_id, version, "lobby = {}", (json.dumps(lobby),))

    async def keep_lobby(self, race_id: int, version: int, lobby: LobbyData) -> bool:
        """The lobby's bookkeeping (which message shows it) without a new version: the buttons and
        menus made for this version stay good."""
        sql = "UPDATE races SET lobby = {} WHERE id = {} AND version = {}"
        return await self.db.update(sql, (json.dumps(lobby), race_id, version)) == 1

    async def start(self, race_id: int, version: int, envelope: dict[str, Any], deadline: float | None) -> bool:
        sets = "status = 'running', envelope = {}, deadline = {}, reminded = 0"
        async with self.db.guard:
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
        async with self.db.guard:
            return await self._versioned(race_id, version, sets, args, writes)

    async def truncate(
        self, race_id: int, version: int, keep: int, deadline: float | None, clocks: Sequence[Clock] = ()
    ) -> bool:
        """Drop the actions from ``keep`` on (an undo) with their decision times, and set ``clocks``
        (as they were before those actions), in one transaction."""
        sets, args, writes = self._truncated(race_id, keep, deadline, clocks)
        async with self.db.guard:
            return await self._versioned(race_id, version, sets, args, writes)

    async def set_status(self, race_id: int, version: int, status: str) -> bool:
        async with self.db.guard:
            return await self._bump(race_id, version, "status = {}, deadline = NULL", (status,))

    async def set_reminded(self, race_id: int, version: int) -> bool:
        # only the first caller reminds: two processes (a shard moving) never both remind
        sql = "UPDATE races SET reminded = 1 WHERE id = {} AND version = {} AND reminded = 0"
        return await self.db.update(sql, (race_id, version)) == 1

    async def save_snapshot(self, race_id: int, version: int, blob: bytes) -> None:
        await self.db.update(
            "INSERT INTO snapshots (race_id, version, state) VALUES ({}, {}, {}) "
            "ON CONFLICT(race_id) DO UPDATE SET version = excluded.version, state = excluded.state "
            "WHERE excluded.version > snapshots.version",
            (race_id, version, blob),
        )

    async def snapshot(self, race_id: int) -> tuple[int, bytes] | None:
        rows = await self.db.rows("SELECT version, state FROM snapshots WHERE race_id = {}", (race_id,))
        return (int(rows[0][0]), bytes(rows[0][1])) if rows else None

    async def drop_snapshot(self, race_id: int) -> None:
        """Forget an unreadable snapshot, so the next load replays once and saves a good one."""
        await self.db.update("DELETE FROM snapshots WHERE race_id = {}", (race_id,))
