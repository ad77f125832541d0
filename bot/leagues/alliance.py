"""Alliances between players of a race, of any size: a member invites another, who accepts or
declines with a button (the other members are told), or the invitation lapses after 48 hours; one
private thread per alliance; shown on the board's legend and in /race status; left with an
announcement. Pacts between the members are ``bot/leagues/pacts.py``'s."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.service import seats
from bot.service.common import Refusal, playing_seat
from bot.service.model import Answered, Elsewhere, JoinThread, OpenThread, Outcome, Post, Reply
from bot.service.races import RaceService
from bot.storage import Alliance, AllianceMember, RaceRow, Storage
from bot.storage.lobby import SeatData
from renderer.words import team
from rules.i18n import _, speaking

LAPSE = 48 * 3600.0  # an invitation not answered in this long lapses, and says so
OPEN = ("proposed", "active")  # an alliance being formed, or formed
PARTED = "parted"  # a member of a finished league stage's alliance who left it before the next stage


PactsCarried = Callable[[RaceRow, Alliance, int, tuple[str, ...]], Awaitable[list[str]]]
"""A stage opening: the pacts of the previous stage's alliance (its row) that ride on into the new
alliance (its id, its members), copied; the public ones in words for the stage's channel."""


@dataclass(frozen=True)
class Allied:
    """An alliance as the bot shows it: its row and its members by status."""

    row: Alliance
    members: tuple[str, ...]  # players who accepted (the founder first)
    invited: tuple[str, ...]  # players asked who have not answered yet
    parted: tuple[str, ...] = ()  # members at a league stage's finish who left before the next stage

    @property
    def id(self) -> int:
        return self.row.id


class AllianceService:
    def __init__(self, races: RaceService, store: Storage) -> None:
        self.races = races
        self.store = store
        # a league alliance's pacts carried into the next stage (``PactService.carry``): the public ones in words
        self.pacts_carried: list[PactsCarried] = []
        races.listeners.alliance_lines.append(self.lines)
        races.listeners.team_alliances.append(self.team)

    # ------------------------------------------------------------------ reading

    async def race_here(self, channel_id: int) -> RaceRow | None:
        """The race of a channel, or of the alliance whose private thread it is."""
        race = await self.races.storage.active_race(channel_id)
        if race is None:  # typed in an alliance's private thread: its race
            race_id = await self.store.race_of_thread(channel_id)
            race = await self.races.storage.race(race_id) if race_id is not None else None
            race = race if race is not None and race.status in ("lobby", "running") else None
        return race

    async def _race_and_seat(self, channel_id: int, user_id: int) -> tuple[RaceRow, SeatData]:
        race = await self.race_here(channel_id)
        if race is None:
            raise Refusal(_("There is no race in this channel: alliances are made inside a race."))
        seat = playing_seat(race, user_id)
        return race, seat

    async def allied(self, alliance: Alliance) -> Allied:
        rows = await self.store.alliance_members(alliance.id)
        members = tuple(m.player for m in rows if m.status in ("member", PARTED))
        invited = tuple(m.player for m in rows if m.status == "invited")
        parted = tuple(m.player for m in rows if m.status == PARTED)
        return Allied(alliance, members, invited, parted)

    async def of_race(self, race: RaceRow, *, formed: bool = False) -> list[Allied]:
        """The race's alliances being formed or formed (``formed``: only those with two members or more)."""
        found = []
        for a in await self.store.alliances(race.id):
            if a.status in (("active",) if formed else OPEN):
                found.append(await self.allied(a))
        return found

    async def mine(self, race: RaceRow, player: str) -> Allied | None:
        """The alliance ``player`` is a member of in this race (one at a time), if any."""
        return next((a for a in await self.of_race(race) if player in a.members), None)

    @staticmethod
    def _name(race: RaceRow, player: str) -> str:
        """A player as the channel knows them, with a mention: "yellow (@alice)"."""
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        if seat is None:
            return player
        ai = _("AI")
        return f"{team(seat['team'])} ({ai if seat.get('ai') else '<@' + str(seat['user']) + '>'})"

    @staticmethod
    def _plain(race: RaceRow, player: str) -> str:
        """A player without a mention: "yellow alice"."""
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        return player if seat is None else f"{team(seat['team'])} {seats.shown_name(seat)}"

    def members_line(self, race: RaceRow, players: tuple[str, ...]) -> str:
        return " + ".join(self._plain(race, p) for p in players)

    def title(self, race: RaceRow, allied: Allied) -> str:
        """The alliance's name, or its members when it has none: "Breakaway club" / "yellow alice + blue bob"."""
        return allied.row.name or self.members_line(race, allied.members)

    def line(self, race: RaceRow, allied: Allied) -> str:
        members = self.members_line(race, allied.members)
        return f"{allied.row.name}: {members}" if allied.row.name else members

    async def lines(self, race: RaceRow) -> list[str]:
        return [self.line(race, a) for a in await self.of_race(race, formed=True)]

    async def allies(self, race: RaceRow, player: str) -> set[str]:
        mine = await self.mine(race, player)
        if mine is None or mine.row.status != "active":
            return set()
        return {p for p in mine.members if p != player}

    def _users(self, race: RaceRow, players: tuple[str, ...]) -> list[int]:
        return [u for u in (seats.user_of(race.lobby, p) for p in players) if u is not None]

    @staticmethod
    def said(race: RaceRow, channel_id: int, reply: str, *posts: Post) -> Outcome:
        """``reply`` to the person, ``posts`` in the race's channel (from where the command was typed, or
        from the alliance's thread, whose posts are the allies' alone)."""
        if channel_id == race.channel_id:
            return Outcome(reply, posts=posts)
        return Outcome(reply).then(Elsewhere(race.channel_id, Outcome(posts=posts))) if posts else Outcome(reply)

    @staticmethod
    def in_thread(allied: Allied, *lines: str) -> list[Elsewhere]:
        """``lines`` told in the alliance's private thread (none while it has no thread)."""
        thread = allied.row.thread_id
        if thread is None or not lines:
            return []
        return [Elsewhere(thread, Outcome(posts=[Post(line) for line in lines]))]

    # ------------------------------------------------------------------ invitations

    async def propose(self, channel_id: int, user_id: int, target_id: int, name: str | None = None) -> Outcome:
        """``/alliance invite`` (and ``propose``): ask another player of the race into one's alliance,
        founding it (named ``name``) when one has none."""
        race, seat = await self._race_and_seat(channel_id, user_id)
        target = seats.human_seat(race.lobby, target_id)
        if target is None:
            raise Refusal(_("That person is not playing in this race: alliances are between its players."))
        if target is seat:
            raise Refusal(_("An alliance needs two players: you cannot ally with yourself."))
        me, them = str(seat["player"]), str(target["player"])
        now = self.races.core.now()
        mine = await self.mine(race, me)
        if mine is not None and them in mine.members:
            raise Refusal(_("You are already allied, or a proposal between you is waiting."))
        if mine is not None and them in mine.invited:
            raise Refusal(_("You are already allied, or a proposal between you is waiting."))
        if mine is None:
            for other in await self.of_race(race):
                if them in other.members and me in other.invited:
                    raise Refusal(_("You are already allied, or a proposal between you is waiting."))
            label = (name or "").strip()[:60]
            alliance_id = await self.store.create_alliance(race.id, label, me, them, now)
            alliance = await self.store.alliance(alliance_id)
            assert alliance is not None
            mine = await self.allied(alliance)
        elif not await self.store.invite_member(mine.id, them, me, now):
            raise Refusal(_("You are already allied, or a proposal between you is waiting."))
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            if mine.row.status == "active":
                asked = _(
                    "{who}, {inviter} invites you to join the alliance {alliance}. Accept?",
                    who=f"<@{target_id}>",
                    inviter=self._name(race, me),
                    alliance=self.title(race, mine),
                )
            else:
                asked = _(
                    "{who}, {proposer} proposes an alliance. Accept?",
                    who=f"<@{target_id}>",
                    proposer=self._name(race, me),
                )
            told = self.in_thread(
                mine, _("{inviter} invited {who}.", inviter=self._plain(race, me), who=self._plain(race, them))
            )
        post = Post(asked, mentions=[target_id], alliance_proposal=mine.id)
        return self.said(race, channel_id, _("Proposal sent."), post).then(*told)

    async def invite_ai(self, channel_id: int, user_id: int, ai: str) -> Outcome:
        """``/alliance invite ai:``: an AI seat of the race joins one's alliance at once (it accepts every
        alliance and pact, and keeps them: ``pact_marks.ai_keeping``)."""
        race, seat = await self._race_and_seat(channel_id, user_id)
        target = next(
            (s for s in race.lobby["seats"] if s.get("ai") and ai in (s["player"], seats.shown_name(s), s["team"])),
            None,
        )
        if target is None:
            raise Refusal(_("There is no such AI player in this race: pick one from the list."))
        return await self.ally_ai(race, channel_id, str(seat["player"]), str(target["player"]))

    async def ally_ai(self, race: RaceRow, channel_id: int, me: str, ai: str) -> Outcome:
        """The AI seat ``ai`` allied with ``me``: into ``me``'s alliance, or a new one of the two."""
        now = self.races.core.now()
        mine = await self.mine(race, me)
        other = await self.mine(race, ai)
        if other is not None:
            raise Refusal(_("You are already allied, or a proposal between you is waiting."))
        if mine is None:
            alliance_id = await self.store.create_alliance(race.id, "", me, ai, now)
        else:
            alliance_id = mine.id
            await self.store.invite_member(alliance_id, ai, me, now)
        await self.store.set_member(alliance_id, ai, "member", expect="invited", now=now)
        founding = await self.store.set_alliance(alliance_id, "active", expect="proposed")
        alliance = await self.store.alliance(alliance_id)
        assert alliance is not None
        allied = await self.allied(alliance)
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            joined = Post(
                _("{who} joins the alliance {alliance}.", who=self._plain(race, ai), alliance=self.title(race, allied))
            )
            told = self.in_thread(
                allied,
                _("{who} joins the alliance {alliance}.", who=self._plain(race, ai), alliance=self.title(race, allied)),
            )
            thread = _("Alliance {pair}", pair=self.title(race, allied))[:100]
        outcome = self.said(race, channel_id, _("Allied."), joined).then(*told)
        if founding:
            outcome = outcome.then(OpenThread(thread, tuple(self._users(race, allied.members)), alliance_id))
        return outcome

    async def add_ai_ally(self, channel_id: int, user_id: int, adding: Awaitable[Outcome]) -> Outcome:
        """``/race ai ally:True``: the AI seat added (``adding``), then allied with the one who asked."""
        race = await self.race_here(channel_id)
        before = {s["player"] for s in race.lobby["seats"]} if race is not None else set()
        added = await adding  # the seat is added first: the alliance is the second step
        try:
            race, seat = await self._race_and_seat(channel_id, user_id)
            new = [s for s in race.lobby["seats"] if s.get("ai") and s["player"] not in before]
            if not new:
                return added
            allied = await self.ally_ai(race, channel_id, str(seat["player"]), str(new[-1]["player"]))
        except Refusal as refused:
            return added.then(Reply(str(refused)))
        return added.then(*(e for e in allied.effects if not isinstance(e, Reply)))

    async def ai_names(self, channel_id: int) -> list[tuple[str, str]]:
        """The race's AI seats (player id, "white AI 1"), for ``/alliance invite ai:``'s autocomplete."""
        race = await self.race_here(channel_id)
        if race is None:
            return []
        return [(str(s["player"]), self._plain(race, str(s["player"]))) for s in race.lobby["seats"] if s.get("ai")]

    async def answer(self, alliance_id: int, user_id: int, accept: bool) -> Outcome:
        alliance = await self.store.alliance(alliance_id)
        race = await self.races.storage.race(alliance.race_id) if alliance else None
        if alliance is None or race is None or race.status not in ("lobby", "running"):
            raise Refusal(_("This proposal is no longer open."))
        seat = seats.human_seat(race.lobby, user_id)
        rows = {m.player: m for m in await self.store.alliance_members(alliance_id)}
        row = rows.get(str(seat["player"])) if seat is not None else None
        if row is None or (row.invited_by is None and row.status == "member"):
            raise Refusal(_("Only the player it was proposed to can answer."))
        if row.status in ("member", "declined"):
            raise Refusal(_("This proposal was already answered."))
        if row.status != "invited" or alliance.status not in OPEN:
            raise Refusal(_("This proposal is no longer open."))
        player = row.player
        if accept:
            other = await self.mine(race, player)
            if other is not None and other.id != alliance_id:
                raise Refusal(
                    _(
                        "You are already in the alliance {alliance}: leave it first (/alliance leave).",
                        alliance=self.title(race, other),
                    )
                )
        now = self.races.core.now()
        if not await self.store.set_member(
            alliance_id, player, "member" if accept else "declined", expect="invited", now=now
        ):
            raise Refusal(_("This proposal was already answered."))
        settled = await self._answered(race, player, user_id, accept)
        if not accept:
            return (await self._declined(race, alliance, player)).then(settled)
        founding = alliance.status == "proposed"
        if founding:
            await self.store.set_alliance(alliance_id, "active", expect="proposed")
        allied = await self.allied((await self.store.alliance(alliance_id)) or alliance)
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            names = self._and(race, allied.members)
            if founding:
                accepted = Post(_("Alliance: {names}.", names=names))
                thread = _("Alliance {pair}", pair=self.title(race, allied))[:100]
                users = tuple(self._users(race, allied.members))
                opened = OpenThread(thread, users, alliance_id)
                return Outcome(_("Accepted."), posts=[accepted]).then(settled, opened)
            joined = Post(
                _(
                    "{who} joins the alliance {alliance}.",
                    who=self._plain(race, player),
                    alliance=self.title(race, allied),
                )
            )
            told = self.in_thread(
                allied, _("{who} accepted: the alliance is now {names}.", who=self._plain(race, player), names=names)
            )
        effects = []
        if allied.row.thread_id is not None and user_id:
            effects.append(JoinThread(allied.row.thread_id, (user_id,)))
        return Outcome(_("Accepted."), posts=[joined]).then(settled, *effects, *told)

    async def _answered(self, race: RaceRow, player: str, user_id: int, accept: bool) -> Answered:
        """The invitation answered: its message says who answered, and its buttons go."""
        with speaking(await self.races.core.public(race)):  # the invitation is the channel's message
            who = self._plain(race, player)
            line = _("Accepted by {who}.", who=who) if accept else _("Declined by {who}.", who=who)
        return Answered(line, user_id)

    def _and(self, race: RaceRow, players: tuple[str, ...]) -> str:
        names = [self._name(race, p) for p in players]
        if len(names) < 2:
            return "".join(names)
        return _("{first} and {second}", first=", ".join(names[:-1]), second=names[-1])

    async def _declined(self, race: RaceRow, alliance: Alliance, player: str) -> Outcome:
        allied = await self.allied(alliance)
        await self._close_if_alone(allied, "declined")
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            declined = Post(_("{who} declined the alliance.", who=self._name(race, player)))
            told = self.in_thread(allied, _("{who} declined the invitation.", who=self._plain(race, player)))
        return Outcome(_("Declined."), posts=[declined]).then(*told)

    async def _close_if_alone(self, allied: Allied, status: str) -> bool:
        """An alliance still being formed with nobody left to answer, or formed with fewer than two
        members left, ends (``status``)."""
        if allied.row.status == "proposed" and not allied.invited:
            return await self.store.set_alliance(allied.id, status, expect="proposed")
        if allied.row.status == "active" and len(allied.members) < 2:
            return await self.store.set_alliance(allied.id, "ended", expect="active")
        return False

    async def lapse(self) -> list[tuple[int, Outcome]]:
        """Invitations not answered within 48 hours lapse, each race's channel told in a line."""
        now = self.races.core.now()
        told: list[tuple[int, Outcome]] = []
        for invitation in await self.store.invitations_before(now - LAPSE):
            outcome = await self._lapsed(invitation, now)
            if outcome is not None:
                told.append(outcome)
        return told

    async def _lapsed(self, invitation: AllianceMember, now: float) -> tuple[int, Outcome] | None:
        alliance = await self.store.alliance(invitation.alliance_id)
        if alliance is None:
            return None
        if not await self.store.set_member(alliance.id, invitation.player, "lapsed", expect="invited", now=now):
            return None
        race = await self.races.storage.race(alliance.race_id)
        allied = await self.allied(alliance)
        await self._close_if_alone(allied, "lapsed")
        if race is None or race.status not in ("lobby", "running"):
            return None
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            line = _(
                "The invitation of {who} to the alliance {alliance} lapsed: not answered in 48 hours.",
                who=self._plain(race, invitation.player),
                alliance=self.title(race, allied) if allied.members[1:] else self._plain(race, alliance.proposer),
            )
            outcome = Outcome(posts=[Post(line)]).then(*self.in_thread(allied, line))
        return race.channel_id, outcome

    async def next_lapse(self) -> float | None:
        """When the next invitation lapses (the bot's timer loop wakes then)."""
        pending = await self.store.invitations_before(float("inf"))
        return min(m.since for m in pending) + LAPSE if pending else None

    async def team(self, race: RaceRow, players: list[str]) -> int | None:
        """Players sharing a colour (Leader 1 with 6-10 players) are an alliance from the start, named for
        their colour, with the same commands, thread, pacts and ledger as any other."""
        if len(players) < 2:
            return None
        now = self.races.core.now()
        team = next((str(s["team"]) for s in race.lobby["seats"] if s["player"] == players[0]), "")
        alliance_id = await self.store.create_alliance(race.id, team, players[0], players[1], now)
        for other in players[1:]:
            if other != players[1]:
                await self.store.invite_member(alliance_id, other, players[0], now)
            await self.store.set_member(alliance_id, other, "member", expect="invited", now=now)
        await self.store.set_alliance(alliance_id, "active", expect="proposed")
        return alliance_id

    async def teams(self, race: RaceRow) -> list[tuple[str, list[str], str]]:
        """A stage's alliances at its finish, for the league's team classification: (name, members, the
        members as people know them)."""
        return [
            (self.title(race, a), list(a.members), self.members_line(race, a.members))
            for a in await self.of_race(race, formed=True)
        ]

    async def carry_over(self, race: RaceRow) -> list[Post]:
        """A league stage opening: the alliances of the league's previous stage ride on in it, with the
        members still seated, without asking again, in the same private thread (one for the league)."""
        if race.league_id is None or race.stage is None:
            return []
        stages = [s for s in await self.store.stages(race.league_id) if s.number < race.stage and s.race_id]
        before = await self.races.storage.race(stages[-1].race_id) if stages and stages[-1].race_id else None
        if before is None:
            return []
        seated = {str(s["player"]) for s in race.lobby["seats"]}
        now = self.races.core.now()
        lines = []
        public: list[str] = []
        for old in await self.of_race(before, formed=True):
            members = [p for p in old.members if p in seated and p not in old.parted]
            if len(members) < 2:
                continue
            alliance_id = await self.store.create_alliance(race.id, old.row.name or "", members[0], members[1], now)
            await self.store.set_member(alliance_id, members[1], "member", expect="invited", now=now)
            for other in members[2:]:
                await self.store.invite_member(alliance_id, other, members[0], now)
                await self.store.set_member(alliance_id, other, "member", expect="invited", now=now)
            await self.store.set_alliance(alliance_id, "active", expect="proposed", thread_id=old.row.thread_id)
            lines.append(self.line(race, Allied(old.row, tuple(members), ())))
            for carry in self.pacts_carried:
                public += await carry(race, old.row, alliance_id, tuple(members))
        if not lines:
            return []
        with speaking(await self.races.core.public(race)):  # the stage's channel
            posts = [Post(_("Alliances riding on from the last stage: {lines}.", lines="; ".join(lines)))]
            if public:
                posts.append(Post(_("Public pacts riding on: {pacts}.", pacts="; ".join(public))))
            return posts

    async def thread_opened(self, alliance_id: int, thread_id: int) -> None:
        alliance = await self.store.alliance(alliance_id)
        if alliance is not None:
            await self.store.set_alliance(alliance_id, alliance.status, thread_id=thread_id)

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        """``/alliance leave``: in a race (announced in its channel); in a league's channel, its alliance's
        thread or a finished stage's, the alliance of the league's stage now running, or, between stages,
        of the last one: the next stage carries over who is left."""
        if await self.race_here(channel_id) is None:
            league_race = await self._league_race_here(channel_id)
            if league_race is not None and league_race.status == "finished":
                return await self._leave_between_stages(league_race, channel_id, user_id)
            if league_race is not None:
                return await self._leave(league_race, playing_seat(league_race, user_id), channel_id)
        race, seat = await self._race_and_seat(channel_id, user_id)
        return await self._leave(race, seat, channel_id)

    async def _league_race_here(self, channel_id: int) -> RaceRow | None:
        """The latest opened stage of the league whose channel this is (or whose stage's or alliance's
        thread it is)."""
        league_id = next((lg.id for lg in await self.store.leagues() if lg.channel_id == channel_id), None)
        if league_id is None:
            race_id = await self.store.race_of_thread(channel_id)
            race = await self.races.storage.race(race_id) if race_id is not None else None
            race = race or await self.races.storage.latest_race(channel_id)
            league_id = race.league_id if race is not None else None
        if league_id is None:
            return None
        opened = [s for s in await self.store.stages(league_id) if s.race_id is not None]
        return await self.races.storage.race(opened[-1].race_id) if opened and opened[-1].race_id else None

    async def _leave_between_stages(self, race: RaceRow, channel_id: int, user_id: int) -> Outcome:
        """A member leaves a league alliance after a stage's finish: the finished stage keeps its team (its
        results stand), the next stage carries over the others, and the league's channel is told."""
        seat = playing_seat(race, user_id)
        player = str(seat["player"])
        mine = await self.mine(race, player)
        now = self.races.core.now()
        if mine is None or not await self.store.set_member(mine.id, player, PARTED, expect="member", now=now):
            raise Refusal(_("You are in no alliance in this league."))
        league = await self.store.league(race.league_id) if race.league_id is not None else None
        left = [p for p in mine.members if p != player and p not in mine.parted]
        with speaking(await self.races.core.public(race)):  # the league's channel and the alliance's thread
            who, alliance = self._plain(race, player), self.title(race, mine)
            if len(left) < 2:
                line = _("{who} left the alliance {alliance}: it ends with this stage.", who=who, alliance=alliance)
            else:
                line = _(
                    "{who} left the alliance {alliance}: the next stage carries over the others.",
                    who=who,
                    alliance=alliance,
                )
        told = [Elsewhere(league.channel_id, Outcome(posts=[Post(line)]))] if league is not None else []
        return Outcome(_("Left.")).then(*told, *self.in_thread(mine, line))
    async def _leave(self, race: RaceRow, seat: SeatData, channel_id: int) -> Outcome:
        player = str(seat["player"])
        mine = await self.mine(race, player)
        now = self.races.core.now()
        if mine is None or not await self.store.set_member(mine.id, player, "left", expect="member", now=now):
            raise Refusal(_("You are in no alliance in this race."))
        before = mine
        for pact in await self.store.pacts(mine.id):  # the pacts that bound them end with their leaving
            if pact.status in ("active", "proposed") and player in pact.members:
                ended_at = len(race.actions) if pact.status == "active" else None
                await self.store.set_pact(pact.id, expect=pact.status, status="ended", ended_at=ended_at)
        mine = await self.allied(mine.row)
        if mine.row.status == "proposed":  # its founder leaves before anyone accepted: it is not formed
            await self.store.set_alliance(mine.id, "ended", expect="proposed")
        ended = await self._close_if_alone(mine, "ended")
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            if ended or before.row.status != "active":
                names = self._and(race, before.members)
                post = Post(_("Alliance ended: {names}.", names=names))
                told = self.in_thread(mine, _("{who} left: the alliance has ended.", who=self._plain(race, player)))
            else:
                post = Post(
                    _(
                        "{who} left the alliance {alliance}.",
                        who=self._name(race, player),
                        alliance=self.title(race, before),
                    )
                )
                told = self.in_thread(mine, _("{who} left the alliance.", who=self._plain(race, player)))
        return self.said(race, channel_id, _("Left."), post).then(*told)

    async def share_hand(self, channel_id: int, user_id: int, ally_user: int) -> Outcome:
        race, seat = await self._race_and_seat(channel_id, user_id)
        ally = seats.human_seat(race.lobby, ally_user)
        if ally is None or ally["player"] not in await self.allies(race, str(seat["player"])):
            raise Refusal(_("You can only show your hand to a player you are allied with."))
        with speaking(await self.races.languages.private(ally_user)):  # a private message: the ally's language
            hand = await self.races.reading.hand(channel_id, user_id)
            who = self._name(race, str(seat["player"]))
            shown = _("{who} shows you their hand:", who=who) + "\n" + hand.reply.split("\n", 1)[-1]
        outcome = Outcome(_("Shown to {who} only.", who=f"<@{ally_user}>"), dms=[(ally_user, shown)])
        return outcome
