"""``domestique bench ai``: each game's AI in whole races against the baseline players
(``rules/baselines.py``) and, with ``--levels``, its levels against each other.

Four seats, seeded dice, the lone seat's place in the starting order turning with the seed.
Figures are printed, never asserted: the AI tests hold the targets on fewer races.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.service import race_options
from rules.action import Action
from rules.baselines import Policy, greedy, random_player, resources_for
from rules.game import Outcome
from rules.record import Record, start_state
from rules.registry import AnyGame, find_game, games

SEATS = 4
MAX_DECISIONS = 20_000

# a seat's policy for one race: (game, seed) -> policy
Maker = Callable[[AnyGame, int], Policy[object]]


@dataclass
class Seen:
    """What a setting's races showed: the lone seat's places, the AI seats' energy and time."""

    places: list[int] = field(default_factory=list)
    left: list[float] = field(default_factory=list)  # energy (LP) at the finish / at the start, AI seats
    times: list[float] = field(default_factory=list)  # ms of CPU per AI decision

    @property
    def wins(self) -> float:
        return 100 * sum(p == 1 for p in self.places) / max(1, len(self.places))

    @property
    def place(self) -> float:
        return statistics.fmean(self.places) if self.places else float("nan")


def bench_courses(game: AnyGame) -> list[str]:
    """The game's usual course, then one random course of each other kind it offers (a time
    trial, a course marked on a board ...): the suggestions ``random-<word>-...``."""
    out = [game.tracks.default]
    kinds: set[str] = set()
    for name in game.tracks.suggestions():
        parts = name.split("-")
        if len(parts) < 3 or parts[0] != "random" or parts[1].isdigit():
            continue
        kind = "-".join(p for p in parts if not p.isdigit())
        if kind not in kinds:
            kinds.add(kind)
            out.append(name)
    return out


def places(outcome: Outcome, players: Iterable[str]) -> dict[str, int]:
    """Each player's place: by their best piece's rank (1 = a piece of theirs won); none finished: last."""
    best: dict[str, int] = {}
    for p in outcome.placings:
        if p.rank is not None:
            best[p.player] = min(best.get(p.player, p.rank), p.rank)
    worst = 10**6
    ranks = {player: best.get(player, worst) for player in players}
    return {player: 1 + sum(other < mine for other in ranks.values()) for player, mine in ranks.items()}


def _ai(game: AnyGame, seed: int) -> Policy[object]:
    return game.ai


def _greedy(game: AnyGame, seed: int) -> Policy[object]:
    return greedy(game)


def _random(game: AnyGame, seed: int) -> Policy[object]:
    return random_player(game, seed)


MAKERS: dict[str, Maker] = {"AI": _ai, "greedy": _greedy, "random": _random}


def race(
    game: AnyGame, course: str, seed: int, seats: Sequence[Maker], timed: Sequence[bool]
) -> tuple[dict[str, int], list[float], list[float]]:
    """One whole race, seat ``i`` played by ``seats[i]``: each seat's place, the timed seats'
    energy left as a fraction of their start, and the timed seats' CPU ms per decision."""
    players = game.sample_players(len(seats))
    record = Record(
        game=game.id,
        track=game.tracks.resolve(course, seed),
        players=players,
        seed=seed,
        options=race_options.defaults(game),
    )
    game_def, state = start_state(record)
    ids = [str(p["id"]) for p in players]
    policy = {pid: make(game_def, seed * 31 + i) for i, (pid, make) in enumerate(zip(ids, seats, strict=True))}
    is_timed = dict(zip(ids, timed, strict=True))
    held = resources_for(game_def)
    start: dict[str, int] | None = None
    times: list[float] = []
    decisions = 0
    while not game_def.rules.outcome(state).finished:
        if start is None and held is not None and (game_def.draft is None or not game_def.draft.drafting(state)):
            start = {pid: held(state, pid) for pid in ids}
        decision = game_def.rules.pending(state)
        assert decision is not None
        tick = time.process_time()
        action: Action = policy[decision.player](state, decision.player)
        if is_timed[decision.player]:
            times.append((time.process_time() - tick) * 1000)
        state, _ = game_def.rules.apply(state, action)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{game.id} {course} seed {seed}: the race did not end")
    left = [held(state, pid) / start[pid] for pid in ids if is_timed[pid] and start[pid] > 0] if held and start else []
    return places(game_def.rules.outcome(state), ids), left, times


def lone(game: AnyGame, course: str, seeds: Sequence[int], alone: Maker, others: Maker, timed_alone: bool) -> Seen:
    """A lone ``alone`` seat among three ``others``, its seat turning with the seed."""
    seen = Seen()
    for seed in seeds:
        at = seed % SEATS
        seats = [alone if i == at else others for i in range(SEATS)]
        timed = [(i == at) == timed_alone for i in range(SEATS)]
        placed, left, times = race(game, course, seed, seats, timed)
        seen.places.append(placed[str(game.sample_players(SEATS)[at]["id"])])
        seen.left += left
        seen.times += times
    return seen


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else float("nan")


def bench_game(game: AnyGame, course: str, seeds: Sequence[int], makers: dict[str, Maker] | None = None) -> str:
    """One line of the table: the AI against the baselines on one course."""
    m = makers or MAKERS
    ai, g, r = m["AI"], m["greedy"], m["random"]
    vs_greedy = lone(game, course, seeds, ai, g, True)
    vs_random = lone(game, course, seeds, ai, r, True)
    greedy_alone = lone(game, course, seeds, g, ai, False)
    random_alone = lone(game, course, seeds, r, ai, False)
    ai_seats = [vs_greedy, vs_random, greedy_alone, random_alone]
    left = [x for s in ai_seats for x in s.left]
    times = [x for s in ai_seats for x in s.times]
    energy = f"{100 * statistics.fmean(left):3.0f} %" if left else "  -  "
    return (
        f"| {game.title} {course} | {vs_greedy.place:.2f}, {vs_greedy.wins:3.0f} % "
        f"| {vs_random.place:.2f}, {vs_random.wins:3.0f} % "
        f"| {greedy_alone.wins:3.0f} % | {random_alone.wins:3.0f} % | {energy} "
        f"| {statistics.fmean(times):.2f} / {_p95(times):.2f} ms |"
    )


HEADER = (
    "| game, course | lone AI among 3 greedy: place, wins | lone AI among 3 random | lone greedy among 3 AIs: wins "
    "| lone random among 3 AIs: wins | AI energy (LP) left at the finish | AI CPU per decision, mean / p95 |\n"
    "|---|---|---|---|---|---|---|"
)


def chosen_games(game_id: str | None) -> list[AnyGame]:
    """The one game asked for, or every game."""
    return [find_game(game_id)] if game_id else list(games())


def bench_ai(seeds: int = 40, game_id: str | None = None, course: str | None = None) -> str:
    """The table for every game (or one) and every kind of course (or one)."""
    chosen = chosen_games(game_id)
    lines = [f"{seeds} seeds per setting, {SEATS} seats", HEADER]
    for game in chosen:
        for name in [course] if course else bench_courses(game):
            lines.append(bench_game(game, name, range(1, seeds + 1)))
    return "\n".join(lines)


def bench_levels(seeds: int = 40, game_id: str | None = None, course: str | None = None) -> str:
    """Each level alone among three of the level below it, and the other way round."""
    from rules.ai_levels import LEVELS, player_at

    chosen = chosen_games(game_id)
    lines = [
        f"{seeds} seeds per setting, {SEATS} seats",
        "| game, course | stronger alone among 3 weaker: place, wins | weaker alone among 3 stronger: place, wins |",
        "|---|---|---|",
    ]

    def maker(level: str) -> Maker:
        return lambda game, seed: player_at(game, level)

    for game in chosen:
        for name in [course] if course else bench_courses(game):
            for weaker, stronger in itertools.pairwise(LEVELS):
                up = lone(game, name, range(1, seeds + 1), maker(stronger), maker(weaker), True)
                down = lone(game, name, range(1, seeds + 1), maker(weaker), maker(stronger), True)
                lines.append(
                    f"| {game.title} {name}: {stronger} vs {weaker} | {up.place:.2f}, {up.wins:3.0f} % "
                    f"| {down.place:.2f}, {down.wins:3.0f} % |"
                )
    return "\n".join(lines)
