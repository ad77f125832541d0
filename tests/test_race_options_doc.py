"""docs/race-options.md names every race option of every game, with each of its values (a host reads
there what they may choose; a new option left out of it fails here)."""

from __future__ import annotations

from pathlib import Path

from rules.registry import find_game, game_ids

DOC = (Path(__file__).resolve().parents[1] / "docs" / "race-options.md").read_text(encoding="utf-8")


def test_every_race_option_and_value_is_in_the_doc() -> None:
    rows = {
        line.split("|")[1].strip() + "/" + line.split("|")[2].strip().split()[0]: line
        for line in DOC.splitlines()
        if line.startswith("| ") and "`" in line
    }
    missing = []
    for game_id in game_ids():
        game = find_game(game_id)
        for option in game.race_options:
            row = rows.get(f"{game.title}/`{option.name}`")
            if row is None:
                missing.append(f"{game.title}: {option.name}")
                continue
            shown = option.values if len(option.values) < 5 else (option.values[0], option.values[-1])
            missing += [f"{game.title}: {option.name}={v}" for v in shown if f"`{v}`" not in row]
    assert missing == []
