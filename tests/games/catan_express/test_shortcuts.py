"""Catan Express's fast paths agree with the plain rules they stand for.

The engine answers most questions without listing moves or re-deriving the board (phases/,
derived.py): `apply` asks the rule for one move directly instead of looking for it in
`legal_actions`, board facts are kept beside a state while its pieces and buildings stay the
same objects, menus are built from cached moves, and the random bot draws its numbers by hand.
Each of those is checked here against the plain definition, on states from real games:

- `allows` says yes to exactly the moves on the menu (and, where it is documented as wider, to
  what the economy accepts: a bank trade of several lots; and to an offer on any terms within
  what the others could give, CE-B5);
- a state rebuilt from its JSON (no derived facts) lists the same moves, and the points add up;
- the offer, discard and gold menus are the definition's, in its order;
- the random bot's draws are those of `random.Random.choice` and `shuffle`.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

from games.core.errors import IllegalAction
from games.catan_express import bots, economy
from games.catan_express.phases import moves
from games.catan_express.components import RESOURCES
from games.catan_express.models import (MAX_OFFERS, OFFER_GET_MAX, OFFER_GIVE_MAX, Answer, BankTrade, Build, Buy,
                                        CatanState, Discard, End, Gold, Leg, Menu, Monopoly, NameStop, Partner, Plenty,
                                        Propose, Ride, Roads, Robber, Roll)
from games.catan_express.rules import GAME

NAMES = [r.value for r in RESOURCES]


def _one(i: int, n: int = 1) -> tuple[int, ...]:
    out = [0] * len(RESOURCES)
    out[i] = n
    return tuple(out)


def _states(n: int, map_id: str, seed: int, count: int) -> list[CatanState]:
    """`count` states spread evenly along a game of the random bot (which tries every kind of
    move), from the setup to the race,"""
    rng = random.Random(seed)
    state = GAME.setup(n, {"map": map_id}, seed)
    bot = bots.RandomBot()
    seen = []
    while state.phase != "over":
        seen.append(state)
        seat = min(GAME.active_players(state))
        state = GAME.apply(state, seat, bot.choose(GAME, state, seat, rng)).state
    # and every state of naming the stops (a few moves of a whole game)
    return seen[::max(1, len(seen) // count)] + [s for s in seen if s.phase == "stops"]


@lru_cache(maxsize=None)
def states() -> list[CatanState]:
    return [s for n, m, seed in [(3, "main", 5), (4, "main", 2), (4, "islands", 1), (5, "islands", 5), (6, "main", 1)]
            for s in _states(n, m, seed, count=50)]


@lru_cache(maxsize=None)
def _board_moves(map_id: str, layout: str, seed: int, n: int) -> tuple:
    """The moves of a board and table size, legal or not: every place to build, every robber
    move, bank trades at every ratio, offers in and out of bounds, partners, card plays."""
    state = GAME.setup(n, {"map": "islands" if map_id.startswith("islands") else "main", "layout": layout}, seed)
    geo = GAME.geo(state)
    board = GAME.board(state)
    out: list = [End(), Roll(), Buy(), Roads(), Answer(accept=True), Answer(accept=False), Partner()]
    out += [Partner(seat=s) for s in range(n)]
    out += [Monopoly(resource=r) for r in NAMES]
    for pt in geo.intersections:
        out += [Build(what="settlement", at=str(pt)), Build(what="city", at=str(pt))]
    for piece in geo.pieces:
        out += [Build(what="rail", at=piece), Build(what="ferry", at=piece)]
    out += [Build(what="settlement", at="C3"), Build(what="rail", at="nowhere")]
    labels = [board.label(x.hex) for x in board.land] + ["A1", "Z9", "?"]
    labels += [lab.lower() for lab in labels[:3]]  # written otherwise than printed: refused
    for lab in labels:
        for victim in [None, *range(n)]:
            out += [Robber(hex=lab, victim=victim, knight=k) for k in (False, True)]
    for i in range(len(RESOURCES)):
        for j in range(len(RESOURCES)):
            for ratio in (1, 2, 3, 4):
                out.append(BankTrade(give=_one(i, ratio), get=_one(j, 1)))
                out.append(BankTrade(give=_one(i, 2 * ratio), get=tuple(a + b for a, b in zip(_one(j), _one((j + 1) % 5)))))
    out += [Propose(give=_one(i, k), get=_one(j, m)) for i in range(5) for j in range(5) for k in (0, 1, 4)
            for m in (1, 3, 7)]
    out += [Propose(give=tuple(a + b for a, b in zip(_one(i, 2), _one((i + 1) % 5, 3))), get=_one((i + 2) % 5, m))
            for i in range(5) for m in (5, 19, 20, 24, 25)]
    return tuple(out)


def _offer_by_definition(state: CatanState, seat: int, offer: Propose) -> bool:
    """CE-B5, written plainly: on one's own turn after the roll, not yet moving, at most
    MAX_OFFERS a turn; something each way, never one resource on both sides, only cards one
    holds, and of a resource no more than there are in the game (all hands and the bank)."""
    if state.phase != "main" or state.moving or state.offers_made >= MAX_OFFERS or seat != state.current:
        return False
    hand = state.players[seat].hand
    give, get = offer.give, offer.get
    there = [state.bank[r] + sum(q.hand[r] for q in state.players) for r in range(5)]
    return (sum(give) > 0 and sum(get) > 0 and not any(g and w for g, w in zip(give, get))
            and all(g <= h for g, h in zip(give, hand)) and all(w <= t for w, t in zip(get, there)))


def _candidates(state: CatanState, seat: int, rng: random.Random) -> list:
    """Moves of every kind for this position, legal or not: the board's (above), stops, every
    single leg from the locomotive, and card choices of random sizes."""
    geo = GAME.geo(state)
    n = state.n
    out = list(_board_moves(state.map_id, state.options.layout, state.seed, n))
    out += [NameStop(at=pt) for pt in list(state.buildings)[:12]] + [NameStop(at=0)]
    p = state.players[seat]
    if p.loco is not None:
        for piece in geo.at.get(str(p.loco), ()):
            to = geo.other_end(piece, str(p.loco))
            out.append(Ride(legs=(Leg(to=to),)))
            out += [Ride(legs=(Leg(to=to, payee=s, resource=r),)) for s in range(n) for r in NAMES]
            out.append(Ride(legs=(Leg(to=to, resource="ore"),)))
    hand = p.hand
    for model in (Discard, Gold, Plenty):
        for _ in range(6):
            out.append(model(cards=tuple(rng.randint(0, max(1, h)) for h in hand)))
    return out


def test_allows_says_yes_to_exactly_the_menus_moves():
    rng = random.Random(7)
    checked = riding = 0
    phases = set()
    for state in states():
        for seat in sorted(GAME.active_players(state)):
            legal = GAME.legal_actions(state, seat)
            menu = set(legal)
            phases.add(state.phase)
            for action in legal:
                assert GAME.allows(state, seat, action), (state.phase, action)
            riding += GAME.may_ride(state, seat)
            for action in _candidates(state, seat, rng):
                if action.kind == "bank":
                    # Wider than the menu: any whole number of lots the economy accepts.
                    try:
                        economy.bank_trade(GAME.holdings(state), seat, economy.Hand(action.give),
                                           economy.Hand(action.get), GAME.harbours(state, seat))
                        expected = state.phase == "main" and not state.moving
                    except IllegalAction:
                        expected = False
                    assert expected or action not in menu
                elif action.kind == "offer":
                    # Wider than the menu, which suggests small offers: any terms (CE-B5).
                    expected = _offer_by_definition(state, seat, action)
                    assert expected or action not in menu
                else:
                    expected = action in menu
                assert GAME.allows(state, seat, action) == expected, (state.phase, action)
                checked += 1
    assert {"setup", "roll", "main", "answer", "pick", "robber", "discard", "special", "stops"} <= phases, phases
    assert riding >= 10 and checked > 50_000, (riding, checked)


def test_a_refused_move_is_refused_by_apply_with_the_input_untouched():
    rng = random.Random(3)
    for state in states()[::5]:
        seat = min(GAME.active_players(state))
        before = state.model_dump_json()
        menu = set(GAME.legal_actions(state, seat))
        for action in rng.sample(_candidates(state, seat, rng), 40):
            if action in menu or action.kind == "bank" or (
                    action.kind == "offer" and _offer_by_definition(state, seat, action)):
                continue
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, action)
        assert state.model_dump_json() == before


def test_a_state_read_back_from_json_lists_the_same_moves_and_points():
    for state in states():
        fresh = CatanState.model_validate_json(state.model_dump_json())
        assert "_derived" not in fresh.__dict__
        for seat in range(state.n):
            assert GAME.legal_actions(fresh, seat) == GAME.legal_actions(state, seat)
            for what in ("settlement", "city", "rail", "ferry"):
                assert GAME.pieces_left(fresh, seat, what) == GAME.pieces_left(state, seat, what)
        by_category = [sum(p.values()) for p in GAME.points_by_seat(state)]
        assert GAME.totals(state) == GAME.totals(fresh) == by_category


def test_derived_facts_follow_an_edited_copy():
    state = states()[40]
    seat = state.current
    GAME.legal_actions(state, seat)  # the facts are derived for this state
    spots = GAME.piece_spots(state, GAME.geo(state), seat, "rail")
    assert spots
    edited = state.clone()
    for piece in spots:
        edited.pieces[piece] = [seat]
    # The clone owns its dicts and none of the original's facts: its spots move on.
    assert not set(spots) & set(GAME.piece_spots(edited, GAME.geo(edited), seat, "rail"))
    assert GAME.piece_spots(state, GAME.geo(state), seat, "rail") == spots


def _offers_by_definition(hand: tuple[int, ...]) -> list[Propose]:
    out = []
    for k in range(1, OFFER_GIVE_MAX + 1):
        for give in moves.multisets(hand, k):
            free = tuple(0 if g else OFFER_GET_MAX for g in give)
            for m in range(1, OFFER_GET_MAX + 1):
                out += [Propose(give=give, get=get) for get in moves.multisets(free, m)]
    return out


def test_menus_of_cards_are_the_definitions_in_order():
    rng = random.Random(11)
    for _ in range(300):
        hand = tuple(rng.randint(0, 7) for _ in range(5))
        size = rng.randint(0, 12)
        assert list(moves.multisets(hand, size)) == list(moves.multisets_by_recursion(hand, size))
        assert list(moves.offers_for(hand)) == _offers_by_definition(hand)
        for kind, model in (("discard", Discard), ("gold", Gold), ("plenty", Plenty)):
            assert list(moves.card_moves(kind, hand, size)) == [model(cards=c) for c in
                                                                   moves.multisets_by_recursion(hand, size)]
    assert moves.multisets((1, 2), 2) == ((1, 1), (0, 2))  # other lengths than five still work


def test_random_bot_draws_as_random_random_does():
    for seed in range(50):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 6, 10, 17, 100, 1000):
            assert bots._below(mine, n) == theirs.randrange(n)
        items = list(range(10))
        copy = list(items)
        bots._shuffle(mine, items)
        theirs.shuffle(copy)
        assert items == copy
        assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        bots._below(random.Random(1), 0)


def test_menus_say_where_each_kind_lies():
    for state in states():
        for seat in range(state.n):
            legal = GAME.legal_actions(state, seat)
            assert isinstance(legal, Menu) and legal.runs_hold()
            kinds = [kind for kind, start, stop in legal.runs for _ in range(start, stop)]
            assert kinds == [a.kind for a in legal]
    main = next(s for s in states() if s.phase == "main" and not s.moving and sum(s.players[s.current].hand))
    menu = GAME.legal_actions(main, main.current)
    assert len(menu.runs) >= 2
    menu.reverse()
    assert not menu.runs_hold()


def test_random_bot_picks_as_the_plain_grouping_does():
    # The kinds in order of first appearance, rides with several legs a kind of their own.
    rng = random.Random(5)
    for state in states():
        seat = min(GAME.active_players(state))
        legal = GAME.legal_actions(state, seat)
        for _ in range(3):
            shuffled = rng.sample(legal, len(legal)) if rng.random() < 0.5 else legal
            a, b = random.Random(len(shuffled)), random.Random(len(shuffled))
            by_kind: dict[str, list] = {}
            for move in shuffled:
                by_kind.setdefault(bots._kind(move), []).append(move)
            ends = by_kind.pop("end", None)
            kinds = list(by_kind)
            if ends is not None and (not kinds or b.random() < bots.END_CHANCE):
                expected = ends[0]
            else:
                options = by_kind[b.choice(kinds)]
                expected = b.choice(options)
            assert bots.RandomBot.pick(shuffled, a) == expected


def test_a_robber_label_written_otherwise_than_printed_is_refused_with_its_reason() -> None:
    """"b5" for the printed "B5" would be stored as typed and then block no production."""
    state = GAME.setup(3, {}, 5)
    bot, rng = GAME.bots()["random"], random.Random(1)
    while state.phase != "robber":
        seat = min(GAME.active_players(state))
        state = GAME.apply(state, seat, bot.choose(GAME, state, seat, rng)).state
    seat = min(GAME.active_players(state))
    move = next(a for a in GAME.legal_actions(state, seat) if a.kind == "robber")
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, Robber(hex=move.hex.lower(), victim=move.victim))
    assert refused.value.code == "catan_express.robber_on_land"
    GAME.apply(state, seat, move)  # the label as printed is fine
