"""Open-Face Chinese Poker: scoring pair by pair (fouls, royalties, scoops), fantasyland earned
and kept, and where the button goes next."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from dealer_assist.engine.seats import from_left
from dealer_assist.evaluate import evaluate
from dealer_assist.games.ofc.state import (
    ENTRY_RANKS,
    FOUL_PENALTY,
    SCOOP_BONUS,
    Fantasyland,
    OfcState,
)
from dealer_assist.games.open_face.rows import (
    ROW_NAMES,
    PairResult,
    Rows,
    compare_rows,
    foul_reason,
    front_made,
    row_verdict,
    royalties,
    values,
)


def earns_fantasyland(rows: Rows, conf: Fantasyland) -> bool:
    """Entry: a front pair of the entry rank or better, or any trips, without fouling."""
    if not conf.enabled or foul_reason(rows) is not None:
        return False
    made = front_made(rows.front)
    if made is None:
        return False
    kind, rank = made
    return kind == "trips" or rank >= ENTRY_RANKS[conf.entry]


_STAY_MIDDLE = {"full house", "four of a kind", "straight flush", "royal flush"}


_STAY_BACK = {"four of a kind", "straight flush", "royal flush"}


def stays_in_fantasyland(rows: Rows, conf: Fantasyland) -> bool:
    """Stay: quads or better in back, a full house or better in middle, or front trips."""
    if not conf.enabled or conf.stay == "never" or foul_reason(rows) is not None:
        return False
    made = front_made(rows.front)
    return (
        (made is not None and made[0] == "trips")
        or evaluate(rows.middle).category in _STAY_MIDDLE
        or evaluate(rows.back).category in _STAY_BACK
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished hand: fouls, royalties, each pair's points, and who plays in fantasyland."""

    fouled: Mapping[int, str]
    royalty_rows: Mapping[int, Mapping[str, int]]
    pairs: tuple[PairResult, ...]
    fantasyland: tuple[int, ...]

    def royalty(self, seat: int) -> int:
        return sum(self.royalty_rows[seat].values())


#: The last finished hand's outcome, by the state object (states are immutable, so the same
#: object has the same outcome): a hand is settled, reported and measured in turn, and the
#: dossier's simulation does that for hundreds of thousands of hands.
_LAST: tuple[OfcState, Outcome] | None = None


def outcome(state: OfcState) -> Outcome:
    """Fouls, royalties and every pair's result of a finished hand (remembered for the last
    state asked)."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is state:
        return last[1]
    out = _outcome(state)
    _LAST = (state, out)
    return out


def _outcome(state: OfcState) -> Outcome:
    st = state.settings
    seats = st.seats
    fouled: dict[int, str] = {}
    roy: dict[int, dict[str, int]] = {}
    for s in seats:
        reason = foul_reason(state.rows[s])
        if reason is not None:
            fouled[s] = reason
            roy[s] = {r: 0 for r in ROW_NAMES}
        else:
            roy[s] = royalties(state.rows[s], st.table)
    pairs = tuple(_pair(state, a, b, fouled, roy) for a, b in combinations(seats, 2))
    fl = tuple(
        s for s in seats
        if (stays_in_fantasyland(state.rows[s], st.fantasyland)
            if s in st.in_fantasyland else earns_fantasyland(state.rows[s], st.fantasyland))
    )
    return Outcome(fouled=fouled, royalty_rows=roy, pairs=pairs, fantasyland=fl)


def _pair(state: OfcState, a: int, b: int, fouled: Mapping[int, str],
          roy: Mapping[int, Mapping[str, int]]) -> PairResult:
    ra, rb = sum(roy[a].values()), sum(roy[b].values())
    if a in fouled and b in fouled:
        return PairResult(a, b, 0, "both fouled", {"fouled": [a, b]})
    if a in fouled:
        return PairResult(a, b, -(FOUL_PENALTY + rb),
                          f"seat {a} fouled ({FOUL_PENALTY} + royalties {rb})", {"fouled": [a]})
    if b in fouled:
        return PairResult(a, b, FOUL_PENALTY + ra,
                          f"seat {b} fouled ({FOUL_PENALTY} + royalties {ra})", {"fouled": [b]})
    wins = compare_rows(state.rows[a], state.rows[b])
    va, vb = values(state.rows[a]), values(state.rows[b])
    rows_pts = sum(wins.values())
    scoop = SCOOP_BONUS if rows_pts == 3 else -SCOOP_BONUS if rows_pts == -3 else 0
    points = rows_pts + scoop + ra - rb
    why = f"rows {rows_pts:+d}" + (f", scoop {scoop:+d}" if scoop else "")
    why += f", royalties {ra} - {rb}"
    detail = {
        "rows": {r: row_verdict(a, va.of(r), b, vb.of(r)) for r in ROW_NAMES},
        "winners": {r: a if w > 0 else b if w < 0 else None for r, w in wins.items()},
        "scoop": scoop != 0,
    }
    return PairResult(a, b, points, why, detail)


def next_button(state: OfcState) -> int:
    """The button moves one seat left, except after a hand anyone played in fantasyland."""
    st = state.settings
    if st.in_fantasyland:
        return st.button
    return from_left(st.seats, st.button)[0]
