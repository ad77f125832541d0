"""``domestique demo --alliances``: AI players ally and make each of the game's pacts; the channel's
transcript shows the proposals, the pacts, the choices marked as breaking one and the ledger at the finish."""

from __future__ import annotations

from pathlib import Path

from bot.cli.demo import run_demo
from rules.registry import find_game


async def test_a_demo_race_with_an_alliance_shows_its_pacts_marks_and_ledger(tmp_path: Path) -> None:
    transcript = await run_demo(tmp_path, game="leader1", players=3, alliances=True)
    text = (tmp_path / "channel.md").read_text(encoding="utf-8")
    assert "\n\n".join(transcript) + "\n" == text
    assert "(/alliance invite ai:ai1) blue AI 1 joins the alliance yellow Demo host + blue AI 1." in transcript
    for kind in find_game("leader1").pacts.kinds:  # each of the game's pact kinds is made
        assert f"(in the alliance's private thread) Pact made: {kind.name}, until the end." in transcript
    assert any(line.startswith("(on its button) ") and "— breaks no chase with AI 1" in line for line in transcript)
    asked = [line for line in transcript if line.startswith("(asked of the host alone) ")]
    assert asked and all(line.endswith("Take it anyway? [Take it anyway]") for line in asked)
    assert any(" broken on turn " in line and "private thread" in line for line in transcript)
    ledger = [line for line in transcript if "The ledger of your pacts:" in line]
    assert len(ledger) == 1 and "relay: " in ledger[0]
    assert transcript.index(ledger[0]) > max(i for i, line in enumerate(transcript) if "(asked of" in line)


async def test_a_demo_league_carries_its_alliance_and_scores_it(tmp_path: Path) -> None:
    from bot.cli.demo import run_league_demo

    channels = await run_league_demo(tmp_path, game="leader1", stages=2, players=3)
    assert "Alliances riding on from the last stage: yellow Demo host + blue AI 1." in channels["stage-2.md"]
    standings = channels["league.md"][-1]
    assert "team classification after stage 2" in standings and "\n1. yellow Demo host + blue AI 1 — " in standings
    assert "pacts kept " in standings  # each member's pacts kept and broken, a column of the standings
    assert sum(line.startswith("The ledger of your pacts:") for line in channels["alliance-thread.md"]) == 2
    assert {p.name for p in tmp_path.glob("*.png")} >= {"standings-2.png", "teams-1.png", "teams-2.png"}
