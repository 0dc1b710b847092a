"""Score-breakdown chart: one horizontal stacked bar per player, a segment per category.

Positive points stack to the right of the zero line, negative ones (failed tickets) to the
left, so a player's bar shows at a glance where the points came from and what they lost.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from PIL import Image, ImageDraw

from render.kit import palette
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure

CATEGORY_COLORS = [
    (52, 120, 198), (46, 160, 90), (214, 64, 64), (240, 170, 30), (142, 84, 190), (80, 170, 190), (120, 120, 120),
]
BACKGROUND = palette.BACKGROUND
INK = palette.INK
MUTED = palette.MUTED
GRID = palette.GRID

Row = tuple[str, Sequence[int], tuple[int, int, int]]  # name, value per category, seat colour


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
    y = pad
    if title:
        draw_text(img, (pad, y), title, 26, INK, bold=True)
        y += 44
    # Legend: one swatch per category.
    x = pad
    for i, label in enumerate(labels):
        colour = palette_[i % len(palette_)]
        w, _ = measure(label, 18)
        if x + 28 + w > width - pad:
            x = pad
            y += 30
        draw.rounded_rectangle((x, y + 3, x + 20, y + 23), 4, fill=colour)
        draw_text(img, (x + 28, y + 13), label, 18, INK, anchor="lm")
        x += 28 + w + 26
    y += 42
    if not rows:
        return img
    name_w = min(280, max(measure(name, 22, True)[0] for name, _, _ in rows) + 44)
    low = min(0, min(sum(v for v in values if v < 0) for _, values, _ in rows))
    high = max(1, max(sum(v for v in values if v > 0) for _, values, _ in rows))
    total_w = max(measure(f"{sum(values):+d}", 24, True)[0] for _, values, _ in rows) + 20
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
        draw_text(img, (pad + 28, mid), name, 22, INK, bold=True, anchor="lm", max_width=name_w - 40)
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
            if box[2] - box[0] >= measure(str(value), 16, True)[0] + 8:
                draw_text(img, ((box[0] + box[2]) / 2, mid), str(value), 16, contrast_text(colour),
                          bold=True, anchor="mm")
        total = sum(values)
        draw_text(img, (max(pos, zero) + 10, mid), f"{total:+d}" if total < 0 else str(total), 24, INK,
                  bold=True, anchor="lm")
        y += bar_h + 14
    return img
