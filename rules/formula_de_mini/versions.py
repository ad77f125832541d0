"""Formula Dé Mini's rules versions (rules/versions.py): what changed what an action does or costs, and when."""

from __future__ import annotations

from rules.versions import Change, RulesVersion, utc, versions

SPUN_COLLIDES = Change(
    "R-FDM-SPUN", "a spun-out car is a car on the track: it risks collisions and a blocked-out car may hit it"
)
ELIMINATION_LP = Change(
    "R-FDM-ELIMINATES",
    "a driver whose collision eliminates one or more cars loses one LP and rolls no black die for his own car",
)
THREE_LAPS = Change("R-FDM-LAPS", "a race on a circuit of the box runs 3 laps, not 2, unless its laps option says so")
ENGINE_ANY_MOVE = Change(
    "R-FDM-ENGINE",
    "a 12 in 4th or 20 in 5th tests the other cars in 4th/5th whatever became of the mover, and a spun mover too",
)

VERSIONS = versions(
    "formula-de-mini",
    RulesVersion("2026-11", None),
    RulesVersion("2026-12", utc("2026-12-06T07:00:00+00:00"), (SPUN_COLLIDES, ELIMINATION_LP, THREE_LAPS)),
    RulesVersion("2026-12.2", utc("2026-12-06T07:00:00+00:00"), (ENGINE_ANY_MOVE,)),
    unversioned="2026-11",  # the newest when versions began: what a record without rules means
)
