"""Leagues: a stage a week with a general classification (rulebook D), opened by the bot itself.

The organiser creates a league, players join with a colour and their riders, the organiser
closes entries and the stages are scheduled weekly (day, hour, time zone). At each due time
the scheduler opens the stage in a thread (or channel) of the league, seats every rider not
eliminated, carries energy over (at most +15) and posts the first prompt. A stage still
running when the next is due is finished by the AI first. After each stage: the result,
bonus times and the general classification, posted as an image and stored.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.league_store import League, LeagueStore, Member, NameTaken, Stage
from bot.service import RaceService, Refusal
from bot.storage import RaceRow
from bot.views_model import Outcome, Post
from renderer import render_standings
from rules.leader1.model import RIDER_TYPES, TEAMS
from rules.leader1.route import road_for
from rules.leader1.stage import Standing, carried_energy, general_classification, stage_result

WEEK = 7 * 24 * 3600
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# the Discord layer opens a thread or channel for a stage: (league channel, name) -> new channel id
ChannelMaker = Callable[[int, str], Awaitable[int]]


def first_due(after: float, weekday: int, hour: int, zone: str) -> datetime:
    """The first ``weekday`` at ``hour`` o'clock in ``zone`` strictly after ``after``."""
    tz = ZoneInfo(zone)
    local = datetime.fromtimestamp(after, tz)
    candidate = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    candidate += timedelta(days=(weekday - candidate.weekday()) % 7)
    if candidate.timestamp() <= after:
        candidate += timedelta(days=7)
    return candidate


def stage_timer(configured: int, hexagons: int, humans: int) -> int:
    """A turn timer short enough for a stage to finish within its week (docs/leagues.md)."""
    turns = 2 * hexagons  # generous: a 10-hexagon stage takes 12-20 turns
    decisions_per_turn = 2 * max(humans, 1) + 1
    return max(60, min(configured, WEEK // (turns * decisions_per_turn)))


def standings_from(data: list[dict[str, Any]]) -> tuple[Standing, ...]:
    return tuple(Standing(d["rider"], d["player"], d["position"], d["energy"], d["eliminated"]) for d in data)


def standings_to(standings: tuple[Standing, ...]) -> list[dict[str, Any]]:
    return [
        {"rider": s.rider, "player": s.player, "position": s.position, "energy": s.energy, "eliminated": s.eliminated}
        for s in standings
    ]


class LeagueService:
    def __init__(self, races: RaceService, store: LeagueStore) -> None:
        self.races = races
        self.store = store
        races.on_finish = self.on_stage_finished

    # ------------------------------------------------------------------ organising

    async def _find(self, guild_id: int, name: str | None) -> League:
        leagues = [
            lg for lg in await self.store.leagues(guild_id) if lg.status != "finished"
        ] or await self.store.leagues(guild_id)
        if name:
            match = [lg for lg in await self.store.leagues(guild_id) if lg.name.lower() == name.lower()]
            if not match:
                raise Refusal(f"No league called {name!r} here; /league create makes one.")
            return match[0]
        if len(leagues) == 1:
            return leagues[0]
        if not leagues:
            raise Refusal("There is no league in this server; /league create makes one.")
        raise Refusal("Several leagues run here: name one with league:.")

    @staticmethod
    def _organiser(league: League, user_id: int, can_manage: bool) -> None:
        if user_id != league.organiser_id and not can_manage:
            raise Refusal("Only the league's organiser (or someone with Manage Server) can do that.")

    async def create(
        self,
        guild_id: int,
        organiser_id: int,
        name: str,
        channel_id: int,
        *,
        stages: str,
        weekday: str = "sat",
        hour: int = 18,
        zone: str = "UTC",
        timer: int = 24 * 3600,
        riders: int = 3,
        ring: int = 12,
        seed: int = 1,
    ) -> Outcome:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise Refusal(f"Unknown time zone {zone!r}: use a name such as Europe/Paris or UTC.") from None
        if weekday not in WEEKDAYS or not 0 <= hour <= 23:
            raise Refusal("Stages run on a weekday (mon ... sun) at an hour from 0 to 23.")
        tracks = []
        for i, word in enumerate(w.strip() for w in stages.split(",") if w.strip()):
            track = f"random-10-{seed + i}" if word == "random" else word
            if word.startswith("random-") and word.count("-") == 1:
                track = f"{word}-{seed + i}"
            try:
                road_for(track)
            except Exception as exc:
                raise Refusal(f"Stage {i + 1} ({word}) cannot be used: {exc}") from None
            tracks.append(track)
        if not tracks:
            raise Refusal("A league needs at least one stage: stages:first-race,flatlands,random")
        settings = {
            "stages": tracks,
            "weekday": WEEKDAYS.index(weekday),
            "hour": hour,
            "zone": zone,
            "timer": timer,
            "riders": riders,
            "ring": ring,
            "seed": seed,
        }
        try:
            await self.store.create(guild_id, organiser_id, name, "leader1", channel_id, settings)
        except NameTaken:
            raise Refusal(f"A league called {name!r} already exists here.") from None
        return Outcome(
            f"League **{name}** created: {len(tracks)} stage(s) ({', '.join(tracks)}), "
            f"{weekday} at {hour}:00 {zone}. Players: /league join. The organiser closes entries "
            "with /league close, which schedules the stages.",
            ephemeral=False,
        )

    async def join(self, guild_id: int, league_name: str | None, user_id: int, name: str, team: str | None) -> Outcome:
        league = await self._find(guild_id, league_name)
        return await self._add(league, user_id, name, team, ai=False)

    async def add_ai(
        self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool, team: str | None
    ) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        return await self._add(league, None, "AI", team, ai=True)

    async def _add(self, league: League, user_id: int | None, name: str, team: str | None, *, ai: bool) -> Outcome:
        if league.status != "entries":
            raise Refusal(f"Entries to {league.name} are closed.")
        members = [m for m in await self.store.members(league.id) if not m.removed]
        if not ai and any(m.user_id == user_id for m in members):
            raise Refusal("You are already in this league.")
        taken = {m.team for m in members}
        free = [t for t in TEAMS if t not in taken]
        team = team or (free[0] if free else None)
        if team is None or team in taken:
            raise Refusal(f"That colour is taken; free: {', '.join(free) or 'none'}.")
        count = sum(1 for m in await self.store.members(league.id) if m.user_id is None) + 1
        player = f"ai{count}" if ai else f"u{user_id}"
        kinds = list(RIDER_TYPES[: int(league.settings["riders"])])
        await self.store.add_member(league.id, Member(player, user_id, name, team, kinds, False))
        who = "an AI team" if ai else f"<@{user_id}>"
        return Outcome(f"{who} rides for {league.name} in {team} ({', '.join(kinds)}).", ephemeral=False)

    async def remove(
        self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool, target: int
    ) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        member = next((m for m in await self.store.members(league.id) if m.user_id == target and not m.removed), None)
        if member is None:
            raise Refusal("That member is not in the league.")
        await self.store.remove_member(league.id, member.player)
        return Outcome(
            f"<@{target}> is no longer in {league.name}; their riders are not seated in later stages.", ephemeral=False
        )

    async def close(self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        if league.status != "entries":
            raise Refusal("Entries are already closed.")
        members = [m for m in await self.store.members(league.id) if not m.removed]
        if len(members) < 2:
            raise Refusal("A league needs at least 2 teams: invite players or /league ai.")
        s = league.settings
        first = first_due(self.races.now(), s["weekday"], s["hour"], s["zone"])
        stages = [(n + 1, track, (first + timedelta(days=7 * n)).timestamp()) for n, track in enumerate(s["stages"])]
        await self.store.schedule(league.id, stages)
        if self.races.on_change is not None:
            self.races.on_change()
        return Outcome(
            f"Entries to **{league.name}** are closed.\n" + await self._schedule_text(league), ephemeral=False
        )

    # ------------------------------------------------------------------ reading

    async def _schedule_text(self, league: League) -> str:
        tz = ZoneInfo(league.settings["zone"])
        lines = [f"**{league.name}** schedule ({league.settings['zone']}):"]
        for stage in await self.store.stages(league.id):
            when = datetime.fromtimestamp(stage.due or 0, tz).strftime("%a %d %b %H:%M")
            lines.append(f"Stage {stage.number}: {stage.track}, {when} — {stage.status}")
        return "\n".join(lines)

    async def schedule(self, guild_id: int, league_name: str | None) -> Outcome:
        league = await self._find(guild_id, league_name)
        if league.status == "entries":
            return Outcome(f"Entries to {league.name} are open; stages are scheduled when the organiser closes them.")
        return Outcome(await self._schedule_text(league))

    async def _gc(self, league: League) -> tuple[int, tuple[Standing, ...]]:
        done = [s for s in await self.store.stages(league.id) if s.status == "finished" and s.result]
        if not done:
            return 0, ()
        return done[-1].number, standings_from(done[-1].result["gc"] if done[-1].result else [])

    async def standings(self, guild_id: int, league_name: str | None) -> Outcome:
        league = await self._find(guild_id, league_name)
        after, gc = await self._gc(league)
        if not gc:
            return Outcome(f"No stage of {league.name} has finished yet.")
        image = render_standings(
            gc,
            int(league.settings["ring"]),
            f"{league.name}: general classification after stage {after}",
            await self._kinds(league),
        )
        return Outcome(self._gc_text(league, gc, after), image=image)

    def _gc_text(self, league: League, gc: tuple[Standing, ...], after: int) -> str:
        leader = max((s.position for s in gc if not s.eliminated), default=0)
        lines = [f"**{league.name}** — general classification after stage {after}"]
        for rank, s in enumerate(gc, start=1):
            tail = "eliminated" if s.eliminated else ("leader" if rank == 1 else f"{leader - s.position} behind")
            lines.append(f"{rank}. {s.rider} ({s.player}) {tail}, energy {s.energy}")
        return "\n".join(lines)

    async def _kinds(self, league: League) -> dict[str, str]:
        return {f"{m.team}-{k}": k for m in await self.store.members(league.id) for k in m.kinds}

    async def results(self, guild_id: int, league_name: str | None, number: int) -> Outcome:
        league = await self._find(guild_id, league_name)
        stage = next((s for s in await self.store.stages(league.id) if s.number == number), None)
        if stage is None or stage.result is None:
            raise Refusal(f"Stage {number} of {league.name} has no result yet.")
        return Outcome("\n".join(stage.result["lines"]))

    async def export(self, guild_id: int, league_name: str | None) -> Outcome:
        league = await self._find(guild_id, league_name)
        stages = []
        for stage in await self.store.stages(league.id):
            record = None  # a running stage's record would foretell its rolls and show hidden tiles
            if stage.race_id is not None and stage.status == "finished":
                race = await self.races.storage.race(stage.race_id)
                if race is not None and race.envelope is not None:
                    record = self.races._record(race).to_json()
            stages.append(
                {
                    "number": stage.number,
                    "track": stage.track,
                    "status": stage.status,
                    "record": record,
                    "result": stage.result,
                }
            )
        data = {
            "league": league.name,
            "settings": league.settings,
            "stages": stages,
            "gc": standings_to((await self._gc(league))[1]),
        }
        name = f"league-{league.id}.json"
        return Outcome(
            f"All stages and the classification of {league.name}.",
            ephemeral=False,
            file=(name, json.dumps(data, indent=1).encode()),
        )

    # ------------------------------------------------------------------ the scheduler

    async def tick(self, make_channel: ChannelMaker) -> list[tuple[int, Outcome]]:
        out: list[tuple[int, Outcome]] = []
        now = self.races.now()
        for league in await self.store.leagues():
            if league.status != "scheduled":
                continue
            stages = await self.store.stages(league.id)
            due = next((s for s in stages if s.status in ("scheduled", "opening") and (s.due or 0) <= now), None)
            if due is None:
                continue
            for running in (s for s in stages if s.status == "running" and s.number < due.number):
                if running.race_id is not None and running.channel_id is not None:
                    out.append((running.channel_id, await self.races.finish_by_ai(running.race_id)))
            if due.status == "opening" or await self.store.claim(league.id, due.number):
                opened = await self._open(league, due, make_channel)
                if opened is not None:
                    out.append(opened)
        return out

    async def _open(self, league: League, stage: Stage, make_channel: ChannelMaker) -> tuple[int, Outcome] | None:
        members = [m for m in await self.store.members(league.id) if not m.removed]
        _, gc = await self._gc(league)
        standing = {s.rider: s for s in gc}
        seats = []
        for member in members:
            kinds = [k for k in member.kinds if not standing.get(f"{member.team}-{k}", _ALIVE).eliminated]
            if not kinds:
                continue
            carry = {
                k: carried_energy(standing[f"{member.team}-{k}"].energy)
                for k in kinds
                if f"{member.team}-{k}" in standing
            }
            seats.append(
                {
                    "player": member.player,
                    "user": member.user_id,
                    "name": member.name,
                    "team": member.team,
                    "ai": member.user_id is None,
                    "kinds": kinds,
                    "carry": carry,
                }
            )
        if len(seats) < 2:
            await self.store.finished(league.id, stage.number, {"lines": ["Not enough riders left."], "gc": []})
            await self.store.set_status(league.id, "finished")
            return None
        humans = sum(1 for s in seats if not s["ai"])
        timer = stage_timer(int(league.settings["timer"]), len(road_for(stage.track).tiles), humans)
        channel_id = await make_channel(league.channel_id, f"{league.name} — stage {stage.number}: {stage.track}")
        outcome = await self.races.open_league_race(
            league.guild_id,
            channel_id,
            league.organiser_id,
            league_id=league.id,
            stage=stage.number,
            track=f"leader1/{stage.track}",
            seats=seats,
            timer=timer,
            seed=int(league.settings["seed"]) * 1000 + stage.number,
            ring=int(league.settings["ring"]),
        )
        race = await self.races.storage.latest_race(channel_id)
        assert race is not None
        await self.store.opened(league.id, stage.number, race.id, channel_id)
        header = Post(
            f"**{league.name}**, stage {stage.number} ({stage.track}) is open: turn timer {timer // 60} min.",
            mentions=[s["user"] for s in seats if s["user"]],
        )
        outcome.posts.insert(0, header)
        return channel_id, outcome

    async def on_stage_finished(self, race: RaceRow, state: Any) -> list[Post]:
        """The stage result, bonus times and the general classification after it (stored, then posted)."""
        assert race.league_id is not None and race.stage is not None
        league = await self.store.league(race.league_id)
        if league is None:
            return []
        previous = [
            s
            for s in await self.store.stages(league.id)
            if s.status == "finished" and s.result and s.number < race.stage
        ]
        before = standings_from(previous[-1].result["gc"]) if previous and previous[-1].result else ()
        lines = stage_result(state)
        gc = general_classification(before, lines, int(league.settings["ring"]))
        text = [f"**{league.name}**, stage {race.stage} result"]
        for rank, line in enumerate(lines, start=1):
            if line.eliminated:
                text.append(f"— {line.rider}: eliminated (more than 3 turns after the peloton)")
            else:
                extra = (" · stage win +2" if line.won else "") + (f" · bonus +{line.bonuses}" if line.bonuses else "")
                text.append(
                    f"{rank}. {line.rider} turn {line.arrived_turn}"
                    + (f", {line.delay} turn(s) down" if line.delay else "")
                    + extra
                )
        text.append(self._gc_text(league, gc, race.stage))
        result = {"lines": text, "gc": standings_to(gc)}
        if not await self.store.finished(league.id, race.stage, result):
            return []
        stages = await self.store.stages(league.id)
        if all(s.status == "finished" for s in stages):
            await self.store.set_status(league.id, "finished")
            text.append(f"**{league.name}** is over: {gc[0].rider} ({gc[0].player}) wins the general classification.")
        image = render_standings(
            gc,
            int(league.settings["ring"]),
            f"{league.name}: general classification after stage {race.stage}",
            await self._kinds(league),
        )
        return [Post("\n".join(text)[:2000], image, image_name="standings.png")]

    async def next_due(self) -> float | None:
        dues = []
        for league in await self.store.leagues():
            if league.status == "scheduled":
                dues += [s.due for s in await self.store.stages(league.id) if s.status == "scheduled" and s.due]
        return min(dues) if dues else None


_ALIVE = Standing("", "", 0, 0, False)
