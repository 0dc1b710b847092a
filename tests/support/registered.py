"""Test-only games registered for the length of a test: the rules in games.registry and
their pictures (tests/support/plain_images.py) in render.registry, then both removed, so
other tests see the real games only."""
from __future__ import annotations

import contextlib
from typing import Iterator

from games import registry as games
from render import registry as renderers

PICTURES = "tests.support.plain_images:IMAGES"


@contextlib.contextmanager
def registered_games(**targets: str) -> Iterator[None]:
    """`registered_games(toy="tests.support.toy_game:GAME")`: register each name -> "module:attr"."""
    for name, target in targets.items():
        games.register(name, target)
        renderers.register(name, PICTURES)
    try:
        yield
    finally:
        for name in targets:
            games.unregister(name)
            renderers.unregister(name)
