"""Colours and fonts. Team colours follow the Okabe-Ito colour-blind-safe palette and always
come with a letter; rider types are told by the base ring's colour and a letter too."""

from __future__ import annotations

from functools import cache

from PIL import ImageFont

RGB = tuple[int, int, int]

BACKGROUND: RGB = (236, 240, 232)
PANEL: RGB = (250, 250, 247)
INK: RGB = (30, 30, 30)
MUTED: RGB = (105, 105, 105)
ASPHALT: RGB = (214, 214, 210)
LANE_LINE: RGB = (185, 185, 180)
FALL: RGB = (40, 40, 40)
SPRINT: RGB = (250, 232, 160)
DOT: RGB = (90, 90, 90)

TERRAIN: dict[str, RGB] = {
    "P": (0, 158, 115),  # plain: green border
    "R": (230, 159, 0),  # ground rise: orange border
    "M": (213, 60, 40),  # mountain pass: red border
    "D": (20, 20, 20),  # downhill: black border
}
TERRAIN_NAME = {"P": "plain", "R": "ground rise", "M": "mountain pass", "D": "downhill"}

TEAM: dict[str, RGB] = {
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "green": (0, 158, 115),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
}
TEAM_TEXT: dict[str, RGB] = {
    "yellow": INK,
    "blue": (255, 255, 255),
    "green": (255, 255, 255),
    "white": INK,
    "black": (255, 255, 255),
}
RIDER_RING: dict[str, RGB] = {"rouleur": (0, 158, 115), "leader": (240, 200, 0), "climber": (213, 60, 40)}
RIDER_LETTER = {"rouleur": "R", "leader": "L", "climber": "C"}

HIGHLIGHT_SAFE: RGB = (0, 150, 220)
HIGHLIGHT_RISK: RGB = (204, 121, 167)
PELOTON: RGB = (120, 120, 140)


@cache
def font(size: int = 14) -> ImageFont.FreeTypeFont:
    """Pillow's built-in scalable font: nothing is downloaded or read from the system."""
    loaded = ImageFont.load_default(size=size)
    assert isinstance(loaded, ImageFont.FreeTypeFont)
    return loaded


def rider_label(rider_id: str) -> str:
    """``yellow-rouleur`` -> ``YR``: a short label that does not rely on colour."""
    team, _, kind = rider_id.partition("-")
    return team[:1].upper() + RIDER_LETTER.get(kind, kind[:1].upper())


# Every flat colour drawn anywhere: the PNG palette (renderer.encode) keeps these exact.
SWATCHES: tuple[RGB, ...] = (
    BACKGROUND,
    PANEL,
    INK,
    MUTED,
    ASPHALT,
    LANE_LINE,
    FALL,
    SPRINT,
    DOT,
    *TERRAIN.values(),
    *TEAM.values(),
    *RIDER_RING.values(),
    HIGHLIGHT_SAFE,
    HIGHLIGHT_RISK,
    PELOTON,
    (0, 90, 160),
    (222, 226, 218),
    (226, 232, 220),
    (190, 196, 184),
    (245, 245, 240),
    (200, 200, 200),
    (120, 120, 120),
    (230, 159, 0),
    (170, 170, 165),
    (250, 215, 40),
    (255, 240, 200),
    (255, 255, 255),
    (176, 176, 184),  # the peloton's see-through shade over asphalt
)
