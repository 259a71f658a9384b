"""A dealer station in a child process, with its journal: deals Champs and Cowards hands at one
table, printing ``event HAND NUMBER`` once each input is recorded (on the server, or in the
station's journal while the server does not answer) and ``settled HAND``. At the end it sends
what its journal kept, and prints ``synced`` when nothing is left there. Killed and started
again, it resumes. Every wait is bounded: it gives up (exit 4) after ``DEADLINE_S``.

    python room_child.py URL TABLE_ID SEED HANDS JOURNAL [PAUSE_S]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from crash_child import plan

from dealer_assist.db.bootstrap import open_services
from dealer_assist.db.journal import TableStopped
from dealer_assist.services import StoreUnavailable

DEADLINE_S = 90.0


def main(url: str, table_id: int, seed: int, hands: int, journal: Path, pause: float) -> int:
    deadline = time.monotonic() + DEADLINE_S

    def again(what: str) -> None:
        if time.monotonic() > deadline:
            print(f"gave up: {what}", flush=True)
            raise SystemExit(4)
        time.sleep(0.05)

    while True:
        try:
            svc = open_services(url, journal=journal)
            dealer = svc.sign_in("dee", "1111")
            break
        except StoreUnavailable as exc:
            again(str(exc))
    store = svc.store
    try:
        while True:
            try:
                now = svc.current_hand(table_id)
                if now is None:
                    last = store.last_hand(table_id)
                    number = (last.number if last else 0) + 1
                    if number > hands:
                        break
                    events = plan(seed, number)
                    now = svc.start_hand(dealer, table_id,
                                         seats=list(events[0].seats))  # type: ignore[attr-defined]
                    print(f"event {now.hand.id} 1", flush=True)
                events = plan(seed, now.hand.number)
                done = len(now.replay.steps)
                assert [s.event for s in now.replay.steps[1:]] == events[1:done], "wrong hand"
                for ev in events[done:]:
                    now = svc.record(dealer, now.hand.id, ev)
                    print(f"event {now.hand.id} {now.last.number}", flush=True)
                    time.sleep(pause)
                svc.settle(dealer, now.hand.id)
                print(f"settled {now.hand.id}", flush=True)
            except StoreUnavailable as exc:  # nothing recorded: the same input again
                again(str(exc))
        while store.journal.count():  # type: ignore[attr-defined]
            try:
                store.sync()  # type: ignore[attr-defined]
            except StoreUnavailable as exc:
                again(str(exc))
    except TableStopped as exc:
        print(f"stopped: {exc}", flush=True)
        return 3
    print("synced", flush=True)
    store.close()  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]),
                  Path(sys.argv[5]), float(sys.argv[6]) if len(sys.argv) > 6 else 0.0))
