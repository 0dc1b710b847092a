"""Graph helpers for route-building games: connectivity and the longest trail."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable


class DisjointSet:
    """Union-find over small integer nodes: 'are these two cities joined by my routes?'."""

    def __init__(self) -> None:
        self._parent: dict[int, int] = {}

    def find(self, x: int) -> int:
        parent = self._parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._parent[ra] = rb

    def connected(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)


def longest_trail(edges: Iterable[tuple[int, int, int]]) -> int:
    """Length of the longest trail (no edge used twice; nodes may repeat).

    `edges` are (node_a, node_b, weight). Exact: a depth-first search over edge-disjoint
    walks from every node. Route networks of one player are small (at most 45 trains), so
    the search stays fast; results are memoised on the edge set.
    """
    return _longest(tuple(sorted(edges)))


@lru_cache(maxsize=4096)
def _longest(edges: tuple[tuple[int, int, int], ...]) -> int:
    if not edges:
        return 0
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for index, (a, b, w) in enumerate(edges):
        adjacency.setdefault(a, []).append((index, b, w))
        adjacency.setdefault(b, []).append((index, a, w))
    used = [False] * len(edges)
    best = 0

    def walk(node: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        for index, other, weight in adjacency[node]:
            if not used[index]:
                used[index] = True
                walk(other, length + weight)
                used[index] = False

    for start in _trail_starts(adjacency):
        walk(start, 0)
    return best


def _trail_starts(adjacency: dict[int, list[tuple[int, int, int]]]) -> list[int]:
    """Nodes a longest trail may start from.

    In a component with odd-degree nodes, a longest trail starts at one of them (if it
    started at an even node, an unused edge there would extend it); a component whose nodes
    are all even is covered by a closed trail, so any node of it will do.
    """
    components = DisjointSet()
    for node, adj in adjacency.items():
        for _, other, _ in adj:
            components.union(node, other)
    has_odd = {components.find(n) for n, adj in adjacency.items() if len(adj) % 2}
    starts: list[int] = []
    seen_even_component: set[int] = set()
    for node, adj in adjacency.items():
        root = components.find(node)
        if len(adj) % 2:
            starts.append(node)
        elif root not in has_odd and root not in seen_even_component:
            seen_even_component.add(root)
            starts.append(node)
    return starts
