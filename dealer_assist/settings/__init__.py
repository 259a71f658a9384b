"""Table settings files (TOML or JSON), validated, shared by the CLI and the dealer's screen."""

from __future__ import annotations

from dealer_assist.settings.table import (
    KEYS,
    PER_HAND,
    TableSettings,
    check_table,
    parse_table_settings,
    per_hand_keys,
    read_table_settings,
    sample_start,
    start_event,
    start_params,
)

__all__ = [
    "KEYS",
    "PER_HAND",
    "TableSettings",
    "check_table",
    "parse_table_settings",
    "per_hand_keys",
    "read_table_settings",
    "sample_start",
    "start_event",
    "start_params",
]
