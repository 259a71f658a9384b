"""The older text form of an action's input (``Action(needs="board:2")``), fenced off here.

Games written before the typed inputs (:mod:`dealer_assist.engine.inputs`) named an action's
input as text. :class:`~dealer_assist.engine.base.Action` reads such text once into its typed
``input`` and clears it; nothing else reads the text. New games give ``input=`` and do not use
this module.
"""

from __future__ import annotations

from dealer_assist.engine.inputs import Cards, Choice, Input, Rows


def from_needs(needs: str | None) -> Input | None:
    """The typed input of an action written with the older ``needs`` text ("card",
    "board:2", "show:5", "cards:3", "discard", "rows", "kind")."""
    if needs is None:
        return None
    if needs == "card":
        return Cards(1, 1, field="card")
    if needs == "discard":
        return Cards(1, 52, unseen=True)
    if needs == "rows":
        return Rows()
    if needs == "kind":
        return Choice("kind", (), free=True)
    name, _, n = needs.partition(":")
    if name in ("board", "show", "cards") and n.isdigit():
        return Cards(int(n), int(n))
    return None
