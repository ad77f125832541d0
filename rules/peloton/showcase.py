"""What the tools show of Peloton with no person playing: the README's pictures, a leg race on its
own road and one marked on a board of roads, at the crossroads where the forest road crosses the
ridge: a moment whose hexagons on show the turning does not squeeze (a squeezed one is drawn
straight, without the board's roads around it: ``renderer/peloton/painter.py``, ``laid_out``)."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase

SHOWCASE = Showcase(
    pictures=(
        Picture("peloton.png", Sample("the default leg race")),
        Picture(
            "peloton-board-map.png",
            Sample("a leg race on the bohemia board", stage="leg-ridge-and-river"),
            at=0.49,
            span=0.01,
        ),
    ),
    # each cyclist on the dial's cycle keeping 3 energy for the finish, riding as far as it can
    # or behind a cyclist one hexagon shorter
    habits=(("dial", 3, None, None), ("ride", 1, None, None)),
)
