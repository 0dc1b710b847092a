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
    links the builder owns, as are the extra exits of an upgraded town tile (ST-6). A town tile
    joins its town to what its exits meet, so a link one exit meets counts as joined through
    that town to the builder's track another exit meets (see `_judge`). After the change the
    board is traced again: no link may return to its own start, nor close a ring.

Why the listing does not simply try every candidate
    Trying `apply_build` on each of several hundred candidates retraces the board each time
    (0.3 s on a busy board). `legal_builds` instead judges every candidate from one view of the
    board (`_View`: each open end's link and that link's far end, who may take what), so the
    loop check follows only the links the new track meets (`_closes`); the static part (which
    faces and rotations a hex takes, the upgrades of a placed face) is worked out once per map.
    `_legal_builds_by_trying` keeps the try-everything listing as the reference the tests hold
    the fast one to (`python -m tools.games.steam.build_bench` prints the timings).
"""
from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NamedTuple

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.hexgrid import Hex, opposite
from games.core.judged import LastJudgement
from games.steam.components import components
from games.steam.legality import build_cost, buildable, fits, open_sides, placements, upgrades_on
from games.steam.map import SteamMap
from games.steam.tiles import TOWN_SIDE, Stock, TileSet, tileset
from games.steam.track import (LinkRecord, OpenEnd, PlacedTile, Rails, Run, Segment, is_city, retrace,
                               face_tracks, runs_by_id, segment_index, segments_on, share_geometry)


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
    """ST-4: an unowned incomplete link `seat` may take over by extending it (as the board
    stands; `_judge` adds the town a placement itself joins to the seat's track)."""
    if rec.owner is not None or run.complete:
        return False
    for place in run.places:
        if is_city(m, rails, place):
            return True
        if any(o.owner == seat and o.id != rec.id and place in runs[o.id].places for o in rails.links):
            return True
    return False


CITY = "city"
Reach = int | str | None   # what one exit of new track faces: a link's id, CITY, or None (nothing)


class _Side(NamedTuple):
    """What one side of a hex offers new track leaving by it, for one builder."""

    reach: Reach
    anchor: bool     # it meets a city or a link: track leaving here is not in the air
    fine: bool       # it meets no link the builder may not extend as the board stands
    orphan: bool     # it meets an unowned link (theirs to take if a town joins it to their track)
    joins: bool      # it meets a city or a link that is, or by this track becomes, the builder's


@dataclass(frozen=True, slots=True)
class _View:
    """What the checks on new track ask of one board for one builder, worked out once per
    rails and seat (the listing asks it of every candidate, apply_build of one).

    ends_at maps each open end (hex, side) to its link and that link's other end, so a
    placement's effect on the links it meets is known without tracing the board again;
    `sound` is False if the board already holds a ring or a loop (then every build is refused
    by the retrace, and the listing falls back to trying each candidate)."""

    seat: int
    cities: frozenset[Hex]
    index: dict[tuple[Hex, int], Segment]
    link_of: dict[Segment, int]
    owner: dict[int, int | None]
    ends_at: dict[OpenEnd, tuple[int, Hex | OpenEnd | None]]
    takeable: frozenset[int]        # unowned incomplete links the seat may take as the board stands
    own_at: frozenset[Hex]          # places where a link of the seat ends
    sound: bool
    sides: dict[Hex, tuple[_Side, ...]] = field(default_factory=dict)

    def reach(self, h: Hex, side: int) -> Reach:
        n = h.neighbors()[side]
        if n in self.cities:
            return CITY
        key = (n, opposite(side))
        end = self.ends_at.get(key)
        if end is not None:
            return end[0]
        seg = self.index.get(key)
        return None if seg is None else self.link_of[seg]

    def around(self, h: Hex) -> tuple[_Side, ...]:
        """The six sides of `h` as new track there would see them."""
        if h not in self.sides:
            out = []
            for side in range(6):
                r = self.reach(h, side)
                mine = isinstance(r, int) and (self.owner[r] == self.seat or r in self.takeable)
                linked = isinstance(r, int)
                out.append(_Side(r, r is not None, not linked or mine,
                                 linked and self.owner[r] is None, r == CITY or mine))
            self.sides[h] = tuple(out)
        return self.sides[h]


def _view(m: SteamMap, rails: Rails, tiles: TileSet, seat: int) -> _View:
    memo = rails.__dict__.setdefault("_memo", {})
    key = ("build_view", seat, id(m), id(tiles))
    if key not in memo:
        memo[key] = _make_view(m, rails, tiles, seat)
    return memo[key]


def _make_view(m: SteamMap, rails: Rails, tiles: TileSet, seat: int) -> _View:
    runs = runs_by_id(m, rails, tiles)
    cities = frozenset((*m.cities, *rails.new_cities))
    ends_at: dict[OpenEnd, tuple[int, Hex | OpenEnd | None]] = {}
    sound = True
    for lid, run in runs.items():
        a, b = run.ends
        if a is None or b is None or (run.complete and a == b):
            sound = False
        if a is not None and not isinstance(a, Hex):
            ends_at[a] = (lid, b)
        if b is not None and not isinstance(b, Hex):
            ends_at[b] = (lid, a)
    own_at = frozenset(p for r in rails.links if r.owner == seat for p in runs[r.id].places)
    free = frozenset(r.id for r in rails.links if r.owner is None and not runs[r.id].complete
                     and any(p in cities or p in own_at for p in runs[r.id].places))
    return _View(seat, cities, segment_index(rails, tiles), rails.link_of, {r.id: r.owner for r in rails.links},
                 ends_at, free, own_at, sound)


def _judge(v: _View, h: Hex, segs: Sequence[tuple[int, ...]], town: bool, need_one: bool) -> str | None:
    """Why new track on `h` (each segment as its sides) may not go there, or None (ST-3, ST-4):
    it may not meet another player's link, nor an unowned one the builder may not take; plain
    track must meet a city or a link with every segment, a town tile on an empty hex with one.

    A new town tile joins its town to whatever its exits meet, so an unowned link one exit
    meets is taken over through this town when another exit meets the builder's own track: a
    link of theirs (or one this placement takes over by the ordinary rule), a city (the new
    link into it is theirs), or, for an upgrade, a link of theirs already ending at the town.
    A bare stub is no such track: it joins nothing to a city."""
    look = v.around(h)
    joined = town and (h in v.own_at or any(look[s].joins for sides in segs for s in sides if s != TOWN_SIDE))
    anchored = False
    for sides in segs:
        seg_anchored = False
        for s in sides:
            if s == TOWN_SIDE:
                continue
            side = look[s]
            if not side.fine and not (joined and side.orphan):
                return "others_link"
            seg_anchored = seg_anchored or side.anchor
        anchored = anchored or seg_anchored
        if not town and not seg_anchored:
            return "not_connected"
    if need_one and not anchored:
        return "not_connected"
    return None


def _closes(v: _View, h: Hex, segs: Sequence[tuple[int, ...]], entry: int | None = None,
            start: Hex | None = None) -> bool:
    """Whether new track on `h` closes a ring or makes a link return to its own town or city
    (ST-3), found by following only the links it meets: each exit leads to a city, to nothing,
    or along the link whose open end it meets to that link's other end — which may face `h`
    again and go on through another new segment. For a redirect, the side `entry` leads back
    along the shortened link to its place `start`."""
    user = {s: i for i, sides in enumerate(segs) for s in sides if s != TOWN_SIDE}
    done: set[int] = set()
    for i, sides in enumerate(segs):
        if i in done:
            continue
        done.add(i)
        ends = []
        for first in sides:
            side = first
            while True:
                if side == TOWN_SIDE:
                    end = h
                    break
                if side == entry:
                    end = start
                    break
                n = h.neighbors()[side]
                if n in v.cities:
                    end = n
                    break
                met = v.ends_at.get((n, opposite(side)))
                if met is None:
                    end = (h, side)
                    break
                end = met[1]
                if end is None or isinstance(end, Hex) or end[0].neighbors()[end[1]] != h:
                    break
                j = user.get(opposite(end[1]))
                if j is None:
                    break
                if j == i:
                    return True          # back into the segment it started from: a ring
                done.add(j)
                back = opposite(end[1])
                side = next(s for s in segs[j] if s != back)
            if end is None:
                return True
            ends.append(end)
        if len(ends) == 2 and isinstance(ends[0], Hex) and ends[0] == ends[1]:
            return True
    return False


def _fits(m: SteamMap, h: Hex, face, rotation: int) -> bool:
    """The map's say on `face` turned `rotation` on the empty hex `h` (ST-3)."""
    return 0 <= rotation < 6 and fits(face, m.space(h)) and face.exits_at(rotation) <= open_sides(m, h)


def _judge_new(m, rails, tiles, bt: BuildTurn, segs, town: bool, need_one: bool) -> None:
    """Refuse new segments that extend someone else's link or hang in the air (ST-3, ST-4)."""
    h = segs[0][0]
    why = _judge(_view(m, rails, tiles, bt.seat), h, [s[1] for s in segs], town, need_one)
    if why is not None:
        raise _refuse(why, hex=m.label(h))


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
            events.append(_ev("link_completed", seat=bt.seat, a=m.words(a, "steam.place"), b=m.words(b, "steam.place")))
        links.append(rec)
    return share_geometry(rails, replace(rails, links=tuple(links)), runs=True), events


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
        return Built(share_geometry(after, replace(after, links=tuple(links)), runs=True), stock, 0,
                     tuple(events), bt)  # the rules say it once, with the city's colour and cubes
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
        # A town that became a new city (Urbanize) is a city now: nothing is built on it.
        if not buildable(space) or h in rails.new_cities:
            raise _refuse("not_buildable")
        if not _fits(m, h, face, build.rotation):
            raise _refuse("bad_exits", hex=m.label(h))
        cost = build_cost(face, space)
        placed = PlacedTile(build.face, build.rotation, 0)
        new = set(segments_on(placed, h, tiles))
        _judge_new(m, rails, tiles, bt, sorted(new), face.town, need_one=True)
        stock, pairing = stock.take(build.face)
        after, events = _settle(m, rails, rails.with_tile(h, replace(placed, pairing=pairing), tiles), tiles, bt, new)
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
        after, events = _settle(m, rails, rails.with_tile(h, replace(placed, pairing=pairing), tiles), tiles, bt, new)
        key = "upgraded"
    else:
        cost, stock, after, events = _redirect(m, rails, stock, bt, build, tiles, old)
        key = "redirected"
    return Built(after, stock, cost, (_ev(key, seat=bt.seat, hex=m.words(h, "steam.place"), cost=cost), *events),
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
    without = rails.with_tile(h, None, tiles)
    without, _ = retrace(m, without, tiles)
    _judge_new(m, without, tiles, bt, sorted(new), False, need_one=False)
    stock, pairing = back.take(build.face)
    cost = components().build_costs.exit * len(face.exits)
    # The new tile takes the old one's place in the link, so a one-tile link keeps its id.
    moved = tuple(replace(r, segments=(r.segments - set(segs)) | new) if r.id == lid else r for r in rails.links)
    after, events = _settle(m, rails, replace(rails.with_tile(h, replace(placed, pairing=pairing), tiles), links=moved),
                            tiles, bt, new, completes_only=True)
    return cost, stock, after, events


def _candidate_hexes(m: SteamMap, rails: Rails, tiles: TileSet) -> set[Hex]:
    """Empty buildable hexes next to a city or an open end: the only places a tile can go."""
    beside, land = _buildable(m)
    out = set(beside)
    for c in rails.new_cities:
        out.update(c.neighbors())
    for run in runs_by_id(m, rails, tiles).values():
        for e in run.open_ends:
            if e is not None:
                out.add(e[0].neighbors()[e[1]])
    out &= land
    out.difference_update(rails.tile_at, rails.new_cities)
    return out


_BUILDABLE: dict[int, tuple[SteamMap, frozenset[Hex], frozenset[Hex]]] = {}


def _buildable(m: SteamMap) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The buildable hexes next to a printed city, and all buildable hexes, of a map (the entry
    holds the map, so its id cannot be reused)."""
    entry = _BUILDABLE.get(id(m))
    if entry is None:
        land = frozenset(h for h, space in m.spaces.items() if buildable(space))
        entry = _BUILDABLE[id(m)] = (m, frozenset(h for c in m.cities for h in c.neighbors() if h in land), land)
    return entry[1], entry[2]


def legal_builds(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, tiles: TileSet | None = None) -> list[Build]:
    """`listed_builds`, the last answer given again when asked for the very same board (the same
    map, rails and tile set objects, equal stock and turn): one move asks twice, once whether the
    builder's only move is forced and once for the menu, and listing costs 3-10 ms late in a game."""
    tiles = tiles or tileset()
    last = getattr(_LAST_LISTING, "kept", None)
    if last is not None and last[0] is m and last[1] is rails and last[2] is tiles and last[3] == stock.counts \
            and last[4] == bt:
        return list(last[5])
    out = listed_builds(m, rails, stock, bt, tiles)
    _LAST_LISTING.kept = (m, rails, tiles, stock.counts, bt, tuple(out))
    return out


_LAST_LISTING = threading.local()  # per thread: render and bench threads list boards of their own


def listed_builds(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, tiles: TileSet | None = None) -> list[Build]:
    """Every legal placement, upgrade and redirect for the builder now, with its cost
    (urbanizing is the engine's, as it depends on the action tile taken).

    The answer is the one trying `apply_build` on every candidate gives (`_legal_builds_by_trying`),
    in the same order, but found without tracing the board once per candidate: the checks on
    new track (`_judge`) and the loop check (`_closes`) look only at the links the new track
    meets, through one view of the board worked out once."""
    tiles = tiles or tileset()
    if bt.placed >= bt.limit:
        return []
    v = _view(m, rails, tiles, bt.seat)
    if not v.sound:
        return _legal_builds_by_trying(m, rails, stock, bt, tiles)
    seat = bt.seat
    shapes = _shapes(m, tiles)
    left: dict[str, int] = {}
    out = []
    for h in sorted(_candidate_hexes(m, rails, tiles)):
        for face, rotation, segs, town, cost in shapes.on(h):
            if face not in left:
                left[face] = stock.available(face)
            if left[face] and _judge(v, h, segs, town, True) is None and not _closes(v, h, segs):
                out.append(Build(Kind.BUILD, h, face, rotation, cost))
    runs = runs_by_id(m, rails, tiles)
    ends = {e[0] for run in runs.values() if not run.complete for e in run.open_ends if e}
    for h, t in rails.tiles:
        back = stock.give_back(t.pairing)
        for face, rotation, segs, town, cost in shapes.upgrades(h, t.face, t.rotation):
            if back.available(face) and _judge(v, h, segs, town, False) is None and not _closes(v, h, segs):
                out.append(Build(Kind.UPGRADE, h, face, rotation, cost))
        if h in ends and not tiles.faces[t.face].town:
            out += _redirects(v, rails, runs, shapes, back, seat, h, t, tiles)
    return out


def build_cost_if_legal(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, build: Build,
                        tiles: TileSet | None = None) -> int | None:
    """What `apply_build` would charge for `build`, or None where it would refuse it, for a bot
    that tries many builds to make one.

    A build of the kind `legal_builds` considers (a listed hex, a distinct rotation) is judged
    as the listing judges it: from the one view of the board, without retracing it — the
    listing is held to what trying `apply_build` gives (tests/games/test_steam_track.py). Any
    other build (an equivalent rotation, a hex the listing never offers, a board that already
    holds a ring or a loop, urbanizing) is tried with `apply_build` itself."""
    tiles = tiles or tileset()
    known = _listed_cost(m, rails, stock, bt, build, tiles)
    if known is not _UNLISTED:
        return known
    try:
        return apply_build(m, rails, stock, bt, build, tiles).cost
    except IllegalAction:
        return None


_UNLISTED = object()


def judge_build(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, build: Build,
                tiles: TileSet | None = None) -> Built | IllegalAction:
    """What `apply_build` makes of `build`, or the refusal it raises: the rules' judgement of a
    placement before they make it. An accepted build is kept for `make_build`, which the rules
    call next with the same board: the move is worked out once, not once to judge and once to
    make."""
    tiles = tiles or tileset()
    try:
        done = apply_build(m, rails, stock, bt, build, tiles)
    except IllegalAction as exc:
        return exc
    _JUDGED.keep((m, rails, stock.counts, bt, build, tiles), done)
    return done


def make_build(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, build: Build,
               tiles: TileSet | None = None) -> Built:
    """`apply_build`: the answer `judge_build` just kept if it was for these very inputs (the
    same map, rails and tile set objects, equal stock, turn and build), else worked out anew.
    The kept answer is taken once, so no two moves share its events."""
    tiles = tiles or tileset()
    return _JUDGED.take(lambda kept: kept[0] is m and kept[1] is rails and kept[5] is tiles
                        and kept[2] == stock.counts and kept[3] == bt and kept[4] == build,
                        lambda: apply_build(m, rails, stock, bt, build, tiles))


# The last build `judge_build` accepted, with its inputs: apply_build is a pure function of them.
_JUDGED: LastJudgement[tuple, Built] = LastJudgement()


def _listed_cost(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, build: Build, tiles: TileSet):
    """The cost of `build` if `legal_builds` lists it, None if the listing would consider it and
    leave it out, `_UNLISTED` if the listing never considers such a build."""
    if build.kind is Kind.URBANIZE:
        return _UNLISTED
    if bt.placed >= bt.limit:
        return None
    v = _view(m, rails, tiles, bt.seat)
    if not v.sound:
        return _UNLISTED
    shapes = _shapes(m, tiles)
    h = build.hex
    if build.kind is Kind.BUILD:
        if h not in _candidates(m, rails, tiles):
            return _UNLISTED
        shape = shapes.find_on(h, build.face, build.rotation)
        if shape is None:
            return _UNLISTED
        face, _, segs, town, cost = shape
        if stock.available(face) and _judge(v, h, segs, town, True) is None and not _closes(v, h, segs):
            return cost
        return None
    old = rails.tile_at.get(h)
    if old is None:
        return _UNLISTED
    back = stock.give_back(old.pairing)
    if build.kind is Kind.UPGRADE:
        shape = shapes.find_upgrade(h, old.face, old.rotation, build.face, build.rotation)
        if shape is None:
            return _UNLISTED
        face, _, segs, town, cost = shape
        if back.available(face) and _judge(v, h, segs, town, False) is None and not _closes(v, h, segs):
            return cost
        return None
    if shapes.find_on(h, build.face, build.rotation) is None:
        return _UNLISTED
    runs = runs_by_id(m, rails, tiles)
    if h not in _open_end_hexes(m, rails, tiles) or tiles.faces[old.face].town:
        return None
    for b in _redirects(v, rails, runs, shapes, back, bt.seat, h, old, tiles):
        if b.face == build.face and b.rotation == build.rotation:
            return b.cost
    return None


def _candidates(m: SteamMap, rails: Rails, tiles: TileSet) -> frozenset[Hex]:
    """`_candidate_hexes`, remembered on the rails."""
    memo = rails.__dict__.setdefault("_memo", {})
    key = ("candidates", id(m), id(tiles))
    if key not in memo:
        memo[key] = frozenset(_candidate_hexes(m, rails, tiles))
    return memo[key]


def _open_end_hexes(m: SteamMap, rails: Rails, tiles: TileSet) -> frozenset[Hex]:
    """The hexes where an incomplete link ends in the open (where a redirect may go), remembered
    on the rails."""
    memo = rails.__dict__.setdefault("_memo", {})
    key = ("open_end_hexes", id(m), id(tiles))
    if key not in memo:
        memo[key] = frozenset(e[0] for run in runs_by_id(m, rails, tiles).values() if not run.complete
                              for e in run.open_ends if e)
    return memo[key]


def _redirects(v: _View, rails: Rails, runs: dict[int, Run], shapes: "_Shapes", back: Stock,
               seat: int, h: Hex, old: PlacedTile, tiles: TileSet) -> list[Build]:
    """The legal redirects of the tile on `h` (ST-5), judged as `_redirect` judges them. With
    the old tile gone only its own link changes, and that link is the builder's or one they
    may take, so its side of the new tile needs no look; the other exit meets what it met
    before, and the shortened link leads back to its one place."""
    if len(tiles.faces[old.face].tracks) != 1:
        return []
    segs = shapes.tracks(old.face, old.rotation)
    lid = rails.link_of[(h, segs[0])]
    run = runs[lid]
    if run.complete or not any(e[0] == h for e in run.open_ends) or len(run.places) != 1:
        return []
    if v.owner[lid] not in (seat, None) or (v.owner[lid] is None and lid not in v.takeable):
        return []
    open_side = next(e[1] for e in run.open_ends if e[0] == h)
    entry = next(s for s in segs[0] if s != open_side)
    exit_cost = components().build_costs.exit
    out = []
    look = v.around(h)
    for face, rotation, new in shapes.single(h):
        if entry not in new[0] or new[0] == segs[0] or back.available(face) == 0:
            continue
        x = new[0][0] if new[0][1] == entry else new[0][1]
        if look[x].fine and not _closes(v, h, new, entry=entry, start=run.places[0]):
            out.append(Build(Kind.REDIRECT, h, face, rotation, exit_cost * len(new[0])))
    return out


Tracks = tuple[tuple[int, ...], ...]   # a tile's tracks on a hex, as sorted side tuples in order
_Shape = tuple[str, int, Tracks, bool, int]   # face, rotation, its (new) tracks, town tile or not, cost


class _Shapes:
    """The static half of the listing for one map and tile set: each face's tracks at each
    rotation as sorted side tuples (the order `segments_on` gives), and every face and
    rotation the map lets a hex take, with its cost on an empty hex."""

    def __init__(self, m: SteamMap, tiles: TileSet) -> None:
        self.m, self.tiles = m, tiles
        self._on: dict[Hex, list[_Shape]] = {}
        self._single: dict[Hex, list[tuple[str, int, Tracks]]] = {}
        self._up: dict[tuple[Hex, str, int], list[_Shape]] = {}
        self._found: dict[tuple, _Shape | None] = {}

    def tracks(self, face: str, rotation: int) -> Tracks:
        return face_tracks(self.tiles, face, rotation)

    def on(self, h: Hex) -> list[_Shape]:
        """Each face and rotation the empty hex `h` may take: its tracks, town or not, cost."""
        if h not in self._on:
            self._on[h] = [(p.face, p.rotation, self.tracks(p.face, p.rotation), self.tiles.faces[p.face].town, p.cost)
                           for p in placements(self.m, h, self.tiles)]
        return self._on[h]

    def find_on(self, h: Hex, face: str, rotation: int) -> _Shape | None:
        """The shape of `face` turned `rotation` among those `h` may take, if it is one."""
        key = (h, face, rotation)
        if key not in self._found:
            self._found[key] = next((sh for sh in self.on(h) if sh[0] == face and sh[1] == rotation), None)
        return self._found[key]

    def find_upgrade(self, h: Hex, old: str, old_rotation: int, face: str, rotation: int) -> _Shape | None:
        """The upgrade of `old`/`old_rotation` on `h` to `face` turned `rotation`, if it is one."""
        key = (h, old, old_rotation, face, rotation)
        if key not in self._found:
            self._found[key] = next((sh for sh in self.upgrades(h, old, old_rotation)
                                     if sh[0] == face and sh[1] == rotation), None)
        return self._found[key]

    def single(self, h: Hex) -> list[tuple[str, int, Tracks]]:
        """The plain one-track faces `h` may take: what a redirect may put there."""
        if h not in self._single:
            self._single[h] = [(face, rotation, segs) for face, rotation, segs, town, _ in self.on(h)
                               if not town and len(segs) == 1]
        return self._single[h]

    def upgrades(self, h: Hex, face: str, rotation: int) -> list[_Shape]:
        """Each upgrade of `face`/`rotation` on `h` (stock aside): the new face and rotation,
        only the tracks it adds, town or not, cost."""
        key = (h, face, rotation)
        if key not in self._up:
            old = set(self.tracks(face, rotation))
            self._up[key] = [(p.face, p.rotation, tuple(t for t in self.tracks(p.face, p.rotation) if t not in old),
                              self.tiles.faces[p.face].town, p.cost)
                             for p in upgrades_on(self.m, h, self.tiles, face, rotation)]
        return self._up[key]


_SHAPES: dict[tuple[int, int], tuple[SteamMap, TileSet, _Shapes]] = {}


def _shapes(m: SteamMap, tiles: TileSet) -> _Shapes:
    # The map and tile set are held by the entry itself, so their ids cannot be reused.
    key = (id(m), id(tiles))
    if key not in _SHAPES:
        _SHAPES[key] = (m, tiles, _Shapes(m, tiles))
    return _SHAPES[key][2]


def _legal_builds_by_trying(m: SteamMap, rails: Rails, stock: Stock, bt: BuildTurn, tiles: TileSet) -> list[Build]:
    """The listing by brute force: every candidate tried with `apply_build`. Slow (a full
    retrace per candidate); the reference the fast listing is checked against, and its
    fallback on a board that already holds a ring or a loop."""
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
