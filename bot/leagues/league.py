"""Leagues: a stage a week with a general classification, opened by the bot itself, for any game.

The organiser creates a league of one game, players join with a colour, the organiser
closes entries and the stages are scheduled weekly (day, hour, time zone). At each due time
the scheduler opens the stage in a thread (or channel) of the league, seats every piece the
game's league scoring keeps in (with what it carries over) and posts the first prompt. A
stage still running when the next is due is finished by the AI first. After each stage:
the result and the general classification from the game's scoring, stored and posted.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.leagues.team_classification import Teams, team_table
from bot.service import seats
from bot.service.alt_text import listed
from bot.service.backoff import Backoff
from bot.service.bounds import LEAGUE_STAGE
from bot.service.colours import colour_id
from bot.service.common import Refusal, record_of
from bot.service.model import Outcome, Post, Publish
from bot.service.names import clean_name
from bot.service.pace import pace_lines
from bot.service.races import RaceService
from bot.storage import League, Member, NameTaken, RaceRow, Stage, Storage
from bot.storage.lobby import SeatData
from renderer.pacts_column import with_pacts_column
from renderer.registry import paint_standings
from rules.game import LeagueScoring, Seat, Standing
from rules.i18n import LANGUAGES, _, ngettext, pgettext, speaking
from rules.leader1.words import colour as rider_colour
from rules.registry import AnyGame, find_game, game_ids
from rules.shown import track_title

log = logging.getLogger("domestique")
WEEK = 7 * 24 * 3600
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True)
class Held:
    """A league with its game, looked up once for the request that needs the game's rules."""

    league: League
    game: AnyGame

    @property
    def scoring(self) -> LeagueScoring[object]:
        return scoring_of(self.game)


def with_game(league: League) -> Held:
    return Held(league, find_game(league.game))


def scoring_of(game: AnyGame) -> LeagueScoring[object]:
    """The game's league scoring, or a refusal for a game whose races stand alone."""
    if game.scoring is None:
        raise Refusal(
            _("{game_title} has no league scoring: its races are played one at a time.", game_title=game.title)
        )
    return game.scoring


def stage_status(status: str) -> str:
    """A stage's status as the schedule shows it (the stored word stays)."""
    shown = {
        "scheduled": lambda: pgettext("stage status", "scheduled"),
        "opening": lambda: pgettext("stage status", "opening"),
        "running": lambda: pgettext("stage status", "running"),
        "finished": lambda: pgettext("stage status", "finished"),
    }.get(status)
    return shown() if shown is not None else status


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


MARGIN = 6 * 3600  # a stage's clocks leave this much of its week unspent


def stage_bank(window: float, humans: int) -> int:
    """Each player's time bank for a stage: the time until the next stage opens, less a margin, shared
    out among the people riding it. Every decision asked is charged to someone's clock and the AI's
    are instant, so the stage ends before the next opens (docs/pace.md)."""
    return max(60, int((window - MARGIN) / max(humans, 1)))


def standings_from(data: list[dict[str, Any]]) -> tuple[Standing, ...]:
    """Stored standings (rows written before leagues were generic used rider/position/energy)."""
    out = []
    for d in data:
        if "piece" in d:
            out.append(Standing(d["piece"], d["player"], d["score"], dict(d.get("resources") or {}), d["eliminated"]))
        else:
            out.append(Standing(d["rider"], d["player"], d["position"], {"energy": d["energy"]}, d["eliminated"]))
    return tuple(out)


def standings_to(standings: tuple[Standing, ...]) -> list[dict[str, Any]]:
    return [
        {
            "piece": s.piece,
            "player": s.player,
            "score": s.score,
            "resources": dict(s.resources),
            "eliminated": s.eliminated,
        }
        for s in standings
    ]


def parse_settings(text: str, scoring: LeagueScoring[object]) -> dict[str, int]:
    """``ring=10`` (the game's league settings, comma-separated) -> values with the defaults filled in."""
    known = {s.name: s for s in scoring.settings}
    values = {s.name: s.default for s in scoring.settings}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _eq, raw = part.partition("=")
        setting = known.get(name.strip())
        if setting is None:
            names = ", ".join(f"{s.name} ({_(s.about)})" for s in scoring.settings) or _("none")
            raise Refusal(
                _(
                    "Unknown league setting {typed}; this game's settings: {names}.",
                    typed=repr(name.strip()[:30]),
                    names=names,
                )
            )
        if not raw.strip().isdigit() or not setting.minimum <= int(raw) <= setting.maximum:
            raise Refusal(
                _(
                    "{setting} is a number from {least} to {most}.",
                    setting=setting.name,
                    least=setting.minimum,
                    most=setting.maximum,
                )
            )
        values[setting.name] = int(raw)
    return values


class LeagueService:
    def __init__(self, races: RaceService, store: Storage) -> None:
        self.races = races
        self.store = store
        self.backoff = Backoff()  # leagues whose schedule failed wait longer before the next try
        races.listeners.stage_finished.append(self.on_stage_finished)
        # alliances carried into a stage as it opens, and each member's pacts kept and broken in a stage
        # (``bot/leagues/alliance.py``, ``bot/leagues/pacts.py``: the bot wires them)
        self.stage_opened: list[Callable[[RaceRow], Awaitable[list[Post]]]] = []
        self.pact_tally: Callable[[RaceRow], Awaitable[dict[str, tuple[int, int]]]] | None = None
        self.teams: Teams | None = None  # a finished stage's alliances, for the team classification

    # ------------------------------------------------------------------ organising

    async def _find(self, guild_id: int, name: str | None) -> League:
        every = await self.store.leagues(guild_id)
        if name:
            match = [lg for lg in every if lg.name.lower() == name.lower()]
            if not match:
                raise Refusal(_("No league called {typed} here; /league create makes one.", typed=repr(name[:60])))
            return match[0]
        leagues = [lg for lg in every if lg.status != "finished"] or every
        if len(leagues) == 1:
            return leagues[0]
        if not leagues:
            raise Refusal(_("There is no league in this server; /league create makes one."))
        raise Refusal(_("Several leagues run here: name one with league:."))

    @staticmethod
    def _organiser(league: League, user_id: int, can_manage: bool) -> None:
        if user_id != league.organiser_id and not can_manage:
            raise Refusal(_("Only the league's organiser (or someone with Manage Server) can do that."))

    async def create(
        self,
        guild_id: int,
        organiser_id: int,
        name: str,
        channel_id: int,
        *,
        game: str,
        stages: str,
        weekday: str = "sat",
        hour: int = 18,
        zone: str = "UTC",
        timer: int = 24 * 3600,
        pieces: int | None = None,
        settings: str = "",
        clock: bool = True,
        teams: bool = False,
        pact_votes: str = "all",
    ) -> Outcome:
        if game not in game_ids():
            raise Refusal(
                _("Unknown game {typed}; games: {titles}.", typed=repr(game[:40]), titles=", ".join(game_ids()))
            )
        name = clean_name(name, fallback="League", limit=60)
        rules = find_game(game)
        scoring = scoring_of(rules)
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise Refusal(
                _("Unknown time zone {typed}: use a name such as Europe/Paris or UTC.", typed=repr(zone[:40]))
            ) from None
        if weekday not in WEEKDAYS or not 0 <= hour <= 23:
            raise Refusal(_("Stages run on a weekday (mon ... sun) at an hour from 0 to 23."))
        count = rules.pieces.default if pieces is None else pieces
        if not rules.pieces.minimum <= count <= rules.pieces.maximum:
            raise Refusal(
                _(
                    "Each player has {least} to {most} {noun}.",
                    least=rules.pieces.minimum,
                    most=rules.pieces.maximum,
                    noun=rules.piece_word(rules.pieces.maximum),  # counted after the range's last number
                )
            )
        values = parse_settings(settings, scoring)
        tracks = []
        for i, word in enumerate(w.strip() for w in stages.split(",") if w.strip()):
            try:
                tracks.append(rules.tracks.resolve(word, self.races.core.new_seed() % 1_000_000))
            except ValueError as exc:
                raise Refusal(_("Stage {number} cannot be used: {problem}", number=i + 1, problem=exc)) from None
        if not tracks:
            raise Refusal(
                _(
                    "A league needs at least one stage, e.g. stages:{example}",
                    example=",".join(rules.tracks.names()[:3]),
                )
            )
        league_settings = {
            "stages": tracks,
            "weekday": WEEKDAYS.index(weekday),
            "hour": hour,
            "zone": zone,
            "timer": timer,
            "riders": count,
            "values": values,
            "clock": clock,
            "teams": teams,  # its alliances scored: a team classification beside the general one
            "pact_votes": pact_votes,  # how its alliances agree pacts: "all" or "majority" (pact_votes.py)
        }
        try:
            await self.store.create_league(guild_id, organiser_id, name, game, channel_id, league_settings)
        except NameTaken:
            raise Refusal(_("A league called {name} already exists here.", name=repr(name))) from None
        with speaking(await self.races.languages.public(guild_id)):  # said in the channel
            shown = ", ".join(track_title(t) for t in tracks)
            said = ngettext(
                "League **{name}** ({game_title}) created: {n} stage(s) ({tracks}), {weekday} at {hour}:00 {zone}. "
                "Players: /league join. The organiser closes entries with /league close, which schedules the stages.",
                "League **{name}** ({game_title}) created: {n} stage(s) ({tracks}), {weekday} at {hour}:00 {zone}. "
                "Players: /league join. The organiser closes entries with /league close, which schedules the stages.",
                len(tracks),
                name=name,
                game_title=rules.title,
                tracks=shown,
                weekday=weekday,
                hour=hour,
                zone=zone,
            )
        return Outcome(said, ephemeral=False)

    async def join(
        self, guild_id: int, league_name: str | None, user_id: int, name: str, colour: str | None
    ) -> Outcome:
        league = await self._find(guild_id, league_name)
        return await self._add(league, user_id, clean_name(name), colour, ai=False)

    async def add_ai(
        self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool, colour: str | None
    ) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        return await self._add(league, None, "AI", colour, ai=True)

    async def _add(self, league: League, user_id: int | None, name: str, colour: str | None, *, ai: bool) -> Outcome:
        if league.status != "entries":
            raise Refusal(_("Entries to {league_name} are closed.", league_name=league.name))
        game = with_game(league).game
        members = [m for m in await self.store.members(league.id) if not m.removed]
        if not ai and any(m.user_id == user_id for m in members):
            raise Refusal(_("You are already in this league."))
        count = sum(1 for m in await self.store.members(league.id) if m.user_id is None) + 1
        player = f"ai{count}" if ai else f"u{user_id}"
        shown = f"AI {count}" if ai else name
        taken = [self._seat(m) for m in members]
        try:
            colour = colour_id(game.colours, colour)  # typed in the player's words or as its id
            colour, kinds = game.seat(taken, int(league.settings["riders"]), colour)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        await self.store.add_member(league.id, Member(player, user_id, shown, colour, list(kinds), False))
        with speaking(await self.races.languages.public(league.guild_id)):  # said in the channel
            if ai:
                said = _(
                    "An AI team races for {league_name} in {colour}.",
                    league_name=league.name,
                    colour=rider_colour(colour),
                )
            else:
                said = _(
                    "{who} races for {league_name} in {colour}.",
                    who=f"<@{user_id}>",
                    league_name=league.name,
                    colour=rider_colour(colour),
                )
        return Outcome(said, ephemeral=False)

    @staticmethod
    def _seat(member: Member) -> Seat:
        return Seat(member.player, member.name, member.team, tuple(member.kinds), ai=member.user_id is None)

    async def remove(
        self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool, target: int
    ) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        member = next((m for m in await self.store.members(league.id) if m.user_id == target and not m.removed), None)
        if member is None:
            raise Refusal(_("That member is not in the league."))
        await self.store.remove_member(league.id, member.player)
        with speaking(await self.races.languages.public(league.guild_id)):  # said in the channel
            said = _(
                "{who} is no longer in {league_name}; later stages go on without them.",
                who=f"<@{target}>",
                league_name=league.name,
            )
        return Outcome(said, ephemeral=False)

    async def close(self, guild_id: int, league_name: str | None, user_id: int, can_manage: bool) -> Outcome:
        league = await self._find(guild_id, league_name)
        self._organiser(league, user_id, can_manage)
        if league.status != "entries":
            raise Refusal(_("Entries are already closed."))
        members = [m for m in await self.store.members(league.id) if not m.removed]
        if len(members) < 2:
            raise Refusal(_("A league needs at least 2 teams: invite players or /league ai."))
        s = league.settings
        first = first_due(self.races.core.now(), s["weekday"], s["hour"], s["zone"])
        stages = [(n + 1, track, (first + timedelta(days=7 * n)).timestamp()) for n, track in enumerate(s["stages"])]
        await self.store.schedule(league.id, stages)
        self.races.listeners.deadlines_changed()
        with speaking(await self.races.languages.public(league.guild_id)):  # said in the channel
            said = (
                _("Entries to **{league_name}** are closed.", league_name=league.name)
                + "\n"
                + await self._schedule_text(league)
            )
        return Outcome(said, ephemeral=False)

    # ------------------------------------------------------------------ reading

    async def _schedule_text(self, league: League) -> str:
        lines = [_("**{league_name}** schedule:", league_name=league.name)]
        for stage in await self.store.stages(league.id):
            when = f"<t:{int(stage.due or 0)}:F>"
            status = stage_status(stage.status)
            track = track_title(stage.track)
            lines.append(
                _(
                    "Stage {number}: {track}, {when} — {status}",
                    number=stage.number,
                    track=track,
                    when=when,
                    status=status,
                )
            )
        return "\n".join(lines)

    async def web(self, guild_id: int, league_name: str | None, user_id: int, action: str, can_manage: bool) -> Outcome:
        """``/league web``: the league page's link; the organiser turns it ``off`` or makes a ``new`` one."""
        league = await self._find(guild_id, league_name)
        if action != "link":
            self._organiser(league, user_id, can_manage)
        return await self.races.web.league_web(league.id, action)

    async def schedule(self, guild_id: int, league_name: str | None) -> Outcome:
        league = await self._find(guild_id, league_name)
        if league.status == "entries":
            return Outcome(
                _(
                    "Entries to {league_name} are open; stages are scheduled when the organiser closes them.",
                    league_name=league.name,
                )
            )
        return Outcome(await self._schedule_text(league))

    async def _gc(self, league: League) -> tuple[int, tuple[Standing, ...]]:
        done = [s for s in await self.store.stages(league.id) if s.status == "finished" and s.result]
        if not done:
            return 0, ()
        return done[-1].number, standings_from(done[-1].result["gc"] if done[-1].result else [])

    async def standings(self, guild_id: int, league_name: str | None, viewer: int | None = None) -> Outcome:
        """The general classification; its organiser (``viewer``) also sees which members are away."""
        league = await self._find(guild_id, league_name)
        after, gc = await self._gc(league)
        away = await self._away_lines(league) if viewer == league.organiser_id else ""
        if not gc:
            return Outcome(_("No stage of {league_name} has finished yet.", league_name=league.name) + away)
        names = {m.player: m.name for m in await self.store.members(league.id)}
        image = self._standings_image(league, gc, after, names)
        image = await self._with_pacts(league, gc, names, image)
        alt = self._standings_alt(league, gc, after, names) if image is not None else ""
        text = await self._gc_text(with_game(league), gc, after)
        link = await self.races.core.links.league_link(league.id)
        web = "\n" + _("Every stage on the web: {link}", link=f"<{link}>") if link else ""
        table = await team_table(league, self.store, self.teams) if self.teams is not None else None
        if table is None:
            return Outcome(text + web + away, image=image, image_alt=alt)
        team_text, team_image = table
        shown = ("teams.png", team_image) if team_image is not None else None
        return Outcome(text + "\n\n" + team_text + web + away, image=image, file=shown, image_alt=alt)

    async def _away_lines(self, league: League) -> str:
        """Members away (/race away), for the organiser: the AI plays their seats until then."""
        members = [m for m in await self.store.members(league.id) if not m.removed and m.user_id is not None]
        until = await self.store.away_until([int(m.user_id) for m in members if m.user_id is not None])
        shown = [
            _("{name} until {when}", name=m.name, when=f"<t:{int(until[m.user_id])}:f>")
            for m in members
            if m.user_id in until
        ]
        return ("\n" + _("Away (the AI plays their seats): {names}", names=", ".join(shown))) if shown else ""

    def _standings_image(
        self, league: League, gc: tuple[Standing, ...], after: int, names: Mapping[str, str]
    ) -> bytes | None:
        """The classification drawn with people as the server knows them (never their ids)."""
        title = _("{league_name}: general classification after stage {number}", league_name=league.name, number=after)
        named = tuple(replace(s, player=names.get(s.player, s.player)) for s in gc)
        return paint_standings(league.game, named, title=title, options=self._values(league))

    @staticmethod
    def _standings_alt(league: League, gc: tuple[Standing, ...], after: int, names: Mapping[str, str]) -> str:
        """The classification image in words, for a screen reader: its title, then each piece in order
        with its person and standing, as the image shows them (within Discord's limit)."""
        game = with_game(league).game
        scoring = scoring_of(game)
        leader = next((s for s in gc if not s.eliminated), gc[0])
        title = _("{league_name}: general classification after stage {number}", league_name=league.name, number=after)
        rows = [
            f"{rank}. {game.narration.piece_name(None, s.piece)} ({names.get(s.player, s.player)}) "
            + scoring.standing_text(rank, s, leader)
            for rank, s in enumerate(gc, start=1)
        ]
        return listed(f"{title}:", rows)

    @staticmethod
    def _values(league: League) -> Mapping[str, int]:
        values = dict(league.settings.get("values") or {})
        if "ring" in league.settings:  # leagues created before settings were per game
            values.setdefault("ring", int(league.settings["ring"]))
        return values

    async def _gc_text(self, held: Held, gc: tuple[Standing, ...], after: int) -> str:
        league, game, scoring = held.league, held.game, held.scoring
        names = {m.player: m.name for m in await self.store.members(league.id)}
        leader = next((s for s in gc if not s.eliminated), gc[0])
        lines = [
            _("**{league_name}** — general classification after stage {number}", league_name=league.name, number=after)
        ]
        pacts = await self._pacts_by_member(league)
        for rank, s in enumerate(gc, start=1):
            tail = scoring.standing_text(rank, s, leader)  # the game words its own resources
            piece = game.narration.piece_name(None, s.piece)
            kept, broken = pacts.get(s.player, (0, 0))
            column = " · " + _("pacts kept {kept}, broken {broken}", kept=kept, broken=broken) if pacts else ""
            lines.append(f"{rank}. {piece} ({names.get(s.player, s.player)}) {tail}{column}")
        return "\n".join(lines)

    async def _with_pacts(
        self, league: League, gc: tuple[Standing, ...], names: Mapping[str, str], image: bytes | None
    ) -> bytes | None:
        """The classification's image with each member's pacts kept and broken under it, once a pact was
        put to the test in the league (the same column as the text's)."""
        pacts = await self._pacts_by_member(league)
        if image is None or not pacts:
            return image
        game = with_game(league).game
        rows = []
        for rank, s in enumerate(gc, start=1):
            kept, broken = pacts.get(s.player, (0, 0))
            column = _("kept {kept}, broken {broken}", kept=kept, broken=broken)
            rows.append((str(rank), game.narration.piece_name(None, s.piece), names.get(s.player, s.player), column))
        return with_pacts_column(image, _("Pacts kept and broken"), game.piece, rows)

    async def _pacts_by_member(self, league: League) -> dict[str, tuple[int, int]]:
        """Each member's pacts kept and broken over the league's finished stages (empty: no pact made)."""
        tally: dict[str, tuple[int, int]] = {}
        if self.pact_tally is None:
            return tally
        for stage in await self.store.stages(league.id):
            race = await self.races.storage.race(stage.race_id) if stage.race_id is not None else None
            if race is None or race.status != "finished":
                continue
            for player, (kept, broken) in (await self.pact_tally(race)).items():
                before = tally.get(player, (0, 0))
                tally[player] = (before[0] + kept, before[1] + broken)
        return tally

    async def results(self, guild_id: int, league_name: str | None, number: int) -> Outcome:
        LEAGUE_STAGE.check(number)
        league = await self._find(guild_id, league_name)
        stage = next((s for s in await self.store.stages(league.id) if s.number == number), None)
        if stage is None or stage.result is None:
            raise Refusal(
                _("Stage {number} of {league_name} has no result yet.", number=number, league_name=league.name)
            )
        return Outcome("\n".join(stage.result["lines"]))

    async def export(self, guild_id: int, league_name: str | None) -> Outcome:
        """Finished stages' exact records and the classification; a running stage's record is left
        out (it would foretell its rolls and show hidden tiles), and so is the league's seed."""
        league = await self._find(guild_id, league_name)
        stages = []
        for stage in await self.store.stages(league.id):
            record = None
            if stage.race_id is not None and stage.status == "finished":
                race = await self.races.storage.race(stage.race_id)
                if race is not None and race.envelope is not None:
                    record = record_of(race).to_json()
            stages.append(
                {
                    "number": stage.number,
                    "track": stage.track,
                    "status": stage.status,
                    "record": record,
                    "result": stage.result,
                }
            )
        public = {k: v for k, v in league.settings.items() if k != "seed"}  # leagues made before seeds were per stage
        data = {
            "league": league.name,
            "game": league.game,
            "settings": public,
            "stages": stages,
            "gc": standings_to((await self._gc(league))[1]),
        }
        name = f"league-{league.id}.json"
        return Outcome(
            _("All finished stages and the classification of {league_name}.", league_name=league.name),
            file=(name, json.dumps(data, indent=1).encode()),
        )

    async def pace(self, guild_id: int, league_name: str | None) -> Outcome:
        """Each member's median and slowest decision times over the league's stages, and automatic ones."""
        league = await self._find(guild_id, league_name)
        races = [s.race_id for s in await self.store.stages(league.id) if s.race_id is not None]
        times = await self.store.pace_times(races)
        if not times:
            return Outcome(_("No decisions asked yet in {league_name}.", league_name=league.name))
        names = {m.player: m.name for m in await self.store.members(league.id)}
        lines = pace_lines(times, lambda player: names.get(player, _("an AI")))
        head = ngettext(
            "**Pace of {league_name}** over {n} stage(s)",
            "**Pace of {league_name}** over {n} stage(s)",
            len(races),
            league_name=league.name,
        )
        return Outcome(head + "\n" + "\n".join(lines))

    # ------------------------------------------------------------------ the scheduler

    async def tick(self, make_channel: ChannelMaker) -> list[tuple[int, Outcome]]:
        """Open the stages that are due; each league fails alone (logged by the caller's loop)."""
        out: list[tuple[int, Outcome]] = []
        now = self.races.core.now()
        for league in await self.store.leagues():
            if (
                league.status != "scheduled"
                or not self.races.core.shards.owns(league.guild_id)
                or not self.backoff.ready(league.id, now)
            ):
                continue
            try:
                out += await self._tick_league(league, make_channel)
            except Exception:
                delay = self.backoff.failed(league.id, now)
                log.exception("league %s (%s): its schedule failed; retried in %.0f s", league.id, league.name, delay)
                continue
            self.backoff.succeeded(league.id)
        return out

    async def _tick_league(self, league: League, make_channel: ChannelMaker) -> list[tuple[int, Outcome]]:
        out: list[tuple[int, Outcome]] = []
        now = self.races.core.now()
        stages = await self.store.stages(league.id)
        due = next((s for s in stages if s.status in ("scheduled", "opening") and (s.due or 0) <= now), None)
        if due is None:
            return out
        for running in (s for s in stages if s.status == "running" and s.number < due.number):
            if running.race_id is not None and running.channel_id is not None:
                out.append((running.channel_id, await self.races.lobby.finish_by_ai(running.race_id)))
        if due.status == "opening" or await self.store.claim_stage(league.id, due.number):
            opened = await self._open(with_game(league), due, make_channel)
            if opened is not None:
                out.append(opened)
        return out

    async def _open(self, held: Held, stage: Stage, make_channel: ChannelMaker) -> tuple[int, Outcome] | None:
        """Open a stage: seat its riders, make its channel, start its race, mark it running. A stage left
        opening by a crash is finished with the race it already has, in its channel (never a second one)."""
        league, game, scoring = held.league, held.game, held.scoring
        options = scoring.stage_options(self._values(league))
        existing = await self.races.storage.league_race(league.id, stage.number) if stage.status == "opening" else None
        if existing is not None and existing.status in ("lobby", "running"):
            outcome = await self.races.lobby.resume_league_race(existing, options)
            race_id, channel_id, lobby = existing.id, existing.channel_id, existing.lobby
        else:
            seated = await self._seated(league, scoring)
            if len(seated) < 2:
                with speaking(await self.races.languages.public(league.guild_id)):  # kept for /league results
                    result = {"lines": [_("Not enough players left.")], "gc": []}
                await self.store.stage_finished(league.id, stage.number, result)
                await self.store.set_league_status(league.id, "finished")
                return None
            timer, bank = await self._stage_time(league, stage, game, seated)
            made = stage.channel_id if stage.status == "opening" else None  # a retry reuses the first try's
            if made is None:
                with speaking(await self.races.languages.public(league.guild_id)):
                    named = _(
                        "{league_name} — stage {number}: {track}",
                        league_name=league.name,
                        number=stage.number,
                        track=track_title(stage.track),
                    )
                made = await make_channel(league.channel_id, named)
                await self.store.stage_channel(league.id, stage.number, made)
            channel_id = made
            outcome = await self.races.lobby.open_league_race(
                league.guild_id,
                channel_id,
                league.organiser_id,
                game=league.game,
                league_id=league.id,
                stage=stage.number,
                track=stage.track,
                seated=seated,
                timer=timer,
                seed=self.races.core.new_seed(),
                options=options,
                bank=bank,
            )
            race = await self.races.storage.league_race(league.id, stage.number)
            assert race is not None
            race_id, lobby = race.id, race.lobby
        await self.store.stage_opened(league.id, stage.number, race_id, channel_id)
        carried: list[Post] = []
        opened_race = await self.races.storage.race(race_id)
        for hook in self.stage_opened if opened_race is not None else []:
            assert opened_race is not None
            carried += await hook(opened_race)
        timer, bank = int(lobby["timer"]), lobby.get("bank")
        riders = seats.users(lobby["seats"])
        with speaking(await self.races.languages.public(league.guild_id)):  # the stage's channel
            if bank:
                opened = _(
                    "**{league_name}**, stage {number} ({track}) is open: turn timer {minutes} min, "
                    "a clock of {bank_hours} h {bank_minutes} min each for the stage.",
                    league_name=league.name,
                    number=stage.number,
                    track=track_title(stage.track),
                    minutes=timer // 60,
                    bank_hours=bank // 3600,
                    bank_minutes=bank % 3600 // 60,
                )
            else:
                opened = _(
                    "**{league_name}**, stage {number} ({track}) is open: turn timer {minutes} min.",
                    league_name=league.name,
                    number=stage.number,
                    track=track_title(stage.track),
                    minutes=timer // 60,
                )
        header = Post(f"{opened} " + " ".join(f"<@{u}>" for u in riders), mentions=riders)
        return channel_id, outcome.first_in_channel(Publish(header), *(Publish(p) for p in carried))

    async def _seated(self, league: League, scoring: LeagueScoring[object]) -> list[SeatData]:
        """The stage's seats: each member still in the league, as the classification carries them on."""
        _standings, gc = await self._gc(league)
        standing = {s.piece: s for s in gc}
        seated = []
        for member in (m for m in await self.store.members(league.id) if not m.removed):
            seat = scoring.next_seat(self._seat(member), standing)
            if seat is not None:
                seated.append(seats.seat_data(seat, member.user_id))
        return seated

    async def _stage_time(
        self, league: League, stage: Stage, game: AnyGame, seated: list[SeatData]
    ) -> tuple[int, int | None]:
        """The stage's turn timer and, in a league with clocks, each person's time bank."""
        humans = sum(1 for s in seated if not s["ai"])
        if not league.settings.get("clock", True):
            return stage_timer(int(league.settings["timer"]), game.tracks.hexagons(stage.track), humans), None
        later = [s.due for s in await self.store.stages(league.id) if s.number > stage.number and s.due]
        window = min(later) - self.races.core.now() if later else WEEK
        bank = stage_bank(window, humans)
        return min(int(league.settings["timer"]), bank), bank

    async def on_stage_finished(self, race: RaceRow, state: Any) -> list[Post]:
        """The stage result and the general classification after it (stored, then posted)."""
        assert race.league_id is not None and race.stage is not None
        league = await self.store.league(race.league_id)
        if league is None:
            return []
        this = with_game(league)
        game, scoring = this.game, this.scoring
        previous = [
            s
            for s in await self.store.stages(league.id)
            if s.status == "finished" and s.result and s.number < race.stage
        ]
        before = standings_from(previous[-1].result["gc"]) if previous and previous[-1].result else ()
        gc, lines = scoring.classify(before, state, self._values(league))
        head = _("**{league_name}**, stage {number} result", league_name=league.name, number=race.stage)
        text = [head, *lines, await self._gc_text(this, gc, race.stage)]
        said: dict[str, list[str]] = {}  # the result in every language, for the league page's readers
        for language in LANGUAGES:
            with speaking(language):
                told = scoring.classify(before, state, self._values(league))[1]
                heading = _("**{league_name}**, stage {number} result", league_name=league.name, number=race.stage)
                said[language] = [heading, *told]
        result = {"lines": text, "gc": standings_to(gc), "lines_in": said}
        if not await self.store.stage_finished(league.id, race.stage, result):
            return []
        stages = await self.store.stages(league.id)
        names = {m.player: m.name for m in await self.store.members(league.id)}
        if all(s.status == "finished" for s in stages) and gc:
            await self.store.set_league_status(league.id, "finished")
            piece = game.narration.piece_name(None, gc[0].piece)
            winner = names.get(gc[0].player, gc[0].player)
            text.append(
                _(
                    "**{league_name}** is over: {piece_name} ({player_name}) wins the general classification.",
                    league_name=league.name,
                    piece_name=piece,
                    player_name=winner,
                )
            )
        image = self._standings_image(league, gc, race.stage, names)
        alt = self._standings_alt(league, gc, race.stage, names) if image is not None and gc else ""
        return [Post("\n".join(text)[:2000], image, image_name="standings.png", image_alt=alt)]

    async def next_due(self) -> float | None:
        dues = []
        for league in await self.store.leagues():
            if league.status == "scheduled" and self.races.core.shards.owns(league.guild_id):
                dues += [
                    self.backoff.not_before(league.id, s.due)
                    for s in await self.store.stages(league.id)
                    if s.status in ("scheduled", "opening") and s.due
                ]
        return min(dues) if dues else None
