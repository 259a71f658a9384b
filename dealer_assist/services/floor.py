"""The floor's calls on recorded hands: reveals, disputes, export and import of hand logs."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dealer_assist.engine.base import TableView
from dealer_assist.engine.hand import parse_lines, replay
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.events import Start
from dealer_assist.fees import parse_fee_policy

#: Wrong PINs in a row that lock a user, and for how long.
from dealer_assist.services.approvals import adjustments_subject as approved_adjustments
from dealer_assist.services.base import (
    Approval,
    _body,
)
from dealer_assist.services.chain import canonical
from dealer_assist.services.errors import (
    ApprovalRequired,
    NotFound,
)
from dealer_assist.services.imports import (
    MARK,
    already_imported,
    earlier_fingerprint,
    imported_before,
    log_fingerprint,
)
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.model import (
    Adjustment,
    AuditEntry,
    Dispute,
    Hand,
    NewEvent,
    Session,
    Table,
)
from dealer_assist.services.timecollect import TimeServices
from dealer_assist.settings import (
    parse_table_settings,
    start_params,
)


def _fee_read(fee: object) -> object:
    """A start's fee as the game reads it (every default filled in), to compare a log's with
    the table's; as written when it does not read (then they differ unless identical)."""
    try:
        policy = parse_fee_policy(fee)
    except DealerAssistError:
        return fee
    return None if policy is None else json.loads(canonical(policy.to_json()))


def adjustments_subject(number: int, adjustments: Sequence[Adjustment]) -> str:
    """What the approval of a dispute's adjustments approves, amounts and all ("adjustments in
    hand 12: seat 3 +$4, house -$4"), so the approval entry (and, on PostgreSQL, the ticket
    the approver's PIN gave) is of those adjustments and no others."""
    return approved_adjustments(number, [(a.seat, a.amount) for a in adjustments])


@dataclass(frozen=True, slots=True)
class ExportedLog:
    """A hand's log as exported: its JSON Lines, and the stored events left out of it (each in
    words: its number, seq and why it cannot be read)."""

    text: str
    left_out: tuple[str, ...] = ()


class FloorServices(TimeServices):
    """Reveals, disputes, and hand logs exported and imported."""

    # --- floor: reveal, disputes -------------------------------------------------------------
    def reveal(
        self, session: Session, hand_id: int, *, step: int | None = None, reason: str = "",
    ) -> TableView:
        """A destroyed hand's cards, for the floor only, with the reason they are shown; every
        reveal is logged with it ("hand 8 after event 40: dispute at seat 3")."""
        self._require(session, "reveal", "reveal destroyed hands")
        why = " ".join(reason.split())
        if not why:
            raise BadInput("a reveal needs a reason: say why the hidden cards are shown "
                           "(e.g. dispute at seat 3)")
        rep = self.hand_replay(hand_id)
        hand = self.hand(hand_id)
        at = rep.steps[-1] if step is None else rep.steps[max(1, min(step, len(rep.steps))) - 1]
        self._audit(
            session.name, "reveal", f"hand {hand.number} after event {at.number}: {why}",
            table_id=hand.table_id, hand_id=hand_id,
        )
        return rep.game.view(at.state, reveal=True)

    def reveals(self, hand_id: int) -> list[AuditEntry]:
        """Who revealed the hand, and when."""
        return self.store.audit_log(action="reveal", hand_id=hand_id)

    def record_dispute(
        self,
        session: Session,
        hand_id: int,
        *,
        notes: str,
        ruling: str,
        adjustments: Sequence[Adjustment] = (),
        approval: Approval | None = None,
    ) -> Dispute:
        """The floor records a dispute: notes, the ruling and balancing adjustments (cents).
        Adjustments move money, so they need a second floor person's approval (``approval``:
        name and PIN), never the approval of the floor person entering them: the rule of every
        other approval (:meth:`approve` with the session asking). The approval names the
        adjustments with their amounts, and the dispute's audit entry names its approver."""
        self._require(session, "dispute", "record disputes")
        hand = self.hand(hand_id)
        if not notes.strip() or not ruling.strip():
            raise BadInput("a dispute needs notes and a ruling")
        for a in adjustments:
            if not isinstance(a.amount, int) or isinstance(a.amount, bool):
                raise BadInput("adjustments are whole cents")
        total = sum(a.amount for a in adjustments)
        if total != 0:
            raise BadInput(
                f"the adjustments do not balance (they add up to {total} cents): every cent "
                "paid to one seat comes from another seat or the house"
            )
        approved = ""
        approval_id = None
        if adjustments:
            if approval is None:
                raise ApprovalRequired(
                    f"adjustments in hand {hand.number} need a second floor person's approval: "
                    f"another floor person (not {session.name}) types their name and PIN")
            who = self.approve(approval, what=adjustments_subject(hand.number, adjustments),
                               table_id=hand.table_id, hand_id=hand.id, session=session)
            approved = f"; adjustments approved by {who.name}"
            approval_id = who.entry
        dispute = self.store.add_dispute(
            hand_id=hand.id, notes=notes.strip(), ruling=ruling.strip(), floor=session.name,
            at=self.clock(), adjustments=tuple(adjustments), approval_id=approval_id,
        )
        self._audit(
            session.name, "dispute", f"hand {hand.number}: {ruling.strip()}{approved}",
            table_id=hand.table_id, hand_id=hand.id,
        )
        return dispute

    def disputes(self, hand_id: int | None = None) -> list[Dispute]:
        return self.store.disputes(hand_id)

    # --- export, import, audit ---------------------------------------------------------------
    def export_hand(self, session: Session, hand_id: int) -> str:
        """The hand log (JSON Lines, the replay format, with seq/time/actor/hash); logged."""
        return self.export_hand_log(session, hand_id).text

    def export_hand_log(self, session: Session, hand_id: int) -> ExportedLog:
        """:meth:`export_hand` with the stored events it left out: one whose body cannot be
        read (verify names it) is no line of a log; the rest are exported, and the audit entry
        and ``left_out`` say which were not."""
        self._require(session, "review", "export hands")
        hand = self.hand(hand_id)
        rows = self.store.hand_events(hand_id)
        left_out = tuple(f"event {r.number} (seq {r.seq}) cannot be read: {r.fault}"
                         for r in rows if r.fault)
        kept = [r for r in rows if not r.fault]
        skipped = "" if not left_out else "; left out: " + "; ".join(left_out)
        self._audit(
            session.name, "export", f"hand {hand.number} ({len(kept)} events{skipped})",
            table_id=hand.table_id, hand_id=hand_id,
        )
        text = "".join(json.dumps(r.to_line_json(), ensure_ascii=False) + "\n" for r in kept)
        return ExportedLog(text, left_out)

    def import_hand(self, session: Session, table_id: int, lines: Iterable[str]) -> Hand:
        """Load a hand log into a table (training, disputes), after replaying it in full.

        The log must be of the table's game under one of the table's settings versions (the
        same seats, chip, game settings and fee). The hand is stored whole, with its audit
        entry, in one transaction, in a shift of its own; it is marked imported
        (:attr:`Hand.imported`) and never feeds a live hand's stacks, button or carry-over.
        """
        self._require(session, "configure", "import hands")
        table = self.table(table_id)
        events, numbers = parse_lines(lines)
        if not events:
            raise BadInput("the hand log is empty: nothing was imported")
        if isinstance(events[0], Start):
            self._check_import_settings(table, events[0])
        rep = replay(events, lines=numbers)  # HandLogError names the bad line
        settled = None
        if rep.over:
            settlement = rep.settle()
            if not settlement.conserved:
                raise BadInput("the hand's settlement does not conserve chips: not imported")
            settled = ledger_lines(0, settlement)
        at = self.clock()
        start = rep.start
        bodies = [_body(ev, rep.game if n else None) for n, ev in enumerate(events)]
        fingerprint = log_fingerprint(bodies)
        earlier = earlier_fingerprint(bodies)
        imports = [(e.detail, e.hand_id) for e in self.store.audit_log(action="import")]
        before = imported_before(imports, fingerprint)
        if before is None:  # (an import before the fingerprint used the game's own names)
            before = imported_before(imports, earlier)
        if before is not None:
            raise BadInput(already_imported(self.store.get_hand(before) if before else None))
        hand = self.store.import_hand(
            table_id=table.id, actor=session.name, at=at, game=start.game, seats=start.seats,
            events=[NewEvent(body=body, actor=session.name, time=at) for body in bodies],
            lines=settled, note=f"{len(events)} events imported from a hand log; "
            f"{MARK}{fingerprint}",
        )
        return self.hand(hand.id)

    def _check_import_settings(self, table: Table, start: Start) -> None:
        """The log's start must be what the table would deal: its game, some of its seats, its
        fee, and every other setting the log names as one of the table's settings versions has
        it."""
        versions = self.store.settings_versions(table.id)
        if not versions:
            raise NotFound(f"{table.name} has no settings yet: the floor must set its game")
        current = versions[-1]
        same_game = [v for v in reversed(versions) if v.game == start.game]
        if not same_game:
            raise BadInput(
                f"the hand log is {start.game}, but {table.name} plays {current.game}: import it "
                f"into a {start.game} table; nothing was imported"
            )
        got = json.loads(canonical(start.to_json()))
        problem = ""
        for version in same_game:
            parsed = parse_table_settings(version.document, source=table.name)
            stray = [seat for seat in start.seats if seat not in parsed.seats]
            if stray:
                problem = (f"seat {stray[0]} is not a seat at {table.name} (its seats are "
                           f"{', '.join(map(str, parsed.seats))})")
                continue
            want = json.loads(canonical(start_params(parsed)))
            # every setting the log names must be the table's (a log may leave out one the
            # game defaults); a fee the log takes must be the table's, or none at all, as the
            # game reads it (a fee written before a key had a default, without it, is the same)
            differ = [k for k, v in want.items()
                      if k not in ("type", "seats") and (k in got or k == "fee")
                      and (_fee_read(got.get(k)) != _fee_read(v) if k == "fee"
                           else got.get(k) != v)]
            if "fee" in got and "fee" not in want:
                differ.append("fee")
            if not differ:
                return
            if not problem:
                key = differ[0]
                problem = (f'its "{key}" is {json.dumps(got.get(key))}, {table.name} has '
                           f"{json.dumps(want.get(key))}")
        raise BadInput(
            f"the hand log does not match {table.name}'s settings ({problem}): a hand is "
            "imported only into a table that deals it the same way; nothing was imported"
        )
