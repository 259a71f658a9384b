"""The funds' balances read on the database stores (SQLite and PostgreSQL) in one statement
(``SqlSource.fee_lines``), not hand by hand over the whole history: the same drops, tables and
hands as each hand's latest settlement gives, opening and closing to the cent, and a hand
started after the period's end left out."""

from __future__ import annotations

from datetime import timedelta

from dealer_assist.db.bootstrap import open_services
from dealer_assist.reports.funds import drop_funds
from dealer_assist.reports.sql import sql_source
from dealer_assist.services.model import HandFilter
from tests.reports.room import FAST, Clock, make_room


def test_ruling_fees_jackpot_fund_balances_read_in_one_statement_on_each_store(
        db_url: str) -> None:
    room = make_room(hands=8, svc=open_services(db_url, hasher=FAST, clock=Clock()))
    store = room.store
    assert sql_source(store) is not None  # the database store's own query is what runs
    hands = sorted(store.list_hands(HandFilter(limit=None)), key=lambda h: h.started_at)
    drops = [sum(x.amount for x in store.ledger(h.id) if x.kind == "fee"
                 and x.detail == "jackpot") for h in hands]
    assert sum(drops) > 0
    since, until = hands[3].started_at, hands[6].started_at  # the 4th to the 6th hand
    (fund,), exc = drop_funds(store, since, until)
    assert exc == ()
    assert fund.opening == sum(drops[:3])
    assert [(d.table, d.amount, d.hands) for d in fund.drops] == [
        ("T1", sum(drops[3:6]), sum(1 for d in drops[3:6] if d))]
    assert fund.closing == sum(drops[:6]) and fund.balanced
    (whole,), _ = drop_funds(store, since, hands[-1].started_at + timedelta(seconds=1))
    assert whole.closing == sum(drops)
