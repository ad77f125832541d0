"""A race's pacts and their ledger read from storage alone (docs/alliances.md, "The ledger"): what the
bot's pact service, a league's standings and the web pages (which run without the bot's services)
share. The ledger is computed from the record, never typed."""

from __future__ import annotations

import asyncio
import dataclasses

from bot.service import seats
from bot.service.common import record_of
from bot.service.store import Opened
from bot.storage import Alliance, PactRow, RaceRow, Storage
from rules.pact_ledger import Entry, by_member, ledger, summary
from rules.pacts import Names, Pact, Until, UntilUnit
from rules.registry import AnyGame

Made = list[tuple[Alliance, PactRow]]


def game_of(race: RaceRow) -> AnyGame:
    """The race's game."""
    return Opened.of(race).game


def names_of(race: RaceRow) -> Names:
    """A player's name as the channel knows them ("bob", "AI 2"), for the rules' words."""
    return lambda player: seats.name_of(race.lobby, player)


def until_of(row: PactRow) -> Until:
    unit = row.until_unit
    chosen: UntilUnit = "turn" if unit == "turn" else "row" if unit == "row" else "stage" if unit == "stage" else "end"
    return Until(chosen, row.until_value)


def as_pact(row: PactRow) -> Pact:
    """A pact made (accepted by its members) as the rules read it."""
    return Pact(row.kind, tuple(row.members), row.ally, until_of(row), row.made_at or 0, row.ended_at)


def shifted(pact: Pact, by: int) -> Pact:
    """``pact`` for a record cut at action ``by``: its action counts ``by`` fewer."""
    ended = pact.ended_at - by if pact.ended_at is not None else None
    return dataclasses.replace(pact, made_at=pact.made_at - by, ended_at=ended)


async def made_pacts(store: Storage, race: RaceRow) -> Made:
    """Every pact made in the race, with its alliance, in the order made."""
    found: Made = []
    for a in await store.alliances(race.id):  # an alliance that has ended too: its pacts judged while it was
        found += [(a, p) for p in await store.pacts(a.id) if p.made_at is not None]
    return sorted(found, key=lambda pair: pair[1].id)


async def race_ledger(store: Storage, race: RaceRow) -> tuple[Made, tuple[Entry, ...]]:
    """The race's pacts and their ledger so far, computed from its record (``rules/pact_ledger.py``)."""
    made = await made_pacts(store, race)
    if not made or race.envelope is None:
        return made, ()
    game = game_of(race)
    record = record_of(race, game)
    start = game.rules.build(record.envelope())
    pacts = [as_pact(p) for _a, p in made]
    entries = await asyncio.to_thread(ledger, game, start, record.actions, pacts, names_of(race), stage=race.stage)
    return made, entries


@dataclasses.dataclass(frozen=True)
class PublicLedger:
    """What anyone may read of a race's pacts: a line per public pact put to the test, and each
    member's public pacts kept and broken (the finish table's pacts, by name)."""

    lines: list[str]
    members: list[tuple[str, int, int]]  # (the member's name, kept, broken), in the order they first acted


async def public_ledger(store: Storage, race: RaceRow) -> PublicLedger:
    """The ledger of the race's public pacts (a private pact's stays with its allies)."""
    made, entries = await race_ledger(store, race)
    public = [i for i, (_a, p) in enumerate(made) if p.public]
    if not public:
        return PublicLedger([], [])
    pacts = [as_pact(p) for _a, p in made]
    shown = [e for e in entries if e.pact in public]
    name = names_of(race)
    members = [(name(player), kept, broken) for player, (kept, broken) in by_member(shown).items()]
    return PublicLedger(summary(game_of(race), shown, pacts, name), members)


async def tally(store: Storage, race: RaceRow) -> dict[str, tuple[int, int]]:
    """Each member's pacts kept and broken in one race (a league's stage)."""
    _made, entries = await race_ledger(store, race)
    return by_member(entries)


FINISHED_KEPT = 256  # finished stages' tallies remembered (a league page asks every few seconds)
_finished: dict[tuple[int, int], dict[str, tuple[int, int]]] = {}


async def finished_tally(store: Storage, race: RaceRow) -> dict[str, tuple[int, int]]:
    """``tally`` of a finished race, remembered by its version (a finished race's pacts and record stay)."""
    key = (race.id, race.version)
    found = _finished.get(key)
    if found is None:
        found = await tally(store, race)
        if len(_finished) >= FINISHED_KEPT:
            _finished.pop(next(iter(_finished)))
        _finished[key] = found
    return found


async def league_tally(store: Storage, league_id: int) -> dict[str, tuple[int, int]]:
    """Each member's pacts kept and broken over the league's finished stages (empty: none put to the test)."""
    total: dict[str, tuple[int, int]] = {}
    for stage in await store.stages(league_id):
        race = await store.race(stage.race_id) if stage.race_id is not None else None
        if race is None or race.status != "finished":
            continue
        for player, (kept, broken) in (await finished_tally(store, race)).items():
            before = total.get(player, (0, 0))
            total[player] = (before[0] + kept, before[1] + broken)
    return total
