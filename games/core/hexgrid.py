"""Hex-grid geometry for hex-map games (Steam's track tiles, Catan Express's intersections).

Pure Python: the rules use it to say which hexes touch, which sides a track tile exits by,
where a settlement stands; render/kit/hexgrid.py turns the same names into pixels.

Coordinates
    A hex is `Hex(q, r)` in axial coordinates (the cube coordinates q + r + s = 0 without the
    redundant s). Axial keeps neighbour steps, distance and rotation to a few integer
    additions, whereas the offset rows in which maps are usually typed need a parity case in
    every formula; `to_offset` / `from_offset` convert at the edges (data files, labels).

Directions and sides (one numbering for both orientations)
    `DIRECTIONS[d]` is the step to the neighbour across side d. The numbering is fixed in
    axial terms, so the rules never depend on how the map is drawn; on screen (y pointing
    down, as in images) the six directions run **clockwise** in both orientations:

        d   axial step   pointy-top hex   flat-top hex
        0   (+1,  0)     east             south-east
        1   ( 0, +1)     south-east       south
        2   (-1, +1)     south-west       south-west
        3   (-1,  0)     west             north-west
        4   ( 0, -1)     north-west       north
        5   (+1, -1)     north-east       north-east

    Side d of a hex faces direction d, so side d and side d + 3 are opposite, and a tile
    turned clockwise by k steps has its side d where side d + k was (`rotate_side`).
    A flat-top grid is the pointy-top grid turned 30° clockwise, which is why one numbering
    stays clockwise in both: direction d points 60°·d (pointy) or 30° + 60°·d (flat)
    clockwise from east.

Corners
    Corner i of a hex is where side i - 1 meets side i, so side i runs clockwise from corner
    i to corner i + 1. Pointy-top: corner 0 is the upper-right vertex (-30°); flat-top: the
    east vertex (0°); the others follow clockwise, 60° apart.

Shared identities
    An edge lies between two hexes and a corner between three, and each hex has its own
    index for it. `Edge` and `Corner` are canonical: every way of naming the same edge or
    corner gives one equal, hashable value, so a road or a settlement can be a dict key or a
    set member without de-duplicating. Each hex owns sides 0-2 (its other three belong to
    the neighbours across them) and corners 0-1 (its other four are corner 0 or 1 of a
    neighbour: the three names of a corner have indices i, i + 2, i + 4, so exactly one of
    them is 0 or 1).

Offset coordinates and labels
    (col, row) with one of the four usual systems: odd-r / even-r shift odd / even rows half
    a hex to the right (pointy-top maps), odd-q / even-q shift odd / even columns half a hex
    down (flat-top maps). `label` names a hex by its offset column as letters (A..Z, AA..)
    and its row as a number from 1 ("C7"), the way printed hex maps are indexed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple


class Orientation(StrEnum):
    """How hexes stand on screen: a vertex at the top (pointy) or a side at the top (flat)."""

    POINTY = "pointy"
    FLAT = "flat"


class Hex(NamedTuple):
    """One hex in axial coordinates. Immutable and ordered: usable as a dict key, sortable into
    a stable order (by q, then r) for deterministic iteration in the rules.

    A tuple underneath (hash, equality and order are those of (q, r), computed in C): rules
    look hexes up in dicts and sets far more than they do anything else with them."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s = 0), for the symmetric formulas."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def neighbor(self, direction: int) -> Hex:
        """The hex across side `direction` (any integer; taken modulo 6)."""
        dq, dr = DIRECTIONS[direction % 6]
        q, r = self
        return _new_hex(Hex, (q + dq, r + dr))

    def neighbors(self) -> tuple[Hex, ...]:
        """The six neighbours, in direction order 0..5 (remembered per hex: `h.neighbors()[d]`
        is the cheap way to ask for many neighbours in a hot loop)."""
        return _neighbors(self)

    def side_towards(self, other: Hex) -> int:
        """The side of this hex that `other` lies across; ValueError if they do not touch."""
        step = other - self
        try:
            return DIRECTIONS.index(step)
        except ValueError:
            raise ValueError(f"{other} is not a neighbour of {self}") from None

    def distance(self, other: Hex) -> int:
        """Steps from hex to hex (each step crosses one side)."""
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def rotate(self, k: int, center: Hex | None = None) -> Hex:
        """This hex turned k × 60° clockwise (on screen) about `center` (the origin by default).

        Clockwise maps direction d to d + 1; in cube coordinates that is (q, r, s) -> (-r, -s, -q).
        """
        c = ORIGIN if center is None else center
        v = self - c
        q, r, s = v.q, v.r, v.s
        for _ in range(k % 6):
            q, r, s = -r, -s, -q
        return Hex(c.q + q, c.r + r)

    def edge(self, side: int) -> Edge:
        """The canonical edge on side `side` (any integer; taken modulo 6)."""
        side %= 6
        if side < 3:
            return Edge(self, side)
        return Edge(self.neighbor(side), side - 3)

    def edges(self) -> tuple[Edge, ...]:
        """The six edges, by side 0..5."""
        return tuple(self.edge(i) for i in range(6))

    def corner(self, index: int) -> Corner:
        """The canonical corner `index` (any integer; taken modulo 6)."""
        index %= 6
        for owner, i in _corner_names(self, index):
            if i < 2:
                return Corner(owner, i)
        raise AssertionError("one of a corner's three names always has index 0 or 1")

    def corners(self) -> tuple[Corner, ...]:
        """The six corners, by index 0..5 (clockwise)."""
        return tuple(self.corner(i) for i in range(6))


_new_hex = tuple.__new__


@lru_cache(maxsize=16384)
def _neighbors(h: Hex) -> tuple[Hex, ...]:
    return tuple(h.neighbor(d) for d in range(6))

ORIGIN = Hex(0, 0)
# The step across side d; see the module docstring for what each is on screen.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1), Hex(1, -1))


def rotate_side(side: int, k: int) -> int:
    """Side (or corner) index `side` after turning its hex k × 60° clockwise (k may be negative)."""
    return (side + k) % 6


def opposite(side: int) -> int:
    """The side facing `side` (the neighbour's name for the shared edge)."""
    return (side + 3) % 6


def _corner_names(h: Hex, i: int) -> tuple[tuple[Hex, int], ...]:
    """The three (hex, corner index) names of corner i of h.

    Corner i touches h and the neighbours across sides i - 1 (call it a) and i (b). Seen from
    a, h lies across side i + 2 and b across side i + 1 (b - a is direction i + 1), so the
    corner is a's corner i + 2; likewise it is b's corner i + 4.
    """
    return ((h, i), (h.neighbor(i - 1), (i + 2) % 6), (h.neighbor(i), (i + 4) % 6))


@dataclass(frozen=True, slots=True, order=True)
class Edge:
    """A hex side as shared by the two hexes it separates: (hex, side) with side 0, 1 or 2.

    Build one with `Hex.edge(side)`, which picks the owning hex; constructing it directly
    with a side above 2 is refused, so two equal edges are always equal values.
    """

    hex: Hex
    side: int

    def __post_init__(self) -> None:
        if self.side not in (0, 1, 2):
            raise ValueError(f"an Edge is named by its owner's side 0-2, not {self.side}: use Hex.edge()")

    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes on either side (the owner first)."""
        return self.hex, self.hex.neighbor(self.side)

    def side_of(self, h: Hex) -> int:
        """This edge's side index in hex `h` (one of its two hexes)."""
        if h == self.hex:
            return self.side
        if h == self.hex.neighbor(self.side):
            return self.side + 3
        raise ValueError(f"{self} is not a side of {h}")

    def corners(self) -> tuple[Corner, Corner]:
        """Its two ends: side i runs from corner i to corner i + 1."""
        return self.hex.corner(self.side), self.hex.corner(self.side + 1)


@dataclass(frozen=True, slots=True, order=True)
class Corner:
    """A hex vertex as shared by the three hexes that meet there: (hex, index) with index 0 or 1.

    Build one with `Hex.corner(index)`; constructing it directly with an index above 1 is
    refused, so two equal corners are always equal values.
    """

    hex: Hex
    index: int

    def __post_init__(self) -> None:
        if self.index not in (0, 1):
            raise ValueError(f"a Corner is named by its owner's index 0-1, not {self.index}: use Hex.corner()")

    def hexes(self) -> tuple[Hex, Hex, Hex]:
        """The three hexes that meet here (the owner first)."""
        return tuple(h for h, _ in _corner_names(self.hex, self.index))  # type: ignore[return-value]

    def index_in(self, h: Hex) -> int:
        """This corner's index in hex `h` (one of its three hexes)."""
        for owner, i in _corner_names(self.hex, self.index):
            if owner == h:
                return i
        raise ValueError(f"{self} is not a corner of {h}")

    def edges(self) -> tuple[Edge, Edge, Edge]:
        """The three edges that end here (Catan's roads out of an intersection).

        Two are the owner's sides i - 1 and i; the third runs between the other two hexes.
        """
        i = self.index
        a = self.hex.neighbor(i - 1)
        return self.hex.edge(i - 1), self.hex.edge(i), a.edge(i + 1)

    def neighbors(self) -> tuple[Corner, Corner, Corner]:
        """The three corners one edge away (the far end of each of `edges`)."""
        out = []
        for e in self.edges():
            a, b = e.corners()
            out.append(b if a == self else a)
        return tuple(out)  # type: ignore[return-value]


def distance(a: Hex, b: Hex) -> int:
    return a.distance(b)


def ring(center: Hex, radius: int) -> list[Hex]:
    """The 6 × radius hexes at exactly `radius` steps, clockwise from the one in direction 0.

    Walking clockwise from the hex radius steps in direction j, the ring runs in direction
    j + 2 (direction j + 1 minus direction j) for radius steps, then turns.
    """
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out = []
    h = center + DIRECTIONS[0].scale(radius)
    for j in range(6):
        for _ in range(radius):
            out.append(h)
            h = h.neighbor(j + 2)
    return out


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within `radius` steps: the centre, then ring 1, ring 2, ... (3r² + 3r + 1 hexes)."""
    out = [center]
    for k in range(1, radius + 1):
        out.extend(ring(center, k))
    return out


class Offset(StrEnum):
    """The four usual offset-coordinate systems (see the module docstring)."""

    ODD_R = "odd-r"
    EVEN_R = "even-r"
    ODD_Q = "odd-q"
    EVEN_Q = "even-q"

    @property
    def orientation(self) -> Orientation:
        """Row-shifted maps are made of pointy-top hexes, column-shifted ones of flat-top hexes."""
        return Orientation.POINTY if self in (Offset.ODD_R, Offset.EVEN_R) else Orientation.FLAT


def to_offset(h: Hex, system: Offset) -> tuple[int, int]:
    """(col, row) of `h` in an offset system. `x & 1` is the parity for negatives too."""
    q, r = h.q, h.r
    if system is Offset.ODD_R:
        return q + (r - (r & 1)) // 2, r
    if system is Offset.EVEN_R:
        return q + (r + (r & 1)) // 2, r
    if system is Offset.ODD_Q:
        return q, r + (q - (q & 1)) // 2
    if system is Offset.EVEN_Q:
        return q, r + (q + (q & 1)) // 2
    raise ValueError(f"unknown offset system {system!r}")


def from_offset(col: int, row: int, system: Offset) -> Hex:
    """The hex at (col, row) of an offset system (the inverse of `to_offset`)."""
    if system is Offset.ODD_R:
        return Hex(col - (row - (row & 1)) // 2, row)
    if system is Offset.EVEN_R:
        return Hex(col - (row + (row & 1)) // 2, row)
    if system is Offset.ODD_Q:
        return Hex(col, row - (col - (col & 1)) // 2)
    if system is Offset.EVEN_Q:
        return Hex(col, row - (col + (col & 1)) // 2)
    raise ValueError(f"unknown offset system {system!r}")


def column_letters(col: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA": spreadsheet-style, so any width of map has names."""
    if col < 0:
        raise ValueError("column must be >= 0")
    out = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def label(h: Hex, system: Offset) -> str:
    """A person's name for `h`: offset column letters + 1-based row ("A1" is col 0, row 0).

    Only hexes with col, row >= 0 have a label; a map typed in offset rows starts at 0, 0.
    """
    col, row = to_offset(h, system)
    if row < 0:
        raise ValueError(f"{h} has a negative offset row in {system}: no label")
    return f"{column_letters(col)}{row + 1}"


_LABEL = re.compile(r"\s*([A-Za-z]+)\s*([0-9]+)\s*")


def parse_label(text: str, system: Offset) -> Hex:
    """The hex named by `label` (letters case-insensitive, spaces around the parts allowed)."""
    m = _LABEL.fullmatch(text)
    if not m or int(m.group(2)) < 1:
        raise ValueError(f"not a hex label: {text!r}")
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + (ord(ch) - ord("A") + 1)
    return from_offset(col - 1, int(m.group(2)) - 1, system)
