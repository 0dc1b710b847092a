"""What the Galactic Railway view tells the images about the whole game: each seat's score
after every turn, each player's best loop and station network, and every legal placement with
its cells and points (so the hand image numbers the options the menu's picture numbers)."""
from __future__ import annotations


import pytest

from games.core.i18n import translate
from games.ginga import decisions
from games.ginga.models import GingaState
from games.ginga.rules import GAME
from tests.support.bot_games import bot_states


def _play(seed: int, n: int) -> list[GingaState]:
    return bot_states(GAME, n, seed, "scorer")


@pytest.fixture(scope="module")
def game():
    return _play(11, 4)


def test_score_history_has_a_point_per_turn_and_ends_at_the_totals(game):
    end = GAME.view(game[-1], None)
    history = end.score_history
    assert history[-1] == [p.total for p in end.players]
    for before, after in zip(history, history[1:]):  # scores never fall, one seat moves a turn
        assert all(a >= b for a, b in zip(after, before))
    turns_that_placed, at_start = 0, 0
    for a, b in zip(game, game[1:]):
        if b.turn > a.turn:  # a turn ended (passes that follow it change no score)
            turns_that_placed += len(b.placed) > at_start
            at_start = len(b.placed)
    assert len(history) == turns_that_placed
    # every turn's point is what the view said the scores were at that moment
    for state in game[1:]:
        if state.step == "place" and state.placed:
            view = GAME.view(state, None)
            assert view.score_history[-1] == [p.total for p in view.players]


def test_history_is_public_and_the_same_for_every_seat(game):
    state = game[len(game) // 2]
    assert all(GAME.view(state, seat).score_history == GAME.view(state, None).score_history for seat in range(4))


def test_bests_only_at_the_end_and_they_match_the_result(game):
    assert GAME.view(game[len(game) // 2], None).bests == []
    end = GAME.view(game[-1], None)
    stats = {row.seat: row.stats for row in end.result.players}
    for best in end.bests:
        assert best.loop_points == stats[best.seat]["best_loop"]
        assert best.station_points == stats[best.seat]["best_stations"]
        if best.loop_points:
            assert len(best.loop) == best.loop_points  # a loop of N cells scores N
            for (ax, ay), (bx, by) in zip(best.loop, best.loop[1:] + best.loop[:1]):
                assert abs(ax - bx) + abs(ay - by) == 1  # neighbouring cells, closed
        if best.station_points:
            assert len(best.stations) == best.station_points
            assert set(best.stations) <= set(best.track)
    assert any(b.loop_points for b in end.bests) and any(b.station_points for b in end.bests)


def test_view_has_each_tiles_placements_as_the_menu_does(game):
    checked = 0
    for state in game[:-1:3]:
        seat = state.current
        view = GAME.view(state, seat)
        decision = GAME.decision(state, seat)
        for tile in decision.first_step():
            if tile.value == "stop":
                continue
            stop = decision.walk([tile.value])
            mine = sorted((o for o in view.options if o.tile == tile.value),
                          key=lambda o: decisions.placement_order(o.points, o.notation))
            if stop.move is not None:  # its only placement: picking the tile makes it
                assert [o.notation for o in mine] == [stop.move]
                continue
            options = stop.options
            moves = [decision.walk([tile.value, o.value]).move for o in options]
            assert [o.notation for o in mine] == moves  # the same options, in the menu's order
            assert [decisions.where(o.cells) for o in mine] == [o.place for o in options]
            assert [o.points for o in mine] == sorted((o.points for o in mine), reverse=True)
            label = translate("en", options[0].label.key, options[0].label.params)
            assert label[0] in "→↓←↑", label  # the number is the picture's, put before it by the menu
            checked += len(options)
    assert checked > 50


def test_other_seats_get_no_options(game):
    state = game[5]
    other = (state.current + 1) % 4
    assert GAME.view(state, other).options == [] and GAME.view(state, None).options == []
