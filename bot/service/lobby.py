"""Lobby intents: open a race, join, leave, AI seats, seat options, start; league stages opened and finished."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.service import race_options, seats
from bot.service.core import TIMER_DEFAULT, TIMER_MAX, TIMER_MIN, RaceCore, Refusal
from bot.service.durations import in_words
from bot.service.model import Outcome
from bot.service.names import clean_name
from bot.shards import Shards
from bot.storage import ChannelBusy, RaceRow
from rules.ai_levels import LEVELS, STRONGEST, level_named
from rules.errors import DomestiqueError
from rules.game import RaceOption
from rules.record import FORMAT, parse_record, start_state
from rules.registry import AnyGame, find_game, game_ids

log = logging.getLogger("domestique")


class LobbyIntents(RaceCore):
    # ------------------------------------------------------------------ lobby

    async def new_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        *,
        game: str,
        track: str | None = None,
        pieces: int | None = None,
        timer: int = TIMER_DEFAULT,
        seed: int | None = None,
        bank: int | None = None,
    ) -> Outcome:
        """Open a lobby; ``track`` is what the host typed (a stage, a circuit, ``random-12``); ``bank``
        is each player's time for the whole race (docs/pace.md), ``timer`` then the most per decision."""
        if game not in game_ids():
            raise Refusal(f"Unknown game {game[:40]!r}; games: {', '.join(game_ids())}.")
        rules = find_game(game)
        if not TIMER_MIN <= timer <= TIMER_MAX:
            raise Refusal("The turn timer goes from 1 minute to 7 days.")
        if bank is not None and not TIMER_MIN <= bank <= 4 * TIMER_MAX:
            raise Refusal("A time bank goes from 1 minute to 28 days per player.")
        count = rules.pieces.default if pieces is None else pieces
        if not rules.pieces.minimum <= count <= rules.pieces.maximum:
            raise Refusal(
                f"In {rules.title} each player has {rules.pieces.minimum} to {rules.pieces.maximum} "
                f"{rules.pieces_noun}."
            )
        seed = self.new_seed() if seed is None else seed
        try:
            resolved = rules.tracks.resolve(track or rules.tracks.default, self.new_seed() % 1_000_000)
        except ValueError as exc:
            shipped = ", ".join(rules.tracks.suggestions())
            raise Refusal(f"{exc} Choose one of: {shipped}.") from None
        lobby = {"track": resolved, "riders": count, "timer": timer, "seed": seed, "seats": [], "away": []}
        if bank is not None:
            lobby["bank"] = bank
        try:
            race = await self.storage.create_race(guild_id, channel_id, host_id, game, lobby)
        except ChannelBusy:
            raise Refusal(
                "A race is already running in this channel: one race per channel. "
                "Use another channel, or /race abort this one."
            ) from None
        race = await self._join(race, host_id, host_name, None)
        await self.page_link(race.id)  # known from now on: the lobby's text carries it
        return self.lobby_outcome(race)

    def lobby_outcome(self, race: RaceRow, line: str = "") -> Outcome:
        """The lobby as shown: who sits where, the colours still free, and its buttons; ``line`` tells
        the change in a few words (the answer to a typed command, the lobby message edited)."""
        game = find_game(race.game)
        taken = seats.seats_from(race.lobby)
        free = []
        for colour in game.colours:
            try:
                game.seat(taken, int(race.lobby.get("riders", game.pieces.default)), colour)
            except ValueError:
                continue
            free.append(colour)
        return Outcome(
            self.lobby_text(race),
            ephemeral=False,
            lobby_race=race.id,
            lobby_colours=tuple(free),
            lobby_message=race.lobby.get("message"),
            lobby_line=line,
        )

    @staticmethod
    def _joined(race: RaceRow) -> str:
        """The seat taken last, in a few words: "<@1> joins in blue.", "AI 2 (easy) joins in green."."""
        seat = race.lobby["seats"][-1]
        who = seat.get("name") if seat.get("ai") else f"<@{seat['user']}>"
        level = level_named(seat.get("level")) if seat.get("ai") else STRONGEST
        return f"{who}{'' if level == STRONGEST else f' ({level})'} joins in {seat['team']}."

    def lobby_text(self, race: RaceRow) -> str:
        game = find_game(race.game)
        per = int(race.lobby["riders"])
        lines = [
            f"**{self.title(race)}** — lobby ({game.title}, {per} {game.piece_word(per)} each, "
            f"{in_words(int(race.lobby['timer']))} per decision"
            + (
                f", a clock of {in_words(int(race.lobby['bank']))} each for the whole race"
                if race.lobby.get("bank")
                else ""
            )
            + ")"
        ]
        for seat in race.lobby["seats"]:
            level = level_named(seat.get("level"))
            shown = "AI" if level == STRONGEST else f"AI, {level}"
            who = f"{seat.get('name') or 'AI'} ({shown})" if seat.get("ai") else f"<@{seat['user']}>"
            lines.append(f"- {seat['team']}: {who}")
        options = race_options.describe(game, race.lobby)
        if options:
            lines.append(options)
        lines.append("Join with the menu (a colour) or the button, or /race join; the host starts with /race start.")
        lines.append(f"New to {game.title}? /race help explains it in a minute.")
        page = self.known_link(race)
        if page:
            lines.append(page)
        return "\n".join(lines)

    async def _join(
        self, race: RaceRow, user_id: int | None, name: str, colour: str | None, ai: bool = False, level: str = ""
    ) -> RaceRow:
        game = find_game(race.game)
        current = list(race.lobby["seats"])
        if not ai and user_id is not None and seats.human_seat(race.lobby, user_id) is not None:
            raise Refusal("You are already in this race.")
        try:
            colour, kinds = game.seat(seats.seats_from(race.lobby), int(race.lobby["riders"]), colour)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        number = sum(1 for s in current if s.get("ai")) + 1
        player = f"ai{number}" if ai else f"u{user_id}"
        shown = f"AI {number}" if ai else clean_name(name)
        seat = {"player": player, "user": None if ai else user_id, "name": shown, "team": colour, "ai": ai}
        current.append({**seat, "kinds": kinds, **({"level": level} if ai and level else {})})
        lobby = {**race.lobby, "seats": current}
        if not await self.storage.update_lobby(race.id, race.version, lobby):
            raise Refusal("The lobby changed at the same moment; try again.")
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        return fresh

    @staticmethod
    def _same_lobby(race: RaceRow, race_id: int | None) -> None:
        """A lobby button acts only on the race it was made for (not the next one in the channel)."""
        if race_id is not None and race.id != race_id:
            raise Refusal("That lobby is closed; use the buttons of the latest one.")

    async def join(
        self, channel_id: int, user_id: int, name: str, colour: str | None = None, *, race_id: int | None = None
    ) -> Outcome:
        async with self.channel_race(channel_id) as race:
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal("The race has already started; you can follow it here and join the next one.")
            race = await self._join(race, user_id, name, colour)
            return self.lobby_outcome(race, self._joined(race))

    async def add_ai(
        self,
        channel_id: int,
        user_id: int,
        colour: str | None = None,
        *,
        race_id: int | None = None,
        level: str | None = None,
    ) -> Outcome:
        """An AI seat, playing at ``level`` (easy, normal, strong; the strongest if not given)."""
        if level is not None and level not in LEVELS:
            raise Refusal(f"An AI plays {', '.join(LEVELS)}; not {level[:20]!r}.")
        async with self.channel_race(channel_id) as race:
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal("The race has already started.")
            if user_id != race.host_id:
                raise Refusal("Only the host adds AI players.")
            race = await self._join(race, None, "AI", colour, ai=True, level=level or STRONGEST)
            return self.lobby_outcome(race, self._joined(race))

    async def leave(self, channel_id: int, user_id: int, *, race_id: int | None = None) -> Outcome:
        async with self.channel_race(channel_id) as race:
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal("The race has started; ask the host to /race abort it if you must stop.")
            kept = [s for s in race.lobby["seats"] if not (s.get("user") == user_id and not s.get("ai"))]
            if len(kept) == len(race.lobby["seats"]):
                raise Refusal("You are not in this race.")
            if not await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": kept}):
                raise Refusal("The lobby changed at the same moment; try again.")
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            return self.lobby_outcome(fresh, f"<@{user_id}> leaves the race.")

    async def seat_option(self, channel_id: int, user_id: int, option: str, value: str | None) -> Outcome:
        """A per-seat choice of the game's (Leader 1: sprinter, descender), before the start."""
        async with self.channel_race(channel_id) as race:
            game = find_game(race.game)
            race_option = race_options.find(game, option)
            if race_option is not None:
                return await self._race_option(race, user_id, race_option, value)
            known = {o.name: o for o in game.seat_options}
            if not known:
                raise Refusal(f"{game.title} has no choices to make before the start.")
            if option not in known:
                every = [*known, *(o.name for o in game.race_options)]
                raise Refusal(f"Choices before the start: {', '.join(every)}.")
            if race.status != "lobby":
                raise Refusal("These choices are made before the start.")
            seat = seats.human_seat(race.lobby, user_id)
            if seat is None:
                raise Refusal("Join the race first.")
            allowed = list(known[option].values(seats.seat_from(seat)))
            if value is not None and value not in allowed:
                raise Refusal(f"{option}: one of {', '.join(allowed)}.")
            options = {**(seat.get("options") or {}), option: value}
            options = {k: v for k, v in options.items() if v}
            if value is not None and any(v == value for k, v in options.items() if k != option):
                raise Refusal(f"Your {value} already has another role: one role per {game.piece}.")
            updated = [dict(s, options=options) if s is seat else s for s in race.lobby["seats"]]
            if not await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": updated}):
                raise Refusal("The lobby changed at the same moment; try again.")
            chosen = "; ".join(f"{k}: {v}" for k, v in options.items()) or "none"
            return Outcome(f"Your choices: {chosen}.")

    async def _race_option(self, race: RaceRow, user_id: int, option: RaceOption, value: str | None) -> Outcome:
        """The host's choice of a rule option of the whole race (Hell of the North: weather markers)."""
        if race.status != "lobby":
            raise Refusal("These choices are made before the start.")
        if user_id != race.host_id:
            raise Refusal(f"Only the host chooses {option.name} for the race.")
        lobby = race_options.with_choice(find_game(race.game), race.lobby, option, value)
        if not await self.storage.update_lobby(race.id, race.version, lobby):
            raise Refusal("The lobby changed at the same moment; try again.")
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        shown = race_options.chosen(lobby).get(option.name, option.default or "default")
        outcome = self.lobby_outcome(fresh, f"The host chose {option.name}: {shown}.")
        if outcome.lobby_message is None:  # the lobby is posted anew, the choice told above it
            outcome.reply = f"{outcome.lobby_line}\n{outcome.reply}"
        return outcome

    async def start(self, channel_id: int, user_id: int, *, race_id: int | None = None) -> Outcome:
        async with self.channel_race(channel_id) as race:
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal("The race has already started.")
            if user_id != race.host_id:
                raise Refusal("Only the host starts the race.")
            game = find_game(race.game)
            problem = game.check_lobby(seats.seats_from(race.lobby), int(race.lobby["riders"]))
            if problem:
                raise Refusal(problem)
            outcome = await self._begin(race, race_options.record_options(game, race.lobby))
            outcome.reply = "The race is on."
            return outcome

    async def _begin(self, race: RaceRow, options: dict[str, Any]) -> Outcome:
        """Lobby to race: the record's envelope is fixed, AI seats play, the first prompt is posted."""
        game: AnyGame = find_game(race.game)
        envelope = {
            "game": race.game,
            "options": options,
            "track": race.lobby["track"],
            "players": game.record_players(seats.seats_from(race.lobby)),
            "seed": race.lobby["seed"],
        }
        try:
            _, state = start_state(parse_record({"format": FORMAT, **envelope}))
        except DomestiqueError as exc:
            raise Refusal(f"Cannot start: {exc}") from None
        # the start and its first commit (AI seats' moves, clocks, the first deadline) are one transaction
        return await self._first_commit(replace(race, status="running", envelope=envelope), state, envelope)

    async def _first_commit(
        self, race: RaceRow, state: Any, envelope: dict[str, Any] | None, *, late: bool = False
    ) -> Outcome:
        """The race's first commit, which starts it when given its ``envelope``; ``late``: made by
        ``repair_starts`` for a race whose start was saved without it."""
        game = find_game(race.game)
        headline = f"**{self.title(race)}** starts!"
        if game.draft is not None and game.draft.drafting(state):
            headline = (
                f"**{self.title(race)}**: the seating is closed and the starting order fixed; "
                "the draft is on the lobby message."
            )
        if late:
            headline += " (The bot stopped as the race began: it goes on from its start.)"
        outcome = await self.commit(race, state, [], headline=headline, envelope=envelope)
        outcome.threads = self._team_threads(race)
        return outcome

    async def repair_starts(self, shards: Shards | None = None) -> list[tuple[int, Outcome]]:
        """At start-up: every running race (of ``shards``) with no deadline makes the commit it lacks, and
        its prompt is posted. A crash between a start and its first commit (written apart before they
        were one transaction) left such races: timers skipped them and an AI seat to act never moved."""
        out: list[tuple[int, Outcome]] = []
        for race in await self.storage.running_races(shards):
            if race.deadline is not None:
                continue
            async with self.lock(race.id):
                fresh = await self.storage.race(race.id)
                if fresh is None or fresh.status != "running" or fresh.deadline is not None:
                    continue
                state = await self.state_of(fresh)
                try:
                    if fresh.actions:
                        note = "The bot stopped before this race's next deadline was set: the race goes on."
                        outcome = await self.commit(fresh, state, [], headline=note)
                    else:
                        outcome = await self._first_commit(fresh, state, None, late=True)
                except Refusal:
                    continue  # another process repaired it at the same moment
                log.warning("race %s (channel %s) had no deadline: repaired", race.id, race.channel_id)
                out.append((race.channel_id, outcome))
        return out

    @staticmethod
    def _team_threads(race: RaceRow) -> list[tuple[str, list[int]]]:
        """Players sharing a colour (Leader 1 with 6-10 players, one rider each) get a team thread."""
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
        game: str,
        league_id: int,
        stage: int,
        track: str,
        seated: list[dict[str, Any]],
        timer: int,
        seed: int,
        options: dict[str, Any],
        bank: int | None = None,
    ) -> Outcome:
        """A league stage opened by the scheduler: seated, started, first prompt posted."""
        pieces = max((len(s.get("kinds") or ()) for s in seated), default=1)
        lobby = {
            "track": track,
            "riders": pieces,
            "timer": timer,
            "seed": seed,
            "seats": seated,
            "away": [],
            "title": f"Stage {stage}",
        }
        if bank is not None:
            lobby["bank"] = bank
        race = await self.storage.create_race(guild_id, channel_id, host_id, game, lobby, league=(league_id, stage))
        async with self.lock(race.id):
            return await self._begin(race, options)

    async def resume_league_race(self, race: RaceRow, options: dict[str, Any]) -> Outcome:
        """A league stage's race whose opening a crash cut short: started if it was still in its lobby,
        else where it stands told again with its prompt (nobody was shown it)."""
        async with self.lock(race.id):
            fresh = await self.storage.race(race.id)
            if fresh is None or fresh.status not in ("lobby", "running"):
                return Outcome("")
            if fresh.status == "lobby":
                return await self._begin(fresh, options)
            state = await self.state_of(fresh)
            return await self.report(fresh, state, state, headline="The bot stopped as this stage opened: it is on.")

    async def finish_by_ai(self, race_id: int) -> Outcome:
        """The next stage is due: the AI plays every absent player's pieces to the finish."""
        async with self.lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status != "running":
                return Outcome("")
            state = await self.state_of(race)
            humans = [s["player"] for s in race.lobby["seats"] if not s.get("ai")]
            lobby = {**race.lobby, "away": humans}
            note = "The next stage is due: the AI finishes this one for everyone still racing."
            return await self.commit(race, state, [], headline=note, lobby=lobby)
