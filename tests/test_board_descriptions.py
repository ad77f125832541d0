"""Issue 38: every board the bot posts in Discord is described for a screen reader (Discord's
attachment description), in the channel's language: the race and turn, whose decision, what just
happened, where every piece is; never longer than Discord's 1,024 characters."""

from __future__ import annotations

from typing import Any

from bot.discord_layer.sending import ALT_LIMIT, as_file
from tests.support.discord_play import last_prompt, play_prompt, start_two_player_race, world


def board_of(message: Any) -> Any:
    boards = [a for a in message.attachments if a.filename.endswith(".png")]
    assert boards, "the message carries no board"
    return boards[0]


async def test_a_posted_board_says_in_words_who_acts_and_where_everything_is(simcord_env: Any) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    await play_prompt(last_prompt(channel), members)
    posted = next(m for m in reversed(channel.history()) if any(a.filename == "board.png" for a in m.attachments))

    described = board_of(posted).description
    assert described is not None and described.startswith("The board of Race 1")
    assert "turn" in described and ("alice" in described or "bob" in described)  # whose decision
    assert "yellow" in described and "blue" in described  # every piece, as players know them
    assert "<@" not in described  # names, not mentions


async def test_a_board_in_a_hungarian_server_is_described_in_hungarian(simcord_env: Any) -> None:
    guild = simcord_env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    members = {n: guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob")}
    await members["alice"].slash(channel, "race new", game="leader1", pieces=1)
    await members["bob"].slash(channel, "race join", colour="blue")
    await members["alice"].slash(channel, "race start")
    await play_prompt(last_prompt(channel), members)
    posted = next(m for m in reversed(channel.history()) if any(a.filename == "board.png" for a in m.attachments))

    described = board_of(posted).description
    assert described is not None and described.startswith("Tábla: 1. verseny")
    assert "The board" not in described and "turn" not in described and "kör" in described


def test_a_description_is_cut_on_a_word_at_discords_limit() -> None:
    long = " ".join(["rouleur"] * 400)
    described = as_file("board.png", b"png", long).description
    assert described is not None and len(described) <= ALT_LIMIT and described.endswith("rouleur…")
