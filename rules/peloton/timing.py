"""Timing at the finish (III, V, VI): relative times and group times in a leg race, absolute
times in time trials. Times are whole tenths of a second."""

from __future__ import annotations

from rules.peloton.cards import card
from rules.peloton.model import Cyclist, State

HALF_HEXAGON = 50  # 5 seconds a half hexagon behind the line, in tenths


def relative(state: State, c: Cyclist) -> int | None:
    """A leg race: +1 minute a move after the first finisher's move, -5 s a half hexagon past the line."""
    first = min((x.finish_round for x in state.cyclists if x.finish_round is not None), default=None)
    if c.finish_round is None or first is None:
        return None
    return 600 * (c.finish_round - first) - HALF_HEXAGON * c.past


def group_time(state: State, c: Cyclist) -> int | None:
    """The whole group has one time: the best of those who finished in the same move (R-PEL-GROUP-TIME)."""
    if c.finish_round is None:
        return None
    same = [relative(state, x) for x in state.cyclists if x.finish_round == c.finish_round]
    return min(t for t in same if t is not None)


def moves(c: Cyclist) -> int:
    assert c.finish_round is not None
    return c.finish_round - c.start_round + 1


def individual(state: State, c: Cyclist) -> int | None:
    """A time trial: constant + 1 minute a move - the hexagons past the line + t - 4 s a point of energy left."""
    if c.finish_round is None:
        return None
    t = card(c.card).tenths if c.card else 0
    return 600 * (state.course.constant + moves(c)) - HALF_HEXAGON * c.past + t - 40 * c.energy


def team(state: State, team_colour: str) -> int | None:
    """A team time trial: the team's second cyclist (or its only one) plus the t of every card (VI)."""
    riders = [c for c in state.cyclists if c.team == team_colour]
    done = sorted(
        (c for c in riders if c.finish_round is not None),
        key=lambda c: 600 * moves(c) - HALF_HEXAGON * c.past,
    )
    need = min(2, len(riders))
    if len(done) < need:
        return None
    second = done[need - 1]
    cards = sum(card(c.card).tenths for c in riders if c.card)
    return 600 * (state.course.constant + moves(second)) - HALF_HEXAGON * second.past + cards


def clock(tenths: int) -> str:
    """Absolute time as minutes:seconds.tenths (``35:46.2``, ``117:30.6``)."""
    minutes, rest = divmod(tenths, 600)
    return f"{minutes}:{rest // 10:02d}.{rest % 10}"


def gap(tenths: int) -> str:
    """Relative time as ``-0:35`` or ``+1:40`` (tenths are always whole seconds here)."""
    sign = "-" if tenths < 0 else "+"
    seconds = abs(tenths) // 10
    return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def hours(seconds: int) -> str:
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}"


def leg_total(state: State, c: Cyclist) -> int | None:
    """The group time plus the course's constant, in seconds (4:19:25)."""
    g = group_time(state, c)
    return None if g is None else state.course.constant * 60 + g // 10
