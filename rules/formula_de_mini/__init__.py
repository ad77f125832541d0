"""Formula Dé Mini (../shared/rules/formula-de-mini.txt): circuits, engine, AI.

Progress and design: docs/formula-de-mini-design.md.
"""

from __future__ import annotations

from rules.formula_de_mini.engine import apply, legal_actions, new_race, outcome, pending
from rules.formula_de_mini.setup import build
from rules.formula_de_mini.view import public_view

__all__ = ["apply", "build", "legal_actions", "new_race", "outcome", "pending", "public_view"]
