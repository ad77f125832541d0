"""Every record in the corpus replays to the state the release that played it gave it (issue 40).

The corpus (tests/records/corpus/, README.md beside it) holds AI races played by earlier releases of
this repository, each with that release's replay output (less its events). None of those releases
knew rules versions, so a record names none: it is replayed as the bot replays a stored race, under
the version that was the newest on the day it was played (``dated``), and once more naming that
version outright, as a record exported since does.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from rules.record import Record, check_expectations, dated, parse_record, replay, rules_of

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*.json"))


def _load(path: Path) -> tuple[Record, float, dict[str, object]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    played = datetime.fromisoformat(data["played"]["date"]).timestamp()
    return parse_record(data["record"]), played, data["final"]


def test_the_corpus_covers_every_game_and_release() -> None:
    games = {_load(path)[0].game for path in FILES}
    releases = {path.name[:18] for path in FILES}
    assert games == {"leader1", "hell-of-the-north", "formula-de-mini", "peloton"}
    assert len(releases) >= 4, releases


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_stored_record_replays_to_the_state_it_had(path: Path) -> None:
    record, played, final = _load(path)
    stored = dated(record, played)  # a race from before versions, stored with the day it was created
    exported = record.under(stored.rules)  # the same race exported since: it names its version
    for copy in (stored, exported, parse_record(exported.to_json())):
        result = replay(copy)
        view = result.game.rules.public_view(result.state)
        problems = check_expectations(final, view, result.error_at)
        assert not problems, f"{path.name} under the rules of {rules_of(copy).name}: {problems[:3]}"
