"""The races as the service reads them: rows from storage, states kept in memory, one lock per race.

Every part of the service reads a race through here: ``race_in`` (the channel's race, refused when
there is none or it is in the wrong phase), ``state_of`` (from memory, else the stored snapshot,
else a replay of its record), and ``load`` (the row, its game and its state together: the one
loaded context a request passes down, so the game is looked up once per request).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from bot.service.common import Refusal, record_of
from bot.service.state_cache import StateCache, snapshot_due
from bot.storage import RaceRow, Storage
from rules.i18n import _
from rules.layout import layout
from rules.registry import AnyGame, find_game

log = logging.getLogger("domestique")


@dataclass(frozen=True)
class Opened:
    """A race with its game, in its lobby or racing (no state is read)."""

    race: RaceRow
    game: AnyGame

    @staticmethod
    def of(race: RaceRow) -> Opened:
        return Opened(race, find_game(race.game))


@dataclass(frozen=True)
class Loaded:
    """One race as a request works on it: its row, its game and its state at the row's version."""

    race: RaceRow
    game: AnyGame
    state: object


class RaceStore:
    def __init__(self, storage: Storage, now: Callable[[], float]) -> None:
        self.storage = storage
        self.now = now
        self._states = StateCache()  # the most recently used races' states (bounded)
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, race_id: int) -> asyncio.Lock:
        return self._locks.setdefault(race_id, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def channel_race(self, channel_id: int) -> AsyncIterator[Opened]:
        """The channel's race and its game, read again while holding its lock."""
        race = await self.race_in(channel_id)
        async with self.lock(race.id):
            yield Opened.of(await self.race_in(channel_id))

    async def opened_in(self, channel_id: int) -> Opened | None:
        """The channel's race and its game, if it has one (what an autocomplete offers depends on it)."""
        race = await self.storage.active_race(channel_id)
        return Opened.of(race) if race is not None else None

    async def race_in(self, channel_id: int, *, running: bool | None = None) -> RaceRow:
        race = await self.storage.active_race(channel_id)
        if race is None:
            raise Refusal(_("There is no race in this channel. Start one with /race new."))
        if running is True and race.status != "running":
            raise Refusal(_("The race has not started yet: join it, then the host uses /race start."))
        if running is False and race.status != "lobby":
            raise Refusal(_("The race has already started."))
        return race

    async def at_version(self, race_id: int, version: int) -> Loaded:
        """The race a button was made for, refused if it has moved on since (a stale button)."""
        race = await self.storage.race(race_id)
        if race is None or race.status != "running":
            raise Refusal(_("This race is over."))
        if race.version != version:
            raise Refusal(_("That button is from an earlier moment of the race; use the latest prompt."))
        return await self.load(race)

    async def load(self, race: RaceRow) -> Loaded:
        """The race with its game and its state now."""
        return await self.loaded(Opened.of(race))

    async def loaded(self, opened: Opened) -> Loaded:
        """An opened race with its state now (its game already known)."""
        return Loaded(opened.race, opened.game, await self._state(opened.race, opened.game))

    async def state_of(self, race: RaceRow) -> object:
        """The race's state now: from memory, else the stored snapshot, else by replaying its record."""
        return (await self.load(race)).state

    async def _state(self, race: RaceRow, game: AnyGame) -> object:
        cached = self._states.get(race.id, race.version)
        if cached is not None:
            return cached
        record = record_of(race, game)  # under the race's own rules version
        state = game.rules.build(record.envelope())
        snap = await self.storage.snapshot(race.id)
        applied = 0
        if snap is not None:
            try:
                count, saved = unpacked(snap[1], layout(type(state)))
                if count <= len(race.actions):
                    state, applied = game.rules.attach(saved, state), count
            except (pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError, EOFError) as exc:
                # snapshots never decide history: the race is rebuilt from its record
                log.warning("race %s: snapshot not used (%s); replaying its record", race.id, exc)
                applied = 0
                await self.storage.drop_snapshot(race.id)  # not retried on every load
        for action in record.actions[applied:]:
            state, _ = game.rules.apply(state, action)
        self._states.put(race.id, race.version, state)
        return state

    def keep(self, race_id: int, version: int, state: object) -> None:
        """The state a commit left the race in, kept for its new version."""
        self._states.put(race_id, version, state)

    def forget(self, race_id: int) -> None:
        self._states.pop(race_id, None)

    async def saved(self, race: RaceRow, game: AnyGame, state: object, version: int, count: int) -> None:
        """After a commit of ``race`` (as it was) to ``version`` with ``count`` actions, leaving ``state``:
        a snapshot stored when one is due (and at the finish)."""
        if game.rules.pending(state) is None or snapshot_due(len(race.actions), count):
            await self.storage.save_snapshot(race.id, version, packed(count, game.rules.detach(state), type(state)))


SNAPSHOT = b"domestique-snapshot/2 "  # then the state classes' layout, a line break and the pickle


def packed(count: int, detached: object, state_type: type) -> bytes:
    """A snapshot of a race after ``count`` actions: its state less its setup, headed by the layout of
    the state classes that pickled it (rules/layout.py)."""
    head = SNAPSHOT + layout(state_type).encode("ascii") + b"\n"
    return head + pickle.dumps((count, detached), protocol=pickle.HIGHEST_PROTOCOL)


def unpacked(blob: bytes, expected: str) -> tuple[int, object]:
    """(count, detached state) of a snapshot written by state classes of the ``expected`` layout; a
    snapshot of another layout, or from before layouts were written, is refused (ValueError)
    without being unpickled."""
    if not blob.startswith(SNAPSHOT):
        raise ValueError("written before snapshots named their state classes' layout")
    found, _, body = blob[len(SNAPSHOT) :].partition(b"\n")
    if found.decode("ascii", "replace") != expected:
        raise ValueError(f"written by other state classes (layout {found[:16]!r}, now {expected})")
    count, saved = pickle.loads(body)
    if not isinstance(count, int):
        raise ValueError("no action count")
    return count, saved
