"""What ``domestique db copy`` checks before it opens anything: the source exists and is an intact
Domestique database, the destination file can be made; each problem is one line (``CopyFailed``).

The checks only read: a typo in ``--from`` must not create a file (SQLite makes one on connect)
or a schema (opening a storage migrates it), and a damaged source is found before the
destination is touched.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.storage.schema import MIGRATIONS
from bot.storage.url import is_postgres, shown, sqlite_path

HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


class CopyFailed(Exception):
    """The copy was refused or did not check out; one line says why."""


def said(exc: BaseException, secrets: tuple[str, ...] = ()) -> str:
    """An error in one line, with any password of ``secrets`` (database URLs) masked."""
    text = " ".join(str(exc).split()) or "no detail"
    for url in secrets:
        text = text.replace(url, shown(url))
    return f"{type(exc).__name__}: {text}"


async def check_source(url: str) -> None:
    """The source exists and is a Domestique database (read only)."""
    if is_postgres(url):
        await _check_postgres_source(url)
    else:
        _check_sqlite_source(sqlite_path(url))


def _check_sqlite_source(path: str) -> None:
    file = Path(path)
    if file.is_dir():
        raise CopyFailed(f"the source {path} is a folder, not a database file")
    if not file.exists():
        raise CopyFailed(f"the source {path} does not exist: check the path after --from")
    _check_sqlite_file(path, "the source", domestique_only=True)


def check_target_file(path: str) -> None:
    """An SQLite destination: its folder exists, and a file already there is a database (never overwritten)."""
    file = Path(path)
    if file.is_dir():
        raise CopyFailed(f"the destination {path} is a folder, not a database file")
    folder = file.parent
    if not folder.is_dir():
        raise CopyFailed(f"the destination {path} is in no such folder ({folder}): create the folder first")
    if file.exists() and file.stat().st_size > 0:
        _check_sqlite_file(path, "the destination", domestique_only=True)


def _check_sqlite_file(path: str, role: str, *, domestique_only: bool) -> None:
    """An SQLite file (its header), intact (SQLite's own integrity check), holding Domestique's tables."""
    try:
        with open(path, "rb") as f:
            header = f.read(len(HEADER))
    except OSError as exc:
        raise CopyFailed(f"cannot read {role} {path} ({said(exc)})") from None
    if header and header != HEADER:
        raise CopyFailed(f"{role} {path} is not an SQLite database (its first bytes are not SQLite's)")
    try:
        # read-write (the file exists: mode=rw never makes one), so that closing the last connection
        # of a WAL database removes the -wal and -shm files it needed, as the bot's own close does
        conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=rw", uri=True)
    except sqlite3.Error as exc:
        raise CopyFailed(f"cannot open {role} {path} ({said(exc)})") from None
    try:
        found = conn.execute("PRAGMA integrity_check").fetchall()
        if [tuple(r) for r in found] != [("ok",)]:
            first = " ".join(str(found[0][0]).split()) if found else "no answer"
            raise CopyFailed(f"{role} {path} is damaged (SQLite's integrity check: {first})")
        tables = {str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        schema = (
            conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] if "schema_version" in tables else 0
        )
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc):
            raise CopyFailed(f"{role} {path} is not an SQLite database ({said(exc)})") from None
        raise CopyFailed(f"{role} {path} is damaged ({said(exc)})") from None
    finally:
        conn.close()
    if domestique_only and not {"schema_version", "races"} <= tables:
        raise CopyFailed(f"{role} {path} is not a Domestique database (it has no races table)")
    _check_schema(f"{role} {path}", schema)


def _check_schema(what: str, schema: object) -> None:
    if isinstance(schema, int) and schema > len(MIGRATIONS):
        raise CopyFailed(
            f"{what} was written by a newer Domestique (schema {schema}; this one knows {len(MIGRATIONS)}): "
            "copy it with that version"
        )


async def _check_postgres_source(url: str) -> None:
    try:
        conn = await asyncpg.connect(url)
    except Exception as exc:  # no such database or role, a refused login, no server
        raise CopyFailed(f"cannot open the source {shown(url)} ({said(exc, (url,))})") from None
    try:
        found = await conn.fetchval(
            "SELECT to_regclass('schema_version') IS NOT NULL AND to_regclass('races') IS NOT NULL"
        )
        schema = await conn.fetchval("SELECT MAX(version) FROM schema_version") if found else 0
    finally:
        await conn.close()
    if not found:
        raise CopyFailed(f"the source {shown(url)} is not a Domestique database (it has no races table)")
    _check_schema(f"the source {shown(url)}", schema)
