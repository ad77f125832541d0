"""A database URL as it may be printed, without its password: below ``url.py`` (which picks a
storage from a URL) and the storages that name their database in messages."""

from __future__ import annotations

import re


def shown(url: str) -> str:
    """A database URL as it may be printed: its password, if any, as ``***`` (even in a malformed URL)."""
    url = re.sub(r"([?&]password=)[^&#]*", r"\1***", url)  # asyncpg also takes ?password=
    scheme, sep, rest = url.partition("://")
    userinfo, at, after = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{after}"
