"""In the games where nothing is private (Steam ST-15, Galactic Railway GT-7) a seat's only
legal move reveals nothing: the platform makes it (Game.forced_action). Over whole bot games:
forced exactly when one move is legal, and that move."""
from __future__ import annotations

import pytest

from games import registry
from tests.support.bot_games import bot_steps

GAMES = [("steam", 4, 3, {}), ("steam", 3, 5, {"standard": True}), ("ginga", 4, 3, {}), ("ginga", 2, 8, {})]


@pytest.mark.parametrize("name, players, seed, options", GAMES)
def test_the_only_legal_move_is_forced_and_no_other(name, players, seed, options):
    game = registry.get(name)
    assert not game.private_information
    forced = 0
    for step in bot_steps(game, players, seed, next(iter(game.bots())), options):
        for seat in game.active_players(step.state):
            legal = game.legal_actions(step.state, seat)
            made = game.forced_action(step.state, seat)
            assert made == (legal[0] if len(legal) == 1 else None), (seat, legal[:3])
            forced += made is not None
    assert forced or name == "ginga"  # Steam's build phases with nothing affordable are forced


def test_a_game_with_secrets_forces_nothing_by_default():
    for name in ("ticket_to_ride", "santa_fe"):
        game = registry.get(name)
        assert game.private_information
        state = game.setup(3, {}, 1)
        assert all(game.forced_action(state, seat) is None for seat in game.active_players(state))
