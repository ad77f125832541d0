"""Leader 1 (classic): the rulebook ../shared/rules/leader1.txt, sections A to D."""

from __future__ import annotations

from rules.leader1.engine import apply, legal_actions, new_race, outcome, pending
from rules.leader1.setup import build
from rules.leader1.view import public_view

__all__ = ["apply", "build", "legal_actions", "new_race", "outcome", "pending", "public_view"]
