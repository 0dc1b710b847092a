"""Each map plays (ST-M3): bot games over many seeds on both maps — 3, 4 and 5 players, basic
and standard, builder lineups with a random seat in every fourth game — all end, every colour
of cube (gray included, which only new cities take) gets delivered, Urbanize and City Growth get
used, links and routes of several lengths occur, and builders rarely go bankrupt.

`python -m tools.games.steam.simulate --games 300` prints the full distributions."""
from __future__ import annotations

import pytest

from games.steam.map import MAP_IDS
from games.steam.models import COLOURS
from tools.games.steam.simulate import report, simulate

pytestmark = pytest.mark.slow  # many whole bot games

GAMES_PER_MAP = 100  # 200 seeds over both maps: "hundreds of seeds", in about 45 s on two cores


@pytest.fixture(scope="module")
def summary():
    return simulate(GAMES_PER_MAP, jobs=2)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_game_ends_with_scores(summary, map_id) -> None:
    games = summary.of_map(map_id).games
    assert len(games) == GAMES_PER_MAP
    assert {g.players for g in games} == {3, 4, 5} and {g.standard for g in games} == {False, True}
    for g in games:
        assert g.scores, g
        assert g.turns == {3: 10, 4: 8, 5: 7}[g.players] or g.bankrupt


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_every_colour_gets_deliveries(summary, map_id) -> None:
    s = summary.of_map(map_id)
    delivered = s.delivered
    assert all(delivered[c] > 0 for c in COLOURS), delivered
    # Printed colours are delivered in nearly every game; gray needs an urbanized town first.
    for c in COLOURS[:4]:
        assert sum(1 for g in s.games if g.delivered[c]) >= 0.9 * len(s.games), c
    assert sum(1 for g in s.games if g.delivered["gray"]) >= 0.5 * len(s.games)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_urbanize_and_city_growth_are_used(summary, map_id) -> None:
    s = summary.of_map(map_id)
    assert sum(1 for g in s.games if g.urbanized) >= 0.7 * len(s.games)
    assert set(s.urbanized) == set(COLOURS), s.urbanized
    assert sum(1 for g in s.games if g.growths) >= 0.9 * len(s.games)


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_links_and_routes_of_several_lengths(summary, map_id) -> None:
    s = summary.of_map(map_id)
    assert {1, 2, 3, 4} <= set(s.link_tiles), s.link_tiles
    assert {1, 2, 3, 4} <= set(s.route_links), s.route_links


@pytest.mark.parametrize("map_id", MAP_IDS)
def test_builders_rarely_go_bankrupt(summary, map_id) -> None:
    games = [g for g in summary.of_map(map_id).games if set(g.lineup) == {"builder"}]
    seats = sum(g.players for g in games)
    assert sum(g.bankrupt for g in games) <= seats // 50
    assert min(score for g in games for score in g.scores) >= -10


def test_the_report_names_every_figure(summary) -> None:
    text = "\n".join(report(summary))
    for map_id in MAP_IDS:
        assert f"{map_id}: {GAMES_PER_MAP} games" in text
    for label in ("cubes delivered by colour", "Urbanize used", "City Growth used", "tiles per completed link",
                  "links per delivery", "final scores", "bankruptcies"):
        assert text.count(label) == len(MAP_IDS), label
