"""Steam's placed track as an immutable value, and the links traced from it (ST-3 … ST-7).

Inputs and outputs (plain values; the rules engine keeps one `Rails` in its state)
    Rails.tiles      ((hex, PlacedTile), ...) sorted by hex: the face, its rotation and the
                     pairing of the physical tile used (so the same tile goes back, ST-T2).
    Rails.new_cities the town hexes turned into cities by Urbanize (ST-7), sorted.
    Rails.links      LinkRecord(id, segments, owner, extended): every traced link with its
                     owner (a seat or None) and the last game turn its owner built it.
    Rails.next_id    the id the next new link gets.

What a link is
    A segment is one track on one hex, named by the hex and its absolute sides (a town tile's
    track pairs its exit with TOWN_SIDE). A link is a maximal run of segments joined side to
    side; it stops at a city hex (printed or new), at a town tile (the town is a place: each of
    a town tile's exits starts its own link), or at an open end — a side facing no matching
    track. A link with a place at both ends is complete; only complete links carry goods.

Why ids survive moves
    A link's id and owner live in its record, which also holds the segments it had. After any
    change `retrace` matches every new run to the record sharing segments with it: extensions,
    upgrades (a crossing keeps the old track) and urbanizing (which removes a town tile's stubs)
    keep the id, so a route notation written earlier still names the same link; merging two
    runs keeps the smaller id. Only runs that share nothing with any record get fresh ids.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from games.core.hexgrid import Hex, opposite
from games.steam.delivery import Link
from games.steam.map import SteamMap
from games.steam.tiles import TOWN_SIDE, TileSet, tileset

Segment = tuple[Hex, tuple[int, ...]]   # a hex and the sorted absolute sides of one track on it
OpenEnd = tuple[Hex, int]               # a hex and the side its track leaves by into nothing


@dataclass(frozen=True, slots=True)
class PlacedTile:
    face: str
    rotation: int
    pairing: int


@dataclass(frozen=True, slots=True)
class LinkRecord:
    id: int
    segments: frozenset[Segment]
    owner: int | None = None
    extended: int = 0   # the last game turn the owner built on it (ST-4)


class Run(NamedTuple):
    """One traced link: its segments in order from `ends[0]`, and what each end reaches —
    a place (Hex) or an open end (hex, side). `complete`, `places` and `open_ends` say the same
    of the ends again, worked out once (`Run.of`): every rule and bot asks them of every link."""

    segments: tuple[Segment, ...]
    ends: tuple[Hex | OpenEnd, Hex | OpenEnd]
    complete: bool
    places: tuple[Hex, ...]
    open_ends: tuple[OpenEnd, ...]

    @classmethod
    def of(cls, segments: tuple[Segment, ...], ends: tuple[Hex | OpenEnd, Hex | OpenEnd]) -> "Run":
        return cls(segments, ends, all(isinstance(e, Hex) for e in ends),
                   tuple(e for e in ends if isinstance(e, Hex)), tuple(e for e in ends if not isinstance(e, Hex)))


@dataclass(frozen=True)
class Rails:
    tiles: tuple[tuple[Hex, PlacedTile], ...] = ()
    new_cities: tuple[Hex, ...] = ()
    links: tuple[LinkRecord, ...] = ()
    next_id: int = 1

    @cached_property
    def tile_at(self) -> dict[Hex, PlacedTile]:
        return dict(self.tiles)

    @cached_property
    def record(self) -> dict[int, LinkRecord]:
        return {r.id: r for r in self.links}

    @cached_property
    def link_of(self) -> dict[Segment, int]:
        return {s: r.id for r in self.links for s in r.segments}

    def with_tile(self, h: Hex, tile: PlacedTile | None, tiles: TileSet | None = None) -> "Rails":
        """The same rails with `h` holding `tile` (None: emptied). Links are not retraced; given
        the tile set, the segment index already made of these rails is carried over, changed on
        `h` only, rather than made again for the new rails."""
        d = dict(self.tiles)
        old = d.get(h)
        if tile is None:
            d.pop(h, None)
        else:
            d[h] = tile
        out = replace(self, tiles=tuple(sorted(d.items())))
        index = self.__dict__.get("_memo", {}).get(("index", id(tiles))) if tiles is not None else None
        if index is not None:
            index = dict(index)
            if old is not None:
                for seg in segments_on(old, h, tiles):
                    for side in seg[1]:
                        if side != TOWN_SIDE:
                            del index[(h, side)]
            if tile is not None:
                for seg in segments_on(tile, h, tiles):
                    for side in seg[1]:
                        if side != TOWN_SIDE:
                            index[(h, side)] = seg
            out.__dict__["_memo"] = {("index", id(tiles)): index}
        return out

    def with_city(self, h: Hex) -> "Rails":
        return replace(self.with_tile(h, None), new_cities=tuple(sorted({*self.new_cities, h})))


def segments_on(tile: PlacedTile, h: Hex, tiles: TileSet | None = None) -> tuple[Segment, ...]:
    return tuple((h, sides) for sides in face_tracks(tiles or tileset(), tile.face, tile.rotation))


_SIDES: dict[tuple[TileSet, str, int], tuple[tuple[int, ...], ...]] = {}


def face_tracks(tiles: TileSet, face: str, rotation: int) -> tuple[tuple[int, ...], ...]:
    """A face's tracks at a rotation as sorted side tuples, in order (remembered: every trace
    asks it of every tile on the board, the build listing of every candidate)."""
    key = (tiles, face, rotation)
    if key not in _SIDES:
        _SIDES[key] = tuple(sorted(tuple(sorted(t)) for t in tiles.faces[face].rotated(rotation)))
    return _SIDES[key]


def is_city(m: SteamMap, rails: Rails, h: Hex) -> bool:
    return h in m.cities or h in rails.new_cities


def segment_index(rails: Rails, tiles: TileSet) -> dict[tuple[Hex, int], Segment]:
    """(hex, side) -> the segment using that side of the hex. Do not modify."""
    memo = rails.__dict__.setdefault("_memo", {})
    if ("index", id(tiles)) not in memo:
        memo[("index", id(tiles))] = _segment_index(rails, tiles)
    return memo[("index", id(tiles))]


def _segment_index(rails: Rails, tiles: TileSet) -> dict[tuple[Hex, int], Segment]:
    out = {}
    for h, tile in rails.tiles:
        for seg in segments_on(tile, h, tiles):
            for side in seg[1]:
                if side != TOWN_SIDE:
                    out[(h, side)] = seg
    return out


def _walk(cities, index, seg: Segment, side: int, seen: set):
    """Follow track out of `seg` by `side`; the segments passed and the end reached."""
    path = []
    while True:
        h = seg[0]
        n = h.neighbors()[side]
        if n in cities:
            return path, n
        nxt = index.get((n, opposite(side)))
        if nxt is None:
            return path, (h, side)
        if nxt in seen:           # a closed ring of track: no end at all
            return path, None
        seen.add(nxt)
        path.append(nxt)
        if TOWN_SIDE in nxt[1]:
            return path, n
        side = next(s for s in nxt[1] if s != opposite(side))
        seg = nxt


def memo(rails: Rails, what: str, m: SteamMap, tiles: TileSet, make):
    """Answers about one immutable Rails are computed once: the chooser asks them thousands
    of times of the same board."""
    memo = rails.__dict__.setdefault("_memo", {})
    key = (what, id(m), id(tiles))
    if key not in memo:
        memo[key] = make()
    return memo[key]


def trace(m: SteamMap, rails: Rails, tiles: TileSet | None = None) -> list[Run]:
    """Every link on the board, in a stable order (by its smallest segment). A ring of track
    with no end gets `None` ends; building never leaves one (ST-3)."""
    tiles = tiles or tileset()
    return list(memo(rails, "trace", m, tiles, lambda: _trace(m, rails, tiles)))


def _trace(m: SteamMap, rails: Rails, tiles: TileSet) -> tuple[Run, ...]:
    index = segment_index(rails, tiles)
    cities = {*m.cities, *rails.new_cities}
    seen: set[Segment] = set()
    runs = []
    # By hex (as Hex orders itself, without its slower generated comparisons), then by sides:
    # every segment in order.
    segments = (seg for h, tile in sorted(rails.tiles, key=lambda t: (t[0].q, t[0].r))
                for seg in segments_on(tile, h, tiles))
    for seg in segments:
        if seg in seen:
            continue
        seen.add(seg)
        a, b = sorted(seg[1])   # TOWN_SIDE (-1) sorts first: a town tile's track starts at the town
        if a == TOWN_SIDE:
            back, end0 = [], seg[0]
        else:
            back, end0 = _walk(cities, index, seg, a, seen)
        fwd, end1 = _walk(cities, index, seg, b, seen)
        segs = tuple(reversed(back)) + (seg,) + tuple(fwd)
        runs.append(Run.of(segs, (end0, end1)))
    return tuple(runs)


def retrace(m: SteamMap, rails: Rails, tiles: TileSet | None = None) -> tuple[Rails, list[int]]:
    """Match the traced runs to the link records (see the module's notes); returns the new
    rails and the ids given to runs that share nothing with any record (owner None)."""
    tiles = tiles or tileset()
    runs = trace(m, rails, tiles)
    by_segment = rails.link_of
    next_id = rails.next_id
    records: list[LinkRecord] = []
    fresh: list[int] = []
    used: set[int] = set()
    by_id: dict[int, Run] = {}
    for run in runs:
        segs = frozenset(run.segments)
        ids = sorted({by_segment.get(s) for s in segs} - {None} - used)
        if ids:
            owner = next((rails.record[i].owner for i in ids if rails.record[i].owner is not None), None)
            extended = max(rails.record[i].extended for i in ids)
            used.add(ids[0])
            records.append(LinkRecord(ids[0], segs, owner, extended))
        else:
            records.append(LinkRecord(next_id, segs))
            fresh.append(next_id)
            next_id += 1
        by_id[records[-1].id] = run
    records.sort(key=lambda r: r.id)
    out = share_geometry(rails, replace(rails, links=tuple(records), next_id=next_id))
    # Each record holds exactly its run's segments, so the runs by id are known already.
    out.__dict__.setdefault("_memo", {}).setdefault(("runs", id(m), id(tiles)), by_id)
    return out, fresh


def share_geometry(src: Rails, dst: Rails, runs: bool = False) -> Rails:
    """`dst`, which has `src`'s tiles and new cities, reuses what was traced of `src` (the
    trace depends on those alone); with `runs`, also each link's run, valid when the link
    records differ only in owners. Returns `dst`."""
    memo = src.__dict__.get("_memo")
    if memo and dst.tiles == src.tiles and dst.new_cities == src.new_cities:
        keep = ("trace", "index", "runs") if runs else ("trace", "index")
        dst.__dict__.setdefault("_memo", {}).update((k, v) for k, v in memo.items() if k[0] in keep)
    return dst


def runs_by_id(m: SteamMap, rails: Rails, tiles: TileSet | None = None) -> dict[int, Run]:
    """Each recorded link's traced run (rails as returned by `retrace`). Do not modify."""
    tiles = tiles or tileset()
    return memo(rails, "runs", m, tiles,
                 lambda: {rails.link_of[r.segments[0]]: r for r in trace(m, rails, tiles)})


def delivery_links(m: SteamMap, rails: Rails, tiles: TileSet | None = None) -> list[Link]:
    """The complete links as delivery.Link values (incomplete track never carries goods)."""
    out = []
    for lid, run in sorted(runs_by_id(m, rails, tiles).items()):
        if run.complete:
            out.append(Link(lid, (run.ends[0], run.ends[1]), rails.record[lid].owner, True))
    return out


def lapse(m: SteamMap, rails: Rails, turn: int, tiles: TileSet | None = None) -> tuple[Rails, list[LinkRecord]]:
    """ST-4, at the end of turn `turn`'s building phase: every owned incomplete link its owner
    did not build on during this turn becomes unowned. Returns the rails and the lapsed links."""
    runs = runs_by_id(m, rails, tiles)
    lost = [r for r in rails.links
            if r.owner is not None and r.extended < turn and not runs[r.id].complete]
    gone = {r.id for r in lost}
    links = tuple(replace(r, owner=None) if r.id in gone else r for r in rails.links)
    return share_geometry(rails, replace(rails, links=links), runs=True), lost


def unown_all(rails: Rails, seat: int, m: SteamMap, incomplete_only: bool = False,
              tiles: TileSet | None = None) -> Rails:
    """Bankruptcy (ST-13: all of a seat's links) or the game's end (ST-14: incomplete ones)."""
    runs = runs_by_id(m, rails, tiles) if incomplete_only else {}
    links = tuple(replace(r, owner=None) if r.owner == seat and (not incomplete_only or not runs[r.id].complete)
                  else r for r in rails.links)
    return share_geometry(rails, replace(rails, links=links), runs=True)

