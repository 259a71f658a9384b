"""PIN hashing with argon2 (argon2-cffi). PINs are never stored, only their argon2id hashes."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError


class Argon2PinHasher:
    """The production :class:`~dealer_assist.services.ports.PinHasher`.

    ``fast=True`` uses the smallest argon2 cost, for tests and demo data only.
    """

    def __init__(self, *, fast: bool = False) -> None:
        self._ph = (
            PasswordHasher(time_cost=1, memory_cost=8, parallelism=1) if fast else PasswordHasher()
        )

    def hash(self, pin: str) -> str:
        return self._ph.hash(pin)

    def verify(self, pin_hash: str, pin: str) -> bool:
        try:
            return self._ph.verify(pin_hash, pin)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def argon2_with(prefix: str, pin: str) -> str:
    """The argon2id hash of ``pin`` under ``prefix`` (``$argon2id$v=19$m=…,t=…,p=…$<salt>``:
    the parameters and salt of a stored hash), in the encoded form :meth:`Argon2PinHasher.hash`
    gives. On PostgreSQL the database hands out only that prefix, takes this hash and checks it
    against what it stores (the bcrypt of its sha256): a station never holds a PIN hash."""
    import base64

    from argon2.low_level import Type, hash_secret

    try:
        _, kind, version, params, salt = prefix.split("$")
        cost = dict(p.split("=", 1) for p in params.split(","))
        raw = base64.b64decode(salt + "=" * (-len(salt) % 4))
        return hash_secret(
            pin.encode("utf-8"), raw, time_cost=int(cost["t"]), memory_cost=int(cost["m"]),
            parallelism=int(cost["p"]), hash_len=32,
            type={"argon2id": Type.ID, "argon2i": Type.I, "argon2d": Type.D}[kind],
            version=int(version.split("=", 1)[1]),
        ).decode("ascii")
    except (ValueError, KeyError, TypeError):
        return ""
