"""The games' dossier numbers are read off a finished hand's state and settlement (the
simulation measures every hand); they must say what ``replay --json`` (``Game.report``) says of
the same hand."""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.games.caro_holdem import dossier as caro
from dealer_assist.games.champs_and_cowards import dossier as cc
from dealer_assist.games.pineapple import dossier as pineapple


def _hands(name: str, n: int, players: int) -> list[tuple[Any, Any, Any]]:
    game = get_game(name)
    rng = random.Random(21)
    out = []
    for demo in game.demo_tables():
        params = dict(demo.sample) or dict(demo.settings.get("params", {}))
        for _ in range(n):
            dealt = game.sample_deal(rng, players=players, params=params)
            out.append((game, dealt.state, game.settle(dealt.state)))
    return out


def test_champs_and_cowards_numbers_are_what_its_report_says() -> None:
    places = {3: "three places paid", 2: "two places paid (third carries)",
              1: "one place paid (second and third carry)"}
    seen = set()
    for game, state, s in _hands("champs-and-cowards", 200, 4):
        r = game.report(state)
        statuses = [v["status"] for v in r["seats"].values()]
        want = {
            "cards_bought": sum(int(v["champs"]) for v in r["seats"].values()),
            "destroyed_card": statuses.count("destroyed"),
            "destroyed_voluntary": statuses.count("voluntarily_destroyed"),
            "destroyed_dealer": statuses.count("dealer_destroyed"),
            "any_destroyed": any(x != "standing" for x in statuses),
            "bonus_pool": r["bonus_pool"],
            "reshuffled": r["reshuffles"] > 0,
            "exhausted": r["exhausted"],
            "places": places.get(len(r["places"]), "no hand stands (everything carries)"),
        }
        got = cc.measure(game, state, s)
        assert got == want
        seen.add(got["places"])
    assert len(seen) >= 3  # (hands with three, two and fewer places paid were among them)


def test_caro_numbers_are_what_its_report_says() -> None:
    kept_words = {1: "1 card", 2: "2 cards", 3: "3 cards", 4: "4 cards", 5: "5 cards"}
    showdowns = 0
    for game, state, s in _hands("caro-holdem", 80, 5):
        r = game.report(state)
        shown, pots = r["best_hands"], r["pots"]
        want: dict[str, Any] = {"showdown": len(shown) >= 2, "side_pots": max(0, len(pots) - 1)}
        if pots and pots[0]["winners"]:
            winner = pots[0]["winners"][0]
            kept = r["cards_held"][str(winner)]
            want[f"pot_kept_{kept}"] = sum(p["amount"] for p in pots)
            if len(shown) >= 2:
                showdowns += 1
                want["kept"] = f"winner kept {kept_words[kept]}"
                if str(winner) in shown:
                    category = shown[str(winner)]["category"]
                    want["category"] = category
                    want["by_kept"] = f"{kept_words[kept]}: {category}"
        assert caro.measure(game, state, s) == want
    assert showdowns > 10


def test_pineapple_numbers_are_what_its_report_says_in_every_variant() -> None:
    lows = 0
    for game, state, s in _hands("pineapple", 80, 6):
        got = pineapple.measure(game, state, s)
        assert got == pineapple._reported(game.report(state))
        lows += "low" in got
    assert lows > 10  # (the hi-lo table's hands were among them)


def test_guts_numbers_are_what_its_report_says() -> None:
    from dealer_assist.games.guts import dossier as guts

    splits = 0
    for game, state, s in _hands("guts", 300, 6):
        r = game.report(state)
        ins = sum(1 for v in r["declarations"].values() if v == "in")
        want = {
            "nobody_in": ins == 0, "unseen": ins == 1, "showdown": ins >= 2,
            "split": len(r["winners"]) >= 2 if ins >= 2 else None,
            "short": bool(r["could_not_cover"]), "barred": None,  # (the demo table pays)
            "pot_played": r["pot"], "pot_left": r["carry"],
        }
        assert guts.measure(game, state, s) == want
        assert game.game_over(state) == (s.carry_out == 0)
        splits += bool(want["split"])
    assert splits > 0


def test_mille_numbers_are_what_its_report_says_through_whole_games() -> None:
    from dealer_assist.dossier.simulate import followed_on, plan
    from dealer_assist.engine.hand import replay
    from dealer_assist.games.mille import dossier as mille
    from dealer_assist.settings.table import parse_table_settings

    demo = get_game("mille").demo
    assert demo is not None
    document = dict(demo.settings)
    ended = 0
    for events in followed_on(plan(document, parse_table_settings(document)),
                              random.Random(4), 40):
        hand = replay(events)
        game, state, s = hand.game, hand.state, hand.settle()
        r = game.report(state)
        pay = r.get("settlement")
        want = {
            "score": max(r["hand_scores"].values()),
            "naturals": sum(v["hand"] for v in r["naturals"].values()),
            "chapeau": any(v["hand"] for v in r["chapeaux"].values()),
            "game_over": r["game_over"],
            "paid": pay["total"] if pay else None,
            "skunk": {1: "none", 2: "skunk", 3: "double skunk"}[pay["multiplier"]]
            if pay else None,
        }
        want["natural"] = want["naturals"] > 0
        assert mille.measure(game, state, s) == want
        ended += r["game_over"]
    assert ended >= 3  # (games were played to their end among them)
