"""The small figures drawn both on the map and in the panel's key: the robber and a seat's
locomotive, drawn once at twice the size and shrunk (smooth edges), then pasted."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.catan_express import style
from render.catan_express.sizes import LOCO_H, LOCO_W
from render.kit.chart import draw_marker

SS = 2  # figures are drawn this many times larger, then shrunk


@lru_cache(maxsize=8)
def robber_patch(s: float) -> Image.Image:
    h = s * 0.62
    size = int(h + 10)
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    u = h * SS / 2
    d.ellipse((c - 0.3 * u, c - u, c + 0.3 * u, c - 0.4 * u), fill=style.ROBBER, outline=style.ROBBER_EDGE, width=SS * 2)
    body = [(c - 0.2 * u, c - 0.45 * u), (c + 0.2 * u, c - 0.45 * u), (c + 0.55 * u, c + u), (c - 0.55 * u, c + u)]
    d.polygon(body, fill=style.ROBBER)
    d.line(body + body[:1], fill=style.ROBBER_EDGE, width=SS * 2, joint="curve")
    return big.resize((size, size), Image.Resampling.BOX)


@lru_cache(maxsize=16)
def loco_patch(seat: int) -> Image.Image:
    """A small locomotive in the seat's colour with the seat's shape on its cab."""
    w, h = LOCO_W, LOCO_H  # the size the layout keeps room for
    size = (int(w + 8), int(h + 8))
    big = Image.new("RGBA", (size[0] * SS, size[1] * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    x0, y0 = 4 * SS, 4 * SS
    W, H = w * SS, h * SS
    colour, edge = style.player_rgb(seat), style.CASING
    ew = 2 * SS
    d.rectangle((x0 + 0.05 * W, y0 + 0.2 * H, x0 + 0.22 * W, y0 + 0.45 * H), fill=colour, outline=edge, width=ew)
    d.rounded_rectangle((x0, y0 + 0.42 * H, x0 + 0.62 * W, y0 + 0.8 * H), 3 * SS, fill=colour, outline=edge, width=ew)
    d.rectangle((x0 + 0.55 * W, y0, x0 + W, y0 + 0.8 * H), fill=colour, outline=edge, width=ew)
    for wx in (0.15, 0.45, 0.8):
        r = 0.14 * H
        d.ellipse((x0 + wx * W - r, y0 + 0.86 * H - r, x0 + wx * W + r, y0 + 0.86 * H + r), fill=edge)
    draw_marker(d, style.player_marker(seat), (x0 + 0.775 * W, y0 + 0.38 * H), 0.2 * H, style.player_ink(seat),
                outline=edge, width=SS)
    return big.resize(size, Image.Resampling.BOX)
