"""A player in several races: ``/race mine`` (every race I sit in) and ``/race away`` (the AI plays
all my seats until I am back).

An absence is kept per person (``storage.set_away``, it survives a restart) and marked in each
race's lobby (``absence.py``): the seat is then one the AI plays at once, so no prompt waits for
it, pings it or times out, and its clock never runs; where the person gave standing orders, they
decide before the AI does. Coming back (``until:back``, or the date passing: ``tick``) returns
every such seat and tells the person privately which races wait for them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service import seats
from bot.service.absence import holiday, link, marked_away, marked_back, parse_until
from bot.service.bounds import MINE_PAGE
from bot.service.common import Refusal, title, who
from bot.service.core import RaceCore
from bot.service.durations import duration
from bot.service.model import DirectMessage, Outcome, Post, Replace
from bot.storage import RaceRow
from rules.i18n import _, current, ngettext, pgettext, speaking
from rules.registry import AnyGame

PAGE = 8  # races per page of /race mine: each line stays under 250 characters, a page under 2,000
Visible = Callable[[int, int], Awaitable[bool]]  # (server, channel) -> can the person see it?


@dataclass
class Seated:
    """One race the person sits in, as ``/race mine`` lists it."""

    race: RaceRow
    player: str
    asked: float  # when the race's pending decision was asked (newest first)
    line: str
    yours: bool = False  # the race waits for the person's decision


class Away:
    def __init__(self, core: RaceCore) -> None:
        self.core = core
        self.store = core.store
        self.storage = core.storage
        self.now = core.now

    async def seated_races(self, user_id: int) -> list[tuple[RaceRow, str]]:
        """Every running race (in every server) where ``user_id`` has a seat, with their player id."""
        out = []
        for race in await self.storage.running_races(None):
            seat = seats.human_seat(race.lobby, user_id)
            if seat is not None:
                out.append((race, str(seat["player"])))
        return out

    async def _describe(self, race: RaceRow, player: str, *, for_away: bool = False) -> Seated:
        loaded = await self.store.load(race)
        game, state = loaded.game, loaded.state
        decision = game.rules.pending(state)
        what = game.title
        if race.league_id is not None:
            league = await self.storage.league(race.league_id)
            if league is not None:
                what = _("{game_title}, league {league_name}", game_title=game.title, league_name=league.name)
        parts = [f"**{title(race)}** ({what}) {link(race.guild_id, race.channel_id)}"]
        back = holiday(race.lobby).get(player)
        asked = race.deadline - float(race.lobby["timer"]) if race.deadline is not None else race.created
        if decision is not None:
            clocks = {c.player: c for c in await self.storage.clocks(race.id)}
            pending_clock = clocks.get(decision.player)
            if pending_clock is not None and pending_clock.asked is not None:
                asked = pending_clock.asked
        yours = False
        if back is not None and not for_away:
            parts.append(_("you are away until {when}: the AI plays your seat", when=f"<t:{int(back)}:f>"))
        elif decision is not None and decision.player == player and race.deadline is not None:
            parts.append(_("**your decision**, due {when}", when=f"<t:{int(race.deadline)}:R>"))
            yours = True
        elif decision is not None:
            parts.append(_("waiting for {who}", who=who(race, decision.player, mention=False)))
        if race.lobby.get("bank"):
            clock = await self.core.clocks.clock(race, player)
            ticking = self.now() - clock.asked if clock.asked is not None else 0.0
            parts.append(_("your clock: {left} left", left=duration(max(0.0, clock.left - ticking))))
        place = self._place(game, state, player)
        if place:
            parts.append(place)
        return Seated(race, player, asked, " · ".join(parts), yours)

    @staticmethod
    def _place(game: AnyGame, state: object, player: str) -> str:
        """The player's best piece's place, where the game orders the pieces while racing."""
        placings = game.rules.outcome(state).placings
        ranked = [p for p in placings if not p.eliminated]
        place = next((i for i, p in enumerate(ranked, start=1) if p.player == player), None)
        if not place:
            return ""
        noun = game.piece_word(1)
        return _("your best {noun}: {place} of {count}", noun=noun, place=ordinal(place), count=len(ranked))

    async def mine(self, user_id: int, can_see: Visible, page: int = 1) -> Outcome:
        """Every race the person sits in and can see, newest decision first, a page at a time."""
        MINE_PAGE.check(page)
        found = [
            await self._describe(race, player)
            for race, player in await self.seated_races(user_id)
            if await can_see(race.guild_id, race.channel_id)
        ]
        if not found:
            return Outcome(_("You are not seated in any running race I can show you. Join one with /race join."))
        found.sort(key=lambda s: s.asked, reverse=True)
        pages = (len(found) + PAGE - 1) // PAGE
        if not 1 <= page <= pages:
            raise Refusal(ngettext("There is {n} page.", "There are {n} pages.", pages))
        shown = found[(page - 1) * PAGE : page * PAGE]
        yours = sum(1 for s in found if s.yours)
        waiting = ngettext("{n} waits for your decision", "{n} wait for your decision", yours)
        head = _("**Your races** ({count}; {waiting})", count=len(found), waiting=waiting)
        lines = [head, *(f"- {s.line}" for s in shown)]
        if pages > 1:
            if page < pages:
                more = _(
                    "Page {page} of {pages} · /race mine page:{next} for the next.",
                    page=page,
                    pages=pages,
                    next=page + 1,
                )
            else:
                more = _("Page {page} of {pages}.", page=page, pages=pages)
            lines.append(more)
        return Outcome("\n".join(lines))

    # ------------------------------------------------------------------ away and back

    async def away(self, user_id: int, until_text: str) -> Outcome:
        """Away until a date (``2d``, ``1w``, ``2026-12-24``): the AI plays every seat; ``back`` returns them."""
        now = self.now()
        until = parse_until(until_text, now)
        if until is None:
            if not await self.storage.end_away(user_id):
                raise Refusal(_("You are not away: your seats are yours."))
            return await self._returned(user_id, by_timer=False)
        await self.storage.set_away(user_id, until, now)
        elsewhere: list[tuple[int, Outcome]] = []
        names = []
        for race, _player in await self.seated_races(user_id):
            done = await self._hand_over(race.id, user_id, until)
            if done is not None:
                elsewhere.append((race.channel_id, done))
                names.append(title(race))
        when, left = f"<t:{int(until)}:f>", f"<t:{int(until)}:R>"
        if names:
            reply = ngettext(
                "Away until {when} ({left}): the AI plays your seats in {n} race: {titles}, from your standing orders "
                "where you gave some; nobody pings you and no timeout counts against you. "
                "/race away until:back returns them sooner.",
                "Away until {when} ({left}): the AI plays your seats in {n} races: {titles}, from your standing orders "
                "where you gave some; nobody pings you and no timeout counts against you. "
                "/race away until:back returns them sooner.",
                len(names),
                when=when,
                left=left,
                titles=", ".join(names),
            )
        else:
            reply = _(
                "Away until {when} ({left}): the AI plays your seats, from your standing orders where you gave some; "
                "nobody pings you and no timeout counts against you. /race away until:back returns them sooner.",
                when=when,
                left=left,
            )
        return Outcome(reply, elsewhere=elsewhere)

    async def _hand_over(self, race_id: int, user_id: int, until: float) -> Outcome | None:
        """``user_id``'s seat in the race played by the AI until ``until``; the channel told in a line."""
        async with self.store.lock(race_id):
            race = await self.storage.race(race_id)
            seat = seats.human_seat(race.lobby, user_id) if race is not None else None
            if race is None or seat is None or race.status != "running":
                return None
            player = str(seat["player"])
            lobby = marked_away(race.lobby, player, until)
            with speaking(await self.core.public(race)):  # the race's channel is told
                note = _(
                    "{name} is away until {when}: the AI plays their seat.",
                    name=seat.get("name") or _("A player"),
                    when=f"<t:{int(until)}:f>",
                )
                replaced = Replace(f"⏭ {note}")
            loaded = await self.store.load(race)
            decision = loaded.game.rules.pending(loaded.state)
            if decision is not None and decision.player == player:
                outcome = await self.core.commit(loaded, [], headline=note, lobby=lobby)
                return outcome.first_in_channel(replaced)
            if not await self.storage.update_lobby(race.id, race.version, lobby):
                return None
            return Outcome("", posts=[Post(note)])

    async def _returned(self, user_id: int, *, by_timer: bool) -> Outcome:
        """Every seat of an absent person theirs again; which races wait for them, privately."""
        elsewhere: list[tuple[int, Outcome]] = []
        waiting: list[tuple[RaceRow, str]] = []
        for race, player in await self.seated_races(user_id):
            if player in holiday(race.lobby):
                async with self.store.lock(race.id):
                    fresh = await self.storage.race(race.id)
                    if fresh is None or fresh.status != "running":
                        continue
                    if await self.storage.update_lobby(fresh.id, fresh.version, marked_back(fresh.lobby, player)):
                        name = seats.name_of(fresh.lobby, player)
                        with speaking(await self.core.public(fresh)):
                            told = Post(_("{name} is back: their seat is theirs again.", name=name))
                        elsewhere.append((fresh.channel_id, Outcome("", posts=[told])))
                    race = await self.storage.race(race.id) or race
            waiting.append((race, player))
        # a timer's return is told by private message, in the person's language; /race away until:back answers them
        language = await self.core.languages.private(user_id) if by_timer else current()
        with speaking(language):
            lines = [f"- {(await self._describe(race, player, for_away=True)).line}" for race, player in waiting]
            text = _("Welcome back: your seats are yours again.")
            if lines:
                text += " " + _("Your races:") + "\n" + "\n".join(lines)
        if by_timer and elsewhere:
            # told privately, with the first race's posts (a private message says where it comes from)
            channel, first = elsewhere[0]
            elsewhere[0] = (channel, first.then(DirectMessage(user_id, text)))
        return Outcome(text, elsewhere=elsewhere)

    async def returns_due(self) -> list[tuple[int, Outcome]]:
        """People whose return date has come get their seats back (what each race's channel is told)."""
        out: list[tuple[int, Outcome]] = []
        for user_id, until in await self.storage.aways_due(self.now()):
            if await self.storage.end_away(user_id, until):  # one process of a cluster does it
                out += (await self._returned(user_id, by_timer=True)).elsewhere
        return out


def ordinal(n: int) -> str:
    """``n`` as a place: 1st, 2nd, 3rd, 11th in English; 1., 2. in Hungarian and Czech (each language's catalog)."""
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    if last == 1:
        return pgettext("ordinal", "{n}st", n=n)
    if last == 2:
        return pgettext("ordinal", "{n}nd", n=n)
    if last == 3:
        return pgettext("ordinal", "{n}rd", n=n)
    return pgettext("ordinal", "{n}th", n=n)
