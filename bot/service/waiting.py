"""Races that wait because their channel cannot be told, and the race as it stands for a channel
that lost it.

Discord refuses a channel's posts when a moderator takes the bot's permissions away, deletes the
channel, or removes the bot from the server. A race in such a channel waits: no timer fires, no AI
plays into a channel nobody reads (``timers.Timers`` skips it). Its host is told once, privately,
what happened and how to go on: give the permissions back (the race goes on by itself when the
channel takes posts again), ``/race resume`` in another channel (a deleted channel), or add the bot
back (it posts the board and a live prompt in each of the server's races). While it waited, its
turn timer stood still: the deadline moves on by the time waited.
"""

from __future__ import annotations

from bot.service import seats
from bot.service.bounds import RACE_NUMBER
from bot.service.common import Refusal, title, who
from bot.service.core import RaceCore
from bot.service.model import DirectMessage, Outcome, Post, Prompt, Publish
from bot.storage import RaceRow
from rules.i18n import N_, _, speaking

REASONS = {
    "channel-gone": N_(
        "The channel of your race **{race_title}** was deleted, so the race waits. To carry it on, use "
        "`/race resume race:{number}` in another channel of the server (then `/race abort` there ends it)."
    ),
    "forbidden": N_(
        "I may no longer post in the channel of your race **{race_title}** (a permission was taken away), so "
        "the race waits. Give me View Channel, Send Messages and Attach Files there again and it goes on by itself."
    ),
    "bot-removed": N_(
        "I was removed from the server of your race **{race_title}**, so it waits. Add me back and it goes on."
    ),
}


class Waiting:
    def __init__(self, core: RaceCore) -> None:
        self.core = core
        self.storage = core.storage
        self.now = core.now

    async def pause(self, race: RaceRow, reason: str) -> Outcome:
        """``race`` waits for ``reason``; its host is told once, privately."""
        if race.status != "running":
            return Outcome()
        await self.storage.pause(race.id, reason, self.now())
        self.core.listeners.deadlines_changed()
        if not await self.storage.told_of_pause(race.id):
            return Outcome()
        with speaking(await self.core.languages.private(race.host_id)):
            text = _(REASONS[reason], race_title=title(race), number=race.id)
        return Outcome.of(DirectMessage(race.host_id, text))

    async def pause_channel(self, channel_id: int, reason: str) -> Outcome:
        race = await self.storage.active_race(channel_id)
        return await self.pause(race, reason) if race is not None else Outcome()

    async def pause_server(self, guild_id: int) -> int:
        """The bot left ``guild_id``: its running races wait; how many."""
        paused = 0
        for race in await self.storage.running_races():
            if race.guild_id == guild_id:
                await self.storage.pause(race.id, "bot-removed", self.now())
                paused += 1
        return paused

    async def go_on(self, race_id: int) -> bool:
        """``race_id`` waits no more: its deadline moves on by the time it waited. False if it did not wait."""
        pause = await self.storage.unpause(race_id)
        if pause is None:
            return False
        await self.storage.push_deadline(race_id, max(0.0, self.now() - pause.since))
        self.core.listeners.deadlines_changed()
        return True

    async def back_in_server(self, guild_id: int) -> list[tuple[int, Outcome]]:
        """The bot was added back to ``guild_id``: each race that waited for it goes on, showing itself."""
        out: list[tuple[int, Outcome]] = []
        paused = await self.storage.paused_races()
        for race in await self.storage.running_races():
            if (
                race.guild_id == guild_id
                and paused.get(race.id) is not None
                and paused[race.id].reason == "bot-removed"
            ):
                await self.go_on(race.id)
                post = await self.showing(race.channel_id)
                if post is not None:
                    out.append((race.channel_id, Outcome.of(Publish(post))))
        return out

    async def resume_here(self, channel_id: int, guild_id: int, user_id: int, race_id: int) -> Outcome:
        """``/race resume``: the host carries a race whose channel was deleted on in this channel."""
        RACE_NUMBER.check(race_id)
        race = await self.storage.race(race_id)
        pause = await self.storage.pause_of(race_id)
        if race is None or race.guild_id != guild_id or race.status != "running":
            raise Refusal(_("There is no race {number} waiting in this server.", number=race_id))
        if pause is None or pause.reason != "channel-gone":
            raise Refusal(_("Race {number} is not waiting for a channel: it goes on in its own.", number=race_id))
        if user_id != race.host_id:
            raise Refusal(_("Only the race's host can carry it on in another channel."))
        if await self.storage.active_race(channel_id) is not None:
            raise Refusal(_("This channel has a race already; use another channel."))
        await self.storage.move_race(race_id, channel_id)
        await self.storage.forget_owed(race.channel_id)
        await self.go_on(race_id)
        post = await self.showing(channel_id)
        shown = [Publish(post)] if post is not None else []
        return Outcome(_("Race {number} goes on in this channel.", number=race_id)).then(*shown)

    async def showing(self, channel_id: int) -> Post | None:
        """The running race in ``channel_id`` as it stands: whose decision, the board and its live prompt.
        Nobody is pinged: the run's first prompt did, and the reminder will."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return None
        core = self.core
        loaded = await core.store.load(race)
        rules, state = loaded.game.rules, loaded.state
        decision = rules.pending(state)
        if decision is None:
            return None
        with speaking(await core.public(race)):
            user = seats.user_of(race.lobby, decision.player)
            due = await core.clocks.due_text(race, decision.player) if user is not None else ""
            text = loaded.game.narration.ask(state, decision, who(race, decision.player)) + due
            highlight = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
            image = await core.board(loaded, highlight, acting=decision.piece)
            alt = core.described(loaded)
            prompt = await core.marked_prompt(loaded)  # its marks in the channel's words
        return Post(text, image, prompt=prompt, image_alt=alt)

    async def prompt_at(self, race_id: int | None, version: int | None) -> Prompt | None:
        """The prompt a post was made with, if the race still stands at ``version`` (else it has moved on)."""
        if race_id is None or version is None:
            return None
        race = await self.storage.race(race_id)
        if race is None or race.status != "running" or race.version != version:
            return None
        return await self.core.marked_prompt(await self.core.store.load(race))
