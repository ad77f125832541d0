"""The renderer under a burst: caches keyed by content and shared safely by threads, a fast
deterministic PNG encoding that keeps the board's colours exact."""

from __future__ import annotations

import io
import threading

from PIL import Image, ImageChops

from renderer.cache import LruCache, track_key
from renderer.encode import palette_colours, png_bytes
from renderer.formula_de_mini.circuit_board import _MAPS, _WHOLE, circuit_key, render_circuit
from renderer.leader1.board import render_board
from renderer.palette import SWATCHES
from renderer.text import _MASKS
from rules.road import road_from_inline
from tests.leader1.test_board import MID_RACE, state_of
from tests.support.pictures import pictures

PLAYERS = [{"id": "ann", "team": "red", "cars": 2}, {"id": "bob", "team": "blue", "cars": 2}]


def _fdm(track: str = "formula-de-mini/island"):  # type: ignore[no-untyped-def]
    from rules.formula_de_mini.setup import build

    return build({"track": track, "players": PLAYERS, "seed": 4})


def test_equal_tracks_share_a_key_even_as_different_objects() -> None:
    a = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    b = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    assert a is not b and track_key(a.track) == track_key(b.track)
    assert circuit_key(_fdm().setup.circuit) == circuit_key(_fdm().setup.circuit)


def test_two_different_tracks_never_share_a_key() -> None:
    # the same name, the same size: only the geometry tells them apart
    plain = road_from_inline({"lanes": 3, "profile": "P" * 30, "finish": 25})
    bent = road_from_inline(
        {"lanes": 3, "profile": "P" * 30, "finish": 25, "bends": [{"row": 5, "rows": 4, "turn": 30}]}
    )
    assert plain.track.name == bent.track.name
    assert track_key(plain.track) != track_key(bent.track)
    assert circuit_key(_fdm().setup.circuit) != circuit_key(_fdm("formula-de-mini/canyon").setup.circuit)


def test_a_state_loaded_again_hits_the_circuit_caches() -> None:
    """What the bot does on every decision: a new state object, loaded again, for the same race."""
    _MAPS.clear()
    _WHOLE.clear()
    render_circuit(_fdm())
    misses = _MAPS.misses + _WHOLE.misses
    render_circuit(_fdm())
    assert _MAPS.misses + _WHOLE.misses == misses
    before = _WHOLE.misses
    render_circuit(_fdm("formula-de-mini/canyon"))  # another circuit: its own entry
    assert _WHOLE.misses == before + 1


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


def test_concurrent_renders_from_threads_give_the_same_picture() -> None:
    serial = render_board(state_of(MID_RACE))
    _MASKS.clear()  # the threads race to render and store the same glyph masks
    states = [state_of(MID_RACE) for _ in range(6)]
    results = _race(lambda: render_board(states.pop()), 6)
    assert pictures(results) == pictures([serial] * 6)


def test_concurrent_circuit_renders_give_the_same_picture() -> None:
    from tests.formula_de_mini.test_board import _fdm_mid_race

    state, options = _fdm_mid_race()
    _MAPS.clear()  # every thread starts on empty caches: they race to draw and store the same entries
    _WHOLE.clear()
    serial = render_circuit(state, highlight=options)
    _MAPS.clear()
    _WHOLE.clear()
    assert pictures(_race(lambda: render_circuit(state, highlight=options), 6)) == pictures([serial] * 6)


def test_every_swatch_survives_the_palette_exactly() -> None:
    image = Image.new("RGB", (len(SWATCHES), 1))
    for x, colour in enumerate(SWATCHES):
        image.putpixel((x, 0), colour)
    back = Image.open(io.BytesIO(png_bytes(image))).convert("RGB")
    assert [back.getpixel((x, 0)) for x in range(len(SWATCHES))] == list(SWATCHES)
    assert len(palette_colours()) == 256


def test_no_blend_of_the_palette_lies_within_a_cell_of_a_swatch() -> None:
    """A blend that close would take the swatch's pixels (Pillow maps a pixel from its 4x4x4 cell)."""
    from renderer.encode import SEPARATION

    swatches = list(dict.fromkeys(SWATCHES))
    colours = palette_colours()
    assert list(colours[: len(swatches)]) == swatches
    blends = list(dict.fromkeys(colours[len(swatches) :]))
    assert len(blends) > 150
    for blend in blends:
        assert blend not in swatches
        assert all(max(abs(a - b) for a, b in zip(blend, s, strict=True)) >= SEPARATION for s in swatches)


def test_the_saved_board_is_the_drawn_board_up_to_antialiasing() -> None:
    """The palette changes only anti-aliased edge pixels, and only a little."""
    from renderer.leader1.board import render_image

    drawn = render_image(state_of(MID_RACE))
    saved = Image.open(io.BytesIO(png_bytes(drawn))).convert("RGB")
    changed = ImageChops.difference(drawn, saved).point(lambda v: 255 if v else 0).convert("L")
    same = changed.histogram()[0]
    assert same / (drawn.width * drawn.height) > 0.9
    error = ImageChops.difference(drawn, saved).convert("L").histogram()
    assert sum(level * count for level, count in enumerate(error)) / (drawn.width * drawn.height) < 1.0
