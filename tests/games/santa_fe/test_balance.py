"""SF-M5: the map plays well. Hundreds of seeded games between builder bots (2–5 players):
both end conditions occur, every railroad runs out of track in some games, and every 7-value
(Pacific) city gets connected in some games. Run this file with -s to see the distribution."""
import random
from collections import Counter

import pytest

from games.santa_fe.rules import GAME

pytestmark = pytest.mark.slow  # hundreds of whole bot games

GAMES = 400


def simulate():
    bot = GAME.bots()["builder"]
    board = GAME.board
    reasons: Counter[str] = Counter()
    out: Counter[str] = Counter()
    sevens: Counter[str] = Counter()
    rounds = []
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = GAME.setup(2 + seed % 4, None, seed)
        while GAME.result(state) is None:
            seat = rng.choice(sorted(GAME.active_players(state)))
            state = GAME.apply(state, seat, bot.choose(GAME, state, seat, rng)).state
        reasons[state.end_reason] += 1
        rounds.append(state.round)
        for r, left in enumerate(state.supply):
            if left == 0:
                out[board.railroads[r].code] += 1
        for c, city in enumerate(board.cities):
            if city.value == 7 and state.connected[c]:
                sevens[city.name] += 1
    return reasons, out, sevens, rounds


def test_map_balance_with_builder_bots():
    reasons, out, sevens, rounds = simulate()
    print(f"\nend conditions: {dict(reasons)}\nrailroads out of track: {dict(out)}\n"
          f"7-value cities connected: {dict(sevens)}\nrounds: mean {sum(rounds) / len(rounds):.1f}, "
          f"min {min(rounds)}, max {max(rounds)}")
    assert reasons["all_placed"] > 0 and reasons["blocked"] > 0
    assert set(out) == {rr.code for rr in GAME.board.railroads}
    assert set(sevens) == {c.name for c in GAME.board.cities if c.value == 7}
