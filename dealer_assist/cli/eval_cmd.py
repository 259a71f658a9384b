"""``dealer-assist eval``: rank a hand as the table would, explain it, or run the census self-test.

    dealer-assist eval As Ks Qs Js Ts
    dealer-assist eval --board "As 4h 5h 9c 9d" --private "3h 6h 7h 4c Td" --max-private 2
    dealer-assist eval --low 8s 6h 4c 2d Ad Kc 8c
    dealer-assist eval --census --json
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import BadInput


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "eval",
        help="rank a poker hand and say it in words; --census runs the five-card self-test",
        description=(
            "Rank a poker hand the way the table does and say it in words. Cards are typed as "
            "rank and suit (9d, 10h, Ts, A♠), separated by spaces or run together. Five to seven "
            "cards: the best five-card high hand. Three cards: an Open-Face front row."
        ),
    )
    p.add_argument("cards", nargs="*", help="the cards to rank (3 for a front row, 5 to 7)")
    p.add_argument("--board", metavar="CARDS", help="board cards, e.g. \"As 4h 5h 9c 9d\"")
    p.add_argument("--private", metavar="CARDS", help="the player's private (hole) cards")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--max-private",
        type=int,
        metavar="N",
        help="at most N private cards may play (Caro Hold 'em: 2)",
    )
    group.add_argument(
        "--exact-private",
        type=int,
        metavar="N",
        help="exactly N private cards must play (Omaha style: 2)",
    )
    p.add_argument(
        "--low",
        action="store_true",
        help="rank the ace-to-five low instead (eight or better unless --qualifier says else)",
    )
    p.add_argument(
        "--qualifier",
        type=int,
        default=8,
        metavar="RANK",
        help="highest card a low may hold (default 8); 0 for no qualifier",
    )
    p.add_argument(
        "--census",
        action="store_true",
        help="rank all 2,598,960 five-card hands and print the count per category",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _cards(text: str | list[str] | None, what: str) -> tuple[Card, ...]:
    if not text:
        return ()
    joined = text if isinstance(text, str) else " ".join(text)
    cards = parse_cards(joined)
    if any(c.is_joker for c in cards):
        raise BadInput(f"a joker cannot be ranked in {what}: remove it and try again")
    return cards


def _codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)


def run(args: argparse.Namespace) -> int:
    if args.census:
        if args.cards or args.board or args.private or args.low:
            raise BadInput("--census ranks every five-card hand by itself: give it no cards")
        return _census(args.json)
    if args.board is not None or args.private is not None:
        if args.cards:
            raise BadInput(
                "give the cards either as --board and --private or as one list, not both"
            )
        return _best(args)
    if args.max_private is not None or args.exact_private is not None:
        raise BadInput("--max-private and --exact-private need --board and --private")
    cards = _cards(args.cards, "a poker hand")
    if not cards:
        raise BadInput(
            "give the cards to rank, e.g. dealer-assist eval As Ks Qs Js Ts "
            "(or --census for the self-test)"
        )
    if args.low:
        return _low(cards, args.qualifier, args.json)
    return _high(cards, args.json)


def _show(out: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
        return 0
    width = max(len(k) for k in out) + 1
    for k, v in out.items():
        label = (k.replace("_", " ") + ":").ljust(width + 1)
        print(f"{label}{v}")
    return 0


def _high(cards: tuple[Card, ...], as_json: bool) -> int:
    from dealer_assist.evaluate import evaluate, front_value

    if len(cards) == 3:
        v = front_value(cards)
    elif 5 <= len(cards) <= 7:
        v = evaluate(cards)
    else:
        raise BadInput(
            f"{len(cards)} cards given: rank 5 to 7 cards (the best five play), or 3 for a "
            "front row; for more use --board and --private"
        )
    return _show(
        {"category": v.category, "description": v.description, "cards": _codes(v.cards)},
        as_json,
    )


def _best(args: argparse.Namespace) -> int:
    from dealer_assist.evaluate import best_hand

    board = _cards(args.board, "the board")
    private = _cards(args.private, "a hand")
    if args.low:
        if args.max_private is not None or args.exact_private is not None:
            raise BadInput("the low takes any five cards here: drop --max-private/--exact-private")
        return _low(board + private, args.qualifier, args.json)
    v = best_hand(
        board, private, max_private=args.max_private, exact_private=args.exact_private
    )
    used = set(v.cards)
    return _show(
        {
            "category": v.category,
            "description": v.description,
            "cards": _codes(v.cards),
            "private_used": _codes(tuple(c for c in private if c in used)) or "none",
        },
        args.json,
    )


def _low(cards: tuple[Card, ...], qualifier: int, as_json: bool) -> int:
    from dealer_assist.evaluate import low_hand

    q = None if qualifier == 0 else qualifier
    v = low_hand(cards, qualifier=q)
    if v is None:
        if as_json:
            print(json.dumps({"low": None}))
            return 0
        print(f"no low: needs five cards of different ranks, {_rank_word(qualifier)} or lower")
        return 0
    return _show(
        {"low": v.description, "ranks": v.ranks_text, "cards": _codes(v.cards)}, as_json
    )


def _rank_word(rank: int) -> str:
    from dealer_assist.cards import RANK_NAMES

    return RANK_NAMES.get(rank, str(rank))


def _census(as_json: bool) -> int:
    from dealer_assist.evaluate import five_card_census

    start = time.perf_counter()
    c = five_card_census()
    seconds = time.perf_counter() - start
    if as_json:
        print(json.dumps(c.to_json()))
        return 0
    print(f"Five-card census: {c.hands:,} hands ranked in {seconds:.1f} s")
    width = max(len(k) for k in c.categories)
    for name, n in c.categories.items():
        print(f"  {name.ljust(width)}  {n:>9,}")
    print(f"  {'distinct values'.ljust(width)}  {c.distinct:>9,}")
    return 0
