"""One PIN tried on a name, counted before it is checked, for a store that keeps the hashes
where the app may read them (a SQLite file, the in-memory store). On PostgreSQL the database
does all of it itself (``da_pin_try``, db/migrations 0009): a station never reads a hash.

A name nobody has (or a disabled one) is counted like a real one, in the store, by name: the
same answer, the same work (a decoy hash is checked), the same lockout, at every station."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from dealer_assist.services.model import PinResult
from dealer_assist.services.ports import PinHasher

_DECOYS: dict[int, str] = {}


def decoy_hash(hasher: PinHasher) -> str:
    """A hash no PIN matches, made once per hasher: checked for a name nobody has, so the try
    costs what a real one costs."""
    key = id(hasher)
    if key not in _DECOYS:
        _DECOYS[key] = hasher.hash("decoy-no-pin-matches")
    return _DECOYS[key]


def counted_try(
    store: Any, name: str, pin: str, hasher: PinHasher, *, now: datetime, limit: int,
    lockout: timedelta,
) -> PinResult:
    """``store`` has ``user_secret``, ``claim_pin_try``, ``pin_try_right`` and
    ``claim_name_try`` (the count of a name nobody has)."""
    secret = store.user_secret(name)
    if secret is None or not secret.user.active:
        claim = store.claim_name_try(name, now=now, limit=limit, lockout=lockout)
        user = secret.user if secret is not None else None
        if not claim.allowed:
            return PinResult("locked", user, claim.failed, claim.locked_until)
        hasher.verify(decoy_hash(hasher), pin)
        return PinResult("wrong", user, claim.failed, claim.locked_until)
    claim = store.claim_pin_try(secret.user.id, now=now, limit=limit, lockout=lockout)
    if not claim.allowed:
        return PinResult("locked", secret.user, claim.failed, claim.locked_until)
    if hasher.verify(claim.pin_hash, pin):
        store.pin_try_right(secret.user.id, locked_until=claim.locked_until)
        return PinResult("right", secret.user, claim.failed)
    return PinResult("wrong", secret.user, claim.failed, claim.locked_until)
