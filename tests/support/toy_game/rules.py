"""Dash's rules: a test-only game that proves the game contract, kept outside the project's own
folders as a plugin would be (its rules, painter, data and scenarios in one package).

Runners race along one lane of squares. On a turn a player first picks a pace (buttons):
steady (2 squares) or risky (a die, 1 to 6). Then, with two runners, they pick a runner and
its square (two steps); with one, just its square (a menu). First past the last square
wins; a league scores 3, 2, 1 points by place.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.resources import files
from typing import Any

from rules.action import Action, Field, Vocabulary
from rules.errors import IllegalAction, InvalidSetup, MalformedRecord, NotYourTurn
from rules.events import Event, event
from rules.game import (
    Choice,
    Decision,
    Game,
    Narration,
    Outcome,
    PieceCount,
    Placing,
    Rules,
    Seat,
    Standing,
    TrackCatalog,
)
from rules.rng import Dice, Die

ID = "dash"
COLOURS = ("red", "blue", "green")
# its tracks are data shipped in its own package, read as a wheel would carry them
TRACKS: dict[str, int] = json.loads(files(__package__).joinpath("data", "tracks.json").read_text(encoding="utf-8"))
DIE = Die("d6", (1, 2, 3, 4, 5, 6))
STEADY = 2
POINTS = (3, 2, 1)


@dataclass(frozen=True)
class State:
    length: int
    players: tuple[tuple[str, str, int], ...]  # id, colour, runners
    at: tuple[tuple[str, int], ...]  # runner id -> square (length: finished)
    dice: Dice
    turn: int = 1
    seat: int = 0  # whose turn
    pace: int | None = None  # squares this turn, once the pace is chosen
    arrivals: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()

    def square(self, runner: str) -> int:
        return dict(self.at)[runner]

    @property
    def finished(self) -> bool:
        return len(self.arrivals) == len(self.at)


def build(envelope: dict[str, Any]) -> State:
    track = envelope.get("track")
    if track not in TRACKS:
        raise MalformedRecord("$.track", f"a dash track: {', '.join(TRACKS)}")
    players = []
    for i, p in enumerate(envelope.get("players") or []):
        if not isinstance(p, dict) or p.get("team") not in COLOURS or p.get("runners") not in (1, 2):
            raise MalformedRecord(f"$.players[{i}]", "a player has a team colour and 1 or 2 runners")
        players.append((str(p["id"]), str(p["team"]), int(p["runners"])))
    if len(players) < 2:
        raise InvalidSetup("$.players", "dash needs 2 or 3 players")
    at = tuple((f"{colour}-{n}", 0) for _, colour, count in players for n in range(1, count + 1))
    return State(TRACKS[str(track)], tuple(players), at, Dice.new(int(envelope["seed"]), envelope.get("dice")))


def _mine(state: State, player: str) -> list[str]:
    colour = next(c for pid, c, _ in state.players if pid == player)
    return [r for r, sq in state.at if r.startswith(colour) and sq < state.length]


def pending(state: State) -> Decision | None:
    if state.finished:
        return None
    player = state.players[state.seat][0]
    if state.pace is None:
        return Decision(player, "pace", None, "buttons")
    runners = _mine(state, player)
    return Decision(
        player, "move", runners[0] if len(runners) == 1 else None, "menu" if len(runners) == 1 else "two-step"
    )


def choices(state: State, player: str) -> list[Choice]:
    decision = pending(state)
    if decision is None or decision.player != player:
        return []
    if decision.kind == "pace":
        return [
            Choice(Action(player, "pace", pace="steady"), "Steady (2 squares)"),
            Choice(Action(player, "pace", pace="risky"), "Risky (a die: 1–6)", risky=True),
        ]
    out = []
    runners = _mine(state, player)
    for runner in runners:
        start = state.square(runner)
        for k in range(1, (state.pace or 0) + 1):
            to = min(start + k, state.length)
            label = f"{runner} to {to}" + (" (finish)" if to == state.length else "")
            step = runner if len(runners) > 1 else None
            out.append(
                Choice(
                    Action(player, "run", runner=runner, to=str(to)),
                    label,
                    f"{k} square(s)",
                    runner,
                    str(to),
                    str(to),
                    step,
                    f"Move {runner}" if step else "",
                )
            )
            if to == state.length:
                break
    return out


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    decision = pending(state)
    if decision is None:
        raise IllegalAction("the race is over")
    if action.by != decision.player:
        raise NotYourTurn(f"it is {decision.player}'s turn")
    before = len(state.events)
    if decision.kind == "pace":
        if action.do != "pace" or action.pace not in ("steady", "risky"):
            raise IllegalAction("choose a pace: steady or risky")
        if action.pace == "steady":
            state = replace(state, pace=STEADY)
        else:
            value, dice = state.dice.roll(DIE)
            state = replace(
                state,
                pace=int(value),
                dice=dice,
                events=(*state.events, event(state.turn, "rolled", die="d6", value=value)),
            )
        return state, list(state.events[before:])
    legal = [c.action for c in choices(state, action.by)]
    if action not in legal:
        raise IllegalAction(f"not a legal run; legal: {', '.join(a.text() for a in legal)}")
    runner, to = str(action.runner), int(action.to)
    at = tuple((r, to if r == runner else sq) for r, sq in state.at)
    arrivals = (*state.arrivals, runner) if to == state.length else state.arrivals
    events = (*state.events, event(state.turn, "ran", runner=runner, to=to))
    seat = (state.seat + 1) % len(state.players)
    turn = state.turn + (1 if seat == 0 else 0)
    state = replace(state, at=at, arrivals=arrivals, events=events, pace=None, seat=seat, turn=turn)
    while not state.finished and not _mine(state, state.players[state.seat][0]):  # all of that player's home
        seat = (state.seat + 1) % len(state.players)
        state = replace(state, seat=seat, turn=state.turn + (1 if seat == 0 else 0))
    return state, list(state.events[before:])


def _owner(state: State, runner: str) -> str:
    return next(pid for pid, colour, _ in state.players if runner.startswith(colour))


def outcome(state: State) -> Outcome:
    return Outcome(
        state.finished,
        tuple(Placing(r, _owner(state, r), i, f"turn {state.turn}") for i, r in enumerate(state.arrivals, 1)),
    )


def public_view(state: State) -> dict[str, Any]:
    decision = pending(state)
    return {
        "game": ID,
        "turn": state.turn,
        "to_act": decision.player if decision else None,
        "runners": dict(state.at),
        "arrived": list(state.arrivals),
        "events": [e.to_json() for e in state.events],
    }


def ai(state: State, player: str) -> Action:
    options = choices(state, player)
    if options[0].action.do == "pace":
        return options[0].action
    return max(options, key=lambda c: (int(c.action.to), c.action.runner)).action


def summary(state: State, events: list[Event]) -> list[str]:
    return [
        f"{e.data['runner']} runs to {e.data['to']}" if e.type == "ran" else f"the die shows {e.data['value']}"
        for e in events
    ]


def ask(state: State, decision: Decision, who: str) -> str:
    return f"{who}, choose your pace." if decision.kind == "pace" else f"{who}, move a runner ({state.pace} squares)."


def seat(seats: Sequence[Seat], runners: int, colour: str | None) -> tuple[str, tuple[str, ...]]:
    taken = {s.colour for s in seats}
    free = [c for c in COLOURS if c not in taken]
    chosen = colour or (free[0] if free else None)
    if chosen is None or chosen not in free:
        raise ValueError(f"free colours: {', '.join(free) or 'none'}")
    return chosen, tuple(str(n) for n in range(1, runners + 1))


def record_players(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    return [{"id": s.player, "name": s.name, "team": s.colour, "runners": len(s.kinds)} for s in seats]


class Points:
    settings = ()

    def stage_options(self, values: Mapping[str, int]) -> dict[str, Any]:
        return {}

    def classify(
        self, previous: tuple[Standing, ...], final: State, options: Mapping[str, Any]
    ) -> tuple[tuple[Standing, ...], list[str]]:
        before = {s.piece: s for s in previous}
        standings = []
        lines = []
        for rank, runner in enumerate(final.arrivals, 1):
            gained = POINTS[rank - 1] if rank <= len(POINTS) else 0
            old = before.get(runner, Standing(runner, _owner(final, runner), 0))
            standings.append(replace(old, score=old.score + gained))
            lines.append(f"{rank}. {runner} +{gained}")
        return tuple(sorted(standings, key=lambda s: (-s.score, s.piece))), lines

    def next_seat(self, seat: Seat, standings: Mapping[str, Standing]) -> Seat | None:
        return seat

    def standing_text(self, rank: int, standing: Standing, leader: Standing) -> str:
        return f"{standing.score} points"


def since(events: Sequence[Event], name: Callable[[str], str]) -> str:
    """What happened since a player last decided: this game's own words (its events are not the
    shipped games' "rode" and "rider"), as a game in a package of its own gives them."""
    return ", ".join(f"{name(str(e.data['runner']))} ran to square {e.data['to']}" for e in events if e.type == "ran")


GAME = Game(
    id=ID,
    title="Dash (test game)",
    piece="runner",
    pieces_noun="runners",
    colours=COLOURS,
    pieces=PieceCount(1, 2, 2),
    players=(2, 3),
    vocabulary=Vocabulary((Field("runner", "text"), Field("to", "text"), Field("pace", "text"))),
    rules=Rules(
        build=build,
        pending=pending,
        choices=choices,
        apply=apply,
        outcome=outcome,
        public_view=public_view,
        turn=lambda state: state.turn,
        events=lambda state: state.events,
        rolled=lambda state: state.dice.rolled(),
    ),
    narration=Narration(
        ask=ask,
        summary=summary,
        announce=lambda state, events: [],
        status=lambda state: [f"{r}: square {sq}" for r, sq in state.at],
        results=lambda state: [f"{p.rank}. {p.piece}" for p in outcome(state).placings],
        piece_name=lambda state, runner: runner,
        help="**Dash**: pick a pace, then move a runner. First past the end wins.",
        since=since,
    ),
    tracks=TrackCatalog(
        names=lambda: list(TRACKS),
        default="dash-8",
        suggestions=lambda: list(TRACKS),
        resolve=lambda name, seed: name if name in TRACKS else _unknown(name),
        hexagons=lambda name: 2,
    ),
    ai=ai,
    seat=seat,
    record_players=record_players,
    check_lobby=lambda seats, runners: None if 2 <= len(seats) <= 3 else "dash needs 2 or 3 players",
    scoring=Points(),
    sample_players=lambda count: [{"id": f"ai{i}", "team": COLOURS[i], "runners": 2} for i in range(count)],
)


def _unknown(name: str) -> str:
    raise ValueError(f"{name[:20]!r} is not a dash track")
