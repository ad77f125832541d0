"""Turn timers: reminders at half time, automatic decisions when time runs out, seats handed to the AI."""

from __future__ import annotations

import logging

from bot.service import seats
from bot.service.away import Away
from bot.service.common import AWAY_AFTER, Refusal, title, who
from bot.service.core import RaceCore
from bot.service.model import Outcome, Post
from bot.service.pact_marks import ai_keeping, held
from bot.storage import RaceRow
from bot.storage.lobby import LobbyData
from rules.i18n import _, speaking

log = logging.getLogger("domestique")


class Timers:
    def __init__(self, core: RaceCore, away: Away) -> None:
        self.core = core
        self.store = core.store
        self.storage = core.storage
        self.now = core.now
        self.clocks = core.clocks
        self.backoff = core.timer_backoff
        self.away = away

    async def tick(self) -> list[tuple[int, Outcome]]:
        """People whose return date has come get their seats back; then reminders at half time and
        automatic decisions when a turn timer runs out.

        Each race is handled alone: one that fails is logged (with its id) and the others go on.
        """
        out = await self.away.returns_due()
        now = self.now()
        # a race whose channel cannot be told waits: no reminder, no AI decision nobody would see
        # (``waiting.py``; a channel owed posts gets them first: ``bot/discord_layer/outbox.py``)
        waiting = set(await self.storage.paused_races())
        owed = await self.storage.owed_channels()
        for race in await self.storage.running_races(self.core.shards):
            if not self.backoff.ready(race.id, now) or race.id in waiting or race.channel_id in owed:
                continue
            try:
                done = await self._tick_race(race)
            except Exception:
                delay = self.backoff.failed(race.id, now)
                log.exception(
                    "race %s (channel %s): its timer failed; retried in %.0f s", race.id, race.channel_id, delay
                )
                continue
            self.backoff.succeeded(race.id)
            if done is not None:
                out.append((race.channel_id, done))
        return out

    async def _tick_race(self, race: RaceRow) -> Outcome | None:
        if race.deadline is None:
            return None
        now = self.now()
        if now >= race.deadline:
            async with self.store.lock(race.id):
                fresh = await self.storage.race(race.id)
                if fresh is None or fresh.version != race.version or fresh.status != "running":
                    return None
                try:
                    return await self._expire(fresh)
                except Refusal:
                    return None
        if race.reminded or now < await self.clocks.remind_at(race):
            return None
        loaded = await self.store.load(race)
        decision = loaded.game.rules.pending(loaded.state)
        if decision is None:
            return None
        user = seats.user_of(race.lobby, decision.player)
        if await self.storage.set_reminded(race.id, race.version) and user is not None:
            when = f"<t:{int(race.deadline)}:R>"
            with speaking(await self.core.public(race)):
                text = _(
                    "{who}, reminder: your decision is due {when}, or the AI decides for you.",
                    who=f"<@{user}>",
                    when=when,
                )
            if await self.storage.notify_mode(race.guild_id, user) == "dm":
                with speaking(await self.core.languages.private(user)):
                    private = _(
                        "**{race_title}**: reminder, your decision is due {when}, or the AI decides for you.",
                        race_title=title(race),
                        when=when,
                    )
                return Outcome("", posts=[Post(text)], dms=[(user, private)])
            return Outcome("", posts=[Post(text, mentions=[user])])
        return None

    async def _expire(self, race: RaceRow) -> Outcome:
        loaded = await self.store.load(race)
        game, state = loaded.game, loaded.state
        decision = game.rules.pending(state)
        assert decision is not None
        pacts = held(await self.core.listeners.pacts(race), race)
        choose = ai_keeping(game, game.cautious_ai or game.ai, pacts, race)  # the absent member's pacts kept
        action = choose(state, decision.player)
        user = seats.user_of(race.lobby, decision.player)
        streak = 1
        for stored in reversed(race.actions):
            acted = game.vocabulary.from_text(stored.text)
            if acted.by != decision.player:
                continue
            if not stored.automatic:
                break
            streak += 1
        lobby: LobbyData | None = None
        language = await self.core.public(race)  # the note is the channel's
        with speaking(language):
            label = next(
                (c.label for c in game.rules.choices(state, decision.player) if c.action == action), _("a choice")
            )
        name = who(race, decision.player, mention=False)
        with speaking(language):
            note = _("Time ran out: the AI decided for {name} ({choice}), marked automatic.", name=name, choice=label)
        if await self.clocks.clock_ran_out(race, decision.player) and decision.player not in race.lobby.get("away", []):
            spent = [*race.lobby.get("spent", []), decision.player]
            lobby = {**race.lobby, "away": [*race.lobby.get("away", []), decision.player], "spent": spent}
            with speaking(language):
                note = _(
                    "{name}'s clock ran out: the AI decided for them ({choice}) and decides at once for the rest of "
                    "the race, marked automatic (/race back returns the seat).",
                    name=name,
                    choice=label,
                )
        elif streak >= AWAY_AFTER and decision.player not in race.lobby.get("away", []):
            lobby = {**race.lobby, "away": [*race.lobby.get("away", []), decision.player]}
            with speaking(language):
                note += " " + _("After three in a row, the AI plays this seat until its owner acts again (/race back).")
        return await self.core.commit(loaded, [(action, user, True)], headline=note, lobby=lobby)

    async def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do: a reminder, a deadline, a person's return."""
        deadlines = []
        waiting = set(await self.storage.paused_races())
        owed = await self.storage.owed_channels()  # the outbox wakes the timers when it has told them
        for race in await self.storage.running_races(self.core.shards):
            if race.deadline is not None and race.id not in waiting and race.channel_id not in owed:
                due = race.deadline if race.reminded else min(race.deadline, await self.clocks.remind_at(race))
                deadlines.append(self.backoff.not_before(race.id, due))
        back = await self.storage.next_return()
        if back is not None:
            deadlines.append(back)
        return min(deadlines) if deadlines else None
