"""Catan Express's maps against the rulings (CE-M1 … CE-M3, CE-11) and the rail graph (CE-1):
counts per map, beginner and seeded random layouts, harbours, points, spokes, ferries, names."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.catan_express.map import (
    GENERIC, MAP_IDS, MAPS_DIR, RED_NUMBERS, Terrain, beginner, catan_map, load_map, maps_for,
    random_layout,
)
from games.catan_express.rail import Spoke, rail_graph
from games.core.errors import DataError, IllegalAction
from games.core.hexgrid import Corner, Edge, Hex
from games.core.i18n import translate

# CE-M1 (3–4 players) and CE-M2 (5–6 players); the islands maps use the same pieces (CE-M3).
SMALL_TERRAIN = {Terrain.FOREST: 4, Terrain.PASTURE: 4, Terrain.FIELDS: 4, Terrain.HILLS: 2,
                 Terrain.MOUNTAINS: 3, Terrain.GOLD_RIVER: 1, Terrain.DESERT: 1}
LARGE_TERRAIN = {Terrain.FOREST: 6, Terrain.PASTURE: 6, Terrain.FIELDS: 6, Terrain.HILLS: 4,
                 Terrain.MOUNTAINS: 5, Terrain.GOLD_RIVER: 1, Terrain.DESERT: 2}
SMALL_TOKENS = {2: 1, 12: 1, **{n: 2 for n in (3, 4, 5, 6, 8, 9, 10, 11)}}
LARGE_TOKENS = {2: 2, 12: 2, **{n: 3 for n in (3, 4, 5, 6, 8, 9, 10, 11)}}
SMALL_HARBOURS = {GENERIC: 4, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1}
LARGE_HARBOURS = {GENERIC: 5, "lumber": 1, "brick": 1, "wool": 2, "grain": 1, "ore": 1}
EXPECTED = {
    "standard": (SMALL_TERRAIN, SMALL_TOKENS, SMALL_HARBOURS, (3, 4)),
    "islands": (SMALL_TERRAIN, SMALL_TOKENS, SMALL_HARBOURS, (3, 4)),
    "large": (LARGE_TERRAIN, LARGE_TOKENS, LARGE_HARBOURS, (5, 6)),
    "islands_large": (LARGE_TERRAIN, LARGE_TOKENS, LARGE_HARBOURS, (5, 6)),
}


def _counts(board):
    return (Counter(x.terrain for x in board.land), Counter(x.token for x in board.land if x.token),
            Counter(h.kind for h in board.harbours))


def _reds_apart(board) -> bool:
    reds = {x.hex for x in board.land if x.token in RED_NUMBERS}
    return all(n not in reds for h in reds for n in h.neighbors())


def _islands(land) -> list[set[Hex]]:
    left, out = set(land), []
    while left:
        start = left.pop()
        comp, todo = {start}, [start]
        while todo:
            for n in todo.pop().neighbors():
                if n in left:
                    left.remove(n)
                    comp.add(n)
                    todo.append(n)
        out.append(comp)
    return out


# --- counts ----------------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAP_IDS)
def test_beginner_layout_uses_exactly_the_rulings_pieces(map_id):
    terrain, tokens, harbours, players = EXPECTED[map_id]
    b = beginner(map_id)
    assert _counts(b) == (Counter(terrain), Counter(tokens), Counter(harbours))
    assert catan_map(map_id).players == players
    # 18 / 28 tokens, one on every producing hex, none on a desert.
    assert sum(tokens.values()) == sum(n for t, n in terrain.items() if t is not Terrain.DESERT)
    assert all((x.token is None) == (x.terrain is Terrain.DESERT) for x in b.land)


def test_piece_totals_match_the_rulebook():
    """The rulebook counts 28 hex pieces (19 land + 9 harbours) and 41 (30 + 11) for 5–6."""
    for map_id, total in (("standard", 28), ("large", 41)):
        b = beginner(map_id)
        assert len(b.land) + len(b.harbours) == total


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("map_id", MAP_IDS)
def test_random_layouts_deal_the_same_pieces(map_id, seed):
    assert _counts(random_layout(map_id, seed)) == _counts(beginner(map_id))


def test_maps_by_player_count():
    assert maps_for(3) == maps_for(4) == ("standard", "islands")
    assert maps_for(5) == maps_for(6) == ("large", "islands_large")


# --- layouts ---------------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAP_IDS)
def test_beginner_layout_keeps_6_and_8_apart_and_the_deserts_inland(map_id):
    b = beginner(map_id)
    assert _reds_apart(b)
    for d in b.deserts:
        assert all(b.is_land(n) for n in d.neighbors()), "a desert on the coast wastes harbour land"


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_random_layouts_never_put_6_and_8_side_by_side(map_id):
    for seed in range(1500):
        assert _reds_apart(random_layout(map_id, seed)), seed


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_random_layout_is_seeded(seed):
    a, b = random_layout("standard", seed), random_layout("standard", seed)
    assert a == b and hash(a) == hash(b)
    assert a != random_layout("standard", seed + 1)  # 19! layouts: equal ones would be a bug
    assert a.land_hexes == beginner("standard").land_hexes and a.sea == beginner("standard").sea


def test_random_layouts_vary_everything():
    boards = [random_layout("large", s) for s in range(200)]
    for pick in (lambda b: b.land, lambda b: tuple(h.kind for h in b.harbours),
                 lambda b: b.deserts):
        assert len({pick(b) for b in boards}) > 100
    # The harbours stay where the frame has them; only their kinds move.
    assert {tuple(h.edge for h in b.harbours) for b in boards} == {tuple(h.edge for h in beginner("large").harbours)}


# --- harbours and the frame ------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAP_IDS)
def test_harbours_sit_on_coast_edges_apart(map_id):
    b = beginner(map_id)
    g = rail_graph(b)
    coast = set(g.coast_edges)
    served: list[Corner] = []
    for hb in b.harbours:
        assert hb.edge in coast and set(hb.edge.hexes()) == {hb.sea, hb.land}
        assert b.is_land(hb.land) and hb.sea in b.sea
        assert all(g.is_intersection(c) for c in hb.corners)
        served.extend(hb.corners)
        assert all(b.harbour_at(c) == hb for c in hb.corners)
    assert len(served) == len(set(served)), "two harbours share an intersection"


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_sea_surrounds_the_land(map_id):
    b = beginner(map_id)
    assert not b.land_hexes & b.sea
    assert all(n in b.land_hexes or n in b.sea for h in b.land_hexes for n in h.neighbors())


def test_islands_maps_are_islands_joined_by_straits():
    # CE-1b: the straits, ferries' only way across the one-hex channels, join the islands.
    for map_id, sizes in (("islands", [5, 7, 7]), ("islands_large", [7, 7, 8, 8])):
        b = beginner(map_id)
        parts = _islands(b.land_hexes)
        assert sorted(len(p) for p in parts) == sizes
        g = rail_graph(b)
        assert b.ferries_cross_straits and g.straits
        # Coast ferries and straits together join every island to every other.
        which = {h: i for i, p in enumerate(parts) for h in p}
        links = {frozenset(which[g.land_hexes_of(c)[0]] for c in e.corners()) for e in g.straits}
        reached, todo = {0}, [0]
        while todo:
            i = todo.pop()
            for link in links:
                if i in link:
                    for j in link - reached:
                        reached.add(j)
                        todo.append(j)
        assert reached == set(range(len(parts)))


# --- the rail graph --------------------------------------------------------------------------

# (intersections, centres, spokes, coast edges, straits) per shape, counted from the hexes:
# the 19-hex hexagon is the classic 54 / 30; the others follow from their shapes.
GRAPH_COUNTS = {
    "standard": (54, 19, 114, 30, 0),
    "large": (80, 30, 180, 38, 0),
    "islands": (68, 19, 114, 54, 6),
    "islands_large": (102, 30, 180, 76, 10),
}


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_rail_graph_counts(map_id):
    g = rail_graph(beginner(map_id))
    counts = (len(g.intersections), len(g.centres), len(g.spokes), len(g.coast_edges), len(g.straits))
    assert counts == GRAPH_COUNTS[map_id]
    assert len(set(g.intersections)) == len(g.intersections) and len(set(g.spokes)) == len(g.spokes)
    # Euler: each land hex has 6 corners and each intersection touches 1-3 land hexes.
    assert sum(len(g.land_hexes_of(c)) for c in g.intersections) == 6 * len(g.centres)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_spokes_join_an_intersection_to_its_own_hexes_centre(map_id):
    b = beginner(map_id)
    g = rail_graph(b)
    for s in g.spokes:
        assert b.is_land(s.hex) and s.corner in s.hex.corners()
        assert g.is_intersection(s.corner) and s.hex in g.land_hexes_of(s.corner)
    for c in g.intersections:
        assert {s.hex for s in g.spokes_at(c)} == set(g.land_hexes_of(c))
    assert all(len(g.spokes_at(h)) == 6 for h in g.centres)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_coast_edges_have_land_on_one_side_and_sea_on_the_other(map_id):
    b = beginner(map_id)
    g = rail_graph(b)
    for e in g.coast_edges:
        a, c = e.hexes()
        assert b.is_land(a) != b.is_land(c) and (a in b.sea or c in b.sea)
        assert all(g.is_intersection(x) for x in e.corners())
    for e in g.straits:  # CE-1b: between two sea hexes, both ends touching land
        assert all(h in b.sea for h in e.hexes()) and all(g.is_intersection(x) for x in e.corners())
    # Every land-sea edge is one: count them from the hexes.
    assert len(g.coast_edges) == sum(n in b.sea for h in b.land_hexes for n in h.neighbors())
    assert set(g.ferry_edges) == set(g.coast_edges) | (set(g.straits) if b.ferries_cross_straits else set())


@pytest.mark.parametrize("map_id", ["islands", "islands_large"])
def test_a_sea_edge_with_an_end_in_open_sea_carries_no_ferry(map_id):
    # CE-1b: of the edges between two sea hexes, a ferry runs along exactly those whose two ends
    # touch land (the straits); one with an end in open sea is never a ferry's (nor can it be
    # named: only intersections have numbers).
    b = beginner(map_id)
    g = rail_graph(b)
    sea_edges = {h.edge(d) for h in b.sea for d in range(6) if h.neighbor(d) in b.sea}
    open_sea = {e for e in sea_edges if not all(g.is_intersection(c) for c in e.corners())}
    touching = sea_edges - open_sea
    assert open_sea and touching, "the map has both kinds of sea edge to tell apart"
    assert touching == set(g.straits) and touching <= set(g.ferry_edges)
    assert not open_sea & set(g.ferry_edges)
    assert all(not g.is_ferry_edge(e) for e in open_sea)


def test_ferries_follow_the_coast_only_on_the_plain_maps():
    for map_id in ("standard", "large"):
        g = rail_graph(beginner(map_id))
        assert not g.straits and g.ferry_edges == g.coast_edges


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_distance_neighbours_are_one_edge_apart(map_id):
    g = rail_graph(beginner(map_id))
    for c in g.intersections:
        ns = g.neighbours(c)
        assert 2 <= len(ns) <= 3 and c not in ns
        assert all(c in g.neighbours(n) for n in ns)
        assert all(any(set(e.corners()) == {c, n} for e in c.edges()) for n in ns)


def test_standard_interior_intersections():
    """On the hexagon, 24 intersections touch three land hexes; of the 30 on the coast, 12 touch two
    and 18 only one (18·1 + 12·2 + 24·3 = 114 spokes)."""
    g = rail_graph(beginner("standard"))
    assert Counter(len(g.land_hexes_of(c)) for c in g.intersections) == {3: 24, 2: 12, 1: 18}


def test_graph_is_shared_between_layouts_of_one_shape():
    assert rail_graph(random_layout("standard", 1)) is rail_graph(beginner("standard"))
    assert rail_graph(beginner("islands")) is not rail_graph(beginner("standard"))


# --- names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", MAP_IDS)
def test_names_round_trip(map_id):
    g = rail_graph(beginner(map_id))
    assert [g.name(c) for c in g.intersections] == [str(i) for i in range(1, len(g.intersections) + 1)]
    for p in (*g.intersections, *g.centres):
        assert g.parse_point(g.name(p)) == p
    for piece in (*g.spokes, *g.ferry_edges):
        name = g.piece_name(piece)
        assert g.parse_piece(name) == piece
        a, b = name.split("-")
        assert g.parse_piece(f" {b} - {a} ") == piece  # either order, spaces allowed


def test_intersections_are_numbered_top_to_bottom_left_to_right():
    b = beginner("standard")
    g = rail_graph(b)
    top = b.hex_at("C2")  # the top row's first land hex
    assert g.name(top.corner(5)) == "1"  # its north corner is the board's first point
    assert g.name(b.hex_at("D2").corner(5)) == "2"
    assert g.name(top.corner(4)) == "4"  # then the next row of points, from the left


def test_hex_corner_names_read_as_intersections():
    g = rail_graph(beginner("standard"))
    b = beginner("standard")
    for h in g.centres:
        lab = b.label(h)
        for i, compass in enumerate(("ne", "se", "s", "sw", "nw", "n")):
            assert g.parse_point(f"{lab}{compass}") == h.corner(i)
            assert g.parse_point(f"{lab.lower()}{compass.upper()}") == h.corner(i)


@pytest.mark.parametrize("text", ["0", "55", "A1", "Z9", "C3x", "", "12-", "hello"])
def test_unknown_points_are_refused(text):
    g = rail_graph(beginner("standard"))
    with pytest.raises(IllegalAction) as exc:
        g.parse_point(text)
    assert exc.value.code == "catan_express.unknown_point"


def test_unknown_pieces_are_refused():
    b = beginner("standard")
    g = rail_graph(b)
    inland = next(c for c in g.intersections if len(g.land_hexes_of(c)) == 3)
    other = next(n for n in g.neighbours(inland))
    far_hex = next(h for h in g.centres if h not in g.land_hexes_of(inland))
    for text in (f"{g.name(inland)}-{g.name(other)}",  # a hex edge inland: no rail, no ferry
                 f"{g.name(inland)}-{b.label(far_hex)}",  # a hex the intersection is not on
                 "C3-D3", "1-1", "12"):
        with pytest.raises(IllegalAction) as exc:
            g.parse_piece(text)
        assert exc.value.code in ("catan_express.unknown_piece", "catan_express.unknown_point")


def test_error_codes_have_messages_in_both_languages():
    g = rail_graph(beginner("standard"))
    for bad in (g.parse_point, g.parse_piece):
        with pytest.raises(IllegalAction) as exc:
            bad("nowhere")
        for lang in ("en", "ja"):
            text = translate(lang, exc.value.message_key, exc.value.params)
            assert "nowhere" in text and exc.value.message_key not in text


def test_spoke_and_edge_are_distinct_pieces():
    g = rail_graph(beginner("standard"))
    assert all(isinstance(p, Spoke) for p in g.spokes) and all(isinstance(e, Edge) for e in g.ferry_edges)
    assert len(g.pieces_at(g.intersections[0])) == len(g.spokes_at(g.intersections[0])) + len(g.ferries_at(g.intersections[0]))


# --- broken files ----------------------------------------------------------------------------

def _broken(tmp_path: Path, change) -> Path:
    doc = json.loads((MAPS_DIR / "standard.json").read_text(encoding="utf-8"))
    change(doc)
    path = tmp_path / "standard.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _swap_first(doc, old, new):
    doc["rows"] = [r.replace(old, new, 1) if i == next(j for j, x in enumerate(doc["rows"]) if old in x) else r
                   for i, r in enumerate(doc["rows"])]


@pytest.mark.parametrize("change, words", [
    (lambda d: d["counts"]["terrain"].update(hills=3), "terrain"),
    (lambda d: d["counts"]["tokens"].update({"7": 1}), "tokens"),
    (lambda d: d["counts"]["harbours"].update(generic=5), "harbours"),
    (lambda d: _swap_first(d, "D ", "D5"), "desert"),
    (lambda d: _swap_first(d, "F5", "F "), "number token"),
    (lambda d: _swap_first(d, "F5", "X5"), "unknown terrain"),
    (lambda d: d["harbours"].append(dict(d["harbours"][0])), "twice"),
    (lambda d: d["harbours"].__setitem__(0, {"at": "C3|B1", "kind": "generic"}), "sea"),
    (lambda d: d["harbours"].__setitem__(0, {"at": d["harbours"][0]["at"], "kind": "gold"}), "kind"),
    (lambda d: d["rows"].__setitem__(0, d["rows"][0].replace("~", "-")), "surround the land"),
    (lambda d: d.pop("counts"), "counts"),
    (lambda d: d["players"].update(min=5), "players"),
])
def test_broken_map_file_is_refused(tmp_path, change, words):
    with pytest.raises(DataError) as exc:
        load_map(_broken(tmp_path, change))
    assert "standard.json" in str(exc.value) and words in str(exc.value)


def test_beginner_with_6_next_to_8_is_refused(tmp_path):
    b = beginner("standard")
    six = next(x.hex for x in b.land if x.token == 6)
    beside = next(n for n in six.neighbors() if b.is_land(n) and b.at(n).token not in (None, 6, 8))
    old = b.at(beside).token

    def change(doc):
        # Swap the 8s and the neighbour's number so the counts stay right.
        eight = next(x.hex for x in b.land if x.token == 8)
        code = {Terrain.FOREST: "F", Terrain.PASTURE: "P", Terrain.FIELDS: "W", Terrain.HILLS: "H",
                Terrain.MOUNTAINS: "M", Terrain.GOLD_RIVER: "G"}
        rows = [r.split() for r in doc["rows"]]
        for h, n in ((beside, 8), (eight, old)):
            col, row = _offset_of(b, h)
            rows[row][col] = code[b.at(h).terrain] + str(n)
        doc["rows"] = [" ".join(r) for r in rows]

    with pytest.raises(DataError, match="next to"):
        load_map(_broken(tmp_path, change))


def _offset_of(board, h):
    from games.core.hexgrid import to_offset
    return to_offset(h, board.offset)


def test_shipped_files_load_and_ids_match_names():
    for map_id in MAP_IDS:
        assert load_map(MAPS_DIR / f"{map_id}.json").id == map_id
    with pytest.raises(KeyError):
        catan_map("nowhere")
