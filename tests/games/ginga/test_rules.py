"""Galactic Railway rules, one ruling at a time (GT-1 … GT-12), on hand-built positions."""
from __future__ import annotations

import pytest

from games.core.errors import IllegalAction
from games.core.i18n import translate
from games.ginga.board import CENTRE, index, second_cell
from games.ginga.models import Place, Stop
from games.ginga.notation import format_action, parse_action
from games.ginga.tiles import EDGE_GEOMETRY, E, L, N, R, S, W, Tile, tileset, turn180
from tests.games.ginga.helpers import GAME, board_of_rows, cell, place, play_rows, state_with, tid

# The rulebook's 12: a ring of six station tiles around an empty 2×2, built by legal play
# from the first tile on H8. The last tile closes the 12-cell loop.
RING = [
    ("T6", "H8", "right"),   # H8–I8: track down from H8, right from I8 (and up, outwards)
    ("T15", "J8", "right"),  # J8–K8
    ("T7", "K9", "down"),    # K9–K10
    ("T13", "J11", "right"),  # J11–K11
    ("T5", "H11", "right"),  # H11–I11
    ("T19", "H9", "down"),   # H9–H10: closes the ring
]


def track(tile: Tile, x: int, y: int, orient: int) -> set[tuple[tuple[int, int], int]]:
    """(cell, direction) of every exit of a placed tile."""
    cells = ((x, y), second_cell(x, y, orient))
    lmask, rmask = tile.half_dirs(orient)
    return {(cells[h], d) for h, mask in ((0, lmask), (1, rmask)) for d in range(4) if mask >> d & 1}


# ----------------------------------------------------------------------------- GT-1 geometry
def test_gt1_edges_are_numbered_clockwise_from_the_top_left():
    assert EDGE_GEOMETRY == ((L, N), (R, N), (R, E), (R, S), (L, S), (L, W))
    t21 = tileset().tiles[tid("T21")]  # exits 0 1 2 3: both tops, R's right and R's bottom
    assert track(t21, 7, 7, 0) == {((7, 7), N), ((8, 7), N), ((8, 7), E), ((8, 7), S)}


def test_gt1_turning_180_maps_edge_i_to_i_plus_3_and_swaps_halves():
    for tile in tileset().tiles:
        turned = Tile(index=-1, id="turned", exits=turn180(tile.exits), station=False, symmetric=False)
        for orient in range(4):
            x, y = 7, 7
            rx, ry = second_cell(x, y, orient)
            # the same physical tile described from its other half, pointing the other way
            assert track(tile, x, y, orient) == track(turned, rx, ry, (orient + 2) % 4)


# ----------------------------------------------------------------------------- GT-2, GT-3
def test_gt2_exits_and_stations():
    tiles = tileset().tiles
    assert all(3 <= t.kind <= 5 for t in tiles)
    assert all(t.station == (t.kind == 3) for t in tiles)
    assert sum(t.kind == 3 for t in tiles) == 20 and sum(t.kind == 4 for t in tiles) == 9
    assert sum(t.kind == 5 for t in tiles) == 3


def test_gt2_all_exits_of_a_tile_are_one_network_even_through_a_bare_station_half():
    # T11 has its exits on half R only and its station on half L: still one network.
    board = board_of_rows([("T11", "H8", "down"), ("T21", "I8", "down"), ("T30", "I10", "left")])
    nets = board.networks()
    # T11 down on H8–H9: exits on H9 (R) only. T21 down on I8–I9 meets H9's east track.
    # T30 left on I10–H10 meets H9's south track.
    assert nets[0] == nets[1] == nets[2]


# ----------------------------------------------------------------------------- GT-4 orientations
def test_gt4_four_orientations_two_for_a_tile_equal_to_its_turn():
    state = state_with(hands=[["T1", "T24"], ["T3", "T4"]])
    legal = GAME.legal_actions(state, 0)
    assert {a.orient for a in legal if a.tile == tid("T1")} == {0, 1, 2, 3}
    assert {a.orient for a in legal if a.tile == tid("T24")} == {0, 1}  # T24 is its own 180° turn
    t24 = tileset().tiles[tid("T24")]
    assert t24.symmetric and sum(t.symmetric for t in tileset().tiles) == 3
    for orient in (0, 1):  # left/up lie exactly like right/down one cell over
        rx, ry = second_cell(7, 7, orient)
        assert track(t24, 7, 7, orient) == track(t24, rx, ry, orient + 2)
    s = GAME.apply(state, 0, place("T24", "H8", "left")).state  # still accepted when typed
    assert s.placed[0][:4] == (tid("T24"), 7, 7, 2)


# ----------------------------------------------------------------------------- GT-5 placement
def test_gt5_first_tile_anywhere_means_the_centre_in_any_direction():
    state = state_with()
    legal = GAME.legal_actions(state, 0)
    assert {(a.x, a.y) for a in legal} == {CENTRE}
    assert len(legal) == 8  # two tiles, four directions each
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T1", "C3", "right"))
    assert err.value.code == "ginga.first_at_centre"


def test_gt5_success_failure_and_neutral_edges():
    board = board_of_rows([("T21", "H8", "right")])  # H8 up; I8 up, right, down
    tile = tileset().tiles
    # T30 (0 1 2 3 4) down on J8–J9: its L's west side meets I8's east track: success;
    # J8's north/east go nowhere (empty): neutral.
    assert board.check(tile[tid("T30")], *cell("J8"), 1) == (1, 0)
    # T20 (3 4 5) right on J8–K8: L-left (west) meets I8's east track: success.
    assert board.check(tile[tid("T20")], *cell("J8"), 0) == (1, 0)
    # T1 (0 1 2) right on J8: L has no west exit but I8 has east track: one failure, no success.
    assert board.check(tile[tid("T1")], *cell("J8"), 0) == (0, 1)


def test_gt5_two_failures_are_refused_one_is_allowed():
    # T21 right on H8–I8: H8 has track up; I8 up, right and down. T23 right on J7–K7: J7 has
    # track up and left (towards I7).
    base = [("T21", "H8", "right"), ("T23", "J7", "right")]
    state = state_with(placed=base, hands=[["T2", "T5"], ["T3", "T4"]])
    board = board_of_rows(base)
    tiles = tileset().tiles
    # The rulebook's refused example: T2 (0 1 3) right on H7–I7. Under H7 the track of H8
    # meets no track (failure), under I7 track meets track (success), and I7's right side is
    # bare against J7's track (failure): two failures.
    assert board.check(tiles[tid("T2")], *cell("H7"), 0) == (1, 2)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T2", "H7", "right"))
    assert err.value.code == "ginga.two_failures" and err.value.params["failures"] == 2
    assert place("T2", "H7", "right") not in GAME.legal_actions(state, 0)
    # T5 (0 2 3) there has track towards J7 too: two successes, one failure: allowed.
    assert board.check(tiles[tid("T5")], *cell("H7"), 0) == (2, 1)
    assert place("T5", "H7", "right") in GAME.legal_actions(state, 0)
    GAME.apply(state, 0, place("T5", "H7", "right"))





def test_gt5_no_success_is_refused_and_other_refusals():
    state = state_with(placed=[("T21", "H8", "right")], hands=[["T20", "T12"], ["T3", "T4"]])
    # T20 (3 4 5) right on H9–I9: H9's top meets H8's bare bottom (neutral), I9's bare top
    # meets I8's track (failure): no success.
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T20", "H9", "right"))
    assert err.value.code == "ginga.no_success"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T20", "A1", "right"))
    assert err.value.code == "ginga.too_wide"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T20", "E8", "down"))
    assert err.value.code == "ginga.not_touching"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T20", "I8", "down"))
    assert err.value.code == "ginga.cell_taken" and err.value.params["cell"] == "I8"


def test_gt5_the_tiles_must_fit_in_eight_columns_a_ninth_is_refused():
    # A row of four horizontal tiles, each joined to the last: H8 … O8, eight columns.
    state = play_rows([("T31", "H8", "right"), ("T32", "J8", "right"), ("T23", "L8", "right"),
                       ("T25", "N8", "right")])
    view = GAME.view(state, None)
    assert (view.frame.min_x, view.frame.max_x) == (cell("H8")[0], cell("O8")[0])
    assert view.frame.fixed_x and not view.frame.fixed_y
    assert (view.frame.reach[0], view.frame.reach[2]) == (cell("H8")[0], cell("O8")[0])
    # T29 down on G7–G8 joins H8's track (a success, no failure) but would make nine columns.
    s = state.model_copy(update={"hands": [[tid("T29"), tid("T28")], []], "current": 0, "step": "place"})
    assert board_of_rows([("T31", "H8", "right")]).check(tileset().tiles[tid("T29")], *cell("G7"), 1) == (1, 0)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, place("T29", "G7", "down"))
    assert err.value.code == "ginga.too_wide" and err.value.params["columns"] == 9
    legal = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Place)]
    assert legal and all(min(a.x, second_cell(a.x, a.y, a.orient)[0]) >= cell("H8")[0] for a in legal)


def test_gt5_rows_are_limited_the_same_way():
    state = play_rows([("T31", "H8", "down"), ("T32", "H10", "down"), ("T23", "H12", "down"),
                       ("T25", "H14", "down")])
    assert GAME.view(state, None).frame.fixed_y
    s = state.model_copy(update={"hands": [[tid("T29")], []], "current": 0, "step": "place"})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, place("T29", "H7", "up"))
    assert err.value.code == "ginga.too_tall" and err.value.params["rows"] == 10


# ----------------------------------------------------------------------------- GT-6 turns
def test_gt6_must_place_then_may_place_the_other_or_stop_then_refill_from_the_top():
    state = state_with(hands=[["T21", "T22"], ["T3", "T4"]], pile=["T5", "T6", "T7", "T8"])
    assert not any(isinstance(a, Stop) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, Stop())
    assert err.value.code == "ginga.cannot_stop"
    first = GAME.apply(state, 0, place("T21", "H8", "right"))
    s = first.state
    assert s.step == "second" and s.current == 0 and first.undoable
    assert Stop() in GAME.legal_actions(s, 0)
    stopped = GAME.apply(s, 0, Stop())
    s2 = stopped.state
    assert s2.current == 1 and s2.step == "place"
    assert s2.hands[0] == [tid("T22"), tid("T5")]  # refilled from the top of the pile
    assert s2.pile[0] == tid("T6") and not stopped.undoable  # T6 came to light
    keys = [e.key for e in stopped.events]
    assert keys == ["ginga.ev.stopped", "ginga.ev.refilled"]


def test_gt6_second_placement_then_the_turn_ends():
    state = state_with(hands=[["T21", "T22"], ["T3", "T4"]], pile=["T5", "T6", "T7", "T8"])
    s = GAME.apply(state, 0, place("T21", "H8", "right")).state
    second = [a for a in GAME.legal_actions(s, 0) if isinstance(a, Place)]
    assert second and all(a.tile == tid("T22") for a in second)
    done = GAME.apply(s, 0, second[0])
    assert done.state.current == 1 and done.state.hands[0] == [tid("T5"), tid("T6")]
    assert not done.undoable


def _first_event(key: str, seeds=range(200)):
    """(state before, seat, action, result) of the first action in random games whose events
    include `key`."""
    import random

    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.setup(2 + seed % 3, None, seed)
        while state.step != "over":
            seat = state.current
            action = rng.choice(GAME.legal_actions(state, seat))
            result = GAME.apply(state, seat, action)
            if any(e.key == key for e in result.events):
                return state, seat, action, result
            state = result.state
    raise AssertionError(f"no {key} in the games played")


def test_gt6_the_turn_ends_by_itself_when_the_other_tile_cannot_go_anywhere():
    import random

    for seed in range(300):
        rng = random.Random(seed)
        state = GAME.setup(3, None, seed)
        while state.step != "over":
            seat = state.current
            action = rng.choice(GAME.legal_actions(state, seat))
            result = GAME.apply(state, seat, action)
            if state.step == "place" and isinstance(action, Place) and result.state.current != seat \
                    and len(state.hands[seat]) == 2:
                other = [t for t in state.hands[seat] if t != action.tile]
                after = result.state.model_copy(update={"hands": [other] + [[]] * (state.n - 1), "current": 0})
                assert not GAME.can_place(after, 0)  # the other tile had nowhere to go
                assert "ginga.ev.stopped" not in [e.key for e in result.events]
                return
            state = result.state
    raise AssertionError("never seen")


def test_gt6_a_player_who_cannot_place_passes_and_refills():
    before, seat, action, result = _first_event("ginga.ev.passed")
    passes = [e for e in result.events if e.key == "ginga.ev.passed"]
    after = result.state
    for e in passes:
        stuck = e.params["seat"]
        assert stuck != seat or len(passes) >= before.n
        # they could place nothing with the tiles they held
        probe = after.model_copy(update={"current": stuck, "step": "place"})
        assert not GAME.can_place(probe, stuck) or after.step == "over"
    assert after.passes_in_row == len(passes) or after.step == "over"
    assert after.step == "over" or GAME.can_place(after, after.current)


# ----------------------------------------------------------------------------- GT-7 public information
def test_gt7_hands_and_top_of_pile_are_public_the_rest_is_not():
    state = GAME.setup(3, None, 11)
    view = GAME.view(state, None)
    for seat, p in enumerate(view.players):
        assert p.hand == [f"T{t + 1}" for t in state.hands[seat]]
    assert view.pile_top == f"T{state.pile[0] + 1}" and view.pile_size == len(state.pile)
    text = view.model_dump_json()
    hidden = [f'"T{t + 1}"' for t in state.pile[1:]]
    assert not any(h in text for h in hidden)
    assert GAME.view(state, 1).players == view.players  # everyone sees the same hands


def test_gt7_start_player_random_from_the_seed_or_chosen_by_the_host():
    starts = {GAME.setup(4, None, seed).start for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert GAME.setup(4, None, 5).start == GAME.setup(4, None, 5).start
    state = GAME.setup(3, {"start_player": 2}, 99)
    assert state.start == 1 and state.current == 1
    with pytest.raises(IllegalAction) as err:
        GAME.setup(2, {"start_player": 3}, 1)
    assert err.value.code == "ginga.bad_start_player"
    with pytest.raises(IllegalAction):
        GAME.setup(2, {"nonsense": 1}, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.setup(5, None, 1)
    assert err.value.code == "ginga.bad_player_count"


def test_gt7_two_tiles_each_dealt_in_turn_order_from_the_start_player():
    from games.core.rng import SeededRng

    state = GAME.setup(3, {"start_player": 3}, 7)

    pile = list(range(32))
    SeededRng(7, 0, "gt-pile").shuffle(pile)
    assert state.hands[2] == pile[0:2] and state.hands[0] == pile[2:4] and state.hands[1] == pile[4:6]
    assert state.pile == pile[6:]


# ----------------------------------------------------------------------------- GT-8 the end
def test_gt8_game_ends_when_everyone_passed_in_a_row_and_a_placement_resets_the_count():
    before, seat, action, result = _first_event("ginga.ev.game_over_end")
    s = result.state
    keys = [e.key for e in result.events]
    assert keys[-1] == "ginga.ev.game_over_end"
    # the turn began with a placement (which reset the count): then everyone passed
    assert s.passes_in_row == s.n and keys.count("ginga.ev.passed") == s.n
    assert s.step == "over" and GAME.result(s) is not None and GAME.active_players(s) == frozenset()
    for p in range(s.n):
        assert not GAME.can_place(s.model_copy(update={"step": "place"}), p)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, Stop())
    assert err.value.code == "game_over"


def test_gt8_a_placement_resets_the_passes():
    state = state_with(placed=[("T21", "H8", "right")], hands=[["T30", "T31"], ["T3", "T4"]], pile=["T5"])
    state = state.model_copy(update={"passes_in_row": 1})
    s = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0]).state
    assert s.passes_in_row == 0


# ----------------------------------------------------------------------------- GT-9 stations
def test_gt9_station_count_on_a_hand_built_network():
    # Station tiles joined track to track: T19 H8–I8, T18 J8–K8, T9 L8–M8, then T5 on K9–L9
    # under K8: four stations in one network.
    s = play_rows([("T19", "H8", "right"), ("T18", "J8", "right"), ("T9", "L8", "right"),
                   ("T5", "K9", "right")])
    assert [row[5] for row in s.placed] == [0, 2, 3, 4]
    assert sorted(s.latest[-1].stations) == sorted(cell(c) for c in ("H8", "J8", "L8", "K9"))


def test_gt9_a_lone_station_scores_nothing_and_a_tile_without_station_scores_no_stations():
    s = play_rows([("T19", "H8", "right")])
    assert s.placed[-1][5] == 0
    s = play_rows([("T19", "H8", "right"), ("T31", "J8", "right"), ("T18", "L8", "right")])
    assert s.placed[1][5] == 0  # T31 joined T19's network but has no station of its own
    assert s.placed[2][5] == 2  # T18's station and T19's, through T31


def test_gt9_failure_edges_do_not_join_networks():
    board = board_of_rows([("T19", "H8", "right"), ("T1", "J8", "right")])  # T1 has no west track
    nets = board.networks()
    assert nets[0] != nets[1]


# ----------------------------------------------------------------------------- GT-10 loops
def test_gt10_the_rulebook_example_scores_a_twelve_cell_loop():
    s = play_rows(RING)
    assert s.placed[-1][6] == 12
    loop = s.latest[-1].loop
    assert len(loop) == 12 and set(loop) >= {cell("H9"), cell("H10")}
    assert s.placed[-1][5] == 6  # the six stations of the ring are one network too: both score
    assert [row[6] for row in s.placed[:-1]] == [0] * 5


def test_gt10_loops_of_four_and_six():
    # Four: T24 (0 1 3 4) on H8–I8 over T21 (0 1 2 3) on H9–I9.
    four = play_rows([("T24", "H8", "right"), ("T21", "H9", "right")])
    assert four.placed[-1][6] == 4 and four.placed[0][6] == 0
    assert set(four.latest[-1].loop) == {cell(c) for c in ("H8", "I8", "H9", "I9")}
    # Six: T6 on H8–I8, T8 down on J8–J9, T9 left on I9–H9: a 3×2 ring.
    six = play_rows([("T6", "H8", "right"), ("T8", "J8", "down"), ("T9", "I9", "left")])
    assert six.placed[-1][6] == 6 and six.placed[-1][5] == 3  # and its three stations
    # A tile off the loop scores no loop, even though a loop exists.
    more = play_rows([("T24", "H8", "right"), ("T21", "H9", "right"), ("T32", "J9", "right")])
    assert more.placed[-1][6] == 0


def test_gt10_halves_are_joined_only_when_both_have_exits():
    board = board_of_rows([("T10", "H8", "right")])
    assert not board.join_e and not board.join_s  # T10: all three exits on half L
    board = board_of_rows([("T1", "H8", "right")])
    assert board.join_e >> index(*cell("H8")) & 1


# ----------------------------------------------------------------------------- GT-12 ranking
def test_gt12_highest_total_wins_and_equal_scores_share_the_place():
    state = state_with(hands=[[], [], []])
    state = state.model_copy(update={"step": "over", "placed": [
        (0, 7, 7, 0, 0, 3, 4), (1, 9, 7, 0, 1, 0, 7), (2, 11, 7, 0, 2, 2, 0)]})
    result = GAME.result(state)
    ranks = {p.seat: p.rank for p in result.players}
    assert ranks == {0: 1, 1: 1, 2: 3}
    # the result says why seats 0 and 1 are level, in the game's own words
    assert [(t.above, t.below, t.key, t.shared) for t in result.ties] == [(0, 1, "ginga.tie.shared", True)]
    assert translate("en", result.ties[0].key, result.ties[0].words(), ["Ann", "Ben", "Cy"]) == (
        "Ann and Ben both have 7 points: they share the place.")
    assert result.categories == ["stations", "loops"] and result.label_prefix == "ginga"
    top = next(p for p in result.players if p.seat == 0)
    assert top.by_category() == {"stations": 3, "loops": 4} and top.total == 7
    assert translate("en", "ginga.category.loops") == "Loops"


# ----------------------------------------------------------------------------- undo
def test_undo_only_while_nothing_hidden_came_to_light():
    state = state_with(hands=[["T21", "T22"], ["T3", "T4"]], pile=["T5"])
    first = GAME.apply(state, 0, place("T21", "H8", "right"))
    assert first.undoable
    # stop: draws T5, the last tile: nothing new is revealed (T5 was the public top)
    assert GAME.apply(first.state, 0, Stop()).undoable
    state = state_with(hands=[["T21", "T22"], ["T3", "T4"]], pile=["T5", "T6"])
    s = GAME.apply(state, 0, place("T21", "H8", "right")).state
    assert not GAME.apply(s, 0, Stop()).undoable  # T6 is the new top


# ----------------------------------------------------------------------------- notation and words
def test_notation_round_trip_and_forgiving_parse():
    a = place("T17", "H8", "right")
    assert format_action(a) == "place T17 at H8 right"
    for text in ("place T17 at H8 right", "T17 H8 right", "t17 h8 r", "17 @h8 →", "PLACE t17 on H8 east",
                 "place T17 at H8 R"):
        assert parse_action(text) == a, text
    assert parse_action("place T3 at o15 up") == place("T3", "O15", "up")
    for word in ("stop", "Done", "pass"):
        assert parse_action(word) == Stop()
    for bad, code in (("place T33 at H8 right", "ginga.unknown_tile"), ("place T3 at H16 up", "ginga.unknown_cell"),
                      ("place T3 at Z4 up", "ginga.unknown_cell"), ("hello", "unparsable"), ("", "unparsable"),
                      ("place T3 at H8 sideways", "unparsable")):
        with pytest.raises(IllegalAction) as err:
            parse_action(bad)
        assert err.value.code == code, bad


def test_move_words_name_the_cells_and_the_points():
    s = play_rows(RING[:-1])
    s = s.model_copy(update={"hands": [[tid("T19")], []], "current": 0, "step": "place"})
    closing = place("T19", "H9", "down")
    assert closing in GAME.legal_actions(s, 0)
    label = translate("en", GAME.describe_action(s, 0, closing).key, GAME.describe_action(s, 0, closing).params)
    assert label == "Place T19 ↓ on H9–H10, station on H9 · +18 (loop 12, stations 6)"
    ja = translate("ja", GAME.describe_action(s, 0, closing).key, GAME.describe_action(s, 0, closing).params)
    assert "H9–H10" in ja and "18" in ja and "環状線" in ja
    assert len(label) <= 100


def test_prompt_and_timeout_action():
    state = state_with(hands=[["T21", "T22"], ["T3", "T4"]])
    assert GAME.prompt(state, 0).key == "ginga.prompt.place" and GAME.prompt(state, 1) is None
    assert isinstance(GAME.timeout_action(state, 0), Place)
    s = GAME.apply(state, 0, place("T21", "H8", "right")).state
    assert GAME.prompt(s, 0).key == "ginga.prompt.second"
    assert GAME.timeout_action(s, 0) == Stop()


def test_views_list_options_with_points_only_for_the_player_to_move():
    s = play_rows(RING[:-1])
    s = s.model_copy(update={"hands": [[tid("T19"), tid("T30")], [tid("T1")]], "current": 0, "step": "place"})
    mine = GAME.view(s, 0)
    assert mine.legal and len(mine.options) == len(mine.legal)
    best = max(mine.options, key=lambda o: o.points)
    assert best.points == 18 and best.notation == "place T19 at H9 down"
    assert GAME.view(s, 1).options == [] and GAME.view(s, None).legal == []


def test_wrong_turn_and_unknown_tiles_are_refused():
    state = state_with()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 1, place("T3", "H8", "right"))
    assert err.value.code == "not_active"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, 0, place("T3", "H8", "right"))
    assert err.value.code == "ginga.not_in_hand" and err.value.params["hand"] == ["T1", "T2"]
