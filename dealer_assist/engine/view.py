"""What the screens draw of a game: the table and each seat, a table called off, the score
sheet of a game of many hands, and the game's own settings as a person reads them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.money import format_cents


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the dealer's screen draws it."""

    seat: int
    cards: tuple[str, ...] = ()
    hidden: int = 0
    status: str = ""
    detail: str = ""
    put_in: int = 0
    stack: int | None = None
    note: str = ""
    face_down: bool = False
    to_act: bool = False
    rows: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the dealer's screen draws it after an event."""

    game: str
    seats: tuple[SeatView, ...]
    to_act: int | None = None
    button: int | None = None
    board: tuple[str, ...] = ()
    pots: tuple[tuple[str, int], ...] = ()
    info: tuple[str, ...] = ()


def called_off(view: TableView, reason: str) -> TableView:
    """The table of a hand called off as a misdeal: nobody is to act any more."""
    from dataclasses import replace

    seats = tuple(
        replace(s, to_act=False, status="misdeal: chips back") if s.to_act else s
        for s in view.seats
    )
    return replace(view, seats=seats, to_act=None, info=(*view.info, f"Misdeal: {reason}"))


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A game of many hands as the dealer's screen shows it between hands and its game report
    prints it: a row per hand under its columns, then lines (the running totals, the
    standings, who won)."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...] = ()

    def text(self) -> tuple[str, ...]:
        """The sheet as plain lines (for the screen's info and plain reports)."""
        out = [self.title, " | ".join(self.columns)]
        out.extend(" | ".join(row) for row in self.rows)
        out.extend(self.lines)
        return tuple(out)


#: The kinds of a game's own setting (:class:`Setting`).
SETTING_KINDS = ("money", "chips", "count", "choice", "flag", "text")


@dataclass(frozen=True, slots=True)
class Setting:
    """One of a game's own table settings (a key of a table's ``params``), as the screens show
    it: ``money`` in cents (each amount of a list too: blinds), ``chips`` a count of the
    table's chips, ``count`` a plain number, ``choice`` one of ``options``, ``flag`` yes or
    no, ``text`` as given. The game declares them (:attr:`Game.settings`), so no screen
    decides from a key's name whether it is money."""

    key: str
    label: str
    kind: str = "text"
    options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in SETTING_KINDS:
            raise ValueError(f"setting {self.key}: kind must be one of {SETTING_KINDS}")

    def shown(self, value: Any) -> str:
        """``value`` as a person reads it."""
        if isinstance(value, list):
            return " / ".join(self.shown(v) for v in value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        if self.kind == "money" and isinstance(value, int):
            return format_cents(value)
        if self.kind == "chips" and isinstance(value, int):
            return f"{value} chip" + ("" if value == 1 else "s")
        if isinstance(value, Mapping):
            return ", ".join(f"{k} {v}" for k, v in value.items())
        return str(value)
