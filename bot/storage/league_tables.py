"""League and alliance tables (the same connection and lock as the races; ``bot/storage/sql.py``)."""

from __future__ import annotations

import json
import time
from typing import Any

from bot.storage import Alliance, ConstraintFailed, League, Member, NameTaken, Stage
from bot.storage.database import Database

LEAGUE_COLUMNS = "id, guild_id, organiser_id, name, game, channel_id, settings, status"
ALLIANCE_COLUMNS = "id, race_id, proposer, partner, status, thread_id, name"


class LeagueTables:
    """The league part of ``SqlStorage``: each method one guarded statement or transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- leagues

    async def create_league(
        self, guild_id: int, organiser_id: int, name: str, game: str, channel_id: int, settings: dict[str, Any]
    ) -> int:
        try:
            return await self.db.insert(
                "INSERT INTO leagues (guild_id, organiser_id, name, game, channel_id, settings, status, created) "
                "VALUES ({}, {}, {}, {}, {}, {}, 'entries', {}) RETURNING id",
                (guild_id, organiser_id, name, game, channel_id, json.dumps(settings), time.time()),
            )
        except ConstraintFailed:
            raise NameTaken(name) from None

    @staticmethod
    def _league(row: Any) -> League:
        return League(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]), row[7])

    async def leagues(self, guild_id: int | None = None) -> list[League]:
        where, args = ("WHERE guild_id = {}", (guild_id,)) if guild_id is not None else ("", ())
        rows = await self.db.rows(f"SELECT {LEAGUE_COLUMNS} FROM leagues {where} ORDER BY id", args)
        return [self._league(r) for r in rows]

    async def league(self, league_id: int) -> League | None:
        rows = await self.db.rows(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = {{}}", (league_id,))
        return self._league(rows[0]) if rows else None

    async def set_league_status(self, league_id: int, status: str) -> None:
        await self.db.update("UPDATE leagues SET status = {} WHERE id = {}", (status, league_id))

    # ---- members

    async def members(self, league_id: int) -> list[Member]:
        rows = await self.db.rows(
            "SELECT player, user_id, name, team, kinds, removed FROM league_members WHERE league_id = {} "
            "ORDER BY rowid",
            (league_id,),
        )
        return [Member(r[0], r[1], r[2], r[3], json.loads(r[4]), bool(r[5])) for r in rows]

    async def add_member(self, league_id: int, member: Member) -> None:
        await self.db.update(
            "INSERT INTO league_members (league_id, player, user_id, name, team, kinds) "
            "VALUES ({}, {}, {}, {}, {}, {})",
            (league_id, member.player, member.user_id, member.name, member.team, json.dumps(member.kinds)),
        )

    async def remove_member(self, league_id: int, player: str) -> None:
        await self.db.update(
            "UPDATE league_members SET removed = 1 WHERE league_id = {} AND player = {}", (league_id, player)
        )

    # ---- stages

    async def stages(self, league_id: int) -> list[Stage]:
        rows = await self.db.rows(
            "SELECT number, track, due, status, race_id, channel_id, result FROM league_stages "
            "WHERE league_id = {} ORDER BY number",
            (league_id,),
        )
        return [Stage(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]) if r[6] else None) for r in rows]

    async def schedule(self, league_id: int, stages: list[tuple[int, str, float]]) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO league_stages (league_id, number, track, due, status) "
                "VALUES ({}, {}, {}, {}, 'scheduled')",
                (league_id, number, track, due),
            )
            for number, track, due in stages
        ]
        statements.append(("UPDATE leagues SET status = 'scheduled' WHERE id = {}", (league_id,)))
        await self.db.transaction(statements)

    async def claim_stage(self, league_id: int, number: int) -> bool:
        """Mark a stage as being opened; only one caller ever wins (the scheduler never opens twice)."""
        changed = await self.db.update(
            "UPDATE league_stages SET status = 'opening' WHERE league_id = {} AND number = {} AND status = 'scheduled'",
            (league_id, number),
        )
        return changed == 1

    async def stage_channel(self, league_id: int, number: int, channel_id: int) -> None:
        """The channel made for a stage being opened, kept before its race is made (a retry reuses it)."""
        await self.db.update(
            "UPDATE league_stages SET channel_id = {} WHERE league_id = {} AND number = {} AND status = 'opening'",
            (channel_id, league_id, number),
        )

    async def stage_opened(self, league_id: int, number: int, race_id: int, channel_id: int) -> None:
        # a stage of AI players only is over before this is written: it stays finished
        await self.db.update(
            "UPDATE league_stages SET race_id = {}, channel_id = {}, "
            "status = CASE WHEN status = 'finished' THEN status ELSE 'running' END "
            "WHERE league_id = {} AND number = {}",
            (race_id, channel_id, league_id, number),
        )

    async def stage_finished(self, league_id: int, number: int, result: dict[str, Any]) -> bool:
        changed = await self.db.update(
            "UPDATE league_stages SET status = 'finished', result = {} "
            "WHERE league_id = {} AND number = {} AND status != 'finished'",
            (json.dumps(result), league_id, number),
        )
        return changed == 1

    # ---- alliances

    @staticmethod
    def _alliance(row: Any) -> Alliance:
        return Alliance(row[0], row[1], row[2], row[3], row[4], row[5], row[6])

    async def alliances(self, race_id: int) -> list[Alliance]:
        rows = await self.db.rows(
            f"SELECT {ALLIANCE_COLUMNS} FROM alliances WHERE race_id = {{}} ORDER BY id", (race_id,)
        )
        return [self._alliance(r) for r in rows]

    async def alliance(self, alliance_id: int) -> Alliance | None:
        rows = await self.db.rows(f"SELECT {ALLIANCE_COLUMNS} FROM alliances WHERE id = {{}}", (alliance_id,))
        return self._alliance(rows[0]) if rows else None

    async def propose_alliance(self, race_id: int, proposer: str, partner: str) -> int:
        return await self.create_alliance(race_id, "", proposer, partner, time.time())

    async def create_alliance(self, race_id: int, name: str, founder: str, invited: str, now: float) -> int:
        """A new alliance of ``founder``, with ``invited`` asked to join (its first invitation)."""
        alliance_id = await self.db.insert(
            "INSERT INTO alliances (race_id, proposer, partner, status, name, created) "
            "VALUES ({}, {}, {}, 'proposed', {}, {}) RETURNING id",
            (race_id, founder, invited, name or None, now),
        )
        member = (
            "INSERT INTO alliance_members (alliance_id, player, status, invited_by, since) VALUES ({}, {}, {}, {}, {})"
        )
        await self.db.transaction(
            [
                (member, (alliance_id, founder, "member", None, now)),
                (member, (alliance_id, invited, "invited", founder, now)),
            ]
        )
        return alliance_id

    async def set_alliance(
        self, alliance_id: int, status: str, *, expect: str | None = None, thread_id: int | None = None
    ) -> bool:
        sql = "UPDATE alliances SET status = {}"
        args: tuple[Any, ...] = (status,)
        if thread_id is not None:
            sql, args = sql + ", thread_id = {}", (*args, thread_id)
        sql += " WHERE id = {}"
        args = (*args, alliance_id)
        if expect is not None:
            sql, args = sql + " AND status = {}", (*args, expect)
        return await self.db.update(sql, args) == 1
