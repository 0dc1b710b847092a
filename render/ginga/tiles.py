"""Drawing one tile: an ivory domino with its track and station, in any orientation.

Track runs from the centre of a half to the middle of each edge with an exit (so track on
neighbouring tiles meets edge to edge when a connection succeeds) and between the two halves
when both have exits — or when the station sits in a half with no exit of its own, so the
station is always on the line. Patches are drawn at 3× and scaled down (smooth lines), and
cached per tile, orientation and size: a move pastes them instead of drawing again.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.ginga.board import second_cell
from games.ginga.tiles import EDGE_GEOMETRY, L, R, Tile, tileset
from render.ginga import style

SS = 3
DIR_VEC = ((0, -1), (1, 0), (0, 1), (-1, 0))


def tile_by_id(tile_id: str) -> Tile:
    tile = tileset().find(tile_id)
    if tile is None:
        raise ValueError(f"unknown tile {tile_id!r}")
    return tile


@lru_cache(maxsize=300)  # 32 tiles × 4 ways round at the two or three sizes a game shows
def tile_patch(tile_index: int, orient: int, cell: int, mark_half: bool = False) -> Image.Image:
    """An RGBA image of the tile covering two cells of `cell` pixels; half L in the top-left
    cell for right/down, in the bottom/right one for left/up (the patch's box is the union of
    both cells). `mark_half` puts a grey dot in half L of a tile without a station (for the
    hand image, where the direction words need to know which half is which)."""
    tile = tileset().tiles[tile_index]
    rx, ry = second_cell(0, 0, orient)
    ox, oy = -min(0, rx), -min(0, ry)  # L's cell within the patch
    w, h = (2 if rx else 1) * cell, (2 if ry else 1) * cell
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = cell * SS
    inset = max(2, round(c * 0.035))
    d.rounded_rectangle((inset, inset, w * SS - inset - 1, h * SS - inset - 1), radius=round(c * 0.12),
                        fill=style.TILE, outline=style.TILE_EDGE, width=max(SS, round(c * 0.025)))
    centres = {L: ((ox + 0.5) * c, (oy + 0.5) * c), R: ((ox + rx + 0.5) * c, (oy + ry + 0.5) * c)}
    width = max(SS * 2, round(c * 0.15))
    ends = {L: [], R: []}
    for e in tile.exits:
        half, d0 = EDGE_GEOMETRY[e]
        dx, dy = DIR_VEC[(d0 + orient) % 4]
        cx, cy = centres[half]
        ends[half].append((cx + dx * c / 2, cy + dy * c / 2))
    has = {half: bool(ends[half]) for half in (L, R)}
    segments = [(centres[half], end) for half in (L, R) for end in ends[half]]
    if (has[L] and has[R]) or (tile.station and not has[L]):
        segments.append((centres[L], centres[R]))
    for a, b in segments:
        d.line((a, b), fill=style.TRACK, width=width)
    for half in (L, R):  # round joints where track meets in a half
        if any(centres[half] in seg for seg in segments):
            x, y = centres[half]
            r = width / 2
            d.ellipse((x - r, y - r, x + r, y + r), fill=style.TRACK)
    x, y = centres[L]
    if tile.station:
        r = c * 0.22
        d.ellipse((x - r, y - r, x + r, y + r), fill=style.STATION, outline=style.STATION_RING,
                  width=max(SS, round(c * 0.075)))
    elif mark_half:
        r = c * 0.1
        d.ellipse((x - r, y - r, x + r, y + r), fill=style.HALF_MARK)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def paste_tile(img: Image.Image, tile_index: int, orient: int, left_xy: tuple[float, float], cell: int,
               mark_half: bool = False) -> tuple[int, int, int, int]:
    """Paste the tile with half L's cell at `left_xy` (its top-left pixel); returns the box."""
    patch = tile_patch(tile_index, orient, cell, mark_half)
    rx, ry = second_cell(0, 0, orient)
    x = round(left_xy[0] + min(0, rx) * cell)
    y = round(left_xy[1] + min(0, ry) * cell)
    img.paste(patch, (x, y), patch)
    return x, y, x + patch.width, y + patch.height

