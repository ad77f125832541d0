"""Names players read, shared by the game's narration and the card draft."""

from __future__ import annotations

DISCIPLINE_NAMES = {"leg": "leg race", "itt": "individual time trial", "ttt": "team time trial"}
WIND_NAMES = {
    0: "no wind",
    1: "wind 1 (from the north)",
    2: "wind 2 (from the east)",
    3: "wind 3 (from the south)",
    4: "wind 4 (from the west)",
}
