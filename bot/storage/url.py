"""Which storage a URL names: ``sqlite:///file.db`` (or a bare path) or ``postgresql://...``."""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from bot.storage import Storage
from bot.storage.redact import shown

__all__ = ["BadDatabaseUrl", "check_url", "configured_url", "is_postgres", "shown", "sqlite_path", "storage_for"]


class BadDatabaseUrl(ValueError):
    """A URL that names neither an SQLite file nor a PostgreSQL database."""


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """``sqlite:///x.db`` is ``x.db`` (relative), ``sqlite:////srv/x.db`` is ``/srv/x.db``; a bare path is itself.

    A path that names no file is refused: SQLite would give each connection a private temporary
    (or in-memory) database, where the bot's second connection finds no table."""
    path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url
    if "://" in url and not url.startswith("sqlite:///"):
        raise BadDatabaseUrl(
            f"{url.split('://', 1)[0]}:// is not a database Domestique knows: use sqlite:/// or postgresql://"
        )
    if not path.strip():
        said = url if url.strip() else "an empty database path"
        raise BadDatabaseUrl(f"{said} names no file: name one, as sqlite:///domestique.db (or domestique.db)")
    if path.strip() == ":memory:" or path.startswith("file::memory:"):
        raise BadDatabaseUrl(f"{url} is a database in memory, lost at exit and not shared: name a file")
    return path


def check_url(url: str) -> None:
    """Refuse a URL that names no usable database, in one line (``BadDatabaseUrl``) that shows no password."""
    if not is_postgres(url):
        sqlite_path(url)
        return
    try:
        parts = urlsplit(url)
        if "," not in parts.netloc:  # asyncpg also takes several hosts, each with its port: h1:5432,h2:5433
            _ = parts.port  # a port that is not a number, or out of range
    except ValueError as exc:
        raise BadDatabaseUrl(f"{shown(url)} is not a valid PostgreSQL URL ({exc})") from None


def storage_for(url: str) -> Storage:
    """The storage behind ``url`` (not opened yet); ``BadDatabaseUrl`` if it names none."""
    check_url(url)
    if is_postgres(url):
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(url)
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(sqlite_path(url))


def configured_url(environ: dict[str, str] | None = None) -> str:
    """``DATABASE_URL`` if set, else the SQLite file ``DOMESTIQUE_DB`` (default ``domestique.db``)."""
    env = os.environ if environ is None else environ
    url = env.get("DATABASE_URL", "").strip()
    return url or env.get("DOMESTIQUE_DB", "domestique.db")
