"""Defaults of the rules protocol (games/core/protocol.py) that games rely on."""
import pytest

from games.core.errors import IllegalAction
from tests.support.toy_game import ToyGame


def test_default_timeout_action_is_the_first_legal_move():
    game = ToyGame()
    state = game.setup(2, None, 3)
    assert game.timeout_action(state, 0) == game.legal_actions(state, 0)[0]


def test_default_timeout_action_without_legal_moves_raises_a_typed_error():
    """A seat with nothing to do gets IllegalAction('no_legal_action'), which the sessions
    layer words for the player; never a NameError from the default itself."""
    game = ToyGame()
    state = game.setup(2, None, 3)
    state = game.apply(state, 0, game.legal_actions(state, 0)[0]).state  # seat 0 has opened
    assert game.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction) as err:
        game.timeout_action(state, 0)
    assert err.value.code == "no_legal_action"
