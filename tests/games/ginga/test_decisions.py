"""Galactic Railway's menus (games/ginga/decisions.py): tile, then where."""
import random

import pytest

from games.core.i18n import LANGUAGES, has_key, translate
from games.ginga import decisions, scoring
from games.ginga.board import cell_name, second_cell
from games.ginga.models import Place, Stop
from games.ginga.tiles import tileset
from tests.games.ginga.helpers import GAME, state_with, tid
from tests.support.protocol_checks import catalog_keys, check_decisions, walk_checking_decisions


@pytest.mark.parametrize("block", range(4))
def test_every_legal_move_is_offered_once_for_many_seeds(block):
    for seed in range(block * 5, block * 5 + 5):
        walk_checking_decisions(GAME, 500 + seed, 2 + seed % 3, 120)


def test_the_first_tile_of_the_game_goes_on_the_centre_in_two_picks():
    s = state_with(hands=(("T5", "T20"), ("T3", "T4")))
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    assert [p.value for p in d.first_step()] == ["T5", "T20"]
    assert all(p.step == decisions.TILE for p in d.first_step())
    stop = d.walk(["T5"])
    assert stop.step == decisions.PLACEMENT and {o.value.split()[0] for o in stop.options} == {"H8"}
    assert d.walk(["T5", "H8 right"]).move == "place T5 at H8 right"


def test_placements_are_listed_best_first_for_each_tile_each_on_its_cells():
    rng = random.Random(2)
    s = GAME.setup(3, None, 2)
    for _ in range(12):
        s = GAME.apply(s, s.current, rng.choice(GAME.legal_actions(s, s.current))).state
    d = GAME.decision(s, s.current)
    key = scoring.placed_key(s)
    for tile_pick in d.first_step():
        if tile_pick.value == "stop":
            continue
        options = d.walk([tile_pick.value]).options
        assert all(o.place is not None and o.place.kind == "cell" for o in options)
        assert len({o.place.at for o in options}) == len(options)  # one place per placement
        points = []
        for o in options:
            action = GAME.parse_action(d.walk([tile_pick.value, o.value]).move)
            assert o.place.at == (cell_name(action.x, action.y), cell_name(*second_cell(action.x, action.y, action.orient)))
            score = scoring.evaluate(key, action.tile, action.x, action.y, action.orient)
            points.append(score.stations + score.loop)
            assert o.label.params["score"] == (GAME.describe_action(s, s.current, action).params["score"])
        assert points == sorted(points, reverse=True)
        assert tile_pick.detail.params["count"] == len(options) and tile_pick.detail.params["points"] == points[0]


def test_stop_sits_beside_the_other_tile_after_a_first_placement():
    s = state_with(placed=[("T5", "H8", "right")], hands=(("T1",), ("T3", "T4")), step="second")
    d = GAME.decision(s, 0)
    check_decisions(GAME, s)
    assert [p.value for p in d.first_step()] == ["T1", "stop"]
    assert all(p.step == decisions.SECOND for p in d.first_step())
    assert d.walk(["stop"]).move == "stop" and Stop() in GAME.legal_actions(s, 0)
    assert d.walk(["T1"]).step == decisions.PLACEMENT
    first_turn = GAME.decision(state_with(placed=[("T5", "H8", "right")], hands=(("T1", "T2"), ("T3", "T4"))), 0)
    assert "stop" not in [p.value for p in first_turn.first_step()]


def test_nothing_is_secret_and_no_decision_has_a_key_of_its_own():
    rng = random.Random(9)
    for seed in range(4):
        s = GAME.setup(2 + seed % 3, None, seed)
        for _ in range(40):
            if GAME.result(s) is not None:
                break
            for seat in range(s.n):
                d = GAME.decision(s, seat)
                assert not d.secret and d.key is None  # public hands (GT-7), one player at a time
                assert d.empty == (seat != s.current)
            s = GAME.apply(s, s.current, rng.choice(GAME.legal_actions(s, s.current))).state


def test_the_tile_pick_draws_the_tile():
    # T5: exits 0 (L top), 2 (R right), 3 (R bottom); the halves are joined.
    assert decisions.shape(tileset().tiles[tid("T5")]) == "└┬"
    for tile in tileset().tiles:
        left, right = decisions.shape(tile)
        assert left in decisions.BOX and right in decisions.BOX
    s = state_with(hands=(("T5", "T30"), ("T3", "T4")))
    pick = GAME.decision(s, 0).first_step()[0]
    assert pick.icon == "T5" and pick.label.params["shape"] == "└┬"
    assert "T5" in translate("en", pick.label.key, pick.label.params)


def test_every_step_and_label_key_of_the_menus_exists_in_both_languages():
    rng = random.Random(3)
    keys: set[str] = set(decisions.STEPS)
    used: set[str] = set()
    for seed in range(8):
        s = GAME.setup(2 + seed % 3, None, seed)
        for _ in range(40):
            if GAME.result(s) is not None:
                break
            d = GAME.decision(s, s.current)
            picks = [p for c in d.choices for p in c.path]
            used |= {p.step for p in picks}
            events = [e for p in picks for e in (p.label, p.detail) if e is not None] + [d.prompt]
            for event in events:
                keys |= catalog_keys(event)
                for lang in LANGUAGES:
                    text = translate(lang, event.key, event.params)
                    assert "{" not in text, (lang, event.key, text)
            s = GAME.apply(s, s.current, rng.choice(GAME.legal_actions(s, s.current))).state
    keys |= used
    assert set(decisions.STEPS) <= used
    missing = [(lang, k) for lang in LANGUAGES for k in sorted(keys) if not has_key(lang, k)]
    assert not missing


def test_a_placement_value_names_the_cell_and_side():
    s = state_with(hands=(("T5", "T20"), ("T3", "T4")))
    d = GAME.decision(s, 0)
    for choice in d.choices:
        action = GAME.parse_action(choice.notation)
        assert isinstance(action, Place)
        cell, side = choice.path[1].value.split()
        assert choice.notation == f"place {choice.path[0].value} at {cell} {side}"
