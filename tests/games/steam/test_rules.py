"""Steam's rules engine (games/steam/rules.py): each phase of the basic and the standard game as
the rulebook and rulings ST-1 … ST-15 describe it, played move by move through `apply`, and the
rulebook's worked examples with its own numbers."""
from __future__ import annotations

import pytest

from games.core.errors import IllegalAction
from games.steam.derived import board_map, complete_links, rails_of
from games.steam.components import components
from games.steam.models import COLOURS
from games.steam.rules import GAME
from games.steam.tiles import tileset

T = tileset()


class Table:
    """A game played by notation, one move at a time, with conservation checked after each."""

    def __init__(self, n=4, seed=7, **options):
        self.s = GAME.setup(n, options, seed)
        self.events = []

    @property
    def m(self):
        return board_map(self.s)

    def who(self):
        active = GAME.active_players(self.s)
        assert len(active) == 1
        return next(iter(active))

    def play(self, text, seat=None):
        seat = self.who() if seat is None else seat
        result = GAME.apply(self.s, seat, GAME.parse_action(text))
        self.s = result.state
        GAME.check_invariants(self.s)
        self.events += result.events
        return result

    def refuse(self, text, seat=None):
        before = self.s.model_dump_json()
        with pytest.raises(IllegalAction) as err:
            GAME.apply(self.s, self.who() if seat is None else seat, GAME.parse_action(text))
        assert self.s.model_dump_json() == before
        return err.value.code

    def p(self, seat):
        return self.s.players[seat]

    def rot(self, label, face, towards):
        h = self.m.hex_at(label)
        want = frozenset(h.side_towards(self.m.hex_at(x)) for x in towards)
        rots = [k for k in T.faces[face].rotations if T.faces[face].exits_at(k) == want]
        assert len(rots) == 1
        return rots[0]

    def build(self, label, face, towards, how="build"):
        return self.play(f"{how} {label} {face} r{self.rot(label, face, towards)}")

    def take_all(self, tiles):
        """Action tiles in turn order: `tiles` maps seat -> notation."""
        while self.s.phase == "actions":
            self.play(tiles[self.who()])

    def take_any(self, last=False, avoid=("urbanize", "city_growth")):
        """Each seat in turn takes the first (or last) tile left, declining or avoiding the ones
        that oblige a move."""
        while self.s.phase == "actions":
            left = [tile for tile in GAME.tiles_left(self.s) if tile not in avoid]
            self.play("take " + (left[-1] if last else left[0]))

    def pass_phase(self):
        """Everybody passes until the phase (or the delivery round) changes."""
        where = (self.s.phase, self.s.deliver_round)
        while (self.s.phase, self.s.deliver_round) == where:
            self.play("done" if self.s.phase == "build" else "pass")

    def set_cubes(self, label, counts):
        """Put exactly `counts` (per colour) on a city, taking them from or returning them to the bag."""
        old = self.s.cubes.get(label, [0] * 5)
        self.s.bag = [b + o - c for b, o, c in zip(self.s.bag, old, counts)]
        self.s.cubes[label] = list(counts)
        GAME.check_invariants(self.s)


def random_order(n=4, seed=7, **options):
    return Table(n, seed, first_order="random", **options)


# --- setup (ST-M4) ------------------------------------------------------------------------

@pytest.mark.parametrize("map_id", ["northeast", "rhine_ruhr"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_puts_the_printed_cubes_on_cities_and_fills_the_supply(map_id, n):
    s = GAME.setup(n, {"map": map_id}, 11)
    m = board_map(s)
    for h in m.cities:
        assert sum(s.cubes[m.label(h)]) == m.starting_cubes(h, n)
    per_space = 2 if n == 3 else 3
    assert len(s.supply) == 12 and all(sum(sp) == per_space for sp in s.supply)
    comp = components()
    for k, colour in enumerate(COLOURS):
        on_board = sum(c[k] for c in s.cubes.values()) + sum(sp[k] for sp in s.supply)
        assert on_board + s.bag[k] == comp.cubes[colour]
    assert s.turns == {3: 10, 4: 8, 5: 7}[n]
    GAME.check_invariants(s)


def test_rhine_ruhr_with_three_players_has_one_cube_fewer_per_city():
    three, four = GAME.setup(3, {"map": "rhine_ruhr"}, 1), GAME.setup(4, {"map": "rhine_ruhr"}, 1)
    m = board_map(three)
    assert sum(map(sum, three.cubes.values())) == sum(map(sum, four.cubes.values())) - len(m.cities)


def test_setup_is_seeded():
    assert GAME.setup(4, {}, 5).model_dump_json() == GAME.setup(4, {}, 5).model_dump_json()
    assert GAME.setup(4, {}, 5).cubes != GAME.setup(4, {}, 6).cubes


def test_bad_options_and_player_counts_are_refused():
    with pytest.raises(IllegalAction) as err:
        GAME.setup(2, {}, 1)
    assert err.value.code == "steam.bad_player_count"
    with pytest.raises(IllegalAction) as err:
        GAME.setup(4, {"map": "atlantis"}, 1)
    assert err.value.code == "steam.bad_options"


# --- the first turn order (ST-11) ----------------------------------------------------------

def test_random_first_order_gives_1_2_3_dollars_to_later_seats():
    t = random_order()
    assert t.s.phase == "actions"
    assert [t.p(seat).cash for seat in t.s.order] == [0, 1, 2, 3]
    assert t.who() == t.s.order[0]


def test_the_first_auction_winner_raises_cash_in_5_dollar_steps_and_gets_change():
    """Rulebook: Black wins the first position for $7, lowers income 2 steps and gets $3 back."""
    t = Table(n=5)
    assert t.s.phase == "first_auction"
    first = t.who()
    t.play("bid 7")
    for _ in range(4):
        t.play("pass")
    black = t.p(first)
    assert (black.cash, black.income) == (3, -2)
    assert t.s.auction["placed"] == [first]
    assert t.who() == (first + 1) % 5  # the next auction starts left of the winner


def test_the_first_auction_ends_with_the_last_player_placed_free():
    t = Table(n=3)
    first = t.who()
    t.play("bid 1")
    t.play("pass")
    t.play("pass")  # first seat wins position 1
    second = t.who()
    t.play("pass")   # the other takes position 2 at 0; the last takes 3 free
    assert t.s.phase == "actions"
    assert t.s.order[0] == first and len(set(t.s.order)) == 3
    assert second in t.s.order
    assert sum(t.p(i).cash for i in range(3)) == 4  # $5 raised for the $1 bid, $4 change


def test_a_bid_must_beat_the_last_and_stay_within_what_can_be_raised():
    t = Table(n=3)
    t.play("bid 3")
    assert t.refuse("bid 3") == "steam.bid_too_low"
    assert t.refuse("bid 60") == "steam.bid_too_high"  # income 0..-10 raises at most $50


# --- action tiles (ST-11) -----------------------------------------------------------------

def test_action_costs_are_paid_when_taken_and_declining_costs_nothing():
    t = random_order()
    a, b, c, d = t.s.order
    t.play("take locomotive")            # $4 + new level 2 = $6, raised from income 0
    assert (t.p(a).locomotive, t.p(a).cash, t.p(a).income) == (2, 4, -2)
    t.play("decline urbanize")
    assert (t.p(b).cash, t.p(b).income, t.p(b).declined) == (1, 0, True)
    t.play("take city_growth")           # $2 of its $2
    assert (t.p(c).cash, t.p(c).income) == (0, 0)
    assert t.refuse("take urbanize") == "steam.tile_taken"
    assert t.refuse("decline engineer") == "steam.cannot_decline"
    t.play("take engineer")
    assert t.s.phase == "build"


def test_locomotive_tile_is_not_offered_at_level_6():
    t = random_order()
    t.s.players[t.who()].locomotive = 6
    assert all(a.tile != "locomotive" for a in GAME.legal_actions(t.s, t.who()))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(t.s, t.who(), GAME.parse_action("take locomotive"))
    assert err.value.code == "steam.locomotive_max"


def test_next_turn_order_follows_the_action_tile_numbers():
    """Rulebook phase 5: Locomotive (6), First Build (4), Urbanize (7), First Delivery (2) give
    First Delivery, First Build, Locomotive, Urbanize."""
    t = random_order()
    pat, michelle, thomas, lin = t.s.order
    t.take_all({pat: "take locomotive", michelle: "take first_build", thomas: "decline urbanize",
                lin: "take first_deliver"})
    assert t.s.step_order[0] == michelle  # First Build builds first
    t.pass_phase()
    assert t.s.phase == "deliver" and t.s.step_order[0] == lin  # First Delivery delivers first
    t.pass_phase()
    assert t.s.phase == "deliver" and t.s.deliver_round == 2 and t.who() == lin
    t.pass_phase()
    assert t.s.turn == 2 and t.s.phase == "actions"
    assert t.s.order == [lin, michelle, pat, thomas]


# --- building (ST-1 … ST-7) ---------------------------------------------------------------

def to_build(t, tiles):
    t.take_all(tiles)
    assert t.s.phase == "build"


def test_building_is_charged_and_limited_to_three_placements():
    t = random_order()
    order = t.s.order
    to_build(t, dict(zip(order, ["take first_build", "take first_deliver", "take turn_order", "decline city_growth"])))
    builder = t.who()
    paid = t.s.bank_in
    t.build("L8", "21", ["L7", "L9"])        # figure 1: A $2 + $1 river
    t.build("L9", "T21", ["L8", "L10"])      # B $2 + $1 town
    t.build("L10", "21", ["L9", "L11"])      # C: $10 for the three
    assert t.s.bank_in - paid == 10
    assert t.p(builder).cash + sum(p.cash for p in t.s.players if p is not t.p(builder)) == \
        t.s.bank_out - t.s.bank_in
    assert t.refuse("build K8 22 r0") == "steam.build.limit"
    links = {frozenset(t.m.label(e) for e in link.ends): link.owner for link in complete_links(t.s)}
    assert links == {frozenset({"L7", "L9"}): builder, frozenset({"L9", "L11"}): builder}
    assert t.s.last_builds == ["L8", "L9", "L10"]


def test_the_engineer_allows_a_fourth_placement():
    t = random_order()
    order = t.s.order
    to_build(t, dict(zip(order, ["take engineer", "take first_deliver", "take turn_order", "take first_build"])))
    t.play("done")  # First Build's holder builds nothing
    assert t.who() == order[0]
    t.build("K8", "22", ["L7", "K9"])
    t.build("K9", "21", ["K8", "K10"])
    t.build("K10", "21", ["K9", "K11"])
    t.build("K11", "22", ["K10", "L11"])
    assert any(frozenset(t.m.label(e) for e in link.ends) == {"L7", "L11"} for link in complete_links(t.s))


def test_urbanize_must_be_carried_out_in_the_basic_game_and_does_not_count_as_a_placement():
    t = random_order()
    order = t.s.order
    to_build(t, dict(zip(order, ["take urbanize", "take first_deliver", "take turn_order", "take engineer"])))
    green = t.who()
    assert t.refuse("done") == "steam.action_not_done"
    space = next(i + 1 for i, sp in enumerate(t.s.supply) if any(sp))
    cubes = list(t.s.supply[space - 1])
    t.play(f"urbanize M11 gray {space}")
    assert t.s.new_cities == {"M11": "gray"} and t.s.cubes["M11"] == cubes and not any(t.s.supply[space - 1])
    t.build("M8", "21", ["L7", "N8"])
    t.build("N8", "22", ["M8", "N9"])
    t.build("N10", "22", ["N9", "M11"])      # completes Hartford - New Haven at once
    assert t.s.placed == 3
    links = {frozenset(t.m.label(e) for e in link.ends): link.owner for link in complete_links(t.s)}
    assert links[frozenset({"N9", "M11"})] == green
    assert t.refuse("urbanize L9 red 1") == "steam.no_urbanize_action"
    t.play("done")


def test_city_growth_marks_the_city_and_a_marked_city_cannot_grow_again():
    t = random_order()
    order = t.s.order
    to_build(t, dict(zip(order, ["take city_growth", "take first_deliver", "take turn_order", "take engineer"])))
    space = next(i + 1 for i, sp in enumerate(t.s.supply) if any(sp))
    before = sum(t.s.cubes["L7"])
    added = sum(t.s.supply[space - 1])
    t.play(f"grow L7 {space}")
    assert sum(t.s.cubes["L7"]) == before + added and "L7" in t.s.grown
    assert "L7" not in GAME.growable(t.s)
    assert t.s.growth_left == components().growth_markers - 1


def test_the_standard_game_may_forgo_urbanize_during_building():
    t = Table(standard=True)
    while t.s.phase == "capital":
        t.play("capital 2")
    while t.s.phase == "auction":
        t.play("pass")
    tiles = iter(["take urbanize", "take city_growth", "take engineer", "take first_build"])
    while t.s.phase == "actions":
        t.play(next(tiles))
    while t.s.phase == "build":
        t.play("done")
    assert any(e.key == "steam.ev.forwent" for e in t.events)


def test_an_incomplete_link_lapses_after_a_turn_without_extension():
    """ST-4: built in turn 1, not extended in turn 2: unowned at the end of turn 2's building."""
    t = random_order()
    order = t.s.order
    to_build(t, dict(zip(order, ["take first_build", "take first_deliver", "take turn_order", "take engineer"])))
    builder = t.who()
    t.build("L8", "21", ["L7", "L9"])
    t.pass_phase()
    owners = {link.owner for link in rails_of(t.s).links}
    assert owners == {builder}  # kept at the end of turn 1
    t.pass_phase()
    t.pass_phase()
    t.take_any()
    t.pass_phase()
    assert {link.owner for link in rails_of(t.s).links} == {None}
    assert any(e.key == "steam.ev.link_lapsed" for e in t.events)


# --- delivering (ST-8, ST-9) ----------------------------------------------------------------

def built_albany_new_york(t):
    """Seat order[0] builds Albany - Poughkeepsie - New York in turn 1; returns that seat."""
    order = t.s.order
    to_build(t, dict(zip(order, ["take first_build", "take first_deliver", "take turn_order", "take engineer",
                                 "take locomotive"])))
    builder = t.who()
    t.build("L8", "21", ["L7", "L9"])
    t.build("L9", "T21", ["L8", "L10"])
    t.build("L10", "21", ["L9", "L11"])
    t.pass_phase()
    return builder


def test_a_delivery_scores_the_owner_who_chooses_income_or_points():
    t = random_order()
    builder = built_albany_new_york(t)
    # New York (purple) and Albany (purple): put a purple cube on Albany, none elsewhere in reach.
    t.set_cubes("L7", [0, 0, 0, 1, 0])
    t.set_cubes("L11", [0] * 5)
    while t.who() != builder:
        t.play("pass")
    assert t.refuse("deliver purple L7-L9-L11") == "steam.delivery.too_long"
    t.play("locomotive")
    assert t.p(builder).locomotive == 2
    while t.who() != builder:
        t.play("pass")
    assert "locomotive" not in [GAME.format_action(a) for a in GAME.legal_actions(t.s, builder)]
    t.play("deliver purple L7-L9-L11")
    assert t.s.pending == [(builder, 2)] and t.who() == builder
    income = t.p(builder).income
    t.play("income")
    assert t.p(builder).income == income + 2 and t.s.delivered[3] == 1
    assert t.s.last_route_places == ["L7", "L9", "L11"]


def test_income_or_points_only_when_owed_and_before_anything_else():
    t = random_order()
    builder = built_albany_new_york(t)
    t.set_cubes("L7", [0, 0, 0, 1, 0])
    t.set_cubes("L11", [0] * 5)
    t.s.players[builder].locomotive = 2
    # Nobody owed a choice: typed income or points is refused in words.
    assert t.refuse("income") == t.refuse("points") == "steam.nothing_to_score"
    while t.who() != builder:
        t.play("pass")
    t.play("deliver purple L7-L9-L11")
    assert t.s.pending == [(builder, 2)] and t.who() == builder
    # The mover owes the choice: nothing else until it is made (ST-9).
    for text in ("deliver purple L7-L9-L11", "locomotive", "pass"):
        assert t.refuse(text) == "steam.score_first"
    t.play("points")
    assert t.p(builder).points == 2 and t.s.pending == []


def test_several_scoring_players_answer_mover_first_then_in_turn_order():
    t = random_order()
    builder = built_albany_new_york(t)
    other = next(s for s in t.s.order if s != builder)
    m = t.m
    # Give the two links to two seats: the first to `other`.
    rails = rails_of(t.s)
    first = min(rails.links, key=lambda r: r.id)
    from dataclasses import replace
    from games.steam.derived import put_rails
    put_rails(t.s, replace(rails, links=tuple(replace(r, owner=other) if r.id == first.id else r
                                               for r in rails.links)))
    t.set_cubes("L7", [0, 0, 0, 1, 0])
    t.set_cubes("L11", [0] * 5)
    t.s.players[builder].locomotive = 2
    GAME.check_invariants(t.s)
    while t.who() != builder:
        t.play("pass")
    t.play("deliver purple L7-L9-L11")
    assert [seat for seat, _ in t.s.pending] == [builder, other]
    t.play("points")
    assert t.who() == other
    t.play("income")
    assert t.p(builder).points == 1 and t.p(other).income == 1
    assert m is not None


def test_a_route_may_not_run_past_the_first_city_of_its_colour():
    t = random_order()
    built_albany_new_york(t)
    t.s.players[t.who()].locomotive = 2
    code = t.refuse("deliver red L7-L9")
    assert code in {"steam.delivery.wrong_destination", "steam.delivery.no_cube"}


# --- income, the end (ST-10, ST-13, ST-14) ----------------------------------------------------

def test_negative_income_is_owed_and_raised_and_positive_income_paid():
    t = random_order()
    order = t.s.order
    t.s.players[order[0]].income = -3
    t.s.players[order[1]].income = 4
    t.take_all(dict(zip(order, ["take first_build", "take first_deliver", "take turn_order", "take engineer"])))
    for _ in range(3):
        t.pass_phase()
    a, b = t.p(order[0]), t.p(order[1])
    assert (a.cash, a.income) == (2, -4)   # owed $3 with $0: one $5 step, $2 back
    assert b.cash == 1 + 4


def test_bankruptcy_removes_the_player_and_unowns_their_links():
    t = random_order()
    builder = built_albany_new_york(t)
    t.s.players[builder].income = -10
    t.s.players[builder].points = 0
    t.s.players[builder].cash = 0
    for _ in range(2):
        t.pass_phase()
    assert t.p(builder).bankrupt and builder not in t.s.order
    assert all(link.owner is None for link in complete_links(t.s))
    assert any(e.key == "steam.ev.bankrupt" for e in t.events)


def test_the_game_ends_after_the_last_turns_income_and_ranks_by_st14():
    t = random_order(n=5)
    builder = built_albany_new_york(t)
    for _ in range(2):
        t.pass_phase()
    while t.s.phase != "over":
        if t.s.phase == "actions":
            t.take_any()
            continue
        t.pass_phase()
    assert t.s.turn == 7 and GAME.active_players(t.s) == frozenset()
    result = GAME.result(t.s)
    mine = next(r for r in result.players if r.seat == builder)
    lines = mine.by_category()
    income = t.p(builder).income
    assert lines["links"] == 2
    assert lines["income"] == (income // 2 if income >= 0 else income * 2)
    assert mine.total == sum(lines.values())
    keys = [(-r.total, -r.stats["income"], r.stats["last_tile"]) for r in result.players
            if not r.stats.get("bankrupt")]
    assert keys == sorted(keys)


# --- the standard game (ST-12) --------------------------------------------------------------

def test_the_standard_game_raises_capital_then_auctions_the_order_every_turn():
    t = Table(standard=True)
    assert t.s.phase == "capital"
    order = list(t.s.order)
    for k in (3, 2, 0, 1):
        t.play(f"capital {k}")
    assert [t.p(s).cash for s in order] == [15, 10, 0, 5]
    assert t.s.phase == "auction" and t.who() == order[0]
    assert t.refuse("bid 16") == "steam.bid_too_high"   # never above cash on hand
    t.play("bid 4")
    t.play("bid 5")
    t.play("pass")      # order[2] passes first: last place, pays nothing
    t.play("pass")      # order[3]: third place
    t.play("pass")      # order[0] drops out with $4 bid: second place, pays it in full
    assert t.s.phase == "actions"
    assert t.s.order == [order[1], order[0], order[3], order[2]]
    assert t.p(order[1]).cash == 5 and t.p(order[0]).cash == 11


def test_the_standard_turn_order_tile_gives_one_free_pass():
    t = Table(standard=True)
    for _ in range(4):
        t.play("capital 1")
    for _ in range(4):
        t.play("pass") if t.s.phase == "auction" else None
    holder = t.who()
    t.play("take turn_order")
    t.take_any(last=True)
    for _ in range(3):
        t.pass_phase()
    while t.s.phase == "capital":
        t.play("capital 0")
    assert t.s.auction["holder"] == holder
    while t.who() != holder:
        t.play("pass")
    t.play("pass", holder)
    assert any(e.key == "steam.ev.free_pass" for e in t.events)


def test_standard_income_deducts_maintenance_per_locomotive_level():
    t = Table(standard=True)
    for _ in range(4):
        t.play("capital 2")
    while t.s.phase == "auction":
        t.play("pass")
    first = t.s.order[0]
    t.play("take locomotive")            # free in the standard game, level 2 at once
    t.take_any()
    assert t.p(first).locomotive == 2 and t.p(first).cash == 10
    for _ in range(3):
        t.pass_phase()
    # Capital lowered every income to -2; income and maintenance are netted (ST-12).
    assert t.p(first).cash == 10 - 2 - 2
    assert all(t.p(s).cash == 10 - 2 - 1 for s in range(4) if s != first)


def test_standard_building_is_paid_from_cash_only():
    t = Table(standard=True)
    for _ in range(4):
        t.play("capital 0")
    while t.s.phase == "auction":
        t.play("pass")
    t.take_any()
    assert GAME.placements(t.s, t.who()) == []
    assert t.refuse(f"build L8 21 r{t.rot('L8', '21', ['L7', 'L9'])}") == "steam.cannot_afford"


# --- notation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["bid 5", "pass", "capital 3", "take engineer", "decline urbanize",
                                  "build C7 22 r3", "upgrade L9 T42 r0", "redirect K8 23 r1", "urbanize M11 gray 3",
                                  "grow L7 12", "done", "deliver red C7-E9[4]-G9", "locomotive", "income", "points"])
def test_notation_round_trips(text):
    assert GAME.format_action(GAME.parse_action(text)) == text


@pytest.mark.parametrize("text", ["", "bid", "bid -1", "take nothing", "build C7 99", "urbanize M11 pink 1",
                                  "deliver", "hello", "x" * 500])
def test_garbage_is_unparsable(text):
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(text)
    assert err.value.code == "unparsable"


def test_a_move_out_of_turn_or_phase_is_refused_without_change():
    t = random_order()
    other = next(s for s in range(4) if s != t.who())
    assert t.refuse("take engineer", other) == "not_active"
    assert t.refuse("deliver red C7-E7") == "steam.wrong_phase"


def test_the_timeout_move_carries_out_an_owed_urbanize_rather_than_buying_track():
    t = random_order()
    tiles = iter(["take urbanize", "take first_deliver", "take turn_order", "take engineer"])
    while t.s.phase == "actions":
        t.play(next(tiles))
    urbanizer = next(s for s in range(4) if t.p(s).action == "urbanize")
    while t.who() != urbanizer:
        assert GAME.format_action(GAME.timeout_action(t.s, t.who())) == "done"
        t.play("done")
    move = GAME.timeout_action(t.s, urbanizer)
    assert GAME.format_action(move).startswith("urbanize ")
    cash = t.p(urbanizer).cash
    t.play(GAME.format_action(move))
    assert GAME.format_action(GAME.timeout_action(t.s, urbanizer)) == "done" and t.p(urbanizer).cash == cash
