"""Remembering a pure function of a frozen state for the last few states it was asked about.

A state is a large frozen value: hashing or comparing it costs more than most questions
asked of it, and the same state is asked the same question several times in a row (the
engine checks a rider can move, then the AI lists that rider's squares; the AI lists the
legal actions, then ``apply`` lists them again to check the one chosen; the bot lists them
for the prompt, the board and the label). So the key is the state's identity plus the
other arguments. The entry holds the state weakly (an answer never keeps a state, and its
road, alive) and is used only while that very state lives, so a reused id cannot match;
entries are bounded (least recently used dropped) and guarded by a lock, as engines run in
worker threads. Results are handed out
as fresh lists of the same frozen items, so a caller may change its list freely.
"""

from __future__ import annotations

import inspect
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Generic, ParamSpec, TypeVar

T = TypeVar("T")
V = TypeVar("V")
P = ParamSpec("P")
SIZE = 256  # a busy bot interleaves many races between two questions about one state


def by_state_identity(fn: Callable[P, list[T]]) -> Callable[P, list[T]]:
    """``fn(state, *args, **kwargs)`` remembered for its last ``SIZE`` calls (state by identity)."""
    entries: OrderedDict[Hashable, tuple[weakref.ref[object], tuple[T, ...]]] = OrderedDict()
    lock = threading.Lock()
    arguments = _arguments(fn)

    @wraps(fn)
    def remembered(*args: P.args, **kwargs: P.kwargs) -> list[T]:
        state, rest = arguments(args, kwargs)  # f(s, r) and f(s, r, breakaway=False) are one question
        key = (id(state), rest)
        with lock:
            entry = entries.get(key)
            if entry is not None and entry[0]() is state:
                entries.move_to_end(key)
                return list(entry[1])
        result = tuple(fn(*args, **kwargs))
        try:
            ref = weakref.ref(state)
        except TypeError:  # a state that cannot be referenced weakly is not remembered
            return list(result)
        with lock:
            entries[key] = (ref, result)
            entries.move_to_end(key)
            while len(entries) > SIZE:
                entries.popitem(last=False)
        return list(result)

    return remembered


Arguments = Callable[[tuple[object, ...], dict[str, object]], tuple[object, tuple[object, ...]]]


def _arguments(fn: Callable[..., object]) -> Arguments:
    """A call's (first argument, the others in the signature's order, defaults filled in).

    What ``inspect.Signature.bind`` and ``apply_defaults`` give, with the signature read
    once (a remembered listing is asked thousands of times a race); any call the quick
    way does not cover (a wrong one, or a signature with ``*args``) goes through ``bind``.
    """
    signature = inspect.signature(fn)
    params = list(signature.parameters.values())
    names = tuple(p.name for p in params)
    defaults = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
    positional = sum(1 for p in params if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD)
    later = [frozenset(names[n:]) for n in range(len(names) + 1)]
    plain = all(p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params) and params

    def bound(args: tuple[object, ...], kwargs: dict[str, object]) -> tuple[object, tuple[object, ...]]:
        call = signature.bind(*args, **kwargs)  # raises TypeError for a call ``fn`` would refuse
        call.apply_defaults()
        first, *rest = call.arguments.values()
        return first, tuple(rest)

    def quick(args: tuple[object, ...], kwargs: dict[str, object]) -> tuple[object, tuple[object, ...]]:
        given = len(args)
        if given > positional or not later[given].issuperset(kwargs):
            return bound(args, kwargs)
        try:
            values = (*args, *[kwargs[name] if name in kwargs else defaults[name] for name in names[given:]])
        except KeyError:  # an argument without a default is missing
            return bound(args, kwargs)
        return values[0], values[1:]

    return quick if plain else bound


class Recent(Generic[V]):
    """The last ``size`` values by key, each valid only for the object it was computed from.

    For a result that depends on a few plain values plus one large frozen object (a
    circuit): the key holds the plain values and ``owner`` is compared by identity.
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, tuple[object, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, owner: object) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] is not owner:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, owner: object, value: V) -> None:
        with self._lock:
            self._entries[key] = (owner, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
