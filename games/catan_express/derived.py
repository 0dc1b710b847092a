"""Facts the rules derive from a state's pieces and buildings, kept beside the state.

Why it is shaped so
    Listing moves asks the same board questions over and over: where a seat's network runs,
    which spokes and coast edges it may build on, where a settlement may still go, who stands
    on each hex, how many pieces of each kind a seat has used. The answers change only when a
    piece or a building is placed, which is a few dozen moves of the thousand or more in a
    game; every other move forks the state and shares its `pieces` and `buildings` dicts
    (models.CatanState.fork), and the rules replace those dicts rather than change them in
    place. So the answers are computed once, on demand, and kept for as long as the state
    holds the very same two dicts: identity is the key, and a state whose dicts were replaced
    (a placement, a clone, a state read from JSON) gets fresh answers. They live in the
    state's `__dict__` beside its fields, never in them: pydantic neither dumps nor compares
    what is not a field.
"""
from __future__ import annotations

from typing import Any, Callable

from games.catan_express.geo import Geo

KEY = "_derived"


class Derived:
    """One board position's facts (see the module docstring); each computed on first use."""

    __slots__ = ("geo", "pieces", "buildings", "_net", "_spots", "_settle", "_by_hex", "_used", "_touched",
                 "_points", "memo")

    def __init__(self, geo: Geo, pieces: dict, buildings: dict) -> None:
        self.geo = geo
        self.pieces = pieces
        self.buildings = buildings
        self._net: dict[int, frozenset[str]] = {}
        self._spots: dict[tuple[int, str], tuple[str, ...]] = {}
        self._settle: tuple[int, ...] | None = None
        self._by_hex: dict[str, list[tuple[int, str]]] | None = None
        self._used: list[dict[str, int]] | None = None
        self._touched: frozenset[str] | None = None
        self._points: list[int] | None = None
        self.memo: dict[Any, Any] = {}  # the engine's own answers that depend on nothing else

    def network(self, seat: int) -> frozenset[str]:
        """Every point one of the seat's rails or ferries ends at."""
        net = self._net.get(seat)
        if net is None:
            ends = self.geo.ends
            net = self._net[seat] = frozenset(pt for piece, owners in self.pieces.items() if seat in owners
                                              for pt in ends[piece])
        return net

    def spots(self, seat: int, what: str) -> tuple[str, ...]:
        """The spokes (rails) or coast edges (ferries) sharing a point with the seat's network
        and not yet holding one of its pieces, by point then piece (rules.piece_spots)."""
        key = (seat, what)
        out = self._spots.get(key)
        if out is None:
            geo = self.geo
            at, kind, pieces = geo.at, geo.kind, self.pieces
            found: list[str] = []
            seen: set[str] = set()
            for point in sorted(self.network(seat), key=point_key):
                for piece in at.get(point, ()):
                    if piece in seen or kind[piece] != what:
                        continue
                    seen.add(piece)
                    if seat not in pieces.get(piece, ()):
                        found.append(piece)
            out = self._spots[key] = tuple(found)
        return out

    def touched(self) -> frozenset[str]:
        """The points some rail or ferry ends at (CE-4)."""
        if self._touched is None:
            ends = self.geo.ends
            self._touched = frozenset(pt for piece, owners in self.pieces.items() if owners for pt in ends[piece])
        return self._touched

    def settlement_spots(self) -> tuple[int, ...]:
        """Free intersections no building neighbours and no piece touches (CE-4, CE-B6)."""
        if self._settle is None:
            taken = self.buildings
            touched = self.touched()
            neighbours = self.geo.neighbours
            self._settle = tuple(pt for pt in self.geo.intersections
                                 if pt in neighbours and pt not in taken and str(pt) not in touched
                                 and not any(n in taken for n in neighbours[pt]))
        return self._settle

    def by_hex(self) -> dict[str, list[tuple[int, str]]]:
        """Land hex label -> the (seat, kind) of each building on its corners."""
        if self._by_hex is None:
            land_of = self.geo.land_of
            out: dict[str, list[tuple[int, str]]] = {}
            for pt, b in self.buildings.items():
                for lab in land_of[pt]:
                    out.setdefault(lab, []).append((b.seat, b.kind))
            self._by_hex = out
        return self._by_hex

    def used(self, seat: int) -> dict[str, int]:
        """The seat's settlements, cities, rails and ferries on the board."""
        if self._used is None:
            n = 1 + max([b.seat for b in self.buildings.values()]
                        + [o for owners in self.pieces.values() for o in owners] + [0])
            used = [{"settlement": 0, "city": 0, "rail": 0, "ferry": 0} for _ in range(n)]
            for b in self.buildings.values():
                used[b.seat][b.kind] += 1
            kind = self.geo.kind
            for piece, owners in self.pieces.items():
                k = kind[piece]
                for o in set(owners):
                    used[o][k] += 1
            self._used = used
        return self._used[seat] if seat < len(self._used) else _NONE

    def building_points(self, settlement: int, city: int) -> list[int]:
        """Points from buildings by seat (as far as the highest seat that has one)."""
        if self._points is None:
            n = 1 + max([b.seat for b in self.buildings.values()] + [0])
            pts = [0] * n
            for b in self.buildings.values():
                pts[b.seat] += city if b.kind == "city" else settlement
            self._points = pts
        return self._points


_NONE = {"settlement": 0, "city": 0, "rail": 0, "ferry": 0}


def derived(state: Any, geo_of: Callable[[Any], Geo]) -> Derived:
    """The state's derived facts, made anew when its pieces or buildings are other objects
    (the board's names, which never change in a game, carried over)."""
    f = state.__dict__
    d = f.get(KEY)
    if d is None:
        d = f[KEY] = Derived(geo_of(state), f["pieces"], f["buildings"])
    elif d.pieces is not f["pieces"] or d.buildings is not f["buildings"]:
        d = f[KEY] = Derived(d.geo, f["pieces"], f["buildings"])
    return d


def point_key(name: str) -> tuple[int, int, str]:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


__all__ = ["Derived", "derived", "point_key"]
