"""The rail graph of a Catan Express board (CE-1) and the names players give its points.

Points, spokes, ferries
    The graph's points are the *intersections* (hex corners touching at least one land hex,
    `Corner` from games/core/hexgrid.py) and the *centres* of the land hexes (`Hex`). A rail
    runs along a *spoke*: from an intersection to the centre of one of its land hexes, so every
    land hex has six. Rails never follow hex edges. A ferry runs along a *coast edge* (an edge
    between a land hex and the sea) from intersection to intersection. On a map whose file says
    `ferries_cross_straits` (the islands maps), a ferry may also run along a *strait*: an edge
    between two sea hexes whose two ends are both intersections (touch land), the only way
    across the one-hex channels between islands (CE-1b); never along an edge with an end in
    open sea. Rails and ferries meet at intersections; rails cross at intersections and at
    centres.

    For the distance rule (CE-B6) two intersections are neighbours when one edge joins them,
    whatever lies on either side of it: the rule counts edges, not land.

Names (what players type and what the board image prints)
    - an intersection: its number, "1" … "54" on the 3–4 player board, counted on screen from
      the top row down and left to right within a row. A player looking at a hex may also type
      the hex's label and a compass corner, "C3n" (pointy-top: n, ne, se, s, sw, nw); it is read
      as the same intersection but always printed as the number.
    - a centre: the hex's label, "C3" (offset column letters, row from 1).
    - a spoke: its intersection and centre, "12-C3" (either order is read).
    - a ferry: its two intersections, lower number first, "12-13" (either order is read).
    Numbers and labels never collide (a label starts with a letter), so one parser reads all.

Speed
    A graph depends only on the map's shape, not on the layout, so it is built once per shape
    (`rail_graph` is cached) and every lookup is a precomputed dict or tuple.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from games.catan_express.map import Board
from games.core.errors import IllegalAction
from games.core.hexgrid import Corner, Edge, Hex, Offset, label, parse_label

# Pointy-top corner indices 0..5 run clockwise from the upper right (games/core/hexgrid.py).
COMPASS = ("ne", "se", "s", "sw", "nw", "n")
# A corner's position in half-units (x in √3/2, y in 1/2 of the hex radius): integers, so the
# screen order of intersections is exact.
_CORNER_XY = ((1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2))


@dataclass(frozen=True, slots=True, order=True)
class Spoke:
    """A rail's place: from intersection `corner` to the centre of land hex `hex`."""

    corner: Corner
    hex: Hex


Point = Corner | Hex
Piece = Spoke | Edge  # a rail's spoke or a ferry's edge


def _corner_xy(c: Corner) -> tuple[int, int]:
    h = c.hex
    dx, dy = _CORNER_XY[c.index]
    return 2 * h.q + h.r + dx, 3 * h.r + dy


class RailGraph:
    """Every point, spoke and ferry edge of one board shape, with lookups and names."""

    def __init__(self, offset: Offset, land: frozenset[Hex], sea: frozenset[Hex], straits: bool) -> None:
        self.offset = offset
        self.land = land
        self.sea = sea
        corners = {c for h in land for c in h.corners()}
        # Screen order: top row first, then left to right (y, then x).
        self.intersections: tuple[Corner, ...] = tuple(sorted(corners, key=lambda c: _corner_xy(c)[::-1]))
        self.centres: tuple[Hex, ...] = tuple(sorted(land))
        self.spokes: tuple[Spoke, ...] = tuple(Spoke(c, h) for h in self.centres for c in h.corners())
        self.coast_edges: tuple[Edge, ...] = tuple(sorted(
            {h.edge(d) for h in land for d in range(6) if h.neighbor(d) in sea}))
        # CE-1b: a strait is a sea-sea edge whose two ends both touch land (are intersections);
        # an edge with an end in open sea is none. Ferries use straits on the islands maps.
        sea_edges = {h.edge(d) for h in sea for d in range(6) if h.neighbor(d) in sea}
        self.straits: tuple[Edge, ...] = tuple(sorted(
            e for e in sea_edges if all(c in corners for c in e.corners())))
        self.ferry_edges: tuple[Edge, ...] = self.coast_edges + (self.straits if straits else ())  # CE-1b

        self._number = {c: i + 1 for i, c in enumerate(self.intersections)}
        self._neighbours = {c: frozenset(n for n in c.neighbors() if n in corners) for c in self.intersections}
        self._land_of = {c: tuple(sorted(h for h in c.hexes() if h in land)) for c in self.intersections}
        spokes_at: dict[Point, list[Spoke]] = {}
        for s in self.spokes:
            spokes_at.setdefault(s.corner, []).append(s)
            spokes_at.setdefault(s.hex, []).append(s)
        self._spokes_at = {p: tuple(v) for p, v in spokes_at.items()}
        ferries_at: dict[Corner, list[Edge]] = {}
        for e in self.ferry_edges:
            for c in e.corners():
                ferries_at.setdefault(c, []).append(e)
        self._ferries_at = {c: tuple(v) for c, v in ferries_at.items()}
        self._spoke_set = frozenset(self.spokes)
        self._ferry_set = frozenset(self.ferry_edges)
        self._ferry_between = {frozenset(e.corners()): e for e in self.ferry_edges}

    # --- structure -------------------------------------------------------------------------
    def is_intersection(self, c: Corner) -> bool:
        return c in self._number

    def neighbours(self, c: Corner) -> frozenset[Corner]:
        """Intersections one edge away (the distance rule, CE-B6)."""
        return self._neighbours[c]

    def land_hexes_of(self, c: Corner) -> tuple[Hex, ...]:
        """The land hexes an intersection touches (what a building there produces from)."""
        return self._land_of[c]

    def spokes_at(self, p: Point) -> tuple[Spoke, ...]:
        """The spokes ending at an intersection (one per land hex it touches) or a centre (six)."""
        return self._spokes_at.get(p, ())

    def ferries_at(self, c: Corner) -> tuple[Edge, ...]:
        return self._ferries_at.get(c, ())

    def is_spoke(self, s: Spoke) -> bool:
        return s in self._spoke_set

    def is_ferry_edge(self, e: Edge) -> bool:
        return e in self._ferry_set

    def ends(self, piece: Piece) -> tuple[Point, Point]:
        """The two points a rail or ferry joins."""
        if isinstance(piece, Spoke):
            return piece.corner, piece.hex
        return piece.corners()

    def pieces_at(self, p: Point) -> tuple[Piece, ...]:
        """Every spoke and ferry edge with an end at this point (where a network may grow)."""
        ferries = self._ferries_at.get(p, ()) if isinstance(p, Corner) else ()
        return self._spokes_at.get(p, ()) + ferries

    # --- names ------------------------------------------------------------------------------
    def number(self, c: Corner) -> int:
        return self._number[c]

    def intersection(self, number: int) -> Corner:
        if not 1 <= number <= len(self.intersections):
            raise IllegalAction("catan_express.unknown_point", text=str(number))
        return self.intersections[number - 1]

    def name(self, p: Point) -> str:
        """A point's printed name: an intersection's number or a centre's hex label."""
        if isinstance(p, Corner):
            return str(self._number[p])
        return label(p, self.offset)

    def piece_name(self, piece: Piece) -> str:
        if isinstance(piece, Spoke):
            return f"{self.name(piece.corner)}-{self.name(piece.hex)}"
        a, b = sorted(self._number[c] for c in piece.corners())
        return f"{a}-{b}"

    def parse_point(self, text: str) -> Point:
        """The point a player named; IllegalAction "catan_express.unknown_point" if it names none."""
        t = text.strip()
        if t.isdigit():
            return self.intersection(int(t))
        m = _CORNER_NAME.fullmatch(t)
        try:
            if m and m.group(2).lower() in COMPASS:
                c = parse_label(m.group(1), self.offset).corner(COMPASS.index(m.group(2).lower()))
                if c in self._number:
                    return c
            else:
                h = parse_label(t, self.offset)
                if h in self.land:
                    return h
        except ValueError:
            pass
        raise IllegalAction("catan_express.unknown_point", text=text)

    def parse_piece(self, text: str) -> Piece:
        """The spoke or ferry edge named "a-b"; IllegalAction "catan_express.unknown_piece" if none joins them."""
        left, sep, right = text.partition("-")
        if not sep:
            raise IllegalAction("catan_express.unknown_piece", text=text)
        a, b = self.parse_point(left), self.parse_point(right)
        if isinstance(a, Hex) and isinstance(b, Corner):
            a, b = b, a
        if isinstance(a, Corner) and isinstance(b, Hex):
            s = Spoke(a, b)
            if s in self._spoke_set:
                return s
        elif isinstance(a, Corner) and isinstance(b, Corner):
            e = self._ferry_between.get(frozenset((a, b)))
            if e is not None:
                return e
        raise IllegalAction("catan_express.unknown_piece", text=text)


_CORNER_NAME = re.compile(r"([A-Za-z]+[0-9]+)([A-Za-z]+)")


@lru_cache(maxsize=32)
def _graph(offset: Offset, land: frozenset[Hex], sea: frozenset[Hex], straits: bool) -> RailGraph:
    return RailGraph(offset, land, sea, straits)


def rail_graph(board: Board) -> RailGraph:
    """The rail graph of a board's shape; built once per shape, shared by all its layouts."""
    return _graph(board.offset, board.land_hexes, board.sea, board.ferries_cross_straits)
