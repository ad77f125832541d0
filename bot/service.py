"""The service layer: one method per user intent, each load race -> rules.apply -> save -> render.

It knows nothing of Discord: it takes ids and plain values and returns ``Outcome`` values
(bot/views_model.py) that the Discord layer posts. Every refusal is a ``Refusal`` with a
short message that says what is allowed; the race is left unchanged.
"""

from __future__ import annotations

import asyncio
import copyreg
import json
import pickle
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from bot.games import GAMES, adapter
from bot.games.base import GameAdapter
from bot.storage import ChannelBusy, RaceRow, Storage, StoredAction
from bot.views_model import Outcome, Post, Prompt
from rules.action import Action
from rules.errors import DomestiqueError
from rules.record import FORMAT, Record, parse_record, start_state
from rules.registry import Game, find_game


def _read_only(data: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(data)


copyreg.pickle(MappingProxyType, lambda m: (_read_only, (dict(m),)))  # snapshots of frozen state

TIMER_MIN, TIMER_MAX, TIMER_DEFAULT = 60, 7 * 24 * 3600, 24 * 3600
AWAY_AFTER = 3  # automatic decisions in a row before a seat is played by the AI
MESSAGE_LIMIT = 2000


class Refusal(Exception):
    """A request that cannot be done now; the message is shown to the person, privately."""


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split ``text`` on line ends into messages that fit Discord's 2,000 characters."""
    out: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            out.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out or [""]


class RaceService:
    def __init__(self, storage: Storage, *, now: Callable[[], float] = time.time, render: bool = True) -> None:
        self.storage = storage
        self.now = now
        self.render = render
        self._states: dict[int, tuple[int, Any]] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        # set by the league service: the posts that follow a league stage's finish
        self.on_finish: Callable[[RaceRow, Any], Awaitable[list[Post]]] | None = None
        # set by the bot: called after every change of deadlines, so its timer loop wakes up
        self.on_change: Callable[[], None] | None = None
        # set by the alliance service: lines naming a race's alliances (board legend, status)
        self.alliance_lines: Callable[[RaceRow], Awaitable[list[str]]] | None = None

    # ------------------------------------------------------------------ helpers

    def _lock(self, race_id: int) -> asyncio.Lock:
        return self._locks.setdefault(race_id, asyncio.Lock())

    async def _race_in(self, channel_id: int, *, running: bool | None = None) -> RaceRow:
        race = await self.storage.active_race(channel_id)
        if race is None:
            raise Refusal("There is no race in this channel. Start one with /race new.")
        if running is True and race.status != "running":
            raise Refusal("The race has not started yet: join it, then the host uses /race start.")
        if running is False and race.status != "lobby":
            raise Refusal("The race has already started.")
        return race

    @staticmethod
    def _record(race: RaceRow) -> Record:
        assert race.envelope is not None
        data = {
            "format": FORMAT,
            **race.envelope,
            "actions": [Action.from_text(a.text).to_json() for a in race.actions],
        }
        data = {k: v for k, v in data.items() if v is not None}
        return parse_record(data)

    async def _state(self, race: RaceRow) -> Any:
        """The race's state now: from memory, else the stored snapshot, else by replaying its record."""
        cached = self._states.get(race.id)
        if cached is not None and cached[0] == race.version:
            return cached[1]
        record = self._record(race)
        game, state = start_state(record.with_actions(()))
        snap = await self.storage.snapshot(race.id)
        applied = 0
        if snap is not None:
            try:
                count, saved = pickle.loads(snap[1])
                if count <= len(race.actions):
                    state, applied = replace(saved, setup=state.setup), count
            except Exception:  # a snapshot from an older build: replaying is always right
                applied = 0
        for action in record.actions[applied:]:
            state, _ = game.apply(state, action)
        self._states[race.id] = (race.version, state)
        return state

    async def _snapshot(self, race_id: int, version: int, count: int, state: Any) -> None:
        blob = pickle.dumps((count, replace(state, setup=None)), protocol=pickle.HIGHEST_PROTOCOL)
        await self.storage.save_snapshot(race_id, version, blob)

    @staticmethod
    def _seat_of(race: RaceRow, user_id: int) -> dict[str, Any] | None:
        return next((s for s in race.lobby["seats"] if s.get("user") == user_id and not s.get("ai")), None)

    @staticmethod
    def _user_of(race: RaceRow, player: str) -> int | None:
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        return None if seat is None or seat.get("ai") else seat.get("user")

    @staticmethod
    def _is_ai(race: RaceRow, player: str) -> bool:
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        return seat is None or bool(seat.get("ai")) or player in race.lobby.get("away", [])

    def _title(self, race: RaceRow) -> str:
        label = race.lobby.get("title") or f"Race {race.id}"
        return f"{label} · {race.lobby['track']}"

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
        return Outcome(self._lobby_text(race), ephemeral=False, lobby_race=race.id)

    def _lobby_text(self, race: RaceRow) -> str:
        seats = race.lobby["seats"]
        lines = [
            f"**{self._title(race)}** — lobby ({GAMES[race.game]}, {race.lobby['riders']} rider(s) each, "
            f"turn timer {race.lobby['timer'] // 60} min)"
        ]
        for seat in seats:
            who = "AI" if seat.get("ai") else f"<@{seat['user']}>"
            lines.append(f"- {seat['team']}: {who}")
        lines.append("Join with the button or /race join (pick a colour); the host starts with /race start.")
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
            return Outcome(self._lobby_text(race), ephemeral=False, lobby_race=race.id)

    async def add_ai(self, channel_id: int, user_id: int, team: str | None = None) -> Outcome:
        async with self._lock_for_channel(channel_id) as race:
            if race.status != "lobby":
                raise Refusal("The race has already started.")
            if user_id != race.host_id:
                raise Refusal("Only the host adds AI riders.")
            race = await self._join(race, None, "AI", team, ai=True)
            return Outcome(self._lobby_text(race), ephemeral=False, lobby_race=race.id)

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
            return Outcome(self._lobby_text(fresh), ephemeral=False, lobby_race=fresh.id)

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

    # ------------------------------------------------------------------ decisions

    async def decide(self, race_id: int, version: int, user_id: int, index: int) -> Outcome:
        """A button or menu choice: choice ``index`` of the prompt shown at ``version``."""
        async with self._lock(race_id):
            race, state = await self._at_version(race_id, version)
            player = self._player_to_act(race, state, user_id)
            game_def = find_game(race.game)
            choices = game_def.legal_actions(state, player)
            if not 0 <= index < len(choices):
                raise Refusal("That choice is not on offer any more; use the latest prompt.")
            return await self._apply_manual(race, state, player, user_id, choices[index].action)

    async def _at_version(self, race_id: int, version: int) -> tuple[RaceRow, Any]:
        """The race a button was made for, refused if it has moved on since (a stale button)."""
        race = await self.storage.race(race_id)
        if race is None or race.status != "running":
            raise Refusal("This race is over.")
        if race.version != version:
            raise Refusal("That button is from an earlier moment of the race; use the latest prompt.")
        return race, await self._state(race)

    async def _prompt_for(self, race_id: int, version: int, user_id: int) -> tuple[RaceRow, Any, Prompt]:
        race, state = await self._at_version(race_id, version)
        self._player_to_act(race, state, user_id)
        prompt = self.prompt(race, state)
        assert prompt is not None
        return race, state, prompt

    async def rider_choices(self, race_id: int, version: int, user_id: int, rider: str) -> Outcome:
        """Breaking away, step two: the squares ``rider`` can break away to, privately, on a board."""
        race, state, prompt = await self._prompt_for(race_id, version, user_id)
        choices = tuple(c for c in prompt.choices if c.kind == "breakaway" and c.rider == rider)
        if not choices:
            raise Refusal(f"{rider} cannot break away now.")
        image = await self._board(race, state, rider)
        return Outcome(
            f"Where does {rider} break away to? (at least 4 squares ahead of the peloton)",
            image=image,
            prompt=replace(prompt, kind="ride", rider=rider, choices=choices),
        )

    async def choice_page(self, race_id: int, version: int, user_id: int, page: int, rider: str | None) -> Outcome:
        _, _, prompt = await self._prompt_for(race_id, version, user_id)
        choices = tuple(
            c for c in prompt.choices if c.kind in ("ride", "breakaway") and (rider is None or c.rider == rider)
        )
        return Outcome(
            "More squares:", prompt=replace(prompt, kind="ride", rider=rider, choices=choices), prompt_page=page
        )

    async def act(self, channel_id: int, user_id: int, do: str, **fields: Any) -> Outcome:
        """A typed command (/ride, /breakaway, /drop, /pursue, /pass, /eat)."""
        race = await self._race_in(channel_id, running=True)
        async with self._lock(race.id):
            race = await self._race_in(channel_id, running=True)
            state = await self._state(race)
            seat = self._seat_of(race, user_id)
            if seat is None:
                raise Refusal("You are not riding in this race.")
            action = Action(seat["player"], do, rider=fields.get("rider"), to=fields.get("to"), tile=fields.get("tile"))
            if do != "eat":
                self._player_to_act(race, state, user_id)
            return await self._apply_manual(race, state, seat["player"], user_id, action)

    async def rider_names(self, channel_id: int, user_id: int) -> list[str]:
        """The caller's riders still racing (for autocomplete); empty when not riding here."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return []
        seat = self._seat_of(race, user_id)
        if seat is None:
            return []
        return adapter(race.game).rider_choices(await self._state(race), seat["player"])

    async def square_names(self, channel_id: int, user_id: int, do: str, rider: str | None) -> list[tuple[str, str]]:
        """(square, label) the caller may choose now for ``rider`` (for autocomplete)."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return []
        seat = self._seat_of(race, user_id)
        state = await self._state(race)
        decision = find_game(race.game).pending(state)
        if seat is None or decision is None or decision.player != seat["player"]:
            return []
        _, _, views = adapter(race.game).choice_views(state, seat["player"])
        out = []
        actions = find_game(race.game).legal_actions(state, seat["player"])
        seen: set[str] = set()
        for view in views:
            action = actions[view.index].action
            if view.kind == do and (rider is None or view.rider == rider) and action.to and action.to not in seen:
                seen.add(action.to)  # typed moves take the default path (cheapest, then safest)
                out.append((action.to, view.label))
        return out

    def _player_to_act(self, race: RaceRow, state: Any, user_id: int) -> str:
        seat = self._seat_of(race, user_id)
        if seat is None:
            raise Refusal("You are not riding in this race.")
        decision = find_game(race.game).pending(state)
        if decision is None:
            raise Refusal("The race is over.")
        if decision.player != seat["player"]:
            waiting = self._user_of(race, decision.player)
            who = f"<@{waiting}>" if waiting else decision.player
            raise Refusal(f"It is {who}'s decision now, not yours.")
        return str(seat["player"])

    async def _apply_manual(self, race: RaceRow, state: Any, player: str, user_id: int, action: Action) -> Outcome:
        game_def = find_game(race.game)
        try:
            new_state, _ = game_def.apply(state, action)
        except DomestiqueError as exc:
            raise Refusal(str(exc)) from None
        away = [p for p in race.lobby.get("away", []) if p != player]
        lobby = {**race.lobby, "away": away} if away != race.lobby.get("away", []) else None
        return await self._commit(race, state, [(action, user_id, False)], lobby=lobby, applied=new_state)

    async def _commit(
        self,
        race: RaceRow,
        state: Any,
        decisions: list[tuple[Action, int | None, bool]],
        *,
        headline: str | None = None,
        lobby: dict[str, Any] | None = None,
        applied: Any | None = None,
    ) -> Outcome:
        """Apply ``decisions`` then every AI or away seat's, save them in one transaction, and say what happened."""
        game_def = find_game(race.game)
        game = adapter(race.game)
        current_lobby = lobby or race.lobby
        view_race = replace(race, lobby=current_lobby)
        before = state
        stored: list[StoredAction] = []
        new_state = state
        for i, (action, user, automatic) in enumerate(decisions):
            new_state = applied if (applied is not None and i == 0) else game_def.apply(new_state, action)[0]
            stored.append(StoredAction(len(race.actions) + len(stored), action.text(), user, automatic))
        new_state, auto = self._autoplay(view_race, new_state, game_def, game)
        stored += [StoredAction(len(race.actions) + len(stored) + i, a.text(), None, True) for i, a in enumerate(auto)]
        decision = game_def.pending(new_state)
        finished = decision is None
        deadline = None if finished else self.now() + int(current_lobby["timer"])
        if not await self.storage.append_actions(race.id, race.version, stored, deadline, finished, lobby):
            raise Refusal("Someone acted at the same moment; your choice was not applied. Use the latest prompt.")
        version = race.version + 1
        self._states[race.id] = (version, new_state)
        if self.on_change is not None:
            self.on_change()
        count = len(race.actions) + len(stored)
        await self._snapshot(race.id, version, count, new_state)
        fresh = replace(
            view_race,
            version=version,
            actions=[*race.actions, *stored],
            deadline=deadline,
            status="finished" if finished else "running",
        )
        return await self._report(fresh, before, new_state, headline)

    def _autoplay(self, race: RaceRow, state: Any, game_def: Game, game: GameAdapter) -> tuple[Any, list[Action]]:
        actions: list[Action] = []
        for _ in range(5000):
            decision = game_def.pending(state)
            if decision is None or not self._is_ai(race, decision.player):
                break
            action = game.ai_action(state, decision.player, safe=False)
            state, _ = game_def.apply(state, action)
            actions.append(action)
        return state, actions

    async def _report(self, race: RaceRow, before: Any, after: Any, headline: str | None) -> Outcome:
        """The posts for the channel after a change: turn summary and board, then the next prompt."""
        game = adapter(race.game)
        game_def = find_game(race.game)
        events = list(after.events[len(before.events) :])
        posts: list[Post] = []
        lines = [headline] if headline else []
        turn_over = after.turn != before.turn or game_def.outcome(after).finished
        if events and not (turn_over or headline):
            lines += game.announcements(events)
        if events and (turn_over or headline):
            for turn in sorted({e.turn for e in events}):
                told = game.turn_summary(after, [e for e in events if e.turn == turn])
                if told:
                    lines.append(f"**Turn {turn}**: " + "; ".join(told) + ".")
        decision = game_def.pending(after)
        outcome = Outcome("Done.")
        for player, text in game.hidden_draws(before, after, events):
            user = self._user_of(race, player)
            if user is not None:
                outcome.dms.append((user, text))
        if decision is None:
            lines.append("**Arrival**\n" + "\n".join(game.result_lines(after)))
            image = await self._board(race, after, None)
            posts += [Post(text, image if i == 0 else None) for i, text in enumerate(chunks("\n".join(lines)))]
            if self.on_finish is not None and race.league_id is not None:
                posts += await self.on_finish(race, after)
            outcome.posts = posts
            return outcome
        prompt = self.prompt(race, after)
        user = self._user_of(race, decision.player)
        who = f"<@{user}>" if user else decision.player
        lines.append(game.ask(after, who))
        highlight = game.highlight(after)
        image = await self._board(race, after, highlight) if (turn_over or highlight or headline) else None
        texts = chunks("\n".join(lines))
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            posts.append(
                Post(
                    text,
                    image if last else None,
                    prompt=prompt if last else None,
                    mentions=[user] if (user and last) else [],
                )
            )
        outcome.posts = posts
        return outcome

    async def _board(self, race: RaceRow, state: Any, highlight: str | None) -> bytes | None:
        if not self.render:
            return None
        game = adapter(race.game)
        alliances = await self.alliance_lines(race) if self.alliance_lines is not None else []
        return await asyncio.to_thread(
            game.board, state, highlight_rider=highlight, title=self._title(race), alliances=alliances
        )

    def prompt(self, race: RaceRow, state: Any) -> Prompt | None:
        decision = find_game(race.game).pending(state)
        if decision is None:
            return None
        kind, rider, views = adapter(race.game).choice_views(state, decision.player)
        return Prompt(
            race.id, race.version, decision.player, self._user_of(race, decision.player), kind, rider, tuple(views)
        )

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

    async def export(self, channel_id: int) -> Outcome:
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None or race.envelope is None:
            raise Refusal("There is no started race in this channel to export.")
        record = self._record(race)
        data = json.dumps(record.to_json(), indent=1).encode()
        return Outcome(
            f"The record of race {race.id} (replay it with `domestique replay`).",
            ephemeral=False,
            file=(f"race-{race.id}.json", data),
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


class _ChannelLock:
    """``async with`` the channel's race, holding its lock."""

    def __init__(self, service: RaceService, channel_id: int) -> None:
        self.service = service
        self.channel_id = channel_id
        self.lock: asyncio.Lock | None = None

    async def __aenter__(self) -> RaceRow:
        race = await self.service._race_in(self.channel_id)
        self.lock = self.service._lock(race.id)
        await self.lock.acquire()
        return await self.service._race_in(self.channel_id)

    async def __aexit__(self, *exc: object) -> None:
        assert self.lock is not None
        self.lock.release()
