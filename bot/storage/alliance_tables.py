"""An alliance's members (invited one by one) and its pacts (the same connection and lock as the races)."""

from __future__ import annotations

import json
from typing import Any

from bot.storage import AllianceMember, PactRow
from bot.storage.database import Database

MEMBER_COLUMNS = "alliance_id, player, status, invited_by, since"
PACT_COLUMNS = (
    "id, alliance_id, kind, proposer, ally, until_unit, until_value, public, status, members, accepted, "
    "made_at, ended_at, created"
)


class AllianceTables:
    """The members and pacts part of ``SqlStorage``: each method one guarded statement."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def race_of_thread(self, thread_id: int) -> int | None:
        """The race whose alliance has this private thread (commands typed in it act on that race)."""
        rows = await self.db.rows("SELECT race_id FROM alliances WHERE thread_id = {} ORDER BY id DESC", (thread_id,))
        return int(rows[0][0]) if rows else None

    # ---- members

    @staticmethod
    def _member(row: Any) -> AllianceMember:
        return AllianceMember(row[0], row[1], row[2], row[3], float(row[4]))

    async def alliance_members(self, alliance_id: int) -> list[AllianceMember]:
        rows = await self.db.rows(
            f"SELECT {MEMBER_COLUMNS} FROM alliance_members WHERE alliance_id = {{}} "
            "ORDER BY CASE WHEN invited_by IS NULL THEN 0 ELSE 1 END, since, player",
            (alliance_id,),
        )
        return [self._member(r) for r in rows]

    async def invite_member(self, alliance_id: int, player: str, by: str, now: float) -> bool:
        """Ask ``player`` to join: a new invitation, or again after a decline, a lapse or leaving;
        False when they are a member or already invited."""
        again = await self.db.update(
            "UPDATE alliance_members SET status = 'invited', invited_by = {}, since = {} "
            "WHERE alliance_id = {} AND player = {} AND status NOT IN ('member', 'invited')",
            (by, now, alliance_id, player),
        )
        if again:
            return True
        known = await self.db.rows(
            "SELECT status FROM alliance_members WHERE alliance_id = {} AND player = {}", (alliance_id, player)
        )
        if known:
            return False
        await self.db.update(
            "INSERT INTO alliance_members (alliance_id, player, status, invited_by, since) "
            "VALUES ({}, {}, 'invited', {}, {})",
            (alliance_id, player, by, now),
        )
        return True

    async def set_member(self, alliance_id: int, player: str, status: str, *, expect: str, now: float) -> bool:
        changed = await self.db.update(
            "UPDATE alliance_members SET status = {}, since = {} "
            "WHERE alliance_id = {} AND player = {} AND status = {}",
            (status, now, alliance_id, player, expect),
        )
        return changed == 1

    async def invitations_before(self, since: float) -> list[AllianceMember]:
        """Invitations still unanswered that were sent before ``since`` (to lapse)."""
        rows = await self.db.rows(
            f"SELECT {MEMBER_COLUMNS} FROM alliance_members WHERE status = 'invited' AND since < {{}} "
            "ORDER BY alliance_id, player",
            (since,),
        )
        return [self._member(r) for r in rows]

    # ---- pacts

    @staticmethod
    def _pact(row: Any) -> PactRow:
        return PactRow(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            bool(row[7]),
            row[8],
            list(json.loads(row[9])),
            list(json.loads(row[10])),
            row[11],
            row[12],
            float(row[13]),
        )

    async def add_pact(
        self,
        alliance_id: int,
        kind: str,
        proposer: str,
        ally: str | None,
        until: tuple[str, int | None],
        public: bool,
        members: list[str],
        now: float,
    ) -> int:
        return await self.db.insert(
            "INSERT INTO pacts (alliance_id, kind, proposer, ally, until_unit, until_value, public, status, "
            "members, accepted, created) VALUES ({}, {}, {}, {}, {}, {}, {}, 'proposed', {}, {}, {}) RETURNING id",
            (
                alliance_id,
                kind,
                proposer,
                ally,
                until[0],
                until[1],
                int(public),
                json.dumps(members),
                json.dumps([proposer]),
                now,
            ),
        )

    async def pacts(self, alliance_id: int) -> list[PactRow]:
        rows = await self.db.rows(
            f"SELECT {PACT_COLUMNS} FROM pacts WHERE alliance_id = {{}} ORDER BY id", (alliance_id,)
        )
        return [self._pact(r) for r in rows]

    async def pact(self, pact_id: int) -> PactRow | None:
        rows = await self.db.rows(f"SELECT {PACT_COLUMNS} FROM pacts WHERE id = {{}}", (pact_id,))
        return self._pact(rows[0]) if rows else None

    async def set_pact(
        self,
        pact_id: int,
        *,
        expect: str,
        status: str | None = None,
        accepted: list[str] | None = None,
        made_at: int | None = None,
        ended_at: int | None = None,
    ) -> bool:
        """Change a pact still in status ``expect`` (and, with ``accepted``, whose acceptances are as read:
        two members accepting at once do not lose one)."""
        sets: list[str] = []
        args: list[Any] = []
        for column, value in (("status", status), ("made_at", made_at), ("ended_at", ended_at)):
            if value is not None:
                sets.append(column + " = {}")
                args.append(value)
        if accepted is not None:
            sets.append("accepted = {}")
            args.append(json.dumps(accepted))
        if not sets:
            return False
        sql = "UPDATE pacts SET " + ", ".join(sets) + " WHERE id = {} AND status = {}"
        return await self.db.update(sql, (*args, pact_id, expect)) == 1
