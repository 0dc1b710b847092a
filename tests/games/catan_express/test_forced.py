"""Catan Express's forced moves (Game.forced_action): a move the platform makes for a player at
once because the number of cards in their hand, which everyone sees (CE-12), leaves them no
other. Checked over whole 5- and 6-player games of every map: a forced move is always the seat's
only legal move and is judged from the hand's size alone; a hand big enough to pay is asked even
when its cards cannot (which cards it holds stays secret). In the 6-player islands game of seed
7, 32 of its 180 special building turns (CE-B7) are forced; 101 more have ending as their only
legal move but a hand that could pay, and are the players' to end (or their standing orders')."""
from __future__ import annotations

import pytest

from games.catan_express.models import Answer, End
from games.catan_express.rules import GAME
from tests.support.bot_games import bot_steps

GAMES = [(6, 7, {"map": "islands"}), (6, 3, {}), (5, 11, {})]


@pytest.mark.parametrize("players, seed, options", GAMES)
def test_a_forced_move_is_the_only_one_and_judged_by_the_hands_size(players, seed, options):
    special = forced_special = answers = forced_answers = asked_though_stuck = 0
    for step in bot_steps(GAME, players, seed, "builder", options):
        state = step.state
        for seat in GAME.active_players(state):
            forced = GAME.forced_action(state, seat)
            held = sum(state.players[seat].hand)
            legal = GAME.legal_actions(state, seat)
            if forced is not None:
                assert legal == [forced], (state.phase, seat, legal)
            if state.phase == "special":
                special += 1
                forced_special += forced is not None
                assert (forced == End()) == (held < 2), (seat, held)
                if forced is None and legal == [End()]:
                    asked_though_stuck += 1  # cards that cannot build: the person is asked
            elif state.phase == "answer":
                answers += 1
                forced_answers += forced is not None
                assert (forced == Answer(accept=False)) == (held < sum(state.offer.get)), (seat, held)
            else:
                assert forced is None, state.phase
    assert special and forced_special  # the game had special building turns, and some were forced
    assert forced_special + asked_though_stuck <= special
    assert GAME.forced_action(bot_steps(GAME, players, seed, "builder", options)[0].state, 1) is None  # not active

