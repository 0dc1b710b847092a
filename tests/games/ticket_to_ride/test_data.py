"""The bundled Ticket to Ride map: every count the rulebook and rulings state, and clear
errors for a broken file."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from games.core.errors import message_key_of
from games.core.i18n import DATA_DIR, catalog
from games.ticket_to_ride.map import MAP_PATH, load_map, usa
from tests.support.broken_data import assert_names_the_file_and_the_fault, assert_unreadable_is_refused, broken_copy


def test_map_counts():
    board = usa()
    assert len(board.cities) == 36
    assert len(board.routes) == 100
    assert len({frozenset((r.a, r.b)) for r in board.routes}) == 78
    assert len({r.double for r in board.routes if r.double is not None}) == 22
    assert len(board.twin) == 44
    assert len(board.tickets) == 30
    assert board.total_cards() == 110
    per_color = Counter(r.color for r in board.routes)
    assert all(per_color[c] == 7 for c in board.deck.colors), per_color
    assert per_color["gray"] == 100 - 7 * 8


def test_map_constants_match_rulings():
    rules = usa().rules
    assert (rules.players_min, rules.players_max, rules.trains_per_player) == (2, 5, 45)
    assert (rules.initial_cards, rules.initial_tickets, rules.initial_keep_min) == (4, 3, 2)
    assert rules.route_points == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    assert rules.longest_path_bonus == 10 and rules.end_trains_at_most == 2


def test_doubles_join_the_same_cities_with_the_same_length():
    board = usa()
    for a, b in board.twin.items():
        ra, rb = board.routes[a], board.routes[b]
        assert {ra.a, ra.b} == {rb.a, rb.b} and ra.length == rb.length


@pytest.mark.parametrize("breakage, needle", [
    (lambda d: d["routes"][3].update(a="Atlantis"), "unknown city"),
    (lambda d: d["routes"][5].update(length=9), "length"),
    (lambda d: d["tickets"].append(dict(d["tickets"][0])), "ticket ids"),
    (lambda d: d.pop("cities"), "cities"),
])
def test_broken_map_file_names_the_file_and_the_fault(tmp_path, breakage, needle):
    assert_names_the_file_and_the_fault(load_map, broken_copy(MAP_PATH, tmp_path, breakage), needle)


def test_unreadable_map_file(tmp_path):
    assert_unreadable_is_refused(load_map, tmp_path / "map.json", "{not json")


def test_catalogs_have_the_same_keys_in_both_languages():
    assert set(catalog("en")) == set(catalog("ja"))
    for lang in ("en", "ja"):
        for key, text in catalog(lang).items():
            assert text.strip(), f"{lang}:{key} is empty"


def test_every_error_code_raised_in_games_has_a_message():
    codes = set()
    for path in Path("games").rglob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert "ticket_to_ride.route_taken" in codes
    for lang in ("en", "ja"):
        missing = sorted(c for c in codes if message_key_of(c) not in catalog(lang))
        assert not missing, f"{lang} lacks messages for {missing}"


def test_every_event_key_used_by_the_rules_has_a_message():
    keys = set()
    for path in Path("games/ticket_to_ride").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'key="(ticket_to_ride\.[a-z_.]+)"', text))
        keys |= {f"ticket_to_ride.ev.game_over_{r}" for r in ("end", "stalemate")}
    keys = {k for k in keys if not k.endswith("_")}
    assert len(keys) > 20
    for lang in ("en", "ja"):
        assert not sorted(k for k in keys if k not in catalog(lang)), lang


def test_every_bundled_json_file_parses():
    files = list(DATA_DIR.rglob("*.json"))
    assert len(files) >= 5
    for path in files:
        json.loads(path.read_text(encoding="utf-8"))
