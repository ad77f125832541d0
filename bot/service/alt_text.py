"""Descriptions of the images the bot posts, for a screen reader (Discord's attachment description,
at most ALT_LIMIT characters): a head, then as many whole items as fit, the rest counted."""

from __future__ import annotations

from collections.abc import Sequence

from rules.i18n import ngettext

ALT_LIMIT = 1024  # Discord's longest attachment description


def listed(head: str, items: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """``head`` then ``items`` joined by "; " and ended with a full stop; when they are too long for
    ``limit``, the first whole items that fit and how many are left ("and 3 more")."""
    for shown in range(len(items), -1, -1):
        rest = len(items) - shown
        parts = list(items[:shown])
        if rest:
            parts.append(ngettext("and {n} more", "and {n} more", rest))
        text = f"{head} {'; '.join(parts)}.".strip() if parts else head
        if len(text) <= limit:
            return text
    return head[: limit - 1].rsplit(" ", 1)[0] + "…"
