"""Intents that read or manage a race: status, board, log, help, export, hand, undo, abort, back."""

from __future__ import annotations

import json
from dataclasses import replace

from bot.service import race_options, seats
from bot.service.absence import away_status, holiday
from bot.service.common import Refusal, chunks, playing_seat, record_of, rules_version, title, who
from bot.service.core import RaceCore
from bot.service.lobby import Lobby
from bot.service.model import Outcome, Replace
from bot.service.store import Loaded, Opened
from bot.storage import Charges
from rules.i18n import _, ngettext, speaking
from rules.registry import find_game, games


class Reading:
    def __init__(self, core: RaceCore, lobby: Lobby) -> None:
        self.core = core
        self.store = core.store
        self.storage = core.storage
        self.lobby = lobby

    async def status(self, channel_id: int) -> Outcome:
        race = await self.store.race_in(channel_id)
        if race.status == "lobby":
            await self.core.links.page_link(race.id)
            return Outcome(self.lobby.lobby_text(race, Opened.of(race).game))
        loaded = await self.store.load(race)
        game, state = loaded.game, loaded.state
        decision = game.rules.pending(state)
        lines = [_("**{race_title}** — turn {turn}", race_title=title(race), turn=game.rules.turn(state))]
        played = rules_version(race, game)
        if not played.newest:  # a race keeps the rules it started under (docs/record-format.md, Rules)
            lines.append(_("Played under the rules of {version}.", version=played.name))
        options = race_options.in_play(game, (race.envelope or {}).get("options") or {})
        if options:
            lines.append(options)
        if decision is not None:
            asked = game.narration.ask(state, decision, who(race, decision.player, mention=False))
            if race.deadline is not None:
                when = int(race.deadline)
                asked += " " + _("Due {when} ({at}); then the AI decides.", when=f"<t:{when}:R>", at=f"<t:{when}:f>")
            lines.append(asked)
        lines += game.narration.status(state)
        absent = holiday(race.lobby)  # away until a date: told below
        away = [p for p in race.lobby.get("away") or [] if p not in absent]
        if away:
            names = ", ".join(seats.name_of(race.lobby, p) for p in away)
            lines.append(_("Played by the AI until they act again: {names}", names=names))
        lines += away_status(race.lobby)
        lines += await self.core.clocks.status_lines(race, game, state)
        lines += [_("Alliance: {line}", line=line) for line in await self.core.listeners.alliances(race)]
        page = await self.core.links.page_line(race)
        if page:
            lines.append(page)
        return Outcome("\n".join(lines))  # split into messages under 2,000 characters when sent

    async def board(self, channel_id: int) -> Outcome:
        loaded = await self.store.load(await self.store.race_in(channel_id, running=True))
        turn = loaded.game.rules.turn(loaded.state)
        return Outcome(
            _("{race_title}, turn {turn}", race_title=title(loaded.race), turn=turn),
            image=await self.core.board(loaded, []),
            image_alt=self.core.described(loaded),
        )

    async def help(self, channel_id: int, game_id: str | None = None) -> Outcome:
        """How to play the game of this channel's race (or ``game_id``), with the board's legend."""
        if game_id is None:
            race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
            game_id = race.game if race is not None else None
        if game_id is None:
            titles = ", ".join(f"{g.title} (`{g.id}`)" for g in games())
            return Outcome(
                _("Games: {titles}. Open a race with /race new; /race help game: explains one.", titles=titles)
            )
        try:
            game = find_game(game_id)
        except Exception:
            raise Refusal(_("Unknown game {typed}.", typed=repr(game_id[:40]))) from None
        text = (
            _(game.narration.help)  # marked in the game (N_), said in the reader's language
            + "\n"
            + _("Play with the buttons on each prompt, or type: /play move (with autocomplete).")
        )
        if game.pace.orders or game.pace.moments:
            text += "\n" + _(
                "While others decide: /race ahead decides your next decision now (applied if it still holds); "
                "/race order gives a rider or car a standing order for routine decisions; /race pace shows "
                "everyone's decision times."
            )
        return Outcome(chunks(text)[0])

    async def log(self, channel_id: int, turns: int = 2) -> Outcome:
        loaded = await self.store.load(await self.store.race_in(channel_id, running=True))
        race, game, state = loaded.race, loaded.game, loaded.state
        now = game.rules.turn(state)
        events = game.rules.events(state)
        lines = []
        for turn in range(max(1, now - turns + 1), now + 1):
            told = game.narration.summary(state, [e for e in events if e.turn == turn])
            if told:
                lines.append(_("**Turn {turn}**: {what}", turn=turn, what="; ".join(told)))
        timed_out = [a for a in race.actions[-10:] if a.automatic and a.user_id is not None]
        if timed_out:
            lines.append(
                ngettext(
                    "{n} of the last decisions were made by the AI when time ran out.",
                    "{n} of the last decisions were made by the AI when time ran out.",
                    len(timed_out),
                )
            )
        return Outcome(chunks("\n".join(lines) or _("Nothing has happened yet."))[0])

    async def export(self, channel_id: int, user_id: int | None = None) -> Outcome:
        """The race's record. A race still running is exported with its past rolls scripted and a
        fresh seed, so the file replays to this moment without foretelling the rolls to come; it is
        refused while it would show hidden things (kept tiles) other players may not see."""
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None or race.envelope is None:
            raise Refusal(_("There is no started race in this channel to export."))
        data = record_of(race).to_json()
        running = race.status == "running"
        if running:
            loaded = await self.store.load(race)
            seat = seats.human_seat(race.lobby, user_id) if user_id is not None else None
            if loaded.game.secrets.hides_from(loaded.state, seat["player"] if seat else None):
                raise Refusal(
                    _(
                        "While the race runs, its record would show what other players keep hidden: "
                        "export it when the race is over."
                    )
                )
            data["dice"] = loaded.game.rules.rolled(loaded.state)
            data["seed"] = self.core.new_seed()
        if running:
            said = _(
                "The record of race {number} (replay it with `domestique replay`): past rolls written out, "
                "the next ones not foretold.",
                number=race.id,
            )
        else:
            said = _("The record of race {number} (replay it with `domestique replay`).", number=race.id)
        return Outcome(
            said,
            ephemeral=running,
            file=(f"race-{race.id}.json", json.dumps(data, indent=1).encode()),
        )

    async def hand(self, channel_id: int, user_id: int) -> Outcome:
        loaded = await self.store.load(await self.store.race_in(channel_id, running=True))
        race, game, state = loaded.race, loaded.game, loaded.state
        seat = playing_seat(race, user_id)
        lines = game.secrets.hand(state, seat["player"])
        if not lines:
            return Outcome(
                _("In {game_title} nothing is hidden: /race status shows everything.", game_title=game.title)
            )
        return Outcome(_("Your {noun} (only you see this):", noun=game.pieces_word()) + "\n" + "\n".join(lines))

    async def undo(self, channel_id: int, user_id: int) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race, game = opened.race, opened.game
            if race.status != "running":
                raise Refusal(_("The race has not started yet."))
            if user_id != race.host_id:
                raise Refusal(_("Only the host can undo."))
            manual = [a for a in race.actions if not a.automatic]
            if not manual:
                raise Refusal(_("There is no decision to undo."))
            keep = manual[-1].index
            kept = replace(race, actions=race.actions[:keep], version=-1)  # the race as the undo leaves it
            state = (await self.store.loaded(Opened(kept, game))).state
            self.store.forget(race.id)
            # each clock as it was before the decisions taken back, saved with the undo
            clocks = await self.core.clocks.rewound_clocks(race, game, keep, state)
            decision = game.rules.pending(state)
            assert decision is not None  # an action was applied there
            deadline = await self.core.clocks.deadline_for(race, decision.player, Charges(clocks))
            if not await self.storage.truncate(race.id, race.version, keep, deadline, clocks):
                raise Refusal(_("Someone acted at the same moment; try again."))
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            self.store.keep(race.id, fresh.version, state)
            whose = who(race, game.vocabulary.from_text(manual[-1].text).by, mention=False)
            with speaking(await self.core.public(race)):
                headline = _("The host took back {who}'s last decision.", who=whose)
            outcome = await self.core.report(Loaded(fresh, game, state), state, headline)
            return outcome.answered(_("Undone."))

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race = opened.race
            if user_id != race.host_id and not can_manage:
                raise Refusal(_("Only the host or someone who can manage this channel can abort the race."))
            if not await self.storage.set_status(race.id, race.version, "aborted"):
                raise Refusal(_("The race changed at the same moment; try again."))
            self.store.forget(race.id)
            with speaking(await self.core.public(race)):  # said in the channel
                return Outcome(
                    _("Race {number} was aborted.", number=race.id),
                    ephemeral=False,
                    closed="⏹ " + _("The race was aborted."),
                )

    async def back(self, channel_id: int, user_id: int) -> Outcome:
        async with self.store.channel_race(channel_id) as opened:
            race = opened.race
            if race.status != "running":
                raise Refusal(_("The race has not started yet."))
            seat = seats.human_seat(race.lobby, user_id)
            if seat is None or seat["player"] not in race.lobby.get("away", []):
                raise Refusal(_("Your seat is yours already."))
            away = [p for p in race.lobby["away"] if p != seat["player"]]
            if not await self.storage.update_lobby(race.id, race.version, {**race.lobby, "away": away}):
                raise Refusal(_("The race changed at the same moment; try again."))
            fresh = await self.storage.race(race.id)
            assert fresh is not None
            loaded = await self.store.loaded(Opened(fresh, opened.game))
            with speaking(await self.core.public(race)):
                headline = _("{name} takes their seat back from the AI.", name=seat["name"])
                replaced = Replace(
                    "⏭ "
                    + _(
                        "{name} takes their seat back from the AI: the prompt below replaces this one.",
                        name=seat["name"],
                    )
                )
            outcome = await self.core.report(loaded, loaded.state, headline)
            return outcome.answered(_("Welcome back: the AI no longer plays for you.")).first_in_channel(replaced)
