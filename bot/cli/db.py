"""``domestique db copy --from URL --to URL``: move an installation to another database, checked by replay.

The source is read in one transaction (a consistent picture even while the bot runs on it);
the destination must be empty (a fresh database, migrated on open) and is written in one
transaction, with every row's id kept, so buttons and league links still point at the right
races. Then every race is loaded from both sides and replayed: the copy is accepted only if
each race's record, and the state its replay reaches, is the same on both.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from typing import Any

from bot.cli.db_checks import CopyFailed, check_source, check_target_file, said
from bot.service.common import record_of
from bot.storage import NewerSchema, RaceRow
from bot.storage.postgres import PostgresStorage
from bot.storage.sql import SqlStorage
from bot.storage.url import BadDatabaseUrl, check_url, is_postgres, shown, sqlite_path, storage_for
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
    ("alliances", "id, race_id, proposer, partner, status, thread_id, created, name", "id"),
    ("alliance_members", "alliance_id, player, status, invited_by, since", "alliance_id, player"),
    (
        "pacts",
        "id, alliance_id, kind, proposer, ally, until_unit, until_value, public, status, members, accepted, "
        "made_at, ended_at, created",
        "id",
    ),
    ("people", "guild_id, user_id, notify", "guild_id, user_id"),
    ("notes", "id, guild_id, user_id, text, created", "id"),
    ("languages", "kind, ref_id, seen, chosen", "kind, ref_id"),
    ("premoves", "race_id, player, kind, piece, action, label, detail, user_id", "race_id, player"),
    ("standing_orders", "race_id, player, piece, kind, number, until, until_number", "race_id, player, piece, kind"),
    ("clocks", "race_id, player, budget, used, asked", "race_id, player"),
    ("pace_times", "id, race_id, player, seconds, automatic, idx", "id"),
    ("web_links", "kind, ref_id, token", "kind, ref_id"),
    ("away", "user_id, until, since", "user_id"),
    ("live_prompts", "channel_id, message_id, content", "channel_id"),
    (
        "outbox",
        "id, channel_id, guild_id, kind, race_id, version, content, mentions, image, image_name, image_alt, "
        "file_name, file, nonce, attempts, due, failure, created",
        "id",
    ),
    ("pauses", "race_id, reason, since, told", "race_id"),
]
NOT_COPIED = {"health"}  # each running process's last report: the new database's processes write their own


def _storage(url: str) -> SqlStorage:
    storage = storage_for(url)
    assert isinstance(storage, SqlStorage)  # both databases' storage: the same SQL helpers
    return storage


async def _read_all(source: SqlStorage) -> dict[str, list[tuple[Any, ...]]]:
    begin = "BEGIN ISOLATION LEVEL REPEATABLE READ" if isinstance(source, PostgresStorage) else "BEGIN"
    out: dict[str, list[tuple[Any, ...]]] = {}
    db = source.db
    async with db.guard:
        await db.run(begin)
        try:
            for table, columns, order in TABLES:
                rows = await db.fetch(f"SELECT {columns} FROM {table} ORDER BY {order}")
                out[table] = [tuple(row) for row in rows]
        finally:
            await db.run("COMMIT")
    return out


def _float_columns(columns: list[str]) -> set[int]:
    """Times are REAL in SQLite, which may hand back an int: PostgreSQL wants a float there."""
    times = {"deadline", "created", "due", "since"}
    return {i for i, c in enumerate(columns) if c in times}


async def _write_all(target: SqlStorage, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    statements: list[tuple[str, tuple[Any, ...]]] = []
    for table, column_text, _ in TABLES:
        columns = [c.strip() for c in column_text.split(",")]
        floats = _float_columns(columns)
        marks = ", ".join("{}" for _ in columns)
        sql = f"INSERT INTO {table} ({column_text}) VALUES ({marks})"
        for row in rows[table]:
            values = tuple(float(v) if i in floats and v is not None else v for i, v in enumerate(row))
            statements.append((sql, values))
    await target.db.transaction(statements)
    if isinstance(target, PostgresStorage):
        await target.reset_ids()


async def _tables(storage: SqlStorage) -> set[str]:
    if isinstance(storage, PostgresStorage):
        rows = await storage.db.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    else:
        rows = await storage.db.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {str(r[0]) for r in rows} - {"schema_version", "sqlite_sequence"}


async def _is_empty(storage: SqlStorage) -> bool:
    counts = [await storage.db.rows(f"SELECT COUNT(*) FROM {table}") for table, _, _ in TABLES]
    return all(int(c[0][0]) == 0 for c in counts)


def _replayed(race: RaceRow) -> tuple[int, str]:
    """How far a race's record replays, and the public view of the state it reaches."""
    if race.envelope is None:  # a lobby: nothing to replay
        return 0, json.dumps(race.lobby, sort_keys=True)
    result = replay(record_of(race))
    view = result.game.rules.public_view(result.state)
    return result.applied, json.dumps(view, sort_keys=True, default=str)


async def copy(source_url: str, target_url: str) -> str:
    for url, side in ((source_url, "--from"), (target_url, "--to")):
        try:
            check_url(url)
        except BadDatabaseUrl as exc:
            raise CopyFailed(f"{side}: {exc}") from None
    where, target_name = shown(source_url), shown(target_url)
    secrets = (source_url, target_url)
    await check_source(source_url)  # read only: it exists and is a Domestique database, intact
    target_file = None if is_postgres(target_url) else sqlite_path(target_url)
    if target_file is not None:
        check_target_file(target_file)
    source = _storage(source_url)
    await _opened(source, f"cannot open the source {where}", secrets)
    try:
        try:
            missed = await _tables(source) - {table for table, _, _ in TABLES} - NOT_COPIED
            if missed:
                raise CopyFailed(f"table {', '.join(sorted(missed))} would not be copied: add it to bot/cli/db.py")
            # every row read and every race replayed before the destination is touched
            rows = await _read_all(source)
            races = {int(row[0]): await source.race(int(row[0])) for row in rows["races"]}
            replayed = {race_id: _replayed(race) for race_id, race in races.items() if race is not None}
        except CopyFailed:
            raise
        except Exception as exc:
            raise CopyFailed(f"cannot read the source {where} ({said(exc, secrets)})") from None
        made = target_file is not None and not os.path.exists(target_file)
        target = _storage(target_url)
        try:
            await _opened(target, f"cannot open the destination {target_name}", secrets)
            try:
                if not await _is_empty(target):
                    raise CopyFailed(f"{target_name} already holds races or leagues: copy into an empty database")
                await _write_all(target, rows)
                for race_id, race in races.items():
                    ours = await target.race(race_id)
                    if race is None or ours is None or race != ours or replayed[race_id] != _replayed(ours):
                        raise CopyFailed(f"race {race_id} differs after the copy: nothing should use {target_name}")
            except CopyFailed:
                raise
            except Exception as exc:  # a full disk, a lost connection: the write is one transaction
                raise CopyFailed(f"cannot write the destination {target_name} ({said(exc, secrets)})") from None
            finally:
                await target.close()
        except BaseException:
            if made and target_file is not None:  # a file this copy made is not left half written
                for suffix in ("", "-wal", "-shm", "-journal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(target_file + suffix)
            raise
    finally:
        await source.close()
    return (
        f"copied {len(rows['races'])} races ({len(rows['actions'])} decisions), {len(rows['leagues'])} leagues, "
        f"{len(rows['alliances'])} alliances to {target_name}; all {len(races)} races replay the same on both"
    )


async def _opened(storage: SqlStorage, failed: str, secrets: tuple[str, ...]) -> None:
    """Open (and migrate) ``storage``; a database that cannot be opened is one line."""
    try:
        await storage.open()
    except NewerSchema as exc:
        raise CopyFailed(str(exc)) from None
    except Exception as exc:  # no such database or role, a refused login, an unwritable folder
        raise CopyFailed(f"{failed} ({said(exc, secrets)})") from None


def main(source_url: str, target_url: str) -> int:
    import sys

    try:
        print(asyncio.run(copy(source_url, target_url)))
    except CopyFailed as exc:
        print(f"domestique db copy: {exc}", file=sys.stderr)
        return 2
    return 0
