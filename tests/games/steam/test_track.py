"""Steam's placed track and building (ST-1 … ST-7): the rulebook's building examples played on
the real Northeast map with the rulebook's own numbers, link tracing, ownership, stock."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.core.errors import IllegalAction
from games.steam.building import Build, BuildTurn, Kind, apply_build, by_hex, legal_builds
from games.steam.delivery import Network, deliveries
from games.steam.map import steam_map
from games.steam.tiles import tileset
from games.steam.track import Rails, delivery_links, lapse, retrace, runs_by_id, unown_all

M = steam_map("northeast")
T = tileset()
BLACK, ORANGE, GREEN = 0, 1, 2
LAB = M.label
ROOT = Path(__file__).resolve().parents[3]


def hx(label):
    return M.hex_at(label)


def rotation_joining(label, face, towards):
    """The one rotation of `face` on `label` whose exits are exactly the sides towards `towards`."""
    h = hx(label)
    want = frozenset(h.side_towards(hx(x)) for x in towards)
    rots = [k for k in T.faces[face].rotations if T.faces[face].exits_at(k) == want]
    assert len(rots) == 1, (label, face, rots)
    return rots[0]


class Game:
    """A board played move by move, keeping rails, stock and what each move cost."""

    def __init__(self):
        self.rails, self.stock, self.costs, self.events = Rails(), T.full_stock(), [], []

    def turn(self, seat, turn=1, limit=3):
        self.bt = BuildTurn(seat, turn, limit)
        self.costs = []
        return self

    def build(self, label, face, towards, kind=Kind.BUILD):
        b = Build(kind, hx(label), face, rotation_joining(label, face, towards))
        return self.do(b)

    def do(self, b):
        done = apply_build(M, self.rails, self.stock, self.bt, b, T)
        self.rails, self.stock, self.bt = done.rails, done.stock, done.turn
        self.costs.append(done.cost)
        self.events += done.events
        return done

    def links(self):
        return {frozenset(LAB(e) for e in l.ends): l.owner for l in delivery_links(M, self.rails, T)}


def black_turn(g):
    g.turn(BLACK)
    g.build("L8", "21", ["L7", "L9"])     # A: Albany to Poughkeepsie
    g.build("L9", "T21", ["L8", "L10"])   # B: over Poughkeepsie
    g.build("L10", "21", ["L9", "L11"])   # C: into New York
    return g


def test_figure_1_black_builds_two_links_for_10():
    g = Game().turn(BLACK)
    g.build("L8", "21", ["L7", "L9"])
    assert delivery_links(M, g.rails, T) == []          # Albany to nowhere yet: incomplete
    (only,) = runs_by_id(M, g.rails, T).values()
    assert not only.complete and only.places == (hx("L7"),)
    g.build("L9", "T21", ["L8", "L10"])
    g.build("L10", "21", ["L9", "L11"])
    assert g.costs == [3, 4, 3] and sum(g.costs) == 10
    assert g.links() == {frozenset({"L7", "L9"}): BLACK, frozenset({"L9", "L11"}): BLACK}
    assert [e.key for e in g.events].count("steam.ev.link_completed") == 2


def test_figure_2_orange_uses_the_engineer_for_four_tiles_and_10():
    g = black_turn(Game())
    black_ids = {l.id for l in delivery_links(M, g.rails, T)}
    g.turn(ORANGE, limit=4)
    g.build("K8", "22", ["L7", "K9"])     # D: gentle curve on a hill
    g.build("K9", "21", ["K8", "K10"])    # E
    g.build("K10", "21", ["K9", "K11"])   # F
    g.build("K11", "22", ["K10", "L11"])  # G: into New York
    assert g.costs == [4, 2, 2, 2] and sum(g.costs) == 10
    assert g.links()[frozenset({"L7", "L11"})] == ORANGE
    assert black_ids <= {l.id for l in delivery_links(M, g.rails, T)}   # ids survive others' moves


def test_the_fourth_tile_needs_the_engineer():
    g = Game().turn(ORANGE, limit=3)
    for label, face, towards in [("K8", "22", ["L7", "K9"]), ("K9", "21", ["K8", "K10"]),
                                 ("K10", "21", ["K9", "K11"])]:
        g.build(label, face, towards)
    with pytest.raises(IllegalAction) as err:
        g.build("K11", "22", ["K10", "L11"])
    assert err.value.code == "steam.build.limit"
    assert legal_builds(M, g.rails, g.stock, g.bt, T) == []


def test_figure_3_green_builds_to_hartford_and_urbanizes_new_haven():
    g = black_turn(Game())
    g.turn(GREEN)
    g.build("M8", "21", ["L7", "N8"])     # H
    g.build("N8", "22", ["M8", "N9"])     # I: gentle curve on a hill into Hartford
    g.build("N10", "22", ["N9", "M11"])   # J: towards New Haven
    assert g.costs == [2, 4, 2]
    assert frozenset({"N9", "M11"}) not in g.links()
    done = g.do(Build(Kind.URBANIZE, hx("M11")))
    assert done.cost == 0 and g.bt.placed == 3            # the new city is no placement (ST-1)
    assert sum(g.costs) + 6 == 14                          # $6 paid with the action tile
    green = {k for k, v in g.links().items() if v == GREEN}
    assert green == {frozenset({"L7", "N9"}), frozenset({"N9", "M11"})}


def test_urbanize_leaves_the_placement_count_alone():
    """Green lays two straights, puts a new city on Poughkeepsie, and may still lay one more."""
    g = Game().turn(GREEN)
    g.build("L8", "21", ["L7", "L9"])
    g.build("M8", "21", ["L7", "N8"])
    g.do(Build(Kind.URBANIZE, hx("L9")))
    assert g.bt.placed == 2
    assert g.links() == {frozenset({"L7", "L9"}): GREEN}   # the new city completes the link
    g.build("L10", "21", ["L9", "L11"])                    # and a link may start from it
    assert g.links()[frozenset({"L9", "L11"})] == GREEN
    with pytest.raises(IllegalAction, match="limit"):
        g.build("N8", "22", ["M8", "N9"])


def test_complex_tile_south_east_of_hartford_costs_5():
    g = Game().turn(GREEN)
    h = hx("O10")
    (rot,) = [k for k in T.faces["44"].rotations
              if T.faces["44"].exits_at(k) == {h.side_towards(hx(x)) for x in ("N9", "O9", "N10", "P9")}]
    done = g.do(Build(Kind.BUILD, h, "44", rot))
    assert done.cost == 5                                  # 4 exits + river
    runs = runs_by_id(M, g.rails, T)
    assert len(runs) == 2 and {r.places for r in runs.values()} == {(hx("N9"),), (hx("P9"),)}
    assert all(rec.owner == GREEN for rec in g.rails.links)


def test_upgrade_south_west_of_boston_costs_4_and_keeps_blacks_link():
    g = Game().turn(BLACK)
    g.build("P8", "22", ["P9", "O8"])                      # black's curve from Providence
    (black,) = g.rails.links
    g.turn(GREEN, turn=2)
    g.build("O9", "21", ["N9", "P8"])                      # green's track from Hartford
    with pytest.raises(IllegalAction, match="occupied"):
        g.build("P8", "21", ["O9", "Q8"])
    before = sum(g.stock.counts)
    done = g.do(Build(Kind.UPGRADE, hx("P8"), "42", 2))
    assert T.faces["42"].exits_at(2) == {hx("P8").side_towards(hx(x)) for x in ("P9", "O8", "O9", "Q8")}
    assert done.cost == 4
    assert g.rails.record[black.id].owner == BLACK         # black keeps the curve's link
    assert g.links() == {frozenset({"N9", "Q8"}): GREEN}   # green's Hartford-Boston link
    assert sum(g.stock.counts) == before                   # one tile back, one taken
    assert g.stock.available("22") == T.face_count("22") - 1  # black's curve is back, green's O9 out


def test_nobody_extends_another_players_link():
    g = Game().turn(BLACK)
    g.build("L8", "21", ["L7", "L9"])
    g.turn(ORANGE, turn=1)
    with pytest.raises(IllegalAction) as err:
        g.build("L9", "T21", ["L8", "L10"])
    assert err.value.code == "steam.build.others_link"
    assert not any(b.hex == hx("L9") for b in legal_builds(M, g.rails, g.stock, g.bt, T))


@pytest.mark.parametrize("label, face, towards", [
    ("M9", "21", ["M8", "M10"]),        # in the middle of nowhere
    ("J7", "22", ["I7", "K7"]),         # beside towns only: a link never starts at a town
])
def test_track_must_start_at_a_city_or_continue_own_track(label, face, towards):
    g = Game().turn(BLACK)
    with pytest.raises(IllegalAction) as err:
        g.build(label, face, towards)
    assert err.value.code == "steam.build.not_connected"


def test_a_link_may_not_return_to_its_own_city():
    g = Game().turn(BLACK)
    albany = hx("L7")
    # Two hexes next to Albany, joined by a sharp curve each, would lead back into Albany.
    a, b = albany.neighbor(0), albany.neighbor(1)
    g.build(LAB(a), "23", [LAB(albany), LAB(b)])
    with pytest.raises(IllegalAction) as err:
        g.build(LAB(b), "23", [LAB(a), LAB(albany)])
    assert err.value.code == "steam.build.loop"


def test_an_unextended_link_lapses_and_can_be_taken_over():
    g = Game().turn(BLACK, turn=1)
    g.build("L8", "21", ["L7", "L9"])
    rails, lost = lapse(M, g.rails, 1, T)
    assert lost == []                                       # built this turn: kept
    rails, lost = lapse(M, rails, 2, T)                     # not extended during turn 2
    assert [r.owner for r in lost] == [BLACK] and rails.links[0].owner is None
    g.rails = rails
    g.turn(ORANGE, turn=3)
    g.build("L9", "T21", ["L8", "L10"])                     # it leaves a city: anyone may take it
    assert g.links() == {frozenset({"L7", "L9"}): ORANGE}
    assert "steam.ev.link_taken" in [e.key for e in g.events]


def test_an_extended_link_is_kept():
    g = Game().turn(BLACK, turn=1)
    g.build("K8", "22", ["L7", "K9"])
    g.turn(BLACK, turn=2)
    g.build("K9", "21", ["K8", "K10"])
    rails, lost = lapse(M, g.rails, 2, T)
    assert lost == [] and rails.links[0].owner == BLACK
    rails, lost = lapse(M, rails, 3, T)
    assert len(lost) == 1


def test_a_redirect_alone_does_not_keep_a_link_unless_it_completes_it():
    g = Game().turn(BLACK, turn=1)
    g.build("K8", "22", ["L7", "K9"])
    g.build("K9", "21", ["K8", "K10"])
    g.turn(BLACK, turn=2)
    rot = rotation_joining("K9", "22", ["K8", "J9"])
    done = g.do(Build(Kind.REDIRECT, hx("K9"), "22", rot))
    assert done.cost == 2                                   # $1 an exit, no terrain
    assert lapse(M, g.rails, 2, T)[1]                       # not an extension: it lapses
    with pytest.raises(IllegalAction, match="not_last_tile"):
        g.do(Build(Kind.REDIRECT, hx("K8"), "21", 0))
    # Turning the tile at New York's door so that it enters the city completes the link.
    g2 = Game().turn(BLACK, turn=1)
    g2.build("L10", "22", ["L11", "K10"])
    g2.turn(BLACK, turn=2)
    done = g2.do(Build(Kind.REDIRECT, hx("L10"), "21", rotation_joining("L10", "21", ["L11", "L9"])))
    assert done.cost == 2 and g2.rails.links[0].extended == 1   # L9 is a bare town: still open
    assert not lapse(M, g2.rails, 2, T)[1] == []


def test_a_redirect_that_completes_an_unowned_link_takes_it():
    g = Game().turn(BLACK, turn=1)
    g.build("O10", "23", ["N9", "O9"])                      # Hartford towards O9, on a river
    assert g.costs == [3]
    g.rails, _ = lapse(M, g.rails, 2, T)
    (lid,) = [r.id for r in g.rails.links]
    g.turn(ORANGE, turn=3)
    done = g.do(Build(Kind.REDIRECT, hx("O10"), "22", rotation_joining("O10", "22", ["N9", "P9"])))
    assert done.cost == 2                                   # no river surcharge on a redirect
    assert [(l.id, l.owner) for l in delivery_links(M, g.rails, T)] == [(lid, ORANGE)]


def test_links_trace_back_the_same_and_feed_deliveries():
    g = black_turn(Game())
    g.turn(ORANGE, limit=4)
    for label, face, towards in [("K8", "22", ["L7", "K9"]), ("K9", "21", ["K8", "K10"]),
                                 ("K10", "21", ["K9", "K11"]), ("K11", "22", ["K10", "L11"])]:
        g.build(label, face, towards)
    again, fresh = retrace(M, g.rails, T)
    assert again == g.rails and fresh == []
    # Rebuilt from the tiles alone, the links come out with the same ends and segments.
    bare = Rails(tiles=g.rails.tiles)
    rebuilt, fresh = retrace(M, bare, T)
    assert sorted(sorted(r.segments) for r in rebuilt.links) == sorted(sorted(r.segments) for r in g.rails.links)
    links = delivery_links(M, g.rails, T)
    net = Network(links)
    cubes = {hx("L7"): {M.cities[hx("L11")].city: 1}}
    colours = {h: s.city for h, s in M.cities.items()}
    found = deliveries(net, colours, cubes, ORANGE, 1)
    assert [d.destination for d in found] == [hx("L11")]


def test_chooser_groups_by_hex_face_rotation():
    g = Game().turn(BLACK)
    builds = legal_builds(M, g.rails, g.stock, g.bt, T)
    grouped = by_hex(builds)
    albany_door = hx("L8")
    assert (rotation_joining("L8", "21", ["L7", "L9"]), 3) in grouped[albany_door]["21"]
    assert all(any(h.distance(c) == 1 for c in M.cities) for h in grouped)
    for b in random.Random(1).sample(builds, 20):
        assert apply_build(M, g.rails, g.stock, g.bt, b, T).cost == b.cost


def test_messages_exist_in_both_languages():
    cats = [json.loads((ROOT / f"data/steam/messages.{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja")]
    src = (ROOT / "games/steam/building.py").read_text(encoding="utf-8")
    codes = {f"steam.error.build.{c}" for c in re.findall(r'_refuse\("(\w+)"', src)}
    codes |= {f"steam.ev.{c}" for c in re.findall(r'_ev\("(\w+)"', src)}
    assert codes and all(c in cat for cat in cats for c in codes)


@settings(max_examples=6, deadline=None)
@given(st.randoms(use_true_random=False))
def test_random_building_conserves_every_tile(rnd):
    g = Game()
    for turn in range(1, 4):
        for seat in range(3):
            g.turn(seat, turn=turn)
            options = legal_builds(M, g.rails, g.stock, g.bt, T)
            for b in rnd.sample(options, min(3, len(options))):
                try:
                    g.do(b)
                except IllegalAction:
                    pass
        g.rails, _ = lapse(M, g.rails, turn, T)
    on_board = Counter(t.pairing for _, t in g.rails.tiles)
    for i, p in enumerate(T.pairings):
        assert g.stock.counts[i] + on_board[i] == p.count
    assert sum(g.stock.counts) + len(g.rails.tiles) == 136
    owned = {r.id for r in g.rails.links}
    assert owned == set(runs_by_id(M, g.rails, T))


def test_upgrading_a_town_tile_gives_its_new_exits_to_the_builder():
    g = black_turn(Game())
    black = {l.id: l.owner for l in delivery_links(M, g.rails, T)}
    g.turn(ORANGE, turn=2)
    pough = hx("L9")
    old = T.faces["T21"].exits_at(g.rails.tile_at[pough].rotation)
    (rot,) = [k for k in T.faces["T42"].rotations
              if old <= T.faces["T42"].exits_at(k) and pough.side_towards(hx("K9")) in T.faces["T42"].exits_at(k)]
    done = g.do(Build(Kind.UPGRADE, pough, "T42", rot))
    assert done.cost == 5                                   # 4 exits + $1 for replacing a town tile
    assert {l.id: l.owner for l in delivery_links(M, g.rails, T)} == black
    stubs = [r for r in g.rails.links if r.id not in black]
    assert len(stubs) == 2 and all(r.owner == ORANGE and r.extended == 2 for r in stubs)
    assert lapse(M, g.rails, 3, T)[1] == stubs              # stubs lapse like any incomplete link


def test_bankruptcy_and_game_end_release_links():
    g = black_turn(Game())
    g.turn(BLACK, turn=1)
    g.build("K8", "22", ["L7", "K9"])
    end = unown_all(g.rails, BLACK, M, incomplete_only=True, tiles=T)
    assert sorted(r.owner is None for r in end.links) == [False, False, True]
    assert all(r.owner is None for r in unown_all(g.rails, BLACK, M, tiles=T).links)


def one_track(label, towards, town=False):
    """The one-track (or town) face and rotation on `label` whose exits face exactly `towards`."""
    h = hx(label)
    want = frozenset(h.side_towards(hx(x)) for x in towards)
    for f in T.playable():
        if f.town == town and (town or len(f.tracks) == 1):
            for k in f.rotations:
                if f.exits_at(k) == want:
                    return f.id, k
    raise AssertionError((label, towards))


def put(g, label, towards, town=False, kind=Kind.BUILD):
    face, rot = one_track(label, towards, town)
    return g.do(Build(kind, hx(label), face, rot))


def black_leaves_a_stub_at_poughkeepsie():
    """Black's Albany-Poughkeepsie link and, from Poughkeepsie's town tile, an incomplete link
    through M10 whose open end faces New Haven (M11); black stops building it, so it lapses."""
    g = Game().turn(BLACK, turn=1)
    put(g, "L8", ["L7", "L9"])
    put(g, "L9", ["L8", "M10"], town=True)
    put(g, "M10", ["L9", "M11"])
    g.rails, _ = lapse(M, g.rails, 1, T)
    g.rails, lost = lapse(M, g.rails, 2, T)
    (stub,) = lost
    assert g.rails.record[stub.id].owner is None
    return g, stub.id


def owner_and_places(g, lid):
    run = runs_by_id(M, g.rails, T)[lid]
    return g.rails.record[lid].owner, sorted(LAB(p) for p in run.places)


def test_a_town_tile_joining_own_track_takes_over_an_unowned_link_it_meets():
    """ST-4: New Haven's new town tile joins orange's link from Hartford, so black's lapsed link
    reaching New Haven is joined through that town to orange's link and becomes orange's."""
    g, stub = black_leaves_a_stub_at_poughkeepsie()
    g.turn(ORANGE, turn=3)
    put(g, "N10", ["N9", "M11"])                             # orange's link from Hartford
    face, rot = one_track("M11", ["N10", "M10"], town=True)
    assert Build(Kind.BUILD, hx("M11"), face, rot, 2 + 1) in legal_builds(M, g.rails, g.stock, g.bt, T)  # ST-2
    g.do(Build(Kind.BUILD, hx("M11"), face, rot))
    assert owner_and_places(g, stub) == (ORANGE, ["L9", "M11"])
    assert "steam.ev.link_taken" in [e.key for e in g.events]
    assert g.links()[frozenset({"N9", "M11"})] == ORANGE


def test_a_town_tile_entering_a_city_joins_the_link_it_meets_too():
    """The town tile's own exit into New York starts a link of orange's: the same joining."""
    g, stub = black_leaves_a_stub_at_poughkeepsie()
    g.turn(ORANGE, turn=3)
    put(g, "M11", ["L11", "M10"], town=True)
    assert owner_and_places(g, stub) == (ORANGE, ["L9", "M11"])


def test_a_town_upgraded_later_in_the_turn_takes_over_the_link_it_meets():
    """Orange's first placement puts a town tile on New Haven joined to its Hartford link; a
    later placement the same turn upgrades it with an exit towards black's lapsed link."""
    g, stub = black_leaves_a_stub_at_poughkeepsie()
    g.turn(ORANGE, turn=3)
    put(g, "N10", ["N9", "M11"])
    put(g, "M11", ["N10", "L10"], town=True)
    assert owner_and_places(g, stub) == (None, ["L9"])      # its end still faces a bare side
    face, rot = one_track("M11", ["N10", "L10", "M10"], town=True)
    assert Build(Kind.UPGRADE, hx("M11"), face, rot, 3 + 1) in legal_builds(M, g.rails, g.stock, g.bt, T)  # ST-2
    g.do(Build(Kind.UPGRADE, hx("M11"), face, rot))
    assert owner_and_places(g, stub) == (ORANGE, ["L9", "M11"])


def test_a_link_leaving_a_town_upgraded_this_turn_can_be_extended():
    """Orange upgrades Poughkeepsie's town tile so that one exit joins its New York link; black's
    lapsed link leaving that town may then be extended by orange in a later placement."""
    g = Game().turn(BLACK, turn=1)
    put(g, "L8", ["L7", "L9"])
    put(g, "L9", ["L8", "K10"], town=True)
    g.rails, _ = lapse(M, g.rails, 1, T)
    g.rails, (stub,) = lapse(M, g.rails, 2, T)
    g.turn(ORANGE, turn=3)
    with pytest.raises(IllegalAction, match="others_link"):
        put(g, "K10", ["L9", "J10"])                         # not joined to anything of orange's yet
    put(g, "L10", ["L11", "L9"])
    face, rot = one_track("L9", ["L8", "K10", "L10"], town=True)
    g.do(Build(Kind.UPGRADE, hx("L9"), face, rot))
    put(g, "K10", ["L9", "J10"])
    assert g.rails.record[stub.id].owner == ORANGE


def test_a_town_tile_joined_to_nothing_of_the_builders_cannot_take_a_link():
    """Orange has no track near New Haven: a town tile there meeting black's lapsed link (its
    other exit a bare stub) would extend a link joined to nobody of orange's."""
    g, stub = black_leaves_a_stub_at_poughkeepsie()
    g.turn(ORANGE, turn=3)
    put(g, "K8", ["L7", "K9"])                               # orange's track, far from New Haven
    with pytest.raises(IllegalAction) as err:
        put(g, "M11", ["L10", "M10"], town=True)
    assert err.value.code == "steam.build.others_link"
    # Listed town tiles meeting it all enter New York too: only that joins it to orange's track.
    nh = hx("M11")
    meets, city = nh.side_towards(hx("M10")), nh.side_towards(hx("L11"))
    listed = [T.faces[b.face].exits_at(b.rotation) for b in legal_builds(M, g.rails, g.stock, g.bt, T) if b.hex == nh]
    assert listed and [e for e in listed if meets in e] and all(city in e for e in listed if meets in e)
    assert g.rails.record[stub].owner is None


def random_board(seed, map_id, seats, turns):
    """Boards met while building at random (with the odd urbanized town), one per seat's turn,
    each with a builder and a count of placements made to ask the listing about."""
    from games.steam.map import steam_map
    rnd = random.Random(seed)
    m = steam_map(map_id)
    rails, stock = Rails(), T.full_stock()
    for turn in range(1, turns + 1):
        for seat in range(seats):
            bt = BuildTurn(seat, turn, rnd.choice([3, 4]))
            if rnd.random() < 0.25:                          # now and then a new city (ST-7)
                try:
                    done = apply_build(m, rails, stock, bt, Build(Kind.URBANIZE, rnd.choice(sorted(m.towns))), T)
                    rails, stock = done.rails, done.stock
                except IllegalAction:
                    pass
            while bt.placed < bt.limit:
                options = legal_builds(m, rails, stock, bt, T)
                if not options:
                    break
                done = apply_build(m, rails, stock, bt, rnd.choice(options), T)
                rails, stock, bt = done.rails, done.stock, done.turn
            yield m, rails, stock, BuildTurn((seat + 1) % seats, turn, rnd.choice([3, 4]), rnd.randint(0, 2))
        rails, _ = lapse(m, rails, turn, T)


@pytest.mark.parametrize("seed, map_id", [(1, "northeast"), (2, "rhine_ruhr")])
def test_the_fast_listing_is_what_trying_every_candidate_gives(seed, map_id):
    """`legal_builds` judges candidates from one view of the board; trying `apply_build` on
    every candidate (a full retrace each) must give the same builds, costs and order, on
    boards from empty to busy, for builders with and without placements made."""
    from games.steam.building import _legal_builds_by_trying
    checked = kinds = cities = 0
    for i, (m, rails, stock, bt) in enumerate(random_board(seed, map_id, seats=4, turns=5)):
        if i % 4 != 1:
            continue
        fast = legal_builds(m, Rails(rails.tiles, rails.new_cities, rails.links, rails.next_id), stock, bt, T)
        slow = _legal_builds_by_trying(m, Rails(rails.tiles, rails.new_cities, rails.links, rails.next_id),
                                       stock, bt, T)
        assert fast == slow
        checked += 1
        cities += bool(rails.new_cities)
        kinds |= sum(1 << list(Kind).index(b.kind) for b in {b.kind: b for b in fast}.values())
    assert checked == 5 and kinds == 0b111 and cities        # builds, upgrades, redirects, new cities


def _tried(m, rails, stock, bt):
    """Builds of every kind to put to the judge: on every empty hex near track or a city (every
    face, every rotation 0-5, distinct or not), upgrades and redirects of every placed tile with
    every face and rotation, and an urbanized town."""
    from games.steam.building import _candidate_hexes
    faces = [f.id for f in T.playable()]
    near = set(_candidate_hexes(m, rails, T))
    near |= {n for h, _ in rails.tiles for n in h.neighbors() if m.space(n) is not None}
    for h in sorted(near):
        for face in faces:
            for k in range(6):
                yield Build(Kind.BUILD, h, face, k)
    for h, _ in rails.tiles:
        for kind in (Kind.UPGRADE, Kind.REDIRECT):
            for face in faces:
                for k in range(6):
                    yield Build(kind, h, face, k)
    yield Build(Kind.URBANIZE, sorted(m.towns)[0])


@pytest.mark.parametrize("seed, map_id", [(3, "northeast"), (4, "rhine_ruhr")])
def test_the_quick_judge_of_one_build_is_what_applying_it_says(seed, map_id):
    """`build_cost_if_legal` (the bots' judge) answers with apply_build's cost where it accepts
    a build and None where it refuses it, for every kind of build on boards from empty to busy."""
    from games.steam.building import build_cost_if_legal
    checked = accepted = 0
    for i, (m, rails, stock, bt) in enumerate(random_board(seed, map_id, seats=4, turns=5)):
        if i % 8 != 3:
            continue
        fresh = Rails(rails.tiles, rails.new_cities, rails.links, rails.next_id)
        for build in _tried(m, fresh, stock, bt):
            try:
                want = apply_build(m, rails, stock, bt, build, T).cost
            except IllegalAction:
                want = None
            assert build_cost_if_legal(m, fresh, stock, bt, build, T) == want, build
            checked += 1
            accepted += want is not None
    assert checked > 10_000 and accepted > 100


def test_a_carried_over_segment_index_is_the_one_made_afresh():
    """Building carries the segment index of the rails over to the new rails (changed on the
    built hex only); it must be the index made from the new rails' tiles."""
    from games.steam.track import _segment_index, segment_index
    checked = 0
    for i, (m, rails, stock, bt) in enumerate(random_board(5, "northeast", seats=4, turns=4)):
        segment_index(rails, T)
        for build in legal_builds(m, rails, stock, bt, T)[::7]:
            after = rails.with_tile(build.hex, rails.tile_at.get(build.hex) if build.kind is Kind.UPGRADE else None, T)
            done = apply_build(m, rails, stock, bt, build, T)
            for new in (after, done.rails):
                assert segment_index(new, T) == _segment_index(Rails(new.tiles, new.new_cities, new.links, new.next_id), T)
                checked += 1
    assert checked > 100
