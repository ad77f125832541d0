"""Domestique's rules: pure, deterministic game engines and the shared core they use.

Nothing in this package does I/O beyond reading the data files in ``data/``; no clock,
no global random, no Discord, no database, no drawing.
"""

from rules import pickling as _pickling  # noqa: F401  (registers how frozen values pickle)
