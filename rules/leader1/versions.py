"""Leader 1's rules versions (rules/versions.py): what changed what an action does or costs, and when."""

from __future__ import annotations

from rules.versions import Change, RulesVersion, utc, versions

FEED_CAUGHT = Change(
    "R-FEED-CAUGHT", "a rider the peloton absorbs before a feed-zone token in the move that passes it picks a tile"
)

PELOTON_PASSES = Change(
    "R-PELOTON-PASSES",
    "a fallen or punctured rider stays on its square; only one on the squares the peloton lands on goes behind it",
)

FEED_ONCE = Change(
    "R-FEED-TILES", "a rider draws one feed tile per token, even when the peloton places it back behind the token"
)

VERSIONS = versions(
    "leader1",
    RulesVersion("2026-11", None),
    RulesVersion("2026-12", utc("2026-12-01T16:46:34+00:00"), (FEED_CAUGHT,)),
    RulesVersion("2026-12.2", utc("2026-12-06T07:00:00+00:00"), (PELOTON_PASSES,)),
    RulesVersion("2026-12.3", utc("2026-12-06T07:00:00+00:00"), (FEED_ONCE,)),
    unversioned="2026-12",  # the newest when versions began: what a record without rules means
)
