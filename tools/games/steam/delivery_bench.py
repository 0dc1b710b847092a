"""The worst case of the delivery search, on a real map: a dense network and its timing.

`dense_network` links every place of a map to each place a short run of legal track can reach
without passing another place (through at most `reach` track hexes), as thick a web as a late
game could build: towns keep at most 4 links (the most exits a town tile has), cities at most 6.
Owners are dealt at random among the seats, a few links left unowned, and a few towns
urbanized into gray cities, so every colour of cube has somewhere to go.

`worst_case_report` times `deliveries` at locomotive 6 on it, for `railyard bench steam` to
print: per cube (each city and colour alone), per player with a cube of every colour on every
city (more than a game ever has: the worst case) and per player with the cubes a game starts with.
"""
from __future__ import annotations

import random
import statistics
import time
from collections import deque

from games.core.hexgrid import Hex, opposite
from games.steam.components import components
from games.steam.delivery import Link, deliveries
from games.steam.legality import buildable, open_sides
from games.steam.map import Colour, SteamMap, steam_map

MAX_LINKS = {"town": 4, "city": 6}


def _reachable(m: SteamMap, start: Hex, reach: int) -> dict[Hex, int]:
    """Places a line of track of at most `reach` tile hexes joins to `start`, with the fewest
    hexes needed; the track passes only plain track hexes (never another town or city)."""
    found: dict[Hex, int] = {}
    seen = {start}
    queue: deque[tuple[Hex, int]] = deque()
    for side in open_sides(m, start):
        n = start.neighbor(side)
        s = m.space(n)
        if s is None or opposite(side) not in open_sides(m, n):
            continue
        if n in m.places:
            found.setdefault(n, 0)
        elif buildable(s):
            seen.add(n)
            queue.append((n, 1))
    while queue:
        h, d = queue.popleft()
        for side in open_sides(m, h):
            n = h.neighbor(side)
            if n in seen:
                continue
            if n in m.places:
                if n != start and n not in found:
                    found[n] = d
                continue
            if d < reach and buildable(m.space(n)):
                seen.add(n)
                queue.append((n, d + 1))
    return found


def dense_network(map_id: str = "northeast", seats: int = 4, seed: int = 0, reach: int = 3,
                  urbanized: int = 2) -> tuple[list[Link], dict[Hex, Colour]]:
    """The dense network's links (all complete) and its city colours (see the module notes)."""
    m = steam_map(map_id)
    rng = random.Random(seed)
    colours = {h: s.city for h, s in m.cities.items()}
    for h in rng.sample(sorted(m.towns), urbanized):
        colours[h] = Colour.GRAY
    pairs = []
    for a in sorted(m.places):
        for b, d in _reachable(m, a, reach).items():
            if a < b:
                pairs.append((d, a, b))
    pairs.sort()
    degree: dict[Hex, int] = {}
    links = []
    for _d, a, b in pairs:
        limit = [MAX_LINKS["city" if p in colours else "town"] for p in (a, b)]
        if degree.get(a, 0) >= limit[0] or degree.get(b, 0) >= limit[1]:
            continue
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        owner = None if rng.random() < 0.1 else rng.randrange(seats)
        links.append(Link(len(links), (a, b), owner, True))
    return links, colours


def setup_cubes(map_id: str, cities: dict[Hex, Colour], seed: int = 0) -> dict[Hex, dict[Colour, int]]:
    """Cubes as a game starts (ST-M4): each printed city draws its printed count from the bag at
    random; the urbanized cities get one supply space's 3."""
    m = steam_map(map_id)
    rng = random.Random(seed)
    bag = [c for c, n in components().cubes.items() for _ in range(n)]
    rng.shuffle(bag)
    out: dict[Hex, dict[Colour, int]] = {}
    for h in sorted(cities):
        drawn = [bag.pop() for _ in range(m.places[h].cubes if h in m.cities else 3)]
        out[h] = {c: drawn.count(c) for c in set(drawn)}
    return out


def worst_case_report(map_id: str = "northeast", seats: int = 4, seed: int = 0,
                      locomotive: int = 6, repeat: int = 5) -> dict:
    """Timings in milliseconds (best of `repeat` runs each, from the bare list of links, so the
    network's indexing is included) of listing deliveries on the dense network at `locomotive`:
    per cube (p50 and max over every city and colour, every seat moving), per player with a cube
    of every colour on every city (the worst case; p50 and max over the seats), and per player
    with the cubes a game starts with. Also the network's size and the deliveries found."""
    links, colours = dense_network(map_id, seats, seed)
    every = {h: {c: 1 for c in Colour} for h in colours}
    start = setup_cubes(map_id, colours, seed)

    def timed(cubes, mover):
        best, found = float("inf"), []
        for _ in range(repeat):
            t0 = time.perf_counter()
            found = deliveries(links, colours, cubes, mover, locomotive)
            best = min(best, time.perf_counter() - t0)
        return best * 1000, found

    def spread(values):
        return {"p50": round(statistics.median(values), 2), "max": round(max(values), 2)}

    per_cube, worst, setup, counts = [], [], [], []
    for mover in range(seats):
        ms, found = timed(every, mover)
        worst.append(ms)
        counts.append(len(found))
        setup.append(timed(start, mover)[0])
        for h in sorted(colours):
            for c in Colour:
                per_cube.append(timed({h: {c: 1}}, mover)[0])
    return {
        "map": map_id, "locomotive": locomotive, "links": len(links),
        "places": len({p for l in links for p in l.ends}), "cities": len(colours),
        "deliveries_per_player": counts,
        "per_cube_ms": spread(per_cube),
        "per_player_ms": spread(worst),
        "per_player_setup_cubes_ms": spread(setup),
    }


if __name__ == "__main__":
    print(worst_case_report())
