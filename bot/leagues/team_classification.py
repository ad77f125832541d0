"""A league's team classification (docs/alliances.md, ``rules/teams.py``): when the organiser turns it on
(``/league create teams:True``), each stage's alliances are scored by the game's own team result (the
best two riders' times in Leader 1 and Hell of the North, the sum of the cars' points in Formula Dé Mini,
the best two cyclists' times in Peloton), and the stages added up, beside the general classification."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.common import record_of
from bot.service.store import Opened
from bot.storage import League, RaceRow, Storage
from renderer.team_standings import paint_team_standings
from rules.game import TeamResult
from rules.i18n import _
from rules.record import replay
from rules.teams import ranked, totals

Teams = Callable[[RaceRow], Awaitable[list[tuple[str, list[str], str]]]]
"""A finished stage's alliances: (the team's name, its members' players, the members in words)."""


def stage_results(race: RaceRow, teams: list[tuple[str, list[str], str]]) -> dict[str, TeamResult]:
    """Each team's result in one finished stage, by the game's team result (none: the game has none)."""
    game = Opened.of(race).game
    if game.team_result is None or not teams:
        return {}
    final = replay(record_of(race, game)).state
    return {name: game.team_result(final, members) for name, members, _shown in teams}


async def team_table(league: League, store: Storage, teams: Teams) -> tuple[str, bytes | None] | None:
    """The team classification after the league's last finished stage, as text and an image (None: the
    league does not score its alliances, or no stage had one)."""
    if not league.settings.get("teams"):
        return None
    stages: list[dict[str, TeamResult]] = []
    members: dict[str, str] = {}
    after = 0
    for stage in await store.stages(league.id):
        race = await store.race(stage.race_id) if stage.race_id is not None else None
        if race is None or race.status != "finished":
            continue
        found = await teams(race)
        stages.append(stage_results(race, found))
        members.update({name: shown for name, _players, shown in found})
        after = stage.number
    ranking = totals(stages)
    if not ranking:
        return None
    last = ranked(stages[-1]) if stages[-1] else []
    words = dict((team, result.text) for team, result in last)
    title = _("{league_name}: team classification after stage {number}", league_name=league.name, number=after)
    lines = [f"**{title}**"]
    rows = []
    for rank, (team, total) in enumerate(ranking, start=1):
        last_stage = _("last stage: {result}", result=words[team]) if team in words else ""
        lines.append(f"{rank}. {team} — {total}" + (f" ({last_stage})" if last_stage else ""))
        rows.append((str(rank), team, members.get(team, ""), str(total)))
    return "\n".join(lines), paint_team_standings(title, rows)
