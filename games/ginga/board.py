"""The table as bitmasks: where tiles lie, where track leaves each cell, the loop graph, and
which placements the rules allow (GT-4, GT-5).

Coordinates are fixed for the whole game: columns A–O (x = 0..14) and rows 1–15 (y = 0..14),
rows growing downwards. The first tile lies with its half L on H8, the centre (GT-5 lets it go
anywhere; only the 8×8 bounding box counts, so every position is the same up to a shift).
Every later tile must stay inside an 8×8 box with it, so the whole game fits in 15×15 cells
and a cell's name never changes as the board grows.

A cell is bit `y * 16 + x` of a Python int (the 16th column is always empty, so shifting a
mask by one column never wraps into the next row). With every cell of the table in one int,
testing all placements of a tile in one orientation is a few dozen integer operations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence

from games.ginga.tiles import DX, DY, E, N, OPPOSITE, S, W, Tile, tileset

SIZE = 15  # cells per side of the table
STRIDE = 16  # bits per row
CENTRE = (7, 7)  # H8: where the first tile's half L goes
COLUMNS = "ABCDEFGHIJKLMNO"
STEP = (-STRIDE, 1, STRIDE, -1)  # bit offset of the neighbour in direction N, E, S, W

GRID = 0
for _y in range(SIZE):
    GRID |= ((1 << SIZE) - 1) << (_y * STRIDE)
BLACK = 0  # cells with x + y even (the loop graph is bipartite: cycles alternate colours)
for _y in range(SIZE):
    for _x in range(SIZE):
        if (_x + _y) % 2 == 0:
            BLACK |= 1 << (_y * STRIDE + _x)
WHITE = GRID & ~BLACK
COLUMN_MASK = [sum(1 << (y * STRIDE + x) for y in range(SIZE)) for x in range(SIZE)]
ROW_MASK = [((1 << SIZE) - 1) << (y * STRIDE) for y in range(SIZE)]


def index(x: int, y: int) -> int:
    return y * STRIDE + x


def xy(i: int) -> tuple[int, int]:
    return i % STRIDE, i // STRIDE


def cell_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def parse_cell(text: str) -> tuple[int, int] | None:
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        return None
    x, y = COLUMNS.index(text[0]), int(text[1:]) - 1
    return (x, y) if 0 <= y < SIZE else None


def shift(mask: int, offset: int) -> int:
    """The mask moved by `offset` bits (bits below 0 fall off)."""
    return mask << offset if offset >= 0 else mask >> -offset


def bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def second_cell(x: int, y: int, orient: int) -> tuple[int, int]:
    """Where half R lies when half L is on (x, y): orientation = direction L → R."""
    d = (E + orient) % 4
    return x + DX[d], y + DY[d]


@dataclass(frozen=True)
class Placed:
    """A tile on the table."""

    tile: int  # tile index
    x: int
    y: int
    orient: int
    seat: int = -1

    @property
    def cells(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.x, self.y), second_cell(self.x, self.y, self.orient)


@dataclass
class Board:
    """Everything derived from the tiles on the table (rebuilt from the state, cached)."""

    occ: int = 0
    track: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # per direction: cells with track on that side
    join_e: int = 0  # loop graph: cell joined to its east neighbour (GT-10)
    join_s: int = 0  # ... to its south neighbour
    stations: int = 0  # cells with a station
    owner: dict[int, int] = field(default_factory=dict)  # cell bit -> placement number
    placed: list[Placed] = field(default_factory=list)
    min_x: int = SIZE
    max_x: int = -1
    min_y: int = SIZE
    max_y: int = -1

    # ------------------------------------------------------------------ building
    def copy(self) -> "Board":
        return Board(occ=self.occ, track=list(self.track), join_e=self.join_e, join_s=self.join_s,
                     stations=self.stations, owner=dict(self.owner), placed=list(self.placed),
                     min_x=self.min_x, max_x=self.max_x, min_y=self.min_y, max_y=self.max_y)

    def add(self, p: Placed) -> None:
        tile = tileset().tiles[p.tile]
        (lx, ly), (rx, ry) = p.cells
        li, ri = index(lx, ly), index(rx, ry)
        lmask, rmask = tile.half_dirs(p.orient)
        number = len(self.placed)
        self.placed.append(p)
        for i, dirs in ((li, lmask), (ri, rmask)):
            bit = 1 << i
            self.occ |= bit
            self.owner[i] = number
            for d in range(4):
                if dirs >> d & 1:
                    self.track[d] |= bit
        if tile.station:
            self.stations |= 1 << li
        if tile.halves_joined:
            low, high = min(li, ri), max(li, ri)
            if high - low == 1:
                self.join_e |= 1 << low
            else:
                self.join_s |= 1 << low
        # Cells of different tiles are joined across a success edge: track on both sides.
        track = self.track
        self.join_e |= track[E] & (track[W] >> 1)
        self.join_s |= track[S] & (track[N] >> STRIDE)
        for x, y in ((lx, ly), (rx, ry)):
            self.min_x, self.max_x = min(self.min_x, x), max(self.max_x, x)
            self.min_y, self.max_y = min(self.min_y, y), max(self.max_y, y)

    def with_tile(self, p: Placed) -> "Board":
        b = self.copy()
        b.add(p)
        return b

    # ------------------------------------------------------------------ the frame (GT-5)
    @property
    def empty(self) -> bool:
        return not self.placed

    def region(self, frame: int = 8) -> int:
        """Cells a new tile may cover and keep every tile inside a frame×frame box."""
        if self.empty:
            return GRID
        x0, x1 = max(0, self.max_x - frame + 1), min(SIZE - 1, self.min_x + frame - 1)
        y0, y1 = max(0, self.max_y - frame + 1), min(SIZE - 1, self.min_y + frame - 1)
        cols = 0
        for x in range(x0, x1 + 1):
            cols |= COLUMN_MASK[x]
        rows = 0
        for y in range(y0, y1 + 1):
            rows |= ROW_MASK[y]
        return cols & rows

    def region_box(self, frame: int = 8) -> tuple[int, int, int, int]:
        """(x0, y0, x1, y1) inclusive: the area that tiles may still reach."""
        if self.empty:
            return 0, 0, SIZE - 1, SIZE - 1
        return (max(0, self.max_x - frame + 1), max(0, self.max_y - frame + 1),
                min(SIZE - 1, self.min_x + frame - 1), min(SIZE - 1, self.min_y + frame - 1))

    # ------------------------------------------------------------------ placements (GT-5)
    def legal_anchors(self, tile: Tile, orient: int, frame: int = 8) -> int:
        """Mask of the cells where half L may go for this tile and orientation."""
        occ = self.occ
        if not self.placed:
            cx, cy = CENTRE
            return 1 << index(cx, cy)
        rx, ry = second_cell(0, 0, orient)
        r_off = ry * STRIDE + rx
        empty = GRID & ~occ
        region = self.region(frame)
        ok = empty & shift(empty, -r_off) & region & shift(region, -r_off)
        if not ok:
            return 0
        lmask, rmask = tile.half_dirs(orient)
        track = self.track
        success = 0
        fail1 = 0
        fail2 = 0
        for cell_off, dirs in ((0, lmask), (r_off, rmask)):
            for d in range(4):
                off = cell_off + STEP[d]
                if off == r_off or off == 0:
                    continue  # the side between the two halves
                nb_track = shift(track[OPPOSITE[d]], -off)  # the neighbour has track facing us
                if dirs >> d & 1:
                    success |= nb_track
                    fail = shift(occ, -off) & ~nb_track
                else:
                    fail = nb_track
                fail2 |= fail1 & fail
                fail1 |= fail
        return ok & success & ~fail2

    def check(self, tile: Tile, x: int, y: int, orient: int) -> tuple[int, int]:
        """(successes, failures) of one placement, for error messages and tests."""
        lmask, rmask = tile.half_dirs(orient)
        (lx, ly), (rx, ry) = (x, y), second_cell(x, y, orient)
        successes = failures = 0
        for (cx, cy), dirs, (ox, oy) in (((lx, ly), lmask, (rx, ry)), ((rx, ry), rmask, (lx, ly))):
            for d in range(4):
                nx, ny = cx + DX[d], cy + DY[d]
                if (nx, ny) == (ox, oy) or not (0 <= nx < SIZE and 0 <= ny < SIZE):
                    continue
                bit = 1 << index(nx, ny)
                if not self.occ & bit:
                    continue
                mine = bool(dirs >> d & 1)
                theirs = bool(self.track[OPPOSITE[d]] & bit)
                if mine and theirs:
                    successes += 1
                elif mine or theirs:
                    failures += 1
        return successes, failures

    def placements(self, tile: Tile, frame: int = 8) -> list[tuple[int, int, int]]:
        """Every legal (x, y, orient) for a tile, in reading order of half L, then orientation."""
        out = []
        for orient in tile.orientations():
            for i in bits(self.legal_anchors(tile, orient, frame)):
                x, y = xy(i)
                out.append((y, x, orient))
        out.sort()
        return [(x, y, o) for y, x, o in out]

    def can_place(self, tiles: Sequence[Tile], frame: int = 8) -> bool:
        return any(self.legal_anchors(t, o, frame) for t in tiles for o in t.orientations())

    # ------------------------------------------------------------------ networks (GT-9)
    def networks(self) -> list[int]:
        """Per placement number: the number of its track network (union over success edges)."""
        parent = list(range(len(self.placed)))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        owner = self.owner
        track = self.track
        for mask, step in ((track[E] & (track[W] >> 1), 1), (track[S] & (track[N] >> STRIDE), STRIDE)):
            for i in bits(mask):
                a, b = find(owner[i]), find(owner[i + step])
                if a != b:
                    parent[a] = b
        return [find(i) for i in range(len(self.placed))]

    def station_network(self, number: int) -> list[int]:
        """Cells (bits) of the stations in the network of placement `number`."""
        nets = self.networks()
        mine = nets[number]
        out = []
        for i in bits(self.stations):
            if nets[self.owner[i]] == mine:
                out.append(i)
        return out


@lru_cache(maxsize=256)
def board_of(placed: tuple[Placed, ...]) -> Board:
    """The board for a sequence of placements (shared: callers must copy before changing)."""
    if not placed:
        return Board()
    board = board_of(placed[:-1]).copy()
    board.add(placed[-1])
    return board
