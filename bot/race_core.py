"""The heart of the service layer: loading a race, applying decisions, saving, reporting.

Every intent (bot/race_lobby.py, bot/race_reading.py, bot/race_timers.py, the decisions
below) goes load race -> rules.apply -> save (one transaction, optimistic version) ->
render. It knows nothing of Discord: it returns ``Outcome`` values (bot/views_model.py).
Every refusal is a ``Refusal`` with a short message that says what is allowed; the race is
left unchanged.
"""

from __future__ import annotations

import asyncio
import copyreg
import pickle
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from bot.games import adapter
from bot.games.base import GameAdapter
from bot.storage import RaceRow, Storage, StoredAction
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


class RaceCore:
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
        seen: set[str] = set()
        for view in views:  # typed moves take the default path (cheapest, then safest): one per square
            if view.kind == do and (rider is None or view.rider == rider) and view.to and view.to not in seen:
                seen.add(view.to)
                out.append((view.to, view.label))
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


class _ChannelLock:
    """``async with`` the channel's race, holding its lock."""

    def __init__(self, service: RaceCore, channel_id: int) -> None:
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
