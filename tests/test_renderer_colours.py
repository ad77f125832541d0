"""Team colours stay apart for colour-blind players: each pair is compared after simulating
protanopia, deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0,
applied to linear RGB) with the CIEDE2000 colour difference."""

from __future__ import annotations

import itertools
import math

import pytest

from renderer.formula_de_mini.circuit_board import CAR_COLOUR
from renderer.palette import PELOTON_TEAM, TEAM

Matrix = tuple[tuple[float, float, float], ...]
MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
THRESHOLD = 20.0  # CIEDE2000: ~2 is just noticeable; 20 is plainly another colour at a glance
LEADER1_TEAMS = ("yellow", "blue", "green", "white", "black")
HOTN_TEAMS = ("black", "white", "green", "orange")
RGB = tuple[float, float, float]


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: RGB, kind: str | None) -> RGB:
    if kind is None:
        return rgb
    lin = [_linear(v) for v in rgb]
    r, g, b = (_gamma(sum(m * x for m, x in zip(row, lin, strict=True))) for row in MACHADO[kind])
    return (r, g, b)


def lab(rgb: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def ciede2000(c1: RGB, c2: RGB) -> float:
    return ciede2000_lab(lab(c1), lab(c2))


def ciede2000_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = math.degrees(math.atan2(b1, a1p)) % 360, math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    dhp = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    theta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbarp, 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * theta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh))


def test_ciede2000_matches_the_published_test_data() -> None:
    """Sharma, Wu & Dalal (2005), pairs 1 and 17; and sRGB anchors (same colour 0, black/white 100)."""
    assert ciede2000_lab((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-3)
    assert ciede2000_lab((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-3)
    assert ciede2000((10, 20, 30), (10, 20, 30)) == 0
    assert 99 < ciede2000((0, 0, 0), (255, 255, 255)) < 101


@pytest.mark.parametrize("vision", [None, *MACHADO])
@pytest.mark.parametrize(
    ("game", "colours"),
    [
        ("leader1", {t: TEAM[t] for t in LEADER1_TEAMS}),
        ("formula-de-mini", dict(CAR_COLOUR)),
        ("hell-of-the-north", {t: TEAM[t] for t in HOTN_TEAMS}),
        ("peloton", dict(PELOTON_TEAM)),
    ],
)
def test_team_colours_stay_apart(game: str, colours: dict[str, tuple[int, int, int]], vision: str | None) -> None:
    for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
        difference = ciede2000(simulate(ca, vision), simulate(cb, vision))
        assert difference >= THRESHOLD, f"{game}: {a} and {b} under {vision or 'normal vision'}: {difference:.1f}"


def test_the_check_catches_the_old_red_and_green_cars() -> None:
    """The colours Formula Dé Mini used before: red and green turned the same olive for deuteranopes."""
    old_red, old_green = (213, 60, 40), (0, 158, 115)
    assert ciede2000(simulate(old_red, "deuteranopia"), simulate(old_green, "deuteranopia")) < THRESHOLD


def test_hell_of_the_norths_teams_are_the_games_own() -> None:
    from rules.hell_of_the_north.game import GAME

    assert set(GAME.colours) == set(HOTN_TEAMS)


def test_the_check_catches_the_shared_red_and_orange_for_eight_teams() -> None:
    """The shared red and orange, which Peloton used before its own palette, fall to 14 apart
    under tritanopia; Peloton's own colours stay near the names players know the teams by."""
    assert ciede2000(simulate(TEAM["red"], "tritanopia"), simulate(TEAM["orange"], "tritanopia")) < THRESHOLD
    for team, colour in PELOTON_TEAM.items():
        assert ciede2000(colour, TEAM[team]) <= 10, team


def test_pelotons_eight_teams_have_their_own_colours_and_numbers() -> None:
    """Every Peloton team has a colour in the tested palette, and the numbers on the discs
    (1-3 the first team, 4-6 the second ...) say the team without colour."""
    from rules.peloton.model import TEAMS

    assert set(PELOTON_TEAM) == set(TEAMS)
    from rules.record import Record, start_state
    from rules.registry import find_game

    game = find_game("peloton")
    _, state = start_state(
        Record(
            game="peloton", track=game.tracks.resolve(game.tracks.default, 1), players=game.sample_players(8), seed=1
        )
    )
    for cyclist in state.cyclists:  # the number says the team, as the board's panel lists it
        assert int(cyclist.id) in range(3 * TEAMS.index(cyclist.team) + 1, 3 * TEAMS.index(cyclist.team) + 4)
