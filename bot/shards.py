"""Which Discord servers this process owns: its shards out of how many (``DOMESTIQUE_SHARDS=0-3/8``).

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``. A process that
connects shards 0 to 3 of 8 sees only those servers, so it alone runs their timers, reminders
and league schedules: every process filters by the same formula and no coordinator is needed.
Ownership is computed from the guild id each time, so after a new shard count a server's
races, buttons and deadlines simply belong to whichever process owns it now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class BadShards(ValueError):
    """``DOMESTIQUE_SHARDS`` does not name shards out of a count."""


@dataclass(frozen=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    @classmethod
    def everything(cls) -> Shards:
        """One process owns every server (no sharding: the default)."""
        return cls((0,), 1)

    @classmethod
    def parse(cls, text: str) -> Shards:
        """``0-3/8``, ``5/8`` or ``0,2,4/8``: shard ids (ranges allowed) out of a shard count."""
        owned, slash, count_text = text.strip().partition("/")
        if not slash or not count_text.strip().isdigit() or int(count_text) < 1:
            raise BadShards(f"DOMESTIQUE_SHARDS={text!r}: write the shards this process owns out of how many, as 0-3/8")
        count = int(count_text)
        ids: set[int] = set()
        for part in owned.split(","):
            low, dash, high = part.strip().partition("-")
            if not low.isdigit() or (dash and not high.isdigit()):
                raise BadShards(f"DOMESTIQUE_SHARDS={text!r}: {part.strip()!r} is not a shard number or range")
            ids.update(range(int(low), int(high if dash else low) + 1))
        if not ids or max(ids) >= count:
            raise BadShards(f"DOMESTIQUE_SHARDS={text!r}: shard ids run from 0 to {count - 1}")
        return cls(tuple(sorted(ids)), count)

    @property
    def all(self) -> bool:
        return len(self.ids) == self.count

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        return self.all or self.shard_of(guild_id) in self.ids

    def where(self, column: str = "guild_id") -> tuple[str, tuple[Any, ...]]:
        """The same test as SQL (SQLite and PostgreSQL alike), for a query's WHERE clause."""
        if self.all:
            return "1 = 1", ()
        marks = ", ".join("{}" for _ in self.ids)
        return f"(({column} >> 22) % {{}}) IN ({marks})", (self.count, *self.ids)

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"
