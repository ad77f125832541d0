"""What the tools show of Hell of the North with no person playing: the README's picture, and a
careful player's standing orders in ``bench pace``."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase

SHOWCASE = Showcase(
    pictures=(Picture("hell-of-the-north.png", Sample("the default stage")),),
    # as in Leader 1: start in the front part and ride there, in the peloton, until the last 2
    # hexagons; chase a breakaway 6 squares out
    habits=(
        ("start-front", None, None, None),
        ("stay", None, "last", 2),
        ("hold", None, "last", 2),
        ("pursue-over", 6, None, None),
    ),
)
