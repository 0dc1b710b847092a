"""How often a Catan Express game waits on people, with and without standing orders.

Three seats are people played by the builder bot, the others builder bots. Without orders
each of the people's moves that the rules do not force is a wait. With the orders a typical
player sets once — "end special" (5–6 players: end my special building turns, CE-B7) and
"refuse all" (refuse every offer, CE-B5) — their answers and special building turns are made
for them; "roll" besides makes the roll that opens their turns.

Such orders change how the people play (they never build in a special building turn nor take
a trade), and so the game's length: the fair figure is the waits a turn. Run with -s to see
the figures:

    PYTHONPATH=. python -m pytest -s -q tests/games/catan_express/test_waits.py
"""
from __future__ import annotations

import pytest

from games.catan_express.rules import GAME
from tests.support.bot_games import count_waits

pytestmark = pytest.mark.slow  # whole bot games

GAMES = [(6, 7, {"map": "islands"}), (6, 3, {}), (4, 3, {}), (4, 7, {"map": "islands"})]
PEOPLE = (0, 1, 2)


def typical_orders(state, seat):
    return (["end special"] if state.n >= 5 else []) + ["refuse all"]


def with_roll(state, seat):
    return typical_orders(state, seat) + ["roll"]


def test_standing_orders_cut_the_waits_on_people():
    lines = []
    rates = {"none": 0.0, "typical": 0.0, "roll": 0.0}
    for players, seed, options in GAMES:
        plain = count_waits(GAME, players, seed, PEOPLE, "builder", options=options)
        typical = count_waits(GAME, players, seed, PEOPLE, "builder", order_policy=typical_orders, options=options)
        rolled = count_waits(GAME, players, seed, PEOPLE, "builder", order_policy=with_roll, options=options)
        assert plain.order_moves == 0 and typical.order_moves > 0 and rolled.order_moves > typical.order_moves
        for name, w in (("none", plain), ("typical", typical), ("roll", rolled)):
            rates[name] += w.per_turn
        where = f"{players} players, {options.get('map', 'main')}, seed {seed}"
        lines.append(f"{where}: waits {plain.waits} in {plain.turns} turns ({plain.per_turn:.2f} a turn) -> "
                     f"{typical.waits} in {typical.turns} ({typical.per_turn:.2f}; order moves "
                     f"{typical.order_moves}) -> with roll {rolled.waits} ({rolled.per_turn:.2f}); hand-offs "
                     f"{plain.sittings} -> {typical.sittings} -> {rolled.sittings}")
    print("\n" + "\n".join(lines))
    print("waits a turn, summed: " + ", ".join(f"{k} {v:.2f}" for k, v in rates.items()))
    assert rates["typical"] <= 0.8 * rates["none"]
    assert rates["roll"] < rates["typical"]
