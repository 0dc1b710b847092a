"""Steam images, drawn from positions of real games on both maps (a greedy player in every seat,
fixed seeds): sizes, legible text, colours every reader can tell apart, link owners and the
last build shown where they are, and alt text in both languages.

The greedy player below builds towards places, delivers its best cube and takes income early
and points late; it is only here to reach busy boards quickly, not to play well.
"""
from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image

from games.steam.derived import board_map, complete_links, runs
from games.steam.models import Bid, Capital, Deliver, Done, Pass, Score, SteamState, Upgrade
from games.steam.rules import GAME
from games.steam.tiles import tileset
from render.kit.geometry import Walker
from render.kit.highlight import HALO_LIGHT
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes, smallest_at
from render.kit.vision import problems
from render.registry import GameRenderer
from render.steam import PALETTE, RENDERER, style
from render.steam import board as board_mod
from render.steam.board import link_middle, render_board, route_is_news
from render.steam.final import render_final
from render.steam.hand import render_hand
from render.steam.layout import BOARD_W, MIN_TEXT, map_layout

NAMES = ["Alexandra", "山田太郎", "Bob", "佐々木 みなみ", "Christopher"]
ROOT = Path(__file__).resolve().parents[3]


# --- positions from played games -----------------------------------------------------------------
def _build_choice(state: SteamState, seat: int, rng: random.Random):
    p = state.players[seat]
    extra = GAME.urbanizations(state, seat) + GAME.growths(state, seat)
    if extra:
        return rng.choice(extra)
    if state.placed >= 3 or (p.income < -4 and not state.options.standard) or GAME.spendable(state, seat) < 6:
        return Done()
    places = GAME.placements(state, seat)
    if not places:
        return Done()
    m = board_map(state)
    traced = runs(state)
    own_open = {h.neighbor(side) for rec in state.links if rec.owner == seat and rec.id in traced
                for h, side in traced[rec.id].open_ends}
    built = {m.hex_at(x) for x in state.built_hexes}
    targets = set(m.places) | {m.hex_at(x) for x in state.new_cities}
    faces = tileset().faces

    def score(pl) -> float:
        h = m.hex_at(pl.hex)
        exits = faces[pl.face].exits_at(pl.rotation)
        facing = [d for d in exits if h.neighbor(d) in targets]
        others = [h.neighbor(d) for d in exits if h.neighbor(d) not in targets]
        value = rng.random() * 2 + 10 * len(facing) + (25 if len(facing) >= 2 else 0)
        if others:
            value -= 3 * min(min(o.distance(t) for t in targets) for o in others)
        value += 40 * (h in own_open) + 15 * any(n in built for n in h.neighbors())
        return value - 10 * (pl.how == "redirect") - 8 * (pl.how == "upgrade") - 4 * faces[pl.face].crossing

    def after(pl) -> tuple:
        t = GAME.apply(state, seat, pl).state
        return sum(1 for link in complete_links(t) if link.owner == seat), score(pl)

    return max(sorted(places, key=score, reverse=True)[:8], key=after)


def greedy(state: SteamState, seat: int, rng: random.Random):
    """A move for `seat`: cheap bids, useful action tiles, builds towards places, the best delivery."""
    phase, p = state.phase, state.players[seat]
    if phase in ("first_auction", "auction"):
        low, high = GAME.bid_range(state, seat)
        return Bid(amount=low) if low <= high and low <= 2 and rng.random() < 0.5 else Pass()
    if phase == "capital":
        return Capital(steps=min(GAME.capital_max(state, seat), 2 if state.turn == 1 else 0))
    if phase == "actions":
        choices = [t for t in GAME.action_choices(state, seat) if not t.decline]
        liked = ["first_build", "engineer", "first_deliver", "turn_order", "city_growth", "urbanize", "locomotive"]
        if rng.random() < 0.2:
            return rng.choice([t for t in choices if t.tile != "locomotive"] or choices)
        return min(choices, key=lambda t: liked.index(t.tile))
    if phase == "build":
        return _build_choice(state, seat, rng)
    if state.pending:
        return Score(into="income" if state.turn <= state.turns // 2 else "points")
    found = GAME.deliveries(state, seat)
    if found:
        best = max(found, key=lambda d: (d.points_of(seat), len(d.links)))
        return Deliver(colour=best.colour.value, route=GAME._route_text(state, best))
    legal = GAME.legal_actions(state, seat)
    if Upgrade() in legal and state.deliver_round == 1 and p.locomotive < 2 and p.income >= 1 and state.turn >= 3:
        return Upgrade()
    return Pass()


@lru_cache(maxsize=None)
def played(map_id: str, n: int, seed: int, standard: bool = False) -> tuple[SteamState, ...]:
    state = GAME.setup(n, {"map": map_id, "standard": standard}, seed)
    rng = random.Random(seed)
    states = [state]
    while state.phase != "over":
        seat = GAME.current(state)
        state = GAME.apply(state, seat, greedy(state, seat, rng)).state
        states.append(state)
    return tuple(states)


def busiest(states) -> SteamState:
    """The position with the most owned links (ties: the most tiles) before the end."""
    return max((s for s in states if s.phase != "over"),
               key=lambda s: (sum(1 for link in s.links if link.owner is not None), len(s.tiles)))


GAMES = [("northeast", 4, 1, False), ("rhine_ruhr", 5, 5, False), ("northeast", 5, 3, True),
         ("rhine_ruhr", 3, 2, True)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-{g[1]}p-{'std' if g[3] else 'basic'}")
def game(request):
    return played(*request.param)


@pytest.fixture(scope="module")
def busy():
    return busiest(played("northeast", 4, 1))


def _close(px, colour, tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], colour[:3]))


# --- sizes and every stage -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_stage_renders_at_its_size(game, lang):
    states = game
    names = NAMES[:states[0].n]
    ml = map_layout(states[0].options.map)
    for state in (states[0], states[len(states) // 2], busiest(states), states[-1]):
        img = render_board(GAME.view(state, None), names, lang)
        assert img.width == BOARD_W and img.height > ml.size[1] + 300 and img.mode == "RGB"
        for seat in range(state.n):
            assert render_hand(GAME.view(state, seat), names, lang).width == 1000
    final = render_final(GAME.view(states[-1], None), names, lang)
    assert final.width == 1100 and final.height > 900


def test_hand_refuses_a_spectator_view(busy):
    with pytest.raises(ValueError):
        render_hand(GAME.view(busy, None), NAMES[:4], "en")


def test_the_png_twins_encode(busy):
    renderer = GameRenderer("steam", RENDERER)
    for data in (renderer.board(GAME.view(busy, None), NAMES[:4]), renderer.hand(GAME.view(busy, 0), NAMES[:4])):
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 2 * 1024 * 1024


# --- legibility and colour -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", ["board", "hand", "final"])
def test_every_text_is_legible_at_400px(kind, lang):
    states = played("rhine_ruhr", 5, 5)
    state = busiest(states)
    with recording_text_sizes() as sizes:
        if kind == "board":
            img = render_board(GAME.view(state, None), NAMES, lang)
        elif kind == "hand":
            img = render_hand(GAME.view(state, 1), NAMES, lang)
        else:
            img = render_final(GAME.view(states[-1], None), NAMES, lang)
    assert sizes.drawn
    size, text = sizes.smallest()
    assert smallest_at(size, img.width) >= MIN_TEXT_PX_AT_400, (kind, lang, size, text, img.width)


def test_board_text_floor_is_the_layout_minimum():
    assert MIN_TEXT * 400 / BOARD_W >= MIN_TEXT_PX_AT_400


def test_palettes_pass_the_colour_vision_check():
    assert len(PALETTE.players) >= 5  # both maps take up to five players
    assert problems(PALETTE) == []  # the goods colours, black edges and rivers included


def test_goods_have_distinct_shapes():
    assert set(style.GOODS_SHAPES) == set(style.GOODS)
    assert len(set(style.GOODS_SHAPES.values())) == len(style.GOODS)


# --- what the map shows --------------------------------------------------------------------------
def test_every_owned_link_shows_its_owners_colour(busy):
    img = render_board(GAME.view(busy, None), NAMES[:4], "en")
    ml = map_layout(busy.options.map)
    traced = runs(busy)
    owners = {rec.owner for rec in busy.links if rec.owner is not None}
    assert len(owners) >= 2
    m = board_map(busy)
    for rec in busy.links:
        if rec.owner is None:
            continue
        run = traced[rec.id]
        colour = style.player_rgb(rec.owner)
        # a fifth to two fifths of the way along each of its segments (clear of the marker in the
        # middle; a crossing link may run over one of the points)
        hits = 0
        for hx, sides in run.segments:
            walk = Walker(list(ml.track_path(hx, tuple(sides))))
            window = [img.getpixel((round(x) + dx, round(y) + dy)) for f in (0.2, 0.3, 0.4)
                      for x, y in [walk.at(walk.total * f)] for dx in (-2, 0, 2) for dy in (-2, 0, 2)]
            hits += any(_close(px, colour) for px in window)
        assert hits >= max(1, len(run.segments) // 2), (rec.id, m.label(run.segments[0][0]), rec.owner)


def test_owner_markers_and_open_ends_are_drawn(busy):
    img = render_board(GAME.view(busy, None), NAMES[:4], "en")
    ml = map_layout(busy.options.map)
    m = board_map(busy)
    traced = runs(busy)
    owned = [rec for rec in busy.links if rec.owner is not None]
    for rec in owned:
        x, y = link_middle(ml, m, traced[rec.id])
        assert any(_close(img.getpixel((round(x) + dx, round(y) + dy)), style.CASING, 30)
                   for dx in range(-12, 13, 3) for dy in range(-12, 13, 3)), rec.id
    open_ends = [(hx, side) for r in traced.values() for hx, side in r.open_ends]
    assert open_ends
    hx, side = open_ends[0]
    x, y = ml.side_mid(hx, side)
    assert _close(img.getpixel((round(x), round(y))), style.OPEN_END, 30)


def test_unowned_links_are_pale_and_dashed():
    states = played("rhine_ruhr", 5, 5)
    state = next(s for s in reversed(states) if any(rec.owner is None for rec in s.links))
    img = render_board(GAME.view(state, None), NAMES, "en")
    ml = map_layout(state.options.map)
    crop = img.crop((0, 0) + ml.size)
    colours = crop.getcolors(1 << 20)
    assert any(_close(c, style.UNOWNED, 3) for _, c in colours)
    assert any(_close(c, style.UNOWNED_DASH, 3) for _, c in colours)


def test_the_last_build_is_outlined_where_it_was_built():
    """The hexes of the latest build turn get one white outline round them: along the edges of
    their group, a quarter of the way from each corner (where no track crosses)."""
    states = played("northeast", 4, 1)
    state = next(s for s in states if s.phase == "build" and len(s.last_builds) >= 2)
    ml = map_layout(state.options.map)
    img = render_board(GAME.view(state, None), NAMES[:4], "en")
    plain = state.clone()
    plain.last_builds = []
    without = render_board(GAME.view(plain, None), NAMES[:4], "en")
    outline = board_mod.build_outline(state, ml)
    assert outline

    def white(board) -> int:
        points = [(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f) for a, b in outline for f in (0.25, 0.75)]
        return sum(_close(board.getpixel((round(x), round(y))), HALO_LIGHT, 8) for x, y in points)

    assert white(img) >= 0.8 * 2 * len(outline)
    assert white(without) <= 0.1 * 2 * len(outline)


def test_the_route_is_highlighted_only_while_it_is_news():
    states = played("northeast", 4, 1)
    i = next(k for k, s in enumerate(states) if s.phase == "deliver" and s.last_route and route_is_news(s))
    state = states[i]
    ml = map_layout(state.options.map)
    m = board_map(state)
    looks = board_mod.link_looks(state)
    label, sides = next(key for key, (lid, _, _) in looks.items() if lid == state.last_route[0])
    path = ml.track_path(m.hex_at(label), sides)
    img = render_board(GAME.view(state, None), NAMES[:4], "en")
    # the halo's white band runs beside the track: look across the track at its middle
    (ax, ay), (bx, by) = path[0], path[-1]
    mx, my = path[len(path) // 2]
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1
    nx, ny = -(by - ay) / length, (bx - ax) / length
    half = board_mod.casing_width(ml) / 2
    band = [img.getpixel((round(mx + nx * t), round(my + ny * t))) for t in range(int(half) + 1, int(half) + 9)]
    assert any(_close(px, HALO_LIGHT, 8) for px in band)
    # the same board when no cube has moved this turn: the old route is no longer news
    stale = state.clone()
    stale.delivered = list(state.history[-1]["delivered"]) if state.history else [0] * 5
    assert not route_is_news(stale)
    again = render_board(GAME.view(stale, None), NAMES[:4], "en")
    band = [again.getpixel((round(mx + nx * t), round(my + ny * t))) for t in range(int(half) + 1, int(half) + 9)]
    assert not any(_close(px, HALO_LIGHT, 8) for px in band)


def test_cubes_are_drawn_in_their_cities(busy):
    img = render_board(GAME.view(busy, None), NAMES[:4], "en")
    ml = map_layout(busy.options.map)
    m = board_map(busy)
    label, counts = next((k, v) for k, v in busy.cubes.items() if sum(v) >= 2)
    colour = next(c for c, k in zip(style.GOODS, counts) if k)
    x, y = ml.center(m.hex_at(label))
    r = int(ml.s * 0.8)
    area = img.crop((int(x) - r, int(y) - r // 2, int(x) + r, int(y) + r))
    assert any(_close(c, style.GOODS[colour], 6) for _, c in area.getcolors(1 << 16))


def test_the_static_map_is_cached_per_map_and_language(busy):
    render_board(GAME.view(busy, None), NAMES[:4], "en")
    first = board_mod.static_map("northeast", "en")
    render_board(GAME.view(busy, None), NAMES[:4], "en")
    assert board_mod.static_map("northeast", "en") is first
    assert board_mod.static_map("northeast", "ja") is not first


# --- alt text ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_alt_text_says_what_the_images_show(lang):
    states = played("northeast", 4, 1)
    state = busiest(states)
    names = NAMES[:4]
    board = RENDERER.describe_board(GAME.view(state, None), names, lang)
    hand = RENDERER.describe_hand(GAME.view(state, 0), names, lang)
    final = RENDERER.describe_final(GAME.view(states[-1], None), names, lang)
    for text in (board, hand, final):
        assert 0 < len(text) <= 1024
        assert "steam.render." not in text
    assert all(name in board for name in names)
    assert names[0] in hand
    cash = f"${state.players[0].cash}"
    assert cash in hand
    if lang == "ja":
        assert "所持金" in board and "所持金" in hand
    else:
        assert "income" in board
    assert RENDERER.describe_hand(GAME.view(state, None), names, lang) == ""


def test_catalogs_have_the_same_keys_in_both_languages():
    en = json.loads((ROOT / "data" / "steam" / "render" / "messages.en.json").read_text(encoding="utf-8"))
    ja = json.loads((ROOT / "data" / "steam" / "render" / "messages.ja.json").read_text(encoding="utf-8"))
    assert set(en) == set(ja)
    assert all(key.startswith("steam.render.") for key in en)
