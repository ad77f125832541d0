"""The garbage collector's pace in a long-running process: the bot and its board workers.

Almost everything a decision makes (states, choices, events, rows) is freed by reference counting
the moment it is done with; the cyclic collector is only there for cycles, which are rare here.
At Python's default pace (a young collection every 700 container objects allocated and not yet
freed) a burst of 300 decisions ran about 300 young collections and 30 older ones, each walking
the objects the decisions had just made, and sometimes the whole heap: 0.45 ms of the bot's
2.8 ms a decision (``domestique bench bot``; docs/performance.md, "The collector's pace"). One
young collection every 50,000 such objects ran none in four bursts, and a few in a long run.

A process that takes longer to run a collection holds a few more megabytes of garbage cycles
between two, and pauses longer when it does run one (tens of milliseconds, under Discord's three
seconds to answer a click).
"""

from __future__ import annotations

import gc

YOUNG = 50_000  # container objects allocated, and not freed, between two young collections


def pace_collector() -> None:
    """Collect less often: every ``YOUNG`` new container objects (the older generations as before)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)
