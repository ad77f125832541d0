"""A league's team classification (docs/alliances.md): each alliance's result in a stage, the sum of its
best pieces' results, as each game's league scoring defines it (``Game.team_result``), and the
classification over the league's stages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.game import TeamResult

COUNTED = 2  # the best two pieces of a team count, as cycling's team classification counts its best


def best_times(times: Sequence[int | None], penalty: int, counted: int = COUNTED) -> int:
    """The sum of the ``counted`` lowest times; a piece without one (out of the race, not arrived), or
    one missing from a team too small, counts ``penalty`` (a ruling: docs/alliances.md)."""
    known = sorted(t for t in times if t is not None)
    known += [penalty] * max(0, counted - len(known))
    return sum(known[:counted])


def after_the_last(times: Sequence[int | None], step: int) -> int:
    """The penalty for a piece without a time: ``step`` after the slowest time of the stage."""
    return max((t for t in times if t is not None), default=0) + step


def ranked(results: Mapping[str, TeamResult]) -> list[tuple[str, TeamResult]]:
    """The teams of a stage, best first (ties by name)."""

    def order(item: tuple[str, TeamResult]) -> tuple[int, str]:
        team, result = item
        return (-result.score if result.higher_better else result.score, team)

    return sorted(results.items(), key=order)


def totals(stages: Sequence[Mapping[str, TeamResult]]) -> list[tuple[str, int]]:
    """The team classification over a league's stages: each team's scores added up, best first."""
    summed: dict[str, int] = {}
    higher = False
    for stage in stages:
        for team, result in stage.items():
            summed[team] = summed.get(team, 0) + result.score
            higher = result.higher_better
    return sorted(summed.items(), key=lambda item: (-item[1] if higher else item[1], item[0]))
