"""Money is an ``int`` number of cents everywhere; this is the one place it becomes text."""

from __future__ import annotations


def format_cents(cents: int, *, symbol: str = "$", always_cents: bool = False) -> str:
    """``9000`` -> ``$90``; ``9050`` -> ``$90.50``; ``-600`` -> ``-$6``; thousands get commas."""
    if cents.__class__ is int and symbol == "$" and not always_cents:
        text = _DOLLARS.get(cents)
        if text is None:
            text = _format(cents, "$", False)
            if len(_DOLLARS) >= 4096:
                _DOLLARS.clear()
            _DOLLARS[cents] = text
        return text
    if not isinstance(cents, int) or isinstance(cents, bool):
        raise TypeError(f"money must be int cents, not {type(cents).__name__}")
    return _format(cents, symbol, always_cents)


#: Amounts already written in the usual form: a settlement writes the same few amounts over and
#: over (stacks, pots, fees), and each replayed hand settles again. Text is immutable, so shared.
_DOLLARS: dict[int, str] = {}


def _format(cents: int, symbol: str, always_cents: bool) -> str:
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    if rest or always_cents:
        return f"{sign}{symbol}{dollars:,}.{rest:02d}"
    return f"{sign}{symbol}{dollars:,}"


def parse_cents(text: str) -> int:
    """Read ``$1,234.50``, ``12.5`` or ``1200c`` as cents, exactly (no float on the way)."""
    from dealer_assist.errors import BadInput

    t = text.strip().replace(",", "").replace("$", "")
    if t.endswith("c"):
        body = t[:-1]
        if body.isdigit():
            return int(body)
        raise BadInput(f"{text!r} is not an amount")
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    whole, _, frac = t.partition(".")
    if not (whole.isdigit() or (whole == "" and frac)) or (frac and not frac.isdigit()):
        raise BadInput(f"{text!r} is not an amount: write it like 12 or 12.50")
    if len(frac) > 2:
        raise BadInput(f"{text!r} has more than two decimal places")
    cents = int(whole or "0") * 100 + int((frac + "00")[:2])
    return -cents if neg else cents
