"""What the tools show of Peloton with no person playing: the README's pictures, a leg race on its
own road and one marked on a board of roads (at the crossroads where the forest road crosses the
ridge)."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase

SHOWCASE = Showcase(
    pictures=(
        Picture("peloton.png", Sample("the default leg race")),
        Picture(
            "peloton-board-map.png",
            Sample("a leg race on the bohemia board", stage="leg-ridge-and-river"),
            at=0.5,
            span=0.05,
        ),
    ),
)
