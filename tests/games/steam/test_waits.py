"""How often a 4-player Steam game waits on people, with and without standing orders.

Every seat is a person played by the builder bot. Without orders each of their moves is a
wait. With orders, whenever a person moves they also set what a typical player would: a bid
limit for the turn's auction, "take income" (first half) or "take points" (second half) for
others' deliveries, their two best deliveries of the moment and then "pass" for the delivery
phase. Run with -s to see the figures; the test holds orders to a real saving."""
from __future__ import annotations

import pytest

from games.steam.rules import GAME
from tests.support.bot_games import count_waits

pytestmark = pytest.mark.slow  # whole bot games

SEEDS = (1, 2)


def typical_orders(state, seat):
    turn = state.turn
    out = ["always income" if turn <= state.turns // 2 else "always points"]
    if state.phase in ("first_auction", "auction", "capital"):
        out.append(f"t{turn} bid upto {2 if state.phase == 'first_auction' else 1}")
    if state.phase in ("actions", "build", "deliver"):
        best = sorted(GAME.deliveries(state, seat), key=lambda d: -d.points_of(seat))[:2]
        out += [f"t{turn} deliver {d.colour.value} {GAME._route_text(state, d)}" for d in best]
        out.append(f"t{turn} pass deliver")
    return out


def test_standing_orders_cut_the_waits_on_people():
    people = (0, 1, 2, 3)
    lines = []
    totals = {"without": [0, 0], "with": [0, 0]}
    for standard in (False, True):
        for seed in SEEDS:
            options = {"standard": standard}
            plain = count_waits(GAME, 4, seed, people, "builder", options=options)
            ordered = count_waits(GAME, 4, seed, people, "builder", order_policy=typical_orders, options=options)
            assert plain.order_moves == 0 and ordered.order_moves > 0
            for name, w in (("without", plain), ("with", ordered)):
                totals[name][0] += w.waits
                totals[name][1] += w.sittings
            lines.append(f"{'standard' if standard else 'basic'} seed {seed}: waits {plain.waits} -> {ordered.waits} "
                         f"(hand-offs {plain.sittings} -> {ordered.sittings}, order moves {ordered.order_moves})")
    print("\n".join(lines))
    print(f"total waits {totals['without'][0]} -> {totals['with'][0]}, "
          f"hand-offs {totals['without'][1]} -> {totals['with'][1]}")
    assert totals["with"][0] <= 0.8 * totals["without"][0]
    assert totals["with"][1] < totals["without"][1]
