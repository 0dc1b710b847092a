"""Shared test setup: the repository root on sys.path, the toy game registered, a fake clock,
and the test tiers.

Tiers: `slow` marks whole-game simulations, several processes, PostgreSQL, the benches, and all
but the first case of each sweep over every game, board or menu (SWEEPS below).
`python3 dev.py test` runs everything (CI does); `python3 dev.py test --fast` leaves the slow
tier out. A module says it is slow with `pytestmark = pytest.mark.slow`; every test that
reaches the PostgreSQL server (the `pg_server` fixture, directly or through `backend`) is
marked here, so a new PostgreSQL test needs no marker of its own."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.support.log_guard"]  # an ERROR logged during a test fails it

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


class FakeClock:
    """An injectable clock (Unix seconds) that tests move forward by hand."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def toy_game():
    """Register the toy game (and its pictures) as 'toy' and return it."""
    from games import registry
    from tests.support.registered import registered_games

    with registered_games(toy="tests.support.toy_game:GAME"):
        yield registry.get("toy")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "railyard.sqlite3"




# Sweeps: a check run over every game, table size, board or menu of a game. The fast tier keeps
# the first case of each (the check itself is exercised); the slow tier runs all of them.
SWEEPS = {
    "test_no_catalog_word_is_cut_short_on_any_image",
    "test_boards_in_any_order_have_the_pixels_of_cold_boards",
    "test_boards_in_move_order_have_the_pixels_of_boards_drawn_from_nothing",
    "test_every_place_of_every_menu_is_on_the_board_where_the_thing_is",
    "test_a_stale_click_says_only_that_the_board_changed",
    "test_every_kind_of_menu_offers_each_legal_move_once",
    "test_every_claimable_route_is_a_named_place_on_its_middle_car",
    "test_every_place_of_a_whole_game_is_on_the_board",
    "test_the_places_of_a_game_are_legible_at_400",
    "test_the_replay_steps_through_every_move_in_force",
    "test_the_public_table_of_every_game_shows_the_spectator_board_scores_and_log",
    "test_every_game_keeps_the_score_rows_its_chart_draws",
    "test_a_player_clicks_a_place_and_the_move_goes_through_the_service",
    "test_no_stored_post_or_sent_message_shows_the_seed",
    "test_every_verb_typed_in_every_phase_is_a_legal_move_or_a_typed_refusal",
}
# Whole games played out (by bots or through the loopback Discord): slow as a whole.
WHOLE_GAMES = {
    "test_thousand_random_games_end_and_conserve_the_tiles",
    "test_random_games_end_and_conserve",
    "test_a_whole_game_on_the_loopback_discord_names_every_seat",
    "test_a_whole_game_becomes_one_animation_with_its_alt_text",
    "test_builder_games_end_with_results_and_nobody_bankrupt",
    "test_whole_game_with_undo_and_private_information_kept_private",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    first_cases: set[tuple[str, str]] = set()
    for item in items:
        name = getattr(item, "originalname", item.name)
        if name in WHOLE_GAMES:
            item.add_marker(pytest.mark.slow)
        elif name in SWEEPS:
            key = (str(item.path), name)
            if key in first_cases:
                item.add_marker(pytest.mark.slow)
            first_cases.add(key)
        callspec = getattr(item, "callspec", None)
        backend = callspec.params.get("backend") if callspec is not None else None
        if backend == "postgres" or "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
