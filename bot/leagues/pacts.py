"""Pacts between the members of an alliance (docs/alliances.md): proposed with ``/alliance pact``,
accepted by every member in the race with a button in the alliance's private thread, in force until
their ``until`` or until a member ends them (told to the allies; to everyone when ``public``).

The rules read them (``rules/pact_play.py``, ``rules/pact_ledger.py``): ``in_force`` hands the race's
pacts to the prompt's marks, the AI and the ledger as ``rules.pacts.Pact`` values."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Awaitable

from bot.leagues.alliance import AllianceService, Allied
from bot.leagues.pact_records import (
    Made,
    as_pact,
    game_of,
    made_pacts,
    race_ledger,
    shifted,
    until_of,
)
from bot.leagues.pact_records import tally as race_tally
from bot.leagues.pact_votes import Tally, as_votes, tally, votes_of, with_answer, with_votes
from bot.service import seats
from bot.service.common import Refusal, record_of
from bot.service.model import Answered, Effect, Elsewhere, Outcome, Post, Publish, Reply
from bot.storage import Alliance, PactRow, RaceRow, Storage
from rules.i18n import _, speaking
from rules.pact_ledger import Entry, breach_line, ledger, summary
from rules.pact_play import why_not
from rules.pacts import UNTIL_UNITS, Names, Pact, Until, UntilUnit
from rules.registry import AnyGame

UNTIL_TEXT = re.compile(r"^\s*(?P<unit>turn|row|stage)\s*:?\s*(?P<value>\d{1,4})\s*$", re.IGNORECASE)


def parse_until(text: str | None) -> Until:
    """``until:`` as typed: "end" (or nothing), "turn 12", "row 30", "stage 3"; else a one-line refusal."""
    if text is None or not text.strip() or text.strip().lower() == "end":
        return Until()
    found = UNTIL_TEXT.match(text)
    if found is None:
        raise Refusal(_("until: a turn, a row or a stage and its number (turn 12, row 30, stage 2), or end."))
    unit = found["unit"].lower()
    assert unit in UNTIL_UNITS
    chosen: UntilUnit = "turn" if unit == "turn" else "row" if unit == "row" else "stage"
    return Until(chosen, int(found["value"]))


def until_words(until: Until) -> str:
    if until.unit == "turn":
        return _("until turn {n}", n=until.value)
    if until.unit == "row":
        return _("until row {n}", n=until.value)
    if until.unit == "stage":
        return _("until stage {n}", n=until.value)
    return _("until the end")


class PactService:
    def __init__(self, alliances: AllianceService, store: Storage) -> None:
        self.alliances = alliances
        self.races = alliances.races
        self.store = store
        self.races.listeners.race_pacts.append(self.in_force)
        self.races.listeners.committed.append(self.after_commit)
        alliances.pacts_carried.append(self.carry)

    def names(self, race: RaceRow) -> Names:
        """A player's name as the channel knows them ("bob", "AI 2"), for the rules' words."""
        return lambda player: seats.name_of(race.lobby, player)

    def described(self, race: RaceRow, row: PactRow) -> str:
        """A pact in words: "no chase with bob, until turn 12"."""
        game = _game_of(race)
        kind = game.pacts.kind(row.kind)
        title = _(kind.name) if kind is not None else row.kind
        ally = self.names(race)(row.ally) if row.ally else None
        made = _("{pact} with {ally}", pact=title, ally=ally) if ally else title
        return _("{pact}, {until}", pact=made, until=until_words(until_of(row)))

    async def _mine(self, channel_id: int, user_id: int) -> tuple[RaceRow, str, Allied]:
        race, seat = await self.alliances._race_and_seat(channel_id, user_id)
        player = str(seat["player"])
        mine = await self.alliances.mine(race, player)
        if mine is None or mine.row.status != "active":
            raise Refusal(_("You are in no alliance in this race: pacts are made between allies (/alliance invite)."))
        return race, player, mine

    async def made(self, race: RaceRow) -> Made:
        """Every pact made in the race, with its alliance, in the order made."""
        return await made_pacts(self.store, race)

    async def ledger_of(self, race: RaceRow) -> tuple[Made, tuple[Entry, ...]]:
        """The race's pacts and their ledger so far, computed from its record (``rules/pact_ledger.py``)."""
        return await race_ledger(self.store, race)

    async def _ledger_since(
        self, race: RaceRow, first: int, before: object
    ) -> tuple[list[tuple[Alliance, PactRow]], tuple[Entry, ...]]:
        """The ledger's entries of the actions from ``first`` on, judged from ``before`` (the pacts' action
        counts shifted to match, the entries' back)."""
        made = await self.made(race)
        if not made or race.envelope is None:
            return made, ()
        game = _game_of(race)
        actions = record_of(race, game).actions[first:]
        pacts = [shifted(as_pact(p), first) for _a, p in made]
        found = await asyncio.to_thread(ledger, game, before, actions, pacts, self.names(race), stage=race.stage)
        return made, tuple(dataclasses.replace(e, index=e.index + first) for e in found)

    async def after_commit(self, race: RaceRow, first: int, before: object | None = None) -> list[Effect]:
        """A pact broken by the commit's actions is told at once in its alliance's thread, in one line; at
        the finish, each alliance's thread gets its ledger. Before the finish only the commit's actions
        are judged, from ``before`` (the state they were played from): no replay of the whole record."""
        if race.status != "finished" and before is not None:
            made, entries = await self._ledger_since(race, first, before)
        else:
            made, entries = await self.ledger_of(race)
        if not made:
            return []
        game = _game_of(race)
        pacts = [as_pact(p) for _a, p in made]
        told: list[Effect] = []
        with speaking(await self.races.core.public(race)):  # the alliances' threads
            for entry in entries:
                alliance = made[entry.pact][0]
                if entry.index >= first and not entry.kept and alliance.thread_id is not None:
                    line = breach_line(game, entry, pacts)
                    told.append(Elsewhere(alliance.thread_id, Outcome(posts=[Post(line)])))
            if race.status == "finished":
                for alliance in {a.id: a for a, _p in made}.values():
                    lines = self.summary_of(race, alliance.id, made, entries)
                    if alliance.thread_id is not None:
                        text = "\n".join([_("The ledger of your pacts:"), *lines])
                        told.append(Elsewhere(alliance.thread_id, Outcome(posts=[Post(text)])))
        return told

    def summary_of(
        self, race: RaceRow, alliance_id: int, made: list[tuple[Alliance, PactRow]], entries: tuple[Entry, ...]
    ) -> list[str]:
        """One alliance's ledger in a line per pact put to the test ("no chase: kept 7 times, broken once —
        …"), or a line saying none was."""
        game = _game_of(race)
        mine = [i for i, (a, _p) in enumerate(made) if a.id == alliance_id]
        pacts = [as_pact(p) for _a, p in made]
        lines = summary(game, [e for e in entries if e.pact in mine], pacts, self.names(race))
        return lines or [_("No pact of yours was put to the test yet.")]

    async def status(self, channel_id: int, user_id: int) -> Outcome:
        """``/alliance status``: one's alliance in this race (privately), its members, pacts and ledger so far."""
        race, seat = await self.alliances._race_and_seat(channel_id, user_id)
        player = str(seat["player"])
        mine = await self.alliances.mine(race, player)
        if mine is None:
            waiting = [a for a in await self.alliances.of_race(race) if player in a.invited]
            if waiting:
                names = ", ".join(self.alliances.title(race, a) for a in waiting)
                return Outcome(_("You are in no alliance; invited to: {names}.", names=names))
            raise Refusal(_("You are in no alliance in this race: pacts are made between allies (/alliance invite)."))
        made, entries = await self.ledger_of(race)
        lines = [
            _("Alliance: {line}.", line=self.alliances.line(race, mine)),
        ]
        if mine.invited:
            invited = ", ".join(self.alliances._plain(race, p) for p in mine.invited)
            lines.append(_("Invited, not answered yet: {names}.", names=invited))
        rows = await self.store.pacts(mine.id)
        shown = {"proposed": _("proposed"), "active": _("in force"), "ended": _("ended")}
        pacts = [f"- {self.described(race, p)} ({shown[p.status]})" for p in rows if p.status in shown]
        lines += [_("Pacts:"), *pacts] if pacts else [_("No pacts yet: /alliance pact proposes one.")]
        if any(a.id == mine.id for a, _p in made):
            lines += [_("The ledger so far:"), *self.summary_of(race, mine.id, made, entries)]
        return Outcome("\n".join(lines))

    async def in_force(self, race: RaceRow, public_only: bool = False) -> list[Pact]:
        """Every pact made in the race (in force now or ended), as the rules read them, in the order made
        (``public_only``: the public ones, whose marks the whole channel may read)."""
        found: list[PactRow] = []
        for a in await self.store.alliances(race.id):  # an alliance that has ended too: its pacts judged while it was
            found += [
                p for p in await self.store.pacts(a.id) if p.made_at is not None and (p.public or not public_only)
            ]
        return [as_pact(p) for p in sorted(found, key=lambda p: p.id)]

    async def propose(
        self, channel_id: int, user_id: int, kind: str, ally_user: int | None, until: str | None, public: bool
    ) -> Outcome:
        race, player, mine = await self._mine(channel_id, user_id)
        game = _game_of(race)
        ally: str | None = None
        if ally_user is not None:
            seat = seats.human_seat(race.lobby, ally_user)
            if seat is None:
                raise Refusal(_("That person is not playing in this race: alliances are between its players."))
            ally = str(seat["player"])
            if ally == player:
                raise Refusal(_("A pact is made with an ally, not with yourself."))
        ends = parse_until(until)
        refused = why_not(game, kind.strip(), mine.members, ally, ends, self.names(race))
        if refused is not None:
            raise Refusal(refused)
        if mine.row.thread_id is None:
            raise Refusal(
                _("Your alliance has no private thread here, where pacts are agreed: ask the server for one.")
            )
        members = list(mine.members)
        ai_members = [p for p in members if seats.user_of(race.lobby, p) is None]  # AI allies agree at once
        pact_id = await self.store.add_pact(
            mine.id, kind.strip(), player, ally, (ends.unit, ends.value), public, members, self.races.core.now()
        )
        accepted = sorted({player, *ai_members})
        await self.store.set_pact(pact_id, expect="proposed", accepted=accepted)
        row = await self.store.pact(pact_id)
        assert row is not None
        votes = await votes_of(race, self.store)
        counted = tally(row, votes)
        if counted.made:
            return await self._made(race, mine, row, _("Pact made."), counted)
        with speaking(await self.races.core.public(race)):  # the alliance's thread
            waiting = [u for u in (seats.user_of(race.lobby, p) for p in members if p not in accepted) if u]
            found = game.pacts.kind(row.kind)
            about = _(found.about) if found is not None else ""
            who, pact = self.alliances._plain(race, player), self.described(race, row)
            if votes == "majority":
                asked = _(
                    "{who} proposes a pact: {pact}. {about} It is made when {needed} of the {count} members "
                    "accept it.",
                    who=who,
                    pact=pact,
                    about=about,
                    needed=counted.needed,
                    count=len(counted.members),
                )
            else:
                asked = _(
                    "{who} proposes a pact: {pact}. {about} Every member accepts it, or it is not made.",
                    who=who,
                    pact=pact,
                    about=about,
                )
            post = Post(asked, mentions=waiting, pact_proposal=pact_id)
        assert mine.row.thread_id is not None
        return Outcome(_("Pact proposed to your allies in your alliance's thread.")).then(*self._told(mine, post))

    @staticmethod
    def _told(allied: Allied, *posts: Post) -> list[Elsewhere]:
        thread = allied.row.thread_id
        return [] if thread is None else [Elsewhere(thread, Outcome(posts=list(posts)))]

    async def _made(self, race: RaceRow, allied: Allied, row: PactRow, reply: str, counted: Tally) -> Outcome:
        made_at = len(race.actions)
        if not await self.store.set_pact(row.id, expect="proposed", status="active", made_at=made_at):
            raise Refusal(_("This pact proposal is no longer open."))
        with speaking(await self.races.core.public(race)):  # the alliance's thread, the channel when public
            if counted.by_majority:
                line = _(
                    "Pact made by a majority ({yes} of {count} members): {pact}.",
                    yes=len(counted.yes),
                    count=len(counted.members),
                    pact=self.described(race, row),
                )
            else:
                line = _("Pact made: {pact}.", pact=self.described(race, row))
            public = (
                [
                    Post(
                        _(
                            "{alliance} made a public pact: {pact}.",
                            alliance=self.alliances.title(race, allied),
                            pact=self.described(race, row),
                        )
                    )
                ]
                if row.public
                else []
            )
        return self.alliances.said(race, -1, reply, *public).then(*self._told(allied, Post(line)))

    async def answer(self, pact_id: int, user_id: int, accept: bool) -> Outcome:
        row = await self.store.pact(pact_id)
        alliance = await self.store.alliance(row.alliance_id) if row is not None else None
        race = await self.races.storage.race(alliance.race_id) if alliance is not None else None
        if row is None or alliance is None or race is None or race.status not in ("lobby", "running"):
            raise Refusal(_("This pact proposal is no longer open."))
        seat = seats.human_seat(race.lobby, user_id)
        player = str(seat["player"]) if seat is not None else None
        if player is None or player not in row.members:
            raise Refusal(_("Only the members of this alliance answer its pacts."))
        if row.status != "proposed" or alliance.status != "active":
            raise Refusal(_("This pact proposal is no longer open."))
        votes = await votes_of(race, self.store)
        if player in tally(row, votes).yes and accept:
            raise Refusal(_("You have accepted it already; the others have not all answered yet."))
        if tally(row, votes).answered(player):
            raise Refusal(_("You have answered it already: an answer to a pact is final."))
        allied = await self.alliances.allied(alliance)
        answers = with_answer(row, player, accept)
        counted = tally(dataclasses.replace(row, accepted=answers), votes)
        lost = counted.lost
        status = "declined" if lost else None
        if not await self.store.set_pact(pact_id, expect="proposed", accepted=answers, status=status):
            raise Refusal(_("This pact proposal is no longer open."))
        row.accepted = answers
        if not accept:
            with speaking(await self.races.core.public(race)):  # the alliance's thread
                who, pact = self.alliances._plain(race, player), self.described(race, row)
                if lost:
                    line = _("{who} declined the pact: {pact}. It is not made.", who=who, pact=pact)
                else:
                    line = _("{who} declined the pact: {pact}.", who=who, pact=pact)
                settled = Answered(_("Declined by {who}.", who=who), closed=lost)
            return Outcome(_("Declined.")).then(settled, *self._told(allied, Post(line)))
        with speaking(await self.races.core.public(race)):  # the proposal is the thread's message
            settled = Answered(_("Accepted by {who}.", who=self.alliances._plain(race, player)), closed=False)
        if counted.made:
            made = await self._made(race, allied, row, _("Accepted: the pact is made."), counted)
            return made.then(dataclasses.replace(settled, closed=True))
        with speaking(await self.races.core.public(race)):  # the alliance's thread
            line = _(
                "{who} accepts the pact: {pact}.",
                who=self.alliances._plain(race, player),
                pact=self.described(race, row),
            )
        return Outcome(_("Accepted.")).then(settled, *self._told(allied, Post(line)))

    async def end(self, channel_id: int, user_id: int, pact_id: int) -> Outcome:
        race, player, mine = await self._mine(channel_id, user_id)
        row = next((p for p in await self.store.pacts(mine.id) if p.id == pact_id), None)
        if row is None or row.status != "active":
            raise Refusal(_("Your alliance has no such pact in force: /alliance status lists them."))
        if not await self.store.set_pact(pact_id, expect="active", status="ended", ended_at=len(race.actions)):
            raise Refusal(_("Your alliance has no such pact in force: /alliance status lists them."))
        with speaking(await self.races.core.public(race)):  # the alliance's thread, the channel when public
            line = _(
                "{who} ended the pact: {pact}.", who=self.alliances._plain(race, player), pact=self.described(race, row)
            )
            public = [Post(line)] if row.public else []
        return self.alliances.said(race, -1, _("Ended."), *public).then(*self._told(mine, Post(line)))

    async def carry(self, race: RaceRow, old: Alliance, alliance_id: int, members: tuple[str, ...]) -> list[str]:
        """A league stage opening: each pact of the alliance's last stage in force "until stage N" with N
        this stage or later rides on, between the members still in it, from the stage's first decision
        (a pact "until the end" ends with its race). The public ones in words."""
        public = []
        for row in await self.store.pacts(old.id):
            until = until_of(row)
            bound = [p for p in row.members if p in members]
            carried = (
                row.status == "active"
                and until.unit == "stage"
                and race.stage is not None
                and (until.value or 0) >= race.stage
                and len(bound) >= 2
                and (row.ally is None or row.ally in bound)
            )
            if not carried:
                continue
            until_pair = (row.until_unit, row.until_value)
            now = self.races.core.now()
            pact_id = await self.store.add_pact(
                alliance_id, row.kind, row.proposer, row.ally, until_pair, row.public, bound, now
            )
            await self.store.set_pact(pact_id, expect="proposed", accepted=bound)
            await self.store.set_pact(pact_id, expect="proposed", status="active", made_at=len(race.actions))
            if row.public:
                public.append(self.described(race, row))
        return public

    async def set_votes(self, channel_id: int, user_id: int, decide: str) -> Outcome:
        """``/alliance votes``: the race's host decides how its alliances agree their pacts (every member,
        or a majority of them); in a league, its organiser decided it at ``/league create``."""
        race = await self.alliances.race_here(channel_id)
        if race is None:
            raise Refusal(_("There is no race in this channel: alliances are made inside a race."))
        if race.league_id is not None:
            raise Refusal(_("In a league its organiser decides how pacts are agreed (/league create pacts:)."))
        if user_id != race.host_id:
            raise Refusal(_("Only the race's host decides how its alliances agree their pacts."))
        votes = as_votes(decide)
        if not await self.races.storage.keep_lobby(race.id, race.version, with_votes(race.lobby, votes)):
            raise Refusal(_("The race changed at the same moment; try again."))
        with speaking(await self.races.core.public(race)):  # the race's channel
            if votes == "majority":
                line = _("From now on a majority of an alliance's members makes its pacts.")
            else:
                line = _("From now on every member of an alliance accepts its pacts, or they are not made.")
        return self.alliances.said(race, channel_id, _("Done."), Post(line))

    async def choices(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """The pact kinds of the channel's race's game, for the autocomplete: (id, name and what it asks)."""
        race = await self.alliances.race_here(channel_id)
        if race is None:
            return []
        return [(k.id, f"{_(k.name)} — {_(k.about)}") for k in _game_of(race).pacts.kinds]

    async def ending(self, channel_id: int, user_id: int) -> list[tuple[int, str]]:
        """The pacts in force of one's alliance, for ``/alliance pact-end``'s autocomplete."""
        try:
            race, _player, mine = await self._mine(channel_id, user_id)
        except Refusal:
            return []
        return [(p.id, self.described(race, p)) for p in await self.store.pacts(mine.id) if p.status == "active"]

    async def with_ledger(self, channel_id: int, user_id: int, recap: Awaitable[Outcome]) -> Outcome:
        """``/race recap``: the recap, then the ledger of the asker's alliance to them alone, and the ledger
        of public pacts in the channel."""
        outcome = await recap
        race = await self.races.storage.active_race(channel_id) or await self.races.storage.latest_race(channel_id)
        if race is None:
            return outcome
        made, entries = await self.ledger_of(race)
        if not made:
            return outcome
        seat = seats.human_seat(race.lobby, user_id)
        player = str(seat["player"]) if seat is not None else None
        game = _game_of(race)
        pacts = [as_pact(p) for _a, p in made]
        mine = [i for i, (_a, p) in enumerate(made) if player is not None and player in p.members]
        public = [i for i, (_a, p) in enumerate(made) if p.public and i not in mine]
        private = summary(game, [e for e in entries if e.pact in mine], pacts, self.names(race))
        if private:
            reply = next((e.text for e in outcome.effects if isinstance(e, Reply)), "")
            outcome = outcome.answered("\n".join([reply, _("The ledger of your pacts:"), *private]).strip())
        with speaking(await self.races.core.public(race)):  # the channel
            shown = summary(game, [e for e in entries if e.pact in public], pacts, self.names(race))
            if shown:
                outcome = outcome.then(Publish(Post("\n".join([_("The ledger of public pacts:"), *shown]))))
        return outcome

    async def tally(self, race: RaceRow) -> dict[str, tuple[int, int]]:
        """Each member's pacts kept and broken in one race (a league's stage), for ``/league standings``."""
        return await race_tally(self.store, race)


def _game_of(race: RaceRow) -> AnyGame:
    """The race's game."""
    return game_of(race)
