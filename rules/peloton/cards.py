"""The 13 time-trial cards (V): energy E, time t in tenths of a second, wind W (rulings R-PEL-CARDS).

The book gives the ranges (E +2 to -2, t +18.4 s to -18.4 s, W 0 to 2) and, in its examples,
the values +9.2, +9.1, -0.2, -9.3 and -18.3: each card's t compensates its E at about 9.2 s a
point, and the small differences break ties between equal cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.i18n import _


@dataclass(frozen=True)
class Card:
    number: int
    energy: int
    tenths: int  # t, in tenths of a second
    wind: int

    @property
    def label(self) -> str:
        return _(
            "card {number}: E {e}, t {time}, W {wind}",
            number=self.number,
            e=f"{self.energy:+d}",
            time=seconds_text(self.tenths),
            wind=self.wind,
        )

    @property
    def words(self) -> str:
        """E, t and W as a player reads them: energy for the ride, seconds on the finish time, the wind value."""
        return _(
            "{energy} energy, {time}, wind {wind}",
            energy=f"{self.energy:+d}",
            time=seconds_text(self.tenths),
            wind=self.wind,
        )


def seconds_text(tenths: int) -> str:
    sign = "+" if tenths >= 0 else "-"
    return f"{sign}{abs(tenths) // 10}.{abs(tenths) % 10} s"


CARDS = (
    Card(1, +2, +184, 0),
    Card(2, +2, +183, 2),
    Card(3, +1, +93, 1),
    Card(4, +1, +92, 0),
    Card(5, +1, +91, 2),
    Card(6, 0, +2, 1),
    Card(7, 0, 0, 0),
    Card(8, 0, -2, 2),
    Card(9, -1, -91, 1),
    Card(10, -1, -92, 2),
    Card(11, -1, -93, 0),
    Card(12, -2, -183, 1),
    Card(13, -2, -184, 1),
)


def card(number: int) -> Card:
    for c in CARDS:
        if c.number == number:
            return c
    raise KeyError(number)


def wind_of(left: list[int]) -> int:
    """The wind from the cards nobody chose: the sum of W on the two highest-numbered ones (0 = no wind)."""
    last_two = sorted(left)[-2:]
    return min(4, sum(card(n).wind for n in last_two))
