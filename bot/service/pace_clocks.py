"""Pace in every commit: decisions made ahead (premoves), standing orders, time banks and decision times (docs/pace.md).

``RaceCore.commit`` calls these: after a commit's decisions, a player's decision made ahead is
applied when their decision comes (if the game says it still means the same thing, else dropped
and the player told why), then their standing orders settle the routine decisions they cover; a
deadline is the per-decision maximum, or the player's time bank if it runs out first; every asked
decision's time is charged to its player's clock and kept for ``/race pace``, in the transaction
that saves the decision (``charge``), and an undo gives it back (``rewound_clocks``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.service import seats
from bot.service.autoplay import Played, autoplay
from bot.service.common import AUTOPLAY_LIMIT, title
from bot.service.durations import duration
from bot.service.languages import Languages
from bot.service.listeners import Listeners
from bot.service.pact_marks import ai_keeping, breaking, names_in
from bot.service.pact_marks import held as in_force_now
from bot.service.store import RaceStore
from bot.storage import Charges, Clock, PaceTime, Premove, RaceRow, StandingOrder
from rules.action import Action
from rules.ai_levels import player_at
from rules.errors import DomestiqueError
from rules.game import Choice, Decision
from rules.i18n import _, speaking
from rules.registry import AnyGame

OVERTIME = 3600  # per-decision maximum of a seat taken back after its clock ran out


def moment_words(game: AnyGame, order: StandingOrder) -> str:
    """The moment that ends ``order``, in the game's words ("the top of the climb")."""
    moment = next((m for m in game.pace.moments if m.name == order.until), None)
    if moment is None:
        return str(order.until)
    label = _(moment.label)  # marked in the game (N_); its N is the player's number
    return label.replace("N", str(order.until_number or 1)) if moment.number else label


def ordered(game: AnyGame, state: object, decision: Decision, orders: list[StandingOrder]) -> Choice | None:
    """The choice the player's standing orders make for ``decision``, if they settle it."""
    if not orders:
        return None
    choices = [c for c in game.rules.choices(state, decision.player) if not c.anytime]
    for kind in game.pace.orders:
        mine = [(o.piece, o.number) for o in orders if o.kind == kind.name]
        if mine:
            choice = kind.decides(state, decision, choices, mine)
            if choice is not None:
                return choice
    return None


def _label(game: AnyGame, state: object, player: str, action: Action) -> str:
    """The label of ``action`` among ``player``'s choices now, in the language of the moment."""
    return next((c.label for c in game.rules.choices(state, player) if c.action == action), "")


class Clocks:
    """The pace of every race: what plays itself after a commit, the clocks, deadlines and reminders."""

    def __init__(
        self, store: RaceStore, languages: Languages | None = None, listeners: Listeners | None = None
    ) -> None:
        self.store = store
        self.listeners = listeners or Listeners()  # the race's pacts: kept by the AI, asked about before plans act
        self.storage = store.storage
        self.now = store.now
        self.languages = languages or Languages(store.storage)  # notes in the race's language, DMs in the reader's

    async def play_on(self, race: RaceRow, state: object, game: AnyGame) -> Played:
        """AI and away seats, then decisions made ahead and standing orders, until someone must be asked."""
        planned, orders = await self.storage.plans(race.id)  # one read for both: every commit asks
        premoves = {p.player: p for p in planned}
        played = Played(state, [])
        used: list[str] = []
        public = await self.languages.public(race.guild_id)  # the notes are posted in the race's channel
        pacts = in_force_now(await self.listeners.pacts(race), race)
        names = names_in(race)
        for _turn in range(AUTOPLAY_LIMIT):
            decision = game.rules.pending(played.state)
            if decision is None:
                break
            player = decision.player
            user = seats.user_of(race.lobby, player)
            planned_away = seats.plays_itself(race.lobby, player) and any(o.player == player for o in orders)
            if seats.plays_itself(race.lobby, player) and not planned_away:
                # AI seats may play thousands of decisions: in a thread, so other races' clicks go on
                stop = {o.player for o in orders}
                played.state, auto = await asyncio.to_thread(autoplay, race, played.state, game, stop, pacts)
                played.actions += [(action, None, True) for action in auto]
                continue
            orders = await self._end_orders(race, game, played, orders, player, user)
            if planned_away:  # a seat handed to the AI keeps its player's plans: the AI makes what they leave
                choice = ordered(game, played.state, decision, [o for o in orders if o.player == player])
                if choice is None:
                    policy = ai_keeping(game, player_at(game, seats.ai_level(race.lobby, player)), pacts, race)
                    action = policy(played.state, player)
                    played.state = game.rules.apply(played.state, action)[0]
                    played.actions.append((action, None, True))
                    continue
                with speaking(public):
                    label = _label(game, played.state, player, choice.action)
                    name = seats.name_of(race.lobby, player)
                    played.notes.append(_("{name}'s standing orders (away): {choice}.", name=name, choice=label))
                played.state = game.rules.apply(played.state, choice.action)[0]
                played.actions.append((choice.action, user, False))
                continue
            premove = premoves.pop(player, None)
            if premove is not None:
                used.append(player)
                with speaking(await self.languages.private(user)):  # why it was dropped is told to its owner
                    held, why = self._premove_now(game, played.state, decision, premove)
                    breaks = breaking(game, played.state, pacts, held, names, race.stage) if held is not None else ""
                    if breaks:  # asked about on the prompt, never applied silently
                        held, why = None, _("was not applied: it {breaks}. Choose on the prompt.", breaks=breaks)
                    told = _(
                        "{race_title}: your decision made ahead ({choice}) {why}",
                        race_title=title(race),
                        choice=premove.label,
                        why=why,
                    )
                if held is not None:
                    with speaking(public):
                        label = _label(game, played.state, player, held) or premove.label
                        name = seats.name_of(race.lobby, player)
                        played.notes.append(_("{name} had decided ahead: {choice}.", name=name, choice=label))
                    played.state = game.rules.apply(played.state, held)[0]
                    played.actions.append((held, premove.user_id, False))
                    continue
                if user is not None:
                    played.dms.append((user, told))
            choice = ordered(game, played.state, decision, [o for o in orders if o.player == player])
            if choice is None:
                with speaking(public):
                    played.notes += self._left_to_player(race, game, played.state, decision, orders)
                break
            with speaking(public):
                breaks = breaking(game, played.state, pacts, choice.action, names, race.stage)
            if breaks:  # a standing order that would break a pact: the player is asked
                with speaking(public):
                    name = seats.name_of(race.lobby, player)
                    label = _label(game, played.state, player, choice.action)
                    played.notes.append(
                        _(
                            "{name}'s standing orders ({choice}) would break a pact: {name} decides.",
                            name=name,
                            choice=label,
                        )
                    )
                break
            with speaking(public):
                label = _label(game, played.state, player, choice.action)
                name = seats.name_of(race.lobby, player)
                played.notes.append(_("{name}'s standing orders: {choice}.", name=name, choice=label))
            played.state = game.rules.apply(played.state, choice.action)[0]
            played.actions.append((choice.action, user, False))
        played.premoves_used = used  # forgotten in the commit's transaction (``Charges.premoves_used``)
        return played

    async def _end_orders(
        self,
        race: RaceRow,
        game: AnyGame,
        played: Played,
        orders: list[StandingOrder],
        player: str,
        user: int | None,
    ) -> list[StandingOrder]:
        """Orders of ``player`` whose named moment has come end (the player is told privately)."""
        moments = {m.name: m for m in game.pace.moments}
        kept = []
        for order in orders:
            moment = moments.get(order.until or "")
            ends = moment is not None and moment.reached(played.state, order.piece, order.until_number)
            if order.player == player and ends:
                await self.storage.drop_orders(race.id, player, order.piece, order.kind)
                if user is not None:
                    with speaking(await self.languages.private(user)):
                        name = game.narration.piece_name(played.state, order.piece)
                        end = moment_words(game, order)
                        said = _(
                            "{race_title}: {piece_name}'s standing order ends: {moment}.",
                            race_title=title(race),
                            piece_name=name,
                            moment=end,
                        )
                    played.dms.append((user, said))
                continue
            kept.append(order)
        return kept

    @staticmethod
    def _premove_now(game: AnyGame, state: object, decision: Decision, premove: Premove) -> tuple[Action | None, str]:
        """The premove's action if it still holds now, else None and why not (in words)."""
        if decision.kind != premove.kind or decision.piece != premove.piece:
            return None, _("was dropped: another decision of yours came first. Choose on the prompt.")
        try:
            action = game.vocabulary.from_text(premove.action)
        except DomestiqueError:
            return None, _("was dropped: it could not be read. Choose on the prompt.")
        now = next(
            (c for c in game.rules.choices(state, decision.player) if c.action == action and not c.anytime), None
        )
        if now is None:
            return None, _("was dropped: it is no longer possible. Choose on the prompt.")
        before = Choice(action, premove.label, premove.detail, piece=premove.piece)
        if not game.pace.same(before, now):
            change = _("now {choice}", choice=now.label) + (f" ({now.detail})" if now.detail else "")
            return None, _("was dropped: it no longer means the same ({change}). Choose on the prompt.", change=change)
        return action, ""

    @staticmethod
    def _left_to_player(
        race: RaceRow, game: AnyGame, state: object, decision: Decision, orders: list[StandingOrder]
    ) -> list[str]:
        """A plan of the piece that speaks to this decision but cannot make it says so: the player is asked."""
        plans = {k.name: k for k in game.pace.orders if k.plan and decision.kind in k.settles}
        mine = [o for o in orders if o.player == decision.player and o.piece == decision.piece and o.kind in plans]
        if not mine or decision.piece is None:
            return []
        name = game.narration.piece_name(state, decision.piece)
        owner = seats.name_of(race.lobby, decision.player)
        return [
            _(
                "{piece_name}'s plan does not cover this decision: {player_name} decides.",
                piece_name=name,
                player_name=owner,
            )
        ]

    async def deadline_for(self, race: RaceRow, player: str, charges: Charges | None = None) -> float:
        timer = float(race.lobby["timer"])
        if not race.lobby.get("bank") or seats.plays_itself(race.lobby, player):
            return self.now() + timer
        clock = next((c for c in charges.clocks if c.player == player), None) if charges else None
        clock = clock or await self.clock(race, player)
        left = clock.left - (self.now() - clock.asked if clock.asked is not None else 0.0)
        if clock.left <= 0:
            left = min(timer, OVERTIME)
        return self.now() + min(timer, max(0.0, left))

    async def clock(self, race: RaceRow, player: str) -> Clock:
        found = next((c for c in await self.storage.clocks(race.id) if c.player == player), None)
        return found or Clock(player, float(race.lobby.get("bank") or 0))

    async def charge(
        self,
        race: RaceRow,
        game: AnyGame,
        before: object,
        decisions: list[tuple[Action, int | None, bool]],
        played: Played,
        after: object,
        first: int,
    ) -> Charges | None:
        """The decision asked before the commit is charged to its player's clock, from when it was
        asked to now (a decision time, kept with the action that decided it); the one asked after it
        starts its player's clock. Saved in the commit's transaction, with its actions."""
        asked, pending = game.rules.pending(before), game.rules.pending(after)
        wanted = {d.player for d in (asked, pending) if d is not None}
        if not wanted:
            return None
        now = self.now()
        kept = {c.player: c for c in await self.storage.clocks(race.id) if c.player in wanted}
        bank = float(race.lobby.get("bank") or 0)
        charges = Charges()
        answered = False
        if asked is not None:
            every = [*decisions, *played.actions]
            at = next((i for i, (action, _user, _auto) in enumerate(every) if action.by == asked.player), None)
            clock = kept.get(asked.player) or Clock(asked.player, bank)
            answered = at is not None
            if at is not None and clock.asked is not None:
                spent = max(0.0, now - clock.asked)
                charges.times.append(PaceTime(race.id, asked.player, spent, every[at][2], first + at))
                kept[asked.player] = replace(clock, used=clock.used + spent, asked=None)
                charges.clocks.append(kept[asked.player])
        if pending is not None and not seats.plays_itself(race.lobby, pending.player):
            clock = kept.get(pending.player) or Clock(pending.player, bank)
            if clock.asked is None or asked is None or asked.player != pending.player or answered:
                charges.clocks = [c for c in charges.clocks if c.player != pending.player]
                charges.clocks.append(replace(clock, asked=now))
        return charges

    async def rewound_clocks(self, race: RaceRow, game: AnyGame, keep: int, state: object) -> list[Clock]:
        """The clocks after an undo back to ``keep`` actions (``state``): each decision time from
        ``keep`` on is given back (a clock's used time is the sum of its decision times, in the order
        they were charged, so it is exactly what it was before them), and only the decision asked
        again is on the clock, from now."""
        times = await self.storage.pace_times([race.id])
        undone = {t.player for t in times if t.index is not None and t.index >= keep}
        pending = game.rules.pending(state)
        asked = pending.player if pending is not None and not seats.plays_itself(race.lobby, pending.player) else None
        clocks = {c.player: c for c in await self.storage.clocks(race.id)}
        if asked is not None and asked not in clocks:
            clocks[asked] = Clock(asked, float(race.lobby.get("bank") or 0))
        out = []
        for player, clock in clocks.items():
            used = clock.used
            if player in undone:
                used = 0.0
                for t in times:
                    if t.player == player and (t.index is None or t.index < keep):
                        used += t.seconds
            now = self.now() if player == asked else None
            if (used, now) != (clock.used, clock.asked):
                out.append(replace(clock, used=used, asked=now))
        return out

    async def after_commit(
        self, race: RaceRow, game: AnyGame, before: object, decisions: list[tuple[Action, int | None, bool]]
    ) -> None:
        """A manual decision for a piece ends its standing orders of that kind (the clocks were
        charged in the commit's transaction: ``charge``)."""
        asked = game.rules.pending(before)
        if asked is None:
            return
        for action, user, automatic in decisions:
            if user is not None and not automatic:
                await self._cancel_by_manual(race, game, before, asked, action)

    async def _cancel_by_manual(
        self, race: RaceRow, game: AnyGame, before: object, decision: Decision, action: Action
    ) -> None:
        """A manual decision for a piece ends that piece's orders that speak to its kind of decision
        (a decision naming no piece ends none)."""
        chosen = next((c for c in game.rules.choices(before, action.by) if c.action == action), None)
        piece = (chosen.piece if chosen is not None else None) or decision.piece
        if piece is None or (chosen is not None and chosen.anytime) or decision.player != action.by:
            return
        kinds = {k.name: k for k in game.pace.orders}
        for order in await self.storage.orders(race.id):
            kind = kinds.get(order.kind)
            mine = order.player == action.by and order.piece == piece and kind is not None
            if mine and kind is not None and (not kind.settles or decision.kind in kind.settles):
                planned = ordered(game, before, decision, [order]) if kind.plan else None
                if kind.plan and (planned is None or planned.action == action):
                    continue  # the player answered what their plan left them, or as it would have: it goes on
                await self.storage.drop_orders(race.id, action.by, piece, order.kind)

    async def due_text(self, race: RaceRow, player: str) -> str:
        if race.deadline is None:
            return ""
        due = f"<t:{int(race.deadline)}:R>"
        if not race.lobby.get("bank"):
            return " " + _("Due {when}.", when=due)
        clock = await self.clock(race, player)
        now = self.now()
        if clock.left <= 0:
            return " " + _("Due {when} (your clock is spent: an hour at most per decision).", when=due)
        return " " + _(
            "Due {when} at most for this decision; your clock for the whole race runs out {out}.",
            when=f"<t:{int(now + float(race.lobby['timer']))}:R>",
            out=f"<t:{int(now + clock.left)}:R>",
        )

    async def remind_at(self, race: RaceRow) -> float:
        """Half way from asking to the deadline (which a clock may bring nearer than the turn timer)."""
        assert race.deadline is not None
        if race.lobby.get("bank") and race.envelope is not None:
            loaded = await self.store.load(race)
            decision = loaded.game.rules.pending(loaded.state)
            clock = await self.clock(race, decision.player) if decision is not None else None
            if clock is not None and clock.asked is not None:
                return clock.asked + (race.deadline - clock.asked) / 2
        return race.deadline - int(race.lobby["timer"]) / 2

    async def clock_ran_out(self, race: RaceRow, player: str) -> bool:
        if not race.lobby.get("bank"):
            return False
        if player in race.lobby.get("spent", []):
            return False  # spent before, seat taken back (/race back): overtime, then the usual timeouts
        clock = await self.clock(race, player)
        spent = self.now() - clock.asked if clock.asked is not None else 0.0
        return clock.left - spent <= 1.0

    async def status_lines(self, race: RaceRow, game: AnyGame, state: object) -> list[str]:
        """Standing orders and clocks for ``/race status`` (premoves stay private)."""
        kinds = {k.name: k for k in game.pace.orders}
        lines = []
        for order in await self.storage.orders(race.id):
            kind = kinds.get(order.kind)
            if kind is None:
                continue
            what = _(kind.label).replace("N", str(order.number)) if order.number is not None else _(kind.label)
            until = ", " + _("until {moment}", moment=moment_words(game, order)) if order.until else ""
            owner = seats.name_of(race.lobby, order.player)
            piece = game.narration.piece_name(state, order.piece)
            lines.append(
                _("Standing order: {piece_name} ({owner}): {what}", piece_name=piece, owner=owner, what=what) + until
            )
        if race.lobby.get("bank"):
            now = self.now()
            for seat in race.lobby["seats"]:
                if seats.user_of(race.lobby, str(seat["player"])) is None:
                    continue
                clock = await self.clock(race, str(seat["player"]))
                ticking = now - clock.asked if clock.asked is not None else 0.0
                left = max(0.0, clock.left - ticking)
                name = seats.name_of(race.lobby, clock.player)
                lines.append(_("Clock: {name} has {left} left", name=name, left=duration(left)))
        return lines
