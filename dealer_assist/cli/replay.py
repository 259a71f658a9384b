"""``dealer-assist replay FILE [--json]``: a hand log read back as the dealer would run it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from dealer_assist.engine.hand import HandReplay, read_log, replay
from dealer_assist.money import format_cents


def add_parser(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a hand log (JSON Lines) step by step")
    p.add_argument("file", help="hand log, or - for standard input")
    p.add_argument("--json", action="store_true", help="print one JSON object with the outcome")
    p.set_defaults(func=run)


def load(file: str) -> HandReplay:
    events, lines = read_log(file)  # "-": standard input
    return replay(events, lines=lines)


def outcome_json(hand: HandReplay) -> dict[str, Any]:
    """The ``--json`` object: the game's report, plus the money when the hand is over."""
    out: dict[str, Any] = {"game": hand.game.name, "events": len(hand.steps)}
    out.update(hand.game.report(hand.state))
    out["over"] = hand.over
    if hand.over:
        s = hand.settle()
        if hand.misdeal is not None:  # the refunds, whatever the game's report says
            out["misdeal"] = hand.misdeal.reason
            out["payouts"] = {str(k): v for k, v in s.payouts.items() if v}
            out["carry"] = s.carry_out
        out.setdefault("payouts", {str(k): v for k, v in s.payouts.items() if v})
        out.setdefault("carry", s.carry_out)
        out["fees"] = [f.to_json() for f in s.fees]
        out["push_steps"] = [
            {"n": p.n, "text": p.text, "amount": p.amount, "to": p.to_seat, "kind": p.kind}
            for p in s.steps
        ]
        out["conserved"] = s.conserved
    else:
        out["prompt"] = hand.game.prompt(hand.state).message
    return out


def run(args: argparse.Namespace) -> int:
    hand = load(args.file)
    if args.json:
        print(json.dumps(outcome_json(hand), indent=1, ensure_ascii=False))
        return 0
    print(f"{hand.game.title}: {len(hand.steps)} events")
    for step in hand.steps:
        for i, text in enumerate(step.lines):
            prefix = f"{step.number:>3}. " if i == 0 else "     "
            print(prefix + text)
    if not hand.over:
        print(f"\nHand not finished. Next: {hand.game.prompt(hand.state).message}")
        return 0
    s = hand.settle()
    if hand.misdeal is not None:
        print(f"\nMisdeal: {hand.misdeal.reason}. Every chip goes back; no fee is taken.")
    print("\nPush, in this order:")
    for p in s.steps:
        print(f"  {p.n}. {p.text}")
    for f in s.fees:
        who = f" from seat {f.from_seat}" if f.from_seat is not None else ""
        print(f"  House {f.kind}{who}: {format_cents(f.amount)}")
    print("Totals: " + ", ".join(
        f"seat {k} {format_cents(v)}" for k, v in sorted(s.payouts.items()) if v
    ) + (f"; carried to next hand {format_cents(s.carry_out)}" if s.carry_out else ""))
    return 0
