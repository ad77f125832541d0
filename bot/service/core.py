"""The heart of the service layer: decisions applied, saved and reported.

Every decision goes load race -> rules.apply -> save (one transaction, optimistic version) ->
report. The core knows nothing of Discord and nothing of any one game: it reads the game's
``rules.game.Game`` once per request (``store.Loaded``) and returns ``Outcome`` values
(``bot/service/model.py``). What a commit does besides the game's rules comes from the parts it
is built with: the clocks and plans (``pace_clocks.Clocks``), the catch-up line
(``catch_up.CatchUp``), the web pages' links (``web_pages.WebLinks``) and the listeners
(``listeners.Listeners``). Every refusal is a ``Refusal`` with a short message that says what is
allowed; the race is left unchanged.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from bot.service import draft, seats
from bot.service.absence import away_lines
from bot.service.autoplay import Played
from bot.service.backoff import Backoff
from bot.service.catch_up import CatchUp
from bot.service.common import Refusal, choice_key, chunks, playing_seat, title, typed_choice, who
from bot.service.drawing import Drawing, ThreadDrawing
from bot.service.languages import Languages
from bot.service.listeners import Listeners
from bot.service.model import ChoiceView, Close, DirectMessage, Outcome, Post, Prompt, Publish, Retire
from bot.service.pace_clocks import Clocks
from bot.service.pact_marks import asked_again, breaks_by_index, marked
from bot.service.recap import finish_posts
from bot.service.store import Loaded, RaceStore
from bot.service.turns import Turns
from bot.service.web_pages import WebLinks
from bot.shards import Shards
from bot.storage import Charges, RaceRow, StoredAction
from bot.storage.lobby import LobbyData
from rules.action import Action
from rules.errors import DomestiqueError
from rules.events import Event
from rules.game import Choice, Decision
from rules.i18n import Language, _, current, speaking
from rules.registry import AnyGame

# True once the request being answered has saved a decision: an error after that point must not tell
# the person "nothing was changed" (``bot/discord_layer/posting.py``)
SAVED: ContextVar[bool] = ContextVar("saved", default=False)


class RaceCore:
    def __init__(
        self,
        store: RaceStore,
        *,
        clocks: Clocks,
        catch_up: CatchUp,
        links: WebLinks,
        listeners: Listeners,
        languages: Languages,
        render: bool = True,
        seeds: Callable[[], int] | None = None,
        drawing: Drawing | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.store = store
        self.storage = store.storage
        self.now = store.now
        self.clocks = clocks
        self.catch_up = catch_up
        self.links = links
        self.listeners = listeners
        self.languages = languages  # who reads which language: the server's public text, a person's DMs
        self.drawing: Drawing = drawing or ThreadDrawing()  # domestique run draws in worker processes
        self.render = render
        # 63 unguessable bits per race: its dice must not be foretold from anything public.
        # Tests pass a seeded generator to replay the same races.
        self.new_seed = seeds or (lambda: secrets.randbits(63))
        # the servers this process runs timers and league stages for: all, unless one process of a cluster
        self.shards = shards or Shards.everything()
        self._turns = Turns()  # decisions worked on a few at a time, first come first served
        self.timer_backoff = Backoff()  # races whose timer failed wait longer before the next try

    async def public(self, race: RaceRow) -> Language:
        """The language of the race's public text: its server's (``languages.Languages.public``)."""
        return await self.languages.public(race.guild_id)

    async def state_of(self, race: RaceRow) -> object:
        """The race's state now (``store.RaceStore.state_of``)."""
        return await self.store.state_of(race)

    # ------------------------------------------------------------------ decisions

    async def decide(self, race_id: int, version: int, user_id: int, index: int, *, sure: bool = False) -> Outcome:
        """A button or menu choice: choice ``index`` of the prompt shown at ``version`` (``sure``: taken
        again after being told it breaks a pact, ``pact_marks.asked_again``)."""
        # a few decisions at a time, in the order they came: the others wait off the loop (turns.py)
        async with self._turns.turn(), self.store.lock(race_id):
            loaded = await self.store.at_version(race_id, version)
            player = self._player_to_act(loaded, user_id)
            choices = loaded.game.rules.choices(loaded.state, player)
            if not 0 <= index < len(choices) or choices[index].anytime:
                raise Refusal(_("That choice is not on offer any more; use the latest prompt."))
            asked = None if sure else await asked_again(self.listeners, loaded, player, index)  # a pact at stake
            if asked is not None:
                return asked
            return await self._apply_manual(loaded, player, user_id, choices[index].action)

    async def _prompt_for(self, race_id: int, version: int, user_id: int) -> tuple[Loaded, Prompt]:
        loaded = await self.store.at_version(race_id, version)
        self._player_to_act(loaded, user_id)
        prompt = await self.marked_prompt(loaded, private=True)  # a menu shown to the player alone
        assert prompt is not None
        return loaded, prompt

    async def step_choices(self, race_id: int, version: int, user_id: int, step: int) -> Outcome:
        """A two-step choice, step two: the targets of group ``step`` privately, on a board."""
        loaded, prompt = await self._prompt_for(race_id, version, user_id)
        steps = prompt.steps()
        if not 0 <= step < len(steps):
            raise Refusal(_("That choice is not on offer any more; use the latest prompt."))
        key, label = steps[step]
        views = tuple(c for c in prompt.choices if c.step == key)
        picked = [c for c in loaded.game.rules.choices(loaded.state, prompt.player) if c.step == key]
        image = await self.board(loaded, picked)
        return Outcome(
            _("{choice}: where to?", choice=label),
            image=image,
            image_alt=self.described(loaded),
            prompt=replace(prompt, layout="menu", piece=views[0].piece, choices=views, step=step),
        )

    async def choice_page(self, race_id: int, version: int, user_id: int, page: int, step: int | None) -> Outcome:
        _loaded, prompt = await self._prompt_for(race_id, version, user_id)
        steps = prompt.steps()
        key = steps[step][0] if step is not None and 0 <= step < len(steps) else None
        views = tuple(c for c in prompt.choices if key is None or c.step == key)
        more = replace(prompt, layout="menu", choices=views, step=step)
        return Outcome(_("More choices:"), prompt=more, prompt_page=page)

    async def play(self, channel_id: int, user_id: int, choice: str, piece: str | None = None) -> Outcome:
        """A typed decision (``/play move``): ``choice`` is a choice's key, or what names one (its target)."""
        race = await self.store.race_in(channel_id, running=True)
        async with self.store.lock(race.id):
            loaded = await self.store.load(await self.store.race_in(channel_id, running=True))
            race, game, state = loaded.race, loaded.game, loaded.state
            player = str(playing_seat(race, user_id)["player"])
            options = game.rules.choices(state, player)
            picked = typed_choice(options, choice, piece)
            if picked is None:
                decision = game.rules.pending(state)
                if decision is None or decision.player != player:
                    if decision is not None:
                        raise Refusal(_("It is {who}'s decision now, not yours.", who=who(race, decision.player)))
                    raise Refusal(_("The race is over."))
                listing = ", ".join(o.label for o in options[:8])
                raise Refusal(
                    _(
                        "{typed} is not one of your choices now. Choices: {listing}.",
                        typed=repr(choice[:60]),
                        listing=listing,
                    )
                )
            if not picked.anytime:
                self._player_to_act(loaded, user_id)
                asked = await asked_again(self.listeners, loaded, player, options.index(picked))  # a pact at stake
                if asked is not None:
                    return asked
            return await self._apply_manual(loaded, player, user_id, picked.action)

    async def _own_choices(self, channel_id: int, user_id: int) -> tuple[Loaded, list[Choice]] | None:
        """The caller's race and their choices now, for autocomplete (None: nothing to offer)."""
        race = await self.storage.active_race(channel_id)
        if race is None or race.status != "running":
            return None
        seat = seats.human_seat(race.lobby, user_id)
        if seat is None:
            return None
        loaded = await self.store.load(race)
        return loaded, loaded.game.rules.choices(loaded.state, seat["player"])

    async def piece_names(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """(piece id, name) of the caller's pieces that have a choice now (for autocomplete)."""
        found = await self._own_choices(channel_id, user_id)
        if found is None:
            return []
        loaded, choices = found
        pieces = dict.fromkeys(c.piece for c in choices if c.piece)
        return [(p, loaded.game.narration.piece_name(loaded.state, p)) for p in pieces if p]

    async def choice_names(self, channel_id: int, user_id: int, piece: str | None) -> list[tuple[str, str]]:
        """(key, label) of the caller's choices now, for ``piece`` if given (for autocomplete)."""
        found = await self._own_choices(channel_id, user_id)
        if found is None:
            return []
        loaded, choices = found
        out: dict[str, str] = {}  # label -> key: the first (default) path to a square stands for it
        for c in choices:
            if piece and c.piece not in (None, piece):
                continue
            name = loaded.game.narration.piece_name(loaded.state, c.piece) if c.piece else ""
            prefix = f"{name}: " if name and not piece and name not in c.label else ""
            out.setdefault(f"{prefix}{c.label}", choice_key(c))
        return [(key, label) for label, key in out.items()]

    @staticmethod
    def _player_to_act(loaded: Loaded, user_id: int) -> str:
        seat = playing_seat(loaded.race, user_id)
        decision = loaded.game.rules.pending(loaded.state)
        if decision is None:
            raise Refusal(_("The race is over."))
        if decision.player != seat["player"]:
            raise Refusal(_("It is {who}'s decision now, not yours.", who=who(loaded.race, decision.player)))
        return str(seat["player"])

    async def _apply_manual(self, loaded: Loaded, player: str, user_id: int, action: Action) -> Outcome:
        race, game, state = loaded.race, loaded.game, loaded.state
        try:
            new_state, _events = game.rules.apply(state, action)
        except DomestiqueError as exc:
            raise Refusal(str(exc)) from None
        away = [p for p in race.lobby.get("away", []) if p != player]
        lobby: LobbyData | None = None
        if away != race.lobby.get("away", []):
            lobby = {**race.lobby, "away": away}
        outcome = await self.commit(loaded, [(action, user_id, False)], lobby=lobby, applied=new_state)
        said = f"✔ {seats.name_of(race.lobby, player)} — "
        mine = said + self._in_words(game, state, new_state, action)  # the person's answer, in their words
        public = await self.public(race)
        if public == current():
            line = mine
        else:
            with speaking(public):  # the channel reads the decision's line in the server's language
                line = said + self._in_words(game, state, new_state, action)
        if outcome.lobby_edit is not None:
            # a draft pick: the channel's post tells it and the lobby message shows it; the person
            # who picked is answered with the pick itself
            return outcome.answered(mine)
        return outcome.first(Retire(line)).answered(mine)

    @staticmethod
    def _in_words(game: AnyGame, before: object, after: object, action: Action) -> str:
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
        loaded: Loaded,
        decisions: list[tuple[Action, int | None, bool]],
        *,
        headline: str | None = None,
        lobby: LobbyData | None = None,
        applied: object | None = None,
        envelope: dict[str, Any] | None = None,
    ) -> Outcome:
        """Apply ``decisions`` then every AI or away seat's, save them in one transaction, and say what happened.

        With ``envelope`` this is the race's start: the lobby becomes the race in the same transaction."""
        race, game, state = loaded.race, loaded.game, loaded.state
        current_lobby = lobby or race.lobby
        view_race = replace(race, lobby=current_lobby)
        before = state
        stored: list[StoredAction] = []
        new_state = state
        for i, (action, user, automatic) in enumerate(decisions):
            new_state = applied if (applied is not None and i == 0) else game.rules.apply(new_state, action)[0]
            stored.append(StoredAction(len(race.actions) + len(stored), action.text(), user, automatic))
            # where the catch-up line of this decision's player starts next time (no replay needed then)
            told = len(game.rules.events(new_state))
            self.catch_up.decided(race.id, len(race.actions) + len(stored), action.text(), told)
        played: Played = await self.clocks.play_on(view_race, new_state, game)
        new_state = played.state
        stored += [
            StoredAction(len(race.actions) + len(stored) + i, a.text(), user, auto)
            for i, (a, user, auto) in enumerate(played.actions)
        ]
        decision = game.rules.pending(new_state)
        finished = decision is None
        # the clocks' charges are saved with the actions: a decision is never kept without its charge
        charges = await self.clocks.charge(view_race, game, before, decisions, played, new_state, len(race.actions))
        if played.premoves_used:  # spent with the commit, in its transaction: a lost commit keeps them
            charges = replace(charges or Charges(), premoves_used=list(played.premoves_used))
        deadline = None if decision is None else await self.clocks.deadline_for(view_race, decision.player, charges)
        if not await self.storage.append_actions(
            race.id, race.version, stored, deadline, finished, lobby, charges, envelope=envelope
        ):
            if envelope is not None:
                raise Refusal(_("The lobby changed at the same moment; try again."))
            raise Refusal(_("Someone acted at the same moment; your choice was not applied. Use the latest prompt."))
        SAVED.set(True)
        version = race.version + 1
        self.store.keep(race.id, version, new_state)
        await self.clocks.after_commit(view_race, game, before, decisions)
        self.listeners.deadlines_changed()
        count = len(race.actions) + len(stored)
        await self.store.saved(race, game, new_state, version, count)
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
        outcome = await self.report(Loaded(fresh, game, new_state), before, headline)
        outcome = outcome.then(*(DirectMessage(user, text) for user, text in played.dms))
        if played.notes:  # written in the race's language (``pace_clocks.Clocks.play_on``)
            outcome = outcome.first_in_channel(Publish(Post("\n".join(played.notes))))
        return outcome.then(*await self.listeners.after_commit(fresh, len(race.actions), before))  # a pact broken

    async def ping_for(
        self,
        loaded: Loaded,
        before: object,
        decision: Decision,
        headline: str | None,
        link: str = "",
        since: int | None = None,
    ) -> tuple[int | None, list[DirectMessage]]:
        """Whom the post asking for ``decision`` pings: its owner on the first of a run of decisions
        they owe (the reminder pings again), unless they chose with ``/race notify`` to be told by
        private message (returned, in their language, the post then pings nobody) or not at all.
        ``link``: where the prompt is; ``since``: the owner's last decision (its catch-up page)."""
        race, game, after = loaded.race, loaded.game, loaded.state
        user = seats.user_of(race.lobby, decision.player)
        previous = game.rules.pending(before)
        if user is None or (previous is not None and previous.player == decision.player and not headline):
            return None, []
        mode = await self.storage.notify_mode(race.guild_id, user) or "mention"
        if mode == "dm":
            with speaking(await self.languages.private(user)):
                due = await self.clocks.due_text(race, decision.player)
                owed = game.narration.ask(after, decision, _("Your turn")) + due
                caught_up = self.catch_up.since_line(race, game, after, decision.player)
                if caught_up:
                    owed = _("Since your last decision: {what}.", what=caught_up) + f"\n{owed}"
                page = await self.links.page_line(race, since, _("Catch up since your last decision")) if since else ""
                link = f"{link}\n{page}" if page else link
                return None, [DirectMessage(user, f"**{title(race)}**: {owed}{link}")]
        return (user if mode == "mention" else None), []

    async def secret_news(self, loaded: Loaded, before: object, events: list[Event]) -> list[DirectMessage]:
        """What a change told each player privately (a feed tile drawn), in each one's language."""
        race = loaded.race
        told = []
        for player, _text in loaded.game.secrets.news(before, loaded.state, events):
            user = seats.user_of(race.lobby, player)
            if user is None:
                continue
            with speaking(await self.languages.private(user)):  # the news again, in the reader's words
                texts = [t for p, t in loaded.game.secrets.news(before, loaded.state, events) if p == player]
                told += [DirectMessage(user, f"**{title(race)}**: {text}") for text in texts[:1]]
        return told

    async def report(self, loaded: Loaded, before: object, headline: str | None) -> Outcome:
        """The posts for the channel after a change, in the server's language: turn summary and board,
        then the next prompt (a game's lobby draft is told on the lobby message: ``draft.py``)."""
        with speaking(await self.public(loaded.race)):
            if loaded.game.draft is not None:
                drafted = await draft.report(self, loaded, loaded.game.draft, before, headline)
                if drafted is not None:
                    return drafted
            return await self.plain_report(loaded, before, headline)

    async def plain_report(self, loaded: Loaded, before: object, headline: str | None) -> Outcome:
        race, game, after = loaded.race, loaded.game, loaded.state
        rules, words = game.rules, game.narration
        events = list(rules.events(after)[len(rules.events(before)) :])
        told_now = words.summary(after, events) if events else []  # for the board's description
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
                    lines.append(game.turn_heading(turn, "; ".join(told)) + ".")
        decision = rules.pending(after)
        dms = await self.secret_news(loaded, before, events)
        if decision is None:
            lines.append(self._finish(loaded))
            page = await self.links.page_line(race, words=_("The whole race, turn by turn, on the web"))
            if page:
                lines.append(page)
            image = await self.board(loaded, [])
            alt = self.described(loaded, told_now)
            humans = seats.users(race.lobby["seats"])
            texts = chunks("\n".join(lines))
            posts += [
                Post(text, image if i == 0 else None, mentions=humans, image_alt=alt if i == 0 else "")
                for i, text in enumerate(texts)
            ]
            if self.render:
                posts += await finish_posts(race)
            if race.league_id is not None:
                posts += await self.listeners.after_stage(race, after)
            closed = Close("🏁 " + _("The race is over: the result is below."))
            return Outcome("Done.", posts=posts).then(closed, *dms)
        prompt = await self.marked_prompt(loaded)
        user = seats.user_of(race.lobby, decision.player)
        due = await self.clocks.due_text(race, decision.player) if user is not None else ""
        caught_up = self.catch_up.since_line(race, game, after, decision.player) if user is not None else ""
        if caught_up:  # what happened since this player last decided (``catch_up.py``), first
            since_line = _(
                "Since {who} last decided: {what}.", who=who(race, decision.player, mention=False), what=caught_up
            )
            lines.insert(0, since_line)
        lines.append(words.ask(after, decision, who(race, decision.player)) + due)
        mine = [a.index for a in race.actions if user is not None and a.user_id == user and not a.automatic]
        catch_up = await self.links.page_line(race, mine[-1], _("Catch up since your last decision")) if mine else ""
        if catch_up:
            lines.append(catch_up)
        user_to_ping, by_dm = await self.ping_for(loaded, before, decision, headline, since=mine[-1] if mine else None)
        highlight = [c for c in rules.choices(after, decision.player) if c.target is not None and c.step is None]
        shown = turn_over or bool(highlight) or bool(headline)
        image = await self.board(loaded, highlight, acting=decision.piece) if shown else None
        texts = chunks("\n".join(lines))
        for i, text in enumerate(texts):
            last = i == len(texts) - 1
            posts.append(
                Post(
                    text,
                    image if last else None,
                    prompt=prompt if last else None,
                    mentions=[user_to_ping] if (user_to_ping and last) else [],
                    image_alt=self.described(loaded, told_now) if (image is not None and last) else "",
                )
            )
        return Outcome("Done.", posts=posts).then(*dms, *by_dm)

    @staticmethod
    def _finish(loaded: Loaded) -> str:
        """The finish: the winner and the podium by name, every result, the people who played mentioned once."""
        race, game, state = loaded.race, loaded.game, loaded.state
        placings = [p for p in game.rules.outcome(state).placings if p.rank is not None]
        lines = [_("**Finish**")]
        if placings:
            winner = placings[0]
            name = game.narration.piece_name(state, winner.piece)
            player = seats.name_of(race.lobby, winner.player)
            lines.append("🏆 " + _("{piece_name} wins for {player_name}!", piece_name=name, player_name=player))
            podium = [
                f"{p.rank}. {game.narration.piece_name(state, p.piece)} ({seats.name_of(race.lobby, p.player)})"
                for p in placings[:3]
            ]
            lines.append(_("Podium: {placings}", placings=", ".join(podium)))
        lines += game.narration.results(state)
        humans = seats.users(race.lobby["seats"])
        if humans:
            lines.append(_("Thanks for racing, {people}.", people=" ".join(f"<@{u}>" for u in humans)))
        return "\n".join(lines)

    @staticmethod
    def described(loaded: Loaded, just: Sequence[str] = ()) -> str:
        """The board in words, for a screen reader (the image's description, in the language of the
        moment): the race and turn, whose decision it is, what just happened, where every piece is."""
        race, game, state = loaded.race, loaded.game, loaded.state
        parts = [_("The board of {race_title}, turn {turn}.", race_title=title(race), turn=game.rules.turn(state))]
        decision = game.rules.pending(state)
        if decision is not None:
            asked = game.narration.ask(state, decision, who(race, decision.player, mention=False))
            parts.append(asked.rstrip(".") + ".")
        if just:
            parts.append(_("Just now: {what}.", what="; ".join(just)))
        where = [line.replace("**", "").rstrip(".") for line in game.narration.status(state)]
        if where:
            parts.append("; ".join(where) + ".")
        return " ".join(parts)

    async def board(self, loaded: Loaded, highlight: list[Choice], acting: str | None = None) -> bytes | None:
        """The race's board now (None when this service draws none), ``highlight``: the choices offered."""
        if not self.render:
            return None
        legend = await self.legend(loaded.race)
        acts = [acting] if acting else []
        self._turns.give_back()  # the board is drawn in another process: the loop's turn goes to the next decision
        shown, game, state = title(loaded.race), loaded.race.game, loaded.state  # the title: language of the moment
        # a worker process does not inherit the language of the moment: it is handed over
        return await self.drawing.paint(
            game, state, highlight=highlight, acting=acts, title=shown, legend=legend, language=current()
        )

    async def legend(self, race: RaceRow) -> list[str]:
        """The lines under a board: the race's alliances, and who is away until when."""
        return await self.listeners.alliances(race) + away_lines(race.lobby)

    async def marked_prompt(self, loaded: Loaded, *, private: bool = False) -> Prompt | None:
        """The prompt, each choice that would break a pact of the player's saying so (``pact_marks.py``):
        in the channel, its public pacts only; ``private`` (a menu only the player sees), all of them."""
        return self.prompt(loaded, await breaks_by_index(self.listeners, loaded, public_only=not private))

    @staticmethod
    def prompt(loaded: Loaded, breaks: dict[int, str] | None = None) -> Prompt | None:
        race, game, state = loaded.race, loaded.game, loaded.state
        decision = game.rules.pending(state)
        if decision is None:
            return None
        views = tuple(
            ChoiceView.of(i, c) for i, c in enumerate(game.rules.choices(state, decision.player)) if not c.anytime
        )
        views = marked(views, breaks or {})
        return Prompt(
            race.id,
            race.version,
            decision.player,
            seats.user_of(race.lobby, decision.player),
            decision.layout,
            decision.piece,
            views,
        )
