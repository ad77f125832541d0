"""Which storage a URL names: ``sqlite:///file.db`` (or a bare path) or ``postgresql://...``."""

from __future__ import annotations

import os

from bot.storage import Storage


class BadDatabaseUrl(ValueError):
    """A URL that names neither an SQLite file nor a PostgreSQL database."""


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """``sqlite:///x.db`` is ``x.db`` (relative), ``sqlite:////srv/x.db`` is ``/srv/x.db``; a bare path is itself."""
    if url.startswith("sqlite:///"):
        return url[len("sqlite:///") :]
    if "://" in url:
        raise BadDatabaseUrl(
            f"{url.split('://', 1)[0]}:// is not a database Domestique knows: use sqlite:/// or postgresql://"
        )
    return url


def storage_for(url: str) -> Storage:
    """The storage behind ``url`` (not opened yet)."""
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
