"""Catan Express's race (CE-6 … CE-11) through `GAME.apply`: when it starts, naming the stops,
moving the locomotive with the rulebook's own example (a roll of 5 and 3 gives up to 5 points),
tolls on others' lines, water towers, Fastest Driver and the islands' change of line."""
from __future__ import annotations

import random

import pytest

from games.core.errors import message_key_of
from games.core.i18n import catalog
from games.catan_express.models import End, Leg, Ride
from games.catan_express.rules import GAME
from tests.games.catan_express.helpers import SPOTS4, Table, cards, find
from tests.support.protocol_checks import check_decisions


def seated(n: int = 4, seed: int = 1, **options) -> Table:
    t = Table(n, seed, **options)
    t.seat_all({s: SPOTS4[s] for s in range(n)})
    return t


def racing(stops: list[int], dice: tuple[int, int], lines: dict[int, list[str]] | None = None) -> Table:
    """Seat 0 to move in a race already under way, with these stops and extra lines, after
    rolling `dice`."""
    t = seated()
    for seat, pieces in (lines or {}).items():
        t.lay(seat, pieces)
    t.edit(lambda s: (setattr(s, "race", True), setattr(s, "starter", 3), setattr(s, "stops", list(stops))))
    t.roll(dice=dice)
    assert t.s.phase == "main" and t.who() == 0
    return t


# --- the start (CE-6, CE-7) ---------------------------------------------------------------

def _to_seat(t: Table, seat: int) -> None:
    while t.who() != seat:
        t.to_main(8)
        t.end()


def test_the_race_starts_at_the_end_of_the_turn_that_reached_eight():
    # CE-6: reaching 8 makes the starter; the race (and its two extra cities) begins only
    # when that turn ends.
    t = seated()
    t.lay(2, ["17-B3", "13-B3"])
    t.lay(3, ["42-E5", "32-E5"])
    t.lay(0, ["13-C3", "17-B3"])
    t.deal_dev(2, "victory_point", 5, where="vp")
    assert GAME.total(t.s, 2) == 7 and t.s.starter is None
    _to_seat(t, 2)
    t.to_main(8)
    assert t.s.starter is None
    t.set_hand(2, lumber=1, brick=1, wool=2, grain=2, ore=1)
    t.play("build settlement 3")
    assert GAME.total(t.s, 2) == 8
    assert t.s.starter == 2 and not t.s.race and t.s.phase == "main"
    assert find(t.s.last, "catan_express.ev.starter")[0].params == {"seat": 2, "points": 8}
    assert GAME.city_cap(t.s) == 2
    t.play("buy")                                 # the turn goes on as usual
    t.play("end")
    assert t.s.race and t.s.phase == "stops"
    assert "catan_express.ev.race_begins" in [e.key for e in t.s.last]
    assert GAME.city_cap(t.s) == 4


def test_stops_are_named_from_the_starter_clockwise_once_with_four():
    # CE-7: from the starter, clockwise; never a locomotive's start, never twice; a seat with
    # nothing to name is passed over; every seat then has a tower on every stop.
    t = seated()
    t.lay(2, ["17-B3", "13-B3"])                 # starter: reaches 17 and 13
    t.lay(3, ["42-E5", "32-E5"])                 # 42; 32 is seat 1's start
    t.lay(0, ["13-C3", "17-B3"])                 # 13 and 17; 35 is its own start
    _to_seat(t, 2)
    t.to_main(8)
    t.edit(lambda s: setattr(s, "starter", 2))
    t.play("end")
    assert t.s.phase == "stops" and t.s.stop_queue == [2, 3, 0, 1]
    assert t.who() == 2 and sorted(t.legal()) == ["stop 13", "stop 17"]
    assert t.refuse("stop 45") == "catan_express.not_now"   # its own start
    assert t.refuse("stop 42") == "catan_express.not_now"   # not on its network
    t.play("stop 13")
    assert t.who() == 3 and t.legal() == ["stop 42"]
    t.play("stop 42")
    assert t.who() == 0 and t.legal() == ["stop 17"]
    assert t.refuse("stop 13") == "catan_express.not_now"   # named already
    assert t.refuse("stop 35") == "catan_express.not_now"   # a locomotive's start
    t.play("stop 17")
    # seat 1 reaches nothing it may name: passed over, and the race is on
    assert t.s.stops == [13, 42, 17]
    assert [e.params["seat"] for e in find(t.s.last, "catan_express.ev.no_stop")] == [1]
    assert find(t.s.last, "catan_express.ev.race_on")[0].params["stops"] == ["13", "42", "17"]
    assert t.s.phase == "roll" and t.s.current == 3
    named = [e.params["seat"] for e in find(t.events, "catan_express.ev.stop_named")]
    assert named == [2, 3, 0]
    # towers count = stops: nobody has won with fewer than all three
    assert all(len(t.p(s).towers) == 0 for s in range(4)) and len(t.s.stops) == 3


def _three_players(nameable: list[int]) -> Table:
    t = seated(3)
    for seat in range(3):
        t.lay(seat, ["13-B3", "17-B3", "20-D3", "3-E2", "50-D6", "51-E6", "54-E6"])
    for point in (3, 50, 54):
        t.put(point, 1)
    # leave only the wanted buildings reachable: others lose their pieces again
    def keep(s):
        for piece in list(s.pieces):
            ends = GAME.geo(s).ends[piece]
            points = {int(x) for x in ends if x.isdigit()}
            if points and not points & set(nameable) and points & {13, 17, 20, 3, 50, 54}:
                del s.pieces[piece]
    t.edit(keep)
    t.to_main(8)
    t.edit(lambda s: setattr(s, "starter", 0))
    t.play("end")
    return t


def test_three_players_name_stops_twice_round():
    # CE-7, the 3-player rule: a second round, up to six stops.
    t = _three_players([13, 17, 20, 3, 50, 54])
    assert t.s.stop_queue == [0, 1, 2, 0, 1, 2]
    while t.s.phase == "stops":
        t.play(t.legal()[0])
    assert len(t.s.stops) == 6 and len(set(t.s.stops)) == 6
    assert [e.params["seat"] for e in find(t.events, "catan_express.ev.stop_named")] == [0, 1, 2, 0, 1, 2]


def test_three_players_with_one_place_name_one_stop():
    # CE-7: "if only one place can be a stop, there is only one stop".
    t = _three_players([13])
    assert t.who() == 0 and t.legal() == ["stop 13"]
    t.play("stop 13")
    assert t.s.stops == [13] and t.s.phase == "roll"
    assert [e.params["seat"] for e in find(t.s.last, "catan_express.ev.no_stop")] == [1, 2, 0, 1, 2]


# --- moving (CE-8, CE-9) ------------------------------------------------------------------

LONG = ["18-C4", "18-C3", "14-C3", "14-D3", "15-D3"]   # 35 → C4 → 18 → C3 → 14 → D3 → 15


def test_a_roll_of_5_and_3_moves_up_to_5():
    # The rulebook's example: 5 and 3 rolled → up to 5 points of movement, one per piece.
    for dice in ((5, 3), (3, 5)):
        t = racing([42], dice, {0: LONG})
        assert t.s.move_left == 5
        assert t.refuse("ride C4 18 C3 14 D3 15") == "catan_express.ride_ends_early"   # 6 pieces
        hand = t.hand(0)
        t.play("ride C4 18 C3 14 D3")
        assert t.p(0).loco == "D3" and t.hand(0) == hand                   # own pieces are free
        assert t.s.current == 1 and t.s.phase == "roll"                    # the points are spent


def test_moving_is_step_by_step_and_ends_building():
    # CE-8: movement comes after building; one leg at a time is the same as a whole ride.
    t = racing([42], (4, 1), {0: LONG})
    t.set_hand(0, lumber=1, ore=1)
    t.play("ride C4")
    assert t.s.moving and t.s.move_left == 3
    assert t.refuse("build rail 24-C4") == "catan_express.moving_no_build"
    assert {x.split()[0] for x in t.legal()} == {"ride", "end"}
    t.play("ride 18")
    t.play("ride C3 14")
    assert t.p(0).loco == "14" and t.s.current == 1


def test_unused_points_are_lost():
    t = racing([42], (6, 2), {0: LONG})
    t.play("ride C4 18")
    t.play("end")
    assert t.s.move_left == 0 and t.p(0).loco == "18"
    for _ in range(3):
        t.roll(dice=(1, 1))
        t.end()
    t.roll(dice=(2, 1))
    assert t.who() == 0 and t.s.move_left == 2
    assert t.refuse("ride C3 14 D3") == "catan_express.ride_ends_early"


def test_others_lines_cost_one_card_to_an_owner_of_the_movers_choice():
    # CE-8: a piece of others costs one resource (the mover's choice) to its owner; with
    # several owners the mover picks which; no card, no passage.
    lines = {1: ["18-C4", "18-C3", "13-B3"], 2: ["18-C3"], 0: ["13-C3"]}
    t = racing([42], (6, 2), lines)
    t.set_hand(0, wool=1, ore=1)
    t.set_hand(1)
    t.set_hand(2)
    t.play("ride C4")
    legs = set(t.legal())
    assert {"ride 18@2:wool", "ride 18@2:ore"} <= legs and "ride 18" not in legs
    assert t.refuse("ride 18") == "catan_express.ride_toll_owner"              # others' piece, unpaid
    assert t.refuse("ride 18@3:wool") == "catan_express.ride_toll_owner"       # seat 2 has no piece there
    t.play("ride 18@2:wool")
    assert t.hand(0) == cards(ore=1) and t.hand(1) == cards(wool=1)
    assert {"ride C3@2:ore", "ride C3@3:ore"} <= set(t.legal())
    t.play("ride C3@3:ore")
    assert t.hand(0) == cards() and t.hand(2) == cards(ore=1)
    # 13-C3 is seat 0's own (beside nobody): free; 13-B3 is seat 1's and seat 0 has no card
    t.play("ride 13")
    assert t.p(0).loco == "13"
    assert not [x for x in t.legal() if x.startswith("ride B3")]
    assert t.refuse("ride B3@2:ore") == "catan_express.ride_cannot_pay"


def test_a_parallel_own_piece_is_free():
    # CE-8: free if the mover has a piece there too, whoever else has one.
    t = racing([42], (6, 2), {1: ["18-C4"], 0: ["18-C4"]})
    t.set_hand(0, wool=1)
    assert t.s.pieces["18-C4"] == [1, 0]
    t.play("ride C4 18")
    assert t.hand(0) == cards(wool=1)


def test_a_tower_ends_the_move_and_scores():
    # CE-9: reaching one's own tower stops the locomotive at once; the tower is 1 VP.
    t = racing([13, 42], (6, 2), {0: ["24-C4", "24-C3", "13-C3", "13-C2"]})
    before = GAME.total(t.s, 0)
    assert t.refuse("ride C4 24 C3 13 C2") == "catan_express.ride_ends_early"
    t.play("ride C4 24 C3 13")
    assert t.p(0).towers == [13] and GAME.total(t.s, 0) == before + 1
    assert find(t.s.last, "catan_express.ev.tower")[0].params == {"seat": 0, "at": "13", "count": 1, "of": 2}
    assert t.s.current == 1 and t.s.phase == "roll"
    assert GAME.view(t.s, None).seats[0].towers == 1


def test_a_collected_tower_no_longer_stops_the_locomotive():
    t = racing([13, 42], (6, 2), {0: ["24-C4", "24-C3", "13-C3", "13-C2", "9-C2"]})
    t.edit(lambda s: s.players[0].towers.append(13))
    t.play("ride C4 24 C3 13 C2 9")
    assert t.p(0).loco == "9" and t.p(0).towers == [13]


def test_the_last_tower_ends_the_game_with_fastest_driver():
    # CE-9: collecting one's last tower ends race and game; Fastest Driver is 1 VP more.
    t = racing([13], (6, 2), {0: ["24-C4", "24-C3", "13-C3"]})
    before = GAME.total(t.s, 0)
    t.play("ride C4 24 C3 13")
    assert t.s.phase == "over" and t.p(0).fastest and t.s.race_winner == 0
    assert GAME.total(t.s, 0) == before + 2
    assert {"catan_express.ev.race_won", "catan_express.ev.game_over"} <= {e.key for e in t.s.last}
    result = GAME.result(t.s)
    mine = next(p for p in result.players if p.seat == 0)
    lines = {line.category: line.points for line in mine.lines}
    assert lines["fastest_driver"] == 1 and lines["towers"] == 1
    assert result.reason == "race" and GAME.active_players(t.s) == frozenset()


def test_a_finished_game_refuses_moves_in_words_a_player_can_read():
    t = racing([13], (6, 2), {0: ["24-C4", "24-C3", "13-C3"]})
    t.play("ride C4 24 C3 13")
    assert t.s.phase == "over"
    code = t.refuse("roll", 1)
    assert all(message_key_of(code) in catalog(lang) for lang in ("en", "ja")), code


def test_another_players_tower_does_not_stop_the_locomotive():
    # CE-9: only the mover's own towers; seat 1 has collected 13, seat 0 has not.
    t = racing([13, 42], (6, 2), {0: ["24-C4", "24-C3", "13-C3", "13-C2"]})
    t.edit(lambda s: s.players[1].towers.append(13))
    assert t.refuse("ride C4 24 C3 13 C2") == "catan_express.ride_ends_early"


# --- the islands (CE-11) ------------------------------------------------------------------

def _islands(transfer_stop: bool, pieces: list[str], loco: str, dice: tuple[int, int],
             stop: int | None = None) -> Table:
    """Seat 0 to move on the islands map in a race under way, its locomotive on `loco`, these
    pieces its own, after rolling `dice`; the stop a settlement of seat 1 (default: the last
    building of setup, far from these lines)."""
    t = Table(4, 1, map="islands", transfer_stop=transfer_stop)
    t.seat_any()
    t.lay(0, pieces)
    if stop is not None:
        t.put(stop, 1)
    far = stop if stop is not None else max(pt for pt, b in t.s.buildings.items())
    t.edit(lambda s: (setattr(s, "race", True), setattr(s, "starter", 3), setattr(s, "stops", [far]),
                      setattr(s.players[0], "loco", loco)))
    t.roll(dice=dice)
    while t.s.phase == "gold":
        t.play(t.legal()[0])
    assert t.who() == 0 and t.s.phase == "main"
    return t


# 6–F2 and F2–1 are rails (spokes of F2), 1–2 and 2–5 ferries (coast edges).
RAIL_THEN_FERRY = ["6-F2", "1-F2", "1-2", "2-5"]


def test_islands_a_move_ends_where_the_locomotive_changes_from_rail_to_ferry():
    # CE-11 (the rulebook: a locomotive changing between rail and ferry must stop): rail
    # 6–F2–1, then the ferry 1–2, with dice 6 and 5. The move ends at 1, where the locomotive
    # would change, not at 2: typed, as legs, or in the menu.
    t = _islands(True, RAIL_THEN_FERRY, loco="6", dice=(6, 5))
    assert t.s.move_left == 6
    error = t.refusal("ride F2 1 2")
    assert error.code == "catan_express.ride_transfer" and error.params == {"at": "1"}
    t.play("ride F2 1")
    assert t.p(0).loco == "1" and t.s.moving and t.s.move_left == 4
    # at 1 the ferry is no longer offered, nor accepted; going on by rail still is
    assert "ride 2" not in t.legal() and "ride F2" in t.legal()
    assert t.refusal("ride 2").code == "catan_express.ride_transfer"
    check_decisions(GAME, t.s)
    # the bots keep to it too: the builder ends its move here, the random bot never changes
    assert GAME.bots()["builder"].choose(GAME, t.s, 0, random.Random(1)) == End()
    for k in range(40):
        move = GAME.bots()["random"].choose(GAME, t.s, 0, random.Random(k))
        assert GAME.allows(t.s, 0, move), move
    t.play("end")
    # the next turn starts afresh at 1: now the ferry is the first leg, and the move goes on by ferry
    while t.who() != 0:
        t.to_main(8)
        t.end()
    t.roll(dice=(3, 2))
    t.play("ride 2 5")
    assert t.p(0).loco == "5"


def test_islands_a_move_ends_where_the_locomotive_changes_from_ferry_to_rail():
    t = _islands(True, RAIL_THEN_FERRY, loco="2", dice=(6, 5))
    assert t.refusal("ride 1 F2").params == {"at": "1"}
    t.play("ride 1")
    assert t.p(0).loco == "1" and [x for x in t.legal() if x.startswith("ride")] == ["ride 2"]


@pytest.mark.parametrize("stop", [2, 5])
def test_islands_no_route_to_a_stop_changes_between_rail_and_ferry(stop):
    # CE-11 in the "drive to a stop" menu: a stop just past the change at 1 (2, the change
    # its last leg) or further on (5) is not reached this turn, and no route is offered to
    # it (the bots read the same routes); without the option the route is offered.
    t = _islands(True, RAIL_THEN_FERRY, loco="6", dice=(6, 5), stop=stop)
    assert not [x for x in t.legal() if x.startswith("ride") and len(x.split()) > 2]
    assert GAME.ride_routes(t.s, 0) == []
    assert GAME.bots()["builder"].choose(GAME, t.s, 0, random.Random(1)) == Ride(legs=(Leg(to="F2"),))
    route = "ride F2 1 2" + (" 5" if stop == 5 else "")
    assert t.refusal(route).code == "catan_express.ride_transfer"
    free = _islands(False, RAIL_THEN_FERRY, loco="6", dice=(6, 5), stop=stop)
    assert route in free.legal()
    free.play(route)
    assert free.p(0).towers == [stop]


def test_islands_without_the_option_run_through():
    t = _islands(False, RAIL_THEN_FERRY, loco="6", dice=(6, 5))
    t.play("ride F2 1 2 5")
    assert t.p(0).loco == "5"


def test_islands_a_ferry_may_be_built_across_a_strait():
    # CE-1b: 47–53 runs between two sea hexes, both its ends touching land (a strait between
    # two islands): a ferry may be built there, joined to one's rails.
    t = Table(4, 1, map="islands")
    t.seat_any()
    t.to_main(8)
    seat = t.who()
    t.lay(seat, ["47-C6"])
    t.set_hand(seat, lumber=1, wool=1)
    assert "build ferry 47-53" in t.legal()
    t.play("build ferry 47-53")
    assert t.s.pieces["47-53"] == [seat] and t.hand(seat) == cards()


def test_the_main_map_never_stops_on_a_change():
    # CE-11 is an islands rule only.
    t = seated()
    t.lay(0, ["1-C2", "4-C2", "4-8", "8-12"])
    t.edit(lambda s: (setattr(s, "race", True), setattr(s, "starter", 3), setattr(s, "stops", [42]),
                      setattr(s.players[0], "loco", "1")))
    t.roll(dice=(4, 4))
    t.play("ride C2 4 8 12")
    assert t.p(0).loco == "12"


# --- a race nobody can finish -------------------------------------------------------------

def test_a_race_nobody_can_finish_still_ends():
    # CE-9 ends the game only when someone collects every tower. Here every player has
    # collected the tower on 13 and has built all 15 rails and 8 ferries, none of them near the
    # other stop, 42: no locomotive can ever reach it and no piece is left to build towards it.
    # Bot games reach such positions, mostly on the islands maps: every piece built, the stops
    # left to collect on islands no line joins. The game must come to an end rather than go
    # round for ever.
    t = seated()
    rails = [f"{c}-{h}" for h in ("B3", "C2", "C3") for c in t.geo.corners_of[h]][:14]
    ferries = ["1-4", "1-5", "2-5", "2-6", "3-6", "3-7", "4-8", "8-12"]
    assert all(t.geo.kind[x] == "rail" for x in rails) and all(t.geo.kind[x] == "ferry" for x in ferries)
    for seat in range(4):
        t.lay(seat, rails + ferries)
        assert GAME.pieces_left(t.s, seat, "rail") == GAME.pieces_left(t.s, seat, "ferry") == 0
    assert not any("42" in t.geo.ends[x] for x in t.s.pieces)

    def dead(s):
        s.race, s.starter, s.stops = True, 0, [13, 42]
        for p in s.players:
            p.towers, p.loco = [13], "13"
    t.edit(dead)
    for _ in range(2 * t.s.n):
        if t.s.phase == "over":
            break
        t.to_main(8)
        if t.s.phase != "over":
            t.end()
    assert t.s.phase == "over"
    result = GAME.result(t.s)
    keys = {f"catan_express.reason.{result.reason}"} | {e.key for e in t.events}
    assert all(k in catalog(lang) for k in keys for lang in ("en", "ja")), keys
