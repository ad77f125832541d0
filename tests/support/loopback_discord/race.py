"""A player's session against the loopback Discord: open a race with AI seats, read the live prompt, answer
it as a person would (a button, a menu), and play on to the finish."""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable

from tests.support.loopback_discord.players import Exchange
from tests.support.loopback_discord.server import LoopbackDiscord
from tests.support.loopback_discord.world import Channel, Message, User

CHOICE = re.compile(r"^dq:[csrp]:")  # a prompt's buttons and menus (bot/discord_layer/components.py)
FINISH = "**Finish**"


def is_prompt(message: Message) -> bool:
    """A decision prompt whose buttons still answer (a retired one has none)."""
    return any(CHOICE.match(str(c.get("custom_id", ""))) for c in message.children())


def live_prompts(fake: LoopbackDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if is_prompt(m)]


def prompt_for(fake: LoopbackDiscord, channel: Channel, user: User) -> Message | None:
    """The latest live prompt in ``channel`` that asks ``user``."""
    mine = [m for m in live_prompts(fake, channel) if user.id in m.mentions()]
    return mine[-1] if mine else None


def finished(fake: LoopbackDiscord, channel: Channel) -> bool:
    return any(FINISH in m.content for m in fake.channel_messages(channel))


def boards(fake: LoopbackDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if m.has_image()]


async def open_race_with_ai(
    fake: LoopbackDiscord, host: User, channel: Channel, *, ais: int = 1, game: str = "leader1", **options: object
) -> None:
    """``host`` opens a race of one piece each, adds ``ais`` AI seats and starts it."""
    created = await fake.slash(host, channel, "race new", game=game, pieces=1, **options)
    assert "lobby" in created.text, created.text
    for _ in range(ais):
        added = await fake.slash(host, channel, "race ai")
        assert "AI" in added.text, added.text
    started = await fake.slash(host, channel, "race start")
    assert "race is on" in started.text.lower(), started.text


async def answer(fake: LoopbackDiscord, user: User, prompt: Message, **how: object) -> Exchange:
    """``user`` answers ``prompt`` the quickest way a person can: Pass when offered, else the first one-click
    choice, else the first entry of its menu."""
    buttons = [b for b in prompt.buttons() if str(b.get("custom_id", "")).startswith("dq:c:")]
    chosen = next((b for b in buttons if b.get("label") == "Pass"), buttons[0] if buttons else None)
    if chosen is not None:
        return await fake.click(user, prompt, custom_id=str(chosen["custom_id"]), **how)  # type: ignore[arg-type]
    menu = next(s for s in prompt.selects() if str(s.get("custom_id", "")).startswith("dq:s:"))
    value = str(menu["options"][0]["value"])
    return await fake.select(user, prompt, [value], custom_id=str(menu["custom_id"]), **how)  # type: ignore[arg-type]


async def play_to_finish(
    fake: LoopbackDiscord,
    channel: Channel,
    players: list[User],
    *,
    timeout: float = 90.0,
    after_each: Callable[[int], Awaitable[None]] | None = None,
) -> int:
    """Answer every prompt for ``players`` in ``channel`` until the finish is posted; the decisions made.
    ``after_each(n)`` runs after the n-th decision (a test's fault between two moves)."""
    deadline = time.monotonic() + timeout
    answered: set[int] = set()
    made = 0

    def next_step() -> Message | bool | None:
        if finished(fake, channel):
            return True
        for user in players:
            prompt = prompt_for(fake, channel, user)
            if prompt is not None and prompt.id not in answered:
                return prompt
        return None

    while True:
        step = await fake.wait_for(
            next_step, timeout=max(0.1, deadline - time.monotonic()), what=f"a prompt or the finish in #{channel.name}"
        )
        if step is True:
            return made
        assert isinstance(step, Message)
        user = next(u for u in players if u.id in step.mentions())
        answered.add(step.id)
        await answer(fake, user, step)
        made += 1
        if after_each is not None:
            await after_each(made)
