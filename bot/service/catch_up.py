"""Since my last move: what happened in a race since a player last decided, in one short line.

Every prompt a person gets after others have played starts with it (``RaceCore.report``), and
``/race recap since:me`` animates the boards from that decision. The line is the game's
(``Narration.since``: by default ``rules.since.shared_line``, each piece that moved or met something
since, from the event words the shipped games share); this module finds the events since that
decision.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from bot.service.common import record_of
from bot.storage import RaceRow, StoredAction
from rules.registry import AnyGame

CACHED = 256  # (race, action count) -> events at that moment, for the races prompting now


def by(action: StoredAction) -> str:
    """The player an action is for (its text starts with them: ``u12 ride rider=…``)."""
    return action.text.split(" ", 1)[0]


def last_decision(actions: Sequence[StoredAction], player: str) -> int | None:
    """The index of ``player``'s last decision of their own (not one the AI made for them)."""
    for stored in reversed(actions):
        if by(stored) == player and not stored.automatic:
            return stored.index
    return None


def others_played(actions: Sequence[StoredAction], player: str, since: int | None) -> bool:
    start = 0 if since is None else since + 1
    return any(by(a) != player for a in actions[start:])


class EventMarks:
    """How many events a race had after its first ``n`` actions (bounded, most recent kept)."""

    def __init__(self) -> None:
        self._marks: OrderedDict[tuple[int, int, str], int] = OrderedDict()

    def get(self, race_id: int, count: int, last_text: str) -> int | None:
        key = (race_id, count, last_text)
        found = self._marks.get(key)
        if found is not None:
            self._marks.move_to_end(key)
        return found

    def put(self, race_id: int, count: int, last_text: str, events: int) -> None:
        self._marks[(race_id, count, last_text)] = events
        while len(self._marks) > CACHED:
            self._marks.popitem(last=False)


class CatchUp:
    """The line a prompt starts with, and the turn a player last decided in (``/race recap since:me``)."""

    def __init__(self) -> None:
        self._event_marks = EventMarks()

    @staticmethod
    def _replayed(race: RaceRow, game: AnyGame, count: int) -> object:
        """The race's state after its first ``count`` actions (replayed: a few milliseconds)."""
        record = record_of(race, game)
        state = game.rules.build(record.envelope())
        for action in record.actions[:count]:
            state, _events = game.rules.apply(state, action)
        return state

    def decided(self, race_id: int, count: int, text: str, events: int) -> None:
        """A decision was applied as the race's ``count``-th action (``text``), leaving ``events`` events:
        remembered, so the line since it needs no replay of the race (``commit`` tells it)."""
        self._event_marks.put(race_id, count, text, events)

    def _events_after(self, race: RaceRow, game: AnyGame, count: int) -> int:
        last_text = race.actions[count - 1].text if count else ""
        found = self._event_marks.get(race.id, count, last_text)
        if found is None:
            found = len(game.rules.events(self._replayed(race, game, count)))
            self._event_marks.put(race.id, count, last_text, found)
        return found

    def since_line(self, race: RaceRow, game: AnyGame, state: object, player: str) -> str:
        """What happened since ``player`` last decided, in one line ('' when nobody else played since)."""
        if race.envelope is None:
            return ""
        since = last_decision(race.actions, player)
        if since is None or not others_played(race.actions, player, since):
            return ""  # never decided yet: there is no "since", and the start's summary tells the moves
        first = self._events_after(race, game, since + 1)
        events = game.rules.events(state)[first:]
        return game.narration.since(events, lambda piece: game.narration.piece_name(state, piece))

    def turn_of_last_decision(self, race: RaceRow, game: AnyGame, player: str) -> int | None:
        """The turn in which ``player`` last decided (None: never)."""
        since = last_decision(race.actions, player)
        if since is None:
            return None
        return int(game.rules.turn(self._replayed(race, game, since)))
