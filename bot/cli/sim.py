"""AI-against-AI races: the engine driven by the game's AI players, producing a record."""

from __future__ import annotations

from typing import Any

from bot.service import race_options
from rules.action import Action
from rules.errors import InvalidSetup
from rules.game import Sample, Seat
from rules.record import Record, start_state
from rules.registry import AnyGame, find_game

MAX_DECISIONS = 20_000


def simulate(
    game: str | AnyGame,
    *,
    players: int,
    seed: int,
    pieces: int | None = None,
    stage: str | None = None,
    random_hexagons: int | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[Record, Any]:
    """Play a whole race with AI players; returns its record and final state."""
    rules = find_game(game) if isinstance(game, str) else game
    try:
        seats = rules.sample_players(players)
        wanted = stage or (f"random-{random_hexagons}" if random_hexagons else rules.tracks.default)
        track = rules.tracks.resolve(wanted, seed)
    except ValueError as exc:
        raise InvalidSetup("--players" if "player" in str(exc) else "--stage", str(exc)) from None
    if pieces is not None:
        seats = _with_pieces(rules, seats, pieces)
    # the options a new race's lobby writes when nobody chooses, then those asked for
    options = {**race_options.defaults(rules), **(options or {})}
    return play(Record(game=rules.id, track=track, players=seats, seed=seed, options=options))


def sample_race(game: AnyGame, sample: Sample) -> tuple[Record, Any]:
    """A game's sample race (its showcase): played to the finish by its AI, or, when the sample sets
    a position by hand, that position with no action played."""
    if not sample.seats:
        return simulate(game, players=sample.players, seed=sample.seed, stage=sample.stage)
    track = game.tracks.resolve(sample.stage or game.tracks.default, sample.seed)
    options = race_options.defaults(game)
    start = dict(sample.start) if sample.start is not None else None
    record = Record(game.id, track, [dict(s) for s in sample.seats], sample.seed, options, start=start)
    return (record, start_state(record)[1]) if start is not None else play(record)


def play(record: Record) -> tuple[Record, Any]:
    """``record``'s race played to the finish by the game's AI players: the record with its actions."""
    game_def, state = start_state(record)
    actions: list[Action] = []
    while not game_def.rules.outcome(state).finished:
        decision = game_def.rules.pending(state)
        assert decision is not None
        action = game_def.ai(state, decision.player)
        state, _ = game_def.rules.apply(state, action)
        actions.append(action)
        if len(actions) > MAX_DECISIONS:
            raise RuntimeError("the race did not end")  # a bug, never a rules outcome
    return record.with_actions(tuple(actions)), state


def _with_pieces(rules: AnyGame, seats: list[dict[str, Any]], pieces: int) -> list[dict[str, Any]]:
    """Sample players with ``pieces`` each, seated as the lobby would seat them."""
    taken: list[Seat] = []
    out = []
    for sample in seats:
        colour, kinds = rules.seat(taken, pieces, None)
        seat = Seat(sample["id"], sample.get("name", sample["id"]), colour, kinds)
        taken.append(seat)
        out.append(rules.record_players([seat])[0])
    return out
