"""``domestique db copy --from URL --to URL``: move an installation to another database, checked by replay.

The source is read in one transaction (a consistent picture even while the bot runs on it);
the destination must be empty (a fresh database, migrated on open) and is written in one
transaction, with every row's id kept, so buttons and league links still point at the right
races. Then every race is loaded from both sides and replayed: the copy is accepted only if
each race's record, and the state its replay reaches, is the same on both.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.service.core import record_of
from bot.storage import RaceRow
from bot.storage.postgres import PostgresStorage, shown
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import storage_for
from rules.record import replay

# every table, parents first; a new table (a new migration) is added here too
TABLES: list[tuple[str, str, str]] = [
    (
        "races",
        "id, guild_id, channel_id, host_id, game, status, version, lobby, envelope, deadline, reminded, created, "
        "league_id, stage",
        "id",
    ),
    ("actions", "race_id, idx, action, user_id, automatic", "race_id, idx"),
    ("snapshots", "race_id, version, state", "race_id"),
    ("leagues", "id, guild_id, organiser_id, name, game, channel_id, settings, status, created", "id"),
    ("league_members", "league_id, player, user_id, name, team, kinds, removed", "rowid"),
    ("league_stages", "league_id, number, track, due, status, race_id, channel_id, result", "league_id, number"),
    ("alliances", "id, race_id, proposer, partner, status, thread_id, created", "id"),
    ("people", "guild_id, user_id, notify", "guild_id, user_id"),
    ("notes", "id, guild_id, user_id, text, created", "id"),
    ("premoves", "race_id, player, kind, piece, action, label, detail, user_id", "race_id, player"),
    ("standing_orders", "race_id, player, piece, kind, number, until, until_number", "race_id, player, piece, kind"),
    ("clocks", "race_id, player, budget, used, asked", "race_id, player"),
    ("pace_times", "id, race_id, player, seconds, automatic, idx", "id"),
]


class CopyFailed(Exception):
    """The copy was refused or did not check out; one line says why."""


def _storage(url: str) -> SqliteStorage:
    storage = storage_for(url)
    assert isinstance(storage, SqliteStorage)  # both backends share its SQL helpers
    return storage


async def _read_all(source: SqliteStorage) -> dict[str, list[tuple[Any, ...]]]:
    begin = "BEGIN ISOLATION LEVEL REPEATABLE READ" if isinstance(source, PostgresStorage) else "BEGIN"
    out: dict[str, list[tuple[Any, ...]]] = {}
    async with source._guard:
        await source._exec(begin)
        try:
            for table, columns, order in TABLES:
                async with source._conn.execute(f"SELECT {columns} FROM {table} ORDER BY {order}") as cur:
                    out[table] = [tuple(row) for row in await cur.fetchall()]
        finally:
            await source._exec("COMMIT")
    return out


def _float_columns(columns: list[str]) -> set[int]:
    """Times are REAL in SQLite, which may hand back an int: PostgreSQL wants a float there."""
    times = {"deadline", "created", "due"}
    return {i for i, c in enumerate(columns) if c in times}


async def _write_all(target: SqliteStorage, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    statements: list[tuple[str, tuple[Any, ...]]] = []
    for table, column_text, _ in TABLES:
        columns = [c.strip() for c in column_text.split(",")]
        floats = _float_columns(columns)
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({column_text}) VALUES ({marks})"
        for row in rows[table]:
            values = tuple(float(v) if i in floats and v is not None else v for i, v in enumerate(row))
            statements.append((sql, values))
    await target._transaction(statements)
    if isinstance(target, PostgresStorage):
        await target.reset_ids()


async def _tables(storage: SqliteStorage) -> set[str]:
    if isinstance(storage, PostgresStorage):
        rows = await storage._rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    else:
        rows = await storage._rows("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(r[0]) for r in rows} - {"schema_version", "sqlite_sequence"}


async def _is_empty(storage: SqliteStorage) -> bool:
    counts = [await storage._rows(f"SELECT COUNT(*) FROM {table}") for table, _, _ in TABLES]
    return all(int(c[0][0]) == 0 for c in counts)


def _replayed(race: RaceRow) -> tuple[int, str]:
    """How far a race's record replays, and the public view of the state it reaches."""
    if race.envelope is None:  # a lobby: nothing to replay
        return 0, json.dumps(race.lobby, sort_keys=True)
    result = replay(record_of(race))
    view = result.game.rules.public_view(result.state)
    return result.applied, json.dumps(view, sort_keys=True, default=str)


async def copy(source_url: str, target_url: str) -> str:
    source, target = _storage(source_url), _storage(target_url)
    await source.open()
    try:
        await target.open()
        try:
            missed = await _tables(source) - {table for table, _, _ in TABLES}
            if missed:
                raise CopyFailed(f"table {', '.join(sorted(missed))} would not be copied: add it to bot/cli/db.py")
            if not await _is_empty(target):
                raise CopyFailed(f"{shown(target_url)} already holds races or leagues: copy into an empty database")
            rows = await _read_all(source)
            await _write_all(target, rows)
            checked = 0
            for race_id, *_rest in rows["races"]:
                theirs, ours = await source.race(race_id), await target.race(race_id)
                if theirs is None or ours is None or theirs != ours or _replayed(theirs) != _replayed(ours):
                    raise CopyFailed(f"race {race_id} differs after the copy: nothing should use {shown(target_url)}")
                checked += 1
        finally:
            await target.close()
    finally:
        await source.close()
    return (
        f"copied {len(rows['races'])} races ({len(rows['actions'])} decisions), {len(rows['leagues'])} leagues, "
        f"{len(rows['alliances'])} alliances to {shown(target_url)}; all {checked} races replay the same on both"
    )


def main(source_url: str, target_url: str) -> int:
    import sys

    try:
        print(asyncio.run(copy(source_url, target_url)))
    except CopyFailed as exc:
        print(f"domestique db copy: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"domestique db copy: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    return 0
