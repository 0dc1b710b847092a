"""Steam's building phase for one player: what may be built, and building it (ST-1 … ST-7).

Inputs (plain values; the rules engine owns the state)
    m       the SteamMap; `rails` the track.Rails on the board; `stock` the tiles.Stock.
    turn    BuildTurn(seat, turn, limit, placed): who builds, the game turn (for ST-4), the
            placement limit (3, or 4 with the Engineer, ST-1) and placements made so far.
    build   Build(kind, hex, face, rotation): place a tile on an empty hex, upgrade a tile
            (ST-6), redirect the last tile of an incomplete link (ST-5) or urbanize a town
            (ST-7; the new city's colour and cubes are the engine's business).
Outputs
    `apply_build` returns Built(rails, stock, cost, events, turn) or raises IllegalAction with a
    "steam.build.…" code; `legal_builds` lists every legal Build with its cost, which
    `by_hex` groups as hex -> face -> [(rotation, cost)] for a chooser.

How a new track is judged
    Each new track (a segment) looks out of each of its exits: into a city, into the open end of
    an existing link, or into nothing. A link it reaches must be the builder's own or one they
    may take over (ST-4: unowned, incomplete, and leaving a city or joined through a town or city
    to one of their links) — nobody extends another player's link. Plain track must reach a city
    or such a link (ST-3: new links start next to a city; otherwise track extends one's own
    link); a town tile on an empty hex needs one such exit, its other exits are stubs of new
    links the builder owns, as are the extra exits of an upgraded town tile (ST-6). After the
    change the board is traced again: no link may return to its own start, nor close a ring.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from enum import StrEnum

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.hexgrid import Hex, opposite
from games.steam.components import components
from games.steam.legality import build_cost, buildable, fits, open_sides, placements, upgrades_on
from games.steam.maps import SteamMap
from games.steam.tiles import TOWN_SIDE, Stock, TileSet, tileset
from games.steam.track import (LinkRecord, PlacedTile, Rails, Run, Segment, is_city, retrace, runs_by_id,
                               segment_index, segments_on)


class Kind(StrEnum):
    BUILD = "build"
    UPGRADE = "upgrade"
    REDIRECT = "redirect"
    URBANIZE = "urbanize"


@dataclass(frozen=True, slots=True)
class BuildTurn:
    seat: int
    turn: int
    limit: int = 3      # ST-1: 4 with the Engineer
    placed: int = 0


@dataclass(frozen=True, slots=True)
class Build:
    kind: Kind
    hex: Hex
    face: str = ""
    rotation: int = 0
    cost: int = 0       # filled in by legal_builds; ignored by apply_build


@dataclass(frozen=True, slots=True)
class Built:
    rails: Rails
    stock: Stock
    cost: int
    events: tuple[Event, ...]
    turn: BuildTurn


def _ev(key: str, **params) -> Event:
    return Event(key=f"steam.ev.{key}", params=params)


def _refuse(code: str, **params) -> IllegalAction:
    return IllegalAction(f"steam.build.{code}", **params)


def takeable(run: Run, rec: LinkRecord, seat: int, m: SteamMap, rails: Rails, runs: dict[int, Run]) -> bool:
    """ST-4: an unowned incomplete link `seat` may take over by extending it."""
    if rec.owner is not None or run.complete:
        return False
    for place in run.places:
        if is_city(m, rails, place):
            return True
        if any(o.owner == seat and o.id != rec.id and place in runs[o.id].places for o in rails.links):
            return True
    return False


def _reaches(m: SteamMap, rails: Rails, index: dict[tuple[Hex, int], Segment], seg: Segment) -> list[object]:
    """What each exit of a new segment faces: "city", the id of the link whose open end it
    meets, or None."""
    out = []
    for side in seg[1]:
        if side == TOWN_SIDE:
            continue
        n = seg[0].neighbor(side)
        if is_city(m, rails, n):
            out.append("city")
        elif (n, opposite(side)) in index:
            out.append(rails.link_of[index[(n, opposite(side))]])
        else:
            out.append(None)
    return out


def _fits(m: SteamMap, h: Hex, face, rotation: int) -> bool:
    """The map's say on `face` turned `rotation` on the empty hex `h` (ST-3)."""
    return 0 <= rotation < 6 and fits(face, m.space(h)) and face.exits_at(rotation) <= open_sides(m, h)


def _judge_new(m, rails, tiles, bt: BuildTurn, segs, town: bool, need_one: bool) -> None:
    """Refuse new segments that extend someone else's link or hang in the air (ST-3, ST-4)."""
    index = segment_index(rails, tiles)
    runs = runs_by_id(m, rails, tiles)
    anchored = False
    for seg in segs:
        reached = _reaches(m, rails, index, seg)
        for r in reached:
            if isinstance(r, int):
                rec = rails.record[r]
                if rec.owner != bt.seat and not takeable(runs[r], rec, bt.seat, m, rails, runs):
                    raise _refuse("others_link", hex=m.label(seg[0]))
        seg_anchored = any(r is not None for r in reached)
        anchored = anchored or seg_anchored
        if not town and not seg_anchored:
            raise _refuse("not_connected", hex=m.label(seg[0]))
    if need_one and not anchored:
        raise _refuse("not_connected", hex=m.label(segs[0][0]))


def _settle(m, before: Rails, after: Rails, tiles, bt: BuildTurn, new: set[Segment], completes_only: bool = False):
    """Retrace after a change, refuse loops (ST-3), and give the builder the links their new
    track is part of; returns the rails and the events about links."""
    rails, _ = retrace(m, after, tiles)
    runs = runs_by_id(m, rails, tiles)
    old_runs = runs_by_id(m, before, tiles)
    for lid, run in runs.items():
        if None in run.ends or (run.complete and run.ends[0] == run.ends[1]):
            raise _refuse("loop", hex=m.label(run.segments[0][0]))
    events = []
    links = []
    for rec in rails.links:
        run = runs[rec.id]
        mine = bool(new & rec.segments)
        was = old_runs.get(rec.id)
        if mine and (run.complete or not completes_only):
            if rec.owner is None and was is not None:
                events.append(_ev("link_taken", seat=bt.seat))
            rec = replace(rec, owner=bt.seat, extended=bt.turn)
        if run.complete and (was is None or not was.complete):
            a, b = sorted(run.ends)
            events.append(_ev("link_completed", seat=bt.seat, a=m.label(a), b=m.label(b)))
        links.append(rec)
    return replace(rails, links=tuple(links)), events


def apply_build(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, build: Build,
                tiles: TileSet | None = None) -> Built:
    tiles = tiles or tileset()
    h = build.hex
    space = m.space(h)
    old = rails.tile_at.get(h)
    if build.kind is Kind.URBANIZE:
        if space is None or not space.town or h in rails.new_cities:
            raise _refuse("not_a_town", hex=m.label(h) if space else "?")
        if old is not None:
            stock = stock.give_back(old.pairing)
        after, events = _settle(m, rails, rails.with_city(h), tiles, bt, set(), completes_only=True)
        # Unowned links the new city completes go to its builder (rulebook: 所有者のない線路).
        runs, before = runs_by_id(m, after, tiles), runs_by_id(m, rails, tiles)
        links = []
        for rec in after.links:
            was = before.get(rec.id)
            if rec.owner is None and runs[rec.id].complete and was is not None and not was.complete \
                    and takeable(was, rails.record[rec.id], bt.seat, m, rails, before):
                rec = replace(rec, owner=bt.seat, extended=bt.turn)
            links.append(rec)
        return Built(replace(after, links=tuple(links)), stock, 0,
                     (_ev("urbanized", seat=bt.seat, hex=m.label(h)), *events), bt)
    if bt.placed >= bt.limit:
        raise _refuse("limit", limit=bt.limit)
    if build.face not in tiles.faces or tiles.faces[build.face].blank:
        raise _refuse("unknown_tile")
    # A tile taken off the hex goes back first, so it may itself carry the new face (ST-T2).
    if (stock if old is None or build.kind is Kind.BUILD else stock.give_back(old.pairing)).available(build.face) == 0:
        raise _refuse("no_tile", tile=build.face)
    face = tiles.faces[build.face]
    if build.kind is Kind.BUILD:
        if old is not None:
            raise _refuse("occupied", hex=m.label(h))
        if not buildable(space):
            raise _refuse("not_buildable")
        if not _fits(m, h, face, build.rotation):
            raise _refuse("bad_exits", hex=m.label(h))
        cost = build_cost(face, space)
        placed = PlacedTile(build.face, build.rotation, 0)
        new = set(segments_on(placed, h, tiles))
        _judge_new(m, rails, tiles, bt, sorted(new), face.town, need_one=True)
        stock, pairing = stock.take(build.face)
        after, events = _settle(m, rails, rails.with_tile(h, replace(placed, pairing=pairing)), tiles, bt, new)
        key = "built"
    elif build.kind is Kind.UPGRADE:
        if old is None:
            raise _refuse("nothing_to_upgrade", hex=m.label(h))
        back = stock.give_back(old.pairing)
        fit = [p for p in upgrades_on(m, h, tiles, old.face, old.rotation, back)
               if p.face == build.face and p.rotation == build.rotation]
        if not fit:
            raise _refuse("not_an_upgrade", hex=m.label(h))
        cost = fit[0].cost
        placed = PlacedTile(build.face, build.rotation, 0)
        new = set(segments_on(placed, h, tiles)) - set(segments_on(old, h, tiles))
        _judge_new(m, rails, tiles, bt, sorted(new), face.town, need_one=False)
        stock, pairing = back.take(build.face)
        after, events = _settle(m, rails, rails.with_tile(h, replace(placed, pairing=pairing)), tiles, bt, new)
        key = "upgraded"
    else:
        cost, stock, after, events = _redirect(m, rails, stock, bt, build, tiles, old)
        key = "redirected"
    return Built(after, stock, cost, (_ev(key, seat=bt.seat, hex=m.label(h), cost=cost), *events),
                 replace(bt, placed=bt.placed + 1))


def _redirect(m, rails: Rails, stock: Stock, bt: BuildTurn, build: Build, tiles: TileSet, old: PlacedTile | None):
    """ST-5: turn or replace the last tile of an incomplete link; it keeps or gains the link
    for its builder only if it completes it."""
    h = build.hex
    if old is None:
        raise _refuse("nothing_to_redirect", hex=m.label(h))
    if tiles.faces[old.face].town:
        raise _refuse("redirect_town", hex=m.label(h))
    segs = segments_on(old, h, tiles)
    runs = runs_by_id(m, rails, tiles)
    if len(segs) != 1:
        raise _refuse("not_last_tile", hex=m.label(h))
    lid = rails.link_of[segs[0]]
    run, rec = runs[lid], rails.record[lid]
    if run.complete or not any(e[0] == h for e in run.open_ends) or len(run.places) != 1:
        raise _refuse("not_last_tile", hex=m.label(h))
    if rec.owner not in (bt.seat, None) or (rec.owner is None and not takeable(run, rec, bt.seat, m, rails, runs)):
        raise _refuse("others_link", hex=m.label(h))
    open_side = next(e[1] for e in run.open_ends if e[0] == h)
    entry = next(s for s in segs[0][1] if s != open_side)
    back = stock.give_back(old.pairing)
    face = tiles.faces[build.face]
    if not _fits(m, h, face, build.rotation) or face.crossing or entry not in face.exits_at(build.rotation):
        raise _refuse("bad_exits", hex=m.label(h))
    if face.exits_at(build.rotation) == frozenset(segs[0][1]):
        raise _refuse("redirect_same", hex=m.label(h))
    placed = PlacedTile(build.face, build.rotation, 0)
    new = set(segments_on(placed, h, tiles))
    without = rails.with_tile(h, None)
    without, _ = retrace(m, without, tiles)
    _judge_new(m, without, tiles, bt, sorted(new), False, need_one=False)
    stock, pairing = back.take(build.face)
    cost = components().build_costs.exit * len(face.exits)
    # The new tile takes the old one's place in the link, so a one-tile link keeps its id.
    moved = tuple(replace(r, segments=(r.segments - set(segs)) | new) if r.id == lid else r for r in rails.links)
    after, events = _settle(m, rails, replace(rails.with_tile(h, replace(placed, pairing=pairing)), links=moved),
                            tiles, bt, new, completes_only=True)
    return cost, stock, after, events


def _candidate_hexes(m: SteamMap, rails: Rails, tiles: TileSet) -> set[Hex]:
    """Empty buildable hexes next to a city or an open end: the only places a tile can go."""
    out = set()
    for c in (*m.cities, *rails.new_cities):
        out.update(c.neighbors())
    for run in runs_by_id(m, rails, tiles).values():
        for e in run.open_ends:
            if e is not None:
                out.add(e[0].neighbor(e[1]))
    return {h for h in out if buildable(m.space(h)) and h not in rails.tile_at and h not in rails.new_cities}


def legal_builds(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, tiles: TileSet | None = None) -> list[Build]:
    """Every legal placement, upgrade and redirect for the builder now, with its cost
    (urbanizing is the engine's, as it depends on the action tile taken)."""
    tiles = tiles or tileset()
    if bt.placed >= bt.limit:
        return []
    options = []
    for h in sorted(_candidate_hexes(m, rails, tiles)):
        options += [Build(Kind.BUILD, h, p.face, p.rotation) for p in placements(m, h, tiles, stock)]
    ends = {e[0] for run in runs_by_id(m, rails, tiles).values() if not run.complete for e in run.open_ends if e}
    for h, t in rails.tiles:
        options += [Build(Kind.UPGRADE, h, p.face, p.rotation)
                    for p in upgrades_on(m, h, tiles, t.face, t.rotation, stock.give_back(t.pairing))]
        if h in ends and not tiles.faces[t.face].town:
            options += [Build(Kind.REDIRECT, h, p.face, p.rotation)
                        for p in placements(m, h, tiles, stock.give_back(t.pairing))]
    out = []
    for b in options:
        try:
            done = apply_build(m, rails, stock, bt, b, tiles)
        except IllegalAction:
            continue
        out.append(replace(b, cost=done.cost))
    return out


def by_hex(builds: list[Build]) -> dict[Hex, dict[str, list[tuple[int, int]]]]:
    """hex -> face -> [(rotation, cost)], the chooser's three steps."""
    out: dict[Hex, dict[str, list[tuple[int, int]]]] = defaultdict(lambda: defaultdict(list))
    for b in builds:
        out[b.hex][b.face].append((b.rotation, b.cost))
    return {h: dict(f) for h, f in out.items()}
