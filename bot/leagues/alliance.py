"""Alliances between players of a race: proposed, accepted or declined with a button, given a
private thread, shown on the board's legend and in /race status, left with an announcement."""

from __future__ import annotations

from bot.service import seats
from bot.service.common import Refusal, playing_seat
from bot.service.model import OpenThread, Outcome, Post
from bot.service.races import RaceService
from bot.storage import Alliance, RaceRow, Storage
from bot.storage.lobby import SeatData
from rules.i18n import _, speaking


class AllianceService:
    def __init__(self, races: RaceService, store: Storage) -> None:
        self.races = races
        self.store = store
        races.listeners.alliance_lines.append(self.lines)

    async def _race_and_seat(self, channel_id: int, user_id: int) -> tuple[RaceRow, SeatData]:
        race = await self.races.storage.active_race(channel_id)
        if race is None:
            raise Refusal(_("There is no race in this channel: alliances are made inside a race."))
        seat = playing_seat(race, user_id)
        return race, seat

    @staticmethod
    def _name(race: RaceRow, player: str) -> str:
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        if seat is None:
            return player
        ai = _("AI")
        return f"{seat['team']} ({ai if seat.get('ai') else '<@' + str(seat['user']) + '>'})"

    async def lines(self, race: RaceRow) -> list[str]:
        out = []
        for a in await self.store.alliances(race.id):
            if a.status == "active":
                out.append(f"{self._plain(race, a.proposer)} + {self._plain(race, a.partner)}")
        return out

    @staticmethod
    def _plain(race: RaceRow, player: str) -> str:
        seat = next((s for s in race.lobby["seats"] if s["player"] == player), None)
        return player if seat is None else f"{seat['team']} {seat['name']}"

    async def propose(self, channel_id: int, user_id: int, target_id: int) -> Outcome:
        race, seat = await self._race_and_seat(channel_id, user_id)
        target = seats.human_seat(race.lobby, target_id)
        if target is None:
            raise Refusal(_("That person is not playing in this race: alliances are between its players."))
        if target is seat:
            raise Refusal(_("An alliance needs two players."))
        pair = {seat["player"], target["player"]}
        for a in await self.store.alliances(race.id):
            if {a.proposer, a.partner} == pair and a.status in ("proposed", "active"):
                raise Refusal(_("You are already allied, or a proposal between you is waiting."))
        alliance_id = await self.store.propose_alliance(race.id, str(seat["player"]), str(target["player"]))
        with speaking(await self.races.core.public(race)):  # the race's channel
            asked = _(
                "{who}, {proposer} proposes an alliance. Accept?",
                who=f"<@{target_id}>",
                proposer=self._name(race, str(seat["player"])),
            )
        post = Post(asked, mentions=[target_id], alliance_proposal=alliance_id)
        return Outcome(_("Proposal sent."), posts=[post])

    async def answer(self, alliance_id: int, user_id: int, accept: bool) -> Outcome:
        alliance = await self.store.alliance(alliance_id)
        race = await self.races.storage.race(alliance.race_id) if alliance else None
        if alliance is None or race is None or race.status not in ("lobby", "running"):
            raise Refusal(_("This proposal is no longer open."))
        partner = next((s for s in race.lobby["seats"] if s["player"] == alliance.partner), None)
        if partner is None or partner.get("user") != user_id:
            raise Refusal(_("Only the player it was proposed to can answer."))
        if not await self.store.set_alliance(alliance_id, "active" if accept else "declined", expect="proposed"):
            raise Refusal(_("This proposal was already answered."))
        with speaking(await self.races.core.public(race)):  # the race's channel and the alliance's thread
            proposer, partner_name = self._name(race, alliance.proposer), self._name(race, alliance.partner)
            names = _("{first} and {second}", first=proposer, second=partner_name)
            declined = Post(_("{who} declined the alliance.", who=partner_name))
            accepted = Post(_("Alliance: {names}.", names=names))
            pair = f"{self._plain(race, alliance.proposer)} + {self._plain(race, alliance.partner)}"
            name = _("Alliance {pair}", pair=pair)[:100]
        if not accept:
            return Outcome(_("Declined."), posts=[declined])
        users = [u for u in (self._user(race, alliance.proposer), user_id) if u is not None]
        return Outcome(_("Accepted."), posts=[accepted]).then(OpenThread(name, tuple(users), alliance_id))

    @staticmethod
    def _user(race: RaceRow, player: str) -> int | None:
        return seats.user_of(race.lobby, player)

    async def thread_opened(self, alliance_id: int, thread_id: int) -> None:
        alliance = await self.store.alliance(alliance_id)
        if alliance is not None:
            await self.store.set_alliance(alliance_id, alliance.status, thread_id=thread_id)

    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        race, seat = await self._race_and_seat(channel_id, user_id)
        ended: list[Alliance] = []
        for a in await self.store.alliances(race.id):
            if (
                a.status == "active"
                and seat["player"] in (a.proposer, a.partner)
                and await self.store.set_alliance(a.id, "ended", expect="active")
            ):
                ended.append(a)
        if not ended:
            raise Refusal(_("You are in no alliance in this race."))
        with speaking(await self.races.core.public(race)):  # the race's channel
            names = "; ".join(
                _("{first} and {second}", first=self._name(race, a.proposer), second=self._name(race, a.partner))
                for a in ended
            )
            ended_post = Post(_("Alliance ended: {names}.", names=names))
        return Outcome(_("Left."), posts=[ended_post])

    async def allies(self, race: RaceRow, player: str) -> set[str]:
        return {
            a.partner if a.proposer == player else a.proposer
            for a in await self.store.alliances(race.id)
            if a.status == "active" and player in (a.proposer, a.partner)
        }

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
