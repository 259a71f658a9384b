"""The room's signing key: Ed25519, in a file outside the database.

The private key lives in a PEM file that the app's OS user can read (mode 0600) and the
database cannot: whoever can only change the database cannot sign a checkpoint. Only
``dealer-assist keys init`` makes one: a station whose key is missing, unreadable, not a key, or
readable by other users of the machine says so and signs nothing (a key made silently would
sign checkpoints that the room's real key then calls forged). Its path: ``--key FILE``, else
``DEALER_ASSIST_KEY``, else ``room-key.pem`` in the
user's data folder. The public key's fingerprint (the first 32 hex digits of the sha256 of its
raw bytes, in groups of four) is printed on every report.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from dealer_assist.errors import BadInput

ENV_KEY = "DEALER_ASSIST_KEY"
KEY_FILE = "room-key.pem"


def key_path(explicit: str | Path | None = None) -> Path:
    """Where the room's key is: ``explicit``, ``DEALER_ASSIST_KEY``, or the data folder."""
    chosen = explicit or os.environ.get(ENV_KEY)
    if chosen:
        return Path(chosen).expanduser()
    if os.environ.get("DEALER_ASSIST_NO_USER_DB"):
        raise BadInput(
            "no signing key given: pass --key FILE or set DEALER_ASSIST_KEY (the user's data "
            "folder is switched off here by DEALER_ASSIST_NO_USER_DB)"
        )
    from platformdirs import user_data_dir

    return Path(user_data_dir("dealer-assist")) / KEY_FILE


def fingerprint_of(raw_public: bytes) -> str:
    """The key id: the sha256 of the raw public key, in hex (64 digits)."""
    return hashlib.sha256(raw_public).hexdigest()


def show_fingerprint(key_id: str) -> str:
    """The printed fingerprint: the key id's first 32 hex digits in groups of four."""
    return " ".join(key_id[i:i + 4] for i in range(0, min(32, len(key_id)), 4))


@dataclass(frozen=True)
class RoomKey:
    """The room's public key, with its private half when this station holds the key file."""

    public: Ed25519PublicKey
    private: Ed25519PrivateKey | None = None
    path: Path | None = None

    @property
    def raw_public(self) -> bytes:
        return self.public.public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)

    @property
    def public_hex(self) -> str:
        return self.raw_public.hex()

    @property
    def key_id(self) -> str:
        return fingerprint_of(self.raw_public)

    @property
    def fingerprint(self) -> str:
        return show_fingerprint(self.key_id)

    def sign(self, data: bytes) -> str:
        if self.private is None:
            raise BadInput("this station has only the room's public key: it cannot sign")
        return self.private.sign(data).hex()

    def verifies(self, signature: str, data: bytes) -> bool:
        try:
            self.public.verify(bytes.fromhex(signature), data)
        except (InvalidSignature, ValueError):
            return False
        return True

    @classmethod
    def from_public_hex(cls, text: str) -> RoomKey:
        try:
            return cls(Ed25519PublicKey.from_public_bytes(bytes.fromhex(text)))
        except ValueError as exc:
            raise BadInput(f"not an Ed25519 public key: {exc}") from exc


def load_key(path: Path) -> RoomKey:
    """Read the key file, refused clearly when it is missing, not a key, or open to others."""
    try:
        if path.is_dir():
            raise BadInput(f"{path} is a folder, not the room's signing key: give the key "
                           "file with --key FILE")
        mode = path.stat().st_mode
    except FileNotFoundError as exc:
        raise BadInput(f"this station has no room key (none at {path}): `dealer-assist keys "
                       "init` makes the room's key once; copy it to each station that signs "
                       "(mode 600), or point --key / DEALER_ASSIST_KEY at it") from exc
    except OSError as exc:
        raise BadInput(f"cannot read the signing key {path}: {exc.strerror or exc}") from exc
    if mode & 0o077:
        raise BadInput(f"the signing key {path} can be read by other users of this machine "
                       f"(mode {mode & 0o777:o}): run `chmod 600 {path}`; nothing was signed")
    try:
        with path.open("rb") as f:
            data = f.read(MAX_KEY_BYTES + 1)
    except PermissionError as exc:
        raise BadInput(f"cannot read the signing key {path}: run as the app's user") from exc
    except OSError as exc:
        raise BadInput(f"cannot read the signing key {path}: {exc.strerror or exc}") from exc
    try:
        if len(data) > MAX_KEY_BYTES:
            raise ValueError("too long")
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise BadInput(f"{path} is not a signing key (an Ed25519 PEM file)") from exc
    except Exception as exc:  # (the PEM parser's own errors for a damaged file)
        raise BadInput(f"{path} is not a signing key (an Ed25519 PEM file)") from exc
    if not isinstance(private, Ed25519PrivateKey):
        raise BadInput(f"{path} is not an Ed25519 key")
    return RoomKey(private.public_key(), private, path)


#: A PEM Ed25519 key is about 120 bytes; anything far larger is not one.
MAX_KEY_BYTES = 16 * 1024


def create_key(path: Path) -> RoomKey:
    """A new key in ``path`` (mode 0600); an existing file is never overwritten."""
    if path.is_dir():
        raise BadInput(f"{path} is a folder: name the key file, like {path / KEY_FILE}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInput(f"cannot make the folder {path.parent}: {exc.strerror or exc}") from exc
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as exc:
        raise BadInput(f"{path} exists already: the room keeps one key") from exc
    except OSError as exc:
        raise BadInput(f"cannot write the key {path}: {exc.strerror or exc}") from exc
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    os.chmod(path, 0o600)  # whatever the umask
    return RoomKey(private.public_key(), private, path)


def room_key(explicit: str | Path | None = None) -> RoomKey:
    """The room's key from its file; never made here (``keys init`` is the one way): a
    missing, unreadable or wrong key raises :class:`BadInput` saying so."""
    return load_key(key_path(explicit))
