"""Peloton in a Hungarian server with a Czech player (issue 27): the channel in Hungarian, his
private answers in Czech."""

from __future__ import annotations

from tests.support.languages import check_hungarian_server_czech_player, play_in


async def test_a_peloton_race_in_a_hungarian_server_with_a_czech_player(simcord_env, monkeypatch) -> None:
    played = await play_in(simcord_env, monkeypatch, "peloton", pieces=1)
    check_hungarian_server_czech_player(played)
    assert "rajtol!" in "\n".join(played.public)


async def test_a_peloton_time_trial_draft_in_a_hungarian_server(simcord_env, monkeypatch) -> None:
    """The cards drafted on the lobby message: the draft's words Hungarian, as the channel's."""
    played = await play_in(simcord_env, monkeypatch, "peloton", stage="itt-25", ai=True)
    check_hungarian_server_czech_player(played, lobby=False)
    public = "\n".join(played.public)
    assert "— Peloton, választás a rajt előtt" in public and "A választás véget ért" in public
