"""render.kit.mapdiff: a redrawn map is the map drawn afresh, and the kept maps stay bounded."""
from __future__ import annotations

import random

from PIL import Image, ImageDraw

from render.kit.mapdiff import KeptMaps, Piece

SIZE = (200, 150)


def _piece(i: int, x: int, y: int) -> Piece:
    """A translucent disc over an anti-aliased-free line: order and overlaps show in the pixels."""
    box = (x - 22, y - 22, x + 23, y + 23)

    def draw(img: Image.Image) -> None:
        d = ImageDraw.Draw(img, "RGBA")
        d.line((x - 20, y - 20, x + 20, y + 20), fill=(i * 40 % 256, 80, 200, 255), width=5)
        d.ellipse((x - 15, y - 15, x + 15, y + 15), fill=(200, i * 70 % 256, 30, 120))

    return Piece(("p", i, x, y), box, draw)


def _ground(img: Image.Image, boxes) -> None:
    for box in boxes:
        img.paste((240, 230, 210), box)


def _full(pieces):
    img = Image.new("RGB", SIZE, (240, 230, 210))
    for p in pieces:
        p.draw(img)
    return img


def test_redrawn_maps_match_fresh_ones_in_any_order():
    rng = random.Random(1)
    spots = [(i, rng.randrange(-10, SIZE[0] + 10), rng.randrange(-10, SIZE[1] + 10)) for i in range(12)]
    kept = KeptMaps(per_family=2)
    for _ in range(40):
        chosen = sorted(rng.sample(spots, rng.randrange(0, len(spots))))
        pieces = [_piece(*s) for s in chosen]
        got = kept.draw("f", SIZE, pieces, _ground, lambda: _full(pieces))
        assert got.tobytes() == _full(pieces).tobytes()
    assert kept.redraws > 10


def test_kept_maps_are_bounded():
    one = 200 * 150 * 3
    kept = KeptMaps(limit=3 * one, per_family=2)
    for i in range(6):
        pieces = [_piece(i, 50, 50)]
        kept.draw(("family", i % 4), SIZE, pieces, _ground, lambda: _full(pieces))
        assert kept.size <= 3 * one
    assert len(kept) == 3
