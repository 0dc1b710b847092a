"""The rail graph (rail.py) by printed names, for the rules engine.

Why it is shaped so
    The state names points and pieces as the board image prints them ("12", "C3", "12-C3",
    "12-13"), so the engine asks its questions in those names: which pieces end at a point,
    what a piece's two ends are, which intersections neighbour one another, which land hexes
    an intersection produces from. Answering from rail.py's objects would parse a name on every
    question; `Geo` turns the graph into plain dicts of names once per board shape (cached), so
    a legal-move scan is dictionary lookups only.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.catan_express.map import Board, BoardLayout, beginner, layout_of, random_layout
from games.catan_express.rail import RailGraph, Spoke, rail_graph


@dataclass(frozen=True)
class Geo:
    graph: RailGraph
    intersections: tuple[int, ...]
    centres: tuple[str, ...]
    pieces: tuple[str, ...]                       # every spoke, then every ferry edge
    kind: dict[str, str]                          # piece -> "rail" | "ferry"
    ends: dict[str, tuple[str, str]]              # piece -> its two points
    at: dict[str, tuple[str, ...]]                # point -> pieces ending there
    neighbours: dict[int, frozenset[int]]         # the distance rule (CE-B6)
    land_of: dict[int, tuple[str, ...]]           # intersection -> land hex labels
    corners_of: dict[str, tuple[int, ...]]        # land hex label -> its intersections
    between: dict[frozenset[str], tuple[str, ...]]  # two points -> the pieces joining them

    def other_end(self, piece: str, point: str) -> str:
        a, b = self.ends[piece]
        return b if a == point else a


@lru_cache(maxsize=16)
def _geo(graph: RailGraph) -> Geo:
    name = graph.name
    pieces: list[str] = []
    kind: dict[str, str] = {}
    ends: dict[str, tuple[str, str]] = {}
    at: dict[str, list[str]] = {}
    for p in (*graph.spokes, *graph.ferry_edges):
        n = graph.piece_name(p)
        a, b = (name(x) for x in graph.ends(p))
        pieces.append(n)
        kind[n] = "rail" if isinstance(p, Spoke) else "ferry"
        ends[n] = (a, b)
        at.setdefault(a, []).append(n)
        at.setdefault(b, []).append(n)
    between: dict[frozenset[str], list[str]] = {}
    for n, (a, b) in ends.items():
        between.setdefault(frozenset((a, b)), []).append(n)
    numbers = {c: graph.number(c) for c in graph.intersections}
    corners_of: dict[str, list[int]] = {}
    for c in graph.intersections:
        for h in graph.land_hexes_of(c):
            corners_of.setdefault(name(h), []).append(numbers[c])
    return Geo(
        graph=graph, intersections=tuple(numbers.values()), centres=tuple(name(h) for h in graph.centres),
        pieces=tuple(pieces), kind=kind, ends=ends, at={k: tuple(v) for k, v in at.items()},
        neighbours={numbers[c]: frozenset(numbers[x] for x in graph.neighbours(c)) for c in graph.intersections},
        land_of={numbers[c]: tuple(name(h) for h in graph.land_hexes_of(c)) for c in graph.intersections},
        corners_of={k: tuple(sorted(v)) for k, v in corners_of.items()},
        between={k: tuple(v) for k, v in between.items()})


def geo_of(board: Board) -> Geo:
    return _geo(rail_graph(board))


@lru_cache(maxsize=64)
def board_for(map_id: str, layout: str, seed: int) -> Board:
    """The laid-out board of a game: the beginner layout, or the random one of its seed."""
    return beginner(map_id) if layout == "beginner" else random_layout(map_id, seed)


@lru_cache(maxsize=64)
def layout_for(map_id: str, layout: str, seed: int) -> BoardLayout:
    """A game's laid-out board by name, as its views carry it (never the seed that dealt it)."""
    return layout_of(board_for(map_id, layout, seed))


@lru_cache(maxsize=64)
def geo_for(map_id: str, layout: str, seed: int) -> Geo:
    """The names of a game's board (one lookup per question, not a hash of the whole board)."""
    return geo_of(board_for(map_id, layout, seed))


@lru_cache(maxsize=64)
def harbour_kinds(map_id: str, layout: str, seed: int) -> dict[int, str]:
    """Intersection number -> the kind of harbour a building there trades at (CE-B5)."""
    board = board_for(map_id, layout, seed)
    graph = geo_of(board).graph
    return {graph.number(c): hb.kind for hb in board.harbours for c in hb.corners}
