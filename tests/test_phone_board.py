"""The board cut for a phone (``renderer.phone``, issue 39): the map without the header and panel,
as narrow as its smallest string needs to read at 11 px on a 400 px screen, around the pieces."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from bot.cli.sim import simulate
from renderer.layout import Placed, recording
from renderer.phone import READABLE, SCREEN, font_size, paint_for_phone
from renderer.registry import paint
from renderer.text import write
from rules.record import replay
from rules.registry import game_ids


@pytest.mark.parametrize("size", [11, 18, 24])
@pytest.mark.parametrize("content", ["KR", "25", "to act: Jo"])
def test_the_font_size_of_a_written_string_is_found_from_its_ink(size: int, content: str) -> None:
    image = Image.new("RGB", (300, 80), "white")
    with recording() as placed:
        write(ImageDraw.Draw(image), (10, 10), content, fill=(0, 0, 0), size=size)
    assert font_size(placed[0]) == size


def _half_way(game: str) -> object:
    record, _ = simulate(game, players=4, seed=5)
    return replay(record.with_actions(record.actions[: len(record.actions) // 2])).state


def _on(box: tuple[int, int, int, int], p: Placed) -> bool:
    return p.box[0] >= box[0] and p.box[2] <= box[2] and p.box[1] >= box[1] and p.box[3] <= box[3]


@pytest.mark.parametrize("game", game_ids())
def test_a_phone_board_reads_at_11_px_and_keeps_the_pieces_it_holds(game: str) -> None:
    state = _half_way(game)
    cut = paint_for_phone(game, state, language="en")
    assert cut is not None
    with recording() as placed:
        whole = paint(game, state, language="en")
    assert whole is not None
    width, height = Image.open(io.BytesIO(whole)).size
    left, top, right, bottom = cut.box
    picture = Image.open(io.BytesIO(cut.png))
    assert picture.size == (right - left, bottom - top)
    assert right - left < width  # narrower than the whole board: the whole board reads at 7 px
    inside = [p for p in placed if p.kind == "text" and _on(cut.box, p)]
    assert inside, "no string on the phone's board"
    smallest = min(font_size(p) for p in inside)
    assert smallest >= cut.smallest
    assert smallest * SCREEN / (right - left) >= READABLE
    # neither the header nor the panel: the page says who acts and the standings in words
    assert top > 0 and bottom < height
    assert not any(p.kind == "text" and p.box[3] <= top for p in inside)
    assert any(p.kind == "disc" and _on(cut.box, p) for p in placed), "no piece on the phone's board"
