"""Every services use case that goes through the store port, run again on SQLite and
PostgreSQL (the ``room`` fixture of this folder puts the test cardroom on a real database)."""

from __future__ import annotations

from services import test_services as base

for _name, _func in list(vars(base).items()):
    _code = getattr(_func, "__code__", None)
    if _name.startswith("test_") and _code and "room" in _code.co_varnames[: _code.co_argcount]:
        globals()[_name] = _func
del _name, _func, _code
