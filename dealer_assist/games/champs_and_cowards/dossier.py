"""What the game-approval dossier says of Champs and Cowards: the rules and rulings in our
words (as docs/games/champs-and-cowards.md says them), its sample hands' strategy, and the
numbers a board asks of it: cards bought, hands destroyed, places awarded, the bonus pool."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values
from dealer_assist.games.champs_and_cowards.state import (
    DEALER,
    DESTROYED,
    STANDING,
    VOLUNTARILY,
    CCState,
)

#: Places paid, by how many hands stand at the end.
_PLACES = {3: "three places paid", 2: "two places paid (third carries)",
           1: "one place paid (second and third carry)"}


def measure(game: Any, state: CCState, settlement: Settlement) -> Values:
    """One finished hand's numbers, read off its state (what ``replay --json`` reports of it:
    each seat's status and champs, the bonus pool, the shoe's reshuffles, the places)."""
    statuses = [h.status for h in state.hands]
    standing = statuses.count(STANDING)
    return {
        "cards_bought": sum(h.champs for h in state.hands),
        "destroyed_card": statuses.count(DESTROYED),
        "destroyed_voluntary": statuses.count(VOLUNTARILY),
        "destroyed_dealer": statuses.count(DEALER),
        "any_destroyed": standing != len(statuses),
        "bonus_pool": state.bonus_pool,
        "reshuffled": state.shoe.reshuffles > 0,
        "exhausted": state.exhausted,
        "places": _PLACES.get(standing, "no hand stands (everything carries)"),
    }


DOSSIER = GameDossier(
    rules=(
        "Every player antes six chips in three stacks and gets one card face up. In turn, each "
        "player either says champ (pays two chips into the bonus pool for one more card, dealt "
        "after a burn) or coward (stops). A hand dies when its new card has the suit of the card "
        "just before it or the rank of any earlier card. Of the stopped hands, only the best "
        "three stand; the first three places sweep the stacks and the bonus pool.",
        "The app tracks all of it: whose turn it is, which hands are destroyed and why, which "
        "hands to turn face down, what is left in the stub, and the push at the end.",
    ),
    rulings=(
        Ruling("cc-1", "Seats are listed clockwise in the order the dealer deals them; at least "
               "3 players, each seat once; 1 to 8 decks in the shoe."),
        Ruling("cc-2", "Before the deal every player puts up six chips in three stacks: 3 chips "
               "(first place), 2 chips (second) and 1 chip (third)."),
        Ruling("cc-3", "Points: ace 1, two to ten their pips, faces 0."),
        Ruling("cc-4", "Cards rank by points, then king > queen > jack, then suit (spades > "
               "hearts > diamonds > clubs). With several decks two up cards can be identical: "
               "the seat dealt earlier ranks higher."),
        Ruling("cc-5", "Action starts at the best up card and goes clockwise once round."),
        Ruling("cc-6", "Champ: the player pays two chips into the bonus pool, the dealer burns "
               "and deals one card. If it follows the suit of the card just before it or pairs "
               "any earlier card of the hand, the hand is destroyed and turned face down."),
        Ruling("cc-7", "Coward: the player stops. After every stop the standing hands are ranked "
               "by points, then the last card by the card order, then the seat dealt earlier; "
               "a hand below third is turned face down: voluntarily destroyed if it just "
               "stopped, dealer destroyed if it stood before. At most three hands ever stand."),
        Ruling("cc-8", "The last player to act may not stop while its hand would not rank first "
               "and its points are at least the leader's minus 3: it must take a card."),
        Ruling("cc-9", "Settlement: first place sweeps every 3-chip stack and the bonus pool "
               "(less any fee taken from it), second place the remaining 2-chip stacks, third "
               "place the remaining 1-chip stacks; stacks of places no hand takes carry to the "
               "next hand's bonus pool."),
        Ruling("cc-10", "The rules' worked example is one of the app's tests, with its suits "
               "restored."),
        Ruling("cc-11", "The app counts the cards left in the stub. A reshuffle is accepted only "
               "when a champ has paid for a card and the stub is empty; the new stub is every "
               "destroyed hand's cards and every burn card. If no card could come even after a "
               "reshuffle, action stops and every hand still in counts as stopped."),
        Ruling("cc-12", "A card can be entered only while a copy of it can still be in the stub: "
               "with one deck never a card already face up, with two decks never a third copy."),
        Ruling("cc-13", "Destroyed hands are face down: the screen shows them as destroyed "
               "without their cards; the floor's reveal is logged."),
        Ruling("fees", "Fees never touch the prize stacks. A per-player fee is collected before "
               "the deal; a rake, a fixed collection from the pot and a jackpot drop come out "
               "of the bonus pool only, when first place takes it. \"No flop, no drop\" means "
               "no champ bought a card. A fixed fee from the button is refused (no button)."),
    ),
    strategy=(
        "Each player in turn buys a card (champ) with probability 75% while the hand has fewer "
        "than 6 points, 45% from 6 to 11 points and 20% from 12 points, and otherwise stops; "
        "the last player takes a card when ruling cc-8 forbids stopping."
    ),
    measures=(
        Measure("cards_bought", "Cards bought (champs) per hand", "count"),
        Measure("bonus_pool", "Bonus pool at the end of the action", "money",
                "champ payments plus the carry-in, before any fee"),
        Measure("any_destroyed", "Deals in which at least one hand is destroyed", "share"),
        Measure("destroyed_card", "Hands destroyed by their card, per deal", "count",
                "suit follows or pairs (ruling cc-6)"),
        Measure("destroyed_voluntary", "Hands voluntarily destroyed, per deal", "count",
                "stopped below third (ruling cc-7)"),
        Measure("destroyed_dealer", "Hands dealer destroyed, per deal", "count",
                "pushed below third by a later stop (ruling cc-7)"),
        Measure("reshuffled", "Deals that need a reshuffle", "share", "ruling cc-11"),
        Measure("exhausted", "Deals in which the cards run out", "share", "ruling cc-11"),
        Measure("places", "Places paid", "category", "the showdown: how many hands stand"),
    ),
    measure=measure,
)
