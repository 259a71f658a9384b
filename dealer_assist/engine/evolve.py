"""Cheap copies of frozen, slotted state records with a few fields changed.

A hand is a fold over its events, so its state is rebuilt for every event of every replay.
``dataclasses.replace`` re-resolves the fields and re-runs ``__init__`` on each call, which made
it most of the cost of a replay. :func:`evolver` writes, once per class, a copy function that
sets each slot directly (the way ``dataclasses`` itself writes ``__init__``), about three times
cheaper. Only for plain records: the copy skips ``__init__`` and ``__post_init__``, so it refuses
a class whose constructor checks or derives anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

T = TypeVar("T")

_UNCHANGED: Any = object()


def evolver(cls: type[T]) -> Callable[..., T]:
    """A function ``evolve(obj, **changes)`` returning what ``dataclasses.replace`` would for
    ``cls``; an unknown field name raises :class:`TypeError`, as ``replace`` does."""
    if not is_dataclass(cls) or getattr(cls, "__post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} is not a plain dataclass: use dataclasses.replace")
    names = tuple(f.name for f in fields(cls))
    if not names or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass")
    if not all(name.isidentifier() and not name.startswith("_") for name in names):
        raise TypeError(f"{cls.__name__} has a field name evolver cannot take as a keyword")
    scope: dict[str, Any] = {"_UNCHANGED": _UNCHANGED, "_cls": cls, "_new": object.__new__}
    body = []
    for name in names:
        # The slot's own descriptor writes past the frozen class's __setattr__.
        scope[f"_set_{name}"] = getattr(cls, name).__set__
        body.append(f"    _set_{name}(_copy, _obj.{name} if {name} is _UNCHANGED else {name})")
    params = ", ".join(f"{name}=_UNCHANGED" for name in names)
    source = (
        f"def evolve_{cls.__name__}(_obj, /, *, {params}):\n"
        "    _copy = _new(_cls)\n" + "\n".join(body) + "\n    return _copy\n"
    )
    exec(compile(source, f"<evolver {cls.__qualname__}>", "exec"), scope)
    evolve: Callable[..., T] = scope[f"evolve_{cls.__name__}"]
    evolve.__doc__ = f"``dataclasses.replace`` for {cls.__name__}, without its per-call cost."
    return evolve
