"""The host's choices for the whole race (``Game.race_options``, Peloton's starting order): kept in
the lobby under ``options``, shown on the lobby message, written into the record at the start."""

from __future__ import annotations

from typing import Any

from bot.service.core import Refusal
from rules.game import Game


def chosen(game: Game, lobby: dict[str, Any]) -> dict[str, Any]:
    """Every race option as the record will have it: the host's choice, else the game's default."""
    picked = lobby.get("options") or {}
    return {o.name: picked.get(o.name, o.default) for o in game.race_options}


def choose(game: Game, lobby: dict[str, Any], option: str, value: str | None) -> tuple[dict[str, Any], str]:
    """The lobby with ``option`` set (``value`` None: back to the default), and the reply."""
    known = {o.name: o for o in game.race_options}[option]
    if value is not None and value not in known.values:
        raise Refusal(
            f"{option}: one of "
            + ", ".join(f"{v} ({known.words(v)})" for v in known.values)
            + f"; {value[:40]!r} is not one."
        )
    picked = {k: v for k, v in (lobby.get("options") or {}).items() if k != option}
    if value is not None:
        picked[option] = value
    now = value if value is not None else known.default
    return {**lobby, "options": picked}, f"{known.about}: {now} ({known.words(now)})."


def lines(game: Game, lobby: dict[str, Any]) -> list[str]:
    """The race options on the lobby message, and how the host changes them."""
    out = []
    for o in game.race_options:
        value = chosen(game, lobby)[o.name]
        others = "/".join(v for v in o.values if v != value)
        out.append(f"{o.about}: {value} ({o.words(value)}); the host changes it with /race option {o.name} {others}.")
    return out
