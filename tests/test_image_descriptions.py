"""Issue 38: the standings image and the recap posted in Discord are described for a screen reader
(an attachment's description), in the channel's language, within Discord's 1,024 characters: the
classification's title and every piece in order with its person and standing; the recap's race and,
on its last frame, where every piece is."""

from __future__ import annotations

import pytest

from bot.leagues.league import LeagueService
from bot.service.alt_text import ALT_LIMIT, listed
from bot.service.recap import described, recap
from bot.storage import League
from rules.game import Standing
from rules.i18n import Language, _, speaking
from rules.registry import find_game
from tests.support.ai_races import ai_race
from tests.test_renderer_text_kept import STANDING_PIECES


def standings_of(game_id: str) -> tuple[Standing, ...]:
    shown = find_game(game_id).showcase.standings
    return tuple(shown) or (
        Standing(STANDING_PIECES[game_id], "ann", 10, {"energy": 4, "time": 300}),
        Standing(STANDING_PIECES[game_id], "bea", 8, {"energy": 2, "time": 330}, eliminated=True),
    )


def league_of(game_id: str) -> League:
    return League(1, 1, 1, "Tour", game_id, 1, {}, "scheduled")


@pytest.mark.parametrize("language", ["en", "hu", "cs"])
@pytest.mark.parametrize("game_id", ["leader1", "hell-of-the-north", "formula-de-mini", "peloton"])
def test_a_standings_image_is_described_piece_by_piece_in_the_channels_language(
    game_id: str, language: Language
) -> None:
    game, gc = find_game(game_id), standings_of(game_id)
    names = {s.player: s.player.title() for s in gc}
    with speaking(language):
        alt = LeagueService._standings_alt(league_of(game_id), gc, 2, names)
        title = _("{league_name}: general classification after stage {number}", league_name="Tour", number=2)
        pieces = [game.narration.piece_name(None, s.piece) for s in gc]
    assert alt.startswith(f"{title}:") and len(alt) <= ALT_LIMIT
    at = [
        alt.index(f"{rank}. {piece} ({names[s.player]})")
        for rank, (piece, s) in enumerate(zip(pieces, gc, strict=True), 1)
    ]
    assert at == sorted(at)  # every piece, in the classification's order, with its person
    assert not any(s.piece in alt for s in gc if not s.piece.isdigit())  # never an id ("red-climber")
    if language != "en":
        assert "general classification" not in alt


def test_a_long_classification_keeps_whole_entries_and_counts_the_rest() -> None:
    rows = [f"{rank}. rider number {rank} (someone) leader, energy 10" for rank in range(1, 80)]
    alt = listed("Tour: general classification after stage 2:", rows)
    assert len(alt) <= ALT_LIMIT
    shown = sum(1 for row in rows if f"{row};" in alt)
    assert shown > 10 and alt.endswith(f"and {len(rows) - shown} more.")
    assert listed("Head:", ["a", "b"]) == "Head: a; b."


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("game_id", ["leader1", "peloton"])
def test_a_recap_says_where_every_piece_is_on_its_last_frame(game_id: str, language: Language) -> None:
    from rules.record import replay

    record, _result = ai_race(game_id, 4, 3)

    class Row:  # what ``recap`` reads of a stored race
        game = game_id

    row = Row()
    import bot.service.recap as recap_module

    original = recap_module.record_of
    recap_module.record_of = lambda race: record  # type: ignore[assignment]
    try:
        with speaking(language):
            gif, where = recap(row, "Race 1", turns=2)  # type: ignore[arg-type]
            animation = _("An animation of the boards of {race_title}, turn by turn, to the finish.", race_title="X")
            alt = described(animation, where)
            status = find_game(game_id).narration.status(replay(record).state)
    finally:
        recap_module.record_of = original
    assert gif[:6] == b"GIF89a" and alt.startswith(animation) and len(alt) <= ALT_LIMIT
    assert where and status and where[0] == status[0].replace("**", "").rstrip(".")
    assert where[0] in alt
    if language == "hu":
        assert "animation" not in alt and "last frame" not in alt
