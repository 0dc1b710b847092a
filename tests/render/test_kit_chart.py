"""Score-over-time chart and chart colours: real images, measured."""
from itertools import combinations

from PIL import Image, ImageDraw

from render.kit.chart import (BACKGROUND, CATEGORY_COLORS, MARKERS, draw_marker, score_timeline,
                              spread_labels)
from render.kit.images import Palette
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes
from render.kit.palette import PLAYER_COLORS
from render.kit.vision import distance, problems


def count(img, rgb):
    return sum(1 for p in img.get_flattened_data() if p == rgb)


def test_each_seat_line_is_drawn_in_its_colour_and_rises_with_the_score():
    series = [("Alice", PLAYER_COLORS[0], [0, 5, 5, 20]), ("Bob", PLAYER_COLORS[1], [2, 2, 3, 4])]
    img = score_timeline(series, (900, 400), title="Score")
    for _, rgb, _ in series:
        assert count(img, rgb) > 300
    # Alice's colour reaches higher (smaller y) on the right than on the left.
    red = [(x, y) for y in range(img.height) for x in range(img.width) if img.getpixel((x, y)) == PLAYER_COLORS[0]]
    left_half = [y for x, y in red if x < 300]
    right_half = [y for x, y in red if 450 < x < 700]
    assert min(right_half) < min(left_half) - 100


def test_end_labels_never_overlap_even_for_equal_scores():
    series = [(f"P{i}", PLAYER_COLORS[i], [0, 10, 10]) for i in range(6)]
    with recording_text_sizes() as sizes:
        score_timeline(series, (1000, 420))
    label_px = max(sizes.sizes)
    names = [t for _, t in sizes.drawn if t.startswith("P")]
    assert len(names) == 6
    placed = spread_labels([100.0] * 6, label_px * 1.25, 20, 400)
    assert all(b - a >= label_px * 1.25 - 1e-6 for a, b in zip(sorted(placed), sorted(placed)[1:]))


def test_spread_labels_keeps_order_range_and_untouched_loners():
    placed = spread_labels([50, 52, 300, 55], 20, 0, 400)
    assert placed[2] == 300  # far from the crowd: not moved
    assert placed[0] < placed[1] < placed[3]
    assert min(b - a for a, b in zip(sorted(placed), sorted(placed)[1:])) >= 20 - 1e-6
    clamped = spread_labels([395, 398, 399], 20, 0, 400)
    assert max(clamped) <= 400 and min(b - a for a, b in zip(sorted(clamped), sorted(clamped)[1:])) >= 20 - 1e-6


def test_markers_are_different_shapes_not_only_colours():
    shapes = []
    for shape in MARKERS:
        img = Image.new("L", (40, 40), 0)
        draw_marker(ImageDraw.Draw(img), shape, (20, 20), 12, fill=255, outline=255)
        shapes.append(img.tobytes())
    assert len(set(shapes)) == len(MARKERS) == 6
    for a, b in combinations(shapes, 2):
        assert sum(x != y for x, y in zip(a, b)) > 40  # differ in a visible area, not a pixel


def test_timeline_text_is_legible_in_a_final_image_shown_400_wide():
    series = [("Alice", PLAYER_COLORS[0], list(range(30)))]
    with recording_text_sizes() as sizes:
        score_timeline(series, (1044, 420), title="Score")
    assert min(sizes.sizes) * 400 / 1100 >= MIN_TEXT_PX_AT_400


def test_empty_and_single_turn_series_draw_without_error():
    assert score_timeline([], (600, 300)).size == (600, 300)
    img = score_timeline([("A", PLAYER_COLORS[2], [7])], (600, 300))
    assert count(img, PLAYER_COLORS[2]) > 20  # the marker


def test_category_colours_differ_from_seats_and_each_other():
    assert problems(Palette(players=PLAYER_COLORS, categories=CATEGORY_COLORS)) == []
    for a, b in combinations(CATEGORY_COLORS, 2):
        assert distance(a, b) >= 15
        assert distance(a, b, "deutan") >= 8 and distance(a, b, "protan") >= 8
    for c in CATEGORY_COLORS:
        assert distance(c, BACKGROUND) >= 12


def test_final_image_stacks_extra_sections_below_the_chart():
    from render.kit.ranking import RankEntry, RankingLook, render_ranking
    look = RankingLook(background=BACKGROUND, panel=(255, 255, 255), panel_edge=(200, 200, 200),
                       text=(20, 20, 20), muted=(100, 100, 100))
    entries = [RankEntry(1, PLAYER_COLORS[0], "Alice", "", "30"), RankEntry(2, PLAYER_COLORS[1], "Bob", "", "20")]
    chart = lambda size: Image.new("RGB", size, (0, 0, 255))  # noqa: E731
    plain = render_ranking(look, "Final", None, entries, chart)
    timeline = lambda size: score_timeline([("Alice", PLAYER_COLORS[0], [0, 10, 30])], size)  # noqa: E731
    stacked = render_ranking(look, "Final", None, entries, chart, sections=[(300, timeline)])
    assert stacked.height == plain.height + 320
    assert stacked.crop((0, 0, plain.width, plain.height - look.pad)).tobytes() == \
        plain.crop((0, 0, plain.width, plain.height - look.pad)).tobytes()
    assert count(stacked.crop((0, plain.height - look.pad, stacked.width, stacked.height)), PLAYER_COLORS[0]) > 100


def test_labels_of_equal_scores_are_pushed_apart_in_order():
    # Two players tied on the final score once printed their names on top of each other.
    for wanted in ([100, 120, 120, 150], [300, 300, 300], [395, 399, 390, 60]):
        placed = spread_labels(wanted, 30, 50, 400)
        ordered = sorted(placed)
        assert all(b - a >= 30 - 1e-6 for a, b in zip(ordered, ordered[1:])), placed
        assert all(50 <= y <= 400 for y in placed), placed
        by_wanted = [placed[i] for i in sorted(range(len(wanted)), key=lambda i: wanted[i])]
        assert by_wanted == sorted(by_wanted), placed
