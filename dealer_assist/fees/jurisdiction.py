"""Jurisdiction presets: small TOML files of numbered rules a table's fee schedule must obey.

A preset is data, not code: each ``[[rules]]`` entry has a ``text`` (cited in every refusal)
and one or more checks from a fixed vocabulary (:data:`CHECKS`). The built-in presets live in
``dealer_assist/fees/presets/``; a room adds its own by pointing at a folder of such files.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees.parse import parse_percent
from dealer_assist.fees.policy import FeePolicy, fraction_text
from dealer_assist.fees.schedule import FeeSchedule
from dealer_assist.money import format_cents

#: Fee types a rule may name in ``allow`` / ``forbid``.
FEE_TYPES = ("rake", "fixed-pot", "fixed-button", "per-player", "time", "drop")

#: Check keys a rule may use, and what each means.
CHECKS: dict[str, str] = {
    "allow": "list of fee types allowed (others refused)",
    "forbid": "list of fee types refused",
    "before_deal": "true: every fee is fixed and collected before the deal (nothing from the pot)",
    "max_rates": "the most rates (distinct fee settings) the table may have",
    "one_type": "true: a single fee type per table (a jackpot or promo drop counts as one)",
    "max_per_player": "cents: the most a player pays for one hand (per-player or button fee)",
    "max_time_per_hour": "cents: the most a time fee may cost a player an hour",
    "max_percent": 'text, e.g. "10": the highest rake percentage',
    "require_cap": "true: a rake must have a cap",
    "max_cap": "cents: the highest rake cap",
    "max_collection": "cents: the highest fixed collection from the pot",
    "max_drop": "cents: the highest jackpot or promotional drop",
}


def fee_types(policy: FeePolicy) -> list[str]:
    """The preset vocabulary's types for one policy (its house fee, then a drop if any)."""
    out: list[str] = []
    if policy.kind == "fixed":
        out.append(f"fixed-{policy.source}")
    elif policy.kind != "none":
        out.append(policy.kind)
    if policy.jackpot is not None:
        out.append("drop")
    return out


_TYPE_WORDS = {
    "rake": "a percentage rake",
    "fixed-pot": "a fixed collection from the pot",
    "fixed-button": "a fixed fee from the button",
    "per-player": "a per-player fee",
    "time": "a time collection",
    "drop": "a jackpot or promotional drop",
}


@dataclass(frozen=True, slots=True)
class PresetRule:
    number: int
    text: str
    checks: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of rules; ``source`` is the file it came from."""

    name: str
    title: str
    description: str
    rules: tuple[PresetRule, ...]
    source: str

    def violations(self, schedule: FeeSchedule | None) -> list[str]:
        """Every refusal, each citing its rule: 'preset "x" rule 2: no percentage of the pot...'."""
        out: list[str] = []
        for rule in self.rules:
            for key, value in rule.checks.items():
                why = _check(key, value, schedule)
                if why is not None:
                    out.append(f'preset "{self.name}" rule {rule.number}: {rule.text} ({why})')
                    break
        return out

    def check(self, schedule: FeeSchedule | None) -> None:
        """Raise :class:`RuleViolation` citing the first rule the schedule breaks."""
        found = self.violations(schedule)
        if found:
            raise RuleViolation(found[0], rule=f"preset {self.name}")


def _policies(schedule: FeeSchedule | None) -> tuple[FeePolicy, ...]:
    return schedule.policies if schedule is not None else ()


def _check(key: str, value: Any, schedule: FeeSchedule | None) -> str | None:
    """``None`` when the schedule obeys the check, else why not (in the table's terms)."""
    policies = _policies(schedule)
    types = [t for p in policies for t in fee_types(p)]
    if key == "allow":
        bad = [t for t in dict.fromkeys(types) if t not in value]
        return f"this table has {_TYPE_WORDS[bad[0]]}" if bad else None
    if key == "forbid":
        bad = [t for t in dict.fromkeys(types) if t in value]
        return f"this table has {_TYPE_WORDS[bad[0]]}" if bad else None
    if key == "before_deal" and value:
        for p in policies:
            if not p.before_deal:
                return f"this table takes {p.describe()}"
            if p.jackpot is not None:
                return f"this table takes a {p.jackpot.fund} drop out of the pot"
        return None
    if key == "max_rates":
        n = len(set(policies))
        return f"this table sets {n} rates" if n > value else None
    if key == "one_type" and value:
        distinct = list(dict.fromkeys(types))
        if len(distinct) > 1:
            return "this table has " + " and ".join(_TYPE_WORDS[t] for t in distinct)
        return None
    if key == "max_per_player":
        for p in policies:
            if (p.kind == "per-player" or (p.kind == "fixed" and p.source == "button")) and (
                p.amount > value
            ):
                return f"this table charges {format_cents(p.amount)} a player a hand"
        return None
    if key == "max_time_per_hour":
        for p in policies:
            if p.kind == "time" and p.per_hour() > value:
                hour = p.per_hour()
                exact = hour.denominator == 1
                shown = format_cents(hour.numerator // hour.denominator)
                return f"this table's time fee comes to {'' if exact else 'over '}{shown} an hour"
        return None
    if key == "max_percent":
        limit = parse_percent(value, key="max_percent")
        for p in policies:
            if p.kind == "rake" and p.rate > limit:
                return f"this table rakes {p.percent}%"
        return None
    if key == "require_cap" and value:
        for p in policies:
            if p.kind == "rake" and p.cap is None:
                return "this table's rake has no cap"
        return None
    if key == "max_cap":
        for p in policies:
            if p.kind == "rake" and p.cap is not None and p.cap > value:
                return f"this table's rake cap is {format_cents(p.cap)}"
        return None
    if key == "max_collection":
        for p in policies:
            if p.kind == "fixed" and p.source == "pot" and p.amount > value:
                return f"this table collects {format_cents(p.amount)} from the pot"
        return None
    if key == "max_drop":
        for p in policies:
            if p.jackpot is not None and p.jackpot.amount > value:
                return f"this table's {p.jackpot.fund} drop is {format_cents(p.jackpot.amount)}"
        return None
    return None


def _validate_check(key: str, value: Any, where: str) -> Any:
    if key not in CHECKS:
        raise BadInput(
            f"{where}: unknown check {key!r}; a rule may use {', '.join(CHECKS)} (and text)"
        )
    if key in ("allow", "forbid"):
        if not isinstance(value, list) or not all(v in FEE_TYPES for v in value):
            raise BadInput(f"{where}: {key} must list fee types from {', '.join(FEE_TYPES)}")
        return tuple(value)
    if key in ("before_deal", "one_type", "require_cap"):
        if not isinstance(value, bool):
            raise BadInput(f"{where}: {key} must be true or false")
        return value
    if key == "max_percent":
        try:
            rate = parse_percent(value, key="max_percent")
        except (BadInput, RuleViolation) as exc:
            raise BadInput(f"{where}: {exc}") from exc
        return fraction_text(rate * 100)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"{where}: {key} must be a whole number ({CHECKS[key]})")
    return value


def parse_preset(data: Mapping[str, Any], *, source: str, default_name: str) -> Preset:
    """A preset from its decoded TOML; :class:`BadInput` names the file and the rule."""
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name:
        raise BadInput(f"{source}: name must be text")
    unknown = sorted(set(data) - {"name", "title", "description", "rules"})
    if unknown:
        raise BadInput(f"{source}: unknown key {', '.join(unknown)} "
                       "(a preset has name, title, description and [[rules]])")
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list) or not raw_rules:
        raise BadInput(f"{source}: a preset needs at least one [[rules]] entry")
    rules: list[PresetRule] = []
    for n, raw in enumerate(raw_rules, start=1):
        where = f"{source} rule {n}"
        if not isinstance(raw, Mapping):
            raise BadInput(f"{where}: must be a table")
        text = raw.get("text")
        if not isinstance(text, str) or not text.strip():
            raise BadInput(f"{where}: needs text, the rule as it is cited in a refusal")
        checks = {k: _validate_check(k, v, where) for k, v in raw.items() if k != "text"}
        if not checks:
            raise BadInput(f"{where}: checks nothing; use one of {', '.join(CHECKS)}")
        rules.append(PresetRule(n, text.strip(), checks))
    return Preset(
        name=name,
        title=str(data.get("title", name)),
        description=" ".join(str(data.get("description", "")).split()),
        rules=tuple(rules),
        source=source,
    )


def read_preset_file(path: Path) -> Preset:
    from dealer_assist.bounded import MAX_SETTINGS_BYTES, loads_toml, read_text

    if not path.exists():
        raise BadInput(f"no such preset file: {path}")
    text = read_text(path, what="preset file", max_bytes=MAX_SETTINGS_BYTES)
    try:
        data = loads_toml(text, where=f"preset file {path}")
    except tomllib.TOMLDecodeError as exc:
        raise BadInput(f"preset file {path} is not valid TOML: {exc}") from exc
    return parse_preset(data, source=str(path), default_name=path.stem)


def builtin_presets() -> dict[str, Preset]:
    out: dict[str, Preset] = {}
    folder = resources.files("dealer_assist.fees.presets")
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            data = tomllib.loads(item.read_text(encoding="utf-8"))
            preset = parse_preset(data, source=f"built-in {item.name}",
                                  default_name=item.name[: -len(".toml")])
            out[preset.name] = preset
    return out


def load_presets(dirs: Iterable[Path | str] = ()) -> dict[str, Preset]:
    """Built-in presets, then every ``*.toml`` in ``dirs`` (a room's file replaces a built-in
    preset of the same name)."""
    out = builtin_presets()
    for d in dirs:
        folder = Path(d)
        if not folder.is_dir():
            raise BadInput(f"the presets folder {folder} does not exist")
        for path in sorted(folder.glob("*.toml")):
            preset = read_preset_file(path)
            out[preset.name] = preset
    return out


def get_preset(name: str, dirs: Sequence[Path | str] = ()) -> Preset:
    presets = load_presets(dirs)
    if name not in presets:
        raise BadInput(f'unknown preset "{name}": known presets are {", ".join(sorted(presets))}')
    return presets[name]
