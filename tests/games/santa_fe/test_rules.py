"""Santa Fe rules, ruling by ruling (shared/rules/rulings/santa-fe.md SF-1 … SF-13)."""
import pytest

from games.core.errors import IllegalAction
from games.santa_fe.models import DOUBLE, Choice, Draw, Pass, Play
from tests.games.santa_fe.helpers import BOARD, GAME, RR, act, build, city, legal_texts, section, started, to_track


def code_of(fn, *args):
    with pytest.raises(IllegalAction) as err:
        fn(*args)
    return err.value.code


# ---------------------------------------------------------------- SF-1 setup
@pytest.mark.parametrize("n, doubles", [(2, 3), (3, 5), (4, 7), (5, 9)])
def test_setup_money_cards_double_turns_spurs(n, doubles):
    s = GAME.setup(n, None, 11)
    assert all(p.money == 2 and len(p.hand) == 4 and p.doubles == 1 and p.spur == -1 for p in s.players)
    assert s.double_pile == doubles - n and s.doubles_total == doubles
    assert s.spurs == [2] * 5 and len(s.deck) == 66 - 4 * n and 0 <= s.first < n
    assert s.phase == "choose" and GAME.active_players(s) == frozenset(range(n))
    GAME.check_invariants(s)


def test_setup_advanced_and_host_chosen_first_player():
    s = GAME.setup(3, {"advanced": True, "first_player": 2}, 5)
    assert s.first == 2 and all(p.money == 5 for p in s.players) and s.phase == "engineer"
    assert GAME.active_players(s) == {2}
    assert {GAME.setup(4, None, seed).first for seed in range(40)} == {0, 1, 2, 3}  # random otherwise


def test_bad_player_count_and_options():
    assert code_of(GAME.setup, 6, None, 1) == "santa_fe.bad_player_count"
    assert code_of(GAME.setup, 3, {"nonsense": 1}, 1) == "santa_fe.bad_options"
    assert code_of(GAME.setup, 3, {"first_player": 3}, 1) == "santa_fe.bad_options"


# ---------------------------------------------------------------- SF-2 the secret choice
def test_first_round_requires_a_city_card():
    s = started()
    assert all(a.card >= 0 for a in GAME.legal_actions(s, 0))
    assert code_of(GAME.apply, s, 0, Play(card=DOUBLE)) == "santa_fe.first_round_city"


def test_choice_is_secret_until_everyone_has_chosen():
    s = started(3)
    card = s.players[1].hand[0]
    res = GAME.apply(s, 1, Play(card=card))
    s = res.state
    assert res.undoable  # nothing was revealed yet
    assert [e.key for e in res.events if e.public] == ["santa_fe.ev.chose"]
    assert GAME.public_notation(Play(card=card)) == "play (secret)"
    for viewer in (None, 0, 2):
        v = GAME.view(s, viewer)
        assert v.players[1].chosen and v.players[1].choice is None and v.players[1].revealed is None
        assert "Play" not in v.model_dump_json().replace("play", "")  # nothing else leaks it
        assert s.players[1].hand == sorted(s.players[1].hand)
    assert GAME.view(s, 1).players[1].choice == Choice(card=card)
    assert GAME.active_players(s) == {0, 2}  # any order, the others still choose
    s = act(s, 2, GAME.format_action(GAME.legal_actions(s, 2)[0]))
    res = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0])
    assert not res.undoable
    reveal = next(e for e in res.events if e.key == "santa_fe.ev.reveal")
    assert len(reveal.params["choices"]) == 3 and reveal.public
    v = GAME.view(res.state, None)
    assert v.players[1].revealed == Choice(card=card) and card in v.players[1].played
    assert res.state.phase == "track" and GAME.active_players(res.state) == {0}


def test_a_spur_must_be_played_the_round_after_it_was_drawn():
    s = started(3)
    s.round = 2
    s.players[0].spur = RR["UP"]
    s.spurs[RR["UP"]] -= 1
    assert all(a.spur for a in GAME.legal_actions(s, 0))
    c = s.players[0].hand[0]
    assert code_of(GAME.apply, s, 0, Play(card=c)) == "santa_fe.must_play_spur"
    assert code_of(GAME.apply, s, 1, Play(card=s.players[1].hand[0], spur=True)) == "santa_fe.no_spur"
    assert "play double+spur" in legal_texts(s, 0)


# ---------------------------------------------------------------- SF-3 two track turns, double turn, exchange
def play_round_one(s):
    for seat in range(s.n):
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    return s


def test_two_track_turns_in_seat_order_then_draws():
    s = started(3)
    s.first = 1
    s = play_round_one(s)
    order = []
    while s.phase == "track":
        seat = next(iter(GAME.active_players(s)))
        order.append((s.track_turn, seat))
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    assert order == [(1, 1), (1, 2), (1, 0), (2, 1), (2, 2), (2, 0)]
    assert s.phase == "draw" and GAME.active_players(s) == {1}


def test_double_turn_two_placements_and_exchange_before_the_second_turn():
    s = to_track(started(3), 0, double=True)
    s = act(s, 0, "place UP Chicago>Omaha")
    assert GAME.active_players(s) == {0} and s.left == 1  # a second placement
    s = act(s, 0, "place UP Chicago>Omaha")
    assert s.sec_built[section("Chicago>Omaha")[0]] == 2
    s = act(s, 1, legal_texts(s, 1)[0])
    s = act(s, 2, legal_texts(s, 2)[0])
    assert s.phase == "exchange" and GAME.active_players(s) == {0}
    hand = list(s.players[0].hand)
    deck = len(s.deck)
    res = GAME.apply(s, 0, GAME.parse_action("exchange " + ",".join(BOARD.cities[c].name for c in hand[:2])))
    s = res.state
    assert s.removed == sorted(hand[:2]) and len(s.players[0].hand) == len(hand) and len(s.deck) == deck - 2
    assert not res.undoable and GAME.public_notation(GAME.parse_action("exchange none")) == "exchange (0)"
    assert s.phase == "track" and s.track_turn == 2 and s.left == 2
    GAME.check_invariants(s)


def test_only_double_turn_players_exchange():
    s = to_track(started(3), 0)
    for seat in (0, 1, 2):
        s = act(s, seat, legal_texts(s, seat)[0])
    assert s.phase == "track" and s.track_turn == 2  # nobody played a double turn: no exchange step


# ---------------------------------------------------------------- SF-4 drawing
def to_draw(s, seat):
    s = s.clone()
    s.phase, s.first, s.order_pos = "draw", seat, 0
    return s


def test_draw_back_to_five_and_spur_cost_and_one_spur():
    s = started(3)
    s.players[0].hand = s.players[0].hand[:2]
    s.removed += started(3).players[0].hand[2:]  # keep the cards counted
    s = to_draw(s, 0)
    assert s.players[0].hand_size() == 3
    s = act(s, 0, "draw spur UP")
    assert s.players[0].money == 1 and s.players[0].spur == RR["UP"] and s.spurs[RR["UP"]] == 1
    assert not any(a.what == "spur" for a in GAME.legal_actions(s, 0))  # at most one spur in hand
    assert code_of(GAME.apply, s, 0, Draw(what="spur", rr=RR["SF"])) == "santa_fe.one_spur"
    s = act(s, 0, "draw double")
    assert s.players[0].hand_size() == 5
    assert s.phase == "choose" and s.round == 2  # the others were full: the marker passed left
    assert s.first == 1


def test_spur_costs_two_in_the_advanced_game_and_needs_money():
    s = GAME.setup(2, {"advanced": True, "first_player": 0}, 3)
    card = s.players[0].hand[0]
    s.players[0].hand.remove(card)
    s.removed.append(card)
    s = to_draw(s, 0)
    s = act(s, 0, "draw spur KP")
    assert s.players[0].money == 3
    s2 = to_draw(started(2), 0)
    s2.players[0].money = 0
    c = s2.players[0].hand.pop()
    s2.removed.append(c)
    assert not any(a.what == "spur" for a in GAME.legal_actions(s2, 0))
    assert code_of(GAME.apply, s2, 0, Draw(what="spur", rr=0)) == "santa_fe.cannot_afford"


def test_two_draws_after_playing_two_cards_and_fewer_when_nothing_is_left():
    s = started(2)
    s.round = 2
    s.players[0].spur = RR["GN"]
    s.spurs[RR["GN"]] -= 1
    s.removed.append(s.players[0].hand.pop())  # a hand of five: four cards and the spur
    s = act(s, 0, f"play {BOARD.cities[s.players[0].hand[0]].name}+spur")
    s = act(s, 1, legal_texts(s, 1)[0])
    while s.phase == "track":
        seat = next(iter(GAME.active_players(s)))
        s = act(s, seat, legal_texts(s, seat)[0])
    assert s.phase == "draw" and s.players[0].hand_size() == 3
    assert s.spurs_used == 1 and s.players[0].spur_active == -1  # SF-5: the spur left the game
    s = act(s, 0, "draw city")
    assert GAME.active_players(s) == {0}
    s = act(s, 0, "draw spur GN")
    assert s.players[0].hand_size() == 5 and GAME.active_players(s) == {1}


def test_a_player_who_cannot_draw_draws_fewer():
    s = to_draw(started(2), 0)
    s.removed += s.deck + s.players[0].hand[:3]
    s.deck = []
    s.players[0].hand = s.players[0].hand[3:]
    s.players[0].money = 0
    assert s.double_pile == 1
    GAME.check_invariants(s)
    assert legal_texts(s, 0) == ["draw double"]
    res = GAME.apply(s, 0, Draw(what="double"))
    assert res.state.players[0].hand_size() == 3 and res.state.phase == "choose"
    assert "santa_fe.ev.cannot_draw" in [e.key for e in res.events]


# ---------------------------------------------------------------- SF-5 double turn returns
def test_double_turn_card_returns_to_the_pile_after_the_second_turn():
    s = to_track(started(2), 0, double=True)
    pile = s.double_pile
    while s.phase in ("track", "exchange"):
        seat = min(GAME.active_players(s))
        s = act(s, seat, legal_texts(s, seat)[0])
    assert s.double_pile == pile + 1
    GAME.check_invariants(s)


# ---------------------------------------------------------------- SF-6 lines, heads and spurs
def test_first_tiles_leave_the_start_cities():
    s = to_track(started(3), 0)
    texts = legal_texts(s, 0)
    starts = {rr.code: rr.start for rr in BOARD.railroads}
    for t in texts:
        _, code, path = t.split(" ", 2)
        assert path.startswith(starts[code] + ">")
    assert "place UP Chicago>Omaha" in texts and "place UP Chicago>Omaha/2" in texts


def test_tiles_extend_line_heads_only():
    s = build(to_track(started(3), 0), "KP", "Kansas City>Wichita")
    texts = [t for t in legal_texts(s, 0) if " KP " in t]
    assert set(texts) == {"place KP Wichita>Oklahoma City", "place KP Wichita>Dodge City"}
    assert code_of(act, s, 0, "place KP Kansas City>Omaha") == "santa_fe.not_at_head"
    s = act(s, 0, "place KP Wichita>Oklahoma City")
    s = act(s, 1, "place KP Wichita>Oklahoma City")  # the section goes on from its built end
    assert GAME.view(s, None).connected[city("Oklahoma City")] == 1 << RR["KP"]


def test_spur_starts_a_new_line_from_any_reached_city_at_most_three_lines():
    s = build(to_track(started(3), 0), "KP", "Kansas City>Wichita", "Wichita>Dodge City")
    s.players[0].spur_active = RR["KP"]
    s.spurs[RR["KP"]] -= 1
    texts = legal_texts(s, 0)
    assert "spur KP Kansas City>Omaha" in texts and "spur KP Wichita>Oklahoma City" in texts
    assert "spur KP Dodge City>Pueblo" in texts and not any(t.startswith("spur UP") for t in texts)
    s = act(s, 0, "spur KP Kansas City>Omaha")
    assert len(s.lines[RR["KP"]]) == 2 and s.players[0].spur_used
    assert code_of(act, s, 1, "spur KP Wichita>Oklahoma City") == "santa_fe.no_spur_for"
    t = s.clone()
    t.lines[RR["KP"]].append((city("Kansas City"), -1, 0, 0))
    t.players[1].spur_active = RR["KP"]
    t.spurs[RR["KP"]] -= 1
    t.first, t.order_pos = 1, 0
    assert not any(x.startswith("spur") for x in legal_texts(t, 1))
    assert code_of(act, t, 1, "spur KP Wichita>Oklahoma City") == "santa_fe.max_lines"


# ---------------------------------------------------------------- SF-7 sections and double lines
def test_section_is_built_from_its_starting_end_only():
    s = build(to_track(started(3), 0), "SP", "New Orleans>Dallas")
    s = build(s, "SF", "Chicago>Kansas City", "Kansas City>Oklahoma City")
    s = act(s, 0, "place SP Dallas>Oklahoma City")
    assert code_of(act, s, 1, "place SF Oklahoma City>Dallas") == "santa_fe.section_taken"
    assert "place SF Oklahoma City>Dallas" not in legal_texts(s, 1)


def test_one_railroad_may_not_hold_both_lines_of_a_double():
    s = to_track(started(3), 0)
    s = act(s, 0, "place UP Chicago>Omaha")
    assert "place UP Chicago>Omaha/2" not in legal_texts(s, 1)
    assert code_of(act, s, 1, "place UP Chicago>Omaha/2") == "santa_fe.both_doubles"
    assert "place SF Chicago>Omaha/2" in legal_texts(s, 1)  # another railroad may
    s = act(s, 1, "place SF Chicago>Omaha/2")
    assert s.sec_rr[section("Chicago>Omaha/2")[0]] == RR["SF"]


# ---------------------------------------------------------------- SF-8 must place; dead ends
def test_basic_game_has_no_pass():
    s = to_track(started(3), 0)
    assert "pass" not in legal_texts(s, 0)
    assert code_of(GAME.apply, s, 0, Pass()) == "santa_fe.cannot_pass"


def test_a_line_may_dead_end_and_then_only_a_spur_grows_it():
    s = build(to_track(started(3), 0), "KP", "Kansas City>Oklahoma City", "Oklahoma City>Wichita",
              "Wichita>Dodge City", "Dodge City>Amarillo")
    s = build(s, "SF", "Chicago>Kansas City/2", "Kansas City>Dodge City")
    s = build(s, "SP", "New Orleans>Dallas", "Dallas>Amarillo")
    s = build(s, "UP", "Chicago>Omaha", "Omaha>Denver", "Denver>Pueblo", "Pueblo>Santa Fe", "Santa Fe>Albuquerque")
    s = build(s, "GN", "Milwaukee>Chicago")
    sid, _ = section("Oklahoma City>Amarillo")
    s.sec_rr[sid], s.sec_built[sid] = RR["SP"], 1
    s.supply[RR["SP"]] -= 1
    s = act(s, 0, "place SP Amarillo>Albuquerque")  # KP's head at Amarillo is now dead-ended
    s.players[1].revealed = Choice(card=s.players[1].hand[0])
    assert not any(" KP " in t for t in legal_texts(s, 1))
    s.players[1].spur_active = RR["KP"]
    s.spurs[RR["KP"]] -= 1
    assert "spur KP Kansas City>Omaha" in legal_texts(s, 1)


# ---------------------------------------------------------------- SF-9 bonuses
def test_first_connection_and_special_city_bonuses():
    s = build(to_track(started(3), 0), "SF", "Chicago>Kansas City", "Kansas City>Oklahoma City",
              "Oklahoma City>Dallas")
    s = act(s, 0, "place SF Dallas>Houston")
    s = act(s, 1, "place KP Kansas City>Wichita")
    s = act(s, 2, "place SF Dallas>Houston")
    assert s.players[2].money == 2 + 6  # rulebook example: Houston, first and special: $6
    s2 = build(to_track(started(3), 0), "SF", "Chicago>Kansas City", "Kansas City>Oklahoma City",
               "Oklahoma City>Dallas")
    s2 = to_track(s2, 1, double=True)
    s2 = act(s2, 1, "place SF Dallas>Houston")
    res = GAME.apply(s2, 1, GAME.parse_action("place SF Dallas>Houston"))
    assert res.state.players[1].money == 2 + 12  # doubled by the double turn
    keys = [e.key for e in res.events]
    assert "santa_fe.ev.bonus_city" in keys and "santa_fe.ev.bonus_special" in keys


def test_no_city_bonus_for_the_second_railroad_and_no_bonus_for_start_cities():
    s = build(to_track(started(3), 0), "KP", "Kansas City>Wichita")
    s = build(s, "SF", "Chicago>Kansas City", "Kansas City>Dodge City")
    s = act(s, 0, "place SF Dodge City>Wichita")
    assert s.players[0].money == 2 and s.connected[city("Wichita")] == (1 << RR["KP"]) | (1 << RR["SF"])
    t = to_track(started(3), 0)
    t = act(t, 0, "place GN Milwaukee>Chicago")
    assert t.players[0].money == 2  # Chicago has no value


# ---------------------------------------------------------------- SF-10 the end, scoring, ties
def test_game_ends_when_a_player_cannot_place_whatever_spurs_others_hold():
    s = to_track(started(3), 0)
    s.supply = [0, 0, 0, 0, 1]
    s.removed = []
    s = build_exhausted(s)
    s.players[2].spur = RR["SF"]
    s.spurs[RR["SF"]] -= 1
    s = act(s, 0, "place KP Kansas City>Wichita")
    assert s.phase == "over" and s.end_reason == "all_placed"


def build_exhausted(s):
    """Move every tile but the supply left into sections (conservation kept for the test)."""
    s = s.clone()
    for r, rr in enumerate(BOARD.railroads):
        placed = rr.tiles - s.supply[r] - sum(p.bought[r] for p in s.players) \
            - sum(b for sid, b in enumerate(s.sec_built) if s.sec_rr[sid] == r)
        for sid, sec in enumerate(BOARD.sections):
            if placed <= 0:
                break
            if s.sec_rr[sid] == -1 and BOARD.start_city[RR["KP"]] not in BOARD.ends[sid] \
                    and (BOARD.twin[sid] < 0 or s.sec_rr[BOARD.twin[sid]] != r):
                k = min(sec.spaces, placed)
                s.sec_rr[sid], s.sec_built[sid] = r, k
                placed -= k
    GAME.check_invariants(s)
    return s


def test_blocked_player_ends_the_game():
    s = to_track(started(3), 0)
    s = build(s, "KP", "Kansas City>Wichita")
    t = s.clone()
    for r in range(5):
        if r != RR["KP"]:
            t.supply[r] = 0
    # every section out of Wichita is taken by others: KP is dead-ended
    for path in ("Wichita>Oklahoma City", "Wichita>Dodge City"):
        sid, _ = section(path)
        t.sec_rr[sid], t.sec_built[sid] = RR["SF"], 1
    res = GAME.apply(s.model_copy(), 0, GAME.legal_actions(s, 0)[0])  # a legal game goes on
    assert res.state.phase == "track"
    GAME._check_can_place(t, 0, [])
    assert t.phase == "over" and t.end_reason == "blocked" and t.ended_by == 0
    assert GAME.result(t) is not None


def test_score_is_money_plus_value_times_railroads_and_ties_go_to_sevens():
    s = started(2)
    s.phase, s.end_reason = "over", "blocked"
    la, sd, omaha = city("Los Angeles"), city("San Diego"), city("Omaha")
    s.players[0].played, s.players[1].played = [la], [omaha, omaha]
    s.connected[la] = 0b11
    s.connected[omaha] = 0b1111
    s.players[0].money, s.players[1].money = 2, 0
    r = GAME.result(s)
    p0 = next(p for p in r.players if p.seat == 0)
    p1 = next(p for p in r.players if p.seat == 1)
    assert p0.total == 2 + 14 and p1.total == 16  # 7×2 + $2 against 2×4 twice
    assert p0.rank == 1 and p1.rank == 2 and p0.stats["sevens"] == 1  # the tie goes to the 7-value card
    assert [(t.above, t.below, t.key, t.params["above"], t.params["below"]) for t in r.ties] == [
        (0, 1, "santa_fe.tie.sevens", 1, 0)]
    assert p0.by_category() == {"money": 2, "cities": 14}
    s.players[1].played = [omaha, omaha, sd]  # San Diego unconnected: 0 points, but a 7-value card
    shared = GAME.result(s)
    assert [p.rank for p in shared.players] == [1, 1]  # still tied: shared
    assert [(t.key, t.shared) for t in shared.ties] == [("santa_fe.tie.shared", True)]


# ---------------------------------------------------------------- SF-11 advanced game
def adv_track(seat=0, seed=7, **kw):
    s = GAME.setup(3, {"advanced": True, "first_player": 0, **kw}, seed)
    for i in range(3):
        s = act(s, i, "engineer no")
    return to_track(s, seat)


def test_engineer_bought_before_the_first_round():
    s = GAME.setup(3, {"advanced": True, "first_player": 1}, 4)
    s = act(s, 1, "engineer yes")
    assert s.players[1].money == 1 and s.players[1].engineer and s.engineers == 4
    s = act(s, 2, "engineer no")
    s = act(s, 0, "engineer no")
    assert s.phase == "choose" and GAME.active_players(s) == {0, 1, 2}


def test_terrain_costs_and_the_engineer():
    s = adv_track()
    s = act(s, 0, "place UP Chicago>Omaha")  # space 1: no river
    assert s.players[0].money == 5
    s = act(s, 1, "place UP Chicago>Omaha")  # space 2 crosses the Mississippi
    assert s.players[1].money == 4
    m = build(adv_track(), "UP", "Chicago>Omaha", "Omaha>Cheyenne")
    m = act(m, 0, "place UP Cheyenne>Rock Springs")  # mountain line
    assert m.players[0].money == 4
    both = build(adv_track(), "KP", "Kansas City>Omaha", "Omaha>Denver")
    both = act(both, 0, "place KP Denver>Salt Lake City")  # mountain line crossing the Colorado: $2
    assert both.players[0].money == 3
    eng = build(adv_track(), "KP", "Kansas City>Omaha", "Omaha>Denver")
    eng.players[0].engineer, eng.engineers = True, 4
    eng = act(eng, 0, "place KP Denver>Salt Lake City")  # SF-11: a mountain river crossing is free too
    assert eng.players[0].money == 5
    hill = build(adv_track(), "UP", "Chicago>Omaha", "Omaha>Cheyenne")
    hill.players[0].engineer, hill.engineers = True, 4
    hill = act(hill, 0, "place UP Cheyenne>Rock Springs")  # a mountain line without a river: still $1
    assert hill.players[0].money == 4


def test_engineer_cost_on_every_space_of_the_map():
    """SF-11 over the whole map: with an engineer, every river space costs $0 (mountain or
    not) and every other space costs what it costs without one."""
    checked = 0
    for sid, section in enumerate(BOARD.sections):
        for end in (0, 1):
            for built in range(section.spaces):
                river = BOARD.river_at(sid, built, end)
                with_engineer = BOARD.space_cost(sid, built, True, end)
                without = BOARD.space_cost(sid, built, False, end)
                if river:
                    assert with_engineer == 0, (section.code, built, end)
                    assert without == BOARD.rules.river_cost + (BOARD.rules.mountain_cost if section.mountain else 0)
                    checked += section.mountain
                else:
                    assert with_engineer == without
    assert checked > 0, "the map has mountain river crossings"


def test_a_placement_that_cannot_be_paid_is_not_legal_and_passing():
    s = build(adv_track(), "KP", "Kansas City>Omaha", "Omaha>Denver")
    s.players[0].money = 1
    assert "place KP Denver>Salt Lake City" not in legal_texts(s, 0)
    assert code_of(act, s, 0, "place KP Denver>Salt Lake City") == "santa_fe.cannot_afford"
    assert "pass" in legal_texts(s, 0)
    s2 = act(s, 0, "pass")
    assert GAME.active_players(s2) == {1}


def test_everyone_passing_one_track_turn_ends_the_game():
    s = adv_track()
    s = act(s, 0, "pass")
    s = act(s, 1, "pass")
    assert s.phase == "track"
    s = act(s, 2, "pass")
    assert s.phase == "over" and s.end_reason == "all_passed" and GAME.result(s)
    t = adv_track()
    t = act(t, 0, "pass")
    t = act(t, 1, "place UP Chicago>Omaha")
    t = act(t, 2, "pass")
    assert t.phase == "track" and t.track_turn == 2


def test_engineer_taken_instead_of_a_card_limits_the_hand_to_four():
    s = adv_track()
    s = to_draw(s, 0)
    card = s.players[0].hand.pop()
    s.removed.append(card)
    s = act(s, 0, "draw engineer")
    assert s.players[0].engineer and s.players[0].hand_size() == 4 and GAME.active_players(s) != {0}
    assert not any(a.what == "engineer" for a in GAME._draws(s, 0))


# ---------------------------------------------------------------- SF-12 buying track
def test_buying_a_tile_and_using_it_only_after_the_supply_is_gone():
    s = started(2, buy_track=True)
    s.phase, s.first, s.order_pos = "buy", 0, 0
    s = act(s, 0, "buy KP")
    assert s.players[0].money == 1 and s.players[0].bought[RR["KP"]] == 1 and s.supply[RR["KP"]] == 16
    s = act(s, 1, "buy none")
    assert s.phase == "choose" and s.round == 2
    t = to_track(s, 0)
    assert "place KP Kansas City>Wichita" in legal_texts(t, 0)
    t.supply[RR["KP"]] = 0
    t = build_exhausted(t)
    assert "place KP Kansas City>Wichita" in legal_texts(t, 0)  # own bought tile, supply gone
    assert "place KP Kansas City>Wichita" not in legal_texts(to_track(t, 1), 1)  # not for others
    u = act(t, 0, "place KP Kansas City>Wichita")
    assert u.players[0].bought[RR["KP"]] == 0


def test_declining_own_tiles_counts_as_unable_to_place():
    s = to_track(started(2, buy_track=True), 0)
    s.supply = [0, 0, 0, 0, 0]
    s.players[0].bought[RR["KP"]] = 1
    s.supply[RR["KP"]] = 0
    s = build_exhausted(s)
    texts = legal_texts(s, 0)
    assert "decline" in texts and all(t.startswith("place KP") or t == "decline" for t in texts)
    s = act(s, 0, "decline")
    assert s.phase == "over" and s.end_reason == "blocked"
    u = to_track(started(2, buy_track=True), 0)
    assert "decline" not in legal_texts(u, 0) and code_of(act, u, 0, "decline") == "santa_fe.cannot_decline"


# ---------------------------------------------------------------- SF-13 public and private
def test_views_hide_hands_and_show_public_facts():
    s = started(3)
    s.players[1].spur = RR["SP"]
    s.spurs[RR["SP"]] -= 1
    v = GAME.view(s, 0)
    assert v.players[0].hand == s.players[0].hand and v.players[1].hand is None and v.players[2].hand is None
    assert v.players[1].spur == RR["SP"] and v.players[1].hand_size == 6 and v.players[1].doubles == 1
    spectator = GAME.view(s, None)
    assert all(p.hand is None for p in spectator.players) and spectator.legal == []


# ---------------------------------------------------------------- wrong phase and notation
def test_wrong_phase_and_wrong_turn():
    s = started(3)
    assert code_of(act, s, 0, "draw city") == "santa_fe.wrong_phase"
    t = to_track(s, 0)
    assert code_of(act, t, 1, "place UP Chicago>Omaha") == "not_active"


@pytest.mark.parametrize("text", ["", "place XX Chicago>Omaha", "place UP Chicago>Atlantis", "play Atlantis",
                                  "draw money", "fly away", "place UP Chicago>Denver"])
def test_garbage_is_refused_with_a_code(text):
    with pytest.raises(IllegalAction) as err:
        GAME.parse_action(text)
    assert err.value.code in ("unparsable", "santa_fe.unknown_railroad", "santa_fe.unknown_city", "santa_fe.unknown_section")


def test_river_crossing_is_charged_where_the_river_is_whichever_end_builds():
    """Chicago–Kansas City crosses the Mississippi one space out of Chicago (its `a` end).
    Built from Chicago that is the 2nd tile; built from Kansas City it is the 3rd."""
    sid, end_from_chicago = section("Chicago>Kansas City")
    assert BOARD.river_spaces[sid] == frozenset({1}) and end_from_chicago == 0
    from_chicago = [BOARD.space_cost(sid, built, False, 0) for built in range(4)]
    from_kc = [BOARD.space_cost(sid, built, False, 1) for built in range(4)]
    assert from_chicago == [0, 1, 0, 0]
    assert from_kc == [0, 0, 1, 0]
    assert [BOARD.space_cost(sid, built, True, 1) for built in range(4)] == [0, 0, 0, 0]
