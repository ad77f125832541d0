"""A game's race options in the lobby (Hell of the North: how many weather markers): chosen by the
host with /race option, kept in the lobby under ``options``, written into the record's options at the start."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.service.common import Refusal
from bot.storage.lobby import LobbyData
from rules.game import RaceOption
from rules.i18n import _
from rules.registry import AnyGame


def find(game: AnyGame, name: str) -> RaceOption | None:
    """The option named by its id or by its name as players read it."""
    said = name.strip().casefold()
    return next((o for o in game.race_options if said in (o.name, o.shown_name().casefold())), None)


def chosen(lobby: LobbyData) -> dict[str, str]:
    """The host's choices as typed, by option name."""
    raw = lobby.get("options") or {}
    return {str(k): str(v) for k, v in raw.items()}


def with_choice(game: AnyGame, lobby: LobbyData, option: RaceOption, value: str | None) -> LobbyData:
    """The lobby with ``option`` set to ``value`` (None: back to the game's default); a bad value is refused."""
    options = chosen(lobby)
    if value is None or not value.strip():
        options.pop(option.name, None)
    else:
        value = value_id(option.values, option.shown_value, value)
        try:
            option.value(value)
        except ValueError as exc:
            raise Refusal(str(exc)) from None
        options[option.name] = value.strip()
    return {**lobby, "options": options}


def record_options(game: AnyGame, lobby: LobbyData) -> dict[str, Any]:
    """The record's ``options`` for the lobby's choices (options the game no longer offers are left out),
    and the defaults a new race writes for the others."""
    out: dict[str, Any] = defaults(game)
    for name, value in chosen(lobby).items():
        option = find(game, name)
        if option is not None:
            out[name] = option.value(value)
    return out


def defaults(game: AnyGame) -> dict[str, Any]:
    """What a new race writes for the options nobody chose (a lobby, a sim)."""
    return {o.name: o.value(o.default) for o in game.race_options if o.default is not None}


def describe(game: AnyGame, lobby: LobbyData) -> str:
    """The lobby's line of race options, or '' when the game has none."""
    if not game.race_options:
        return ""
    given = chosen(lobby)
    parts = [f"{o.shown_name()}: {_shown(o, given.get(o.name, o.default))}" for o in game.race_options]
    return _("Race options (host, /race option): {options}.", options="; ".join(parts))


def _shown(option: RaceOption, value: str | None) -> str:
    """A chosen value as players read it; none chosen: what a record without it means, else the default."""
    value = value if value is not None else option.usual
    return _("default") if value is None else option.shown_value(value)


def shown_choice(option: RaceOption, lobby: LobbyData) -> str:
    """What the host chose for ``option`` (or its default), as players read it."""
    return _shown(option, chosen(lobby).get(option.name, option.default))


def in_play(game: AnyGame, options: Mapping[str, object]) -> str:
    """A running race's line of race options, as its record has them (/race status), or '' when the
    game has none."""
    if not game.race_options:
        return ""
    parts = []
    for o in game.race_options:
        value = options.get(o.name)
        parts.append(f"{o.shown_name()}: {_shown(o, None if value is None else str(value))}")
    return _("Race options: {options}.", options="; ".join(parts))


def value_id(allowed: Sequence[str], shown: Callable[[str], str], typed: str) -> str:
    """A value's id from what was typed: the id itself, or the value as players read it."""
    said = typed.strip().casefold()
    return next((v for v in allowed if said in (v.casefold(), shown(v).casefold())), typed)
