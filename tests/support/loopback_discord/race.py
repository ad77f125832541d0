"""A player's session against the loopback Discord: open a race with AI seats, read the live prompt, answer
it as a person would (a button, a menu), and play on to the finish."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Awaitable, Callable

from rules.i18n import LANGUAGES, _, speaking
from tests.support.loopback_discord.players import Exchange
from tests.support.loopback_discord.server import LoopbackDiscord
from tests.support.loopback_discord.world import Channel, Message, User

CHOICE = re.compile(r"^dq:[csrp]:")  # a prompt's buttons and menus (bot/discord_layer/components.py)


def _in_every_language(text: str) -> tuple[str, ...]:
    words = []
    for language in LANGUAGES:
        with speaking(language):
            words.append(_(text))
    return tuple(words)


FINISH = _in_every_language("**Finish**")  # the finish's heading, in any server's language
RECAP = "recap.gif"


def is_prompt(message: Message) -> bool:
    """A decision prompt whose buttons still answer (a retired one has none)."""
    return any(CHOICE.match(str(c.get("custom_id", ""))) for c in message.children())


def live_prompts(fake: LoopbackDiscord, channel: Channel) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if is_prompt(m)]


def prompt_for(fake: LoopbackDiscord, channel: Channel, user: User) -> Message | None:
    """The latest live prompt in ``channel`` that asks ``user``."""
    mine = [m for m in live_prompts(fake, channel) if user.id in m.mentions()]
    return mine[-1] if mine else None


def newer_prompt(fake: LoopbackDiscord, channel: Channel, user: User, *, after: int) -> Message | None:
    """``user``'s live prompt in ``channel`` if it is newer than message ``after``."""
    prompt = prompt_for(fake, channel, user)
    return prompt if prompt is not None and prompt.id > after else None


async def wait_prompt(
    fake: LoopbackDiscord, channel: Channel, user: User, *, after: int = 0, timeout: float
) -> Message:
    """Until ``user`` has a live prompt in ``channel`` newer than message ``after``; that prompt."""
    found: Message = await fake.wait_for(
        lambda: newer_prompt(fake, channel, user, after=after),
        timeout=timeout,
        what=f"a new prompt for {user.name} in #{channel.name}",
    )
    return found


def doubled(fake: LoopbackDiscord, channel: Channel) -> list[str]:
    """Messages shown twice in a row with the same text and files (a post sent again)."""
    shown = fake.channel_messages(channel)
    return [
        b.content
        for a, b in itertools.pairwise(shown)
        if (a.content, [x.data for x in a.attachments]) == (b.content, [x.data for x in b.attachments])
    ]


def is_finish(message: Message) -> bool:
    return any(word in message.content for word in FINISH)


def finished(fake: LoopbackDiscord, channel: Channel) -> bool:
    """The finish is posted, and after it the race's last post, its animation (``bot/service/recap.py``):
    the bot has nothing more to say, so stopping it now cuts nothing short."""
    shown = fake.channel_messages(channel)
    at = next((i for i, m in enumerate(shown) if is_finish(m)), None)
    return at is not None and any(a.filename == RECAP for m in shown[at:] for a in m.attachments)


def boards(fake: LoopbackDiscord, channel: Channel) -> list[Message]:
    """The channel's boards: its posts with a PNG (the recap's GIF is not one)."""
    return [m for m in fake.channel_messages(channel) if any(a.filename.endswith(".png") for a in m.attachments)]


async def open_race_with_ai(
    fake: LoopbackDiscord, host: User, channel: Channel, *, ais: int = 1, game: str = "leader1", **options: object
) -> None:
    """``host`` opens a race of one piece each, adds ``ais`` AI seats and starts it."""
    created = await fake.slash(host, channel, "race new", game=game, pieces=1, **options)
    assert created.messages and not created.ephemeral, created.text  # the lobby, for everyone (in any language)
    for _seat in range(ais):
        added = await fake.slash(host, channel, "race ai")
        assert not added.ephemeral, added.text
    started = await fake.slash(host, channel, "race start")
    assert started.ephemeral, started.text  # "The race is on.", to the host; the board follows in the channel


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
        if (await answer(fake, user, step)).failed:  # delivered while the bot was away: they click again
            answered.discard(step.id)
            continue
        made += 1
        if after_each is not None:
            await after_each(made)
