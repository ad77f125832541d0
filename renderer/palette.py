"""Colours, fonts and sizes. Every board is designed to be read at 400 px wide (docs/board.md):
it is drawn 960 px wide, so the text that matters is at least READABLE (27 px here, 11 px on a
phone; tests/test_renderer_legibility.py); legends and row numbers are 24 px (10 px).

Colour never works alone: a team is a colour *and* a letter, a rider type is a shape *and* a
letter, a rider's state is a badge letter. Team colours are chosen to stay apart under
protanopia, deuteranopia and tritanopia (tests/test_renderer_colours.py checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.resources import files
from io import BytesIO

from PIL import ImageFont

from rules.i18n import pgettext

RGB = tuple[int, int, int]

WIDTH, HEIGHT = 960, 800  # every board; Discord shows it ~400 px wide on a phone (2.4x smaller)
SMALL, TEXT, LARGE, TITLE = 24, 28, 32, 34  # font sizes at 960 px: 10, 11.7, 13.3, 14 px at 400 px
PHONE_WIDTH = 400  # the width a board is seen at in the chat on a phone
READABLE_PX = 11.0  # the least size (px at PHONE_WIDTH) of the text that matters: names, who acts, key lines
READABLE = 27  # that size in px at WIDTH: 27 x 400 / 960 = 11.25


def phone_px(size: float, width: int = WIDTH) -> float:
    """A font size in px on an image ``width`` wide, as seen at ``PHONE_WIDTH`` px wide."""
    return size * PHONE_WIDTH / width


BACKGROUND: RGB = (236, 240, 232)
PANEL: RGB = (250, 250, 247)
INK: RGB = (30, 30, 30)
MUTED: RGB = (90, 90, 90)
WHITE: RGB = (255, 255, 255)
ASPHALT: RGB = (214, 214, 210)
LANE_LINE: RGB = (170, 170, 165)
FALL: RGB = (60, 60, 60)
SPRINT: RGB = (250, 232, 160)
DOT: RGB = (90, 90, 90)
TILE: RGB = (226, 232, 220)
TILE_EDGE: RGB = (190, 196, 184)
ACT: RGB = (200, 0, 130)  # the marker on the piece(s) to act now: a ring and an arrow, never colour alone
ACT_TEXT: RGB = (0, 90, 160)

TERRAIN: dict[str, RGB] = {
    "P": (0, 158, 115),  # plain: green border
    "R": (230, 159, 0),  # ground rise: orange border
    "M": (213, 60, 40),  # mountain pass: red border
    "D": (20, 20, 20),  # downhill: black border
}

# Team colours (both games), tested under colour-vision-deficiency simulations.
TEAM: dict[str, RGB] = {
    "yellow": (235, 195, 0),
    "blue": (30, 70, 130),
    "green": (50, 170, 135),
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "red": (160, 20, 30),
    "orange": (200, 90, 0),  # Hell of the North's fourth team
    "grey": (104, 104, 104),  # Peloton's eight teams: too many to keep apart by colour, so numbers too
}
TEAM_TEXT: dict[str, RGB] = {
    "yellow": INK,
    "blue": WHITE,
    "green": INK,
    "white": INK,
    "black": WHITE,
    "red": WHITE,
    "orange": WHITE,
    "grey": WHITE,
}
RIDER_LETTER = {"rouleur": "R", "leader": "L", "climber": "C"}
RIDER_SHAPE = {"rouleur": "circle", "leader": "square", "climber": "triangle"}

# Peloton's eight teams, each near the colour it is named after: every pair stays 20 CIEDE2000 apart
# under normal vision and simulated protanopia, deuteranopia and tritanopia (the shared TEAM
# colours fall to 14 for red and orange under tritanopia); the cyclist's number says the team too.
PELOTON_TEAM: dict[str, RGB] = {
    "grey": (99, 96, 98),
    "red": (129, 28, 5),
    "blue": (0, 84, 196),
    "green": (82, 175, 146),
    "white": (255, 255, 255),
    "yellow": (255, 203, 18),
    "black": (0, 0, 0),
    "orange": (188, 112, 19),
}

HIGHLIGHT_SAFE: RGB = (0, 120, 200)
HIGHLIGHT_RISK: RGB = (204, 121, 167)
PELOTON: RGB = (150, 150, 165)
TRAIL: RGB = (60, 60, 60)
FLAG: RGB = (250, 215, 40)
KERB: RGB = (213, 60, 40)
PIT: RGB = (170, 170, 165)
COBBLES: RGB = (181, 150, 110)  # Hell of the North's cobbled squares (with a dot pattern)
COBBLE_DOT: RGB = (110, 80, 50)
WEATHER: RGB = (30, 70, 130)
UP: RGB = (240, 200, 150)  # Peloton's uphill and downhill hexagons (their speed in words too)
DOWN: RGB = (170, 205, 230)


# DejaVu Sans, shipped in renderer/fonts/ (its licence beside it): Pillow's built-in face has no
# ő ű ě ř ů, and the boards are drawn in Hungarian and Czech too (tests/test_font_glyphs.py).
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@cache
def font_bytes(bold: bool = False) -> bytes:
    """The shipped font file (regular or bold), read once from the package: nothing from the system."""
    return files("renderer").joinpath("fonts", FONT_FILES[bold]).read_bytes()


@cache
def font(size: int = TEXT, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The boards' font at ``size`` px."""
    return ImageFont.truetype(BytesIO(font_bytes(bold)), size=size)


def team_of(piece_id: str) -> str:
    return piece_id.split("-")[0]


def rider_label(rider_id: str) -> str:
    """``yellow-rouleur`` -> ``YR``: a short label that does not rely on colour, built from the words of
    the language of the moment (the catalogs' ``piece code`` entries: Hungarian ``SI``, sárga irammenő;
    Czech ``ŽR``, žlutý rovinář), so the board says what the prompts say."""
    team, _sep, kind = rider_id.partition("-")
    kind_code = _KIND_CODE.get(kind)
    return team_code(team) + (kind_code() if kind_code is not None else RIDER_LETTER.get(kind, kind[:1].upper()))


def team_code(team: str) -> str:
    """A team's letter in a piece's code, from the colour's word in the language of the moment (``Y``,
    hu ``S`` sárga, cs ``Ž`` žlutý); a car's code is it and the car's number (``R1``)."""
    code = _TEAM_CODE.get(team)
    return code() if code is not None else team[:1].upper()


# a team's and a rider type's letters in a piece's code, each language's from its own words
_TEAM_CODE: dict[str, Callable[[], str]] = {
    "yellow": lambda: pgettext("piece code: yellow", "Y"),
    "blue": lambda: pgettext("piece code: blue", "B"),
    "green": lambda: pgettext("piece code: green", "G"),
    "white": lambda: pgettext("piece code: white", "W"),
    "black": lambda: pgettext("piece code: black", "K"),
    "orange": lambda: pgettext("piece code: orange", "O"),
    "red": lambda: pgettext("piece code: red", "R"),
    "grey": lambda: pgettext("piece code: grey", "G"),
}
_KIND_CODE: dict[str, Callable[[], str]] = {
    "rouleur": lambda: pgettext("piece code: rouleur", "R"),
    "leader": lambda: pgettext("piece code: leader", "L"),
    "climber": lambda: pgettext("piece code: climber", "C"),
}


# Every flat colour drawn anywhere: the PNG palette (renderer.encode) keeps these exact.
SWATCHES: tuple[RGB, ...] = (
    BACKGROUND,
    PANEL,
    INK,
    MUTED,
    WHITE,
    ASPHALT,
    LANE_LINE,
    FALL,
    SPRINT,
    DOT,
    TILE,
    TILE_EDGE,
    ACT,
    ACT_TEXT,
    *TERRAIN.values(),
    *TEAM.values(),
    *PELOTON_TEAM.values(),
    HIGHLIGHT_SAFE,
    HIGHLIGHT_RISK,
    PELOTON,
    TRAIL,
    FLAG,
    KERB,
    PIT,
    COBBLES,
    COBBLE_DOT,
    WEATHER,
    UP,
    DOWN,
    (226, 226, 236),
    (140, 60, 200),
    (0, 150, 70),
    (230, 159, 0),
    (255, 240, 200),
    (200, 200, 200),
)
