"""Hands as the services read them: one hand (as stored, as it stands at this station, its
events, its replay), the table's latest game so far, and what the table's last hand leaves the
next one (its button, stacks and carry-overs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.base import Game, ScoreSheet
from dealer_assist.engine.hand import HandReplay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError, HandLogError
from dealer_assist.services.base import (
    HandNow,
    _replay_rows,
)
from dealer_assist.services.errors import (
    NotFound,
)
from dealer_assist.services.faulty_last import FaultyLast, read_what_is_left
from dealer_assist.services.model import (
    ChainHead,
    Hand,
    HandFilter,
    LedgerLine,
    StoredEvent,
)
from dealer_assist.services.next_hand import (
    carried_over,
    last_button,
    next_button,
    stacks_after,
)
from dealer_assist.services.tables import TableServices
from dealer_assist.settings import (
    parse_table_settings,
    per_hand_keys,
)


class HandReads(TableServices):
    """Reading hands, and what the next hand takes over from the table's last one."""

    def hand(self, hand_id: int) -> Hand:
        hand = self.store.get_hand(hand_id)
        if hand is None:
            raise NotFound(f"there is no hand {hand_id}")
        return hand

    def hand_now(self, hand_id: int) -> HandNow:
        """The hand as it stands (cached after the first load at this station)."""
        cached = self._live.get(hand_id)
        if cached is not None:
            return cached
        hand = self.hand(hand_id)
        rows = self.store.hand_events(hand_id)
        now = HandNow(hand=hand, replay=_replay_rows(rows), last=rows[-1])
        self._live[hand_id] = now
        return now

    def current_hand(self, table_id: int) -> HandNow | None:
        """The table's last hand if it is still open (to resume after a restart)."""
        hand = self.store.last_hand(table_id)
        if hand is None or hand.status != "open":
            return None
        return self.hand_now(hand.id)

    def hand_events(self, hand_id: int) -> list[StoredEvent]:
        """The stored rows of the hand, in order (for replay with times and actors)."""
        self.hand(hand_id)
        return self.store.hand_events(hand_id)

    def hand_replay(self, hand_id: int) -> HandReplay:
        """The hand folded from the store (not the station's cache): for the floor's replay."""
        return _replay_rows(self.hand_events(hand_id))

    def list_hands(self, flt: HandFilter | None = None) -> list[Hand]:
        return self.store.list_hands(flt or HandFilter())

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        return self.store.ledger(hand_id)

    def chain_head(self, table_id: int) -> ChainHead | None:
        return self.store.chain_head(table_id)

    def game_so_far(self, table_id: int) -> GameSoFar:
        """The table's latest game of a game played over many hands: its settled hands, from
        the last one back while each is of the same game and carries on from the one before
        (its start holds what the game carries, or chips of a pot carried in) and that one did
        not end a game. A game of one hand is its last hand. ``over`` when the last hand ended
        the game. A hand whose stored events do not replay is kept in the list but left out of
        the sheet (the reports name its fault)."""
        hands: list[Hand] = []
        states: list[Any] = []
        rows = self.store.list_hands(HandFilter(table_id=table_id, status="settled"))
        game = None
        for hand in rows:  # newest first
            try:
                rep = self.hand_replay(hand.id)
            except DealerAssistError:  # a record that does not read: verify names it; the
                if game is None or hand.game == game.name:  # sheet goes on without it, and
                    hands.append(hand)  # the game report lists it with its fault
                continue
            # a hand called off (even after it was over, even one that ended the game): as
            # dealt, so the sheet shows every chip back and the pot carried on, and the game
            # goes on
            state = rep.state if rep.misdeal is None else rep.steps[0].state
            if game is None:
                game = rep.game
            elif hand.game != game.name or rep.game.game_over(state):
                break
            hands.append(hand)
            states.append(state)
            if not _carries_in(game, rep.start.params):
                break  # this hand began the game: it carries nothing in
        hands.reverse()
        states.reverse()
        if game is None:
            return GameSoFar(hands=tuple(hands), over=False, sheet=None)
        return GameSoFar(hands=tuple(hands), over=game.game_over(states[-1]),
                         sheet=game.score_sheet(states))

    def _next_button(self, last: _LastHand, seats: tuple[int, ...]) -> int:
        """The seat after the last hand's button (:func:`next_hand.next_button`)."""
        if last.hand is None:
            return seats[-1]
        if last.hand.status == "settled" and last.broken() is None:  # replayed anyway
            rep = last.replay()
            return next_button(seats, last_button(rep), redealt=rep.misdeal is not None)
        # (an open hand left behind, or one that cannot be read: its start is enough)
        key = get_game(last.hand.game).key("button")
        button = self.store.hand_events(last.hand.id)[0].body.get(key)
        return next_button(seats, button, redealt=False)

    def _faulty_last(self, last: _LastHand, game: str) -> FaultyLast | None:
        """What the table's last hand of ``game`` leaves the next one when its record cannot
        be read (:mod:`~dealer_assist.services.faulty_last`); None when it reads (or is of
        another game: nothing of it is taken over)."""
        why = last.broken()
        if why is None or last.hand is None or last.hand.game != game:
            return None
        hand = last.hand
        ledger = self.store.ledger(hand.id) if hand.status == "settled" else []
        return read_what_is_left(get_game(game), hand, self.store.hand_events(hand.id),
                                 ledger, why)

    def _carried_from_last(
        self, last: _LastHand, game: str, seats: tuple[int, ...]
    ) -> dict[str, Any]:
        """What the game takes over from the table's last settled hand of the same game
        (:func:`next_hand.carried_over`); nothing after a change of game."""
        if last.hand is None or last.hand.game != game or last.hand.status != "settled":
            return {}
        return carried_over(last.replay(), seats)

    def uses_stacks(self, table_id: int) -> bool:
        """Whether the table's game (current settings) is played with stacks."""
        version = self.settings(table_id)
        parsed = parse_table_settings(version.document, source=self.table(table_id).name)
        return "stacks" in per_hand_keys(parsed.game)

    def next_stacks(self, table_id: int, seats: Sequence[int] | None = None) -> dict[int, int]:
        """For games played with stacks: each seat's chips for the next hand if nothing is
        bought: what it left the last settled hand of this game with, else the buy-in (absent:
        the table has no buy-in and the seat did not play that hand). Empty for other games."""
        version = self.settings(table_id)
        parsed = parse_table_settings(version.document, source=self.table(table_id).name)
        if "stacks" not in per_hand_keys(parsed.game):
            return {}
        playing = tuple(seats) if seats is not None else parsed.seats
        kept = self._stacks_from_last(_LastHand(self, self.store.last_hand(table_id)),
                                      parsed.game)
        out = {s: kept[s] for s in playing if s in kept}
        if parsed.buy_in is not None:
            out.update({s: parsed.buy_in for s in playing if s not in kept})
        return out

    def _stacks_from_last(self, last: _LastHand, game: str) -> dict[int, int]:
        """Each seat's chips after the table's last settled hand of ``game``
        (:func:`next_hand.stacks_after`)."""
        hand = last.hand
        if hand is None or hand.game != game or hand.status != "settled":
            return {}
        return stacks_after(last.replay())

    def _carry_from_last(self, last: _LastHand, game: str) -> int:
        hand = last.hand
        if hand is None or hand.game != game or hand.status != "settled":
            return 0
        return sum(x.amount for x in self.store.ledger(hand.id) if x.kind == "carry_out")


@dataclass(frozen=True, slots=True)
class GameSoFar:
    """A table's latest game (:meth:`HandReads.game_so_far`): its hands in order, whether
    its last hand ended it, and the game's score sheet of them (None for games of one hand)."""

    hands: tuple[Hand, ...]
    over: bool
    sheet: ScoreSheet | None


class _LastHand:
    """The table's last hand as the start of a hand consults it: read once, and replayed
    from the store at most once (button, carry-over, what the game carries, a misdeal)."""

    def __init__(self, services: HandReads, hand: Hand | None) -> None:
        self.services = services
        self.hand = hand
        self._replay: HandReplay | None = None
        self._broken: str | None = None

    def replay(self) -> HandReplay:
        assert self.hand is not None
        if self._replay is None:
            self._replay = self.services.hand_replay(self.hand.id)
        return self._replay

    def broken(self) -> str | None:
        """Why the last hand's stored record does not replay (an event its game's reader
        refuses, written behind the app's back), or None (it replays, or there is none)."""
        if self.hand is None:
            return None
        if self._broken is None:
            try:
                self.replay()
                self._broken = ""
            except HandLogError as exc:
                self._broken = str(exc)
        return self._broken or None


def _carries_in(game: Game[Any], params: Mapping[str, Any]) -> bool:
    """Whether a hand's start takes something over from the hand before it: what the game
    declares it carries, or chips of a pot carried in (a pot that runs until it is won)."""
    if any(k in params for k in game.carries):
        return True
    carried = params.get(game.key("carry_in"))
    return isinstance(carried, int) and not isinstance(carried, bool) and carried > 0
