"""The bundled Santa Fe map: every count of the rulebook and rulings SF-M1 … SF-M4, reachability,
terrain from real geography, catalogs, and clear errors for a broken file."""
import json
import re
from collections import Counter, deque
from pathlib import Path

import pytest

from games.core.errors import message_key_of
from games.core.i18n import catalog
from games.santa_fe.map import MAP_PATH, load_map, west
from tests.support.broken_data import assert_names_the_file_and_the_fault, broken_copy

BOARD = west()
REFERENCE = Path(__file__).resolve().parents[3] / "data" / "santa_fe" / "places.json"  # real coordinates


def test_city_values_and_start_cities():  # SF-M2
    values = Counter(c.value for c in BOARD.cities if c.value)
    assert values == {2: 3, 3: 7, 4: 5, 5: 7, 6: 9, 7: 7}
    assert sum(values.values()) == 38
    starts = {c.name: sorted(c.start) for c in BOARD.cities if c.value == 0}
    assert starts == {"Chicago": ["SF", "UP"], "Milwaukee": ["GN"], "Kansas City": ["KP"], "New Orleans": ["SP"]}
    coast = {"Seattle", "Tacoma", "Portland", "San Francisco", "Oakland", "Los Angeles", "San Diego"}
    assert {c.name for c in BOARD.cities if c.value == 7} == coast  # every Pacific-coast city is worth 7


def test_values_rise_from_east_to_west():  # SF-M2
    mean_lon = {v: sum(c.lon for c in BOARD.cities if c.value == v) / n
                for v, n in Counter(c.value for c in BOARD.cities if c.value).items()}
    assert [mean_lon[v] for v in range(2, 8)] == sorted((mean_lon[v] for v in range(2, 8)), reverse=True)


def test_real_coordinates_from_the_reference():  # SF-M1
    ref = {p["name"]: p for p in json.loads(REFERENCE.read_text(encoding="utf-8"))["places"]}
    for c in BOARD.cities:
        assert (c.lat, c.lon) == (ref[c.name]["lat"], ref[c.name]["lon"]), c.name


def test_city_cards():  # SF-M3
    cards = Counter(BOARD.city_cards)
    assert len(BOARD.city_cards) == 66
    for i, c in enumerate(BOARD.cities):
        assert cards[i] == {0: 0, 2: 1, 3: 1}.get(c.value, 2), c.name


def test_railroads_tiles_and_special_cities():  # SF-M4
    rr = {r.code: (r.color, r.tiles, r.start, r.special) for r in BOARD.railroads}
    assert rr == {
        "SF": ("blue", 32, "Chicago", "Houston"), "SP": ("white", 30, "New Orleans", "Los Angeles"),
        "GN": ("green", 25, "Milwaukee", "Seattle"), "UP": ("red", 24, "Chicago", "Ogden"),
        "KP": ("yellow", 17, "Kansas City", "Denver"),
    }
    assert BOARD.total_tiles() == 128


def test_card_counts_in_the_rules():  # SF-1, SF-4
    r = BOARD.rules
    assert r.double_turns == {2: 3, 3: 5, 4: 7, 5: 9}
    assert r.spurs_per_railroad * len(BOARD.railroads) == 10
    assert (r.engineers, r.engineer_price, r.hand_size, r.hand_size_engineer) == (5, 4, 5, 4)
    assert (r.money, r.money_advanced, r.spur_price, r.spur_price_advanced) == (2, 5, 1, 2)
    assert (r.city_bonus, r.special_bonus, r.max_lines) == (2, 4, 3)


def test_sections_double_lines_and_terrain():  # SF-M1
    assert all(1 <= s.spaces <= 4 for s in BOARD.sections)
    doubles = [i for i, t in enumerate(BOARD.twin) if t >= 0]
    assert len(doubles) >= 10 and all(BOARD.twin[BOARD.twin[i]] == i for i in doubles)
    mountain = [s.code for s in BOARD.sections if s.mountain]
    rivers = [s.code for s in BOARD.sections if s.rivers]
    assert len(mountain) >= 10 and len(rivers) >= 15
    both = [s.code for s in BOARD.sections if s.mountain and s.rivers]
    assert both  # mountain river crossings exist (SF-11 "both: $2")
    assert "Sacramento-Reno" in mountain  # Sierra Nevada
    assert any(s.code.startswith("Spokane-Seattle") for s in BOARD.sections if s.mountain)  # Cascades
    named = {r for s in BOARD.sections for rs in s.rivers for r in rs.rivers}
    assert {"Mississippi", "Missouri", "Arkansas", "Red", "Rio Grande", "Colorado", "Snake", "Columbia"} <= named
    assert {p.name for p in BOARD.rivers} >= named and len(BOARD.ranges) >= 3 and BOARD.water


def test_every_city_is_reachable_from_a_start_city():  # SF-M1
    seen = set(BOARD.start_city)
    todo = deque(seen)
    while todo:
        c = todo.popleft()
        for sid, end in BOARD.adjacency[c]:
            other = BOARD.ends[sid][1 - end]
            if other not in seen:
                seen.add(other)
                todo.append(other)
    assert len(seen) == len(BOARD.cities)


def test_every_railroad_can_reach_a_pacific_city_on_its_own_tiles():  # SF-M5
    d = BOARD.distances
    sevens = [i for i, c in enumerate(BOARD.cities) if c.value == 7]
    for r, rr in enumerate(BOARD.railroads):
        assert min(d[BOARD.start_city[r]][c] for c in sevens) <= rr.tiles, rr.code


@pytest.mark.parametrize("breakage, needle", [
    (lambda d: d["sections"][3].update(a="Atlantis"), "unknown city"),
    (lambda d: d["sections"][5].update(spaces=5), "spaces"),
    (lambda d: d["railroads"][0].update(special="Chicago"), "special city"),
    (lambda d: d.pop("cities"), "cities"),
    (lambda d: d["cities"][0].update(board_ja=["シカ", "ゴー"]), "does not spell"),
])
def test_broken_map_file_names_the_file_and_the_fault(tmp_path, breakage, needle):
    assert_names_the_file_and_the_fault(load_map, broken_copy(MAP_PATH, tmp_path, breakage), needle)


def test_the_map_file_is_what_the_generator_makes():
    from tools.games.santa_fe.mapgen import build

    assert json.loads(MAP_PATH.read_text(encoding="utf-8")) == json.loads(json.dumps(build(), ensure_ascii=False))


def test_every_sf_key_used_in_code_has_both_messages():
    keys, codes = set(), set()
    for path in Path("games/santa_fe").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'"(santa_fe\.(?:ev|act|prompt|choice|reveal|line|section|phase)[a-z_.]*)"', text))
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_.]+)"', text))
    keys |= {f"santa_fe.ev.game_over_{r}" for r in ("all_placed", "blocked", "all_passed")}
    keys |= {f"santa_fe.prompt.{p}" for p in ("choose", "exchange", "draw", "buy", "engineer")}
    keys |= {f"santa_fe.act.draw_{w}" for w in ("city", "double", "engineer")}
    keys |= {"santa_fe.ev.placed_paid", "santa_fe.ev.placed_spur_paid", "santa_fe.title", "santa_fe.category.money",
             "santa_fe.category.cities"}
    keys = (keys - codes) | {message_key_of(c) for c in codes}
    assert len(keys) > 80
    for lang in ("en", "ja"):
        assert not sorted(k for k in keys if k not in catalog(lang)), lang
    assert set(catalog("en")) == set(catalog("ja"))
