"""The race recap in Discord (simcord): /race recap posts an animation of the race so far in the
channel, the last N turns when asked, and the finish posts the whole race by itself."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from tests.test_bot import last_prompt, play_prompt, world


async def _gif(message: Any) -> Image.Image:
    attachment = next(a for a in message.attachments if a.filename == "recap.gif")
    data = await attachment.read()
    assert len(data) < 8 * 1024 * 1024  # under every upload limit Discord has had
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    return image


def _distinct_frames(image: Image.Image) -> int:
    frames = set()
    for i in range(image.n_frames):
        image.seek(i)
        frames.add(image.convert("RGB").tobytes())
    return len(frames)


async def test_race_recap_posts_the_race_so_far_and_the_finish_posts_it_all(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice = members["alice"]
    early = await alice.slash(channel, "race recap")
    assert early.ephemeral and "no started race" in (early.followups or [early.response])[-1].content.lower()
    await alice.slash(channel, "race new", game="leader1", pieces=1)
    await members["bob"].slash(channel, "race join", colour="blue")
    await alice.slash(channel, "race start")
    for _ in range(20):  # a few turns
        await play_prompt(last_prompt(channel), members)
    before = len(channel.history())
    asked = await alice.slash(channel, "race recap")
    assert asked.ephemeral and "posted in the channel" in (asked.followups or [asked.response])[-1].content
    posted = channel.history()[before:]
    assert len(posted) == 1 and "turn by turn" in posted[0].content
    so_far = await _gif(posted[0])
    assert so_far.n_frames >= 3 and _distinct_frames(so_far) >= 3

    for _ in range(400):
        if any("**Finish**" in m.content for m in channel.history()):
            break
        await play_prompt(last_prompt(channel), members)
    history = channel.history()
    finish = next(i for i, m in enumerate(history) if "**Finish**" in m.content)
    recap = next(m for m in history[finish:] if any(a.filename == "recap.gif" for a in m.attachments))
    whole = await _gif(recap)
    assert whole.n_frames > so_far.n_frames and _distinct_frames(whole) > 1
    described = next(a for a in recap.attachments if a.filename == "recap.gif").description
    assert described and "On its last frame: " in described and len(described) <= 1024  # where every rider ended
    assert "yellow" in described and "blue" in described

    # after the finish the channel's last race can still be recapped: its last two turns
    await alice.slash(channel, "race recap", turns=2)
    last_two = await _gif(channel.history()[-1])
    assert 2 <= last_two.n_frames <= 3 < whole.n_frames
    assert "last 2 turns" in channel.history()[-1].content
