"""The legend under the sidebar: what the marks on the table mean, each drawn as it is drawn
on the table — the last-move halo, a ring round a station that scored, the fixed edge of the
8×8 frame (gold) and an edge that may still move (dashed)."""
from __future__ import annotations

from PIL import Image, ImageDraw

from games.core.i18n import translate
from render.ginga import style
from render.kit.highlight import halo_lines
from render.kit.text import draw_text

ROW_H = 34
ITEMS = ("last", "stations", "frame_fixed", "frame_open")


def draw_legend(img: Image.Image, xy: tuple[int, int], width: int, lang: str) -> int:
    """Two columns, two rows; returns the height used."""
    x0, y0 = xy
    d = ImageDraw.Draw(img)
    col_w = width // 2
    for i, item in enumerate(ITEMS):
        x = x0 + (i % 2) * col_w
        cy = y0 + (i // 2) * ROW_H + ROW_H // 2
        _symbol(img, d, item, (x + 6, cy - 10, x + 30, cy + 10))
        draw_text(img, (x + 40, cy), translate(lang, f"ginga.render.legend.{item}"), style.MIN_TEXT, style.MUTED,
                  anchor="lm", max_width=col_w - 40)
    return 2 * ROW_H


def _symbol(img: Image.Image, d: ImageDraw.ImageDraw, item: str, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    if item == "last":  # the halo reaches a band and an edge beyond the small tile
        halo_lines(img, [[(x0 + 4, y0 + 3), (x1 - 4, y0 + 3), (x1 - 4, y1 - 3), (x0 + 4, y1 - 3), (x0 + 4, y0 + 3)]], 2)
        d.rounded_rectangle((x0 + 4, y0 + 3, x1 - 4, y1 - 3), 3, fill=style.TILE, outline=style.TILE_EDGE)
    elif item == "stations":
        cx, r = (x0 + x1) / 2, 6
        d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), outline=style.TEXT, width=3)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.STATION, outline=style.STATION_RING, width=2)
    elif item == "frame_fixed":
        d.rectangle((x0, y0, x1, y1), fill=style.SKY)
        d.line((x0 + 3, cy, x1 - 3, cy), fill=style.FRAME, width=5)
    else:
        d.rectangle((x0, y0, x1, y1), fill=style.SKY)
        for sx in range(x0 + 3, x1 - 3, 9):
            d.line((sx, cy, min(sx + 5, x1 - 3), cy), fill=style.FRAME_SOFT, width=4)
