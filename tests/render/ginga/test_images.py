"""Galactic Railway images as players meet them on Discord: colour-blind safe colours, alt
text, the whole last turn marked on the table, text legible 400 px wide, the private picture
of numbered placements and the final image's chart and per-player details.

All drawn from real games (the scorer bot, fixed seeds) with real Pillow images."""
from __future__ import annotations


import pytest

from games.ginga.models import GingaState
from games.ginga.rules import GAME
from render.ginga import RENDERER, style
from render.ginga import final as final_mod
from render.ginga import hand as hand_mod
from render.ginga import placements
from render.ginga.places import menu_numbers
from render.ginga.alt import describe_board, describe_final, describe_hand
from render.ginga.board import Grid, render_board
from render.kit import highlight
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes, smallest_at
from render.kit.vision import problems
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "Bob", "Zoë"]


def _play(seed: int, n: int) -> list[GingaState]:
    return bot_states(GAME, n, seed, "scorer")


@pytest.fixture(scope="module")
def game() -> list[GingaState]:
    return _play(5, 4)


@pytest.fixture(scope="module")
def two_tile_turn(game) -> GingaState:
    """A state right after a turn of two placements, both scoring."""
    return next(s for s in game if s.step == "place" and len(s.latest) == 2
                and all(p.station_points + p.loop_points for p in s.latest))


def _near(a, b, tol=20) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# --- colours ----------------------------------------------------------------------------------
def test_palette_passes_the_colour_vision_check_against_what_pieces_are_drawn_on():
    palette = RENDERER.palette
    assert len(palette.players) == GAME.max_players
    assert {style.SKY, style.SKY_CELL, style.TILE, style.PANEL} <= set(palette.surfaces.values())
    assert problems(palette) == []


# --- alt text ---------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_alt_text_names_the_waited_on_player_the_scores_and_the_whole_last_turn(two_tile_turn, lang):
    view = GAME.view(two_tile_turn, None)
    text = RENDERER.describe_board(view, NAMES, lang)
    assert text == describe_board(view, NAMES, lang) and len(text) <= 1024
    assert NAMES[view.current] in text
    for p in view.players:
        assert f"{NAMES[p.seat]} {p.total}" in text
    for p in view.latest:  # both tiles of the turn, with where they went
        (ax, ay), (bx, by) = p.cells
        assert p.tile in text and f"{'ABCDEFGHIJKLMNO'[ax]}{ay + 1}–{'ABCDEFGHIJKLMNO'[bx]}{by + 1}" in text
        assert str(p.station_points + p.loop_points) in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_alt_texts_stay_within_discords_limit_with_long_names(game, lang):
    names = [("名" if lang == "ja" else "N") * 32 + str(i) for i in range(4)]
    for state in game[::4] + [game[-1]]:
        assert 0 < len(describe_board(GAME.view(state, None), names, lang)) <= 1024
        assert 0 < len(describe_hand(GAME.view(state, state.current), names, lang)) <= 1024
    final = describe_final(GAME.view(game[-1], None), names, lang)
    assert 0 < len(final) <= 1024 and names[GAME.view(game[-1], None).result.players[0].seat] in final


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hand_and_final_alt_text(game, lang):
    state = game[len(game) // 2]
    view = GAME.view(state, state.current)
    hand = describe_hand(view, NAMES, lang)
    assert NAMES[state.current] in hand and all(t in hand for t in view.players[state.current].hand)
    end = GAME.view(game[-1], None)
    final = describe_final(end, NAMES, lang)
    for row in end.result.players:
        assert NAMES[row.seat] in final and str(row.total) in final
    for best in end.bests:
        assert str(best.station_points) in final


# --- the last turn on the table -------------------------------------------------------------------
def _halo_pixels(img, grid: Grid, cells) -> list[tuple[int, int, int]]:
    """Pixels just outside the tile's box, in the middle of each long side, where the halo's
    white band lies."""
    (lx, ly), (rx, ry) = cells
    x0, y0 = grid.origin(min(lx, rx), min(ly, ry))
    x1, y1 = grid.origin(max(lx, rx) + 1, max(ly, ry) + 1)
    band, _ = highlight.thickness(img.width)
    off = max(2, band // 2)
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    return [img.getpixel(xy)[:3] for xy in ((mx, y0 - off), (mx, y1 + off - 1), (x0 - off, my), (x1 + off - 1, my))]


def test_every_tile_of_the_last_turn_gets_the_kit_halo(two_tile_turn):
    view = GAME.view(two_tile_turn, None)
    img = render_board(view, NAMES)
    plain = render_board(view.model_copy(update={"latest": []}), NAMES)
    grid = Grid.of(view)
    for p in view.latest:
        marked = _halo_pixels(img, grid, p.cells)  # a side may touch the turn's other tile or a badge
        assert sum(_near(px, highlight.HALO_LIGHT) for px in marked) >= 2
        assert not any(_near(px, highlight.HALO_LIGHT, 8) for px in _halo_pixels(plain, grid, p.cells))


def test_the_sidebar_lists_every_placement_of_the_last_turn_and_names_the_player(two_tile_turn):
    view = GAME.view(two_tile_turn, None)
    with recording_text_sizes() as sizes:
        render_board(view, NAMES)
    texts = " | ".join(text for _, text in sizes.drawn)
    assert NAMES[view.latest[0].seat] in texts
    for p in view.latest:
        (ax, ay), (bx, by) = p.cells
        assert f"{'ABCDEFGHIJKLMNO'[ax]}{ay + 1}–{'ABCDEFGHIJKLMNO'[bx]}{by + 1}" in texts
        assert f"+{p.station_points + p.loop_points}" in texts


# --- legible at 400 px ------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_text_of_every_image_is_legible_shown_400px_wide(game, lang):
    state = game[len(game) // 2]
    images = {
        "board": lambda: render_board(GAME.view(state, None), NAMES, lang),
        "hand (mover)": lambda: hand_mod.render_hand(GAME.view(state, state.current), NAMES, lang),
        "hand (waiting)": lambda: hand_mod.render_hand(GAME.view(state, (state.current + 1) % 4), NAMES, lang),
        "final": lambda: final_mod.render_final(GAME.view(game[-1], None), NAMES, lang),
    }
    for what, draw in images.items():
        with recording_text_sizes() as sizes:
            img = draw()
        size, text = sizes.smallest()
        assert smallest_at(size, img.width) >= MIN_TEXT_PX_AT_400, (what, size, text, img.width)


def test_hand_tiles_in_the_sidebar_are_big_enough_to_read(game):
    """Each held tile shows a face at least 12 px tall when the board is shown 400 px wide."""
    view = GAME.view(game[len(game) // 2], None)
    img = render_board(view, NAMES)
    from render.ginga import sidebar
    row = img.crop((sidebar.SX + 30, 0, sidebar.SX + sidebar.SW, img.height))
    ivory = [y for y in range(row.height) if sum(_near(row.getpixel((x, y))[:3], style.TILE, 6)
                                                   for x in range(0, row.width, 2)) > 4]
    runs, start = [], None
    for a, b in zip(ivory, ivory[1:] + [None]):  # a run of tile rows, across a track line
        start = a if start is None else start
        if b is None or b > a + 10:
            runs.append(a - start + 1)
            start = None
    tall = [r for r in runs if r * 400 / img.width >= 12]  # a tile face: a cell less its rim (was under 10)
    assert len(tall) >= 4  # one row of tiles per player


# --- the private picture of numbered placements ------------------------------------------------------
def test_the_hand_picture_draws_every_menu_number_once_per_tile(game):
    state = game[len(game) // 3]
    view = GAME.view(state, state.current)
    with recording_text_sizes() as sizes:
        hand_mod.render_hand(view, NAMES)
    drawn = [text for _, text in sizes.drawn]
    for tile in set(o.tile for o in view.options):
        count = sum(1 for o in view.options if o.tile == tile)
        assert count >= 2
    numbers = sorted(n for tile in set(o.tile for o in view.options)
                     for n in menu_numbers(view, [o for o in view.options if o.tile == tile]))
    assert None not in numbers
    drawn_numbers = sorted(int(t) for t in drawn if t.isdigit())
    assert all(drawn_numbers.count(n) >= numbers.count(n) for n in set(numbers))


def _tables(view):
    """Each held tile's numbered table as the hand image draws it: (options, numbers, image, grid)."""
    box = placements.bounds(view, view.options)
    col_w = (hand_mod.WIDTH - 2 * hand_mod.PAD - hand_mod.GAP) // 2
    cell = placements.cell_for(box, col_w, hand_mod.WIDTH)
    for tile in sorted(set(o.tile for o in view.options)):
        mine = [o for o in view.options if o.tile == tile]
        numbers = menu_numbers(view, mine)
        img, grid = placements.numbered_table(view, mine, numbers, box, cell, hand_mod.FLOOR)
        yield mine, numbers, img, grid


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("players,seed", [(4, 5), (2, 11)])
def test_number_badges_never_touch_each_other_in_a_whole_game(players, seed):
    for state in _play(seed, players):
        view = GAME.view(state, state.current)
        if not view.options:
            continue
        for mine, numbers, _, grid in _tables(view):
            size, squeeze = placements.number_style(grid.cell, numbers, hand_mod.FLOOR)
            assert size >= hand_mod.FLOOR
            spots = [placements.number_spot(grid, o) for o in mine]
            assert len(set(spots)) == len(spots)
            boxes = [placements.badge_box(grid, o, n, size, squeeze) for o, n in zip(mine, numbers)]
            clash = [(mine[i].notation, mine[j].notation) for i in range(len(boxes)) for j in range(i)
                     if _overlap(boxes[i], boxes[j])]
            assert not clash, clash


def test_scoring_numbers_are_filled_badges_and_the_rest_outlined(game):
    """Told apart by fill and lightness, not hue alone: a scoring badge is gold right up to
    its edge, any other is dark inside a light rim."""
    state = next(s for s in game if len({bool(o.points) for o in GAME.view(s, s.current).options}) == 2)
    view = GAME.view(state, state.current)
    seen = set()
    for mine, numbers, img, grid in _tables(view):
        size, squeeze = placements.number_style(grid.cell, numbers, hand_mod.FLOOR)
        for o, n in zip(mine, numbers):
            x0, y0, x1, y1 = placements.badge_box(grid, o, n, size, squeeze)
            cx = round((x0 + x1) / 2)
            rim, inside = img.getpixel((cx, round(y0) + 1)), img.getpixel((cx, round(y0) + placements.RIM + 2))
            if o.points:
                assert _near(rim, style.FRAME) and _near(inside, style.FRAME), o.notation
            else:
                assert _near(rim, placements.OUTLINE, 40) and _near(inside, style.SKY), o.notation
            seen.add(bool(o.points))
    assert seen == {True, False}


def test_numbers_grow_with_the_cells(game):
    """Few placements late in a game leave big cells: the numbers fill them instead of
    staying at the legibility floor."""
    state = min((s for s in game if GAME.view(s, s.current).options),
                key=lambda s: len(GAME.view(s, s.current).options))
    view = GAME.view(state, state.current)
    with recording_text_sizes() as sizes:
        tables = list(_tables(view))
    numbered = {str(n) for _, numbers, _, _ in tables for n in numbers}
    numbers = [size for size, text in sizes.drawn if text in numbered and size != placements.NAME_SIZE]
    assert tables and numbers and min(numbers) >= 1.5 * hand_mod.FLOOR, (numbers, tables[0][3].cell)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("players,seed", [(4, 5), (2, 11)])
def test_the_hand_picture_is_never_much_taller_than_wide(players, seed, lang):
    """Discord fits an image into a box about 400 px wide and 350 tall: a tall one is shown
    tiny until clicked."""
    states = [s for s in _play(seed, players) if s.step != "over"]
    for state in (states[1], states[len(states) // 2], states[-1]):
        img = hand_mod.render_hand(GAME.view(state, state.current), NAMES[:players], lang)
        assert img.height <= 1.3 * img.width, (img.size, state.step)


def test_a_waiting_player_gets_their_tiles_without_tables(game):
    state = game[len(game) // 3]
    mover = hand_mod.render_hand(GAME.view(state, state.current), NAMES)
    other = hand_mod.render_hand(GAME.view(state, (state.current + 1) % 4), NAMES)
    assert other.height < mover.height / 2


# --- the final image --------------------------------------------------------------------------
def test_timeline_starts_at_zero_and_ends_at_the_totals(game):
    end = GAME.view(game[-1], None)
    series = final_mod.timeline(end, lambda seat: NAMES[seat])
    for seat, (name, colour, points) in enumerate(series):
        assert name == NAMES[seat] and colour == style.player_rgb(seat)
        assert points[0] == 0 and points[-1] == end.players[seat].total
        assert len(points) == len(end.score_history) + 1


def test_each_players_best_loop_is_drawn_in_their_colour(game):
    end = GAME.view(game[-1], None)
    size = 400
    for best in end.bests:
        img = final_mod.best_table(end, best, size)
        grid = Grid.of(end, size, 10)
        colour = style.player_rgb(best.seat)
        if best.loop:
            on_loop = [_near(img.getpixel(tuple(map(int, grid.centre(x, y))))[:3], colour, 40) for x, y in best.loop]
            assert sum(on_loop) >= 0.8 * len(on_loop)


def test_final_image_has_ranking_chart_and_details(game):
    end = GAME.view(game[-1], None)
    with recording_text_sizes() as sizes:
        img = final_mod.render_final(end, NAMES, "en")
    texts = [t for _, t in sizes.drawn]
    assert "Score after each turn" in texts and "Best loop and station network" in texts
    for best in end.bests:  # a caption per player with the loop and station points
        assert any(t.startswith(NAMES[best.seat]) and str(best.station_points) in t for t in texts)
    assert img.width == final_mod.WIDTH and img.height > 1200
