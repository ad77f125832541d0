"""A game's lobby draft (Peloton's time-trial cards) in the channel.

When the host starts the race, the seating is closed and the starting order fixed. A game with a
``rules.game.LobbyDraft`` then makes its first decisions on the lobby message itself: the message
becomes the draft (the game's lines and whose pick it is) with the pick's menu on it, and is
edited in place after each pick. The picks stay ordinary decisions: actions of the record, made
with a menu checked by the race's version like any prompt, under the same timers, reminders and
AI, so replays and exports do not change. Each pick is told in the channel, and the player to
pick is mentioned once, as for any decision; when the draft is over the lobby message keeps its
result and the race's first board is posted.
"""

from __future__ import annotations

from typing import Any

from bot.service import seats
from bot.service.core import RaceCore, chunks
from bot.service.model import LobbyEdit, Outcome, Post
from bot.storage import RaceRow
from rules.game import Decision, LobbyDraft
from rules.registry import AnyGame, find_game


class DraftIntents(RaceCore):
    async def report(self, race: RaceRow, before: Any, after: Any, headline: str | None) -> Outcome:
        game = find_game(race.game)
        draft = game.draft
        if draft is None:
            return await super().report(race, before, after, headline)
        decision = game.rules.pending(after)
        if decision is not None and draft.drafting(after):
            return await self._draft_report(race, game, draft, before, after, decision, headline)
        if not draft.drafting(before):
            return await super().report(race, before, after, headline)
        # the draft is over: the lobby message keeps its result; the race's first board follows
        opening = headline or f"**{self.title(race)}**: the draft is over, the race starts!"
        outcome = await super().report(race, before, after, opening)
        outcome.lobby_edit = LobbyEdit(race.id, race.lobby.get("message"), self._draft_text(race, game, draft, after))
        return outcome

    async def _draft_report(
        self,
        race: RaceRow,
        game: AnyGame,
        draft: LobbyDraft[object],
        before: Any,
        after: Any,
        decision: Decision,
        headline: str | None,
    ) -> Outcome:
        rules, words = game.rules, game.narration
        events = list(rules.events(after)[len(rules.events(before)) :])
        outcome = Outcome("Done.")
        for player, text in game.secrets.news(before, after, events):
            owner = seats.user_of(race.lobby, player)
            if owner is not None:
                outcome.dms.append((owner, f"**{self.title(race)}**: {text}"))
        user = seats.user_of(race.lobby, decision.player)
        due = await self.due_text(race, decision.player) if user is not None else ""
        message = race.lobby.get("message")
        link = f" https://discord.com/channels/{race.guild_id}/{race.channel_id}/{message}" if message else ""
        lines = [headline] if headline else []
        told = words.summary(after, events)
        if told:
            lines.append("; ".join(told) + ".")
        asked = words.ask(after, decision, self.who(race, decision.player)) + due
        lines.append(f"{asked} The menu is on the draft:{link}" if link else f"{asked} The menu is on the draft below.")
        ping = await self.ping_for(race, game, before, after, decision, headline, due, outcome, link)
        outcome.posts = [Post(text, mentions=[ping] if ping else []) for text in chunks("\n".join(lines))]
        piece = words.piece_name(after, decision.piece) if decision.piece else ""
        outcome.lobby_edit = LobbyEdit(
            race.id,
            message,
            self._draft_text(race, game, draft, after, asked),
            self.prompt(race, after),
            f"Pick for {piece}…" if piece else "Pick…",
        )
        return outcome

    def _draft_text(
        self, race: RaceRow, game: AnyGame, draft: LobbyDraft[object], state: Any, asked: str | None = None
    ) -> str:
        """The lobby message as the draft: whose pick it is first (so nothing that matters is cut),
        then the game's lines; once the draft is over, its result."""
        head = f"**{self.title(race)}** — {game.title}, the draft"
        after = asked or "The draft is over: the race is on, its boards and prompts follow in the channel."
        lines = [head, after, *draft.lines(state, lambda player: self.who(race, player, mention=False))]
        return chunks("\n".join(lines))[0]

    async def remember_lobby_message(self, race_id: int, message_id: int) -> None:
        """The message that shows a race's lobby (the latest one posted), kept so that every lobby
        action edits it rather than post another, and a game's draft becomes that message when the
        race starts. Kept without a new version: the buttons and menus already shown stay good."""
        async with self.lock(race_id):
            race = await self.storage.race(race_id)
            if race is None or race.status not in ("lobby", "running") or race.lobby.get("message") == message_id:
                return
            if race.status == "running" and find_game(race.game).draft is None:
                return
            await self.storage.keep_lobby(race.id, race.version, {**race.lobby, "message": message_id})
