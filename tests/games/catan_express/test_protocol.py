"""Catan Express through whole games: the checks every game passes (tests/support/protocol_checks.py)
on 3–6 seats and both maps, privacy of every view (CE-12), conservation of resource and
development cards after every move, every word the engine uses present in English and Japanese,
and every refusal it raises catalogued.

Games are played by the game's own bots (games/catan_express/bots.py: the builder, and the random
bot that tries every kind of move) and by uniformly random legal moves. CE_GAMES raises the number
of conservation games (the default keeps this file quick): `CE_GAMES=2000 pytest -s
tests/games/catan_express/test_protocol.py -k conservation` prints games, moves and time.
"""
from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from games.core.errors import message_key_of
from games.core.errors import IllegalAction
from games.core.i18n import catalog
from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES, components
from games.catan_express.rules import GAME
from tests.support.protocol_checks import (catalog_keys, check_decisions, walk_checking_decisions,
                                           walk_checking_round_trips)
from tests.support.random_play import random_walk

CONFIGS = [(n, m) for n in (3, 4, 5, 6) for m in ("main", "islands")]
# Seeds of the uniformly random walks: with 3 and 4 players these reach the race within the
# walk's 1700 steps (checked below); 5 and 6 players are slower to get there.
WALK_SEEDS = {(3, "main"): 133, (3, "islands"): 138, (4, "main"): 100, (4, "islands"): 104,
              (5, "main"): 105, (5, "islands"): 105, (6, "main"): 106, (6, "islands"): 106}
WALK_STEPS = 1700
LANGS = ("en", "ja")


# A bot game still running after this many moves is one nobody can finish (see
# test_race.py, test_a_race_nobody_can_finish_still_ends): its moves are checked all the
# same, and the games that use `play` count it rather than wait for it.
MAX_MOVES = 5000


def play(n: int, seed: int, map_id: str, lineup: tuple[str, ...] | None = None, *, each=None,
         max_moves: int | None = None):
    """One whole game by bots (`lineup`: a bot name per seat, builders by default). Among
    several active seats (discards, answers) a random one moves first, so simultaneous choices
    come in every order. `each(before, seat, action, result)` sees every move. Returns the
    final state and the number of moves; with `max_moves` a game may stop unfinished there
    (without it, an unfinished game after MAX_MOVES fails the test)."""
    bots = GAME.bots()
    lineup = lineup or ("builder",) * n
    rng = random.Random(seed)
    state = GAME.setup(n, {"map": map_id}, seed)
    moves = 0
    while GAME.result(state) is None:
        seat = rng.choice(sorted(GAME.active_players(state)))
        action = bots[lineup[seat]].choose(GAME, state, seat, rng)
        result = GAME.apply(state, seat, action)
        if each is not None:
            each(state, seat, action, result)
        state = result.state
        moves += 1
        if max_moves is not None and moves >= max_moves:
            break
        assert moves < MAX_MOVES, _stuck(state, seed, n, map_id, lineup)
    return state, moves


def _stuck(state, seed, n, map_id, lineup) -> str:
    """What a game that does not end looks like, for the report."""
    seats = [f"seat {i}: loco {p.loco}, towers {p.towers}, hand {p.hand}, rails left "
             f"{GAME.pieces_left(state, i, 'rail')}, ferries left {GAME.pieces_left(state, i, 'ferry')}"
             for i, p in enumerate(state.players)]
    return (f"the game does not end: seed {seed}, {n} players, {map_id}, {lineup}; turn {state.turn}, "
            f"phase {state.phase}, race {state.race}, stops {state.stops}; " + "; ".join(seats))


# --- conformance --------------------------------------------------------------------------

@pytest.mark.parametrize("n, map_id", CONFIGS)
def test_moves_and_states_round_trip(n, map_id):
    walk_checking_round_trips(GAME, WALK_SEEDS[n, map_id], n, WALK_STEPS, {"map": map_id})


@pytest.mark.parametrize("n, map_id", CONFIGS)
def test_random_play_keeps_every_menu_exact(n, map_id):
    walk_checking_decisions(GAME, 200 + n, n, 150, {"map": map_id})


def test_the_random_walks_reach_the_race():
    # The round-trip walks above are long enough to get into the race (two of them checked
    # here, to keep the file quick): random_walk draws as walk_checking_round_trips does (same
    # seed, same choices), so it reaches the same position.
    for n, m in [(3, "main"), (4, "main")]:
        assert random_walk(GAME, WALK_SEEDS[n, m], n, WALK_STEPS, {"map": m})[0].race, (n, m)


def _kind(state) -> str:
    if state.phase == "main" and state.moving:
        return "moving"
    if state.phase == "main" and state.race:
        return "main_race"
    return state.phase


@lru_cache(maxsize=None)
def _positions(n: int, map_id: str, seed: int) -> dict[str, list]:
    """Positions of a bot game (one random bot among builders), by kind of menu, in order."""
    out: dict[str, list] = {}
    lineup = tuple("random" if s == 1 else "builder" for s in range(n))

    def each(before, seat, action, result):
        out.setdefault(_kind(before), []).append(before)
    play(n, seed, map_id, lineup, each=each)
    return out


MENU_GAMES = [(3, "main"), (4, "islands"), (5, "main"), (6, "islands")]


@pytest.mark.parametrize("n, map_id", MENU_GAMES)
def test_every_kind_of_menu_offers_each_legal_move_once(n, map_id):
    wanted = {"setup", "roll", "gold", "discard", "robber", "main", "answer", "pick", "stops", "main_race",
              "moving"}
    if n >= 5:
        wanted.add("special")
    # The first of a few bot games that goes through every kind of menu (bots change; the
    # menus to check do not).
    for seed in range(31, 43):
        positions = _positions(n, map_id, seed)
        if wanted <= set(positions):
            break
    assert wanted <= set(positions), sorted(positions)
    for kind, states in positions.items():
        for state in {id(s): s for s in (states[0], states[len(states) // 2], states[-1])}.values():
            check_decisions(GAME, state)


# --- privacy (CE-12) ----------------------------------------------------------------------

def _check_views(state) -> None:
    n = state.n
    for viewer in [None, *range(n)]:
        v = GAME.view(state, viewer)
        s = v.state
        assert s.deck == [] and s.seed == 0
        assert s.deck_left == len(state.deck)
        for i, p in enumerate(s.players):
            real = state.players[i]
            if i == viewer:
                assert p.hand == real.hand and p.dev == real.dev and p.dev_new == real.dev_new
            else:
                assert p.hand is None and p.dev is None and p.dev_new is None, (viewer, i)
            # the counts stay public
            assert p.cards == real.cards == sum(real.hand)
            assert p.dev_cards == real.dev_cards and v.seats[i].cards == real.cards
            assert p.vp_cards == real.vp_cards and p.knights == real.knights
        for e in s.last:
            assert e.to is None or (viewer is not None and viewer in e.to), (viewer, e)
        if state.phase == "answer":
            # an answer is secret from the other answerers; the offerer sees them, to pick
            if viewer == state.current:
                assert s.offer.answers == state.offer.answers and v.accepted == GAME.acceptors(state)
            else:
                assert set(s.offer.answers) <= ({viewer} if viewer is not None else set()) and v.accepted == []


def _check_private_events(seat, action, result) -> None:
    for e in result.events:
        if e.key == "catan_express.ev.robbed_card":
            assert e.to == tuple(sorted((e.params["seat"], e.params["victim_seat"])))
        if e.key == "catan_express.ev.robbed":
            assert "resource" not in e.params
        if e.key == "catan_express.ev.discarded_cards":
            assert e.to == (seat,)
        if e.key == "catan_express.ev.discarded":
            assert set(e.params) == {"seat", "count"} and e.to is None
        if e.key == "catan_express.ev.drew_card":
            assert e.to == (seat,)
        if e.key == "catan_express.ev.bought_card":
            assert "card" not in e.params and e.to is None
        if e.key == "catan_express.ev.answered":
            assert set(e.params) == {"seat"}
        if e.to is not None and "seat" in e.params:
            assert e.params["seat"] in e.to


@pytest.mark.parametrize("n, map_id, lineup", [
    (3, "main", ("builder", "random", "builder")),
    (4, "islands", ("random", "builder", "random", "builder")),
    (5, "main", ("builder",) * 5),
    (6, "islands", ("builder", "builder", "random", "builder", "builder", "random")),
])
def test_no_view_shows_another_seats_cards(n, map_id, lineup):
    # Every view after every move of whole games, until one game has had both a discard and
    # a theft (the private moves the checks are about).
    for seed in range(500, 510):
        kinds = Counter()

        def each(before, seat, action, result):
            _check_private_events(seat, action, result)
            _check_views(result.state)
            kinds.update(e.key for e in result.events)
        play(n, seed, map_id, lineup, each=each, max_moves=MAX_MOVES)
        if kinds["catan_express.ev.discarded_cards"] and kinds["catan_express.ev.robbed_card"]:
            break
    assert kinds["catan_express.ev.discarded_cards"] and kinds["catan_express.ev.robbed_card"], kinds


def test_uniformly_random_games_keep_views_private():
    for n in (3, 4, 5, 6):
        rng = random.Random(n)
        state = GAME.setup(n, {"map": "main" if n % 2 else "islands"}, 900 + n)
        for _ in range(600):
            if GAME.result(state) is not None:
                break
            seat = rng.choice(sorted(GAME.active_players(state)))
            action = rng.choice(GAME.legal_actions(state, seat))
            result = GAME.apply(state, seat, action)
            _check_private_events(seat, action, result)
            state = result.state
            _check_views(state)


# --- conservation -------------------------------------------------------------------------

def _conserved(state) -> None:
    """Every card where it should be, counted independently of check_invariants."""
    c = components()
    size = c.bank_size(state.n)
    for i, r in enumerate(RESOURCES):
        assert state.bank[i] + sum(p.hand[i] for p in state.players) == size, r
        assert state.bank[i] >= 0 and all(p.hand[i] >= 0 for p in state.players)
    composition = c.deck(state.n).cards
    for k, kind in enumerate(KINDS):
        held = sum(p.dev[k] + p.dev_new[k] + p.played[k] for p in state.players)
        if kind.value == "victory_point":
            held += sum(p.vp_cards for p in state.players)
        assert state.deck.count(kind.value) + held == composition[kind], kind
    assert state.deck_left == len(state.deck)
    for seat, p in enumerate(state.players):
        assert p.cards == sum(p.hand) and p.dev_cards == sum(p.dev) + sum(p.dev_new)
        assert p.knights == p.played[KINDS.index(next(k for k in KINDS if k.value == "knight"))]
        kinds = Counter(b.kind for b in state.buildings.values() if b.seat == seat)
        assert kinds["settlement"] <= 5 and kinds["city"] <= 4
        pieces = Counter(GAME.geo(state).kind[x] for x, owners in state.pieces.items() if seat in owners)
        assert pieces["rail"] <= 15 and pieces["ferry"] <= 8
        assert all(owners.count(seat) <= 1 for owners in state.pieces.values())
    GAME.check_invariants(state)


def test_conservation_in_many_random_games():
    games = int(os.environ.get("CE_GAMES", "16"))
    started = time.perf_counter()
    moves = 0
    endings = Counter()
    unfinished = []
    for g in range(games):
        n = 3 + g % 4
        map_id = ("main", "islands")[(g // 4) % 2]
        rng = random.Random(g)
        lineup = tuple(rng.choice(("builder", "builder", "random")) for _ in range(n))
        state, count = play(n, 7000 + g, map_id, lineup, each=lambda b, s, a, r: _conserved(r.state),
                            max_moves=MAX_MOVES)
        moves += count
        result = GAME.result(state)
        endings[result.reason if result else "unfinished"] += 1
        if result is None:
            unfinished.append((7000 + g, n, map_id))
    seconds = time.perf_counter() - started
    print(f"\nCatan Express conservation: {games} games, {moves} moves, {seconds:.1f} s, endings {dict(endings)}"
          f"\nunfinished after {MAX_MOVES} moves (seed, players, map): {unfinished}")
    assert moves > games * 100


# --- words ----------------------------------------------------------------------------------

def _label_keys(decision) -> set[str]:
    out = set()
    if decision.prompt is not None:
        out |= catalog_keys(decision.prompt)
    for choice in decision.choices:
        for pick in choice.path:
            out.add(pick.step)
            out |= catalog_keys(pick.label)
    for pick in decision.first_step():
        out |= catalog_keys(pick.label)
    for group in decision.groups:
        out |= {group.step} | {part.step for part, _, _ in group.sides()}
        for pick in group.items:
            out.add(pick.step)
            out |= catalog_keys(pick.label)
    return out


def test_every_word_used_is_in_both_catalogs():
    keys: set[str] = set()
    for n, m in [(3, "main"), (4, "islands"), (5, "main"), (6, "islands")]:
        moves = 0

        def each(before, seat, action, result):
            nonlocal moves
            moves += 1
            keys.update(k for e in result.events for k in catalog_keys(e))
            keys.update(catalog_keys(GAME.describe_action(before, seat, action)))
            if moves % 7 == 0 or before.phase not in ("main", "roll"):
                for s in GAME.active_players(before):
                    keys.update(_label_keys(GAME.decision(before, s)))
        state, _ = play(n, 40 + n, m, tuple("random" if s % 2 else "builder" for s in range(n)), each=each)
        result = GAME.result(state)
        keys |= {f"{result.label_prefix}.category.{c}" for c in result.categories}
        keys.add(f"{result.label_prefix}.reason.{result.reason}")
    assert len(keys) > 140  # the walk met most of the game's words (a discard is one step, not one per resource)
    for lang in LANGS:
        assert sorted(k for k in keys if k not in catalog(lang)) == [], lang


def _codes_in_source() -> set[str]:
    """Every refusal code written in the engine's modules (and the shared opening of `apply`,
    games/core/referee.py): the first argument of each IllegalAction (both branches of a
    conditional one), and the codes handed to the helpers that raise on the engine's behalf."""
    root = Path(__file__).resolve().parents[3]
    out = set()
    paths = [*(root / "games" / "catan_express").rglob("*.py"), root / "games" / "core" / "referee.py"]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for first in re.findall(r'IllegalAction\(([^,)]*)', text):
            out |= set(re.findall(r'(?<!== )"([a-z_.]+)"', first))   # not a compared phase
        out |= set(re.findall(r'(?:_need|_check_sides|_sides_refusal)\([^)]*?"(catan_express\.[a-z_]+)"', text))
    return out


def test_every_refusal_in_the_code_is_in_both_catalogs():
    codes = _codes_in_source()
    assert {"not_active", "unparsable", "catan_express.discard_count", "catan_express.card_bought_this_turn",
            "catan_express.piece_not_connected", "catan_express.ride_illegal", "catan_express.city_cap"} <= codes
    for lang in LANGS:
        assert sorted(c for c in codes if message_key_of(c) not in catalog(lang)) == [], lang


def test_every_refusal_met_in_play_is_in_both_catalogs():
    # Moves seen earlier in the game, tried again where they no longer fit: the refusals the
    # engine really raises, each with its words, and the state never touched by one.
    seen: dict[str, None] = {}
    codes = Counter()
    fixed = ["roll", "end", "buy", "roads", "accept", "refuse", "withdraw", "trade @2", "stop 13", "ride C3",
             "discard 1ore", "gold 1ore", "monopoly ore", "plenty 1ore+1wool", "bank 4ore 1wool",
             "bank 3ore 1wool", "offer 1ore 1wool", "knight D4", "robber D4", "build city 13",
             "build settlement 1", "build rail 13-C3", "build ferry 1-4", "build settlement 99", "trade @9"]
    for n, m in [(3, "main"), (4, "main"), (5, "islands"), (6, "main")]:
        rng = random.Random(n)
        moves = 0

        def each(before, seat, action, result):
            nonlocal moves
            moves += 1
            seen[GAME.format_action(action)] = None
            if moves % 3:
                return
            pool = list(seen)[-300:]
            tries = rng.sample(pool, min(8, len(pool))) + rng.sample(fixed, 3)
            for s in {seat, rng.randrange(n)}:
                for text in tries:
                    snapshot = before.model_dump_json()
                    try:
                        GAME.apply(before, s, GAME.parse_action(text))
                    except IllegalAction as exc:
                        codes[exc.code] += 1
                    assert before.model_dump_json() == snapshot
        play(n, 60 + n, m, tuple("random" if s == 0 else "builder" for s in range(n)), each=each)
    assert len(codes) >= 15, codes
    for lang in LANGS:
        assert sorted(c for c in codes if message_key_of(c) not in catalog(lang)) == [], lang
