"""Boards compared in tests are compared as pictures, and two that differ are told apart in a few lines."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

from PIL import Image

from renderer.encode import PNG_SIGNATURE, _chunk, png_bytes
from tests.support.pictures import picture, png_difference


def board(dot: tuple[int, int] | None = None) -> Image.Image:
    image = Image.new("RGB", (40, 30), (250, 250, 245))
    if dot is not None:
        image.putpixel(dot, (20, 20, 20))
    return image


def with_zlib(png: bytes) -> bytes:
    """The same PNG, its rows deflated by zlib instead of ISA-L: other bytes, the same picture."""
    ihdr_plte, rest = png[8 : png.index(b"IDAT") - 4], png[png.index(b"IDAT") + 4 :]
    length = int.from_bytes(png[png.index(b"IDAT") - 4 : png.index(b"IDAT")], "big")
    rows = zlib.decompress(rest[:length])
    return PNG_SIGNATURE + ihdr_plte + _chunk(b"IDAT", zlib.compress(rows, 9)) + _chunk(b"IEND", b"")


def test_the_same_picture_compressed_otherwise_is_equal_as_a_picture_and_said_so() -> None:
    png = png_bytes(board())
    other = with_zlib(png)
    assert other != png and picture(other) == picture(png)
    assert png_difference(png, other) == [
        f"two boards differ: a PNG of {len(png):,} bytes and a PNG of {len(other):,} bytes; "
        "the same picture (only the compressed stream differs)"
    ]


def test_a_pixel_that_differs_is_located() -> None:
    png, dotted = png_bytes(board()), png_bytes(board((7, 11)))
    assert picture(png) != picture(dotted)
    said = png_difference(picture(png), picture(dotted))
    assert said is not None and said[0].endswith("pixels differ within the box (7, 11, 8, 12)")
    listed = png_difference([png, png, dotted], [png, png, png])
    assert listed is not None and len(listed) == 2 and listed[1].startswith("  [2]: a PNG of")


def test_other_values_are_left_to_pytest() -> None:
    assert png_difference(b"abc", b"abd") is None
    assert png_difference([1, 2], [1, 3]) is None


FAILING = """
from renderer.encode import png_bytes
from PIL import Image

def test_two_boards():
    a = png_bytes(Image.new("RGB", (300, 200), (250, 250, 245)))
    b = png_bytes(Image.new("RGB", (300, 200), (20, 20, 20)))
    assert [a, a] == [a, b]
"""


def test_a_failed_comparison_of_boards_prints_no_png(tmp_path: Path) -> None:
    """As CI runs it (CI set: pytest prints a failed comparison whole), the report names the test and
    the board that differs, and no PNG's bytes."""
    (tmp_path / "test_boards.py").write_text(FAILING)
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_assertrepr_compare  # noqa: F401\n")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root), "CI": "true"},
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert "two lists of boards differ (2 and 2 items):" in out and "[1]: a PNG of" in out
    assert "pixels differ within the box (0, 0, 300, 200)" in out
    assert "\\x89PNG" not in out and len(out.splitlines()) < 40, out
