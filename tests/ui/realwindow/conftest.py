"""The real-window tests' display: one Xvfb with openbox per test process (each pytest-xdist
worker has its own: Xvfb picks a free display number), skipped with one line when the tools are
absent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# the shared steps assert too: let pytest show what they compared when they fail
pytest.register_assert_rewrite("tests.ui.realwindow.harness")

from tests.ui.realwindow.harness import missing_tools, x_display  # noqa: E402


@pytest.fixture(scope="session")
def display() -> Iterator[dict[str, str]]:
    if missing_tools():
        pytest.skip(f"real-window tests need {', '.join(missing_tools())} (scripts/setup --test)")
    with x_display() as env:
        yield env


@pytest.fixture(scope="session")
def second_display(display: dict[str, str]) -> Iterator[dict[str, str]]:
    """A second screen (1280x800, its own Xvfb and openbox), as the room's screen facing the
    players beside the floor's: the players' board runs full screen on it."""
    with x_display() as env:
        yield env
