"""The one look of "the last move" on every board: a white halo with a near-black edge.

Players mostly see a board 400 px wide, so a 1800 px board is shrunk four and a half
times: the halo is therefore thick (its white band is about 0.5 % of the image width,
9 px at 1800 px, plus a 5 px dark edge on each side) so it still shows as a clear
outline at phone size. It is white and near-black, never a hue: it cannot be mistaken
for a player or a card colour, it reads the same for every kind of colour vision, and
the pair stands out on light maps (the dark edge) and dark maps (the white band) alike.

Draw the halo first, then the piece on top: the halo is wider than the piece, so what is
left visible is a white-and-black outline hugging the route, track or tile just placed.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Point = tuple[float, float]

HALO_LIGHT: RGB = (255, 255, 255)
HALO_DARK: RGB = (16, 16, 20)


def thickness(img_width: int) -> tuple[int, int]:
    """(white band, dark edge) in pixels for an image `img_width` wide.

    At least 6 and 3 px, so a small hand image still gets a visible halo.
    """
    band = max(6, round(img_width * 0.005))
    edge = max(3, round(band * 0.55))
    return band, edge


def halo_width(img_width: int, width: float = 0) -> int:
    """How wide the halo round a piece `width` wide is on an image `img_width` wide, its dark
    edges included."""
    band, edge = thickness(img_width)
    return round(width + 2 * (band + edge))


def _fill(img: Image.Image, rgb: RGB):
    return rgb + (255,) if img.mode == "RGBA" else rgb


def _stroke(draw: ImageDraw.ImageDraw, points: Sequence[Point], width: float, fill) -> None:
    """A polyline with round joints and round ends (a single point is a dot)."""
    pts = [(float(x), float(y)) for x, y in points]
    w = max(1, round(width))
    if len(pts) >= 2:
        draw.line(pts, fill=fill, width=w, joint="curve")
    r = w / 2
    for x, y in (pts[0], pts[-1]) if pts else ():
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def halo_lines(img: Image.Image, paths: Iterable[Sequence[Point]], width: float) -> None:
    """Halo under several paths at once (one turn may build several lines).

    All dark edges are drawn before any white band, so where two paths meet or cross the
    halo stays one clean outline instead of one path's edge cutting through the other's.
    `width` is the width of the piece that will be drawn on top.
    """
    paths = [list(p) for p in paths if len(p) >= 1]
    if not paths:
        return
    band, edge = thickness(img.width)
    draw = ImageDraw.Draw(img)
    for path in paths:
        _stroke(draw, path, width + 2 * (band + edge), _fill(img, HALO_DARK))
    for path in paths:
        _stroke(draw, path, width + 2 * band, _fill(img, HALO_LIGHT))


def halo_line(img: Image.Image, points: Sequence[Point], width: float) -> None:
    """Halo under the path through `points` (a route just claimed, a track just built).

    `width` is the width of the piece drawn on top afterwards; the halo shows around it.
    """
    halo_lines(img, [points], width)


def halo_spot(img: Image.Image, centre: Point, radius: float) -> None:
    """Ring a tile or space just placed whose outline fits in a circle of `radius`.

    Only the ring (from `radius` outwards) is painted, so it may be drawn before or after
    the piece without hiding it; a thin dark line inside the white band keeps the ring
    visible on a white tile too.
    """
    band, edge = thickness(img.width)
    x, y = centre
    draw = ImageDraw.Draw(img)
    outer = radius + band + edge
    draw.ellipse((x - outer, y - outer, x + outer, y + outer), outline=_fill(img, HALO_DARK),
                 width=round(band + edge))
    inner = radius + band
    draw.ellipse((x - inner, y - inner, x + inner, y + inner), outline=_fill(img, HALO_LIGHT),
                 width=round(band))
    inside = radius + max(2, edge // 2)
    draw.ellipse((x - inside, y - inside, x + inside, y + inside), outline=_fill(img, HALO_DARK),
                 width=max(2, edge // 2))
