"""Whole seeded Steam games (both maps, basic and standard, 3-5 players, random and builder
bots) replayed against the digests recorded before the speed work: every state, every
move's events and every legal-move list after every move must be the same."""
from __future__ import annotations

import pytest

from tests.games.steam.golden import GAMES, digests
from tests.games.steam.golden_digests import DIGESTS


def test_every_golden_game_has_a_recorded_digest():
    assert sorted(DIGESTS) == sorted(g.name for g in GAMES)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_game_plays_as_recorded(game):
    got = digests(game)
    want = DIGESTS[game.name]
    assert got["moves"] == want["moves"]
    for k, (a, b) in enumerate(zip(got["checkpoints"], want["checkpoints"])):
        assert a == b, f"first difference within moves {k * 25 + 1}-{(k + 1) * 25}"
    assert got["final"] == want["final"]
