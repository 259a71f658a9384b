"""Hands: starting one (with what the table's last hand leaves it), recording inputs, voids,
misdeals and the settlement."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import HandReplay, Step, misdeal_refusal, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError, HandLogError, RuleViolation
from dealer_assist.events import Event, Misdeal, Start, Void

#: Wrong PINs in a row that lock a user, and for how long.
from dealer_assist.services.approvals import (
    carry_change,
    floor_subject,
    misdeal_subject,
    start_subject,
    void_subject,
)
from dealer_assist.services.base import (
    Approval,
    HandNow,
    _body,
)
from dealer_assist.services.dealer_hooks import deals_here, not_down_here
from dealer_assist.services.draws import check_drawn
from dealer_assist.services.errors import (
    ApprovalRequired,
)
from dealer_assist.services.faulty_last import refusal, starts_from, unreadable_line
from dealer_assist.services.hand_reads import HandReads, _LastHand
from dealer_assist.services.handrules import NEW_GAME
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.model import (
    NewEvent,
    Session,
)
from dealer_assist.services.next_hand import (
    stacks_for,
)
from dealer_assist.services.overmark import over_mark
from dealer_assist.settings import (
    parse_table_settings,
    per_hand_keys,
    start_event,
)


class HandServices(HandReads):
    """Hands as they are dealt: start, record, void, misdeal, settle, and the next hand's
    button, stacks and carry-overs."""

    # --- hands and events --------------------------------------------------------------------
    def start_hand(
        self,
        session: Session,
        table_id: int,
        *,
        seats: Sequence[int] | None = None,
        button: int | None = None,
        stacks: Mapping[int, int] | None = None,
        carry_in: int | None = None,
        new_game: bool = False,
        approval: Approval | None = None,
    ) -> HandNow:
        """Start a hand in the table's open shift from its current settings version.

        ``seats`` (clockwise, a subset of the table's) defaults to every seat. For games whose
        hands take them: ``button`` defaults to the seat after the last hand's button,
        ``carry_in`` to the last settled hand's carry-over, and each seat's stack to what it
        left the table's last settled hand with (:meth:`next_stacks`), or the buy-in. ``stacks``
        gives some or all seats' stacks instead (a rebuy, a new player): each one that differs
        from what the seat had is written to the audit log. ``new_game``: the hand starts a new
        game of a game played over many hands, taking nothing the game carries (a running
        total, a card kept) from the hand before; written to the audit log, so verify accepts it.
        Ending a game that is not over drops what the players have built up: when the game
        carries something, a floor person (not the one asking) approves it (``approval``),
        logged with it.
        """
        self._require(session, "deal", "deal hands")
        table = self.table(table_id)
        shift = self.store.current_shift(table.id)
        if shift is None:
            raise RuleViolation(f"{table.name} has no open shift: open a shift first")
        if not deals_here(self, session, table.id, shift):
            raise RuleViolation(
                f"{table.name}'s open shift is {shift.dealer}'s: {shift.dealer} closes it with "
                "the floor, then open your own shift to deal" if self.dealer_box is None else
                not_down_here(self, session, table.id, table.name)
            )
        last = _LastHand(self, self.store.last_hand(table.id))  # read, and replayed, once
        if last.broken() is None:  # (a hand that cannot be read cannot be finished either)
            self._previous_hand_done(last)
        version = self.settings(table.id)
        parsed = parse_table_settings(version.document, source=table.name)
        if seats is not None:
            playing = tuple(seats)
            stray = [s for s in playing if s not in parsed.seats]
            if stray or len(set(playing)) != len(playing) or not playing:
                raise BadInput(
                    f"seats must be some of the table's seats {list(parsed.seats)}, once each"
                )
            parsed = replace(parsed, seats=playing)
        keys = per_hand_keys(parsed.game)
        button_key = get_game(parsed.game).key("button")
        per_hand: dict[str, Any] = {}
        faulty = self._faulty_last(last, parsed.game)
        carried = {} if faulty else self._carried_from_last(last, parsed.game, parsed.seats)
        if button is None and isinstance(carried.get(button_key), int):
            button = carried[button_key]
        carried.pop(button_key, None)
        changed: list[str] = []
        #: What the floor approves: a new game, a carry-in other than the last hand's carry-out,
        #: chips taken off the table while a pot carries (rebuys are the dealer's, recorded).
        needs: list[str] = []
        if new_game and carried:
            needs.append(f"{NEW_GAME}: {', '.join(sorted(carried))} not carried from the "
                         "last hand")
            carried = {}
        if carried:
            per_hand["carried"] = carried
        if "button" in keys:
            per_hand["button"] = button if button is not None else self._next_button(
                last, parsed.seats
            )
        carried_in = self._carry_from_last(last, parsed.game) if "carry_in" in keys else 0
        if "stacks" in keys:
            kept = faulty.stacks if faulty else self._stacks_from_last(last, parsed.game)
            per_hand["stacks"], rebought = stacks_for(
                kept, parsed.seats, parsed.buy_in, stacks or {})
            for line, (seat, value) in zip(rebought, [
                    (s, v) for s, v in per_hand["stacks"].items()
                    if s in (stacks or {}) and v != kept.get(s, parsed.buy_in)], strict=True):
                if faulty or (carried_in > 0 and seat in kept and value < kept[seat]):
                    needs.append(line)  # chips off the table while the pot carries
                else:
                    changed.append(line)
        if "carry_in" in keys:
            given = carry_in if carry_in is not None else faulty.carry if faulty else carried_in
            per_hand["carry_in"] = given
            if given != carried_in:
                needs.append(carry_change(given, carried_in))
        if faulty:  # the floor approves what the table goes on from
            needs.insert(0, unreadable_line(faulty, get_game(parsed.game)))
        approver = None
        if needs:
            if approval is None and faulty:
                raise ApprovalRequired(refusal(table.name, faulty,
                                               starts_from(per_hand, get_game(parsed.game))))
            if approval is None:
                what = ("a new game at {t} drops what the last hand carries ({c})" if new_game
                        else "the next hand at {t} changes what the last hand left it ({c})")
                raise ApprovalRequired(what.format(t=table.name, c="; ".join(needs))
                                       + ": a floor person approves it with their PIN")
            after = last.hand.number if last.hand is not None else 0
            approver = self.approve(approval, what=start_subject(table.name, after, needs),
                                    table_id=table.id, session=session)
            changed.extend(needs)
        start = start_event(parsed, **per_hand)
        game = get_game(parsed.game)
        game.check_chips(start.params)
        state = game.start(start)  # RuleViolation: nothing stored
        hand, row = self.store.start_hand(
            table_id=table.id, shift_id=shift.id, settings_id=version.id, game=parsed.game,
            seats=start.seats,
            start=NewEvent(body=_body(start), actor=session.name, time=self.clock(),
                           approval_id=None if approver is None else approver.entry),
        )
        if changed:
            by = "" if approver is None else f"; approved by {approver.name}"
            self._audit(session.name, "stacks", f"hand {hand.number}: " + "; ".join(changed)
                        + by, table_id=table.id, hand_id=hand.id)
        first = Step(1, 1, start, state, (f"start: {game.title}",))
        rep = HandReplay(game=game, start=start, steps=(first,))
        now = HandNow(hand=hand, replay=rep, last=row)
        self._live[hand.id] = now
        return now

    def _previous_hand_done(self, last: _LastHand) -> None:
        """A new hand starts only after the table's last one is settled: its chips are pushed
        and recorded (a misdeal too: settling it records the chips given back)."""
        hand = last.hand
        if hand is None or hand.status == "settled":
            return
        if self.hand_now(hand.id).over:
            raise RuleViolation(
                f"hand {hand.number} is finished but not settled: settle it (push the chips "
                "and record it) before the next hand"
            )
        raise RuleViolation(
            f"hand {hand.number} is still being dealt: finish it (or call a misdeal) and "
            "settle it before the next hand"
        )

    def record(
        self, session: Session, hand_id: int, event: Event, *, approval: Approval | None = None
    ) -> HandNow:
        """Check ``event`` against the hand, then append it. A :class:`Void` goes through
        :meth:`void`. Raises RuleViolation (nothing stored) when the game refuses it. An event
        the game names a floor decision (``Game.floor_events``) needs a floor person's
        ``approval``, logged with it."""
        if isinstance(event, Void):
            return self.void(session, hand_id, event.target, event.reason, approval=approval)
        if isinstance(event, Misdeal):
            return self.misdeal(session, hand_id, event.reason, approval=approval)
        self._require(session, "deal", "record events")
        if isinstance(event, Start):
            raise RuleViolation("a hand has one start: start a new hand instead")
        now = self.hand_now(hand_id)
        if now.replay.misdeal is not None:
            raise RuleViolation(misdeal_refusal(now.replay.misdeal))
        game = now.replay.game
        body = _body(event, game)  # the game's reader first: BadInput, nothing stored
        check_drawn(self._draws.get(hand_id), now.hand.events, event)
        after = game.apply(now.replay.state, event)  # RuleViolation: nothing stored
        if event.TYPE in game.floor_events:  # the floor decides: its approval on the record
            if approval is None:
                raise ApprovalRequired(
                    f"{event.TYPE} is the floor's decision: a floor person approves it with "
                    "their PIN")
            approved = self.approve(approval, what=floor_subject(event.TYPE, now.hand.number),
                                    table_id=now.hand.table_id, hand_id=hand_id).entry
        else:
            approved = None
        row = self._append(now, event, session.name, body, approval_id=approved,
                           over_mark=over_mark(game, now.replay.start, after,
                                               over=game.is_over(after), misdealt=False))
        self._draws.pop(hand_id, None)
        if event.TYPE in game.floor_events:
            assert approval is not None
            self._audit(session.name, "floor-decision",
                        f"hand {now.hand.number} event {row.number}: {event.to_line()}; "
                        f"decided by {approval.name}",
                        table_id=now.hand.table_id, hand_id=hand_id)
        step = Step(
            row.number, row.number, event, after,
            tuple(game.narrate(now.replay.state, event, after)),
        )
        new = HandNow(
            hand=replace(now.hand, events=row.number),
            replay=replace(now.replay, steps=(*now.replay.steps, step)),
            last=row,
        )
        self._live[hand_id] = new
        return new

    def drop_kept(
        self, session: Session, words: str, *, table_id: int | None = None,
        hand_id: int | None = None,
    ) -> None:
        """An input the database did not take, which the dealer chose to drop rather than send:
        it was never recorded, so nothing is voided, but the drop is written to the audit log
        ("input-dropped") so nobody can make an input vanish without a trace."""
        self._require(session, "deal", "drop a kept input")
        self._audit(session.name, "input-dropped", f"not recorded, dropped: {words}",
                    table_id=table_id, hand_id=hand_id)

    def void(
        self,
        session: Session,
        hand_id: int,
        target: int,
        reason: str,
        *,
        approval: Approval | None = None,
    ) -> HandNow:
        """Void the hand's event number ``target`` with a reason. In a finished hand (over or
        settled) the floor must approve; the hand then reopens and is settled again."""
        self._require(session, "deal", "void events")
        if not reason.strip():
            raise BadInput("a void needs a reason")
        now = self.hand_now(hand_id)
        finished = now.hand.status == "settled" or now.over
        approved = None
        if finished:
            if approval is None:
                raise ApprovalRequired(
                    "the hand is finished: a floor person must approve this void with their PIN"
                )
            approved = self.approve(approval, what=void_subject(target, now.hand.number),
                                    table_id=now.hand.table_id, hand_id=hand_id,
                                    session=session).entry
        void = Void(target=target, reason=reason.strip())
        events = [s.event for s in now.replay.steps] + [void]
        try:
            rep = replay(events)
        except HandLogError as exc:
            if exc.line == len(events):
                raise RuleViolation(exc.reason) from exc
            raise RuleViolation(
                f"cannot void event {target}: event {exc.line} would then be wrong ({exc.reason})"
            ) from exc
        row = self._append(now, void, session.name, approval_id=approved,
                           over_mark=over_mark(rep.game, rep.start, rep.state, over=rep.over,
                                               misdealt=rep.misdeal is not None))
        if now.hand.status == "settled":
            self.store.reopen_hand(hand_id)
        detail = f"event {target} ({now.replay.steps[target - 1].event.TYPE}): {void.reason}"
        if approval is not None:
            detail += f"; approved by {approval.name}"
        self._audit(session.name, "void", detail, table_id=now.hand.table_id, hand_id=hand_id)
        new = HandNow(
            hand=replace(now.hand, events=row.number, status="open"), replay=rep, last=row
        )
        self._live[hand_id] = new
        return new

    def misdeal(
        self, session: Session, hand_id: int, reason: str, *, approval: Approval | None = None
    ) -> HandNow:
        """Call the hand off as a misdeal, with a reason and a floor person's approval: every
        chip goes back to the seat that put it in (settle the hand to record that), no fee is
        taken, and the next hand keeps the same button. A settled hand reopens."""
        self._require(session, "deal", "call a misdeal")
        if not reason.strip():
            raise BadInput("a misdeal needs a reason")
        now = self.hand_now(hand_id)
        if now.replay.misdeal is not None:
            raise RuleViolation(f"hand {now.hand.number} is already a misdeal")
        if approval is None:
            raise ApprovalRequired("a misdeal needs a floor person's approval with their PIN")
        call = Misdeal(reason=reason.strip())
        events = [s.event for s in now.replay.steps] + [call]
        try:
            rep = replay(events)
        except HandLogError as exc:
            raise RuleViolation(exc.reason) from exc
        approved = self.approve(approval, what=misdeal_subject(now.hand.number),
                                table_id=now.hand.table_id, hand_id=hand_id,
                                session=session).entry
        row = self._append(now, call, session.name, approval_id=approved,
                           over_mark=over_mark(rep.game, rep.start, rep.state, over=rep.over,
                                               misdealt=True))
        if now.hand.status == "settled":
            self.store.reopen_hand(hand_id)
        self._audit(session.name, "misdeal",
                    f"hand {now.hand.number}: {call.reason}; approved by {approval.name}",
                    table_id=now.hand.table_id, hand_id=hand_id)
        new = HandNow(
            hand=replace(now.hand, events=row.number, status="open"), replay=rep, last=row
        )
        self._live[hand_id] = new
        return new

    def settle(self, session: Session, hand_id: int) -> Settlement:
        """Write the finished hand's ledger lines (put in, pushes, fees, carries)."""
        self._require(session, "deal", "settle hands")
        now = self.hand_now(hand_id)
        if not now.over:
            raise RuleViolation(f"the hand is not over yet: {now.prompt().message}")
        settlement = now.settlement()
        if not settlement.conserved:
            raise DealerAssistError(
                f"the settlement does not add up (in {settlement.total_in}, out "
                f"{settlement.total_out}); nothing was written: call the floor"
            )
        if now.hand.status != "settled":
            self.store.settle_hand(hand_id, ledger_lines(hand_id, settlement))
            self._live[hand_id] = replace(now, hand=replace(now.hand, status="settled"))
        return settlement
