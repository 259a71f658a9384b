"""What the players' board shows, derived from the room: games running with their stakes, each
table's status and open seats, every waiting list in order, and the calls out. Never money:
nothing here carries a buy-in, a stack or a fee.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.floorboard.ports import FloorTable
from dealer_assist.services.floorboard.state import RoomState


@dataclass(frozen=True, slots=True)
class BoardTable:
    name: str
    game: str
    stakes: str
    #: closed, open, going or breaking.
    status: str
    open_seats: tuple[int, ...]
    players: int


@dataclass(frozen=True, slots=True)
class BoardList:
    game: str
    stakes: str
    #: An interest list: no table spreads the game yet.
    interest: bool
    #: In order; a called player as "Ann → Table 2 seat 4".
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardView:
    games: tuple[str, ...]
    tables: tuple[BoardTable, ...]
    lists: tuple[BoardList, ...]
    calls: tuple[str, ...]


def game_title(game: str, stakes: str = "") -> str:
    """A game as the players know it ("Caro Hold 'em $2/$4"); its name when the game is not
    installed here."""
    try:
        title = get_game(game).title
    except DealerAssistError:
        title = game
    return f"{title} {stakes}".strip()


def status_of(state: RoomState, t: FloorTable) -> str:
    """Closed, open, breaking as the floor marked it; going when open with a dealer and at
    least the game's fewest players seated."""
    status = state.table_status(t.id)
    if status == "open" and t.dealer and len(state.seated(t.id)) >= t.min_players:
        return "going"
    return status


def board_view(state: RoomState, tables: Sequence[FloorTable]) -> BoardView:
    names = {t.id: t.name for t in tables}
    rows: list[BoardTable] = []
    for t in sorted(tables, key=lambda t: t.name):
        seated = state.seated(t.id)
        status = status_of(state, t)
        called = {c.seat for c in state.calls.values() if c.table_id == t.id}
        free = () if status in ("closed", "breaking") else tuple(
            s for s in t.seats if s not in seated and s not in called)
        rows.append(BoardTable(name=t.name, game=game_title(t.game), stakes=t.stakes,
                               status=status, open_seats=free, players=len(seated)))
    running = {(t.game, t.stakes) for t in tables
               if status_of(state, t) in ("open", "going")}
    lists: list[BoardList] = []
    for (game, stakes), lst in sorted(state.lists.items()):
        shown = []
        for w in lst:
            c = state.calls.get(w.call) if w.call is not None else None
            shown.append(w.player if c is None
                         else f"{w.player} → {names.get(c.table_id, '?')} seat {c.seat}")
        lists.append(BoardList(game=game_title(game), stakes=stakes,
                               interest=(game, stakes) not in running, names=tuple(shown)))
    calls = tuple(f"{c.player} → {names.get(c.table_id, '?')} seat {c.seat}"
                  for c in sorted(state.calls.values(), key=lambda c: c.seq))
    games = tuple(sorted({game_title(g, s) for g, s in running}))
    return BoardView(games=games, tables=tuple(rows), lists=tuple(lists), calls=calls)
