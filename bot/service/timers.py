"""Turn timers: reminders at half time, automatic decisions when time runs out, seats handed to the AI."""

from __future__ import annotations

import logging

from bot.service import seats
from bot.service.core import AWAY_AFTER, RaceCore, Refusal
from bot.service.model import Outcome, Post
from bot.shards import Shards
from bot.storage import RaceRow
from rules.registry import find_game

log = logging.getLogger("domestique")


class TimerIntents(RaceCore):
    # the servers this process runs timers for: all, unless it is one process of a shard cluster
    shards: Shards = Shards.everything()

    # ------------------------------------------------------------------ timers

    async def tick(self) -> list[tuple[int, Outcome]]:
        """Reminders at half time and automatic decisions when a turn timer runs out.

        Each race is handled alone: one that fails is logged (with its id) and the others go on.
        """
        out: list[tuple[int, Outcome]] = []
        now = self.now()
        for race in await self.storage.running_races(self.shards):
            if not self.timer_backoff.ready(race.id, now):
                continue
            try:
                done = await self._tick_race(race)
            except Exception:
                delay = self.timer_backoff.failed(race.id, now)
                log.exception(
                    "race %s (channel %s): its timer failed; retried in %.0f s", race.id, race.channel_id, delay
                )
                continue
            self.timer_backoff.succeeded(race.id)
            if done is not None:
                out.append((race.channel_id, done))
        return out

    async def _tick_race(self, race: RaceRow) -> Outcome | None:
        if race.deadline is None:
            return None
        now = self.now()
        timer = int(race.lobby["timer"])
        if now >= race.deadline:
            async with self.lock(race.id):
                fresh = await self.storage.race(race.id)
                if fresh is None or fresh.version != race.version or fresh.status != "running":
                    return None
                try:
                    return await self._expire(fresh)
                except Refusal:
                    return None
        if race.reminded or now < race.deadline - timer / 2:
            return None
        state = await self.state_of(race)
        decision = find_game(race.game).rules.pending(state)
        if decision is None:
            return None
        user = seats.user_of(race.lobby, decision.player)
        if await self.storage.set_reminded(race.id, race.version) and user is not None:
            due = f"due <t:{int(race.deadline)}:R>, or the AI decides for you"
            text = f"<@{user}>, reminder: your decision is {due}."
            if await self.storage.notify_mode(race.guild_id, user) == "dm":
                private = f"**{self.title(race)}**: reminder, your decision is {due}."
                return Outcome("", posts=[Post(text)], dms=[(user, private)])
            return Outcome("", posts=[Post(text, mentions=[user])])
        return None

    async def _expire(self, race: RaceRow) -> Outcome:
        game = find_game(race.game)
        state = await self.state_of(race)
        decision = game.rules.pending(state)
        assert decision is not None
        choose = game.cautious_ai or game.ai
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
        lobby = None
        label = next((c.label for c in game.rules.choices(state, decision.player) if c.action == action), "a choice")
        name = self.who(race, decision.player, mention=False)
        note = f"Time ran out: the AI decided for {name} ({label}), marked automatic."
        if streak >= AWAY_AFTER and decision.player not in race.lobby.get("away", []):
            lobby = {**race.lobby, "away": [*race.lobby.get("away", []), decision.player]}
            note += " After three in a row, the AI plays this seat until its owner acts again (/race back)."
        return await self.commit(race, state, [(action, user, True)], headline=note, lobby=lobby)

    async def next_deadline(self) -> float | None:
        deadlines = []
        for race in await self.storage.running_races(self.shards):
            if race.deadline is not None:
                timer = int(race.lobby["timer"])
                due = race.deadline if race.reminded else min(race.deadline, race.deadline - timer / 2)
                deadlines.append(self.timer_backoff.not_before(race.id, due))
        return min(deadlines) if deadlines else None
