"""The keys of each screen, as Help → Keys of this screen [F1] shows them (docs/ui.md lists
the same). One table per screen, by the screen's object name, and the keys that work
everywhere.

The dealer's keys are one table, :data:`DEALER_KEYS`: each row is what F1 shows (its keys are
the names of its presses) and its presses are what the dealer screen's key handler runs, so a
key added to the table is both taken by the screen and shown in the help."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.ui.qt import Qt

#: The dealer screen's bottom pages by name (``dealer_window.pages``: PAGE_IDLE, ...).
PAGES = ("idle", "act", "discard", "push")


@dataclass(frozen=True)
class Press:
    """One key as the dealer screen takes it: its name in the help, what is pressed, on which
    bottom pages, and the screen's method it runs. The method returns False when the key does
    nothing now (the next press of the table, or no press, may take it); None or True: taken."""

    name: str
    method: str
    #: The key by its code (None: by what it types, ``typed``).
    key: Qt.Key | None = None
    #: "digit", "letter" or "printable": any key that types one.
    typed: str = ""
    #: Shift held (True), not held (False), either (None).
    shift: bool | None = None
    #: The platform's Undo (Ctrl+Z).
    undo: bool = False
    #: The bottom pages the key works on (empty: every page).
    pages: tuple[str, ...] = ()
    #: Taken by this child widget of the screen (the card box, the seats box), which calls
    #: ``method``: the screen's own key handler leaves it to the widget.
    widget: str = ""


@dataclass(frozen=True)
class KeyRow:
    """One line of F1's help: the keys (its presses' names) and what they do."""

    presses: tuple[Press, ...]
    does: str

    @property
    def keys(self) -> str:
        names: list[str] = []
        for p in self.presses:
            if p.name not in names:
                names.append(p.name)
        return ", ".join(names)


K = Qt.Key

#: Every key of the dealer's Table screen, in the order F1 lists them and the screen tries them.
DEALER_KEYS: tuple[KeyRow, ...] = (
    KeyRow((Press("S", "_type_seats", key=K.Key_S, pages=("idle",)),
            Press("Enter", "start_hand", key=K.Key_Return, widget="seats_edit"),
            Press("Esc", "_leave_seats_box", key=K.Key_Escape)),
           "type the seats of a short hand; deal it; leave the box"),
    KeyRow((Press("Ctrl+Z", "undo", undo=True),),
           "undo (void) the last input, with a reason"),
    KeyRow((Press("F2", "_toggle_picker", key=K.Key_F2),),
           "show or hide the 52-card picker"),
    KeyRow((Press("F3", "stacks", key=K.Key_F3),),
           "Stacks… for the next hand (games played with stacks)"),
    KeyRow((Press("F4", "misdeal", key=K.Key_F4),),
           "misdeal: the reason, then the floor's PIN"),
    KeyRow((Press("F5", "retry", key=K.Key_F5, shift=False),
            Press("Shift+F5", "drop_kept", key=K.Key_F5, shift=True)),
           "send the input kept after a database failure; drop it (logged)"),
    KeyRow((Press("F6", "_seats_key", key=K.Key_F6),
            Press("F7", "_collect_time_key", key=K.Key_F7)),
           "seats; collect time (tables that collect time)"),
    KeyRow((Press("T", "_tick_push", key=K.Key_T, pages=("push",)),
            Press("Space", "_tick_push", key=K.Key_Space, pages=("push",))),
           "push steps: tick the next step"),
    KeyRow((Press("N", "_next_hand_key", key=K.Key_N, pages=("push", "idle")),
            Press("G", "_new_game_key", key=K.Key_G, pages=("push",)),
            Press("O", "_open_table_key", key=K.Key_O, pages=("push", "idle")),
            Press("X", "_close_shift_key", key=K.Key_X, pages=("push", "idle"))),
           "next hand; new game (the floor approves); open a table; close the shift (once the "
           "push is ticked)"),
    KeyRow((Press("digits", "_discard_digit", typed="digit", pages=("discard",)),
            Press("U", "_discard_face_down", key=K.Key_U, pages=("discard",)),
            Press("a card", "_discard_card", typed="printable", pages=("discard",)),
            Press("Esc", "_discard_cancel", key=K.Key_Escape, pages=("discard",))),
           "discard: cards kept; face down; face up; back"),
    KeyRow((Press("letters on the buttons", "_letter_key", typed="letter", pages=("act",)),),
           "that action (the seat to act's when several share a key)"),
    KeyRow((Press("a seat's number", "_seat_digit", typed="digit", pages=("act",)),),
           "then a letter: that seat's action (3, X: seat 3's Kill)"),
    KeyRow((Press("a card", "_cards_entered", widget="cards"),
            Press("Enter", "_cards_entered", key=K.Key_Return, widget="cards")),
           "enter the typed card(s): 9d, td or 10d, 9♦"),
)

#: Keys of the other screens in view, by the screen widget's object name: (title, ((keys, does),
#: ...)); the dealer's screen ("dealer-screen", "Table") has :data:`DEALER_KEYS`.
SCREENS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
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
    if screen == "dealer-screen":  # read at the call: the table the screen's keys run on
        title, keys = "Table", tuple((row.keys, row.does) for row in DEALER_KEYS)
    else:
        title, keys = SCREENS.get(screen, ("", ()))
    return [(h, t) for h, t in ((f"Keys of the {title} screen", keys), ("Everywhere", EVERYWHERE))
            if t]
