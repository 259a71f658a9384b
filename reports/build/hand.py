"""The hand history and dispute report's data: one hand's events, the table after its key steps
(hidden cards masked unless shown), its settlement and its ledger.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from dealer_assist.engine.hand import replay
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event
from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import (
    clock_at,
    dispute_line,
    game_title,
    named_in_full,
    void_approvals,
)
from dealer_assist.reports.build.figures import events_of, hand_figures
from dealer_assist.reports.data.hand import (
    EventLine,
    HandReport,
    LedgerEntry,
    SeatLine,
    SettlementData,
    Snapshot,
)
from dealer_assist.reports.data.lines import RevealLine
from dealer_assist.reports.data.records import ExceptionLine, Generated, Signature
from dealer_assist.reports.source import find_hand, full_names, person, scan_table
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.reads import Reads

#: At most this many "table after a key step" snapshots in a hand history (the last is the end).
MAX_SNAPSHOTS = 12


_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _card_codes(ev: Event) -> list[str]:
    """The codes of the cards the event says it carries (its own declaration)."""
    return [c.code for c in ev.carried_cards()]


def _pretty_code(text: str) -> str:
    """``10♦`` -> ``Td`` (seat views carry screen forms; reports keep codes)."""
    for sym, letter in _SUITS.items():
        if text.endswith(sym):
            rank = text[: -len(sym)]
            return ("T" if rank == "10" else rank) + letter
    return text


def _voided_text(ev: Event) -> str:
    """What a voided event had said, for the history (it did not count)."""
    seat = f" for seat {ev.seat_of}" if ev.seat_of is not None else ""
    codes = " ".join(_card_codes(ev))
    return f"{ev.TYPE}{seat}{': ' + codes if codes else ''} (voided: it does not count)"


def _mask(text: str, codes: set[str]) -> str:
    if not codes:
        return text
    pat = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(sorted(map(re.escape, codes))) +
                     r")(?![A-Za-z0-9])")
    return pat.sub("[withheld]", text)


def build_hand(
    store: Reads, *, hand_id: int | None = None, table: str | None = None, by: str,
    at: datetime, reveal: RevealLine | None = None, cage: str = "",
) -> HandReport:
    """Hand history of ``hand_id`` (default: the latest hand); with ``reveal`` (a floor
    authorisation already checked and logged by the caller) destroyed hands' cards are shown."""
    hand = find_hand(store, hand_id, table)
    tbl = store.get_table(hand.table_id)
    if tbl is None:
        raise NotFound(f"hand {hand.id} names a table that does not exist")
    names = full_names(store)
    scan = scan_table(store, tbl, [hand.id])
    rows = scan.rows.get(hand.id, [])
    ledger = store.ledger(hand.id)
    approvals = void_approvals(store, {hand.id})
    fig = hand_figures(hand, rows, ledger, names, approvals=approvals)
    exc = list(fig.exceptions)
    if not scan.head.verified:
        exc.insert(0, ExceptionLine(None, f"the event chain failed verification: "
                                    f"{scan.head.message}", "integrity"))
    shift = store.get_shift(hand.shift_id)
    events_out: list[EventLine] = []
    snaps: list[Snapshot] = []
    settlement: SettlementData | None = None
    try:
        rep = replay(events_of(rows))
    except DealerAssistError:
        rep = None
    if rep is not None:
        game = rep.game
        # Seats whose cards end the hand turned down (destroyed, folded) keep them secret
        # throughout; cards that were shown in the end may be printed at every step.
        hidden_seats = set(game.secret_seats(rep.state))
        hidden_codes = {c for step in rep.steps if step.event.seat_of in hidden_seats
                        for c in _card_codes(step.event)}
        show = reveal is not None
        for step, row in zip(rep.steps, rows, strict=False):
            ev = step.event
            secret = ev.seat_of in hidden_seats and bool(_card_codes(ev))
            text = _voided_text(ev) if step.voided else "; ".join(step.lines)
            if not show:
                text = (f"{ev.TYPE} for seat {ev.seat_of}: cards withheld (hand later "
                        "turned down)") if secret else _mask(text, hidden_codes)
            elif secret:
                text += "  [REVEALED]"
            events_out.append(EventLine(
                n=step.number, seq=row.seq, at=utc(row.time), actor=named_in_full(names, row.actor),
                kind=ev.TYPE, text=text, voided=step.voided, hidden=secret and not show))
        snaps = _snapshots(rep, hidden_seats, show, hidden_codes)
        if rep.over:
            s = rep.settle()
            settlement = SettlementData(
                put_in=dict(s.put_in), payouts=dict(s.payouts), carry_in=s.carry_in,
                carry_out=s.carry_out, fees=tuple((f.kind, f.amount, f.from_seat, f.note)
                                                  for f in s.fees),
                steps=tuple((p.n, p.text if show else _mask(p.text, hidden_codes), p.amount)
                            for p in s.steps))
    disputes = tuple(dispute_line(d, hand.number, names) for d in store.disputes(hand.id))
    for d in disputes:  # the same exception the shift and day reports list for this hand
        if d.adjustments:
            moved = sum(a for _, a, _ in d.adjustments if a > 0)
            exc.append(ExceptionLine(d.hand_number, f"dispute {d.dispute_id} ruling moved "
                                     f"{format_cents(moved)} outside the hand's settlement",
                                     "adjustment"))
    dealer = named_in_full(names, hand.started_by)
    floor_user = (reveal.by if reveal is not None else
                  (disputes[-1].ruled_by if disputes else
                   person(names, shift.floor) if shift else ""))
    sigs = [Signature("Dealer", dealer),
            Signature("Floor", floor_user.rsplit(" (", 1)[0] if floor_user else "")]
    if cage:
        sigs.append(Signature("Cage", cage))
    return HandReport(
        cardroom=store.cardroom_name(), table=tbl.name, game=game_title([hand.game]),
        hand_id=hand.id, number=hand.number, shift_id=hand.shift_id,
        started_at=utc(rows[0].time) if rows else utc(hand.started_at),
        ended_at=fig.line.ended_at if fig.line.status != "unfinished" else None,
        dealer=person(names, hand.started_by), events=tuple(events_out),
        snapshots=tuple(snaps), settlement=settlement,
        ledger=tuple(LedgerEntry(x.kind, x.amount, x.seat, x.detail) for x in ledger),
        disputes=disputes, chain=scan.head,
        generated=Generated(utc(at), by, zone=clock_at(store, utc(hand.started_at)).zone),
        signatures=tuple(sigs), revealed=reveal, exceptions=tuple(exc),
    )


def _snapshots(rep: Any, hidden_seats: set[int], show: bool,
               hidden_codes: set[str]) -> list[Snapshot]:
    """The table after key steps: the end of the first phase, whenever a hand is turned down
    or an event voided, and at the end."""
    game = rep.game
    keys: list[tuple[int, str]] = []
    first_phase = game.prompt(rep.steps[0].state).phase
    left_first = False
    down_before: frozenset[int] = frozenset()
    for i, step in enumerate(rep.steps):
        view = game.view(step.state, reveal=True)
        down = frozenset(sv.seat for sv in view.seats if sv.face_down)
        last = i == len(rep.steps) - 1
        label = ""
        if i and not left_first and game.prompt(step.state).phase != first_phase:
            left_first = True
            label = "the first round is complete"
        if down != down_before:
            turned = sorted(down - down_before)
            if turned:
                label = label or ("seat " + ", ".join(map(str, turned)) + " turned down")
        if step.event.TYPE == "void":
            label = label or f"correction: event {step.event.target} voided"
        if last:
            label = "end of the hand" if rep.over else "the hand as it stands (not finished)"
        down_before = down
        if label:
            keys.append((i, label))
    if len(keys) > MAX_SNAPSHOTS:
        keys = keys[: MAX_SNAPSHOTS - 1] + keys[-1:]
    out = []
    for i, label in keys:
        step = rep.steps[i]
        view = game.view(step.state, reveal=True)
        seats = []
        for sv in view.seats:
            secret = sv.seat in hidden_seats
            codes = tuple(_pretty_code(c) for c in sv.cards)
            if secret and not show:
                seats.append(SeatLine(sv.seat, (), withheld=len(codes) + sv.hidden,
                                       status=sv.status, detail="", put_in=sv.put_in))
            else:
                seats.append(SeatLine(sv.seat, codes, face_down=sv.hidden, status=sv.status,
                                       detail=sv.detail if show else _mask(sv.detail,
                                                                           hidden_codes),
                                       put_in=sv.put_in, revealed=secret and show))
        out.append(Snapshot(
            after_event=step.number, label=label, seats=tuple(seats),
            board=tuple(_pretty_code(c) for c in view.board), pots=tuple(view.pots),
            info=tuple(x for x in view.info if not x.startswith("Order"))))
    return out

