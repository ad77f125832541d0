"""Lobby intents: open a race, join, leave, AI seats, qualities, start; league stages opened and finished."""

from __future__ import annotations

import secrets
from typing import Any

from bot.games import GAMES, adapter
from bot.race_core import TIMER_DEFAULT, TIMER_MAX, TIMER_MIN, RaceCore, Refusal, _ChannelLock
from bot.storage import ChannelBusy, RaceRow
from bot.views_model import Outcome
from rules.errors import DomestiqueError
from rules.record import FORMAT, parse_record, start_state


class LobbyIntents(RaceCore):
    # ------------------------------------------------------------------ lobby

    async def new_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        *,
        game: str = "leader1",
        track: str = "leader1/first-race",
        riders: int = 3,
        timer: int = TIMER_DEFAULT,
        seed: int | None = None,
    ) -> Outcome:
        if game not in GAMES:
            raise Refusal(f"Unknown game {game!r}; playable: {', '.join(GAMES)}.")
        if not TIMER_MIN <= timer <= TIMER_MAX:
            raise Refusal("The turn timer goes from 1 minute to 7 days.")
        most = adapter(game).max_riders
        if not 1 <= riders <= most:
            raise Refusal(f"In {GAMES[game]} each player has 1 to {most} {adapter(game).piece}s.")
        try:  # the route must exist and be valid before anyone joins
            start_state(
                parse_record(
                    {
                        "format": FORMAT,
                        "game": game,
                        "track": track,
                        "seed": 0,
                        "players": adapter(game).probe_players(),
                    }
                )
            )
        except DomestiqueError as exc:
            raise Refusal(f"That route cannot be used: {exc}") from None
        lobby = {
            "track": track,
            "riders": riders,
            "timer": timer,
            "seed": seed if seed is not None else secrets.randbelow(2**31),
            "seats": [],
            "away": [],
        }
        try:
            race = await self.storage.create_race(guild_id, channel_id, host_id, game, lobby)
        except ChannelBusy:
            raise Refusal(
                "A race is already running in this channel: one race per channel. "
                "Use another channel, or /race abort this one."
            ) from None
        race = await self._join(race, host_id, host_name, None)
        return self._lobby_outcome(race)

    def _lobby_outcome(self, race: RaceRow) -> Outcome:
        """The lobby as posted: who sits where, the colours still free, and its buttons."""
        game = adapter(race.game)
        free = []
        for colour in game.teams:
            try:
                game.seat(race.lobby["seats"], int(race.lobby.get("riders", 3)), colour)
            except ValueError:
                continue
            free.append(colour)
        return Outcome(self._lobby_text(race), ephemeral=False, lobby_race=race.id, lobby_colours=tuple(free))

    def _lobby_text(self, race: RaceRow) -> str:
        seats = race.lobby["seats"]
        lines = [
            f"**{self._title(race)}** — lobby ({GAMES[race.game]}, {race.lobby['riders']} rider(s) each, "
            f"turn timer {race.lobby['timer'] // 60} min)"
        ]
        for seat in seats:
            who = "AI" if seat.get("ai") else f"<@{seat['user']}>"
            lines.append(f"- {seat['team']}: {who}")
        lines.append("Join with the menu (a colour) or the button, or /race join; the host starts with /race start.")
        return "\n".join(lines)

    async def _join(self, race: RaceRow, user_id: int | None, name: str, team: str | None, ai: bool = False) -> RaceRow:
        game = adapter(race.game)
        seats = list(race.lobby["seats"])
        if not ai and any(s.get("user") == user_id and not s.get("ai") for s in seats):
            raise Refusal("You are already in this race.")
        try:
            team, kinds = game.seat(seats, int(race.lobby.get("riders", 3)), team)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        number = sum(1 for s in seats if s.get("ai")) + 1
        player = f"ai{number}" if ai else f"u{user_id}"
        seats.append(
            {"player": player, "user": None if ai else user_id, "name": name, "team": team, "ai": ai, "kinds": kinds}
        )
        lobby = {**race.lobby, "seats": seats}
        if not await self.storage.update_lobby(race.id, race.version, lobby):
            raise Refusal("The lobby changed at the same moment; try again.")
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        return fresh

    async def join(self, channel_id: int, user_id: int, name: str, team: str | None = None) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("The race has already started; you can follow it here and join the next one.")
            race = await self._join(race, user_id, name, team)
            return self._lobby_outcome(race)

    async def add_ai(self, channel_id: int, user_id: int, team: str | None = None) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("The race has already started.")
            if user_id != race.host_id:
                raise Refusal("Only the host adds AI riders.")
            race = await self._join(race, None, "AI", team, ai=True)
            return self._lobby_outcome(race)

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("The race has started; ask the host to /race abort it if you must stop.")
            seats = [s for s in race.lobby["seats"] if not (s.get("user") == user_id and not s.get("ai"))]
            if len(seats) == len(race.lobby["seats"]):
                raise Refusal("You are not in this race.")
            await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": seats})
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            return self._lobby_outcome(fresh)

    async def qualities(self, channel_id: int, user_id: int, sprinter: str | None, descender: str | None) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("Qualities are chosen before the start.")
            seat = self._seat_of(race, user_id)
            if seat is None:
                raise Refusal("Join the race first.")
            if sprinter is not None and sprinter == descender:
                raise Refusal("The same rider cannot be both sprinter and descender.")
            seats = [dict(s, sprinter=sprinter, descender=descender) if s is seat else s for s in race.lobby["seats"]]
            await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": seats})
            return Outcome(f"Sprinter: {sprinter or 'none'}; descender: {descender or 'none'}.")

    def _lock_for_channel(self, channel_id: int) -> _ChannelLock:
        return _ChannelLock(self, channel_id)

    async def start(self, channel_id: int, user_id: int) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("The race has already started.")
            if user_id != race.host_id:
                raise Refusal("Only the host starts the race.")
            game = adapter(race.game)
            problem = game.check_lobby(race.lobby)
            if problem:
                raise Refusal(problem)
            outcome = await self._begin(race, {})
            outcome.reply = "The race is on."
            return outcome

    async def _begin(self, race: RaceRow, options: dict[str, Any]) -> Outcome:
        """Lobby to race: the record's envelope is fixed, AI seats play, the first prompt is posted."""
        game = adapter(race.game)
        envelope = {
            "game": race.game,
            "options": options,
            "track": race.lobby["track"],
            "players": game.players(race.lobby),
            "seed": race.lobby["seed"],
        }
        try:
            _, state = start_state(parse_record({"format": FORMAT, **envelope}))
        except DomestiqueError as exc:
            raise Refusal(f"Cannot start: {exc}") from None
        if not await self.storage.start(race.id, race.version, envelope, None):
            raise Refusal("The lobby changed at the same moment; try again.")
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        outcome = await self._commit(fresh, state, [], headline=f"**{self._title(fresh)}** starts!")
        outcome.threads = self._team_threads(fresh)
        return outcome

    @staticmethod
    def _team_threads(race: RaceRow) -> list[tuple[str, list[int]]]:
        """Players sharing a jersey colour (6-10 players, one rider each) get a team thread."""
        by_team: dict[str, list[int]] = {}
        for seat in race.lobby["seats"]:
            if not seat.get("ai") and seat.get("user") is not None:
                by_team.setdefault(seat["team"], []).append(seat["user"])
        return [(f"Team {team} (race {race.id})", users) for team, users in sorted(by_team.items()) if len(users) > 1]

    async def open_league_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        league_id: int,
        stage: int,
        track: str,
        seats: list[dict[str, Any]],
        timer: int,
        seed: int,
        ring: int,
    ) -> Outcome:
        """A league stage opened by the scheduler: seated, started, first prompt posted."""
        lobby = {
            "track": track,
            "riders": 3,
            "timer": timer,
            "seed": seed,
            "seats": seats,
            "away": [],
            "title": f"Stage {stage}",
        }
        race = await self.storage.create_race(guild_id, channel_id, host_id, "leader1", lobby)
        await self.storage.link_league(race.id, league_id, stage)
        race.league_id, race.stage = league_id, stage
        async with self._lock(race.id):
            return await self._begin(race, {"stage_race": True, "gc_ring": ring})

    async def finish_by_ai(self, race_id: int) -> Outcome:
        """The next stage is due: the AI rides every absent player's riders to the finish."""
        async with self._lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status != "running":
                return Outcome("")
            state = await self._state(race)
            humans = [s["player"] for s in race.lobby["seats"] if not s.get("ai")]
            lobby = {**race.lobby, "away": humans}
            note = "The next stage is due: the AI finishes this one for the riders still on the road."
            return await self._commit(race, state, [], headline=note, lobby=lobby)
