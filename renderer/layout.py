"""Where a painter put its labels, tags, discs and offered shapes, in the final image's coordinates.

A board must never draw one label over another, nor cut one at the picture's edge (docs/board.md).
The painters tell this recorder what they place; it keeps nothing unless a test is recording
(``recording``), so drawing a board for the bot costs one test of a global per placement.

Kinds: ``text`` (a string's ink), ``tag`` (a rounded label beside the road), ``disc`` (a piece or
a sign drawn as a disc), ``offer`` (a square or hexagon on offer, with its outline), ``cover`` (a
band drawn over what came before it: the header, the strip, the panel); ``cut`` and ``dropped`` (a
string a painter shortened, or a line it left out, for want of room: what it would have said).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

Point = tuple[float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Placed:
    """One thing a painter placed: its kind, its bounding box (x0, y0, x1, y1), what it says and,
    for an offered shape, its outline."""

    kind: str
    box: Box
    what: str = ""
    outline: tuple[Point, ...] = ()
    ink: Any = field(default=None, compare=False)  # a text's glyph mask (a PIL "L" image), placed at the box


_PLACED: ContextVar[list[Placed] | None] = ContextVar("placed", default=None)  # per thread: boards draw in several


def is_recording() -> bool:
    """Whether a test is recording (a painter may then skip a cache that would hide its placements)."""
    return _PLACED.get() is not None


def draws_on_palette() -> bool:
    """Whether a board draws its one-colour parts straight onto a palette canvas (docs/board.md,
    "Drawn on the palette"): not while a test records placements, which blends every string in
    place, on RGB."""
    return not is_recording()


def place(kind: str, box: Box, what: str = "", ink: Any = None) -> None:
    """Note that a ``kind`` was placed over ``box`` (a text: with its glyph mask ``ink``)."""
    placed = _PLACED.get()
    if placed is not None:
        placed.append(Placed(kind, box, what, ink=ink))


def place_shape(kind: str, outline: Sequence[Point], what: str = "") -> None:
    """Note a shape placed with this ``outline`` (its box is the outline's bounds)."""
    placed = _PLACED.get()
    if placed is not None:
        xs, ys = [p[0] for p in outline], [p[1] for p in outline]
        placed.append(Placed(kind, (min(xs), min(ys), max(xs), max(ys)), what, tuple(outline)))


def place_disc(kind: str, centre: Point, radius: float, what: str = "") -> None:
    placed = _PLACED.get()
    if placed is not None:
        x, y = centre
        placed.append(Placed(kind, (x - radius, y - radius, x + radius, y + radius), what))


def lost(how: str, what: str) -> None:
    """Note that a painter had no room for ``what``: ``cut`` (written shortened), ``dropped`` (not
    written, or part of it not) or ``earlier`` (a whole event of the last turn left out, the later
    ones told). A board must never cut nor drop (issue 38): ``losses`` reports each; ``left_out``
    counts the earlier events, which no language may leave out more of than English."""
    place(how, (0.0, 0.0, 0.0, 0.0), what)


@contextmanager
def recording() -> Iterator[list[Placed]]:
    """Record every placement made inside the block (one board at a time, in one thread)."""
    placed: list[Placed] = []
    token = _PLACED.set(placed)
    try:
        yield placed
    finally:
        _PLACED.reset(token)


# -- what a board must never do (the tests' check) ------------------------------------------------

SLACK = 1.0  # px: boxes that only touch, or share an antialiased edge, do not cover each other


def _meet(a: Box, b: Box, slack: float = SLACK) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _disc_meets_box(disc: Box, box: Box) -> bool:
    cx, cy, r = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 2
    dx = max(box[0] - cx, 0.0, cx - box[2])
    dy = max(box[1] - cy, 0.0, cy - box[3])
    return dx * dx + dy * dy < (r - SLACK) ** 2


def penetration(a: Sequence[Point], b: Sequence[Point]) -> float:
    """How deep two convex outlines overlap (px; 0 or less: apart), by separating axes."""
    depth = math.inf
    for poly in (a, b):
        for p, q in zip(poly, [*poly[1:], poly[0]], strict=True):
            nx, ny = q[1] - p[1], p[0] - q[0]
            length = math.hypot(nx, ny)
            if length < 1e-9:
                continue
            nx, ny = nx / length, ny / length
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
    return depth


def problems(placed: Sequence[Placed], width: int, height: int) -> list[str]:
    """Every way the placements break the board's promise: text over text, an offered shape over
    another, a tag or disc over a tag, a text, tag or offered shape cut by the picture's edge or by a
    band drawn over it later (the header, the strip, the panel, an inset map)."""
    picture: Box = (0.0, 0.0, float(width), float(height))
    covers = [(i, p.box, p.what) for i, p in enumerate(placed) if p.kind == "cover"]
    # a placement wholly off the picture, or wholly under a band drawn later, is not seen
    seen = [
        (i, p)
        for i, p in enumerate(placed)
        if _meet(p.box, picture, 0.0) and not any(j > i and _inside(p.box, box) for j, box, _ in covers)
    ]
    texts = [p for _, p in seen if p.kind == "text"]
    tags = [p for _, p in seen if p.kind == "tag"]
    offers = [p for _, p in seen if p.kind == "offer"]
    discs = [p for p in placed if p.kind == "disc"]
    out: list[str] = []
    for k, a in enumerate(texts):
        out += [f"text over text: {_name(a)} and {_name(b)}" for b in texts[k + 1 :] if _inks_meet(a, b)]
    for k, a in enumerate(tags):
        out += [f"tag over tag: {_name(a)} and {_name(b)}" for b in tags[k + 1 :] if _meet(a.box, b.box)]
    for k, a in enumerate(offers):
        for b in offers[k + 1 :]:
            if _meet(a.box, b.box) and penetration(a.outline, b.outline) > 2 * SLACK and _shapes_meet(a, b):
                out.append(f"offer over offer: {_name(a)} and {_name(b)}")
    out += [f"disc over tag: {_name(d)} and {_name(t)}" for d in discs for t in tags if _disc_meets_box(d.box, t.box)]
    for i, trail in enumerate(placed):  # a trail goes under the pieces: drawn after one, it crosses its number
        if trail.kind == "trail":
            out += [f"trail over a piece: {_name(d)}" for d in placed[:i] if d.kind == "disc" and _crosses(trail, d)]
    for i, offer in seen:  # an offered shape's edge drawn over a text written before it
        if offer.kind == "offer":
            edge = Placed("trail", offer.box, offer.what, (*offer.outline, offer.outline[0]))
            out += [
                f"offer's edge over text: {_name(offer)} and {_name(t)}"
                for j, t in seen
                if j < i and t.kind == "text" and _meet(t.box, offer.box) and _crosses(edge, t, 0.1)
            ]
    for i, p in seen:
        if p.kind not in ("text", "tag", "offer"):
            continue
        if not _inside(p.box, picture):
            out.append(f"{p.kind} cut by the picture's edge: {_name(p)}")
        out += [f"{p.kind} cut by the {what}: {_name(p)}" for j, box, what in covers if j > i and _meet(p.box, box)]
    return out


def losses(placed: Sequence[Placed], width: int, height: int) -> list[str]:
    """Every way the placements lose text (issue 38): a string cut (an ellipsis) or a line dropped for
    want of room, and a string that overflows its box: ink off the picture, or starting on a band (the
    header, the panel) and running out of it."""
    picture: Box = (0.0, 0.0, float(width), float(height))
    out = [f"{p.kind}: {p.what!r}" for p in placed if p.kind in ("cut", "dropped")]
    covers: list[Placed] = []
    for p in placed:
        if p.kind == "cover":
            covers.append(p)
        elif p.kind == "text":
            if p.what.endswith("…"):
                out.append(f"cut: {_name(p)}")
            if not _inside(p.box, picture):
                out.append(f"off the picture: {_name(p)}")
            # the latest band it starts on is its box
            band = next((c for c in reversed(covers) if _meet(p.box, c.box, 0.0) and _starts_in(p.box, c.box)), None)
            if band is not None and not _inside(p.box, band.box):
                out.append(f"out of the {band.what}: {_name(p)}")
    return out


def left_out(placed: Sequence[Placed]) -> int:
    """How many whole earlier events of the last turn the board left out for want of room."""
    return sum(1 for p in placed if p.kind == "earlier")


def _starts_in(box: Box, band: Box) -> bool:
    return band[0] <= box[0] < band[2] and band[1] <= box[1] < band[3]


def _shapes_meet(a: Placed, b: Placed) -> bool:
    """Whether two outlines (convex or not: a corner's space is a ring sector) share more than their
    edges: drawn, each less 2 px all round, they still meet."""
    x0, y0 = math.floor(min(a.box[0], b.box[0])), math.floor(min(a.box[1], b.box[1]))
    size = (math.ceil(max(a.box[2], b.box[2])) - x0 + 1, math.ceil(max(a.box[3], b.box[3])) - y0 + 1)
    masks = []
    for shape in (a, b):
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in shape.outline], fill=255)
        masks.append(mask.filter(ImageFilter.MinFilter(5)))
    return ImageChops.darker(masks[0], masks[1]).getbbox() is not None


def _crosses(trail: Placed, piece: Placed, inset: float = 0.25) -> bool:
    """Whether a trail's line passes over the middle of a piece, where its number is (``inset``: the
    share of the piece's box kept off each side)."""
    w, h = (piece.box[2] - piece.box[0]) * inset, (piece.box[3] - piece.box[1]) * inset
    x0, y0, x1, y1 = piece.box[0] + w, piece.box[1] + h, piece.box[2] - w, piece.box[3] - h
    for a, b in zip(trail.outline, trail.outline[1:], strict=False):
        steps = max(1, int(math.dist(a, b) // 2))
        for k in range(steps + 1):
            x, y = a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps
            if x0 < x < x1 and y0 < y < y1:
                return True
    return False


INK = 96  # a glyph mask's pixel this dark is ink, not antialiasing


def _inks_meet(a: Placed, b: Placed) -> bool:
    """Whether two strings' glyphs share a pixel (their boxes may meet where a descender passes a capital)."""
    if not _meet(a.box, b.box, 0.0):
        return False
    if a.ink is None or b.ink is None:
        return _meet(a.box, b.box)
    x0, y0 = int(max(a.box[0], b.box[0])), int(max(a.box[1], b.box[1]))
    x1, y1 = int(min(a.box[2], b.box[2])), int(min(a.box[3], b.box[3]))
    for y in range(y0, y1):
        for x in range(x0, x1):
            pa = a.ink.getpixel((x - int(a.box[0]), y - int(a.box[1])))
            pb = b.ink.getpixel((x - int(b.box[0]), y - int(b.box[1])))
            if pa >= INK and pb >= INK:
                return True
    return False


def _name(p: Placed) -> str:
    return f"{p.what!r} at {tuple(round(v) for v in p.box)}"
