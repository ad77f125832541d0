"""What the channels are owed: posts Discord refused or could not take yet, kept until they are
delivered (``bot/discord_layer/outbox.py``), and races that wait because their channel cannot be
told (deleted, the bot removed from its server, permissions revoked).

A row is one message for one channel, in order: a channel's rows are delivered oldest first, and a
newer outcome for a channel that is owed something queues behind it. The row keeps everything the
message needs (its text, who it mentions, the board's bytes, a file) and, for a post that carried a
prompt, the race's version: the prompt is drawn again at delivery when the race still stands there.
``nonce`` is the message's own: Discord makes a re-sent message with the same nonce only once.
Rows are written by any process of a shard cluster and delivered by the one that owns the
channel's server (``shards``). The SQL runs on SQLite and PostgreSQL (``schema.MIGRATIONS``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.shards import Shards
from bot.storage.database import Database

REFRESH = "refresh"  # a row that asks for the race's board and live prompt as they are when delivered
POST = "post"  # a row that is one message, as it was made


@dataclass(frozen=True)
class OwedPost:
    """One message a channel is owed (``id`` 0 until it is stored)."""

    channel_id: int
    guild_id: int
    content: str
    nonce: str
    kind: str = POST
    race_id: int | None = None
    version: int | None = None  # the race's version whose prompt goes with this post (None: no prompt)
    mentions: tuple[int, ...] = ()
    image: bytes | None = None
    image_name: str = "board.png"
    image_alt: str = ""
    file_name: str | None = None
    file: bytes | None = None
    attempts: int = 0
    due: float = 0.0
    failure: str = ""
    id: int = 0


@dataclass(frozen=True)
class Pause:
    """A race that waits: ``reason`` one of ``PAUSE_REASONS``; ``told`` once its host was told."""

    race_id: int
    reason: str
    since: float
    told: bool


PAUSE_REASONS = ("channel-gone", "bot-removed", "forbidden")
_COLUMNS = (
    "id, channel_id, guild_id, kind, race_id, version, content, mentions, image, image_name, file_name, file, "
    "nonce, attempts, due, failure, image_alt"
)


def _owed(row: Any) -> OwedPost:
    return OwedPost(
        id=int(row[0]),
        channel_id=int(row[1]),
        guild_id=int(row[2]),
        kind=str(row[3]),
        race_id=None if row[4] is None else int(row[4]),
        version=None if row[5] is None else int(row[5]),
        content=str(row[6]),
        mentions=tuple(int(u) for u in json.loads(row[7])),
        image=None if row[8] is None else bytes(row[8]),
        image_name=str(row[9] or "board.png"),
        file_name=None if row[10] is None else str(row[10]),
        file=None if row[11] is None else bytes(row[11]),
        nonce=str(row[12]),
        attempts=int(row[13]),
        due=float(row[14]),
        failure=str(row[15] or ""),
        image_alt=str(row[16] or ""),
    )


class OutboxTables:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def owe(self, posts: list[OwedPost], now: float) -> None:
        """Keep ``posts`` (in order) until they are delivered."""
        for post in posts:
            await self.db.update(
                "INSERT INTO outbox (channel_id, guild_id, kind, race_id, version, content, mentions, image, "
                "image_name, file_name, file, nonce, attempts, due, failure, created, image_alt) "
                "VALUES ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})",
                (
                    post.channel_id,
                    post.guild_id,
                    post.kind,
                    post.race_id,
                    post.version,
                    post.content,
                    json.dumps(list(post.mentions)),
                    post.image,
                    post.image_name,
                    post.file_name,
                    post.file,
                    post.nonce,
                    post.attempts,
                    post.due,
                    post.failure,
                    now,
                    post.image_alt,
                ),
            )

    async def owed(self, shards: Shards | None = None) -> list[OwedPost]:
        """Every post owed to the channels of the servers in ``shards`` (all: None), oldest first."""
        owned, args = (shards or Shards.everything()).where()
        rows = await self.db.rows(f"SELECT {_COLUMNS} FROM outbox WHERE {owned} ORDER BY id", args)
        return [_owed(r) for r in rows]

    async def owed_channels(self) -> set[int]:
        """The channels owed something (their newer posts queue behind)."""
        return {int(r[0]) for r in await self.db.rows("SELECT DISTINCT channel_id FROM outbox")}

    async def outbox_depth(self) -> int:
        rows = await self.db.rows("SELECT COUNT(*) FROM outbox")
        return int(rows[0][0]) if rows else 0

    async def delivered(self, post_id: int) -> None:
        await self.db.update("DELETE FROM outbox WHERE id = {}", (post_id,))

    async def retry_later(self, post_id: int, due: float, failure: str) -> None:
        """Delivering ``post_id`` failed (``failure``, one line): tried again at ``due``."""
        await self.db.update(
            "UPDATE outbox SET attempts = attempts + 1, due = {}, failure = {} WHERE id = {}",
            (due, failure[:300], post_id),
        )

    async def forget_owed(self, channel_id: int) -> int:
        """Drop what a channel is owed (it is gone); how many posts were dropped."""
        return await self.db.update("DELETE FROM outbox WHERE channel_id = {}", (channel_id,))

    # ---- races that wait

    async def pause(self, race_id: int, reason: str, now: float) -> bool:
        """``race_id`` waits for ``reason``; False when it already waited (for any reason)."""
        changed = await self.db.update(
            "INSERT INTO pauses (race_id, reason, since, told) VALUES ({}, {}, {}, 0) ON CONFLICT(race_id) DO NOTHING",
            (race_id, reason, now),
        )
        return changed == 1

    async def told_of_pause(self, race_id: int) -> bool:
        """Mark the pause's host told; False when somebody already was (tell once)."""
        return await self.db.update("UPDATE pauses SET told = 1 WHERE race_id = {} AND told = 0", (race_id,)) == 1

    async def unpause(self, race_id: int) -> Pause | None:
        """``race_id`` goes on; the pause it was in, if any."""
        found = await self.pause_of(race_id)
        if found is not None:
            await self.db.update("DELETE FROM pauses WHERE race_id = {}", (race_id,))
        return found

    async def pause_of(self, race_id: int) -> Pause | None:
        rows = await self.db.rows("SELECT race_id, reason, since, told FROM pauses WHERE race_id = {}", (race_id,))
        return Pause(int(rows[0][0]), str(rows[0][1]), float(rows[0][2]), bool(rows[0][3])) if rows else None

    async def paused_races(self) -> dict[int, Pause]:
        rows = await self.db.rows("SELECT race_id, reason, since, told FROM pauses")
        return {int(r[0]): Pause(int(r[0]), str(r[1]), float(r[2]), bool(r[3])) for r in rows}

    async def push_deadline(self, race_id: int, by: float) -> None:
        """The race's turn timer stood still while it waited: its deadline moves on by ``by`` seconds."""
        await self.db.update(
            "UPDATE races SET deadline = deadline + {} WHERE id = {} AND deadline IS NOT NULL", (by, race_id)
        )

    async def move_race(self, race_id: int, channel_id: int) -> None:
        """The race goes on in ``channel_id`` (its own was deleted: ``/race resume``)."""
        await self.db.update("UPDATE races SET channel_id = {} WHERE id = {}", (channel_id, race_id))
