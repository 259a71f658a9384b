"""Cheap copies of frozen, slotted state records with a few fields changed.

A hand is a fold over its events, so its state is rebuilt for every event of every replay.
``dataclasses.replace`` re-resolves the fields and re-runs ``__init__`` on each call, which made
it most of the cost of a replay. :func:`setter` writes, once per class and set of changed
fields, a copy function that fills in a plain twin of the class (same slots, so the same
layout) with ordinary attribute stores and then makes it an instance of the class;
:func:`evolver` picks (and makes, the first time) the setter for the fields a call names, and
:func:`builder` does the same for the constructor. Only for plain records: these skip
``__init__`` and ``__post_init__``, so they refuse a class whose constructor checks or derives
anything.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

#: Each record class :func:`replace` has met, with the copy function it uses for it.
_REPLACERS: dict[type[Any], Callable[..., Any]] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``, the same result, at a fraction of its cost for a
    plain frozen, slotted record (through its :func:`evolver`, made the first time the class is
    met); any other dataclass goes to ``dataclasses.replace`` itself. The games' rules call this
    for every event of every replay, so it is the one way they copy a state with changes."""
    cls: type[Any] = obj.__class__
    put = _PUTS.get((cls, *changes))
    if put is not None:  # (the usual call: a class and a set of changed fields met before)
        done: T = put(obj, *changes.values())
        return done
    copy = _REPLACERS.get(cls)
    if copy is None:
        copy = _replace
        params = getattr(cls, "__dataclass_params__", None)
        if params is not None and params.init and all(f.init for f in fields(cls)):
            # (a field outside ``__init__`` or a constructor of its own: replace's way)
            with contextlib.suppress(TypeError):
                copy = evolver(cls)
        _REPLACERS[cls] = copy
    result: T = copy(obj, **changes)
    if copy is not _replace and changes:
        # (the setter the evolver made for these fields, called directly from now on)
        _PUTS[(cls, *changes)] = setter(cls, *changes)
    return result


#: :func:`replace`'s setter for each class and changed fields (in the order named) met before.
_PUTS: dict[tuple[Any, ...], Callable[..., Any]] = {}


def _replace(obj: Any, /, **changes: Any) -> Any:
    """``dataclasses.replace`` itself (a record :func:`evolver` does not take)."""
    return dataclasses.replace(obj, **changes)

def _twin(cls: type[Any], names: tuple[str, ...]) -> type[Any]:
    """A plain class with ``cls``'s slots in the same order, so the same memory layout: a copy is
    filled in as a twin with ordinary (fast) attribute stores, then becomes a ``cls``. The frozen
    ``__setattr__`` guards the finished object, never the one being built."""
    twin = type(f"_{cls.__name__}Twin", (object,), {"__slots__": names})
    probe: Any = object.__new__(twin)
    probe.__class__ = cls  # raises TypeError if the layouts differ
    return twin


def evolver(cls: type[T]) -> Callable[..., T]:
    """A function ``evolve(obj, **changes)`` returning what ``dataclasses.replace`` would for
    ``cls``; an unknown field name raises :class:`TypeError`, as ``replace`` does.

    Each set of changed names gets its own :func:`setter`, made the first time it is asked for:
    the call then costs a dictionary look-up more than the setter itself, where one function
    taking every field as an optional keyword pays for every field on every call."""
    if not is_dataclass(cls) or getattr(cls, "__post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} is not a plain dataclass: use dataclasses.replace")
    names = tuple(f.name for f in fields(cls))
    if not names or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass")
    if not all(name.isidentifier() and not name.startswith("_") for name in names):
        raise TypeError(f"{cls.__name__} has a field name evolver cannot take as a keyword")
    known = frozenset(names)
    setters: dict[tuple[str, ...], Callable[..., T]] = {}
    twin = _twin(cls, names)
    new = object.__new__

    def evolve(obj: T, /, **changes: Any) -> T:
        key = tuple(changes)
        put = setters.get(key)
        if put is None:
            if not changes:
                copy: Any = new(twin)
                for name in names:
                    setattr(copy, name, getattr(obj, name))
                copy.__class__ = cls
                result: T = copy
                return result
            unknown = [name for name in key if name not in known]
            if unknown:
                raise TypeError(
                    f"evolve_{cls.__name__}() got an unexpected keyword argument {unknown[0]!r}"
                )
            put = setters[key] = setter(cls, *key)
        return put(obj, *changes.values())

    evolve.__name__ = f"evolve_{cls.__name__}"
    evolve.__qualname__ = evolve.__name__
    evolve.__doc__ = f"``dataclasses.replace`` for {cls.__name__}, without its per-call cost."
    return evolve


def builder(cls: type[T]) -> Callable[..., T]:
    """A function ``build(*args, **kwargs)`` returning what ``cls(*args, **kwargs)`` would for a
    plain frozen, slotted dataclass, without the frozen ``__init__``'s cost (it writes each field
    through ``object.__setattr__``). A field with a ``default_factory`` left out gets a fresh
    value from the factory, as from the constructor."""
    from dataclasses import MISSING

    if not is_dataclass(cls) or getattr(cls, "__post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} is not a plain dataclass: call it directly")
    all_fields = fields(cls)
    names = tuple(f.name for f in all_fields)
    if not names or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass")
    if not all(f.init and name.isidentifier() and not name.startswith("_")
               for f, name in zip(all_fields, names, strict=True)):
        raise TypeError(f"{cls.__name__} has a field builder cannot take as a parameter")
    scope: dict[str, Any] = {
        "_cls": cls, "_twin": _twin(cls, names), "_new": object.__new__, "_unset": _UNSET,
    }
    params = []
    body = []
    for f in all_fields:
        if f.default is not MISSING:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_unset")
            body.append(f"    if {f.name} is _unset:\n        {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
    body += [f"    _obj.{name} = {name}" for name in names]
    keyword_only = all(f.kw_only for f in all_fields)
    if not keyword_only and any(f.kw_only for f in all_fields):
        raise TypeError(f"{cls.__name__} mixes keyword-only and positional fields")
    signature = ("*, " if keyword_only else "") + ", ".join(params)
    source = (
        f"def build_{cls.__name__}({signature}):\n"
        "    _obj = _new(_twin)\n" + "\n".join(body) + "\n"
        "    _obj.__class__ = _cls\n    return _obj\n"
    )
    exec(compile(source, f"<builder {cls.__qualname__}>", "exec"), scope)
    build: Callable[..., T] = scope[f"build_{cls.__name__}"]
    build.__doc__ = f"``{cls.__name__}(...)``, without the frozen constructor's per-call cost."
    return build


#: The default of a builder's parameter whose field has a ``default_factory``: "not given".
_UNSET: Any = object()


def setter(cls: type[T], *changed: str) -> Callable[..., T]:
    """A function ``put(obj, *values)`` returning ``evolve(obj, **dict(zip(changed, values)))``
    for ``cls``: the fields to change fixed once, so a hot path pays neither keyword matching
    nor a test of every field."""
    if not is_dataclass(cls) or getattr(cls, "__post_init__", None) is not None:
        raise TypeError(f"{cls.__name__} is not a plain dataclass: use dataclasses.replace")
    names = tuple(f.name for f in fields(cls))
    if not names or tuple(getattr(cls, "__slots__", ())) != names:
        raise TypeError(f"{cls.__name__} must be a slotted dataclass")
    unknown = [name for name in changed if name not in names]
    if unknown or len(set(changed)) != len(changed) or not changed:
        raise TypeError(f"{cls.__name__}: cannot set {', '.join(changed)}")
    scope: dict[str, Any] = {"_cls": cls, "_twin": _twin(cls, names), "_new": object.__new__}
    body = [
        f"    _copy.{name} = {name if name in changed else '_obj.' + name}" for name in names
    ]
    source = (
        f"def put_{cls.__name__}(_obj, {', '.join(changed)}, /):\n"
        "    _copy = _new(_twin)\n" + "\n".join(body) + "\n"
        "    _copy.__class__ = _cls\n    return _copy\n"
    )
    exec(compile(source, f"<setter {cls.__qualname__}>", "exec"), scope)
    put: Callable[..., T] = scope[f"put_{cls.__name__}"]
    put.__doc__ = f"``dataclasses.replace`` of {cls.__name__}'s {', '.join(changed)}."
    return put


def replaced(items: tuple[T, ...], i: int, new: T) -> tuple[T, ...]:
    """``items`` with the ``i``-th one replaced by ``new`` (a state's seats or hands, one of
    which an event changes): built through a list, which is quicker than joining slices."""
    work = list(items)
    work[i] = new
    return tuple(work)


def copied(mapping: Mapping[K, V]) -> dict[K, V]:
    """A new plain dict of ``mapping``'s items, for a state's mapping that one event changes.

    ``dict(m)`` and ``{**m}`` of a read-only view (``MappingProxyType``, as the states keep
    their mappings) hash every key again, and a card's hash is Python code: 4 us for a
    52-card pile where the view's own copy takes 0.14 us (its dict's copy keeps the hashes)."""
    if mapping.__class__ is MappingProxyType or mapping.__class__ is dict:
        out = mapping.copy()
        if out.__class__ is dict:
            made: dict[K, V] = out
            return made
    return dict(mapping)
