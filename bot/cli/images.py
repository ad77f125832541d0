"""``domestique render --readme-images DIR``: the pictures the README and docs show, drawn the way
the bot draws them (the games' painters through the registry, highlights from the legal choices),
from seeded races, so they can be drawn again whenever a board changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.cli.sim import sample_race
from renderer.recap import painted, render_recap, turn_states
from renderer.registry import paint, paint_standings
from rules.game import Picture
from rules.i18n import Language, _, speaking
from rules.record import Record, start_state
from rules.registry import AnyGame, featured, find_game, games
from rules.shown import track_title


def board(game: str, state: Any, title: str, *, highlight: bool = True) -> bytes:
    """The board as the bot posts it: with the squares of the piece to act and their short names."""
    rules = find_game(game).rules
    decision = rules.pending(state)
    choices = []
    acting: list[str] = []
    if highlight and decision is not None:
        choices = [c for c in rules.choices(state, decision.player) if c.target is not None and c.step is None]
        acting = [decision.piece] if decision.piece else []
    png = paint(game, state, highlight=choices, acting=acting, title=title)
    assert png is not None, f"{game} has no painter"
    return png


def mid_race(record: Record, fraction: float = 0.4, span: float = 0.15) -> Any:
    """A state from ``fraction`` to ``fraction + span`` of ``record`` where the piece to act chooses a
    square: the one with the most squares on offer (the first such state past it, if none)."""
    game, state = start_state(record)
    best: tuple[int, Any] = (0, None)
    count = len(record.actions)
    for index, action in enumerate(record.actions):
        if index >= count * fraction:
            decision = game.rules.pending(state)
            offered = 0
            if decision is not None:
                choices = game.rules.choices(state, decision.player)
                offered = len({c.target for c in choices if c.target is not None and c.step is None})
            if offered > best[0]:
                best = (offered, state)
            if best[1] is not None and index >= count * (fraction + span):
                break
        state, _ = game.rules.apply(state, action)
    return best[1] if best[1] is not None else state


def picture(game: AnyGame, shown: Picture) -> bytes:
    """One of a game's docs pictures, drawn from its sample race."""
    record, final = sample_race(game, shown.sample)
    title = _("Race {number} · {track}", number=1, track=track_title(str(record.track)))
    if shown.moment == "recap":
        return render_recap(turn_states(record), width=480, board=painted(game.id, title))
    if shown.moment == "start":
        return board(game.id, start_state(record)[1], title)
    if shown.moment == "finish":
        return board(game.id, final, title)
    return board(game.id, mid_race(record, shown.at, shown.span), title)


SHOWN_IN: tuple[Language, ...] = ("hu",)  # the README shows the featured board in these too, beside the English


def readme_images(out: Path) -> list[Path]:
    """Draw every game's README and docs pictures (its showcase) into ``out``, and the featured game's
    chosen picture (``Showcase.translated``) in each language of ``SHOWN_IN`` (``board-mid-race-hu.png``);
    returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    for game in games():
        for shown in game.showcase.pictures:
            files[shown.file] = picture(game, shown)
        if game is featured() and game.showcase.pictures:
            pictures = game.showcase.pictures
            first = next((p for p in pictures if p.file == game.showcase.translated), pictures[0])
            stem, dot, ext = first.file.rpartition(".")
            for language in SHOWN_IN:
                with speaking(language):
                    files[f"{stem}-{language}{dot}{ext}"] = picture(game, first)
        if game.showcase.standings:
            title = _("General classification after stage {number}", number=2)
            options = game.showcase.standings_options
            gc = paint_standings(game.id, game.showcase.standings, title=title, options=options)
            assert gc is not None, f"{game.id} has no standings painter"
            files[game.showcase.standings_file] = gc
    written = []
    for name, data in files.items():
        (out / name).write_bytes(data)
        written.append(out / name)
    return written
