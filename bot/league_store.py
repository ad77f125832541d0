"""League and alliance rows, on the same SQLite connection (and lock) as the races."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.storage import SqliteStorage


class NameTaken(Exception):
    """A league of that name exists in this server."""


@dataclass
class League:
    id: int
    guild_id: int
    organiser_id: int
    name: str
    game: str
    channel_id: int
    settings: dict[str, Any]
    status: str  # entries, scheduled, finished


@dataclass
class Member:
    player: str
    user_id: int | None
    name: str
    team: str
    kinds: list[str]
    removed: bool


@dataclass
class Stage:
    number: int
    track: str
    due: float | None
    status: str  # scheduled, opening, running, finished
    race_id: int | None
    channel_id: int | None
    result: dict[str, Any] | None


@dataclass
class Alliance:
    id: int
    race_id: int
    proposer: str
    partner: str
    status: str  # proposed, active, declined, ended
    thread_id: int | None


class LeagueStore:
    def __init__(self, storage: SqliteStorage) -> None:
        self.storage = storage

    async def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        async with self.storage.db.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def _insert(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an INSERT; the new row's id."""
        async with self.storage.db.execute(sql, args) as cur:
            return int(cur.lastrowid or 0)

    async def _update(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """Run an UPDATE; how many rows changed."""
        async with self.storage.db.execute(sql, args) as cur:
            return int(cur.rowcount)

    # leagues
    async def create(
        self, guild_id: int, organiser_id: int, name: str, game: str, channel_id: int, settings: dict[str, Any]
    ) -> int:
        async with self.storage._guard:
            try:
                return await self._insert(
                    "INSERT INTO leagues (guild_id, organiser_id, name, game, channel_id, settings, status, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'entries', ?)",
                    (guild_id, organiser_id, name, game, channel_id, json.dumps(settings), time.time()),
                )
            except aiosqlite.IntegrityError:
                raise NameTaken(name) from None

    @staticmethod
    def _league(row: Any) -> League:
        return League(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]), row[7])

    async def leagues(self, guild_id: int | None = None) -> list[League]:
        where, args = ("WHERE guild_id = ?", (guild_id,)) if guild_id is not None else ("", ())
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT id, guild_id, organiser_id, name, game, channel_id, settings, status "
                f"FROM leagues {where} ORDER BY id",
                args,
            )
        return [self._league(r) for r in rows]

    async def league(self, league_id: int) -> League | None:
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT id, guild_id, organiser_id, name, game, channel_id, settings, status FROM leagues WHERE id = ?",
                (league_id,),
            )
        return self._league(rows[0]) if rows else None

    async def set_status(self, league_id: int, status: str) -> None:
        async with self.storage._guard:
            await self._update("UPDATE leagues SET status = ? WHERE id = ?", (status, league_id))

    # members
    async def members(self, league_id: int) -> list[Member]:
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT player, user_id, name, team, kinds, removed FROM league_members "
                "WHERE league_id = ? ORDER BY rowid",
                (league_id,),
            )
        return [Member(r[0], r[1], r[2], r[3], json.loads(r[4]), bool(r[5])) for r in rows]

    async def add_member(self, league_id: int, member: Member) -> None:
        async with self.storage._guard:
            await self._insert(
                "INSERT INTO league_members (league_id, player, user_id, name, team, kinds) VALUES (?, ?, ?, ?, ?, ?)",
                (league_id, member.player, member.user_id, member.name, member.team, json.dumps(member.kinds)),
            )

    async def remove_member(self, league_id: int, player: str) -> None:
        async with self.storage._guard:
            await self._update(
                "UPDATE league_members SET removed = 1 WHERE league_id = ? AND player = ?", (league_id, player)
            )

    # stages
    async def stages(self, league_id: int) -> list[Stage]:
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT number, track, due, status, race_id, channel_id, result FROM league_stages "
                "WHERE league_id = ? ORDER BY number",
                (league_id,),
            )
        return [Stage(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]) if r[6] else None) for r in rows]

    async def schedule(self, league_id: int, stages: list[tuple[int, str, float]]) -> None:
        async with self.storage._guard:
            for number, track, due in stages:
                await self._insert(
                    "INSERT INTO league_stages (league_id, number, track, due, status) "
                    "VALUES (?, ?, ?, ?, 'scheduled')",
                    (league_id, number, track, due),
                )
            await self._update("UPDATE leagues SET status = 'scheduled' WHERE id = ?", (league_id,))

    async def claim(self, league_id: int, number: int) -> bool:
        """Mark a stage as being opened; only one caller ever wins (the scheduler never opens twice)."""
        async with self.storage._guard:
            changed = await self._update(
                "UPDATE league_stages SET status = 'opening' WHERE league_id = ? AND "
                "number = ? AND status = 'scheduled'",
                (league_id, number),
            )
        return changed == 1

    async def opened(self, league_id: int, number: int, race_id: int, channel_id: int) -> None:
        async with self.storage._guard:
            await self._update(
                "UPDATE league_stages SET status = 'running', race_id = ?, channel_id = ? "
                "WHERE league_id = ? AND number = ?",
                (race_id, channel_id, league_id, number),
            )

    async def finished(self, league_id: int, number: int, result: dict[str, Any]) -> bool:
        async with self.storage._guard:
            changed = await self._update(
                "UPDATE league_stages SET status = 'finished', result = ? "
                "WHERE league_id = ? AND number = ? AND status != 'finished'",
                (json.dumps(result), league_id, number),
            )
        return changed == 1

    # alliances
    @staticmethod
    def _alliance(row: Any) -> Alliance:
        return Alliance(row[0], row[1], row[2], row[3], row[4], row[5])

    async def alliances(self, race_id: int) -> list[Alliance]:
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT id, race_id, proposer, partner, status, thread_id FROM alliances WHERE race_id = ? ORDER BY id",
                (race_id,),
            )
        return [self._alliance(r) for r in rows]

    async def alliance(self, alliance_id: int) -> Alliance | None:
        async with self.storage._guard:
            rows = await self._rows(
                "SELECT id, race_id, proposer, partner, status, thread_id FROM alliances WHERE id = ?", (alliance_id,)
            )
        return self._alliance(rows[0]) if rows else None

    async def propose(self, race_id: int, proposer: str, partner: str) -> int:
        async with self.storage._guard:
            return await self._insert(
                "INSERT INTO alliances (race_id, proposer, partner, status, created) VALUES (?, ?, ?, 'proposed', ?)",
                (race_id, proposer, partner, time.time()),
            )

    async def set_alliance(
        self, alliance_id: int, status: str, *, expect: str | None = None, thread_id: int | None = None
    ) -> bool:
        async with self.storage._guard:
            sql = "UPDATE alliances SET status = ?"
            args: tuple[Any, ...] = (status,)
            if thread_id is not None:
                sql, args = sql + ", thread_id = ?", (*args, thread_id)
            sql += " WHERE id = ?"
            args = (*args, alliance_id)
            if expect is not None:
                sql, args = sql + " AND status = ?", (*args, expect)
            return await self._update(sql, args) == 1
