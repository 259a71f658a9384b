"""Report-data objects built by hand, to test the layout without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dealer_assist.reports.data.lines import DisputeLine, DisputeNote, HandLine, RevealLine
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    FeeTotal,
    Generated,
    Signature,
)
from dealer_assist.reports.data.shift import ShiftReport

T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
GEN = Generated(at=datetime(2026, 11, 22, 2, 0, tzinfo=UTC), by="Alma Floorwalker (floor)")
CHAIN = ChainCheck(table="T1", last_seq=4242, head_hash="ab" * 32, verified=True, message="")
SIGS = (Signature("Dealer", "Dana Dealer"), Signature("Floor", "Frank Floor"),
        Signature("Cage", "Cora Cashier"))


def hand_line(i: int) -> HandLine:
    """Hand ``i``: 8 seats put in 1,600 each (+ champs), 200 rake, 200 jackpot drop."""
    put = 8 * 1600 + (i % 5) * 400
    carry_in = 1200 if i % 7 == 1 else 0
    carry_out = 1200 if i % 7 == 0 else 0
    fees = (FeeTotal("rake", 200, 1), FeeTotal("jackpot", 100, 1))
    pushed = put + carry_in - carry_out - 300
    w1 = pushed * 6 // 10
    w2 = pushed - w1
    return HandLine(
        hand_id=1000 + i, number=i, started_at=T0 + timedelta(minutes=3 * i),
        ended_at=T0 + timedelta(minutes=3 * i + 2), seats=tuple(range(1, 9)), put_in=put,
        carry_in=carry_in, pushed=pushed, carry_out=carry_out, fees=fees,
        winners=((1 + i % 8, w1), (1 + (i + 3) % 8, w2)), voids=1 if i == 3 else 0,
        disputed=i == 5, revealed=i == 5,
    )


def shift_report(n: int = 120) -> ShiftReport:
    hands = tuple(hand_line(i) for i in range(1, n + 1))
    return ShiftReport(
        cardroom="Riverside Card Club", table="T1", game="Champs and Cowards", shift_id=7,
        opened_at=T0, closed_at=T0 + timedelta(minutes=3 * n + 10),
        dealers=("Dana Dealer", "Dmitri Dealerov"), floor=("Frank Floor",), hands=hands,
        chain=CHAIN, generated=GEN, signatures=SIGS,
        voids=(),
        disputes=(DisputeLine(1, 5, T0 + timedelta(minutes=16), "Frank Floor",
                          (DisputeNote(T0 + timedelta(minutes=17), "Frank Floor",
                                       "Seat 3 says the coward was called before the card."),),
                          "Hand stands as dealt.", "Frank Floor", T0 + timedelta(minutes=30)),),
        reveals=(RevealLine(5, T0 + timedelta(minutes=20), "Frank Floor", "dispute 1"),),
        exceptions=(ExceptionLine(9, "settled total differs from the ledger by $2", "mismatch"),),
        ledger_fees=(FeeTotal("rake", 200 * n, n), FeeTotal("jackpot", 100 * n, n)),
    )
