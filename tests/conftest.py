"""Shared fixtures: the Discord bot on a real SQLite file, driven offline by simcord."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bot.db")


@pytest.fixture
def simcord_bot(db_path: str):
    from bot.app import DomestiqueBot

    return DomestiqueBot(db_path)
