"""Steam deliveries (ST-8, ST-9, the rulebook's delivery section and its examples 1 and 2)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games.core.errors import IllegalAction
from games.core.i18n import catalog, translate
from games.steam.delivery import (
    Award, Delivery, Link, Network, awards, by_cube, check_route, deliveries, delivery_order,
    notation, parse_route,
)
from games.steam.components import components
from tools.games.steam.delivery_bench import dense_network, setup_cubes, worst_case_report
from games.steam.map import Colour, steam_map

R, B, Y, P, G = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.PURPLE, Colour.GRAY
GREEN, BLACK, ORANGE = 0, 1, 2


def outcomes(found: list[Delivery]) -> set[tuple]:
    return {(d.source, d.colour, d.destination, d.points) for d in found}


def refusal(*args) -> str:
    with pytest.raises(IllegalAction) as e:
        check_route(*args)
    return e.value.code


# --- the rulebook's example 1 -----------------------------------------------------------------
# The figure is not available; this network is drawn from what the text says of it. Green's
# cubes (red, blue, purple, yellow) wait on Hartford. Green's own links run Hartford - Albany
# (the first red city) - Boston (red), and Hartford - Springfield - Worcester - Providence
# (blue); black's link Hartford - Middletown meets green's Middletown - Boston, and black's links
# Providence - Newport (purple) - New London (yellow) lie beyond Providence.

EX1_LINKS = [
    Link(1, ("Hartford", "Albany"), GREEN), Link(2, ("Albany", "Boston"), GREEN),
    Link(3, ("Hartford", "Springfield"), GREEN), Link(4, ("Springfield", "Worcester"), GREEN),
    Link(5, ("Worcester", "Providence"), GREEN),
    Link(6, ("Hartford", "Middletown"), BLACK), Link(7, ("Middletown", "Boston"), GREEN),
    Link(8, ("Providence", "Newport"), BLACK), Link(9, ("Newport", "New London"), BLACK),
]
EX1_CITIES = {"Hartford": G, "Albany": R, "Boston": R, "Providence": B, "Newport": P, "New London": Y}
EX1_CUBES = {"Hartford": {R: 1, B: 1, P: 1, Y: 1}}


def ex1(locomotive: int) -> dict[Colour, set[tuple]]:
    found = deliveries(EX1_LINKS, EX1_CITIES, EX1_CUBES, GREEN, locomotive)
    out: dict[Colour, set[tuple]] = {}
    for d in found:
        out.setdefault(d.colour, set()).add((d.destination, d.points))
    return out


def test_example_1_locomotive_3():
    got = ex1(3)
    # Red: 1 point by green's own link to the first red city; 2 points with black's link, 1 of
    # them black's. Never on to Boston over Albany for 2 of green's own points.
    assert got[R] == {("Albany", ((GREEN, 1),)), ("Boston", ((GREEN, 1), (BLACK, 1)))}
    assert got[B] == {("Providence", ((GREEN, 3),))}      # blue: 3 points, green's links only
    assert P not in got and Y not in got                   # purple and yellow need more links
    assert refusal(EX1_LINKS, EX1_CITIES, EX1_CUBES, GREEN, 3, "Hartford", R, [1, 2]) \
        == "steam.delivery.passes_own_colour"


def test_example_1_locomotive_4_and_5():
    assert ex1(4)[P] == {("Newport", ((GREEN, 3), (BLACK, 1)))}        # 4 points, 1 black's
    assert Y not in ex1(4)
    assert ex1(5)[Y] == {("New London", ((GREEN, 3), (BLACK, 2)))}     # 5 points, 2 black's


# --- the rulebook's example 2 and the order of the income-or-points choices -------------------

def test_example_2_points_and_who_chooses_first():
    links = [Link(i, (f"c{i}", f"c{i + 1}"), GREEN if i in (0, 2, 4) else BLACK) for i in range(5)]
    cities = {"c0": R, "c5": Y}
    d = check_route(links, cities, {"c0": {Y: 1}}, GREEN, 5, "c0", Y, [0, 1, 2, 3, 4])
    assert d.points == ((GREEN, 3), (BLACK, 2))
    # The mover decides first, then the others in turn order (ST-9) — even a later seat.
    assert awards(d, GREEN, [BLACK, GREEN]) == (Award(GREEN, 3), Award(BLACK, 2))
    assert awards(d, BLACK, [GREEN, BLACK]) == (Award(BLACK, 2), Award(GREEN, 3))


def test_awards_follow_turn_order_after_the_mover():
    links = [Link(0, ("a", "t"), ORANGE), Link(1, ("t", "u"), BLACK), Link(2, ("u", "v"), GREEN),
             Link(3, ("v", "b"), 3), Link(4, ("b", "w"), ORANGE)]
    d = check_route(links, {"a": R, "w": B}, {"a": {B: 1}}, ORANGE, 6, "a", B, [0, 1, 2, 3, 4])
    # "Then in turn order": the order of the turn order track, from its first seat.
    assert [a.seat for a in awards(d, ORANGE, [3, GREEN, ORANGE, BLACK])] == [ORANGE, 3, GREEN, BLACK]


# --- the mover's majority (the rulebook's 5-link example) -------------------------------------

def chain(owners, colour_at_end=Y):
    links = [Link(i, (f"p{i}", f"p{i + 1}"), o) for i, o in enumerate(owners)]
    cities = {"p0": R, f"p{len(owners)}": colour_at_end}
    return links, cities, {"p0": {colour_at_end: 1}}


def test_majority_two_two_one_allowed_two_three_refused():
    links, cities, cubes = chain([GREEN, BLACK, GREEN, ORANGE, BLACK])
    assert check_route(links, cities, cubes, GREEN, 5, "p0", Y, range(5)).points == \
        ((GREEN, 2), (BLACK, 2), (ORANGE, 1))
    assert len(deliveries(links, cities, cubes, GREEN, 5)) == 1
    links, cities, cubes = chain([GREEN, BLACK, GREEN, BLACK, BLACK])
    assert refusal(links, cities, cubes, GREEN, 5, "p0", Y, range(5)) == "steam.delivery.not_majority"
    assert deliveries(links, cities, cubes, GREEN, 5) == []


def test_at_least_one_own_link():
    links, cities, cubes = chain([BLACK])
    assert refusal(links, cities, cubes, GREEN, 1, "p0", Y, [0]) == "steam.delivery.no_own_link"
    assert deliveries(links, cities, cubes, GREEN, 1) == []
    assert len(deliveries(links, cities, cubes, BLACK, 1)) == 1


def test_unowned_links_score_nobody_and_never_outvote_the_mover():
    links, cities, cubes = chain([None, GREEN, None, None])
    (d,) = deliveries(links, cities, cubes, GREEN, 4)
    assert d.points == ((GREEN, 1),)
    assert awards(d, GREEN, [GREEN, BLACK]) == (Award(GREEN, 1),)
    links, cities, cubes = chain([None, None])
    assert deliveries(links, cities, cubes, GREEN, 2) == []   # no own link at all


# --- where a route may go ---------------------------------------------------------------------

def test_locomotive_limit():
    links, cities, cubes = chain([GREEN] * 4)
    assert deliveries(links, cities, cubes, GREEN, 3) == []
    assert [d.links for d in deliveries(links, cities, cubes, GREEN, 4)] == [(0, 1, 2, 3)]
    err = pytest.raises(IllegalAction, check_route, links, cities, cubes, GREEN, 3, "p0", Y, range(4))
    assert err.value.code == "steam.delivery.too_long"
    assert err.value.params == {"count": 4, "locomotive": 3}


def test_incomplete_links_are_never_used():
    links = [Link(0, ("a", "t"), GREEN), Link(1, ("t", "b"), GREEN, complete=False),
             Link(2, ("t", "u"), GREEN), Link(3, ("u", "b"), GREEN)]
    cities, cubes = {"a": R, "b": B}, {"a": {B: 1}}
    assert [d.links for d in deliveries(links, cities, cubes, GREEN, 3)] == [(0, 2, 3)]
    assert refusal(links, cities, cubes, GREEN, 3, "a", B, [0, 1]) == "steam.delivery.incomplete_link"


def test_first_city_of_the_colour_stops_the_cube():
    # a -> m (blue) -> b (blue): a blue cube stops at m; a red one passes m and goes on.
    links = [Link(0, ("a", "m"), GREEN), Link(1, ("m", "b"), GREEN), Link(2, ("m", "r"), GREEN)]
    cities = {"a": Y, "m": B, "b": B, "r": R}
    found = deliveries(links, cities, {"a": {B: 1, R: 1}}, GREEN, 3)
    assert {(d.colour, d.places) for d in found} == {(B, ("a", "m")), (R, ("a", "m", "r"))}
    assert refusal(links, cities, {"a": {B: 1}}, GREEN, 3, "a", B, [0, 1]) \
        == "steam.delivery.passes_own_colour"


def test_no_city_twice_and_never_back_to_the_start():
    # The only way from a to b loops through c twice; a ring back to a is refused too.
    links = [Link(0, ("a", "c"), GREEN), Link(1, ("c", "t"), GREEN), Link(2, ("t", "c"), GREEN),
             Link(3, ("c", "b"), BLACK), Link(4, ("c", "a"), GREEN)]
    cities = {"a": R, "b": B, "c": Y}
    cubes = {"a": {B: 1, R: 1}}
    found = deliveries(links, cities, cubes, GREEN, 6)
    # a-c-b by either a-c link gives the same points: one move, listed by the smaller link id.
    assert [d.links for d in found] == [(0, 3)]
    assert all(len(set(d.places)) == len(d.places) for d in found)
    assert refusal(links, cities, cubes, GREEN, 6, "a", B, [0, 1, 2, 3]) == "steam.delivery.city_twice"
    assert refusal(links, cities, cubes, GREEN, 6, "a", R, [0, 4]) == "steam.delivery.city_twice"


def test_a_town_may_be_passed_twice_by_different_links():
    # ST-9 forbids visiting a city twice; towns are not cities. Each link is used once only.
    links = [Link(0, ("a", "t"), GREEN), Link(1, ("t", "u"), GREEN), Link(2, ("u", "t"), GREEN),
             Link(3, ("t", "b"), BLACK), Link(4, ("a", "b"), BLACK)]
    cities, cubes = {"a": R, "b": B}, {"a": {B: 1}}
    d = check_route(links, cities, cubes, GREEN, 4, "a", B, [0, 1, 2, 3])
    assert d.places == ("a", "t", "u", "t", "b") and d.points == ((GREEN, 3), (BLACK, 1))
    assert refusal(links, cities, cubes, GREEN, 4, "a", B, [0, 1, 1, 3]) == "steam.delivery.link_twice"
    found = deliveries(links, cities, cubes, GREEN, 4)
    assert (d.source, d.colour, d.destination, d.points) in outcomes(found)


def test_other_refusals():
    links, cities, cubes = chain([GREEN, GREEN])
    assert refusal(links, cities, cubes, GREEN, 3, "p0", R, [0, 1]) == "steam.delivery.no_cube"
    assert refusal(links, cities, cubes, GREEN, 3, "p0", Y, []) == "steam.delivery.no_route"
    assert refusal(links, cities, cubes, GREEN, 3, "p0", Y, [1]) == "steam.delivery.not_connected"
    assert refusal(links, cities, cubes, GREEN, 3, "p0", Y, [0, 7]) == "steam.delivery.not_connected"
    assert refusal(links, cities, cubes, GREEN, 3, "p0", Y, [0]) == "steam.delivery.wrong_destination"


def test_every_refusal_has_both_languages():
    codes = [k for k in catalog("en") if k.startswith("steam.error.delivery.")]
    assert len(codes) == 11
    for key in codes:
        assert key in catalog("ja")
        for lang in ("en", "ja"):
            text = translate(lang, key, {"count": 2, "locomotive": 1})
            assert text != key and "{" not in text and "(s)" not in text
    text = translate("en", "steam.error.delivery.too_long", {"count": 2, "locomotive": 1})
    assert "uses 2 links;" in text and "at most 1 link." in text


# --- notation and order -----------------------------------------------------------------------

def test_notation_names_a_link_only_where_two_join_the_same_places():
    links = [Link(10, ("a", "t"), GREEN), Link(11, ("a", "t"), BLACK), Link(12, ("t", "b"), GREEN)]
    net = Network(links)
    cities, cubes = {"a": R, "b": B}, {"a": {B: 1}}
    found = deliveries(net, cities, cubes, GREEN, 2)
    assert [notation(net, d) for d in found] == ["a-t[10]-b", "a-t[11]-b"]
    for d in found:
        assert parse_route(net, notation(net, d), str) == (d.places, d.links)
    assert notation(net, (("t", "b"), (12,))) == "t-b"
    with pytest.raises(IllegalAction):
        parse_route(net, "a-t-b", str)   # ambiguous without the link


def test_by_cube_groups_in_listing_order():
    found = deliveries(EX1_LINKS, EX1_CITIES, EX1_CUBES, GREEN, 5)
    groups = by_cube(found)
    assert list(groups) == [("Hartford", R), ("Hartford", B), ("Hartford", Y), ("Hartford", P)]
    assert [d for ds in groups.values() for d in ds] == found
    assert [d.destination for d in groups["Hartford", R]] == ["Albany", "Boston"]


def test_order_is_deterministic_and_independent_of_input_order():
    links, cities = dense_network(seed=3)
    cubes = {h: {c: 1 for c in Colour} for h in cities}
    found = deliveries(links, cities, cubes, 1, 4)
    shuffled = links[:]
    random.Random(9).shuffle(shuffled)
    assert deliveries(shuffled, cities, dict(reversed(list(cubes.items()))), 1, 4) == found
    assert found == sorted(found, key=delivery_order) and len(found) > 50


# --- brute force: every trail checked against the rules, one by one ---------------------------

def brute_force(links, cities, cubes, mover, locomotive):
    """Every sequence of distinct complete links from a cube's city, judged by check_route's
    rules written out plainly; the distinct outcomes, each with its fewest-links, smallest-ids
    route."""
    complete = [l for l in links if l.complete]
    best = {}

    def extend(src, colour, trail, used):
        here = trail[-1]
        for l in complete:
            if l.id in used or here not in l.ends:
                continue
            nxt = l.other(here)
            if nxt in cities and nxt in trail:
                continue
            route = used + [l.id]
            places = trail + [nxt]
            if cities.get(nxt) == colour:
                owners = Counter(x.owner for x in links if x.id in route)
                owners.pop(None, None)
                own = owners.get(mover, 0)
                if own >= 1 and all(n <= own for n in owners.values()):
                    key = (src, colour, nxt, tuple(sorted(owners.items())))
                    rank = (len(route), tuple(route))
                    if key not in best or rank < best[key][0]:
                        best[key] = (rank, tuple(places))
                continue   # the cube stops at the first city of its colour
            if len(route) < locomotive:
                extend(src, colour, places, route)

    for src, on in cubes.items():
        for colour, n in on.items():
            if n > 0:
                extend(src, colour, [src], [])
    return {k: (v[1], v[0][1]) for k, v in best.items()}


def as_map(found):
    return {(d.source, d.colour, d.destination, d.points): (d.places, d.links) for d in found}


@st.composite
def networks(draw):
    n = draw(st.integers(3, 9))
    colours = draw(st.lists(st.sampled_from([None, R, B, Y, G]), min_size=n, max_size=n))
    cities = {i: c for i, c in enumerate(colours) if c is not None}
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    owner = st.sampled_from([None, 0, 1, 2])
    specs = draw(st.lists(st.tuples(pair, owner, st.booleans() | st.just(True)), max_size=16))
    links = [Link(i, ends, owner, complete) for i, (ends, owner, complete) in enumerate(specs)]
    cubes = {c: {col: draw(st.integers(0, 2)) for col in draw(st.sets(st.sampled_from([R, B, Y, G])))}
             for c in cities}
    return links, cities, cubes, draw(st.integers(0, 2)), draw(st.integers(1, 6))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(networks())
def test_search_matches_brute_force(case):
    links, cities, cubes, mover, locomotive = case
    found = deliveries(links, cities, cubes, mover, locomotive)
    assert as_map(found) == brute_force(links, cities, cubes, mover, locomotive)
    for d in found:
        assert check_route(links, cities, cubes, mover, locomotive, d.source, d.colour, d.links) == d


# --- the dense network on the real Northeast map ----------------------------------------------

def test_dense_northeast_network_is_dense_and_real():
    m = steam_map("northeast")
    links, cities = dense_network()
    assert {h for l in links for h in l.ends} <= set(m.places)
    degree = Counter(h for l in links for h in l.ends)
    assert all(degree[h] <= (6 if h in cities else 4) for h in degree)
    assert len(links) >= 60 and sum(1 for l in links if l.owner is None) >= 1
    assert sum(1 for c in cities.values() if c is G) == 2


@pytest.mark.parametrize("seed, mover, locomotive, first", [(1, 2, 4, 0), (0, 0, 6, 5)])
def test_dense_northeast_matches_brute_force(seed, mover, locomotive, first):
    links, cities = dense_network(seed=seed)
    cubes = {h: {c: 1 for c in Colour} for h in sorted(cities)[first:first + 4]}
    found = deliveries(links, cities, cubes, mover, locomotive)
    assert len(found) > 20 and as_map(found) == brute_force(links, cities, cubes, mover, locomotive)


def test_dense_northeast_at_locomotive_6_every_listing_is_legal():
    links, cities = dense_network()
    net = Network(links)
    cubes = {h: {c: 1 for c in Colour} for h in cities}
    found = deliveries(net, cities, cubes, 0, 6)
    assert len(outcomes(found)) == len(found) > 1000
    assert max(len(d.links) for d in found) == 6
    assert {d.colour for d in found} == set(Colour)
    for d in found[::7]:
        assert check_route(net, cities, cubes, 0, 6, d.source, d.colour, d.links) == d
        assert parse_route(net, notation(net, d, steam_map("northeast").label),
                           steam_map("northeast").hex_at) == (d.places, d.links)


def test_setup_cubes_draw_the_printed_counts_from_the_bag():
    m = steam_map("northeast")
    _links, cities = dense_network()
    cubes = setup_cubes("northeast", cities, seed=5)
    assert set(cubes) == set(cities)
    for h, on in cubes.items():
        assert sum(on.values()) == (m.places[h].cubes if h in m.cities else 3)
    drawn = Counter()
    for on in cubes.values():
        drawn.update(on)
    assert all(drawn[c] <= components().cubes[c] for c in Colour)
    assert setup_cubes("northeast", cities, seed=6) != cubes


def test_worst_case_report_shape():
    report = worst_case_report(seats=3, locomotive=2, repeat=1)
    assert report["map"] == "northeast" and report["locomotive"] == 2
    assert len(report["deliveries_per_player"]) == 3
    assert all(n > 0 for n in report["deliveries_per_player"])
    for key in ("per_cube_ms", "per_player_ms", "per_player_setup_cubes_ms"):
        assert 0 < report[key]["p50"] <= report[key]["max"]
