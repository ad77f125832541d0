"""Text fitted to the room a painter has for it: a board keeps every line in every language (issue 38).

A string too wide for its room is noted to ``renderer.layout`` (``lost``), so a recording test sees it.
"""

from __future__ import annotations

from renderer import layout
from renderer.text import text_length


def clipped(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to ``width`` px (noted as lost when it is cut)."""
    if text_length(text, size, bold) <= width:
        return text
    layout.lost("cut", text)
    while text and text_length(text, size, bold) > width:
        text = text[:-2] + "…"
    return text
