"""A seeded random number generator whose whole state is one integer kept in the game state.

SplitMix64: tiny, fast, well distributed, and trivially serialisable. ``roll`` is a pure
function: it returns the outcome and the next state instead of mutating anything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MASK64 = (1 << 64) - 1


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31), state


def seed_state(seed: int) -> int:
    """The RNG state for a record's integer seed."""
    return seed & MASK64


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` and the next state (rejection sampling, no bias)."""
    if n <= 0:
        raise ValueError(f"below() needs a positive bound, got {n}")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = _splitmix64(state)
        if value < limit:
            return value % n, state


@dataclass(frozen=True)
class Die:
    """A die as data: its name in records and the outcomes written on its faces."""

    name: str
    faces: tuple[int | str, ...]


@dataclass(frozen=True)
class Dice:
    """The chance part of a game state: RNG state plus scripted outcomes not yet used.

    ``script`` maps a die name to the outcomes still to come; when a die's list is empty
    the seeded RNG takes over (record format, ``dice``).
    """

    state: int
    script: tuple[tuple[str, tuple[int | str, ...]], ...] = ()
    # every outcome so far, in order: a running race can be exported as scripted dice,
    # replayable without handing out the seed (which would foretell the rolls to come)
    history: tuple[tuple[str, int | str], ...] = ()

    @staticmethod
    def new(seed: int, script: dict[str, list[int | str]] | None = None) -> Dice:
        items = tuple((name, tuple(values)) for name, values in sorted((script or {}).items()))
        return Dice(seed_state(seed), items)

    def roll(self, die: Die) -> tuple[int | str, Dice]:
        """Roll ``die``: the next scripted outcome if any, else a seeded face."""
        for index, (name, values) in enumerate(self.script):
            if name == die.name and values:
                script = (*self.script[:index], (name, values[1:]), *self.script[index + 1 :])
                return values[0], replace(self, script=script, history=(*self.history, (die.name, values[0])))
        face, state = below(self.state, len(die.faces))
        return die.faces[face], replace(self, state=state, history=(*self.history, (die.name, die.faces[face])))

    def rolled(self) -> dict[str, list[int | str]]:
        """Every outcome so far by die, in order (a ``dice`` script that replays them)."""
        out: dict[str, list[int | str]] = {}
        for name, value in self.history:
            out.setdefault(name, []).append(value)
        return out

    def roll_int(self, die: Die) -> tuple[int, Dice]:
        value, dice = self.roll(die)
        if not isinstance(value, int):
            raise TypeError(f"die {die.name!r} gave {value!r}, expected a number")
        return value, dice
