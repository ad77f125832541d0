"""Since my last move: what happened in a race since a player last decided, in one short line.

Every prompt a person gets after others have played starts with it (``RaceCore.report``), and
``/race recap since:me`` animates the boards from that decision. The line names each piece that
moved or met something since (where it went, who fell, who broke away, who was caught), from
the games' shared event words; it reads only what the channel was told anyway (moves, falls,
punctures), never a kept feed tile or a weather marker still face down.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from bot.service.common import record_of
from bot.storage import RaceRow, StoredAction
from rules.events import Event
from rules.i18n import N_, _
from rules.record import start_state
from rules.registry import AnyGame

PIECE_KEYS = ("rider", "car", "cyclist")
MOVES = frozenset({"rode", "drive", "ride", "slipstream", "breakaway"})
# what befell a piece, in a word or two (an event type not listed here is not told)
BEFELL = {
    "fell": N_("fell"),
    "cracked": N_("cracked"),
    "punctured": N_("punctured"),
    "eliminated": N_("out of the race"),
    "dropped": N_("dropped"),
    "caught": N_("caught by the peloton"),
    "pitted": N_("pitted"),
    "stalled": N_("stalled"),
    "finished-race": N_("finished"),
    "arrived": N_("finished"),
}
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


def line(events: Sequence[Event], name: Callable[[str], str]) -> str:
    """Each piece that moved or met something in ``events``, in the order they first did, and
    the peloton: ``yellow rouleur broke away to 6.2, caught by the peloton; the peloton to row 7``."""
    told: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()  # piece -> (what: "move" or an event type, words)
    peloton = None
    for e in events:
        piece = next((str(e.data[k]) for k in PIECE_KEYS if e.data.get(k) is not None), None)
        if e.type == "peloton" and e.data.get("to") is not None:
            peloton = _("the peloton to row {row}", row=e.data["to"])
            continue
        if piece is None:
            continue
        words = told.setdefault(piece, [])
        if e.type in MOVES and e.data.get("to") is not None:
            where = e.data["to"]
            words[:] = [w for w in words if w[0] != "move"]
            moved = (
                _("broke away to {place_name}", place_name=where)
                if e.type == "breakaway"
                else _("to {place_name}", place_name=where)
            )
            words.append(("move", moved))
        elif e.type in BEFELL and _(BEFELL[e.type]) not in (w[1] for w in words):
            words.append((e.type, _(BEFELL[e.type])))
    parts = [
        _("{piece_name} {what}", piece_name=name(p), what=", ".join(w[1] for w in ws)) for p, ws in told.items() if ws
    ]
    if peloton:
        parts.append(peloton)
    return "; ".join(parts)


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
    def _replayed(race: RaceRow, count: int) -> object:
        """The race's state after its first ``count`` actions (replayed: a few milliseconds)."""
        record = record_of(race)
        game, state = start_state(record.with_actions(()))
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
            found = len(game.rules.events(self._replayed(race, count)))
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
        return line(events, lambda piece: game.narration.piece_name(state, piece))

    def turn_of_last_decision(self, race: RaceRow, game: AnyGame, player: str) -> int | None:
        """The turn in which ``player`` last decided (None: never)."""
        since = last_decision(race.actions, player)
        if since is None:
            return None
        return int(game.rules.turn(self._replayed(race, since)))
