"""The heart of the service layer: loading a race, applying decisions, saving, reporting.

Every intent (``lobby.py``, ``reading.py``, ``timers.py``, the decisions below) goes load
race -> rules.apply -> save (one transaction, optimistic version) -> render. It knows
nothing of Discord and nothing of any one game: it reads the game's ``rules.game.Game``
from the registry and returns ``Outcome`` values (``bot/service/model.py``). Every refusal
is a ``Refusal`` with a short message that says what is allowed; the race is left unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any

from bot.service import seats
from bot.service.backoff import Backoff
from bot.service.drawing import Drawing, ThreadDrawing
from bot.service.model import ChoiceView, Outcome, Post, Prompt
from bot.service.state_cache import StateCache, snapshot_due
from bot.service.turns import Turns
from bot.storage import Charges, Clock, RaceRow, Storage, StoredAction
from rules.action import Action
from rules.ai_levels import player_at
from rules.errors import DomestiqueError
from rules.game import Choice, Decision
from rules.record import FORMAT, Record, parse_record, start_state
from rules.registry import AnyGame, find_game

log = logging.getLogger("domestique")

TIMER_MIN, TIMER_MAX, TIMER_DEFAULT = 60, 7 * 24 * 3600, 24 * 3600
AWAY_AFTER = 3  # automatic decisions in a row before a seat is played by the AI
MESSAGE_LIMIT = 2000
AUTOPLAY_LIMIT = 5000


@dataclass
class Played:
    """What a commit's automatic decisions did: the state after them, each (action, user, automatic),
    and private messages to send (a decision made ahead that no longer held)."""

    state: Any
    actions: list[tuple[Action, int | None, bool]]
    dms: list[tuple[int, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # said in the channel first (a decision made ahead, applied)
    premoves_used: list[str] = field(default_factory=list)  # players whose decision made ahead is now spent


class Refusal(Exception):
    """A request that cannot be done now; the message is shown to the person, privately."""


def playing_seat(race: RaceRow, user_id: int) -> dict[str, Any]:
    """The seat of Discord user ``user_id`` in ``race`` (not an AI seat), or a refusal that says
    they are not playing (every command a player gives for their own seat starts here)."""
    seat = seats.human_seat(race.lobby, user_id)
    if seat is None:
        raise Refusal("You are not playing in this race.")
    return seat


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


def record_of(race: RaceRow) -> Record:
    """The race's public record: its envelope and every stored action."""
    assert race.envelope is not None
    words = find_game(race.game).vocabulary
    data = {
        "format": FORMAT,
        **race.envelope,
        "actions": [words.from_text(a.text).to_json() for a in race.actions],
    }
    return parse_record({k: v for k, v in data.items() if v is not None})


class RaceCore:
    def __init__(
        self,
        storage: Storage,
        *,
        now: Callable[[], float] = time.time,
        render: bool = True,
        seeds: Callable[[], int] | None = None,
        drawing: Drawing | None = None,
    ) -> None:
        self.storage = storage
        self.drawing: Drawing = drawing or ThreadDrawing()  # domestique run draws in worker processes
        self.now = now
        self.render = render
        # 63 unguessable bits per race: its dice must not be foretold from anything public.
        # Tests pass a seeded generator to replay the same races.
        self.new_seed = seeds or (lambda: secrets.randbits(63))
        self._states = StateCache()  # the most recently used races' states (bounded)
        self._locks: dict[int, asyncio.Lock] = {}
        self._turns = Turns()  # decisions worked on a few at a time, first come first served
        self.timer_backoff = Backoff()  # races whose timer failed wait longer before the next try
        # set by the league service: the posts that follow a league stage's finish
        self.on_finish: Callable[[RaceRow, Any], Awaitable[list[Post]]] | None = None
        # set by the bot: called after every change of deadlines, so its timer loop wakes up
        self.on_change: Callable[[], None] | None = None
        # set by the alliance service: lines naming a race's alliances (board legend, status)
        self.alliance_lines: Callable[[RaceRow], Awaitable[list[str]]] | None = None

    # ------------------------------------------------------------------ helpers

    def lock(self, race_id: int) -> asyncio.Lock:
        return self._locks.setdefault(race_id, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def channel_race(self, channel_id: int) -> AsyncIterator[RaceRow]:
        """The channel's race, read again while holding its lock."""
        race = await self.race_in(channel_id)
        async with self.lock(race.id):
            yield await self.race_in(channel_id)

    async def race_in(self, channel_id: int, *, running: bool | None = None) -> RaceRow:
        race = await self.storage.active_race(channel_id)
        if race is None:
            raise Refusal("There is no race in this channel. Start one with /race new.")
        if running is True and race.status != "running":
            raise Refusal("The race has not started yet: join it, then the host uses /race start.")
        if running is False and race.status != "lobby":
            raise Refusal("The race has already started.")
        return race

    async def state_of(self, race: RaceRow) -> Any:
        """The race's state now: from memory, else the stored snapshot, else by replaying its record."""
        cached = self._states.get(race.id, race.version)
        if cached is not None:
            return cached
        record = record_of(race)
        game, state = start_state(record.with_actions(()))
        snap = await self.storage.snapshot(race.id)
        applied = 0
        if snap is not None:
            try:
                count, saved = pickle.loads(snap[1])
                if count <= len(race.actions):
                    state, applied = game.rules.attach(saved, state), count
            except (pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError, EOFError) as exc:
                log.warning("race %s: snapshot unreadable (%s); replaying its record", race.id, exc)
                applied = 0
                await self.storage.drop_snapshot(race.id)  # not retried on every load
        for action in record.actions[applied:]:
            state, _ = game.rules.apply(state, action)
        self._states.put(race.id, race.version, state)
        return state

    async def _snapshot(self, race: RaceRow, version: int, count: int, state: Any) -> None:
        detached = find_game(race.game).rules.detach(state)
        blob = pickle.dumps((count, detached), protocol=pickle.HIGHEST_PROTOCOL)
        await self.storage.save_snapshot(race.id, version, blob)

    def title(self, race: RaceRow) -> str:
        label = race.lobby.get("title") or f"Race {race.id}"
        return f"{label} · {str(race.lobby['track']).split('/', 1)[-1]}"

    def who(self, race: RaceRow, player: str, *, mention: bool = True) -> str:
        """How public text names a player: a mention, or their name (an AI seat: its name)."""
        user = seats.user_of(race.lobby, player)
        if user is not None and mention:
            return f"<@{user}>"
        return seats.name_of(race.lobby, player)

    # ------------------------------------------------------------------ decisions

    async def decide(self, race_id: int, version: int, user_id: int, index: int) -> Outcome:
        """A button or menu choice: choice ``index`` of the prompt shown at ``version``."""
        # a few decisions at a time, in the order they came: the others wait off the loop (turns.py)
        async with self._turns.turn(), self.lock(race_id):
            race, state = await self._at_version(race_id, version)
            player = self._player_to_act(race, state, user_id)
            choices = find_game(race.game).rules.choices(state, player)
            if not 0 <= index < len(choices) or choices[index].anytime:
                raise Refusal("That choice is not on offer any more; use the latest prompt.")
            return await self._apply_manual(race, state, player, user_id, choices[index].action)

    async def _at_version(self, race_id: int, version: int) -> tuple[RaceRow, Any]:
        """The race a button was made for, refused if it has moved on since (a stale button)."""
        race = await self.storage.race(race_id)
        if race is None or race.status != "running":
            raise Refusal("This race is over.")
        if race.version != version:
            raise Refusal("That button is from an earlier moment of the race; use the latest prompt.")
        return race, await self.state_of(race)

    async def _prompt_for(self, race_id: int, version: int, user_id: int) -> tuple[RaceRow, Any, Prompt]:
        race, state = await self._at_version(race_id, version)
        self._player_to_act(race, state, user_id)
        prompt = self.prompt(race, state)
        assert prompt is not None
        return race, state, prompt

    async def step_choices(self, race_id: int, version: int, user_id: int, step: int) -> Outcome:
        """A two-step choice, step two: the targets of group ``step`` privately, on a board."""
        race, state, prompt = await self._prompt_for(race_id, version, user_id)
        steps = prompt.steps()
        if not 0 <= step < len(steps):
            raise Refusal("That choice is not on offer any more; use the latest prompt.")
        key, label = steps[step]
        views = tuple(c for c in prompt.choices if c.step == key)
        game = find_game(race.game)
        picked = [c for c in game.rules.choices(state, prompt.player) if c.step == key]
        image = await self._board(race, state, picked)
        return Outcome(
            f"{label}: where to?",
            image=image,
            prompt=replace(prompt, layout="menu", piece=views[0].piece, choices=views, step=step),
        )

    async def choice_page(self, race_id: int, version: int, user_id: int, page: int, step: int | None) -> Outcome:
        _, _, prompt = await self._prompt_for(race_id, version, user_id)
        steps = prompt.steps()
        key = steps[step][0] if step is not None and 0 <= step < len(steps) else None
        views = tuple(c for c in prompt.choices if key is None or c.step == key)
        more = replace(prompt, layout="menu", choices=views, step=step)
        return Outcome("More choices:", prompt=more, prompt_page=page)

    async def play(self, channel_id: int, user_id: int, choice: str, piece: str | None = None) -> Outcome:
        """A typed decision (``/play move``): ``choice`` is a choice's key, or what names one (its target)."""
        race = await self.race_in(channel_id, running=True)
        async with self.lock(race.id):
            race = await self.race_in(channel_id, running=True)
            state = await self.state_of(race)
            seat = playing_seat(race, user_id)
            player = str(seat["player"])
            game = find_game(race.game)
            options = game.rules.choices(state, player)
            picked = _typed_choice(options, choice, piece)
            if picked is None:
                decision = game.rules.pending(state)
                if decision is None or decision.player != player:
                    if decision is not None:
                        raise Refusal(f"It is {self.who(race, decision.player)}'s decision now, not yours.")
                    raise Refusal("The race is over.")
                listing = ", ".join(o.label for o in options[:8])
                raise Refusal(f"{choice[:60]!r} is not one of your choices now. Choices: {listing}.")
            if not picked.anytime:
                self._player_to_act(race, state, user_id)
            return await self._apply_manual(race, state, player, user_id, picked.action)

    async def piece_names(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """(piece id, name) of the caller's pieces that have a choice now (for autocomplete)."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return []
        seat = seats.human_seat(race.lobby, user_id)
        if seat is None:
            return []
        state = await self.state_of(race)
        game = find_game(race.game)
        pieces = dict.fromkeys(c.piece for c in game.rules.choices(state, seat["player"]) if c.piece)
        return [(p, game.narration.piece_name(state, p)) for p in pieces if p]

    async def choice_names(self, channel_id: int, user_id: int, piece: str | None) -> list[tuple[str, str]]:
        """(key, label) of the caller's choices now, for ``piece`` if given (for autocomplete)."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return []
        seat = seats.human_seat(race.lobby, user_id)
        if seat is None:
            return []
        state = await self.state_of(race)
        game = find_game(race.game)
        out: dict[str, str] = {}  # label -> key: the first (default) path to a square stands for it
        for c in game.rules.choices(state, seat["player"]):
            if piece and c.piece not in (None, piece):
                continue
            name = game.narration.piece_name(state, c.piece) if c.piece else ""
            prefix = f"{name}: " if name and not piece and name not in c.label else ""
            out.setdefault(f"{prefix}{c.label}", choice_key(c))
        return [(key, label) for label, key in out.items()]

    def _player_to_act(self, race: RaceRow, state: Any, user_id: int) -> str:
        seat = playing_seat(race, user_id)
        decision = find_game(race.game).rules.pending(state)
        if decision is None:
            raise Refusal("The race is over.")
        if decision.player != seat["player"]:
            raise Refusal(f"It is {self.who(race, decision.player)}'s decision now, not yours.")
        return str(seat["player"])

    async def _apply_manual(self, race: RaceRow, state: Any, player: str, user_id: int, action: Action) -> Outcome:
        game = find_game(race.game)
        try:
            new_state, _ = game.rules.apply(state, action)
        except DomestiqueError as exc:
            raise Refusal(str(exc)) from None
        away = [p for p in race.lobby.get("away", []) if p != player]
        lobby = {**race.lobby, "away": away} if away != race.lobby.get("away", []) else None
        outcome = await self.commit(race, state, [(action, user_id, False)], lobby=lobby, applied=new_state)
        outcome.retire = f"✔ {seats.name_of(race.lobby, player)} — {self._in_words(game, state, new_state, action)}"
        return outcome

    @staticmethod
    def _in_words(game: AnyGame, before: Any, after: Any, action: Action) -> str:
        """A decision as the channel reads it: everything it did to its piece, in one line and in
        order ("yellow rouleur risks a crack: rolled 7, needed 5; rides to 14.1, 6 squares (-8
        energy)"), else the choice's label ("Pass")."""
        choice = next((c for c in game.rules.choices(before, action.by) if c.action == action), None)
        label = choice.label if choice is not None else action.do
        piece = choice.piece if choice is not None else None
        if piece is None:
            return label
        name = game.narration.piece_name(after, piece)
        told = game.narration.summary(after, list(game.rules.events(after)[len(game.rules.events(before)) :]))
        # a roll comes before the ride it decides: the line tells both, the piece named once
        mine = [line.removeprefix(name).strip() for line in told if line == name or line.startswith(f"{name} ")]
        return f"{name} {'; '.join(mine)}" if mine else f"{name}: {label}"

    async def commit(
        self,
        race: RaceRow,
        state: Any,
        decisions: list[tuple[Action, int | None, bool]],
        *,
        headline: str | None = None,
        lobby: dict[str, Any] | None = None,
        applied: Any | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> Outcome:
        """Apply ``decisions`` then every AI or away seat's, save them in one transaction, and say what happened.

        With ``envelope`` this is the race's start: the lobby becomes the race in the same transaction."""
        game = find_game(race.game)
        current_lobby = lobby or race.lobby
        view_race = replace(race, lobby=current_lobby)
        before = state
        stored: list[StoredAction] = []
        new_state = state
        for i, (action, user, automatic) in enumerate(decisions):
            new_state = applied if (applied is not None and i == 0) else game.rules.apply(new_state, action)[0]
            stored.append(StoredAction(len(race.actions) + len(stored), action.text(), user, automatic))
        played = await self.play_on(view_race, new_state, game)
        new_state = played.state
        stored += [
            StoredAction(len(race.actions) + len(stored) + i, a.text(), user, auto)
            for i, (a, user, auto) in enumerate(played.actions)
        ]
        decision = game.rules.pending(new_state)
        finished = decision is None
        # the clocks' charges are saved with the actions: a decision is never kept without its charge
        charges = await self.charge(view_race, before, decisions, played, new_state, len(race.actions))
        if played.premoves_used:  # spent with the commit, in its transaction: a lost commit keeps them
            charges = replace(charges or Charges(), premoves_used=list(played.premoves_used))
        deadline = None if decision is None else await self.deadline_for(view_race, decision.player, charges)
        if not await self.storage.append_actions(
            race.id, race.version, stored, deadline, finished, lobby, charges, envelope=envelope
        ):
            if envelope is not None:
                raise Refusal("The lobby changed at the same moment; try again.")
            raise Refusal("Someone acted at the same moment; your choice was not applied. Use the latest prompt.")
        version = race.version + 1
        self._states.put(race.id, version, new_state)
        await self.after_commit(view_race, before, decisions, played, new_state)
        if self.on_change is not None:
            self.on_change()
        count = len(race.actions) + len(stored)
        if finished or snapshot_due(len(race.actions), count):
            await self._snapshot(race, version, count, new_state)
        fresh = replace(
            view_race,
            version=version,
            actions=[*race.actions, *stored],
            deadline=deadline,
            status="finished" if finished else "running",
        )
        # Saved. The report (the next prompt's choices, the board) is the longest stretch of work
        # without a wait: let every other ready task (a click, a timer) run first, so none waits
        # behind several races' reports at once.
        await asyncio.sleep(0)
        outcome = await self.report(fresh, before, new_state, headline)
        outcome.dms += played.dms
        if played.notes:
            outcome.posts.insert(0, Post("\n".join(played.notes)))
        return outcome

    # ---- hooks of the pace layer (``bot/service/pace.py``): these defaults are the plain game

    async def play_on(self, race: RaceRow, state: Any, game: AnyGame) -> Played:
        """After the decisions of a commit: every decision that takes itself (AI and away seats)."""
        state, auto = self._autoplay(race, state, game)
        return Played(state, [(a, None, True) for a in auto])

    async def charge(
        self,
        race: RaceRow,
        before: Any,
        decisions: list[tuple[Action, int | None, bool]],
        played: Played,
        after: Any,
        first: int,
    ) -> Charges | None:
        """What a commit (its actions from index ``first`` on) does to the clocks, saved with its actions."""
        return None

    async def rewound_clocks(self, race: RaceRow, keep: int, state: Any) -> list[Clock]:
        """The clocks an undo back to ``keep`` actions (``state``) changes, as it leaves them."""
        return []

    async def deadline_for(self, race: RaceRow, player: str, charges: Charges | None = None) -> float:
        """When ``player``'s pending decision is due (``charges``: the clocks as the commit leaves them)."""
        return self.now() + int(race.lobby["timer"])

    async def after_commit(
        self, race: RaceRow, before: Any, decisions: list[tuple[Action, int | None, bool]], played: Played, after: Any
    ) -> None:
        """Called once a commit is saved (clocks, decision times, orders to cancel)."""

    async def due_text(self, race: RaceRow, player: str) -> str:
        """When the prompt's decision is due, in words (Discord timestamps)."""
        return f" Due <t:{int(race.deadline)}:R>." if race.deadline is not None else ""

    async def clock_ran_out(self, race: RaceRow, player: str) -> bool:
        """Has ``player``'s time bank run out at this deadline (the AI then plays the seat)?"""
        return False

    async def remind_at(self, race: RaceRow) -> float:
        """When the player to act is reminded: half way to the deadline."""
        assert race.deadline is not None
        return race.deadline - int(race.lobby["timer"]) / 2

    async def pace_status(self, race: RaceRow, state: Any) -> list[str]:
        """Lines for ``/race status``: standing orders, clocks."""
        return []

    async def catch_up_line(self, race: RaceRow, state: Any, player: str) -> str:
        """What happened since ``player`` last decided, in one line ('' when nobody else played since)."""
        return ""

    def _autoplay(
        self, race: RaceRow, state: Any, game: AnyGame, stop: Collection[str] = ()
    ) -> tuple[Any, list[Action]]:
        """The AI's decisions for AI seats (at their level) and seats it plays for their absent person
        (the strongest), up to a decision of a player in ``stop`` (whose plans decide) or of a person."""
        actions: list[Action] = []
        for _ in range(AUTOPLAY_LIMIT):
            decision = game.rules.pending(state)
            if decision is None or decision.player in stop or not seats.plays_itself(race.lobby, decision.player):
                break
            action = player_at(game, seats.ai_level(race.lobby, decision.player))(state, decision.player)
            state, _ = game.rules.apply(state, action)
            actions.append(action)
        return state, actions

    async def ping_for(
        self,
        race: RaceRow,
        game: AnyGame,
        before: Any,
        after: Any,
        decision: Decision,
        headline: str | None,
        due: str,
        outcome: Outcome,
        link: str = "",
    ) -> int | None:
        """Whom the post asking for ``decision`` pings: its owner on the first of a run of decisions
        they owe (the reminder pings again), unless they chose with ``/race notify`` to be told by
        private message (added to ``outcome.dms``, the post then pings nobody) or not at all."""
        user = seats.user_of(race.lobby, decision.player)
        previous = game.rules.pending(before)
        if user is None or (previous is not None and previous.player == decision.player and not headline):
            return None
        mode = await self.storage.notify_mode(race.guild_id, user) or "mention"
        if mode == "dm":
            owed = game.narration.ask(after, decision, "Your turn") + due
            caught_up = await self.catch_up_line(race, after, decision.player)
            if caught_up:
                owed = f"Since your last decision: {caught_up}.\n{owed}"
            outcome.dms.append((user, f"**{self.title(race)}**: {owed}{link}"))
        return user if mode == "mention" else None

    async def report(self, race: RaceRow, before: Any, after: Any, headline: str | None) -> Outcome:
        """The posts for the channel after a change: turn summary and board, then the next prompt."""
        game = find_game(race.game)
        rules, words = game.rules, game.narration
        events = list(rules.events(after)[len(rules.events(before)) :])
        posts: list[Post] = []
        lines = [headline] if headline else []
        finished = rules.outcome(after).finished
        turn_over = rules.turn(after) != rules.turn(before) or finished
        if events and not (turn_over or headline):
            lines += words.announce(after, events)
        if events and (turn_over or headline):
            for turn in sorted({e.turn for e in events}):
                told = words.summary(after, [e for e in events if e.turn == turn])
                if told:
                    lines.append(f"**Turn {turn}**: " + "; ".join(told) + ".")
        decision = rules.pending(after)
        outcome = Outcome("Done.")
        for player, text in game.secrets.news(before, after, events):
            user = seats.user_of(race.lobby, player)
            if user is not None:
                outcome.dms.append((user, f"**{self.title(race)}**: {text}"))
        if decision is None:
            lines.append(self._finish(race, after, game))
            page = await self.page_line(race, words="The whole race, turn by turn, on the web")
            if page:
                lines.append(page)
            image = await self._board(race, after, [])
            humans = seats.users(race.lobby["seats"])
            texts = chunks("\n".join(lines))
            posts += [Post(text, image if i == 0 else None, mentions=humans) for i, text in enumerate(texts)]
            posts += await self.finish_posts(race)
            if self.on_finish is not None and race.league_id is not None:
                posts += await self.on_finish(race, after)
            outcome.posts = posts
            outcome.closed = "🏁 The race is over: the result is below."
            return outcome
        prompt = self.prompt(race, after)
        user = seats.user_of(race.lobby, decision.player)
        due = await self.due_text(race, decision.player) if user is not None else ""
        caught_up = await self.catch_up_line(race, after, decision.player) if user is not None else ""
        if caught_up:  # what happened since this player last decided (``catch_up.py``), first
            lines.insert(0, f"Since {self.who(race, decision.player, mention=False)} last decided: {caught_up}.")
        lines.append(words.ask(after, decision, self.who(race, decision.player)) + due)
        mine = [a.index for a in race.actions if user is not None and a.user_id == user and not a.automatic]
        catch_up = await self.page_line(race, mine[-1], "Catch up since your last decision") if mine else ""
        if catch_up:
            lines.append(catch_up)
        link = f"\n{catch_up}" if catch_up else ""
        user_to_ping = await self.ping_for(race, game, before, after, decision, headline, due, outcome, link)
        highlight = [c for c in rules.choices(after, decision.player) if c.target is not None and c.step is None]
        shown = turn_over or bool(highlight) or bool(headline)
        image = await self._board(race, after, highlight, acting=decision.piece) if shown else None
        texts = chunks("\n".join(lines))
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            posts.append(
                Post(
                    text,
                    image if last else None,
                    prompt=prompt if last else None,
                    mentions=[user_to_ping] if (user_to_ping and last) else [],
                )
            )
        outcome.posts = posts
        return outcome

    async def page_link(self, race_id: int, since: int | None = None) -> str | None:
        """The race's web page link (``bot/service/web_pages.py``): none unless pages are served."""
        return None

    async def page_line(self, race: RaceRow, since: int | None = None, words: str = "Watch on the web") -> str:
        """A line with the race's web page link (``bot/service/web_pages.py``): none unless pages are served."""
        return ""

    def known_link(self, race: RaceRow) -> str:
        """The web page's line for a text written without a wait (the lobby), if known."""
        return ""

    async def finish_posts(self, race: RaceRow) -> list[Post]:
        """Posts that follow a race's finish board (the recap: ``bot/service/recap.py``)."""
        return []

    def _finish(self, race: RaceRow, state: Any, game: AnyGame) -> str:
        """The finish: the winner and the podium by name, every result, the people who played mentioned once."""
        placings = [p for p in game.rules.outcome(state).placings if p.rank is not None]
        lines = ["**Finish**"]
        if placings:
            winner = placings[0]
            name = game.narration.piece_name(state, winner.piece)
            lines.append(f"🏆 {name} wins for {seats.name_of(race.lobby, winner.player)}!")
            podium = [
                f"{p.rank}. {game.narration.piece_name(state, p.piece)} ({seats.name_of(race.lobby, p.player)})"
                for p in placings[:3]
            ]
            lines.append("Podium: " + ", ".join(podium))
        lines += game.narration.results(state)
        humans = seats.users(race.lobby["seats"])
        if humans:
            lines.append("Thanks for racing, " + " ".join(f"<@{u}>" for u in humans) + ".")
        return "\n".join(lines)

    async def _board(
        self, race: RaceRow, state: Any, highlight: list[Choice], acting: str | None = None
    ) -> bytes | None:
        if not self.render:
            return None
        legend = await self.legend(race)
        acts = [acting] if acting else []
        self._turns.give_back()  # the board is drawn in another process: the loop's turn goes to the next decision
        return await self.drawing.paint(
            race.game, state, highlight=highlight, acting=acts, title=self.title(race), legend=legend
        )

    async def legend(self, race: RaceRow) -> list[str]:
        """The lines under a board: the race's alliances (and who is away: ``away.py``)."""
        return await self.alliance_lines(race) if self.alliance_lines is not None else []

    def prompt(self, race: RaceRow, state: Any) -> Prompt | None:
        game = find_game(race.game)
        decision = game.rules.pending(state)
        if decision is None:
            return None
        views = tuple(
            ChoiceView.of(i, c) for i, c in enumerate(game.rules.choices(state, decision.player)) if not c.anytime
        )
        return Prompt(
            race.id,
            race.version,
            decision.player,
            seats.user_of(race.lobby, decision.player),
            decision.layout,
            decision.piece,
            views,
        )


def choice_key(choice: Choice) -> str:
    """A choice's typed form: its action without the player (``breakaway rider=yellow-rouleur to=12.2``)."""
    return choice.action.text().split(" ", 1)[1]


def _typed_choice(options: list[Choice], typed: str, piece: str | None) -> Choice | None:
    """The choice a typed value names: its key, else the only one with that target (for ``piece``)."""
    typed = typed.strip()
    exact = [c for c in options if choice_key(c) == typed]
    if exact:
        return exact[0]
    lowered = typed.lower()
    named = [
        c
        for c in options
        if (piece is None or c.piece in (None, piece))
        and lowered in {(c.target or "").lower(), c.short.lower(), c.label.lower()}
    ]
    return named[0] if named else None
