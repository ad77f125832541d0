"""The races' states kept in memory: the most recently used ones, up to a fixed number.

A state is rebuilt from its snapshot and the actions after it in a few milliseconds, so
keeping every race ever touched buys little and costs memory without bound. The cache is
keyed by race id and remembers the version each state is for; a state for another version
is never handed out.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

STATES_KEPT = 64  # races whose state stays in memory (more than a busy server has mid-decision at once)


class StateCache:
    def __init__(self, size: int = STATES_KEPT) -> None:
        self.size = size
        self._states: OrderedDict[int, tuple[int, object]] = OrderedDict()

    def get(self, race_id: int, version: int) -> object | None:
        """The race's state at ``version``, if kept."""
        cached = self._states.get(race_id)
        if cached is None or cached[0] != version:
            return None
        self._states.move_to_end(race_id)
        return cached[1]

    def put(self, race_id: int, version: int, state: object) -> None:
        self._states[race_id] = (version, state)
        self._states.move_to_end(race_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)

    def forget(self, race_id: int) -> None:
        self._states.pop(race_id, None)

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, race_id: object) -> bool:
        return race_id in self._states

    def pop(self, race_id: int, default: Any = None) -> Any:
        """Forget the race's state (an undo or a reload); what was kept, or ``default``."""
        return self._states.pop(race_id, default)

    def clear(self) -> None:
        self._states.clear()


SNAPSHOT_EVERY = 24  # actions between two snapshots of a race's state


def snapshot_due(before: int, after: int) -> bool:
    """Whether a commit taking a race from ``before`` to ``after`` actions writes a snapshot.

    A snapshot is only a shortcut: every committed action is in the actions table first, and
    a load replays the actions after the snapshot (``RaceCore.state_of``). Writing one every
    ``SNAPSHOT_EVERY`` actions instead of every decision saves a 20 KB write per click; a
    load replays at most that many actions more.
    """
    return after // SNAPSHOT_EVERY > before // SNAPSHOT_EVERY or before == 0
