"""Table settings: one validated file (TOML or JSON) that the CLI and the dealer's screen share.

It names the game, the seats, the smallest chip, the limit, the game's own settings, the fee
schedule and the jurisdiction preset that checks it. :func:`start_params` turns it into a hand's
start event, so every hand at the table starts the same way. The keys are in
docs/table-settings.md.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from dealer_assist.engine.base import PER_HAND_KEYS
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import BadInput, DealerAssistError, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees.jurisdiction import Preset, get_preset
from dealer_assist.fees.policy import FeePolicy
from dealer_assist.fees.schedule import FeeSchedule, parse_fee_schedule
from dealer_assist.money import format_cents

#: Keys a table settings file may hold.
KEYS = (
    "name", "game", "seats", "smallest_chip", "stakes", "limit", "buy_in", "preset",
    "presets_dir", "params", "fee",
)
#: Start-event keys that change from hand to hand; given when a hand starts, not in ``params``.
PER_HAND = PER_HAND_KEYS
#: Start-event keys the table settings own; ``params`` may not set them.
OWNED = ("game", "seats", "fee", "smallest_chip", "type")


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's settings, validated. Amounts are int cents."""

    game: str
    seats: tuple[int, ...]
    smallest_chip: int
    name: str = ""
    stakes: str = ""
    limit: int | None = None
    buy_in: int | None = None
    preset: str | None = None
    presets_dir: Path | None = None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    fee: FeeSchedule | None = None
    source: str = ""

    @property
    def fee_policy(self) -> FeePolicy | None:
        """The one policy this table's hands carry (chosen by the limit when rates vary)."""
        return None if self.fee is None else self.fee.for_limit(self.limit)

    def preset_rules(self, extra_dirs: Sequence[Path | str] = ()) -> Preset | None:
        if self.preset is None:
            return None
        dirs = [*([self.presets_dir] if self.presets_dir else []), *extra_dirs]
        return get_preset(self.preset, dirs)

    def summary(self) -> list[str]:
        """Lines for ``table check`` and the screen's table panel."""
        lines = [
            f"table: {self.name or '(unnamed)'}",
            f"game: {self.game}",
            f"seats: {', '.join(map(str, self.seats))}",
            f"smallest chip: {format_cents(self.smallest_chip, always_cents=True)}",
        ]
        if self.stakes:
            lines.append(f"stakes: {self.stakes}")
        if self.limit is not None:
            lines.append(f"limit: {format_cents(self.limit)}")
        if self.buy_in is not None:
            lines.append(f"buy-in: {format_cents(self.buy_in)}")
        if self.params:
            shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in self.params.items())
            lines.append(f"game settings: {shown}")
        lines.append(f"fee: {self.fee.describe() if self.fee is not None else 'none'}")
        if self.fee is not None and self.fee.by_limit:
            policy = self.fee_policy
            assert policy is not None
            lines.append(f"fee at this table's limit: {policy.describe()}")
        if self.preset:
            lines.append(f"preset: {self.preset}")
        return lines


def _where(source: str, key: str) -> str:
    return f"{source}: {key}" if source else key


def _int_key(data: Mapping[str, Any], key: str, source: str, *, low: int, what: str,
             required: bool = False) -> int | None:
    value = data.get(key)
    if value is None:
        if required:
            raise BadInput(f'{_where(source, key)} is missing: {what}')
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{_where(source, key)} must be a whole number ({what}), not {value!r}")
    if value < low:
        raise BadInput(f"{_where(source, key)} must be at least {low} ({what}), not {value}")
    return value


def _seats(value: Any, source: str) -> tuple[int, ...]:
    where = _where(source, "seats")
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 12:
            raise BadInput(f"{where} must be 1 to 12 seats, not {value}")
        return tuple(range(1, value + 1))
    if isinstance(value, list) and value:
        if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in value):
            raise BadInput(f"{where} must list seat numbers (1 or more), e.g. [1, 2, 3]")
        if len(set(value)) != len(value):
            raise BadInput(f"{where} lists a seat twice")
        return tuple(value)
    raise BadInput(
        f"{where} must be a number of seats (e.g. 6) or the seat numbers clockwise, "
        f"e.g. [1, 2, 3, 4, 5, 6], not {value!r}"
    )


def parse_table_settings(
    data: Mapping[str, Any], *, source: str = "", base: Path | None = None
) -> TableSettings:
    """Validate decoded settings; every error names the key and what it allows."""
    if not isinstance(data, Mapping):
        raise BadInput(f"{source or 'table settings'}: must be a table of settings")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise BadInput(
            f"{_where(source, unknown[0])} is not a table setting; "
            f"the settings are {', '.join(KEYS)}"
        )
    game = data.get("game")
    known = game_names()
    if not isinstance(game, str) or game not in known:
        raise BadInput(f"{_where(source, 'game')} must be one of {', '.join(known)}, not {game!r}")
    if "seats" not in data:
        raise BadInput(f"{_where(source, 'seats')} is missing: e.g. seats = 6")
    seats = _seats(data["seats"], source)
    chip = _int_key(data, "smallest_chip", source, low=1,
                    what="the smallest chip in cents, e.g. 100 for $1", required=True)
    assert chip is not None
    limit = _int_key(data, "limit", source, low=1,
                     what="the table's betting limit (its bet) in cents; it picks the fee rate")
    buy_in = _int_key(data, "buy_in", source, low=1,
                      what="the stack in cents a player starts with")
    for key in ("name", "stakes", "preset", "presets_dir"):
        if key in data and not isinstance(data[key], str):
            raise BadInput(f"{_where(source, key)} must be text, not {data[key]!r}")
    params = data.get("params", {})
    if not isinstance(params, Mapping):
        raise BadInput(f"{_where(source, 'params')} must be a table of the game's own settings")
    owned = sorted(set(params) & set(OWNED))
    if owned:
        raise BadInput(
            f"{_where(source, 'params')}: {owned[0]} is a table setting; set it at the top level"
        )
    per_hand = sorted(set(params) & {*PER_HAND, *get_game(game).per_hand_names()})
    if per_hand:
        raise BadInput(
            f"{_where(source, 'params')}: {per_hand[0]} changes every hand; it is given when "
            "the hand starts (the first stacks come from buy_in)"
        )
    try:
        fee = parse_fee_schedule(data.get("fee"))
    except DealerAssistError as exc:
        raise type(exc)(f"{_where(source, 'fee')}: {exc}") from exc
    presets_dir: Path | None = None
    if data.get("presets_dir"):
        presets_dir = Path(str(data["presets_dir"]))
        if base is not None and not presets_dir.is_absolute():
            presets_dir = base / presets_dir
    preset = data.get("preset")
    settings = TableSettings(
        game=game,
        seats=seats,
        smallest_chip=chip,
        name=str(data.get("name", "")),
        stakes=str(data.get("stakes", "")),
        limit=limit,
        buy_in=buy_in,
        preset=str(preset) if preset else None,
        presets_dir=presets_dir,
        params=MappingProxyType(dict(params)),
        fee=fee,
        source=source,
    )
    _check_fee_fits(settings)
    _check_chips(settings)
    return settings


def _check_chips(settings: TableSettings) -> None:
    """The buy-in and every amount of money among the game's settings (its antes, blinds,
    bets, unit, stake) are whole numbers of the table's smallest chip: a hand can hold, bet or
    ante only chips."""
    from dealer_assist.engine.start import off_chip

    chip = settings.smallest_chip
    if settings.buy_in is not None and settings.buy_in % chip:
        raise RuleViolation(f"{_where(settings.source, 'buy_in')} "
                            f"{off_chip(settings.buy_in, chip)}")
    for setting in get_game(settings.game).settings:
        if setting.kind != "money":
            continue
        value = settings.params.get(setting.key)
        for amount in value if isinstance(value, list) else [value]:
            if isinstance(amount, int) and not isinstance(amount, bool) and amount % chip:
                where = _where(settings.source, f"params.{setting.key}")
                raise RuleViolation(f"{where} {off_chip(amount, chip)}")


def _check_fee_fits(settings: TableSettings) -> None:
    """Refusals that need the whole table: the limit's rate, chips, the game's ruling."""
    where = _where(settings.source, "fee")
    if settings.fee is None:
        return
    if settings.fee.by_limit and settings.limit is None:
        raise BadInput(
            f'{_where(settings.source, "limit")} is missing: the fee is set by limit, so the '
            "table needs its limit (its bet in cents)"
        )
    settings.fee.for_limit(settings.limit)
    chip = settings.smallest_chip
    for p in settings.fee.policies:
        amounts = {"amount": p.amount, "cap": p.cap or 0}
        if p.jackpot is not None:
            amounts["jackpot amount"] = p.jackpot.amount
        for key, value in amounts.items():
            if value % chip:
                raise RuleViolation(
                    f"{where} {key} {format_cents(value)} is not a whole number of the "
                    f"{format_cents(chip, always_cents=True)} smallest chip"
                )
        if (p.kind == "fixed" and p.source == "button"
                and not get_game(settings.game).has_button):
            raise RuleViolation(
                f"{where}: {settings.game} has no button; use a per-player fee, time, "
                "or a collection from the pot"
            )


def read_table_settings(path: str | Path) -> TableSettings:
    """Read and validate a ``.toml`` or ``.json`` table settings file."""
    from dealer_assist.bounded import MAX_SETTINGS_BYTES, loads_json, loads_toml, read_text

    p = Path(path)
    if not p.exists():
        raise BadInput(f"no such table settings file: {p}")
    text = read_text(p, what="table settings file", max_bytes=MAX_SETTINGS_BYTES)
    if p.suffix.lower() == ".json":
        try:
            data = loads_json(text, where=str(p))
        except json.JSONDecodeError as exc:
            raise BadInput(
                f"{p} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
            ) from exc
    else:
        try:
            data = loads_toml(text, where=str(p))
        except tomllib.TOMLDecodeError as exc:
            raise BadInput(f"{p} is not valid TOML: {exc}") from exc
    return parse_table_settings(data, source=str(p), base=p.parent)


def start_params(
    settings: TableSettings,
    *,
    button: int | None = None,
    stacks: Mapping[int, int] | None = None,
    carry_in: int | None = None,
    carried: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A hand's start event as JSON (``type``, ``game``, ``seats`` and every setting).

    ``carried`` holds what the game takes over from the table's last hand (``Game.next_hand``).

    ``button``, ``stacks`` and ``carry_in`` change from hand to hand: pass them when the game uses
    them; they are written under the game's names for them (``Game.key``: a game's ``dealer``,
    its ``pot_in``). Stacks left out default to the buy-in; the fee is the policy for the
    table's limit.
    """
    key = get_game(settings.game).key
    out: dict[str, Any] = {"type": "start", "game": settings.game, "seats": list(settings.seats)}
    out.update(dict(settings.params))
    out["smallest_chip"] = settings.smallest_chip
    if button is not None:
        if button not in settings.seats:
            what = "button" if key("button") == "button" else key("button")
            raise RuleViolation(f"the {what} must be one of the seats {list(settings.seats)}")
        out[key("button")] = button
    if stacks is not None:
        out[key("stacks")] = {str(k): v for k, v in sorted(stacks.items())}
    if carry_in is not None:
        out[key("carry_in")] = carry_in
    for name, value in (carried or {}).items():
        out[name] = value
    policy = settings.fee_policy
    if policy is not None:
        out["fee"] = policy.to_json()
    return out


def start_event(settings: TableSettings, **per_hand: Any) -> Start:
    """:func:`start_params` as a :class:`Start` event."""
    from dealer_assist.events import event_from_json

    ev = event_from_json(start_params(settings, **per_hand))
    assert isinstance(ev, Start)
    return ev


def per_hand_keys(game: str) -> tuple[str, ...]:
    """Which of ``button``/``stacks``/``carry_in`` the game's hands start with: the game's own
    declaration (``Game.start_keys``)."""
    return tuple(k for k in PER_HAND if k in get_game(game).start_keys)


def sample_start(settings: TableSettings) -> Start:
    """The table's first hand as it would start (button on the last seat, stacks at the buy-in):
    what ``table check`` hands to the game to check its own settings."""
    keys = per_hand_keys(settings.game)
    kwargs: dict[str, Any] = {}
    if "button" in keys:
        kwargs["button"] = settings.seats[-1]
    if "stacks" in keys:
        if settings.buy_in is None:
            raise BadInput(
                f'{_where(settings.source, "buy_in")} is missing: {settings.game} hands start '
                "with each seat's stack; set buy_in, the stack in cents a player starts with"
            )
        kwargs["stacks"] = dict.fromkeys(settings.seats, settings.buy_in)
    return start_event(settings, **kwargs)


def check_table(settings: TableSettings, extra_preset_dirs: Sequence[Path | str] = ()) -> None:
    """Everything ``table check`` checks: the preset's rules and the game's own settings."""
    preset = settings.preset_rules(extra_preset_dirs)
    if preset is not None:
        found = preset.violations(settings.fee)
        if found:
            raise RuleViolation("\n".join(found), rule=f"preset {preset.name}")
    start = sample_start(settings)
    try:
        get_game(settings.game).start(start)
    except RuleViolation as exc:
        raise RuleViolation(f"{settings.source or 'table'}: the game refuses: {exc}") from exc
    except DealerAssistError as exc:
        raise BadInput(f"{settings.source or 'table'}: the game refuses: {exc}") from exc
