"""Leader 1: Hell of the North: the rulebook ../shared/rules/hell-of-the-north.en.md.

It reuses the classic game's road, feed piles, tables (``rules.leader1.ruleset.Ruleset``) and
seeded dice; its turn (five steps, the peloton tile, pursuits), risks, cobbles and weather
are its own modules here.
"""
