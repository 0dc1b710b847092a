"""A view is the one place secrets are removed: no view of any seat or of a spectator, at any
point of a game, shows the game's seed, a number drawn from it (the seed of a shuffle, a roll,
a board layout) or the state of a generator seeded so — from them every future card, roll and
cube could be worked out. Catan Express shows its board by name instead of the seed that dealt
it (maps.BoardLayout), and the board drawn from that name is the very board of the rules."""
from __future__ import annotations

import random

import pytest

from games import registry
from games.catan_express.economy import trade_ratio
from games.catan_express.components import RESOURCES
from games.catan_express.geo import board_for, layout_for
from games.catan_express.map import MAP_IDS, BoardLayout, board_from, layout_of
from games.catan_express.rules import GAME as CE
from games.core.errors import DataError
from games.core.rng import SeededRng, derive
from tests.support.bot_games import bot_states
from tests.support.protocol_checks import Secrets, check_views_keep_secrets, walk_checking_secrets, watching_randomness

# Large seeds, as the bot draws them (63 random bits): a trace of one in a view is a leak, not a
# coincidence with a count or a price.
SEEDS = (4_611_686_018_427_390_003, 9_223_372_036_854_775_783, 7_318_349_394_477_056_019)
# Per game: players, options and the bot that plays the whole game (None: the game's first bot).
CONFIGS = {
    "ticket_to_ride": [(2, {}, None), (4, {}, "random")],
    "ginga": [(2, {}, None), (4, {}, None)],
    "santa_fe": [(3, {}, None), (4, {"advanced": True, "buy_track": True}, None)],
    "steam": [(3, {}, "random"), (4, {"map": "rhine_ruhr", "standard": True}, "random")],
    "catan_express": [(4, {}, None), (3, {"map": "islands"}, None), (4, {"map": "islands", "layout": "beginner"}, None)],
}


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("name", registry.names())
def test_no_view_at_any_point_of_a_game_shows_the_seed_or_what_is_drawn_from_it(name: str) -> None:
    game = registry.get(name)
    for (n, options, bot), seed in zip(CONFIGS[name], SEEDS):
        assert walk_checking_secrets(game, seed, n, options, bot) > 20


def test_the_check_finds_the_seed_and_what_is_drawn_from_it_in_any_form() -> None:
    """The secrets are found as numbers, inside text, in hex, as a sub-seed and as a generator's
    state; small numbers (counts, prices) are never taken for them."""
    seed = SEEDS[0]
    with watching_randomness(seed) as secrets:
        derive(seed, 3, "ce.dice")  # by a module that holds derive under its own name
        SeededRng(seed, 0, "catan_express.map:standard").shuffle([1, 2, 3])  # through the rng module
    dice, layout = derive(seed, 3, "ce.dice"), derive(seed, 0, "catan_express.map:standard")
    word = random.Random(layout).getstate()[1][2]
    assert secrets.found_in('{"n": 4, "cash": 1000000, "draws": 3, "seed": 0}') == []
    for text in (f'{{"seed": {seed}}}', f'"dealt from {seed}!"', f'{{"x": "{seed:x}"}}', f"[{dice}]",
                 f'"{dice:016X}"', f"[{layout}]", f"[{word}]"):
        assert secrets.found_in(text), text


class _Leaky:
    """A game whose views show the seed: the check fails."""

    def __init__(self, game) -> None:
        self.game, self.name = game, game.name

    def view(self, state, seat):
        view = self.game.view(state, seat)
        return view.model_copy(update={"state": view.state.model_copy(update={"seed": state.seed})})


def test_a_view_carrying_the_seed_is_caught() -> None:
    state = CE.setup(4, {}, SEEDS[1])
    with watching_randomness(SEEDS[1]) as secrets:
        check_views_keep_secrets(CE, state, secrets)
        with pytest.raises(AssertionError, match="the seed"):
            check_views_keep_secrets(_Leaky(CE), state, secrets)


# --- Catan Express: the board by name -------------------------------------------------------------
@pytest.mark.parametrize("map_id", MAP_IDS)
def test_a_board_named_in_a_view_is_the_rules_board(map_id: str) -> None:
    for layout, seed in [("beginner", 0), *(("random", s) for s in range(40))]:
        board = board_for(map_id, layout, seed)
        named = BoardLayout.model_validate_json(layout_for(map_id, layout, seed).model_dump_json())
        assert board_from(map_id, named) == board
        assert named == layout_of(board)


def test_a_layout_that_does_not_fit_its_map_is_refused() -> None:
    named = layout_of(board_for("standard", "random", 5))
    hexes = dict(named.hexes)
    first = next(iter(hexes))
    for broken in ({**hexes, first: "X5"}, {**hexes, first: "D5"}, {**hexes, first: "F7"},
                   {k: v for k, v in hexes.items() if k != first}):
        with pytest.raises(DataError):
            board_from("standard", BoardLayout(hexes=broken, harbours=named.harbours))
    with pytest.raises(DataError):
        board_from("large", named)  # another map's shape


def test_each_seats_harbours_and_bank_ratios_come_from_the_view() -> None:
    """The harbours and bank ratios the view lists for each seat (what the hand prints) are the rules'."""
    seen = set()
    for state in bot_states(CE, 4, 17, "builder", {"map": "islands"}):
        view = CE.view(state, 0)
        for seat in range(state.n):
            assert set(view.seats[seat].harbours) == CE.harbours(state, seat)
            assert view.seats[seat].ratios == [trade_ratio(r, CE.harbours(state, seat)) for r in RESOURCES]
            seen |= CE.harbours(state, seat)
    assert seen  # some building stood on a harbour


def test_no_secret_below_the_smallest_is_looked_for() -> None:
    secrets = Secrets()
    secrets.add(123, "a small seed")
    assert secrets.found_in('{"seed": 123}') == []


def test_the_static_map_is_drawn_once_per_layout() -> None:
    """The renderer's cached layers are keyed by the board the view names: every position of a
    game shares them, another random layout does not, every beginner board of a map does."""
    from render.catan_express.board import board_key, static_layers

    states = bot_states(CE, 3, 5, "builder")
    first, last = CE.view(states[0], None), CE.view(states[-1], 1)
    assert board_key(first) == board_key(last)
    assert static_layers(board_key(first), "en") is static_layers(board_key(last), "en")
    assert board_key(CE.view(CE.setup(3, {}, 6), None)) != board_key(first)
    beginner = [CE.view(CE.setup(3, {"layout": "beginner"}, seed), None) for seed in (SEEDS[0], SEEDS[1])]
    assert board_key(beginner[0]) == board_key(beginner[1])
