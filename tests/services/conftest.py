"""Services over the in-memory store, with a clock the tests move by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .support import Room, make_room


@pytest.fixture
def room() -> Room:
    return make_room()


@pytest.fixture
def room_factory() -> Callable[..., Room]:
    return make_room
