"""The keys of each screen, as Help → Keys of this screen [F1] shows them (docs/ui.md lists
the same). One table per screen, by the screen's object name, and the keys that work
everywhere."""

from __future__ import annotations

#: Keys of the screen in view, by the screen widget's object name: (title, ((keys, does), ...)).
SCREENS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "dealer-screen": ("Table", (
        ("letters on the buttons", "that action (the seat to act's when several share a key)"),
        ("a card, Enter", "enter the typed card(s): 9d, td or 10d, 9♦"),
        ("F2", "show or hide the 52-card picker"),
        ("digits, U, a card, Esc", "discard: cards kept; face down; face up; back"),
        ("T or Space", "push steps: tick the next step"),
        ("N, O, X", "next hand; open a table; close the shift (once the push is ticked)"),
        ("S, Enter", "type the seats of a short hand; deal it"),
        ("Ctrl+Z", "undo (void) the last input, with a reason"),
        ("F3", "Stacks… for the next hand (games played with stacks)"),
        ("F4", "misdeal: the reason, then the floor's PIN"),
        ("F5, Shift+F5", "send the input kept after a database failure; drop it (logged)"),
        ("F6, F7", "seats; collect time (tables that collect time)"),
    )),
    "floor-console": ("Floor", (
        ("F, Tab", "the Find filters; the next filter or button (Enter finds)"),
        ("Enter", "search: the first hand found opens, ↓ ↑ for the others (in the reveal "
                  "reason box: reveal)"),
        ("Esc", "leave the reveal reason box (back to the hands list)"),
        ("← → Home End", "step through the replay"),
        ("R", "reveal destroyed hands (type the reason first)"),
        ("D", "dispute"),
        ("H, S", "hand PDF; shift PDF"),
        ("P, Shift+P", "print the hand; print the shift"),
        ("V", "verify every table's record"),
        ("C", "drop count"),
    )),
    "live-floor": ("Room, live", (
        ("↑ ↓, Enter", "choose a table; open its hand in the floor console"),
    )),
}

EVERYWHERE: tuple[tuple[str, str], ...] = (
    ("Ctrl+1, Ctrl+2, Ctrl+3", "Table; Floor; Room, live"),
    ("F1", "these keys"),
    ("F8, F10", "Users (admin); Change my PIN"),
    ("F9", "light or dark theme"),
    ("Ctrl+Q", "sign out"),
    ("Enter, Tab, Escape", "in a dialog: next box (the main button in the last); next box "
                           "or button; cancel"),
)


def key_tables(screen: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """(heading, keys) of the screen named ``screen`` (its object name), then of everywhere."""
    title, keys = SCREENS.get(screen, ("", ()))
    return [(h, t) for h, t in ((f"Keys of the {title} screen", keys), ("Everywhere", EVERYWHERE))
            if t]

