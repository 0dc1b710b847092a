"""Score charts for the final image.

stacked_bar_chart / score_chart: one horizontal stacked bar per player, a segment per
category. Positive points stack to the right of the zero line, negative ones (failed
tickets) to the left, so a player's bar shows at a glance where the points came from and
what they lost.

score_timeline: each player's score after every turn, one line per player, so the final
post tells how the game went (who led early, where it turned).

A chart fills most of its image's width (FILL), so its text is sized to stay legible
when that image is shown 400 px wide (render/kit/legibility.py).
"""
from __future__ import annotations

import math
from typing import Mapping, Sequence

from PIL import Image, ImageDraw

from render.kit import palette
from render.kit.legibility import min_font_px
from render.kit.palette import contrast_text, darker
from render.kit.text import draw_text, measure, signed

# Muted, mostly greyed tints, spread in lightness so they also differ from each other
# without hue. None can be taken for a seat: each is at least 14.4 ΔE00 from every
# PLAYER_COLORS entry in normal vision, deuteranopia and protanopia (render/kit/vision.py,
# whose bar is 12), at least 18.0 from another category in normal vision and 9.8 in the
# dichromacies (the legend and the numbers in the bars do the rest), and clear
# from BACKGROUND (17.9).
CATEGORY_COLORS = [
    (41, 109, 117),  # dark teal
    (184, 149, 15),  # mustard
    (146, 118, 153),  # mauve
    (116, 97, 209),  # periwinkle
    (80, 74, 74),  # charcoal
    (177, 174, 179),  # light grey
    (101, 109, 86),  # olive grey
]
BACKGROUND = palette.BACKGROUND
INK = palette.INK
MUTED = palette.MUTED
GRID = palette.GRID

Row = tuple[str, Sequence[int], tuple[int, int, int]]  # name, value per category, seat colour
# The share of its image's width a chart usually takes (the final image's side padding).
FILL = 0.94


def text_px(base: int, width: int) -> int:
    """`base`, or more if an image holding a chart `width` wide would shrink it illegibly."""
    return max(base, min_font_px(round(width / FILL)))


def score_chart(players: Sequence[Mapping], category_labels: Mapping[str, str], size: tuple[int, int],
                title: str | None = None,
                category_colors: Mapping[str, tuple[int, int, int]] | None = None) -> Image.Image:
    """The chart from dicts: players = [{"name", "color", "parts": {category: points}}].

    Categories are drawn in category_labels' order (a part whose category has no label
    is ignored); category_colors overrides the default colour of any category.
    """
    keys = list(category_labels)
    rows = [(str(p["name"]), [int(p["parts"].get(k, 0)) for k in keys], tuple(p["color"])[:3]) for p in players]
    colors = [(category_colors or {}).get(k, CATEGORY_COLORS[i % len(CATEGORY_COLORS)]) for i, k in enumerate(keys)]
    return stacked_bar_chart(rows, [category_labels[k] for k in keys], size, title, colors=colors)


def stacked_bar_chart(rows: Sequence[Row], labels: Sequence[str], size: tuple[int, int],
                      title: str | None = None,
                      colors: Sequence[tuple[int, int, int]] | None = None) -> Image.Image:
    """Rows of (name, value per category, seat colour); labels name the categories."""
    palette_ = list(colors) if colors else CATEGORY_COLORS
    width, height = size
    img = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(img)
    pad = 24
    title_px, legend_px, name_px, value_px, total_px = (text_px(b, width) for b in (26, 18, 22, 16, 24))
    y = pad
    if title:
        draw_text(img, (pad, y), title, title_px, INK, bold=True)
        y += round(title_px * 1.7)
    # Legend: one swatch per category.
    x = pad
    for i, label in enumerate(labels):
        colour = palette_[i % len(palette_)]
        w, _ = measure(label, legend_px)
        if x + 28 + w > width - pad:
            x = pad
            y += round(legend_px * 1.6)
        draw.rounded_rectangle((x, y + 3, x + 20, y + 23), 4, fill=colour)
        draw_text(img, (x + 28, y + 13), label, legend_px, INK, anchor="lm")
        x += 28 + w + 26
    y += round(legend_px * 2.3)
    if not rows:
        return img
    name_w = min(280, max(measure(name, name_px, True)[0] for name, _, _ in rows) + 44)
    low = min(0, min(sum(v for v in values if v < 0) for _, values, _ in rows))
    high = max(1, max(sum(v for v in values if v > 0) for _, values, _ in rows))
    total_w = max(measure(signed(sum(values)), total_px, True)[0] for _, values, _ in rows) + 20
    left = pad + name_w
    right = width - pad - total_w
    span = (high - low) or 1
    scale = (right - left) / span
    zero = left + (-low) * scale
    bar_h = max(18, min(46, (height - y - pad) // max(1, len(rows)) - 14))
    draw.line((zero, y - 6, zero, y + len(rows) * (bar_h + 14)), fill=MUTED, width=2)
    for name, values, seat_rgb in rows:
        mid = y + bar_h // 2
        draw.rounded_rectangle((pad, mid - 10, pad + 20, mid + 10), 4, fill=seat_rgb)
        draw_text(img, (pad + 28, mid), name, name_px, INK, bold=True, anchor="lm", max_width=name_w - 40)
        pos, neg = zero, zero
        for i, value in enumerate(values):
            if value == 0:
                continue
            colour = palette_[i % len(palette_)]
            length = abs(value) * scale
            if value > 0:
                box = (pos, y, pos + length, y + bar_h)
                pos += length
            else:
                box = (neg - length, y, neg, y + bar_h)
                neg -= length
            draw.rectangle(box, fill=colour, outline=BACKGROUND)
            if box[2] - box[0] >= measure(signed(value), value_px, True)[0] + 8:
                draw_text(img, ((box[0] + box[2]) / 2, mid), signed(value), value_px, contrast_text(colour),
                          bold=True, anchor="mm")
        total = sum(values)
        draw_text(img, (max(pos, zero) + 10, mid), signed(total), total_px, INK,
                  bold=True, anchor="lm")
        y += bar_h + 14
    return img


Series = tuple[str, tuple[int, int, int], Sequence[int]]  # name, seat colour, score after each turn
# Marker shapes, one per seat in series order: with the name at each line's end they tell
# the lines apart without colour. A board whose other marks take some of these shapes gives
# its seats others (render.kit.symbols); the chart then draws the board's.
MARKERS = ("circle", "square", "triangle", "diamond", "triangle_down", "cross")
# Every shape draw_marker draws (the seats' and the boards' marks).
SHAPES = (*MARKERS, "star", "hexagon", "hourglass", "heart", "crescent")
MARKERS_PER_LINE = 8


def _nice_step(span: float, count: int) -> int:
    """A 1/2/5 x 10^k step giving about `count` intervals over span."""
    raw = max(1.0, span / max(1, count))
    magnitude = 10 ** len(str(int(raw))) // 10 or 1
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return factor * magnitude
    return 10 * magnitude


def marker_points(shape: str, centre: tuple[float, float], r: float) -> list[tuple[float, float]] | None:
    """The corners of a polygon shape about 2r across (None for the circle and the cross)."""
    x, y = centre
    if shape == "square":
        s = r * 0.88
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    if shape == "triangle":
        return [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
    if shape == "triangle_down":
        return [(x, y + r * 1.15), (x + r * 1.1, y - r * 0.8), (x - r * 1.1, y - r * 0.8)]
    if shape == "diamond":
        s = r * 1.2
        return [(x, y - s), (x + s, y), (x, y + s), (x - s, y)]
    if shape == "star":  # five points, one up
        return [(x + (r * 1.4 if k % 2 == 0 else r * 0.62) * math.sin(math.pi * k / 5),
                 y - (r * 1.4 if k % 2 == 0 else r * 0.62) * math.cos(math.pi * k / 5) + r * 0.1) for k in range(10)]
    if shape == "hexagon":  # a corner up
        return [(x + r * 1.1 * math.sin(math.pi * k / 3), y - r * 1.1 * math.cos(math.pi * k / 3)) for k in range(6)]
    if shape == "crescent":  # a moon open to the right: a disc less a disc shifted right
        outer = [(x + r * 1.1 * math.cos(math.radians(a)), y + r * 1.1 * math.sin(math.radians(a)))
                 for a in range(50, 311, 10)]
        inner = [(x + r * 0.75 + r * 0.8 * math.cos(math.radians(a)), y + r * 0.8 * math.sin(math.radians(a)))
                 for a in range(250, 109, -10)]
        return outer + inner
    if shape == "hourglass":  # two triangles tip to tip, with a waist
        s, w = r * 0.95, r * 0.22
        return [(x - s, y - s * 1.1), (x + s, y - s * 1.1), (x + w, y), (x + s, y + s * 1.1), (x - s, y + s * 1.1),
                (x - w, y)]
    if shape == "heart":
        return [(x + r * 0.075 * 16 * math.sin(t) ** 3,
                 y - r * 0.075 * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
                 + r * 0.1) for t in (2 * math.pi * k / 28 for k in range(28))]
    if shape in ("circle", "cross"):
        return None
    raise ValueError(f"no marker shape {shape!r}")


def draw_marker(draw: ImageDraw.ImageDraw, shape: str, centre: tuple[float, float], r: float, fill,
                outline=INK, width: int = 2) -> None:
    """One of SHAPES at centre, about 2r across, filled with the seat colour and outlined."""
    x, y = centre
    points = marker_points(shape, centre, r)
    if points is not None:
        draw.polygon(points, fill=fill, outline=outline, width=width)
    elif shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    else:  # cross: an X of two thick bars, outlined
        s, t = r * 1.05, max(2.0, r * 0.42)
        for sign in (1, -1):
            draw.line([(x - s, y - sign * s), (x + s, y + sign * s)], fill=outline, width=round(2 * t + 2 * width))
        for sign in (1, -1):
            draw.line([(x - s, y - sign * s), (x + s, y + sign * s)], fill=fill, width=round(2 * t))


def spread_labels(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as close to `wanted` as possible, at least `gap` apart, within [low, high].

    Sorted order is kept. Labels that would collide form a block centred on the mean of
    what its members want; neighbouring blocks that then overlap merge, until none do
    (the pool-adjacent-violators idea, so each label ends up as near its line as the
    others allow). The whole stack is finally pushed inside the range.
    """
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    blocks: list[list[float]] = []  # [sum of wanted, count] per block, top to bottom

    def first(block: list[float]) -> float:
        return block[0] / block[1] - gap * (block[1] - 1) / 2

    for i in order:
        blocks.append([float(wanted[i]), 1.0])
        while len(blocks) > 1 and first(blocks[-1]) < first(blocks[-2]) + gap * blocks[-2][1] - 1e-6:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    pos = [first(b) + gap * k for b in blocks for k in range(int(b[1]))]
    n = len(pos)
    for k in range(n):  # into range: the bottom first, then the top wins if both bind
        pos[k] = min(pos[k], high - gap * (n - 1 - k))
    for k in range(n):
        pos[k] = max(pos[k], low + gap * k)
    out = [0.0] * n
    for k, i in enumerate(order):
        out[i] = pos[k]
    return out


def end_label(name: str, points: int) -> str:
    """The words at the end of a player's line: the name and the last point's score."""
    return f"{name} {signed(points)}"


def score_timeline(series: Sequence[Series], size: tuple[int, int], title: str | None = None,
                   final: str | None = None, markers: Sequence[str] = MARKERS) -> Image.Image:
    """A line chart of each player's score after every turn.

    series = [(name, seat colour, [score after turn 1, after turn 2, ...])]; the x axis
    counts turns, the y axis points with a few gridlines. Each line is drawn in the seat
    colour (with a darker casing, so light seats stand out on the page), carries its own
    marker shape (`markers`, in series order: the board's seat shapes) and ends with the
    player's marker, name and final score, labels nudged apart so they never overlap.

    With `final`, each series' last value is the end-of-game scoring, not a turn: its tick
    is labelled `final` instead of a number, so a jump there reads as what it is.
    """
    width, height = size
    img = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(img)
    title_px, label_px, tick_px = text_px(26, width), text_px(20, width), text_px(16, width)
    pad = max(16, round(width * 0.02))
    top = pad
    if title:
        draw_text(img, (pad, top), title, title_px, INK, bold=True, max_width=width - 2 * pad)
        top += round(title_px * 1.6)
    lines = [(str(name), tuple(rgb)[:3], [int(v) for v in values]) for name, rgb, values in series]
    turns = max((len(v) for _, _, v in lines), default=0)
    values = [v for _, _, vs in lines for v in vs] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    step = _nice_step(high - low, 4)
    low = (low // step) * step
    high = -(-high // step) * step
    marker_r = max(5, round(label_px * 0.38))
    labels = [end_label(name, vs[-1] if vs else 0) for name, _, vs in lines]
    label_w = max((measure(t, label_px, True)[0] for t in labels), default=0)
    tick_w = max(measure(signed(v), tick_px)[0] for v in (low, high))
    left = pad + tick_w + 10
    right = width - pad - min(label_w + 4 * marker_r + 26, width // 3)
    bottom = height - pad - round(tick_px * 1.5)
    top += marker_r + 2
    if right <= left + 20 or bottom <= top + 20:
        return img

    def px(turn: float, points: float) -> tuple[float, float]:
        x = left + (right - left) * ((turn - 1) / max(1, turns - 1) if turns > 1 else 0.5)
        y = bottom - (bottom - top) * (points - low) / (high - low)
        return x, y

    line_w = max(3, round(width / 320))
    for v in range(low, high + 1, step):
        _, y = px(1, v)
        draw.line((left, y, right, y), fill=GRID if v else MUTED, width=2 if v else 3)
        draw_text(img, (left - 8, y), signed(v), tick_px, MUTED, anchor="rm")
    last_turn = turns - 1 if final and turns > 1 else turns
    turn_step = _nice_step(max(1, last_turn - 1), 6)
    ticks = {t: str(t) for t in sorted({1, *range(turn_step, last_turn + 1, turn_step)}) if 1 <= t <= last_turn}
    if last_turn < turns:
        # the end-of-game scoring's own tick; a turn number too close to its label gives way
        room = measure(str(final), tick_px)[0] / 2 + 8
        end_x = px(turns, low)[0]
        ticks = {t: label for t, label in ticks.items()
                 if end_x - px(t, low)[0] >= room + measure(label, tick_px)[0] / 2}
        ticks[turns] = str(final)
        draw.line((end_x, top, end_x, bottom), fill=GRID, width=2)
    for t, label in ticks.items():
        x, _ = px(t, low)
        draw.line((x, bottom, x, bottom + 6), fill=MUTED, width=2)
        draw_text(img, (x, bottom + 8), label, tick_px, MUTED, bold=t == turns and last_turn < turns, anchor="ma")
    for seat, (name, rgb, vs) in enumerate(lines):
        points = [px(i + 1, v) for i, v in enumerate(vs)]
        if len(points) >= 2:
            draw.line(points, fill=darker(rgb, 0.6), width=line_w + 4, joint="curve")
            draw.line(points, fill=rgb, width=line_w, joint="curve")
        # Markers at evenly spaced turns, staggered per seat so lines that run together
        # (everyone at 0 early on) still show every shape.
        if vs:
            every = max(1, len(vs) // MARKERS_PER_LINE)
            shift = (seat * every) // max(1, len(lines))
            for i in range(shift, len(vs), every):
                draw_marker(draw, markers[seat % len(markers)], points[i], marker_r, rgb)
            draw_marker(draw, markers[seat % len(markers)], points[-1], marker_r, rgb)
    ends = [px(len(vs), vs[-1])[1] if vs else px(1, 0)[1] for _, _, vs in lines]
    placed = spread_labels(ends, label_px * 1.25, top, bottom)
    for seat, ((name, rgb, vs), wanted_y, y, text) in enumerate(zip(lines, ends, placed, labels)):
        end_x = px(max(1, len(vs)), 0)[0]
        x = right + 3 * marker_r + 14
        if abs(y - wanted_y) > 1:
            draw.line((end_x + marker_r, wanted_y, x - marker_r - 2, y), fill=MUTED, width=2)
        draw_marker(draw, markers[seat % len(markers)], (x, y), marker_r, rgb)
        draw_text(img, (x + marker_r + 6, y), text, label_px, INK, bold=True, anchor="lm",
                  max_width=width - pad - (x + marker_r + 6))
    return img
