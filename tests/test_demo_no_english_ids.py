"""Issue 38: every game's demo played in Hungarian and Czech shows none of the English ids the code keeps
(AI seats' stored names, option names and values, colour, level and rider-kind ids, stage slugs, a
record path) where a player reads: each has its words in the reader's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli.demo import run_demo
from rules.i18n import LANGUAGES, Language
from rules.registry import find_game

GAMES = ("leader1", "hell-of-the-north", "formula-de-mini", "peloton")
# the games' titles are names (never translated), and the demo's host is called so
NAMES = re.compile(r"Leader 1: Hell of the North|Leader 1|Formula Dé Mini|Peloton|Demo host|<[@#t][^>]*>|`[^`]*`")
# the English ids and words a player must not meet in Hungarian or Czech text
IDS = re.compile(
    r"\bAI \d+\b|\$\.\w+|\bstart_order\b|\bdrawn\b|\bweather\b|\b(easy|normal|strong)\b"
    r"|\b(yellow|blue|red|green|grey|orange|black|white)\b|\b(rouleur|climber|sprinter|tandem)\b"
    r"|\bturns?\b|\bStage \d"
)


def english_ids(line: str, slugs: set[str]) -> list[str]:
    plain = NAMES.sub(" ", line)
    found = [m.group(0) for m in IDS.finditer(plain)]
    return found + [w for w in re.findall(r"(?<![/:=\w-])[a-z]+(?:-[a-z0-9]+)*\b", plain) if w in slugs]


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", GAMES)
async def test_the_demo_shows_no_english_id(tmp_path: Path, game: str, language: Language) -> None:
    slugs = set(find_game(game).tracks.names())
    transcript = await run_demo(tmp_path, game=game, players=3, language=language)
    left = [(line[:100], found) for line in transcript for found in [english_ids(line, slugs)] if found]
    assert left == [], left[:8]


def test_the_scan_finds_each_kind_of_id() -> None:
    slugs = {"first-race"}
    assert english_ids("**1. verseny · first-race** rajtol!", slugs) == ["first-race"]
    assert english_ids("2. modrý vrchař (AI 1) 11. kolo", slugs) == ["AI 1"]
    assert english_ids("Volby závodu: start_order: drawn.", slugs) == ["start_order", "drawn"]
    assert english_ids("Leader 1, `/závod nový trať:first-race`, Demo host", slugs) == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
async def test_the_alliance_demo_shows_no_english_id(tmp_path: Path, language: Language) -> None:
    """The alliance's lines (its members by colour, the pacts, the ledger) name colours in the reader's words."""
    slugs = set(find_game("leader1").tracks.names())
    transcript = await run_demo(tmp_path, game="leader1", players=3, language=language, alliances=True)
    left = [(line[:100], found) for line in transcript for found in [english_ids(line, slugs)] if found]
    assert left == [], left[:8]
