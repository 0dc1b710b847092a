"""games/core/hexgrid: the conventions pinned by examples, the geometry checked by properties.

The examples fix what the numbers mean (direction 0, clockwise order, which corner is 0,
which offset row is shifted), so a change of convention fails loudly; the properties check
that the shared edge and corner identities really are one value per edge and per corner.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from pydantic import BaseModel

from games.core.hexgrid import (
    DIRECTIONS,
    ORIGIN,
    Corner,
    Edge,
    Hex,
    Offset,
    Orientation,
    column_letters,
    distance,
    from_offset,
    label,
    opposite,
    parse_label,
    ring,
    rotate_side,
    spiral,
    to_offset,
)

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)
sides = st.integers(min_value=0, max_value=5)
any_int = st.integers(min_value=-40, max_value=40)
systems = st.sampled_from(list(Offset))


# --- conventions, by example ----------------------------------------------------------------------
def test_direction_zero_is_plus_q_and_the_order_is_clockwise_on_screen():
    # Pointy-top on screen: east, south-east, south-west, west, north-west, north-east.
    assert DIRECTIONS == (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))
    # Clockwise means: direction d + 1 is direction d turned by one step.
    for d in range(6):
        assert DIRECTIONS[d].rotate(1) == DIRECTIONS[(d + 1) % 6]


def test_corner_zero_is_between_side_five_and_side_zero():
    c = ORIGIN.corner(0)
    # Pointy-top: the upper-right vertex, shared with the north-east and east neighbours.
    assert set(c.hexes()) == {ORIGIN, ORIGIN.neighbor(5), ORIGIN.neighbor(0)}
    assert ORIGIN.edge(0).corners() == (ORIGIN.corner(0), ORIGIN.corner(1))


def test_one_edge_one_value_whichever_hex_names_it():
    east = Hex(1, 0)
    assert ORIGIN.edge(0) == east.edge(3) == Edge(ORIGIN, 0)
    assert ORIGIN.edge(3) == Hex(-1, 0).edge(0) == Edge(Hex(-1, 0), 0)
    assert len({ORIGIN.edge(0), east.edge(3)}) == 1


def test_one_corner_one_value_whichever_hex_names_it():
    names = {ORIGIN.corner(0), Hex(1, -1).corner(2), Hex(1, 0).corner(4)}
    assert names == {Corner(ORIGIN, 0)}


def test_non_canonical_edge_and_corner_are_refused():
    with pytest.raises(ValueError):
        Edge(ORIGIN, 3)
    with pytest.raises(ValueError):
        Corner(ORIGIN, 2)


def test_ring_order_and_sizes():
    assert ring(ORIGIN, 0) == [ORIGIN]
    assert ring(ORIGIN, 1) == list(DIRECTIONS)  # ring 1 walks the directions clockwise from 0
    assert ring(Hex(2, -1), 2)[0] == Hex(4, -1)
    assert [len(spiral(ORIGIN, r)) for r in range(5)] == [1, 7, 19, 37, 61]
    with pytest.raises(ValueError):
        ring(ORIGIN, -1)


def test_distance_examples():
    assert distance(ORIGIN, Hex(3, -1)) == 3
    assert distance(Hex(-2, 4), Hex(1, -1)) == 5
    assert ORIGIN.distance(Hex(0, 0)) == 0


def test_rotate_side_and_opposite():
    assert rotate_side(5, 1) == 0
    assert rotate_side(0, -1) == 5
    assert rotate_side(2, 13) == 3
    assert [opposite(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]


def test_side_towards_refuses_a_hex_that_does_not_touch():
    assert ORIGIN.side_towards(Hex(0, -1)) == 4
    with pytest.raises(ValueError):
        ORIGIN.side_towards(Hex(2, 0))
    with pytest.raises(ValueError):
        ORIGIN.edge(0).side_of(Hex(5, 5))
    with pytest.raises(ValueError):
        ORIGIN.corner(0).index_in(Hex(5, 5))


@pytest.mark.parametrize("system,start,expect", [
    # Row-shifted (pointy-top) maps: a shifted row's upper neighbours are columns (col, col + 1),
    # an unshifted row's (col - 1, col). Keys are (d col, d row), values the direction.
    (Offset.ODD_R, (3, 5), {(1, 0): 0, (0, -1): 4, (1, -1): 5}),
    (Offset.ODD_R, (3, 4), {(1, 0): 0, (-1, -1): 4, (0, -1): 5}),
    (Offset.EVEN_R, (3, 4), {(1, 0): 0, (0, -1): 4, (1, -1): 5}),
    (Offset.EVEN_R, (3, 5), {(1, 0): 0, (-1, -1): 4, (0, -1): 5}),
    # Column-shifted (flat-top) maps: a shifted column's right-hand neighbours are rows
    # (row, row + 1), an unshifted column's (row - 1, row); down the column is direction 1 (south).
    (Offset.ODD_Q, (5, 3), {(0, 1): 1, (1, 0): 5, (1, 1): 0}),
    (Offset.ODD_Q, (4, 3), {(0, 1): 1, (1, -1): 5, (1, 0): 0}),
    (Offset.EVEN_Q, (4, 3), {(0, 1): 1, (1, 0): 5, (1, 1): 0}),
    (Offset.EVEN_Q, (5, 3), {(0, 1): 1, (1, -1): 5, (1, 0): 0}),
])
def test_offset_systems_shift_the_named_rows_or_columns(system, start, expect):
    h = from_offset(*start, system)
    for (dc, dr), direction in expect.items():
        assert from_offset(start[0] + dc, start[1] + dr, system) == h.neighbor(direction)


def test_offset_systems_name_their_orientation():
    assert Offset.ODD_R.orientation is Offset.EVEN_R.orientation is Orientation.POINTY
    assert Offset.ODD_Q.orientation is Offset.EVEN_Q.orientation is Orientation.FLAT


def test_labels():
    assert [column_letters(c) for c in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == \
        ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]
    assert label(from_offset(0, 0, Offset.ODD_R), Offset.ODD_R) == "A1"
    assert label(from_offset(2, 6, Offset.EVEN_Q), Offset.EVEN_Q) == "C7"
    assert parse_label(" c7 ", Offset.EVEN_Q) == from_offset(2, 6, Offset.EVEN_Q)
    for bad in ("", "7C", "C0", "C-1", "C 7 x", "Ä1"):
        with pytest.raises(ValueError):
            parse_label(bad, Offset.ODD_R)
    with pytest.raises(ValueError):
        label(from_offset(0, -1, Offset.ODD_R), Offset.ODD_R)
    with pytest.raises(ValueError):
        label(from_offset(-1, 0, Offset.ODD_R), Offset.ODD_R)


def test_ids_round_trip_through_a_pydantic_model():
    class Placed(BaseModel):
        track: dict[str, list[int]]
        town: Hex
        road: Edge
        village: Corner

    m = Placed(track={label(Hex(1, 1), Offset.ODD_R): [0, 3]}, town=Hex(2, -3),
               road=Hex(2, -3).edge(4), village=Hex(2, -3).corner(5))
    back = Placed.model_validate_json(m.model_dump_json())
    assert back == m
    assert back.village == Hex(2, -3).corner(5)
    assert {back.road: 1}[Hex(2, -3).edge(4)] == 1  # hashable: usable as keys after the trip


# --- properties ---------------------------------------------------------------------------------
@given(hexes, sides)
def test_neighbours_are_symmetric(h, d):
    n = h.neighbor(d)
    assert n.neighbor(opposite(d)) == h
    assert n.side_towards(h) == opposite(d)
    assert h.side_towards(n) == d
    assert h.distance(n) == 1
    assert h.neighbor(d + 6) == n
    assert len(set(h.neighbors())) == 6


@given(hexes, sides)
@settings(max_examples=200)
def test_each_edge_is_shared_by_exactly_two_hexes(h, side):
    e = h.edge(side)
    a, b = e.hexes()
    assert h in (a, b) and a.distance(b) == 1
    assert e.side_of(h) == side
    # Both hexes name it, at opposite sides, and nobody else nearby does.
    assert a.edge(e.side_of(a)) == e and b.edge(e.side_of(b)) == e
    assert e.side_of(b) == opposite(e.side_of(a))
    holders = [g for g in spiral(h, 3) if e in g.edges()]
    assert sorted(holders) == sorted((a, b))
    assert all(g.edges().count(e) == 1 for g in holders)


@given(hexes, sides)
@settings(max_examples=200)
def test_each_corner_is_shared_by_exactly_three_hexes(h, i):
    c = h.corner(i)
    trio = c.hexes()
    assert h in trio and len(set(trio)) == 3
    assert all(x.distance(y) == 1 for x in trio for y in trio if x != y)  # they meet pairwise
    assert c.index_in(h) == i
    holders = [g for g in spiral(h, 3) if c in g.corners()]
    assert sorted(holders) == sorted(trio)
    for g in holders:
        assert g.corners().count(c) == 1
        assert g.corner(c.index_in(g)) == c


@given(hexes, sides)
def test_edges_run_between_their_hexes_corners(h, side):
    e = h.edge(side)
    ends = set(e.corners())
    assert ends == {h.corner(side), h.corner(side + 1)}  # side i runs from corner i to i + 1
    assert len(ends) == 2
    for g in e.hexes():  # each end is a corner of both hexes the edge separates
        assert ends <= set(g.corners())


@given(hexes, sides)
def test_corner_edges_and_neighbours(h, i):
    c = h.corner(i)
    edges = c.edges()
    assert len(set(edges)) == 3
    assert all(c in e.corners() for e in edges)
    near = c.neighbors()
    assert len(set(near)) == 3 and c not in near
    assert all(c in n.neighbors() for n in near)  # adjacency of corners is symmetric
    # Exactly the corners one edge away: among the corners of the three hexes, those that
    # share an edge with c.
    around = {k for g in c.hexes() for k in g.corners()}
    linked = {k for k in around if k != c and any(set(e.corners()) == {c, k} for g in c.hexes() for e in g.edges())}
    assert linked == set(near)


@given(hexes, hexes, sides, any_int)
def test_rotation(h, center, side, k):
    assert rotate_side(side, 6) == side
    assert rotate_side(rotate_side(side, k), -k) == side
    assert h.rotate(6, center) == h
    assert h.rotate(k, center).rotate(-k, center) == h
    assert h.rotate(k, center).distance(center) == h.distance(center)
    # Turning a hex's neighbourhood turns side numbers the same way as rotate_side.
    assert center.neighbor(side).rotate(k, center) == center.neighbor(rotate_side(side, k))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a) >= 0
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    assert distance(a + c, b + c) == distance(a, b)  # translation invariant


@given(hexes, st.integers(min_value=1, max_value=6))
def test_rings_are_closed_loops_at_the_right_distance(center, radius):
    hs = ring(center, radius)
    assert len(hs) == len(set(hs)) == 6 * radius
    assert all(center.distance(h) == radius for h in hs)
    assert all(hs[k].distance(hs[(k + 1) % len(hs)]) == 1 for k in range(len(hs)))


@given(hexes, st.integers(min_value=0, max_value=4))
def test_spiral_is_everything_within_the_radius(center, radius):
    box = {center + Hex(dq, dr) for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)}
    assert set(spiral(center, radius)) == {h for h in box if center.distance(h) <= radius}
    assert len(spiral(center, radius)) == len(set(spiral(center, radius)))


@given(hexes, systems)
def test_offset_round_trips(h, system):
    col, row = to_offset(h, system)
    assert from_offset(col, row, system) == h


@given(coord, coord, systems)
def test_offset_round_trips_from_the_other_side(col, row, system):
    assert to_offset(from_offset(col, row, system), system) == (col, row)


@given(st.integers(min_value=0, max_value=2000), st.integers(min_value=0, max_value=2000), systems)
def test_labels_round_trip(col, row, system):
    h = from_offset(col, row, system)
    text = label(h, system)
    assert text == f"{column_letters(col)}{row + 1}"
    assert parse_label(text, system) == h
    assert parse_label(text.lower(), system) == h
