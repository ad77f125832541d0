"""Shared fixtures: the Discord bot on a real SQLite file, driven offline by simcord."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bot.db")


@pytest.fixture
def simcord_bot(db_path: str):
    import random

    from bot.discord_layer.app import DomestiqueBot

    seeds = random.Random(2026)  # the same races every run (the bot itself uses unguessable seeds)
    return DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63))
