"""Peloton's rules versions (rules/versions.py): what changed what an action does or costs, and when."""

from __future__ import annotations

from rules.versions import Change, RulesVersion, utc, versions

TRIAL_HEADWIND = Change(
    "R-PEL-HEADWIND", "no shelter from a headwind in a time trial (a team trial's only behind a team-mate)"
)
OVERSPEED = Change("R-PEL-OVERSPEED", "riding into a turning too fast is a move that falls, not a refusal")

VERSIONS = versions(
    "peloton",
    RulesVersion("2026-11", None),
    RulesVersion("2026-12", utc("2026-12-01T16:05:03+00:00"), (TRIAL_HEADWIND, OVERSPEED)),
    unversioned="2026-12",  # the newest when versions began: what a record without rules means
)
