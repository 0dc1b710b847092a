"""Steam's data against the rulebook and the rulings: tiles (ST-T1 … ST-T3), components (ST-M4,
the contents list), both maps (ST-M1 … ST-M3) and the map-only legality helper (ST-2, ST-3)."""
from __future__ import annotations

import json
import random
from collections import Counter, deque
from pathlib import Path

import pytest

from games.core.errors import DataError
from games.core.hexgrid import distance
from games.steam.components import components, load_components, COMPONENTS_PATH
from games.steam.legality import buildable, city_links, city_sides, open_sides, placements, upgrades_on
from games.steam.map import MAPS_DIR, PRINTED_COLOURS, Colour, Terrain, load_map, steam_map
from games.steam.tiles import TILES_PATH, load_tiles, tileset

MAPS = ("northeast", "rhine_ruhr")

# The rulebook's tile list (last page), face by face, as printed.
RULEBOOK_FACE_COUNTS = {
    "T11": 4, "T21": 10, "T22": 10, "T23": 8, "T31": 4, "T32": 4, "T33": 4, "T34": 4,
    "T41": 4, "T42": 4, "T43": 4, "21": 86, "22": 86, "23": 8,
    "41": 4, "42": 4, "43": 4, "44": 4, "45": 4, "46": 4, "47": 4,
}
# ST-T1's pairings, with the T32/T33 correction of the printed "T23/T33".
RULING_PAIRINGS = [
    (("21", "22"), 86), (("T21", "T22"), 10), (("23", "T23"), 8), (("T11", "blank"), 4),
    (("42", "T41"), 4), (("T31", "T34"), 4), (("T42", "41"), 4), (("43", "T43"), 4),
    (("44", "45"), 2), (("44", "47"), 2), (("47", "46"), 2), (("45", "46"), 2), (("T32", "T33"), 4),
]


# --- tiles -------------------------------------------------------------------------------

def test_136_tiles_paired_as_ruled():
    t = tileset()
    assert t.total_tiles == 136
    assert [(p.faces, p.count) for p in t.pairings] == RULING_PAIRINGS


def test_face_counts_match_the_rulebook_list():
    t = tileset()
    assert {f.id: t.face_count(f.id) for f in t.playable()} == RULEBOOK_FACE_COUNTS


def test_t32_t33_correction():
    """The printed "T23/T33" pairing would give town 23 twelve copies and town 32 none."""
    t = tileset()
    assert t.face_count("T23") == 8 and t.face_count("T32") == 4 and t.face_count("T33") == 4
    assert all(set(p.faces) != {"T23", "T33"} for p in t.pairings)


def _crosses(a: frozenset[int], b: frozenset[int]) -> bool:
    """Two chords of the hexagon cross iff exactly one end of b lies strictly between a's ends."""
    lo, hi = sorted(a)
    return sum(lo < s < hi for s in b) == 1


def test_geometry_of_plain_faces():
    t = tileset()
    kinds = {len(f.tracks) for f in t.playable() if not f.town}
    assert kinds == {1, 2}
    # One-track faces: the side distance names the curve (ST-T3).
    gaps = {fid: min((b - a) % 6, (a - b) % 6) for fid in ("21", "22", "23")
            for a, b in [sorted(next(iter(t.faces[fid].tracks)))]}
    assert gaps == {"21": 3, "22": 2, "23": 1}
    crossing = {f.id for f in t.playable() if not f.town and len(f.tracks) == 2
                and _crosses(*f.tracks)}
    assert crossing == {"41", "42", "43"}
    assert all(len(t.faces[f].exits) == 4 for f in ("41", "42", "43", "44", "45", "46", "47"))


def test_mirror_pairs_are_mirror_images_and_not_rotations():
    t = tileset()
    for a, b in (("46", "47"), ("T32", "T33")):
        fa, fb = t.faces[a], t.faces[b]
        mirrored_a = frozenset(frozenset(s if s < 0 else (-s) % 6 for s in tr) for tr in fa.tracks)
        assert any(fb.rotated(k) == mirrored_a for k in range(6)), (a, b)
        assert all(fb.rotated(k) != fa.tracks for k in range(6)), (a, b)


def test_town_faces_exits():
    t = tileset()
    exits = {f.id: len(f.exits) for f in t.playable() if f.town}
    assert exits == {"T11": 1, "T21": 2, "T22": 2, "T23": 2, "T31": 3, "T32": 3, "T33": 3,
                     "T34": 3, "T41": 4, "T42": 4, "T43": 4}


def test_rotations():
    t = tileset()
    straight = t.faces["21"]
    assert straight.exits_at(1) == {1, 4}
    assert straight.rotated(3) == straight.rotated(0)
    assert len(straight.rotations) == 3
    assert len(t.faces["T31"].rotations) == 2       # the star repeats every 120°
    assert len(t.faces["22"].rotations) == 6
    assert len(t.faces["45"].rotations) == 3        # two curves opposite each other
    for f in t.playable():
        shapes = {f.rotated(k) for k in range(6)}
        assert len(shapes) == len(f.rotations)


def test_upgrades_keep_the_old_track():
    t = tileset()
    with_straight = {f.id for f in t.playable() if not f.town
                     and any(min((b - a) % 6, (a - b) % 6) == 3 for a, b in map(sorted, f.tracks))}
    assert set(t.upgrades("21")) == with_straight - {"21"} == {"41", "42", "44"}
    assert set(t.upgrades("22")) == {"42", "43", "45", "46", "47"}
    assert set(t.upgrades("23")) == {"44", "46", "47"}
    assert set(t.upgrades("T11")) == {f.id for f in t.playable() if f.town} - {"T11"}
    assert set(t.upgrades("T21")) == {"T32", "T33", "T41", "T42", "T43"}
    assert t.upgrades("41") == {} and t.upgrades("T43") == {}
    for old in ("21", "22", "23", "T11", "T22"):
        for k_old in range(6):
            for new, rots in t.upgrades(old, k_old).items():
                for k in rots:
                    assert t.faces[old].rotated(k_old) < t.faces[new].rotated(k)
    assert not t.keeps("T21", 0, "21", 0)           # town and plain track never replace each other


def test_stock_takes_and_returns_per_st_t2():
    t = tileset()
    full = t.full_stock()
    assert full.available("21") == 86 and full.available("blank") == 4
    s, used = full.take("21")
    assert t.pairings[used].faces == ("21", "22")
    assert s.available("22") == 85 and full.available("22") == 86   # immutable
    # 47 sits on (44/47) and (47/46); the backs have 4 copies each, a tie -> the first pairing.
    s, first = full.take("47")
    assert t.pairings[first].faces == ("44", "47")
    # Now 47 is left 3 times and 45 still 4: a 44 comes from the tile whose back is a 45.
    s, second = s.take("44")
    assert t.pairings[second].faces == ("44", "45")
    assert s.available("44") == 2 and s.available("45") == 3 and s.available("47") == 3
    assert s.give_back(second).give_back(first) == full
    with pytest.raises(ValueError):
        full.give_back(0)


def test_stock_runs_out_and_conserves_tiles():
    t = tileset()
    s = t.full_stock()
    for _ in range(4):
        s, _ = s.take("T11")
    with pytest.raises(ValueError):
        s.take("T11")
    rng = random.Random(11)
    s, placed = t.full_stock(), []
    faces = [f.id for f in t.playable()]
    for _ in range(400):
        if placed and rng.random() < 0.3:
            s = s.give_back(placed.pop(rng.randrange(len(placed))))
        else:
            fid = rng.choice(faces)
            if s.available(fid):
                s, i = s.take(fid)
                placed.append(i)
        assert sum(s.counts) + len(placed) == 136
        assert all(0 <= c <= p.count for c, p in zip(s.counts, t.pairings))


# --- components ---------------------------------------------------------------------------

def test_components_match_the_rulebook():
    c = components()
    assert c.total_cubes == 96
    assert c.cubes == {Colour.RED: 20, Colour.BLUE: 20, Colour.YELLOW: 20, Colour.PURPLE: 20, Colour.GRAY: 16}
    assert c.supply_spaces == 12
    assert (c.supply_cubes(3), c.supply_cubes(4), c.supply_cubes(5)) == (2, 3, 3)
    assert sum(c.new_city_tiles.values()) == 8 and c.new_city_tiles[Colour.GRAY] == 4
    assert all(c.new_city_tiles[col] == 1 for col in PRINTED_COLOURS)
    assert c.growth_markers == 10
    assert [a.number for a in c.action_tiles] == [1, 2, 3, 4, 5, 6, 7]
    assert (c.action("city_growth").cost, c.action("urbanize").cost) == (2, 6)
    assert c.action("locomotive").cost == 4 and c.action("locomotive").cost_plus_new_level
    assert {c.game_turns[n] for n in (5, 6)} == {7} and (c.game_turns[3], c.game_turns[4]) == (10, 8)
    assert c.placements_per_turn == {"default": 3, "engineer": 4}
    assert c.player_colours * c.player_tokens_per_colour == 144


# --- maps -------------------------------------------------------------------------------

@pytest.mark.parametrize("mid", MAPS)
def test_colours_balanced(mid):
    """Balanced: each printed colour has 3-4 cities (ST-M3), the four colours' city counts differ
    by at most 1 and their starting cube totals by at most 1."""
    m = steam_map(mid)
    cities = Counter(s.city for s in m.cities.values())
    cubes = Counter()
    for h, s in m.cities.items():
        cubes[s.city] += m.places[h].cubes
    assert set(cities) == set(PRINTED_COLOURS)
    assert all(3 <= cities[c] <= 4 for c in PRINTED_COLOURS), cities
    assert max(cities.values()) - min(cities.values()) <= 1, cities
    assert max(cubes.values()) - min(cubes.values()) <= 1, cubes


@pytest.mark.parametrize("mid", MAPS)
def test_demand_fits_the_bag(mid):
    m, c = steam_map(mid), components()
    for players in range(m.players[0], m.players[1] + 1):
        demand = sum(m.starting_cubes(h, players) for h in m.cities) + c.supply_spaces * c.supply_cubes(players)
        assert demand <= c.total_cubes, (players, demand)
    assert all(2 <= m.places[h].cubes <= 3 for h in m.cities)


@pytest.mark.parametrize("mid", MAPS)
def test_cities_two_to_four_apart(mid):
    m = steam_map(mid)
    for h in m.cities:
        nearest = min(distance(h, o) for o in m.cities if o != h)
        assert 2 <= nearest <= 4, (m.name(h), nearest)


@pytest.mark.parametrize("mid", MAPS)
def test_every_city_reachable_by_legal_track(mid):
    m = steam_map(mid)
    for h in m.cities:
        assert city_links(m, h), m.name(h)


@pytest.mark.parametrize("mid", MAPS)
def test_no_placement_into_water_off_map_or_across_black_edges(mid):
    m, t = steam_map(mid), tileset()
    total = 0
    for h, s in m.spaces.items():
        found = placements(m, h, t)
        total += len(found)
        if not buildable(s):
            assert found == []
        for p in found:
            assert t.faces[p.face].town == s.town
            for side in p.exits:
                n = m.space(h.neighbor(side))
                assert n is not None and n.terrain is not Terrain.WATER
                assert h.edge(side) not in m.black_edges
    assert total > 1000
    assert m.black_edges
    for e in m.black_edges:   # and each black edge really stops something
        a, b = e.hexes()
        assert e.side_of(a) not in open_sides(m, a) and e.side_of(b) not in open_sides(m, b)


def test_placements_respect_the_stock():
    m, t = steam_map("northeast"), tileset()
    h = m.place_named("Poughkeepsie").hex
    s = t.full_stock()
    for _ in range(4):
        s, _ = s.take("T11")
    assert any(p.face == "T11" for p in placements(m, h, t))
    assert not any(p.face == "T11" for p in placements(m, h, t, s))


def test_st_m3_places_on_the_northeast_map():
    m = steam_map("northeast")
    for name in ("Albany", "New York", "Boston", "Hartford", "Providence", "Philadelphia"):
        assert m.space(m.place_named(name).hex).city is not None, name
    for name in ("Poughkeepsie", "New Haven", "Amsterdam"):
        assert m.space(m.place_named(name).hex).town, name
    water = {f.name["en"]: f for f in m.water}
    assert water["Lake Ontario"].hexes and water["New England coast"].hexes
    assert m.place_named("Boston").name["ja"] == "ボストン"


def test_st_m3_canal_between_maastricht_and_venlo():
    """A chain of river hexes (the canal counts as a river) runs from Maastricht to Venlo."""
    m = steam_map("rhine_ruhr")
    start, goal = m.place_named("Maastricht").hex, m.place_named("Venlo").hex
    assert m.space(start).city and m.space(goal).city
    queue = deque(n for n in start.neighbors() if m.space(n) and m.space(n).river)
    seen = set(queue)
    reached = False
    while queue:
        h = queue.popleft()
        if goal in h.neighbors():
            reached = True
            break
        for n in h.neighbors():
            if n not in seen and m.space(n) and m.space(n).river:
                seen.add(n)
                queue.append(n)
    assert reached
    assert m.starting_cubes(start, 3) == m.places[start].cubes - 1
    assert steam_map("northeast").starting_cubes(steam_map("northeast").place_named("Albany").hex, 3) == 3


def _cost_of(m, label, face, towards):
    """The rulebook example's placement: `face` on hex `label` with exits towards the labelled hexes."""
    h = m.hex_at(label)
    want = {h.side_towards(m.hex_at(x)) for x in towards}
    costs = {p.cost for p in placements(m, h, tileset()) if p.face == face and want <= p.exits}
    assert len(costs) == 1, (label, face, costs)
    return costs.pop()


def test_rulebook_building_examples_cost_the_rulebook_numbers():
    """Figures 1-3 and the upgrade example: Albany L7, Poughkeepsie L9, New York L11, Hartford N9."""
    m = steam_map("northeast")
    assert m.name(m.hex_at("L7")) == "Albany" and m.name(m.hex_at("L11")) == "New York"
    # Black: A, B (Poughkeepsie), C — 3 + 4 + 3 = $10.
    black = [_cost_of(m, "L8", "21", ["L7", "L9"]), _cost_of(m, "L9", "T21", ["L8", "L10"]),
             _cost_of(m, "L10", "21", ["L9", "L11"])]
    assert black == [3, 4, 3] and sum(black) == 10
    # Orange (Engineer): D gentle curve on a hill, E, F straights, G gentle curve — $10.
    orange = [_cost_of(m, "K8", "22", ["L7", "K9"]), _cost_of(m, "K9", "21", ["K8", "K10"]),
              _cost_of(m, "K10", "21", ["K9", "K11"]), _cost_of(m, "K11", "22", ["K10", "L11"])]
    assert orange == [4, 2, 2, 2]
    # Green: H straight, I gentle curve on a hill into Hartford, J gentle curve to New Haven.
    green = [_cost_of(m, "M8", "21", ["L7", "N8"]), _cost_of(m, "N8", "22", ["M8", "N9"]),
             _cost_of(m, "N10", "22", ["N9", "M11"])]
    assert green == [2, 4, 2]
    assert m.name(m.hex_at("N9")) == "Hartford" and m.name(m.hex_at("M11")) == "New Haven"
    # A complex tile south-east of Hartford, on a river: 4 exits + $1 = $5.
    assert _cost_of(m, "O10", "44", ["N9"]) == 5


# --- broken files -----------------------------------------------------------------------

def _write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return p


def _northeast_raw() -> dict:
    return json.loads((MAPS_DIR / "northeast.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("breakage, words", [
    (lambda d: d["rows"].__setitem__(2, d["rows"][2] + " .."), "row 3 has 19 hexes"),
    (lambda d: d["rows"].__setitem__(0, d["rows"][0].replace("Cb", "Cg")), "colour"),
    (lambda d: d["rows"].__setitem__(1, "?? " + d["rows"][1][3:]), "A2"),
    (lambda d: d["places"].append({"at": "A3", "name": {"en": "Nowhere", "ja": "どこでもない"}}), "Nowhere at A3"),
    (lambda d: d["places"].pop(0), "has no name"),
    (lambda d: d["places"][0].pop("cubes"), "starting cubes"),
    (lambda d: d["water"][0]["at"].append("L8"), "L8 is not water"),
    (lambda d: d["black_edges"][0]["edges"].append("A3|C3"), "not a neighbour"),
    (lambda d: d["black_edges"][0]["edges"].append("B5|C6"), "two land hexes"),
    (lambda d: d.pop("rows"), "rows"),
])
def test_broken_map_gives_data_error(tmp_path, breakage, words):
    data = _northeast_raw()
    breakage(data)
    path = _write(tmp_path, "broken.json", data)
    with pytest.raises(DataError) as err:
        load_map(path)
    assert words in str(err.value) and str(path) in str(err.value)


def test_unbroken_copy_loads(tmp_path):
    m = load_map(_write(tmp_path, "copy.json", _northeast_raw()))
    assert len(m.cities) == 16


def test_reachability_search_can_fail(tmp_path):
    """A city walled off by black edges is reported unreachable."""
    data = _northeast_raw()
    m = steam_map("northeast")
    toronto = m.place_named("Toronto").hex
    data["black_edges"].append({"name": {"en": "wall", "ja": "壁"}, "edges": [
        f"{m.label(toronto)}|{m.label(n)}" for n in toronto.neighbors()
        if m.space(n) and m.space(n).land]})
    walled = load_map(_write(tmp_path, "walled.json", data))
    assert city_links(walled, toronto) == set()
    assert toronto not in set().union(*(city_links(walled, h) for h in walled.cities if h != toronto))


@pytest.mark.parametrize("breakage, words", [
    (lambda d: d["tiles"][0]["faces"].__setitem__(1, "99"), "unknown face '99'"),
    (lambda d: d["faces"][1].__setitem__("tracks", [[1, 4]]), "same track turned"),
    (lambda d: d["faces"][0].__setitem__("tracks", [[0, 6]]), "sides run 0-5"),
    (lambda d: d["faces"][10].__setitem__("name", {"en": "town"}), "Japanese"),
])
def test_broken_tile_file_gives_data_error(tmp_path, breakage, words):
    data = json.loads(TILES_PATH.read_text(encoding="utf-8"))
    breakage(data)
    path = _write(tmp_path, "tiles.json", data)
    with pytest.raises(DataError) as err:
        load_tiles(path)
    assert words in str(err.value)


def test_broken_components_and_unreadable_files(tmp_path):
    data = json.loads(COMPONENTS_PATH.read_text(encoding="utf-8"))
    del data["cubes"]["gray"]
    with pytest.raises(DataError, match="gray"):
        load_components(_write(tmp_path, "c.json", data))
    with pytest.raises(DataError, match="broken"):
        load_tiles(_write(tmp_path, "t.json", "{not json"))
    with pytest.raises(DataError, match="broken"):
        load_map(tmp_path / "missing.json")


def test_upgrades_on_the_map_cost_per_st_2():
    m, t = steam_map("northeast"), tileset()
    # The rulebook's upgrade south-west of Boston: a curve replaced by a curve crossed by a
    # straight costs $4 whatever the terrain.
    sw_of_boston = m.place_named("Boston").hex.neighbor(2)
    found = upgrades_on(m, sw_of_boston, t, "22", 0)
    assert {p.face for p in found} == {"42", "43", "45", "46", "47"}
    assert {p.cost for p in found if p.face == "42"} == {4}
    for p in found:   # the old curve is still there, and nothing points off the map
        assert t.faces["22"].rotated(0) <= t.faces[p.face].rotated(p.rotation)
        assert p.exits <= open_sides(m, sw_of_boston)
    # Replacing a town tile costs $1 more: a straight town (2 exits) to an X town (4 exits) = $5.
    pough = m.place_named("Poughkeepsie").hex
    assert {p.cost for p in upgrades_on(m, pough, t, "T21", 1) if p.face == "T42"} == {5}
    # On Lake Champlain's shore no upgrade may point across the black edge.
    shore = m.place_named("Plattsburgh").hex
    assert upgrades_on(m, shore, t, "T11", 3)
    assert any(shore in e.hexes() for e in m.black_edges)
    assert all(not (p.exits & {e.side_of(shore) for e in m.black_edges if shore in e.hexes()})
               for p in upgrades_on(m, shore, t, "T11", 3))
    s = t.full_stock()
    for _ in range(4):
        s, _ = s.take("42")
    assert "42" not in {p.face for p in upgrades_on(m, sw_of_boston, t, "22", 0, s)}


def test_new_links_start_beside_cities_only():
    m = steam_map("northeast")
    albany = m.place_named("Albany").hex
    for side in range(6):
        n = albany.neighbor(side)
        assert (side + 3) % 6 in city_sides(m, n)
    amsterdam = m.place_named("Amsterdam").hex   # a town is no start, but Albany is next door
    assert city_sides(m, amsterdam) == {amsterdam.side_towards(albany)}
    assert city_sides(m, m.hex_at("A10")) == frozenset()
