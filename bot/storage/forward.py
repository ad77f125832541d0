"""How the one storage object shows its table parts' methods as its own, typed exactly.

``SqlStorage`` (``bot/storage/sql.py``) is composed of table parts, each over the same ``Database``;
the service sees one ``Storage`` protocol. A line ``create_league = Forward(LeagueTables.create_league)``
in ``SqlStorage`` makes ``storage.create_league(...)`` the part's method, bound to the storage's
``LeagueTables`` part: the signature is the part's own (``mypy`` checks it against the protocol),
written once.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class HasParts(Protocol):
    @property
    def parts(self) -> Mapping[str, object]:
        """The storage's table parts, by their class's name."""


class Forward(Generic[T, P, R]):
    """A storage's method that is a table part's method (``method``, defined on the part's class)."""

    def __init__(self, method: Callable[Concatenate[T, P], Coroutine[Any, Any, R]]) -> None:
        self.part, _, self.name = method.__qualname__.rpartition(".")

    def on(self, storage: HasParts) -> Callable[P, Coroutine[Any, Any, R]]:
        """The method, bound to ``storage``'s part (looked up by name: a test may patch it there)."""
        bound: Callable[P, Coroutine[Any, Any, R]] = getattr(storage.parts[self.part], self.name)
        return bound

    @overload
    def __get__(self, storage: None, owner: type[Any]) -> Forward[T, P, R]: ...

    @overload
    def __get__(self, storage: HasParts, owner: type[Any]) -> Callable[P, Coroutine[Any, Any, R]]: ...

    def __get__(
        self, storage: HasParts | None, owner: type[Any]
    ) -> Forward[T, P, R] | Callable[P, Coroutine[Any, Any, R]]:
        return self if storage is None else self.on(storage)

    def __call__(self, storage: HasParts, *args: P.args, **kwargs: P.kwargs) -> Coroutine[Any, Any, R]:
        """Called on the class (``SqlStorage.append_actions(storage, ...)``, as a test wrapping it does)."""
        return self.on(storage)(*args, **kwargs)
