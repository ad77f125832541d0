"""Formula Dé Mini's rules versions (rules/versions.py): none has changed what an action does yet."""

from __future__ import annotations

from rules.versions import RulesVersion, versions

VERSIONS = versions("formula-de-mini", RulesVersion("2026-11", None), unversioned="2026-11")
