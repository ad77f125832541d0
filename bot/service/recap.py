"""The race recap: an animated GIF of a race's boards, turn by turn, for ``/race recap`` and the finish."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.service import seats
from bot.service.alt_text import listed
from bot.service.bounds import RECAP_TURNS
from bot.service.catch_up import CatchUp
from bot.service.common import Refusal, record_of, title
from bot.service.model import Outcome, Post
from bot.service.store import RaceStore
from bot.storage import RaceRow
from renderer.recap import painted, render_recap, turn_states
from renderer.registry import find_painter
from rules.i18n import Language, _, ngettext, speaking
from rules.record import start_state

RECAP_NAME = "recap.gif"


def recap_gif(race: RaceRow, shown_title: str, turns: int | None = None) -> bytes:
    """The recap of ``race`` (its last ``turns`` turns, or all of it); pure, for a worker thread."""
    return recap(race, shown_title, turns)[0]


def recap(race: RaceRow, shown_title: str, turns: int | None = None) -> tuple[bytes, list[str]]:
    """``recap_gif``, and where every piece is on its last frame in words (the language of the moment),
    for its description."""
    record = record_of(race)
    states = turn_states(record, turns)
    narration = start_state(record)[0].narration  # the game the record names
    where = [line.replace("**", "").rstrip(".") for line in narration.status(states[-1])]
    return render_recap(states, board=painted(race.game, shown_title)), where


def described(animation: str, where: list[str]) -> str:
    """A recap described for a screen reader: what it animates, then where the pieces are at its end."""
    last_frame = _("On its last frame:")
    return listed(f"{animation} {last_frame}", where)


async def finish_posts(race: RaceRow) -> list[Post]:
    """After the finish: the whole race as an animation (a game with a board)."""
    if find_painter(race.game) is None:
        return []
    gif, where = await asyncio.to_thread(recap, race, title(race))
    alt = _("An animation of the boards of {race_title}, turn by turn, to the finish.", race_title=title(race))
    return [Post(_("The race, turn by turn:"), gif, image_name=RECAP_NAME, image_alt=described(alt, where))]


class Recap:
    """``/race recap``: the race's stored races (``store``), when a person last decided (``catch_up``),
    and the language a race's channel reads (``public``: the core's)."""

    def __init__(self, store: RaceStore, catch_up: CatchUp, public: Callable[[RaceRow], Awaitable[Language]]) -> None:
        self.store = store
        self.storage = store.storage
        self.catch_up = catch_up
        self.public = public

    async def recap(self, channel_id: int, turns: int | None = None, since_user: int | None = None) -> Outcome:
        """The channel's race so far (or the last one to finish), posted in the channel as an animation;
        with ``since_user``, from the turn of that person's last decision on (``/race recap since:me``)."""
        RECAP_TURNS.check(turns)
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None or race.envelope is None or race.status == "lobby":
            raise Refusal(_("There is no started race in this channel to recap."))
        loaded = await self.store.load(race)
        since = ""
        if since_user is not None:
            seat = seats.human_seat(race.lobby, since_user)
            if seat is None:
                raise Refusal(_("You are not playing in this race: since:me recaps from your last decision."))
            then = self.catch_up.turn_of_last_decision(race, loaded.game, str(seat["player"]))
            language = await self.public(race)
            with speaking(language):  # the recap is posted in the channel
                if then is None:
                    since = _("the race so far")
                elif seat.get("name"):
                    since = _("since {name} last decided", name=seat.get("name"))
                else:
                    since = _("since your last decision")
            if then is not None:
                turns = max(1, loaded.game.rules.turn(loaded.state) - then + 1)
        if find_painter(race.game) is None:
            raise Refusal(_("{game_title} has no board to animate.", game_title=loaded.game.title))
        if turns is not None and turns < 1:
            raise Refusal(_("Give at least one turn (or leave it empty for the whole race)."))
        with speaking(await self.public(race)):  # the recap is posted in the channel
            gif, where = await asyncio.to_thread(recap, race, title(race), turns)
            if turns is not None:
                span = ngettext("the last {n} turn", "the last {n} turns", turns)
            else:
                span = _("the race so far") if race.status == "running" else _("the whole race")
            span = since or span
            said = _("{race_title}: {span}, turn by turn.", race_title=title(race), span=span)
            alt = _(
                "An animation of the boards of {race_title}: {span}, turn by turn.", race_title=title(race), span=span
            )
            post = Post(said, gif, image_name=RECAP_NAME, image_alt=described(alt, where))
        return Outcome(_("The recap is posted in the channel."), posts=[post])
