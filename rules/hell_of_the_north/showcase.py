"""What the tools show of Hell of the North with no person playing: the README's picture."""

from __future__ import annotations

from rules.game import Picture, Sample, Showcase

SHOWCASE = Showcase(pictures=(Picture("hell-of-the-north.png", Sample("the default stage")),))
