"""Rules versions: a race is resolved under the rules it started with (docs/record-format.md, "Rules").

Each game keeps a small table of its versions, oldest first. A version names the changes it made to
what an action does or costs (each a ``Change``, named after its ruling in docs/rulings.md); a state
carries the version it is played under (in its setup), and the engine asks ``version.has(CHANGE)``
where the behaviour differs, never compares dates. A new race starts under the newest version; a
record names its version in its envelope's ``rules``; a record without one was written before
versions existed: it resolves under the version in force on the day the race was created when that
is known (a stored race), else under the last version before versions existed (``unversioned``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from rules.errors import MalformedRecord


@dataclass(frozen=True)
class Change:
    """One change to what an action does or costs: its ruling's id and what it changed, in a line."""

    ruling: str
    what: str


@dataclass(frozen=True)
class RulesVersion:
    """One version of a game's rules: its name (``"2026-12"``), when it became the newest (UTC; None
    for the first), the changes it made, and every change in force under it (its own and earlier)."""

    name: str
    since: datetime | None
    changes: tuple[Change, ...] = ()
    in_force: frozenset[Change] = field(default=frozenset(), compare=False)
    newest: bool = field(default=False, compare=False)

    def has(self, change: Change) -> bool:
        """Is ``change`` part of the rules this version plays?"""
        return change in self.in_force


class UnknownRulesVersion(ValueError):
    """A rules version the game does not have."""


@dataclass(frozen=True)
class VersionTable:
    """A game's rules versions, oldest first (build it with ``versions``)."""

    game: str
    versions: tuple[RulesVersion, ...]
    unversioned: RulesVersion  # what a record without ``rules`` and without a date is played under

    @property
    def newest(self) -> RulesVersion:
        return self.versions[-1]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.versions)

    def named(self, name: str) -> RulesVersion:
        """The version called ``name``; ``UnknownRulesVersion`` (naming the known ones) otherwise."""
        for version in self.versions:
            if version.name == name:
                return version
        raise UnknownRulesVersion(f"{self.game} has no rules version {name!r}; it has {', '.join(self.names)}")

    def on(self, when: float) -> RulesVersion:
        """The version that was the newest at ``when`` (seconds since the epoch, UTC): a race created
        after a version's ``since`` (strictly) is played under it."""
        current = self.versions[0]
        for version in self.versions[1:]:
            if version.since is not None and version.since.timestamp() < when:
                current = version
        return current

    def resolve(self, name: str | None) -> RulesVersion:
        """The version a record names, or ``unversioned`` for a record that names none."""
        return self.unversioned if name is None else self.named(name)

    def of_envelope(self, envelope: Mapping[str, object]) -> RulesVersion:
        """The version a record's envelope names in ``rules`` (``unversioned`` without one); a name
        the game does not have is refused at ``$.rules``."""
        name = envelope.get("rules")
        if name is not None and not isinstance(name, str):
            raise MalformedRecord("$.rules", f"expected a rules version such as {self.newest.name!r}, got {name!r}")
        try:
            return self.resolve(name)
        except UnknownRulesVersion as exc:
            raise MalformedRecord("$.rules", str(exc)) from None


def versions(game: str, *steps: RulesVersion, unversioned: str) -> VersionTable:
    """A game's table from its versions, oldest first: each one's ``in_force`` is worked out here.
    ``unversioned`` names the version a record without ``rules`` (and without a date) is played
    under: the newest when versions began, and it stays that one when newer versions are added."""
    if not steps:
        raise ValueError(f"{game}: a game has at least one rules version")
    names = [s.name for s in steps]
    if len(set(names)) != len(names):
        raise ValueError(f"{game}: a rules version named twice in {names}")
    built: list[RulesVersion] = []
    seen: set[Change] = set()
    for i, step in enumerate(steps):
        seen |= set(step.changes)
        built.append(RulesVersion(step.name, step.since, step.changes, frozenset(seen), newest=i == len(steps) - 1))
    table = VersionTable(game, tuple(built), built[-1])
    return replace(table, unversioned=table.named(unversioned))


def single(game: str, name: str = "1") -> VersionTable:
    """The table of a game that has never changed its rules: one version."""
    return versions(game, RulesVersion(name, None), unversioned=name)


def utc(text: str) -> datetime:
    """A version's ``since`` from ISO text (``2026-12-01T16:05:03+00:00``)."""
    return datetime.fromisoformat(text)


def listed(changes: Iterable[Change]) -> str:
    """The rulings of ``changes``, for a line of text (``R-FEED-CAUGHT, R-HOTN-EMPTY``)."""
    return ", ".join(c.ruling for c in changes)
