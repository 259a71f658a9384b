"""Seat boxes moved apart so none covers another or the board."""

from __future__ import annotations

SEAT_GAP = 6


def separate(boxes: list[list[float]], width: float, height: float,
             *, gap: float = SEAT_GAP, still: list[list[float]] | None = None
             ) -> list[list[float]]:
    """Seat boxes ``[x, y, w, h]`` moved apart until no two overlap (nor come closer than
    ``gap``), each kept inside ``width`` x ``height``. Spacing seats evenly around the oval
    leaves neighbours overlapping where it turns a corner of a small felt (the floor's replay
    at 1280x800: by 10 px and more); each overlapping pair is pushed apart along the axis it
    overlaps least, both halves of the way where the edge allows, a few rounds over. Boxes
    in ``still`` (the board and pots) do not move: a seat over one is pushed off it."""
    out = [list(b) for b in boxes]

    def clamp(b: list[float]) -> None:
        b[0] = min(max(0.0, b[0]), max(0.0, width - b[2]))
        b[1] = min(max(0.0, b[1]), max(0.0, height - b[3]))

    fixed = [list(b) for b in still or () if b[2] > 0 and b[3] > 0]

    def apart(a: list[float], b: list[float]) -> list[tuple[int, float, float]]:
        """How far ``b`` must move from ``a`` along each axis (the shorter first) and which
        way, or nothing when they are ``gap`` apart already."""
        dx = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) + gap
        dy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) + gap
        if dx <= 0 or dy <= 0:
            return []
        return [(axis, push,
                 1.0 if b[axis] + b[axis + 2] / 2 >= a[axis] + a[axis + 2] / 2 else -1.0)
                for axis, push in sorted(((0, dx), (1, dy)), key=lambda x: x[1])]

    def keep_clear() -> bool:
        """Seats off what must stay clear (the board and pots); only the seat moves."""
        moved = False
        for a in fixed:
            for b in out:
                pushes = apart(a, b)
                if not pushes:
                    continue
                moved = True
                for axis, push, sign in pushes:
                    before = b[axis]
                    b[axis] += sign * push
                    clamp(b)
                    if abs(b[axis] - before) >= push - 0.5:
                        break
                    b[axis] = before  # the edge stopped it: the other way instead
        return moved

    for _ in range(60):
        moved = keep_clear()
        for i, a in enumerate(out):
            for b in out[i + 1:]:
                pushes = apart(a, b)
                if not pushes:
                    continue
                moved = True
                for axis, push, sign in pushes:
                    before = (a[axis], b[axis])
                    a[axis] -= sign * push / 2
                    b[axis] += sign * push / 2
                    clamp(a)
                    clamp(b)
                    short = push - abs(a[axis] - before[0]) - abs(b[axis] - before[1])
                    if short > 0:  # one met the edge: the other goes the rest of the way
                        a[axis] -= sign * short
                        b[axis] += sign * short
                        clamp(a)
                        clamp(b)
                    if push - abs(a[axis] - before[0]) - abs(b[axis] - before[1]) < 0.5:
                        break
                    a[axis], b[axis] = before  # both at the edge: apart the other way
        if not moved:
            break
    return out
