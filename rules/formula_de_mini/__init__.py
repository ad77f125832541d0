"""Formula Dé Mini (../shared/rules/formula-de-mini.txt): in progress, not yet in the game registry.

What exists and what remains is in docs/formula-de-mini-design.md.
"""
