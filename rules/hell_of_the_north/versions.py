"""Hell of the North's rules versions (rules/versions.py): what changed what an action does or costs, and when."""

from __future__ import annotations

from rules.versions import Change, RulesVersion, utc, versions

CAUGHT_PAYS = Change("R-HOTN-CAUGHT-PAYS", "a rider the peloton catches pays for its place in the peloton")
BOXED_IN = Change("R-HOTN-BOXED-IN", "a rider boxed in rides through an occupied square instead of standing still")
EMPTY = Change("R-HOTN-EMPTY", "the peloton moves its extra square when its last rider drops back by choice")
FEED_CAUGHT = Change(
    "R-HOTN-FEED-CAUGHT", "a rider the peloton catches before a feed marker in the move that passes it draws a tile"
)

DROP_FED = Change("R-HOTN-DROP", "a rider dropping back by choice draws a tile for a feed marker it ends past")

FEED_ONCE = Change(
    "R-HOTN-FEED-CAUGHT", "a rider draws one tile per feed marker, even when the peloton puts it back behind the marker"
)
PELOTON_ARRIVES = Change(
    "R-HOTN-PELOTON-ARRIVES",
    "riders crossing the line in the peloton arrive front part first, then back part, each in marker order",
)

VERSIONS = versions(
    "hell-of-the-north",
    RulesVersion("2026-11", None),
    RulesVersion("2026-12", utc("2026-12-01T16:05:03+00:00"), (CAUGHT_PAYS, BOXED_IN, EMPTY)),
    RulesVersion("2026-12.2", utc("2026-12-01T16:46:34+00:00"), (FEED_CAUGHT,)),
    RulesVersion("2026-12.3", utc("2026-12-06T07:00:00+00:00"), (DROP_FED,)),
    RulesVersion("2026-12.4", utc("2026-12-06T07:00:00+00:00"), (FEED_ONCE, PELOTON_ARRIVES)),
    unversioned="2026-12.2",  # the newest when versions began: what a record without rules means
)
