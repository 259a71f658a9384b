"""High contrast in both themes (WCAG contrast ratios), and the screenshot script still runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.ui.theme import DARK, LIGHT, Theme


def _luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme", [DARK, LIGHT], ids=["dark", "light"])
def test_text_is_high_contrast_for_a_dim_room(theme: Theme) -> None:
    assert contrast(theme.text, theme.bg) >= 7.0
    assert contrast(theme.text, theme.panel) >= 7.0
    assert contrast(theme.accent_text, theme.accent) >= 7.0  # the seat to act
    assert contrast(theme.danger_text, theme.danger_bg) >= 4.5  # refusals, the banner
    assert contrast(theme.felt_text, theme.felt) >= 4.5
    assert contrast(theme.card_black, theme.card_face) >= 7.0
    assert contrast(theme.card_red, theme.card_face) >= 4.5
    assert theme.base_px >= 16 and theme.prompt_px >= 28


def test_screenshot_script_grabs_the_sign_in(qtbot: Any, tmp_path: Path) -> None:
    from dealer_assist.ui.screenshots import take

    paths = take(tmp_path, only="sign-in")
    assert [p.name for p in paths] == ["sign-in-dark-640x320.png"]
    assert paths[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
