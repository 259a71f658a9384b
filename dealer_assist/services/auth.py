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
