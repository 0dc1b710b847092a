"""Catan Express's places as data (games/catan_express/decisions.py) and where the renderer puts
them (render/catan_express/picks.py), over whole bot-played games on the main board (3-4 and
5-6 players) and the islands (6 players, the most intersections).

Every option of every step a seat is asked that names a place on the board carries it
(`Pick.place`): intersections as points, rails and ferries as edges, the robber's hexes as
hexes, the locomotive's moves as routes. Each locates inside the map, where the layout puts it
(a spot check against render/catan_express/layout.py and the rail graph: a route runs along
built pieces), and no step shows more than 25 options at once once grouped into regions.
"""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from games.catan_express.bots import BOTS
from games.catan_express.rules import GAME
from render import pick as pick_render
from render.catan_express.board import places_of
from render.catan_express.picks import locate, size
from render.kit.picking import OPTIONS_AT_MOST

# step -> the kinds of place its options are (a rail's or ferry's intersection that leads to
# one piece only places that piece: an edge)
KINDS = {"catan_express.step.point": {"point", "edge"}, "catan_express.step.centre": {"edge"}, "catan_express.step.to": {"edge"},
         "catan_express.step.hex": {"hex"}, "catan_express.step.next": {"route"}, "catan_express.step.stop": {"route"}}
GAMES = [(3, "main", 1), (4, "main", 6), (5, "main", 3), (6, "main", 4), (6, "islands", 5), (6, "islands", 7)]


def stops_of(decision) -> list:
    """Every step a person may reach in a decision's choices (groups and amounts aside)."""
    seen: set[tuple[str, ...]] = set()
    out = []
    todo: list[list[str]] = [[]] if decision.choices else []
    while todo:
        stop = decision.walk(todo.pop())
        if stop.move is not None or stop.group is not None or stop.picks in seen:
            continue
        seen.add(stop.picks)
        out.append(stop)
        todo += [[*stop.picks, o.value] for o in stop.options if decision.entry_group(o.value) is None]
    return out


def check_mark(view, place, mark) -> None:
    """The mark is where the layout draws the place."""
    pl = places_of(view)
    geo = pl.geo
    xy = [pl.xy(name) for name in place.at]
    assert all(p is not None for p in xy), place
    if place.kind == "point":
        assert place.at[0].isdigit() and mark.spot == xy[0]
    elif place.kind == "edge":
        assert geo.between.get(frozenset(place.at)), place  # a rail's spoke or a ferry's edge
        assert mark.line == tuple(xy)
        mid = ((xy[0][0] + xy[1][0]) / 2, (xy[0][1] + xy[1][1]) / 2)
        assert math.dist(mark.spot, mid) < 1
    elif place.kind == "hex":
        board = pl.board
        assert board.is_land(board.hex_at(place.at[0]))
        # inside the hex (its inner circle), beside its token
        assert pl.ml.hexes.hex_at(mark.spot) == board.hex_at(place.at[0])
        assert 0.4 * pl.ml.s < math.dist(mark.spot, xy[0]) < math.sqrt(3) / 2 * pl.ml.s
    elif place.kind == "route":
        assert mark.line == tuple(xy)
        for a, b in zip(place.at, place.at[1:]):  # every leg along a piece someone built
            pieces = geo.between.get(frozenset((a, b)), ())
            assert any(view.state.pieces.get(p) for p in pieces), (a, b)
        assert math.dist(mark.spot, xy[-1]) < math.dist(xy[-2], xy[-1])  # on its last leg
    else:
        raise AssertionError(place)


def run(players: int, map_id: str, seed: int) -> dict:
    rng = random.Random(seed)
    state = GAME.setup(players, {"map": map_id}, seed)
    lineup = ["builder"] * players
    lineup[seed % players] = "random"  # a random seat: ferries, knights, rides of all kinds
    figures = {"steps": Counter(), "kinds": Counter(), "regions": 0, "largest": 0, "checked": 0}
    moves = 0
    while state.phase != "over" and moves < 20_000:
        for seat in sorted(GAME.active_players(state)):
            decision = GAME.decision(state, seat)
            if not decision.choices:
                continue
            view = GAME.view(state, seat)
            w, h = size(view)
            for stop in stops_of(decision):
                placed = [o.place for o in stop.options if o.place is not None]
                if stop.step in KINDS:
                    assert len(placed) == len(stop.options), (stop.step, "every option names its place")
                    assert {p.kind for p in placed} <= KINDS[stop.step], (stop.step, placed)
                else:
                    assert not placed, stop.step
                if len(placed) < 2:
                    continue
                marks = pick_render.locate("catan_express", view, placed)
                for place, mark in zip(placed, marks):
                    assert mark is not None, place
                    assert all(0 <= x <= w and 0 <= y <= h for x, y in mark.points()), (place, mark)
                    if figures["checked"] % 5 == 0:
                        check_mark(view, place, mark)
                    figures["checked"] += 1
                groups = pick_render.plan("catan_express", marks)
                assert sorted(i for g in groups for i in g) == list(range(len(marks)))
                assert max(map(len, groups)) <= OPTIONS_AT_MOST
                figures["steps"][stop.step] += 1
                figures["kinds"].update(p.kind for p in placed)
                figures["regions"] = max(figures["regions"], len(groups))
                figures["largest"] = max(figures["largest"], len(placed))
        seat = min(GAME.active_players(state))
        action = BOTS[lineup[seat]].choose(GAME, state, seat, rng)
        state = GAME.apply(state, seat, action).state
        moves += 1
    assert state.phase == "over"
    return figures


@pytest.mark.parametrize("players,map_id,seed", GAMES)
def test_every_place_of_a_whole_game_is_on_the_board(players: int, map_id: str, seed: int) -> None:
    figures = run(players, map_id, seed)
    print(f"\n{players} {map_id} seed {seed}: {dict(figures['steps'])}, kinds {dict(figures['kinds'])}, "
          f"at most {figures['regions']} regions, the largest step {figures['largest']} places")
    # the first settlement offers every intersection: more than one picture holds
    assert figures["regions"] >= (4 if map_id == "islands" or players > 4 else 2)
    assert {"point", "edge", "hex"} <= set(figures["kinds"])
