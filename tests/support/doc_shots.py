"""The web pages' screenshots in docs/web.md, written by the browser test that takes them when
``DOMESTIQUE_WEB_SHOTS`` names a folder (``docs/images``): small, indexed PNGs."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

SHOTS = "DOMESTIQUE_WEB_SHOTS"
COLOURS = 64  # the pages' few colours, the board's included, read well in 64


def keep_for_docs(shot: bytes, name: str, *, first_screen: int | None = None) -> None:
    """Write ``shot`` (a PNG) as ``name`` in the docs' folder, if one is named: cut to its first
    ``first_screen`` px if given, in a palette of ``COLOURS``."""
    folder = os.environ.get(SHOTS)
    if not folder:
        return
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    if first_screen is not None:
        image = image.crop((0, 0, image.width, min(image.height, first_screen)))
    small = image.quantize(COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(Path(folder) / name, optimize=True)
