"""Intents that read or manage a race: status, board, log, export, hand, undo, abort, back."""

from __future__ import annotations

import json
import secrets

from bot.games import adapter
from bot.race_core import MESSAGE_LIMIT, RaceCore, Refusal, chunks
from bot.views_model import Outcome
from rules.registry import find_game


class ReadingIntents(RaceCore):
    # ------------------------------------------------------------------ reading

    async def status(self, channel_id: int) -> Outcome:
        race = await self._race_in(channel_id)
        if race.status == "lobby":
            return Outcome(self._lobby_text(race))
        state = await self._state(race)
        decision = find_game(race.game).pending(state)
        lines = [f"**{self._title(race)}** — turn {state.turn}"]
        if decision is not None:
            user = self._user_of(race, decision.player)
            lines.append(adapter(race.game).ask(state, f"<@{user}>" if user else decision.player))
        lines += adapter(race.game).status_lines(state)
        if race.lobby.get("away"):
            lines.append("Played by the AI until they act again: " + ", ".join(race.lobby["away"]))
        if self.alliance_lines is not None:
            lines += [f"Alliance: {line}" for line in await self.alliance_lines(race)]
        return Outcome("\n".join(lines)[:MESSAGE_LIMIT])

    async def board(self, channel_id: int) -> Outcome:
        race = await self._race_in(channel_id, running=True)
        state = await self._state(race)
        return Outcome(f"{self._title(race)}, turn {state.turn}", image=await self._board(race, state, None))

    async def log(self, channel_id: int, turns: int = 2) -> Outcome:
        race = await self._race_in(channel_id, running=True)
        state = await self._state(race)
        game = adapter(race.game)
        lines = []
        for turn in range(max(1, state.turn - turns + 1), state.turn + 1):
            told = game.turn_summary(state, [e for e in state.events if e.turn == turn])
            if told:
                lines.append(f"**Turn {turn}**: " + "; ".join(told))
        automatic = [a for a in race.actions[-10:] if a.automatic and a.user_id is not None]
        for a in automatic:
            lines.append(f"(automatic, timer) {a.text}")
        return Outcome(chunks("\n".join(lines) or "Nothing has happened yet.")[0])

    async def export(self, channel_id: int, user_id: int | None = None) -> Outcome:
        """The race's record. A race still running is exported with its past rolls scripted and a
        fresh seed, so the file replays to this moment without foretelling the rolls to come; it is
        refused while it would show feed tiles other players keep face down."""
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None or race.envelope is None:
            raise Refusal("There is no started race in this channel to export.")
        record = self._record(race)
        data = record.to_json()
        running = race.status == "running"
        if running:
            state = await self._state(race)
            seat = self._seat_of(race, user_id) if user_id is not None else None
            if adapter(race.game).export_leaks(state, seat["player"] if seat else None):
                raise Refusal(
                    "While the race runs, its record would show the feed tiles other players keep "
                    "face down: export it when the race is over."
                )
            data["dice"] = state.dice.rolled()
            data["seed"] = secrets.randbelow(2**31)
        return Outcome(
            f"The record of race {race.id} (replay it with `domestique replay`)"
            + (": past rolls written out, the next ones not foretold." if running else "."),
            ephemeral=running,
            file=(f"race-{race.id}.json", json.dumps(data, indent=1).encode()),
        )

    async def hand(self, channel_id: int, user_id: int) -> Outcome:
        race = await self._race_in(channel_id, running=True)
        seat = self._seat_of(race, user_id)
        if seat is None:
            raise Refusal("You are not riding in this race.")
        state = await self._state(race)
        return Outcome("Your riders (only you see this):\n" + "\n".join(adapter(race.game).hand(state, seat["player"])))

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        race = await self._race_in(channel_id, running=True)
        async with self._lock(race.id):
            race = await self._race_in(channel_id, running=True)
            if user_id != race.host_id:
                raise Refusal("Only the host can undo.")
            manual = [a for a in race.actions if not a.automatic]
            if not manual:
                raise Refusal("There is no decision to undo.")
            keep = manual[-1].index
            if not await self.storage.truncate(race.id, race.version, keep, self.now() + int(race.lobby["timer"])):
                raise Refusal("Someone acted at the same moment; try again.")
            self._states.pop(race.id, None)
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            state = await self._state(fresh)
            outcome = await self._report(fresh, state, state, f"The host undid the last decision ({manual[-1].text}).")
            outcome.reply = "Undone."
            return outcome

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool) -> Outcome:
        race = await self._race_in(channel_id)
        if user_id != race.host_id and not can_manage:
            raise Refusal("Only the host or someone who can manage this channel can abort the race.")
        await self.storage.set_status(race.id, race.version, "aborted")
        self._states.pop(race.id, None)
        return Outcome(f"Race {race.id} was aborted.", ephemeral=False)

    async def back(self, channel_id: int, user_id: int) -> Outcome:
        race = await self._race_in(channel_id, running=True)
        seat = self._seat_of(race, user_id)
        if seat is None or seat["player"] not in race.lobby.get("away", []):
            raise Refusal("Your seat is yours already.")
        away = [p for p in race.lobby["away"] if p != seat["player"]]
        await self.storage.update_lobby(race.id, race.version, {**race.lobby, "away": away})
        return Outcome("Welcome back: the AI no longer plays for you.", ephemeral=False)
