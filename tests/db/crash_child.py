"""A dealer station in a child process: deals Champs and Cowards hands at one table through the
services, printing a line after every committed event (``event HAND NUMBER``) and every
settlement (``settled HAND``). Killed at any moment and started again, it resumes the open hand.

    python crash_child.py URL TABLE_ID SEED HANDS
"""

from __future__ import annotations

import random
import sys

from dealer_assist.db.bootstrap import open_services
from dealer_assist.engine.registry import get_game
from dealer_assist.events import Event

GAME = "champs-and-cowards"


def plan(seed: int, number: int) -> list[Event]:
    """The hand a table deals as its ``number``-th: the same in every run."""
    rng = random.Random(f"{seed}-{number}")
    return list(get_game(GAME).sample_hand(rng, players=3 + number % 4))


def main(url: str, table_id: int, seed: int, hands: int) -> None:
    svc = open_services(url)
    dealer = svc.sign_in("dee", "1111")
    while True:
        now = svc.current_hand(table_id)
        if now is None:
            last = svc.store.last_hand(table_id)
            number = (last.number if last else 0) + 1
            if number > hands:
                return
            events = plan(seed, number)
            now = svc.start_hand(dealer, table_id, seats=list(events[0].seats))  # type: ignore[attr-defined]
            print(f"event {now.hand.id} 1", flush=True)
        events = plan(seed, now.hand.number)
        done = len(now.replay.steps)
        assert [s.event for s in now.replay.steps[1:]] == events[1:done], "resumed a wrong hand"
        for ev in events[done:]:
            now = svc.record(dealer, now.hand.id, ev)
            print(f"event {now.hand.id} {now.last.number}", flush=True)
        svc.settle(dealer, now.hand.id)
        print(f"settled {now.hand.id}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
