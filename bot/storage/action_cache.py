"""The action rows already read, per race: a race is read on every click, its rows only grow.

Reading a race used to fetch and rebuild every one of its action rows each time (hundreds
for a long race, several times per decision). Actions are append-only, except an undo,
which truncates (and forgets the race here). The cache keeps the rows of the most recently
read races; a read asks the database only for the rows from the last one it knows, and
checks that row is still the same (another process's undo shows up there), else reads all.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.storage import StoredAction

RACES_KEPT = 128


class ActionCache:
    def __init__(self, size: int = RACES_KEPT) -> None:
        self.size = size
        self._rows: OrderedDict[int, list[StoredAction]] = OrderedDict()

    def known(self, race_id: int) -> list[StoredAction]:
        """The rows kept for the race (possibly fewer than it has now); do not change the list."""
        rows = self._rows.get(race_id)
        if rows is None:
            return []
        self._rows.move_to_end(race_id)
        return rows

    def merge(self, race_id: int, known: list[StoredAction], read: list[StoredAction]) -> list[StoredAction] | None:
        """The race's rows: ``known`` then ``read`` (rows from the last known one on), or None
        if they do not join up (read everything again)."""
        if known:
            if not read or read[0] != known[-1]:
                self.forget(race_id)
                return None
            rows = [*known, *read[1:]]
        else:
            rows = list(read)
        self._rows[race_id] = rows
        self._rows.move_to_end(race_id)
        while len(self._rows) > self.size:
            self._rows.popitem(last=False)
        return rows

    def kept(self) -> dict[int, list[StoredAction]]:
        """Every race's kept rows as they are now (the lists are never changed, only replaced)."""
        return {race_id: rows for race_id, rows in self._rows.items() if rows}

    def forget(self, race_id: int) -> None:
        self._rows.pop(race_id, None)
