"""The audit report's data: the audit-log entries of a window in words, every chain re-checked,
the rules re-verified and each fund's drops compared with the hands' replay.
"""

from __future__ import annotations

import re
from datetime import datetime

from dealer_assist.reports.build.common import chain_heads, named_in_full, number_ranges, room_zone
from dealer_assist.reports.data.audit import AuditLine, AuditReport
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    Generated,
    Signature,
    table_label,
)
from dealer_assist.reports.funds import drop_funds
from dealer_assist.reports.source import full_names, person
from dealer_assist.services.audit_chain import check_audit_chain
from dealer_assist.services.chain import utc
from dealer_assist.services.model import AuditEntry as StoredAudit
from dealer_assist.services.reads import Reads


def build_audit(
    store: Reads, *, since: datetime, until: datetime, by: str, at: datetime,
    signer: str = "",
) -> AuditReport:
    """The sensitive-actions log for ``[since, until)``."""
    names = full_names(store)
    roles = {u.name: u.role for u in store.list_users()}
    tables = {t.id: t for t in store.list_tables()}
    hand_no: dict[int, int] = {}

    def target(e: StoredAudit) -> str:
        parts = []
        if e.table_id is not None and e.table_id in tables:
            parts.append(table_label(tables[e.table_id].name))
        if e.hand_id is not None:
            if e.hand_id not in hand_no:
                h = store.get_hand(e.hand_id)
                hand_no[e.hand_id] = h.number if h else e.hand_id
            parts.append(f"hand {hand_no[e.hand_id]}")
        return ", ".join(parts)

    floors = dict.fromkeys(e.actor for e in store.audit_log(since=since, until=until)
                           if e.actor and roles.get(e.actor) == "floor")
    floor_sigs = tuple(Signature("Floor", named_in_full(names, f)) for f in floors) or (
        Signature("Floor", ""),)
    entries = tuple(
        AuditLine(utc(e.at), person(names, e.actor), roles.get(e.actor or "", ""), e.action,
                   _subject(e.action, target(e), e.detail),
                   _named(_detail(e.action, e.detail), names),
                   e.seq or e.id)
        for e in sorted(store.audit_log(since=since, until=until), key=lambda e: (e.seq, e.at,
                                                                                  e.id))
    )
    every = store.audit_log(records=True)
    inside = [e for e in every if utc(since) <= utc(e.at) < utc(until)]
    by_kind: dict[str, list[int]] = {}
    for e in inside:
        if e.action.startswith("record-"):
            by_kind.setdefault(e.action, []).append(e.seq or e.id)
    records = tuple((k, len(v), number_ranges(v)) for k, v in sorted(by_kind.items()))
    seen = sorted({e.seq or e.id for e in inside})
    missing = ([n for n in range(seen[0], seen[-1] + 1) if n not in set(seen)]
               if seen else [])
    head = store.audit_head()
    check = check_audit_chain(every, head)
    audit_chain = ChainCheck("audit log", head.entries, head.hash, check.ok,
                            check.problem or f"{check.entries} entries re-checked")
    funds, fund_exc = drop_funds(store, since, until)
    exceptions = (*fund_exc, *_rule_exceptions(store, since, until))
    return AuditReport(
        cardroom=store.cardroom_name(), period_from=utc(since), period_to=utc(until),
        entries=entries, chains=chain_heads(store, tables.values()), audit_chain=audit_chain,
        generated=Generated(utc(at), by, zone=room_zone(store)),
        signatures=(Signature("Auditor", signer), *floor_sigs),
        records=records, gaps=number_ranges(missing),
        drop_funds=funds, exceptions=exceptions,
    )


def _rule_exceptions(store: Reads, since: datetime, until: datetime) -> list[ExceptionLine]:
    """The rules enforced at input, re-checked as ``verify`` does: each breach whose record
    falls in the period, named with its records."""
    from dealer_assist.services.rulecheck import rule_findings, rule_records

    return [ExceptionLine(None, f"{f.rule}: {f.text}", "rule")
            for f in rule_findings(rule_records(store))
            if utc(since) <= utc(f.at) < utc(until)]


def _detail(action: str, detail: str) -> str:
    """An entry's detail in words (a count or the room clock is stored as JSON)."""
    from dealer_assist.services.room import describe_entry

    said = describe_entry(action, detail)
    return detail if said is None else said


_APPROVED_BY = re.compile(r"(approved by |floor )([a-z0-9_.-]+)\b")


def _named(detail: str, names: dict[str, str]) -> str:
    """A detail naming a person by sign-in name ("approved by fran", "floor fran") with the
    full name too, as everywhere else in the reports."""
    return _APPROVED_BY.sub(
        lambda m: m.group(1) + (person(names, m.group(2)) if m.group(2) in names
                                else m.group(2)), detail)


#: How a refused approval's detail says who was refused, before what they tried to approve
#: ("floor cannot approve ...", "fran tried to approve their own ...").
_REFUSED_APPROVAL = re.compile(r"^.*? (?:cannot approve|tried to approve their own) ")


def _subject(action: str, where: str, detail: str) -> str:
    """What an entry concerns: an approval names what it approved ("misdeal of hand 8"),
    with the table; a refused one what it would have approved (who was refused, and why,
    stays in the detail); other entries their table and hand."""
    if action in ("approval", "approval-refused") and detail:
        what = _REFUSED_APPROVAL.sub("", detail, count=1) if action != "approval" else detail
        return f"{where}: {what}" if where else what
    return where

