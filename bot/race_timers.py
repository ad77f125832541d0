"""Turn timers: reminders at half time, automatic decisions when time runs out, seats handed to the AI."""

from __future__ import annotations

from bot.games import adapter
from bot.race_core import AWAY_AFTER, RaceCore, Refusal
from bot.storage import RaceRow
from bot.views_model import Outcome, Post
from rules.action import Action
from rules.registry import find_game


class TimerIntents(RaceCore):
    # ------------------------------------------------------------------ timers

    async def tick(self) -> list[tuple[int, Outcome]]:
        """Reminders at half time and automatic decisions when a turn timer runs out."""
        out: list[tuple[int, Outcome]] = []
        now = self.now()
        for race in await self.storage.running_races():
            if race.deadline is None:
                continue
            timer = int(race.lobby["timer"])
            if now >= race.deadline:
                async with self._lock(race.id):
                    fresh = await self.storage.race(race.id)
                    if fresh is None or fresh.version != race.version or fresh.status != "running":
                        continue
                    try:
                        out.append((race.channel_id, await self._expire(fresh)))
                    except Refusal:
                        continue
            elif not race.reminded and now >= race.deadline - timer / 2:
                state = await self._state(race)
                decision = find_game(race.game).pending(state)
                if decision is None:
                    continue
                user = self._user_of(race, decision.player)
                if await self.storage.set_reminded(race.id, race.version) and user is not None:
                    left = max(1, round((race.deadline - now) / 60))
                    text = f"<@{user}>, reminder: your decision is due in {left} min, or the AI decides for you."
                    out.append((race.channel_id, Outcome("", posts=[Post(text, mentions=[user])])))
        return out

    async def _expire(self, race: RaceRow) -> Outcome:
        state = await self._state(race)
        game_def = find_game(race.game)
        decision = game_def.pending(state)
        assert decision is not None
        action = adapter(race.game).ai_action(state, decision.player, safe=True)
        user = self._user_of(race, decision.player)
        streak = 1
        for stored in reversed(race.actions):
            acted = Action.from_text(stored.text)
            if acted.by != decision.player or acted.do == "eat":
                continue
            if not stored.automatic:
                break
            streak += 1
        lobby = None
        note = f"Time ran out: the AI decided for {decision.player} ({action.text()}), marked automatic."
        if streak >= AWAY_AFTER and decision.player not in race.lobby.get("away", []):
            lobby = {**race.lobby, "away": [*race.lobby.get("away", []), decision.player]}
            note += " After three in a row, the AI rides this seat until its owner acts again (/race back)."
        return await self._commit(race, state, [(action, user, True)], headline=note, lobby=lobby)

    async def next_deadline(self) -> float | None:
        deadlines = []
        for race in await self.storage.running_races():
            if race.deadline is not None:
                timer = int(race.lobby["timer"])
                deadlines.append(race.deadline if race.reminded else min(race.deadline, race.deadline - timer / 2))
        return min(deadlines) if deadlines else None
