"""Lobby intents: open a race, join, leave, AI seats, seat options, start; league stages opened and finished."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from bot.service import race_options, seats
from bot.service.absence import marked_away
from bot.service.common import TIMER_DEFAULT, TIMER_MAX, TIMER_MIN, Refusal, title
from bot.service.core import RaceCore
from bot.service.durations import in_words
from bot.service.model import OpenThread, Outcome, ShowLobby
from bot.service.names import clean_name
from bot.service.store import Loaded, Opened
from bot.shards import Shards
from bot.storage import ChannelBusy, RaceRow
from bot.storage.lobby import LobbyData, SeatData
from renderer.words import team
from rules.ai_levels import LEVELS, STRONGEST, level_named
from rules.errors import DomestiqueError
from rules.game import RaceOption
from rules.i18n import _, pgettext, speaking
from rules.record import FORMAT, parse_record, start_state
from rules.registry import AnyGame, find_game, game_ids

log = logging.getLogger("domestique")


def level_word(level: str) -> str:
    """An AI level (``rules.ai_levels.LEVELS``) as players read it (the name commands take stays)."""
    if level == "easy":
        return pgettext("AI level", "easy")
    if level == "normal":
        return pgettext("AI level", "normal")
    if level == "strong":
        return pgettext("AI level", "strong")
    return level


class Lobby:
    def __init__(self, core: RaceCore) -> None:
        self.core = core
        self.store = core.store
        self.storage = core.storage
        self.links = core.links

    async def new_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        *,
        game: str,
        track: str | None = None,
        pieces: int | None = None,
        timer: int = TIMER_DEFAULT,
        seed: int | None = None,
        bank: int | None = None,
    ) -> Outcome:
        """Open a lobby; ``track`` is what the host typed (a stage, a circuit, ``random-12``); ``bank``
        is each player's time for the whole race (docs/pace.md), ``timer`` then the most per decision."""
        if game not in game_ids():
            raise Refusal(
                _("Unknown game {typed}; games: {titles}.", typed=repr(game[:40]), titles=", ".join(game_ids()))
            )
        rules = find_game(game)
        if not TIMER_MIN <= timer <= TIMER_MAX:
            raise Refusal(_("The turn timer goes from 1 minute to 7 days."))
        if bank is not None and not TIMER_MIN <= bank <= 4 * TIMER_MAX:
            raise Refusal(_("A time bank goes from 1 minute to 28 days per player."))
        count = rules.pieces.default if pieces is None else pieces
        if not rules.pieces.minimum <= count <= rules.pieces.maximum:
            raise Refusal(
                _(
                    "In {game_title} each player has {least} to {most} {noun}.",
                    game_title=rules.title,
                    least=rules.pieces.minimum,
                    most=rules.pieces.maximum,
                    noun=rules.pieces_word(),
                )
            )
        seed = self.core.new_seed() if seed is None else seed
        try:
            resolved = rules.tracks.resolve(track or rules.tracks.default, self.core.new_seed() % 1_000_000)
        except ValueError as exc:
            shipped = ", ".join(rules.tracks.suggestions())
            raise Refusal(_("{problem} Choose one of: {tracks}.", problem=exc, tracks=shipped)) from None
        lobby: LobbyData = {"track": resolved, "riders": count, "timer": timer, "seed": seed, "seats": [], "away": []}
        if bank is not None:
            lobby["bank"] = bank
        try:
            race = await self.storage.create_race(guild_id, channel_id, host_id, game, lobby)
        except ChannelBusy:
            raise Refusal(
                _(
                    "A race is already running in this channel: one race per channel. "
                    "Use another channel, or /race abort this one."
                )
            ) from None
        race = await self._join(race, rules, host_id, host_name, None)
        await self.links.page_link(race.id)  # known from now on: the lobby's text carries it
        with speaking(await self.core.public(race)):
            return self.lobby_outcome(race, rules)

    def lobby_outcome(self, race: RaceRow, game: AnyGame, line: str = "") -> Outcome:
        """The lobby as shown: who sits where, the colours still free, and its buttons; ``line`` tells
        the change in a few words (the answer to a typed command, the lobby message edited). Public:
        made in the server's language (``speaking(await core.public(race))``)."""
        taken = seats.seats_from(race.lobby)
        free = []
        for colour in game.colours:
            try:
                game.seat(taken, int(race.lobby.get("riders", game.pieces.default)), colour)
            except ValueError:
                continue
            free.append(colour)
        return Outcome.of(ShowLobby(race.id, self.lobby_text(race, game), tuple(free), race.lobby.get("message"), line))

    @staticmethod
    def _joined(race: RaceRow) -> str:
        """The seat taken last, in a few words: "<@1> joins in blue.", "AI 2 (easy) joins in green."."""
        seat = race.lobby["seats"][-1]
        who = seats.shown_name(seat) if seat.get("ai") else f"<@{seat['user']}>"
        level = level_named(seat.get("level")) if seat.get("ai") else STRONGEST
        if level == STRONGEST:
            return _("{who} joins in {colour}.", who=who, colour=team(seat["team"]))
        return _("{who} ({level}) joins in {colour}.", who=who, level=level_word(level), colour=team(seat["team"]))

    def lobby_text(self, race: RaceRow, game: AnyGame) -> str:
        per = int(race.lobby["riders"])
        each = _("{n} {noun} each", n=per, noun=game.piece_word(per))
        timer = in_words(int(race.lobby["timer"]))
        if race.lobby.get("bank"):
            bank = in_words(int(race.lobby.get("bank") or 0))
            setup = _(
                "{game_title}, {each}, {timer} per decision, a clock of {bank} each for the whole race",
                game_title=game.title,
                each=each,
                timer=timer,
                bank=bank,
            )
        else:
            setup = _("{game_title}, {each}, {timer} per decision", game_title=game.title, each=each, timer=timer)
        lines = [_("**{race_title}** — lobby ({setup})", race_title=title(race), setup=setup)]
        for seat in race.lobby["seats"]:
            level = level_named(seat.get("level"))
            shown = _("AI") if level == STRONGEST else _("AI, {level}", level=level_word(level))
            who = f"{seats.shown_name(seat)} ({shown})" if seat.get("ai") else f"<@{seat['user']}>"
            lines.append(f"- {team(seat['team'])}: {who}")
        options = race_options.describe(game, race.lobby)
        if options:
            lines.append(options)
        lines.append(_("Join with the menu (a colour) or the button, or /race join; the host starts with /race start."))
        lines.append(_("New to {game_title}? /race help explains it in a minute.", game_title=game.title))
        page = self.links.known_link(race)
        if page:
            lines.append(page)
        return "\n".join(lines)

    async def _join(
        self,
        race: RaceRow,
        game: AnyGame,
        user_id: int | None,
        name: str,
        colour: str | None,
        ai: bool = False,
        level: str = "",
    ) -> RaceRow:
        current = list(race.lobby["seats"])
        if not ai and user_id is not None and seats.human_seat(race.lobby, user_id) is not None:
            raise Refusal(_("You are already in this race."))
        try:
            colour, kinds = game.seat(seats.seats_from(race.lobby), int(race.lobby["riders"]), colour)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        number = sum(1 for s in current if s.get("ai")) + 1
        player = f"ai{number}" if ai else f"u{user_id}"
        shown = f"AI {number}" if ai else clean_name(name)  # a name, stored: the same in every language
        seat: SeatData = {
            "player": player,
            "user": None if ai else user_id,
            "name": shown,
            "team": colour,
            "ai": ai,
            "kinds": list(kinds),
        }
        if ai and level:
            seat["level"] = level
        current.append(seat)
        lobby: LobbyData = {**race.lobby, "seats": current}
        if not await self.storage.update_lobby(race.id, race.version, lobby):
            raise Refusal(_("The lobby changed at the same moment; try again."))
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        return fresh

    @staticmethod
    def _same_lobby(race: RaceRow, race_id: int | None) -> None:
        """A lobby button acts only on the race it was made for (not the next one in the channel)."""
        if race_id is not None and race.id != race_id:
            raise Refusal(_("That lobby is closed; use the buttons of the latest one."))

    async def join(
        self, channel_id: int, user_id: int, name: str, colour: str | None = None, *, race_id: int | None = None
    ) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal(_("The race has already started; you can follow it here and join the next one."))
            race = await self._join(race, game, user_id, name, colour)
            with speaking(await self.core.public(race)):
                return self.lobby_outcome(race, game, self._joined(race))

    async def add_ai(
        self,
        channel_id: int,
        user_id: int,
        colour: str | None = None,
        *,
        race_id: int | None = None,
        level: str | None = None,
    ) -> Outcome:
        """An AI seat, playing at ``level`` (easy, normal, strong; the strongest if not given)."""
        if level is not None and level not in LEVELS:
            raise Refusal(_("An AI plays {levels}; not {typed}.", levels=", ".join(LEVELS), typed=repr(level[:20])))
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal(_("The race has already started."))
            if user_id != race.host_id:
                raise Refusal(_("Only the host adds AI players."))
            race = await self._join(race, game, None, "AI", colour, ai=True, level=level or STRONGEST)
            with speaking(await self.core.public(race)):
                return self.lobby_outcome(race, game, self._joined(race))

    async def leave(self, channel_id: int, user_id: int, *, race_id: int | None = None) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal(_("The race has started; ask the host to /race abort it if you must stop."))
            kept = [s for s in race.lobby["seats"] if not (s.get("user") == user_id and not s.get("ai"))]
            if len(kept) == len(race.lobby["seats"]):
                raise Refusal(_("You are not in this race."))
            if not await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": kept}):
                raise Refusal(_("The lobby changed at the same moment; try again."))
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            with speaking(await self.core.public(fresh)):
                return self.lobby_outcome(fresh, game, _("{who} leaves the race.", who=f"<@{user_id}>"))

    async def seat_option(self, channel_id: int, user_id: int, option: str, value: str | None) -> Outcome:
        """A per-seat choice of the game's (Leader 1: sprinter, descender), before the start."""
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            race_option = race_options.find(game, option)
            if race_option is not None:
                return await self._race_option(race, game, user_id, race_option, value)
            known = {o.name: o for o in game.seat_options}
            if not known:
                raise Refusal(_("{game_title} has no choices to make before the start.", game_title=game.title))
            if option not in known:
                every = [*known, *(o.shown_name() for o in game.race_options)]
                raise Refusal(_("Choices before the start: {options}.", options=", ".join(every)))
            if race.status != "lobby":
                raise Refusal(_("These choices are made before the start."))
            seat = seats.human_seat(race.lobby, user_id)
            if seat is None:
                raise Refusal(_("Join the race first."))
            allowed = list(known[option].values(seats.seat_from(seat)))
            if value is not None and value not in allowed:
                raise Refusal(_("{option}: one of {values}.", option=option, values=", ".join(allowed)))
            options = {**(seat.get("options") or {}), option: value}
            options = {k: v for k, v in options.items() if v}
            if value is not None and any(v == value for k, v in options.items() if k != option):
                raise Refusal(
                    _("Your {value} already has another role: one role per {noun}.", value=value, noun=game.piece)
                )
            mine: SeatData = {**seat, "options": {k: str(v) for k, v in options.items()}}
            updated = [mine if s is seat else s for s in race.lobby["seats"]]
            if not await self.storage.update_lobby(race.id, race.version, {**race.lobby, "seats": updated}):
                raise Refusal(_("The lobby changed at the same moment; try again."))
            chosen = "; ".join(f"{k}: {v}" for k, v in options.items()) or _("none")
            return Outcome(_("Your choices: {chosen}.", chosen=chosen))

    async def _race_option(
        self, race: RaceRow, game: AnyGame, user_id: int, option: RaceOption, value: str | None
    ) -> Outcome:
        """The host's choice of a rule option of the whole race (Hell of the North: weather markers)."""
        if race.status != "lobby":
            raise Refusal(_("These choices are made before the start."))
        if user_id != race.host_id:
            raise Refusal(_("Only the host chooses {option} for the race.", option=option.shown_name()))
        lobby = race_options.with_choice(game, race.lobby, option, value)
        if not await self.storage.update_lobby(race.id, race.version, lobby):
            raise Refusal(_("The lobby changed at the same moment; try again."))
        fresh = await self.storage.race(race.id)
        assert fresh is not None
        with speaking(await self.core.public(fresh)):
            shown = race_options.shown_choice(option, lobby)
            line = _("The host chose {option}: {value}.", option=option.shown_name(), value=shown)
            outcome = self.lobby_outcome(fresh, game, line)
        posted = outcome.lobby
        if posted is not None and posted.message_id is None:  # the lobby is posted anew, the choice told above it
            return Outcome.of(replace(posted, text=f"{line}\n{posted.text}"))
        return outcome

    async def start(self, channel_id: int, user_id: int, *, race_id: int | None = None) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            self._same_lobby(race, race_id)
            if race.status != "lobby":
                raise Refusal(_("The race has already started."))
            if user_id != race.host_id:
                raise Refusal(_("Only the host starts the race."))
            problem = game.check_lobby(seats.seats_from(race.lobby), int(race.lobby["riders"]))
            if problem:
                raise Refusal(problem)
            outcome = await self._begin(race, game, race_options.record_options(game, race.lobby))
            return outcome.answered(_("The race is on."))

    async def _begin(self, race: RaceRow, game: AnyGame, options: dict[str, Any]) -> Outcome:
        """Lobby to race: the record's envelope is fixed, AI seats play, the first prompt is posted;
        the seats of people away (``/race away``, a league stage starting) are the AI's from the start."""
        race = await self._absent_at_start(race)
        envelope = {
            "game": race.game,
            "rules": game.rules_versions.newest.name,  # a new race is played under the newest rules
            "options": options,
            "track": race.lobby["track"],
            "players": game.record_players(seats.seats_from(race.lobby)),
            "seed": race.lobby["seed"],
        }
        try:
            _game, state = start_state(parse_record({"format": FORMAT, **envelope}))
        except DomestiqueError as exc:
            raise Refusal(_("Cannot start: {problem}", problem=exc)) from None
        # the start and its first commit (AI seats' moves, clocks, the first deadline) are one transaction
        started = Loaded(replace(race, status="running", envelope=envelope), game, state)
        return await self._first_commit(started, envelope)

    async def _absent_at_start(self, race: RaceRow) -> RaceRow:
        """The race with the seats of people who are away marked as the AI's."""
        users = seats.users(race.lobby["seats"])
        absent = await self.storage.away_until(users) if users else {}
        if not absent:
            return race
        lobby = race.lobby
        for user, until in absent.items():
            seat = seats.human_seat(lobby, user)
            if seat is not None:
                lobby = marked_away(lobby, str(seat["player"]), until)
        if await self.storage.update_lobby(race.id, race.version, lobby):
            race = await self.storage.race(race.id) or race
        return race

    async def _first_commit(self, loaded: Loaded, envelope: dict[str, Any] | None, *, late: bool = False) -> Outcome:
        """The race's first commit, which starts it when given its ``envelope``; ``late``: made by
        ``repair_starts`` for a race whose start was saved without it."""
        race, game, state = loaded.race, loaded.game, loaded.state
        with speaking(await self.core.public(race)):  # the channel's headline
            headline = _("**{race_title}** starts!", race_title=title(race))
            if game.draft is not None and game.draft.drafting(state):
                headline = _(
                    "**{race_title}**: the seating is closed and the starting order fixed; "
                    "the draft is on the lobby message.",
                    race_title=title(race),
                )
            if late:
                headline += " " + _("(The bot stopped as the race began: it goes on from its start.)")
        outcome = await self.core.commit(loaded, [], headline=headline, envelope=envelope)
        threads = []
        for thread in self._team_threads(race):  # a shared colour is an alliance from the start (its thread)
            players = [str(s["player"]) for s in race.lobby["seats"] if s.get("user") in thread.users]
            threads.append(replace(thread, alliance_id=await self.core.listeners.team_alliance(race, players)))
        with speaking(await self.core.public(race)):
            return outcome.then(*threads)

    async def repair_starts(self, shards: Shards | None = None) -> list[tuple[int, Outcome]]:
        """At start-up: every running race (of ``shards``) with no deadline makes the commit it lacks, and
        its prompt is posted. A crash between a start and its first commit (written apart before they
        were one transaction) left such races: timers skipped them and an AI seat to act never moved."""
        out: list[tuple[int, Outcome]] = []
        for race in await self.storage.running_races(shards):
            if race.deadline is not None:
                continue
            async with self.store.lock(race.id):
                fresh = await self.storage.race(race.id)
                if fresh is None or fresh.status != "running" or fresh.deadline is not None:
                    continue
                loaded = await self.store.load(fresh)
                try:
                    if fresh.actions:
                        with speaking(await self.core.public(fresh)):
                            note = _("The bot stopped before this race's next deadline was set: the race goes on.")
                        outcome = await self.core.commit(loaded, [], headline=note)
                    else:
                        outcome = await self._first_commit(loaded, None, late=True)
                except Refusal:
                    continue  # another process repaired it at the same moment
                log.warning("race %s (channel %s) had no deadline: repaired", race.id, race.channel_id)
                out.append((race.channel_id, outcome))
        return out

    @staticmethod
    def _team_threads(race: RaceRow) -> list[OpenThread]:
        """Players sharing a colour (Leader 1 with 6-10 players, one rider each) get a team thread."""
        by_team: dict[str, list[int]] = {}
        for seat in race.lobby["seats"]:
            user = seat.get("user")
            if not seat.get("ai") and user is not None:
                by_team.setdefault(seat["team"], []).append(user)
        teams = sorted(by_team.items())
        return [
            OpenThread(_("Team {colour} (race {number})", colour=team, number=race.id), tuple(users))
            for team, users in teams
            if len(users) > 1
        ]

    async def open_league_race(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        *,
        game: str,
        league_id: int,
        stage: int,
        track: str,
        seated: list[SeatData],
        timer: int,
        seed: int,
        options: dict[str, Any],
        bank: int | None = None,
    ) -> Outcome:
        """A league stage opened by the scheduler: seated, started, first prompt posted."""
        pieces = max((len(s.get("kinds") or ()) for s in seated), default=1)
        lobby: LobbyData = {
            "track": track,
            "riders": pieces,
            "timer": timer,
            "seed": seed,
            "seats": seated,
            "away": [],
            "title": f"Stage {stage}",  # stored: every reader sees the same title (issue 27 keeps it English)
        }
        if bank is not None:
            lobby["bank"] = bank
        race = await self.storage.create_race(guild_id, channel_id, host_id, game, lobby, league=(league_id, stage))
        async with self.store.lock(race.id):
            return await self._begin(race, find_game(game), options)

    async def resume_league_race(self, race: RaceRow, options: dict[str, Any]) -> Outcome:
        """A league stage's race whose opening a crash cut short: started if it was still in its lobby,
        else where it stands told again with its prompt (nobody was shown it)."""
        async with self.store.lock(race.id):
            fresh = await self.storage.race(race.id)
            if fresh is None or fresh.status not in ("lobby", "running"):
                return Outcome("")
            loaded = await self.store.load(fresh) if fresh.status == "running" else None
            if loaded is None:
                return await self._begin(fresh, Opened.of(fresh).game, options)
            with speaking(await self.core.public(fresh)):
                note = _("The bot stopped as this stage opened: it is on.")
            return await self.core.report(loaded, loaded.state, headline=note)

    async def finish_by_ai(self, race_id: int) -> Outcome:
        """The next stage is due: the AI plays every absent player's pieces to the finish."""
        async with self.store.lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status != "running":
                return Outcome("")
            humans = [s["player"] for s in race.lobby["seats"] if not s.get("ai")]
            lobby: LobbyData = {**race.lobby, "away": humans}
            with speaking(await self.core.public(race)):
                note = _("The next stage is due: the AI finishes this one for everyone still racing.")
            return await self.core.commit(await self.store.load(race), [], headline=note, lobby=lobby)

    async def remember_lobby_message(self, race_id: int, message_id: int) -> None:
        """The message that shows a race's lobby (the latest one posted), kept so that every lobby
        action edits it rather than post another, and a game's draft becomes that message when the
        race starts. Kept without a new version: the buttons and menus already shown stay good."""
        async with self.store.lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status not in ("lobby", "running") or race.lobby.get("message") == message_id:
                return
            if race.status == "running" and Opened.of(race).game.draft is None:
                return
            await self.storage.keep_lobby(race.id, race.version, {**race.lobby, "message": message_id})
