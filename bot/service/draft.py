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

from typing import Protocol

from bot.service import seats
from bot.service.common import chunks, title, who
from bot.service.model import DirectMessage, EditLobby, LobbyEdit, Outcome, Post, Prompt, Publish
from bot.service.pace_clocks import Clocks
from bot.service.store import Loaded
from bot.storage import RaceRow
from rules.events import Event
from rules.game import Decision, LobbyDraft
from rules.i18n import _
from rules.registry import AnyGame


class Reports(Protocol):
    """What a draft's report takes from the race core (``core.RaceCore``, which hands itself): the plain
    report, private news, the ping, the prompt and the clocks."""

    @property
    def clocks(self) -> Clocks: ...

    async def plain_report(self, loaded: Loaded, before: object, headline: str | None) -> Outcome: ...

    async def secret_news(self, loaded: Loaded, before: object, events: list[Event]) -> list[DirectMessage]: ...

    async def ping_for(
        self, loaded: Loaded, before: object, decision: Decision, headline: str | None, link: str = ""
    ) -> tuple[int | None, list[DirectMessage]]: ...

    def prompt(self, loaded: Loaded) -> Prompt | None: ...


async def report(
    core: Reports, loaded: Loaded, draft: LobbyDraft[object], before: object, headline: str | None
) -> Outcome | None:
    """The report of a change during the draft, or of the draft's end; None when the draft is not concerned."""
    race, game, after = loaded.race, loaded.game, loaded.state
    decision = game.rules.pending(after)
    if decision is not None and draft.drafting(after):
        return await _draft_report(core, loaded, draft, before, decision, headline)
    if not draft.drafting(before):
        return None
    # the draft is over: the lobby message keeps its result; the race's first board follows
    opening = headline or _("**{race_title}**: the draft is over, the race starts!", race_title=title(race))
    outcome = await core.plain_report(loaded, before, opening)
    shown = LobbyEdit(race.id, race.lobby.get("message"), draft_text(race, game, draft, after))
    return outcome.first_in_channel(EditLobby(shown))


async def _draft_report(
    core: Reports, loaded: Loaded, draft: LobbyDraft[object], before: object, decision: Decision, headline: str | None
) -> Outcome:
    race, game, after = loaded.race, loaded.game, loaded.state
    words = game.narration
    events = list(game.rules.events(after)[len(game.rules.events(before)) :])
    dms = await core.secret_news(loaded, before, events)
    user = seats.user_of(race.lobby, decision.player)
    due = await core.clocks.due_text(race, decision.player) if user is not None else ""
    message = race.lobby.get("message")
    link = f" https://discord.com/channels/{race.guild_id}/{race.channel_id}/{message}" if message else ""
    lines = [headline] if headline else []
    told = words.summary(after, events)
    if told:
        lines.append("; ".join(told) + ".")
    asked = words.ask(after, decision, who(race, decision.player)) + due
    if link:
        lines.append(_("{asked} The menu is on the draft:{link}", asked=asked, link=link))
    else:
        lines.append(_("{asked} The menu is on the draft below.", asked=asked))
    ping, by_dm = await core.ping_for(loaded, before, decision, headline, link)
    posts = [Post(text, mentions=[ping] if ping else []) for text in chunks("\n".join(lines))]
    piece = words.piece_name(after, decision.piece) if decision.piece else ""
    shown = LobbyEdit(
        race.id,
        message,
        draft_text(race, game, draft, after, asked),
        core.prompt(loaded),
        _("Pick for {piece_name}…", piece_name=piece) if piece else _("Pick…"),
    )
    # the lobby message shows the pick before the channel is told of it
    return Outcome("Done.", effects=(EditLobby(shown), *(Publish(p) for p in posts), *dms, *by_dm))


def draft_text(race: RaceRow, game: AnyGame, draft: LobbyDraft[object], state: object, asked: str | None = None) -> str:
    """The lobby message as the draft: whose pick it is first (so nothing that matters is cut),
    then the game's lines; once the draft is over, its result."""
    head = _("**{race_title}** — {game_title}, the draft", race_title=title(race), game_title=game.title)
    after = asked or _("The draft is over: the race is on, its boards and prompts follow in the channel.")
    lines = [head, after, *draft.lines(state, lambda player: who(race, player, mention=False))]
    return chunks("\n".join(lines))[0]
