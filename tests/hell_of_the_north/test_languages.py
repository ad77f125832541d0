"""Hell of the North in a Hungarian server with a Czech player (issue 27): the channel in Hungarian, his
private answers in Czech."""

from __future__ import annotations

from tests.support.languages import check_hungarian_server_czech_player, play_in


async def test_a_hell_of_the_north_race_in_a_hungarian_server_with_a_czech_player(simcord_env, monkeypatch) -> None:
    played = await play_in(simcord_env, monkeypatch, "hell-of-the-north", pieces=1)
    check_hungarian_server_czech_player(played)
    assert "rajtol!" in "\n".join(played.public)
