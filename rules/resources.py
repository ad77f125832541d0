"""The data files shipped beside the rules (the top-level ``data`` package), read through
``importlib.resources`` so that an installed wheel finds them as a checkout does."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

PACKAGE = "data"


def game_data(folder: str) -> Traversable:
    """``data/<folder>``: a game's tracks, tiles and dice; ``folder`` is named as the game's rules package."""
    return files(PACKAGE).joinpath(folder)


def json_names(folder: Traversable) -> list[str]:
    """The names (without ``.json``) of the JSON files in ``folder``, sorted."""
    return sorted(f.name.removesuffix(".json") for f in folder.iterdir() if f.is_file() and f.name.endswith(".json"))


def json_file(folder: Traversable, name: str) -> Traversable | None:
    """``folder/<name>.json`` if it is shipped, else None. ``name`` is user text: it is looked up among
    the shipped names, never made into a path."""
    return folder.joinpath(f"{name}.json") if name in json_names(folder) else None


def locale_file(language: str, domain: str) -> Traversable:
    """``data/locale/<language>/LC_MESSAGES/<domain>.po``: a language's message catalog (rules/i18n)."""
    return files(PACKAGE).joinpath("locale", language, "LC_MESSAGES", f"{domain}.po")
