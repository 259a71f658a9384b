"""The services' sealer on a database: a checkpoint signed with the room's key for each report,
and at each shift close after an incremental verify (``verify --since-checkpoint``) of what came
since the last one. A station without the room's key (:func:`dealer_assist.db.keys.room_key`)
signs nothing and says so: the seal carries why.
"""

from __future__ import annotations

from pathlib import Path

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.checkpoints import Checkpoint, sign_checkpoint
from dealer_assist.db.keys import RoomKey, room_key
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.model import Seal


def seal_of(cp: Checkpoint, message: str = "", ok: bool = True) -> Seal:
    data = cp.data
    heads = tuple((str(t["name"]), int(t["seq"]), str(t["hash"])) for t in data["tables"])
    audit = data.get("audit", {})
    heads += (("audit log", int(audit.get("entries", 0)), str(audit.get("hash", ""))),)
    return Seal(cp.number, cp.fingerprint, message or f"checkpoint {cp.number} signed (key "
                f"{cp.fingerprint})", ok, heads)


class DbSealer:
    """:class:`~dealer_assist.services.ports.Sealer` on ``db`` with the key at ``key_file``
    (None: ``DEALER_ASSIST_KEY`` or the data folder)."""

    def __init__(self, db: Database, key_file: str | Path | None = None) -> None:
        self.db = db
        self.key_file = key_file
        self._key: RoomKey | None = None

    def key(self) -> RoomKey:
        if self._key is None:
            self._key = room_key(self.key_file)
        return self._key

    def checkpoint(self, reason: str) -> Seal:
        try:
            key = self.key()
        except DealerAssistError as exc:
            return Seal(None, message=f"no checkpoint signed: {exc}", ok=False)
        return seal_of(sign_checkpoint(self.db, key, reason=reason))

    def close_of_shift(self, reason: str) -> Seal:
        from dealer_assist.db.verify import verify_database

        try:
            key = self.key()
        except DealerAssistError as exc:
            return Seal(None, message=f"no checkpoint signed: {exc}", ok=False)
        report = verify_database(self.db, key=key, since_checkpoint=True)
        if not report.ok:
            return Seal(None, key.fingerprint, "verify at the shift close: "
                        + report.summary().replace("\n", "; ") + "; no checkpoint signed", False)
        since = (f"since checkpoint {report.since}" if report.since is not None
                 else "in full (no checkpoint before)")
        checked = {"full": True} if report.since is None else {"since": report.since}
        cp = sign_checkpoint(self.db, key, reason=reason, checked=checked)
        return seal_of(cp, f"verified {since}: intact, {report.hands} hands; checkpoint "
                       f"{cp.number} signed (key {cp.fingerprint})")
