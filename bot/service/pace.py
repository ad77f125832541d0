"""Pace commands: decide ahead (``/race ahead``), standing orders (``/race order``), decision times (``/race pace``).

What they set is used in every commit by ``pace_clocks.Clocks`` (docs/pace.md).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.service import seats
from bot.service.bounds import ORDER_NUMBER, ORDER_UNTIL
from bot.service.common import Refusal, playing_seat, title
from bot.service.core import RaceCore
from bot.service.durations import duration
from bot.service.model import ChoiceView, Outcome, Prompt
from bot.service.pace_clocks import moment_words
from bot.storage import PaceTime, Premove, StandingOrder
from rules.game import Choice
from rules.i18n import _, ngettext
from rules.registry import AnyGame


def pace_lines(times: Sequence[PaceTime], name: Callable[[str], str]) -> list[str]:
    """Each player's median and slowest decision times and their automatic decisions, slowest median first."""
    by: dict[str, list[PaceTime]] = {}
    for t in times:
        by.setdefault(t.player, []).append(t)
    rows = []
    for player, mine in by.items():
        answered = [t.seconds for t in mine]
        auto = sum(1 for t in mine if t.automatic)
        rows.append(
            (
                statistics.median(answered),
                ngettext(
                    "{name}: median {median}, slowest {slowest}, {n} decision asked, {automatic} automatic",
                    "{name}: median {median}, slowest {slowest}, {n} decisions asked, {automatic} automatic",
                    len(mine),
                    name=name(player),
                    median=duration(statistics.median(answered)),
                    slowest=duration(max(answered)),
                    automatic=auto,
                ),
            )
        )
    return [line for _key, line in sorted(rows, reverse=True)]


class PaceCommands:
    def __init__(self, core: RaceCore) -> None:
        self.core = core
        self.store = core.store
        self.storage = core.storage

    async def ahead(self, channel_id: int, user_id: int) -> Outcome:
        """Your next decision's choices as they stand now, privately, to decide ahead."""
        race = await self.store.race_in(channel_id, running=True)
        seat = playing_seat(race, user_id)
        loaded = await self.store.load(race)
        game, state = loaded.game, loaded.state
        player = str(seat["player"])
        pending = game.rules.pending(state)
        if pending is not None and pending.player == player:
            raise Refusal(_("It is your decision now: choose on the prompt."))
        found = game.pace.ahead(state, player)
        if found is None or not found[1]:
            raise Refusal(
                _(
                    "There is nothing to decide ahead now: your next decision depends on what happens first. "
                    "Standing orders (/race order) settle routine decisions."
                )
            )
        decision, choices = found
        mine = next((p for p in await self.storage.premoves(race.id) if p.player == player), None)
        shown = (
            " "
            + _(
                "You decided ahead: {choice} (choose again to change it, /race ahead cancel:True to drop it).",
                choice=mine.label,
            )
            if mine
            else ""
        )
        prompt = Prompt(
            race.id,
            race.version,
            player,
            user_id,
            "menu",
            decision.piece,
            tuple(self._named(game, state, i, c, choices) for i, c in enumerate(choices)),
            ahead=True,
        )
        text = game.narration.ask(state, decision, seats.name_of(race.lobby, player))
        said = _("Decide ahead (only you see this; applied when it comes if it still holds): {asked}", asked=text)
        return Outcome(said + shown, prompt=prompt)

    @staticmethod
    def _named(game: AnyGame, state: object, index: int, choice: Choice, choices: Sequence[Choice]) -> ChoiceView:
        """A choice of the menu to decide ahead: one flat menu, so it names its piece when several have choices."""
        view = ChoiceView.of(index, choice)
        if choice.piece is None or len({c.piece for c in choices if c.piece}) < 2 or choice.action.do == "drop":
            return view
        name = game.narration.piece_name(state, choice.piece)
        return replace(view, label=f"{name}: {view.label}"[:100])

    async def decide_ahead(self, race_id: int, version: int, user_id: int, index: int) -> Outcome:
        """Keep choice ``index`` of the ahead menu shown at ``version`` for when the decision comes."""
        async with self.store.lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status != "running":
                raise Refusal(_("This race is over."))
            if race.version != version:
                raise Refusal(
                    _("The race has moved on since; use /race ahead again for the choices as they stand now.")
                )
            seat = playing_seat(race, user_id)
            loaded = await self.store.load(race)
            found = loaded.game.pace.ahead(loaded.state, str(seat["player"]))
            if found is None or not 0 <= index < len(found[1]):
                raise Refusal(_("That choice is not on offer any more; use /race ahead again."))
            decision, choices = found
            c = choices[index]
            await self.storage.set_premove(
                race.id,
                Premove(
                    str(seat["player"]), decision.kind, decision.piece, c.action.text(), c.label, c.detail, user_id
                ),
            )
            return Outcome(
                _("Decided ahead: {choice}. It is applied when your decision comes, if it still holds.", choice=c.label)
            )

    async def cancel_ahead(self, channel_id: int, user_id: int) -> Outcome:
        race = await self.store.race_in(channel_id, running=True)
        seat = playing_seat(race, user_id)
        if not await self.storage.drop_premove(race.id, str(seat["player"])):
            raise Refusal(_("You have not decided anything ahead."))
        return Outcome(_("Your decision made ahead is dropped: you will be asked as usual."))

    async def order(
        self,
        channel_id: int,
        user_id: int,
        piece: str,
        kind: str,
        number: int | None = None,
        until: str | None = None,
        until_number: int | None = None,
    ) -> Outcome:
        """A standing order for one of your pieces (``kind`` ``cancel``: end its orders)."""
        ORDER_NUMBER.check(number)
        ORDER_UNTIL.check(until_number)
        loaded = await self.store.load(await self.store.race_in(channel_id, running=True))
        race, game, state = loaded.race, loaded.game, loaded.state
        if not game.pace.orders:
            raise Refusal(
                _("{game_title} has no standing orders: you make each decision yourself.", game_title=game.title)
            )
        seat = playing_seat(race, user_id)
        player = str(seat["player"])
        mine = list(game.pace.pieces(state, player))
        named = {game.narration.piece_name(state, p).lower(): p for p in mine}
        piece_id = piece if piece in mine else named.get(piece.strip().lower())
        if piece_id is None:
            shown = ", ".join(game.narration.piece_name(state, p) for p in mine) or _("none")
            raise Refusal(_("Name one of your {noun}: {names}.", noun=game.pieces_word(), names=shown))
        shown = game.narration.piece_name(state, piece_id)
        if kind == "cancel":
            count = await self.storage.drop_orders(race.id, player, piece_id)
            return Outcome(
                ngettext(
                    "{piece_name}: {n} standing order(s) cancelled.",
                    "{piece_name}: {n} standing order(s) cancelled.",
                    count,
                    piece_name=shown,
                )
                if count
                else _("{piece_name} has no standing orders.", piece_name=shown)
            )
        kinds = {k.name: k for k in game.pace.orders}
        if kind not in kinds:
            listing = ", ".join(f"{k.name} ({_(k.label)})" for k in game.pace.orders) or _("none in this game")
            raise Refusal(_("Standing orders: {listing}.", listing=listing))
        order_kind = kinds[kind]
        if order_kind.number and (number is None or number < 0):
            raise Refusal(_("{order}: give number: ({number}).", order=order_kind.label, number=order_kind.number))
        moments = {m.name: m for m in game.pace.moments}
        if until is not None and until not in moments:
            listing = ", ".join(f"{m.name} ({_(m.label)})" for m in game.pace.moments) or _("none in this game")
            raise Refusal(_("Moments that end an order: {listing}.", listing=listing))
        if until is not None and moments[until].number and (until_number is None or until_number < 1):
            raise Refusal(
                _("{moment}: give until_number: ({number}).", moment=moments[until].label, number=moments[until].number)
            )
        order = StandingOrder(player, piece_id, kind, number if order_kind.number else None, until, until_number)
        await self.storage.set_order(race.id, order)
        what = _(order_kind.label).replace("N", str(number)) if order_kind.number else _(order_kind.label)
        end = " " + _("until {moment}", moment=moment_words(game, order)) if until else ""
        ends = (
            _("You are asked what it does not cover; deciding otherwise for {piece_name} cancels it", piece_name=shown)
            if order_kind.plan
            else _("Any decision you make yourself for {piece_name} cancels it", piece_name=shown)
        )
        said = _("Standing order for {piece_name}: {what}.", piece_name=shown, what=f"{what}{end}")
        return Outcome(_("{said} {ends}; /race status shows it to everyone.", said=said, ends=ends))

    async def own_piece_names(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """(piece id, name) of the caller's pieces still in the race, for ``/race order``'s autocomplete."""
        race = await self.storage.active_race(channel_id)
        seat = seats.human_seat(race.lobby, user_id) if race is not None and race.status == "running" else None
        if race is None or seat is None:
            return []
        loaded = await self.store.load(race)
        pieces = loaded.game.pace.pieces(loaded.state, str(seat["player"]))
        return [(p, loaded.game.narration.piece_name(loaded.state, p)) for p in pieces]

    async def pace(self, channel_id: int) -> Outcome:
        """Each player's median and slowest decision times and how many decisions were automatic."""
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None or race.status == "lobby":
            raise Refusal(_("There is no started race in this channel."))
        times = await self.storage.pace_times([race.id])
        if not times:
            return Outcome(_("Nobody has been asked a decision yet."))
        lines = pace_lines(times, lambda p: seats.name_of(race.lobby, p))
        head = _("**Pace of {race_title}** (time from being asked to deciding)", race_title=title(race))
        return Outcome(head + "\n" + "\n".join(lines))
