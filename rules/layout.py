"""A state class's layout: what a pickled snapshot of a state depends on.

A snapshot (bot/service/store.py) pickles a race's state; unpickled by code whose state classes
have other fields, it would come back short of a field or with one no longer read, and the race
would carry on from a state nobody played. ``layout`` names every dataclass a state type reaches
through its fields' annotations, each with its fields, as one short digest: a snapshot written
under another digest is never used (the race is rebuilt from its record instead).
"""

from __future__ import annotations

import dataclasses
import hashlib
import typing


def _reached(hint: object) -> list[type]:
    """The classes a type annotation names (``tuple[Rider, ...]``: Rider)."""
    out: list[type] = []
    stack = [hint]
    while stack:
        current = stack.pop()
        if isinstance(current, type):
            out.append(current)
        stack.extend(typing.get_args(current))
        origin = typing.get_origin(current)
        if isinstance(origin, type) and dataclasses.is_dataclass(origin):
            out.append(origin)
    return out


def described(state_type: type) -> str:
    """Every dataclass ``state_type`` reaches, with its fields, as text (sorted by class)."""
    seen: dict[str, str] = {}
    stack: list[type] = [state_type]
    while stack:
        cls = stack.pop()
        name = f"{cls.__module__}.{cls.__qualname__}"
        if name in seen or not dataclasses.is_dataclass(cls):
            continue
        names = [f.name for f in dataclasses.fields(cls)]
        seen[name] = ",".join(names)
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError):  # an annotation that cannot be resolved: its fields' names still count
            hints = {}
        for field_name in names:
            stack.extend(_reached(hints.get(field_name)))
        for base in getattr(cls, "__orig_bases__", ()):  # StateBase[Setup, Rider]: its fields' TypeVars
            stack.extend(_reached(base))
    return ";".join(f"{k}({v})" for k, v in sorted(seen.items()))


_layouts: dict[type, str] = {}


def layout(state_type: type) -> str:
    """A digest of ``state_type``'s dataclass fields and those of every dataclass they reach (worked
    out once per class and process)."""
    found = _layouts.get(state_type)
    if found is None:
        found = _layouts[state_type] = hashlib.sha256(described(state_type).encode("utf-8")).hexdigest()[:16]
    return found


def forget_layouts() -> None:
    """Work every layout out again (a test that changes a class)."""
    _layouts.clear()
