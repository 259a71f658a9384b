"""The contract every registered game keeps, run over the registry (a new game is tested by
registering it): its declaration is consistent; its sample hands replay, finish, conserve chips
and read back from their JSON lines exactly; a misdeal at any point gives every chip back; and
in a demo database its hands verify, appear in the shift reports, and keep secret cards out of
the hand report."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anygame  # registers Tally, the test game that uses every capability a game may
import pytest

from dealer_assist.engine.base import PER_HAND_KEYS, Game
from dealer_assist.engine.hand import HandReplay, parse_lines, replay, to_lines
from dealer_assist.engine.log import hand_events
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.events import SHARED, Misdeal, Start
from dealer_assist.services import Argon2PinHasher
from dealer_assist.services.base import HandNow
from dealer_assist.services.model import Hand, StoredEvent
from dealer_assist.services.next_hand import carried_over, last_button, next_button, stacks_after

#: The games this installation ships (test doubles registered by other test modules left out).
GAMES = [g for g in game_names() if type(get_game(g)).__module__.startswith("dealer_assist.")]
#: The shipped games and the test game Tally (tests/anygame), which uses every capability.
WITH_TEST_GAME = [*GAMES, anygame.NAME]
AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)
FAST = Argon2PinHasher(fast=True)


def _hands(game: Game[Any], count: int, seed: int = 7) -> list[list[Any]]:
    rng = random.Random(seed)
    low, high = game.players
    return [game.sample_hand(rng, players=rng.randint(low, min(high, 6))) for _ in range(count)]


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_declaration_is_consistent(name: str) -> None:
    game = get_game(name)
    low, high = game.players
    assert 1 <= low <= high
    assert set(game.start_keys) <= set(PER_HAND_KEYS)
    # the shared events are in every game's vocabulary (a game may give a shared tag its own
    # fields); each class is filed under its own tag
    assert set(SHARED) <= set(game.events)
    assert all(tag == cls.TYPE for tag, cls in game.events.items())
    assert game.events["start"] is Start and game.events["misdeal"] is Misdeal
    if game.demo is not None:
        assert game.demo.settings["game"] == name
        assert low <= game.demo.players[0] <= game.demo.players[1] <= high


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_sample_hands_replay_conserve_and_round_trip(name: str) -> None:
    game = get_game(name)
    for events in _hands(game, 12):
        start = events[0]
        assert isinstance(start, Start) and start.game == name
        # the start carries the per-hand keys the game declares, and no others
        # (under the game's names for them: a "dealer", a "pot_in")
        assert {k for k in PER_HAND_KEYS if game.key(k) in start.params} == set(game.start_keys)
        hand = replay(events)
        assert hand.over
        settlement = hand.settle()
        assert settlement.conserved
        assert set(settlement.put_in) <= set(start.seats)
        # JSON lines read back as the same events, by the start line's game
        again, _ = parse_lines(to_lines(events).splitlines())
        assert again == events
        assert hand_events(e.to_json() for e in events) == events
        assert replay(again).settle() == settlement
        left = game.stacks_left(hand.state)
        assert (left is not None) == game.plays_with_stacks
        for seat in start.seats:
            assert game.held(hand.state, seat) >= 0
        assert game.secret_seats(hand.state) <= set(start.seats)


def _called_off(events: list[Any], cut: int, hand: HandReplay, call: Misdeal) -> HandReplay:
    """The hand called off after its first ``cut`` events, as :func:`replay` of those events
    and the misdeal folds it, from the steps of the whole hand's replay (folding every prefix
    again would make the test quadratic in a hand's length)."""
    return HandReplay(game=hand.game, start=events[0], steps=hand.steps[:cut], misdeal=call)


def _between_hands(rep: HandReplay, before: list[Any]) -> None:
    """What the dealer's screen and the services read of a hand called off, once it is settled:
    the prompt (the misdeal's, done: the next hand comes), the table, the game's score sheet
    of the game so far with this hand last, whether the game goes on, and the next hand's
    start (the same button, what the game carries after a redeal, the stacks)."""
    game, start = rep.game, rep.start
    hand = Hand(id=1, table_id=1, shift_id=1, number=len(before) + 1, game=start.game,
                seats=tuple(start.seats), started_at=AT, started_by="dee", settings_id=1,
                status="settled", events=len(rep.steps) + 1)
    last = StoredEvent(table_id=1, seq=len(rep.steps) + 1, hand_id=1,
                       number=len(rep.steps) + 1, time=AT, actor="dee",
                       body=Misdeal(reason="card exposed").to_json(), prev_hash="", hash="")
    now = HandNow(hand=hand, replay=rep, last=last)
    prompt = now.prompt()
    assert (prompt.phase, prompt.done, prompt.to_act) == ("misdeal", True, None)
    assert prompt.actions == ()
    view = now.view()
    assert view.to_act is None and "Misdeal: card exposed" in view.info
    sheet = game.score_sheet([*before, rep.state])
    if sheet is not None:
        assert sheet.text()
    game.game_over(rep.state)
    game.report(rep.state)
    carried = carried_over(rep, tuple(start.seats))
    key = game.key("button")
    if game.rotates:
        assert carried[key] == start.params[key]
        assert next_button(tuple(start.seats), last_button(rep), redealt=True) == start.params[key]
    stacks = start.get(game.key("stacks"))
    if stacks is not None:  # every seat leaves with the stack it brought
        assert stacks_after(rep) == {int(seat): n for seat, n in stacks.items()}


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_misdeal_after_every_input_gives_back_every_chip_and_offers_the_next_hand(
    name: str,
) -> None:
    """Regression (a misdeal in Rams or Preference left the dealer with no push steps and no
    next hand: the score sheet settled the unfinished hand): each sample hand is called off
    after every one of its inputs (after the last too: the floor may call off a finished
    hand); every chip goes back to the seat that put it in, no fee is taken, the carry passes
    on untouched, and the screen and the services between hands do not fail on it."""
    game = get_game(name)
    hands = _hands(game, 3, seed=11)
    done = [replay(events) for events in hands]
    for i, (events, whole) in enumerate(zip(hands, done, strict=True)):
        # (the game so far: the other sample hands, finished, then this one called off)
        before = [h.state for j, h in enumerate(done) if j != i and h.over]
        call = Misdeal(reason="card exposed")
        for cut in range(1, len(events) + 1):
            rep = _called_off(events, cut, whole, call)
            s = rep.settle()
            assert s.conserved and not s.fees
            assert dict(s.payouts) == dict(s.put_in)
            assert s.carry_out == s.carry_in == game.carried_in(rep.state)
            assert s.extra["misdeal"] == "card exposed"
            assert all(step.kind in ("return", "carry") for step in s.steps)
            assert sum(step.amount for step in s.steps if step.kind == "return") == sum(
                s.put_in.values())
            _between_hands(rep, before)
        # the replay folds the misdeal as the steps above read it (at a few cuts: each is a
        # whole replay)
        for cut in (1, len(events) // 2, len(events)):
            folded = replay([*events[:cut], call])
            assert folded.misdeal == call and folded.over
            assert folded.settle() == _called_off(events, cut, whole, call).settle()


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_sample_hand_refuses_a_setting_it_does_not_take(name: str) -> None:
    with pytest.raises(ValueError, match="do not take"):
        get_game(name).sample_hand(random.Random(1), players=get_game(name).players[0],
                                   params={"no_such_setting": 1})


def test_a_game_may_give_a_tag_fields_of_its_own() -> None:
    """Two games read one tag in two shapes: each log by its start line's game."""
    from dealer_assist.games.champs_and_cowards.events import EVENTS as CC
    from dealer_assist.games.chinese_poker.events import EVENTS as CP

    assert "champ" in CC and "champ" not in CP and "natural" in CP and "natural" not in CC
    cc = '{"type":"start","game":"champs-and-cowards","seats":[1,2,3]}'
    cp = '{"type":"start","game":"chinese-poker","seats":[1,2],"button":1}'
    assert parse_lines([cc, '{"type":"champ","seat":1}'])[0][1].TYPE == "champ"
    from dealer_assist.errors import HandLogError

    with pytest.raises(HandLogError, match='line 2: unknown event type "champ"'):
        parse_lines([cp, '{"type":"champ","seat":1}'])


def test_bet_and_raise_may_carry_to_and_old_lines_read_as_before() -> None:
    from dealer_assist.events import Bet, Raise, event_from_json

    assert event_from_json({"type": "bet", "seat": 1}).to_json() == {"type": "bet", "seat": 1}
    assert event_from_json({"type": "raise", "seat": 2, "to": 4000}) == Raise(seat=2, to=4000)
    assert Bet(seat=1, to=300).to_json() == {"type": "bet", "seat": 1, "to": 300}


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from dealer_assist.db.bootstrap import open_database, open_services
    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.demo_plan import demo_kinds

    url = f"sqlite:///{Path(tmp_path_factory.mktemp('contract')) / 'demo.db'}"
    db = open_database(url)
    tables = len(demo_kinds())  # (every demo table of every game: Tally's comes last)
    fill_demo(db, hands=6 * tables, tables=tables, seed=9, hasher=FAST, workers=1)
    db.close()
    return url, open_services(url)


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_every_game_is_in_the_demo_verifies_and_is_in_the_shift_report(
    name: str, demo_db: Any
) -> None:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.verify import verify_database
    from dealer_assist.reports.build.shift import build_shift
    from dealer_assist.services import HandFilter

    url, svc = demo_db
    assert get_game(name).demo is not None, f"{name} declares no demo table"
    hands = [h for h in svc.store.list_hands(HandFilter(limit=None)) if h.game == name]
    assert hands, f"the demo deals no {name} hand"
    db = open_database(url)
    report = verify_database(db)
    db.close()
    assert report.ok, report.summary()
    titles = {build_shift(svc.store, shift_id=s.id, by="test", at=AT).game
              for s in svc.list_shifts()}
    assert any(get_game(name).title in t for t in titles)


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_hand_report_withholds_the_cards_of_secret_seats(name: str, demo_db: Any) -> None:
    from dealer_assist.reports.build.hand import build_hand
    from dealer_assist.services import HandFilter

    _, svc = demo_db
    game = get_game(name)
    checked = 0
    for h in svc.store.list_hands(HandFilter(limit=None)):
        if h.game != name:
            continue
        hand = replay(hand_events(e.body for e in svc.store.hand_events(h.id)))
        secret = game.secret_seats(hand.state)
        codes = {c.code for st in hand.steps if st.event.seat_of in secret
                 for c in st.event.carried_cards()}
        shown = {c.code for st in hand.steps if st.event.seat_of not in secret
                 for c in st.event.carried_cards()}
        codes -= shown  # (a card also named by an open seat's event is no secret)
        if not codes:
            continue
        r = build_hand(svc.store, hand_id=h.id, by="test", at=AT)
        pattern = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, codes)) +
                             r")(?![A-Za-z0-9])")
        for line in r.events:
            assert not pattern.search(line.text), line.text
        for snap in r.snapshots:
            for seat in snap.seats:
                if seat.seat in secret:
                    assert not seat.cards
        checked += 1
    # (games whose cards all end face up, such as the open-face ones, have nothing to withhold:
    # ``checked`` stays 0 for them)


def _given(action: Any, event: Any) -> dict[str, Any]:
    """What the dealer gave for ``action``'s inputs to record ``event``: its fields' values."""
    from dealer_assist.engine.inputs import filled
    from dealer_assist.events import field_names

    names = field_names(type(event))
    out: dict[str, Any] = {}
    for value in action.inputs:
        for key in filled(value):
            if key in names and getattr(event, names[key]) is not None:
                out[key] = getattr(event, names[key])
    return out


@pytest.mark.parametrize("name", WITH_TEST_GAME)
def test_every_enabled_action_builds_an_event_that_check_accepts(name: str) -> None:
    """The engine builds each action's event (no screen guesses fields): at every step of
    sample hands, each enabled action that takes no input builds an event the game accepts,
    and every event the hand took next is what one enabled action builds from that event's
    values for its inputs (and the game accepts it)."""
    from dealer_assist.engine.build import build_event
    from dealer_assist.errors import BadInput

    game = get_game(name)
    missed: list[str] = []
    for events in _hands(game, 6, seed=5):
        hand = replay(events)
        for before, event in zip(hand.steps, events[1:], strict=False):
            state = before.state
            found = False
            for action in game.prompt(state).actions:
                if not action.enabled:
                    continue
                if not action.inputs:
                    built = build_event(action, vocab=game.events)
                    assert game.can(state, built), (name, action, built)
                if action.event_type == event.TYPE and action.seat == event.seat_of:
                    try:
                        built = build_event(action, _given(action, event), vocab=game.events)
                    except BadInput:  # (another action of the kind fits: another row)
                        continue
                    if built == event:
                        game.check(state, built)
                        found = True
            if not found:
                missed.append(event.to_line())
    assert missed == []


@pytest.mark.parametrize("name", [g for g in WITH_TEST_GAME if get_game(g).demo is not None])
def test_misdeal_through_the_services_settles_and_the_next_hand_follows(name: str) -> None:
    """Regression (after F4 and the floor's approval a Rams or Preference table was stuck:
    ``game_so_far`` settled the misdealt hand and failed): at each game's demo table a finished
    hand, then a hand called off half way (or at its start when the sample cannot be dealt to
    the table's start), settle; the table's game so far reads, and the next hand starts with
    the same dealer or button."""
    from dealer_assist.services import Approval, ApprovalRequired, InMemoryStore, Services

    game = get_game(name)
    assert game.demo is not None
    svc = Services(InMemoryStore("Contract"), hasher=FAST)
    svc.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    ada = svc.sign_in("ada", "9999")
    svc.add_user(ada, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    svc.add_user(ada, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    table = svc.add_table(ada, dict(game.demo.settings), name="T")
    dee = svc.sign_in("dee", "1111")
    svc.open_shift(dee, table.id, floor="fran")
    rng = random.Random(3)

    def deal(stop: float) -> Any:
        """A hand at the table: its sample events recorded up to ``stop`` of them."""
        now = svc.start_hand(dee, table.id)
        first = now.replay.start
        try:
            events = game.sample_hand(rng, players=len(first.seats), params=dict(first.params))
        except ValueError:  # (the sample takes other settings than the table's start)
            events = [first]
        if events[0] != first:
            events = [first]
        for ev in events[1:max(1, int(len(events) * stop))]:
            try:
                now = svc.record(dee, now.hand.id, ev)
            except ApprovalRequired:  # (a floor's ruling: the hand stops short of it)
                break
        return now

    finished = deal(1.0)
    if not finished.over:
        svc.misdeal(dee, finished.hand.id, "short", approval=Approval("fran", "2222"))
    svc.settle(dee, finished.hand.id)
    called = deal(0.5)
    now = svc.misdeal(dee, called.hand.id, "card exposed", approval=Approval("fran", "2222"))
    assert now.over and now.prompt().phase == "misdeal" and now.prompt().done
    s = svc.settle(dee, now.hand.id)
    assert dict(s.payouts) == dict(s.put_in) and s.carry_out == s.carry_in
    so_far = svc.game_so_far(table.id)
    if so_far.sheet is not None:
        assert so_far.sheet.rows and so_far.sheet.text()
    nxt = svc.start_hand(dee, table.id)
    key = game.key("button")
    if game.rotates:
        assert nxt.replay.start.get(key) == called.replay.start.get(key)
    assert nxt.replay.start.get(game.key("carry_in"), 0) == called.replay.start.get(
        game.key("carry_in"), 0)
