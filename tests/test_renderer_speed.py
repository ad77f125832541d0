"""The renderer under a burst: caches keyed by content and shared safely by threads, a fast
deterministic PNG encoding that keeps the board's colours exact."""

from __future__ import annotations

import io
import threading

from PIL import Image, ImageChops

from renderer import render_board
from renderer.cache import LruCache
from renderer.circuit_board import _LAYERS, render_circuit
from renderer.encode import palette_colours, png_bytes
from renderer.palette import SWATCHES
from renderer.road_layer import _CACHE, road_layer
from rules.road import road_from_inline
from tests.test_renderer import MID_RACE, state_of


def test_equal_roads_share_a_layer_even_as_different_objects() -> None:
    a = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    b = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    assert a is not b
    assert road_layer(a, 20.0) is road_layer(b, 20.0)


def test_two_different_roads_never_share_a_layer() -> None:
    # the same name, the same size: only the content tells them apart
    plain = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    hilly = road_from_inline({"lanes": 3, "profile": "P" * 10 + "M" * 10 + "P" * 10, "finish": 25})
    bent = road_from_inline(
        {"lanes": 3, "profile": "P" * 30, "finish": 25, "bends": [{"row": 5, "rows": 4, "turn": 30}]}
    )
    layers = [road_layer(road, 20.0) for road in (plain, hilly, bent)]
    assert len({id(layer) for layer in layers}) == 3
    assert layers[0].image.tobytes() != layers[1].image.tobytes()
    assert layers[0].image.size != layers[2].image.size or layers[0].image.tobytes() != layers[2].image.tobytes()


def test_a_state_replayed_again_hits_the_road_cache() -> None:
    """What the bot does on every decision: a new state object, loaded again, for the same race."""
    render_board(state_of(MID_RACE))
    misses = _CACHE.misses
    render_board(state_of(MID_RACE))
    assert _CACHE.misses == misses


def test_the_caches_are_bounded() -> None:
    cache: LruCache[int] = LruCache(3)
    for n in range(10):
        cache.get(n, lambda n=n: n * n)
    assert len(cache) == 3
    assert cache.get(9, lambda: -1) == 81  # the most recent ones stay
    assert cache.get(0, lambda: -1) == -1  # the oldest went


def _race(render: object, count: int) -> list[bytes]:
    barrier = threading.Barrier(count)
    out: list[bytes] = [b""] * count

    def work(i: int) -> None:
        barrier.wait()
        out[i] = render()  # type: ignore[operator]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_concurrent_renders_from_threads_give_identical_bytes() -> None:
    _CACHE.clear()  # every thread starts on an empty cache: they race to draw and store the road
    serial = render_board(state_of(MID_RACE))
    _CACHE.clear()
    states = [state_of(MID_RACE) for _ in range(6)]
    results = _race(lambda: render_board(states.pop()), 6)
    assert results == [serial] * 6


def test_concurrent_circuit_renders_give_identical_bytes() -> None:
    from rules.formula_de_mini.setup import build

    players = [{"id": "ann", "team": "red", "cars": 2}, {"id": "bob", "team": "blue", "cars": 2}]

    def fresh() -> bytes:
        return render_circuit(build({"track": "formula-de-mini/island", "players": players, "seed": 4}))

    _LAYERS.clear()
    serial = fresh()
    _LAYERS.clear()
    assert _race(fresh, 6) == [serial] * 6


def test_every_swatch_survives_the_palette_exactly() -> None:
    image = Image.new("RGB", (len(SWATCHES), 1))
    for x, colour in enumerate(SWATCHES):
        image.putpixel((x, 0), colour)
    back = Image.open(io.BytesIO(png_bytes(image))).convert("RGB")
    assert [back.getpixel((x, 0)) for x in range(len(SWATCHES))] == list(SWATCHES)
    assert len(palette_colours()) == 256


def test_the_saved_board_is_the_drawn_board_up_to_antialiasing() -> None:
    """The palette changes only edge pixels a little: most pixels are saved exactly."""
    from renderer.board import render_image

    drawn = render_image(state_of(MID_RACE))
    saved = Image.open(io.BytesIO(png_bytes(drawn))).convert("RGB")
    changed = ImageChops.difference(drawn, saved).point(lambda v: 255 if v else 0).convert("L")
    same = changed.histogram()[0]
    assert same / (drawn.width * drawn.height) > 0.97
