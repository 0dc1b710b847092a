"""Steam's board between the stored state and the pure modules: the placed track as a
`track.Rails`, the tile stock as a `tiles.Stock`, cities with their colours and cubes as
the delivery search wants them — and back.

The state stores hexes by map label and links by their segments (games/steam/models.py); the
pure modules speak `Hex` and frozen dataclasses. Converting is cheap but tracing links is not,
so `rails_of` keeps the parsed Rails on the state object (track.py memoises traces on it) and
`put_rails` writes a new Rails into both forms at once.
"""
from __future__ import annotations

from functools import lru_cache

from games.core.hexgrid import Hex
from games.steam.delivery import Link, Network
from games.steam.map import Colour, SteamMap, steam_map
from games.steam.models import COLOURS, SteamState, StoredLink, StoredTile
from games.steam.tiles import Stock, tileset
from games.steam.track import LinkRecord, PlacedTile, Rails, Run, delivery_links, memo, runs_by_id


@lru_cache(maxsize=None)
def map_of(map_id: str) -> SteamMap:
    return steam_map(map_id)


def board_map(state: SteamState) -> SteamMap:
    return map_of(state.options.map)


def rails_of(state: SteamState) -> Rails:
    """The placed track of `state` as a Rails, parsed once per state object."""
    rails = state.__pydantic_private__["_rails"]  # (not through pydantic's slower attribute lookup)
    if rails is not None:
        return rails
    if state._rails is None:
        m = board_map(state)
        tiles = tuple(sorted((m.hex_at(t.hex), PlacedTile(t.face, t.rotation, t.pairing)) for t in state.tiles))
        links = tuple(LinkRecord(rec.id, frozenset((m.hex_at(h), tuple(sides)) for h, sides in rec.segments),
                                 rec.owner, rec.extended) for rec in state.links)
        cities = tuple(sorted(m.hex_at(h) for h in state.new_cities))
        state._rails = Rails(tiles=tiles, new_cities=cities, links=links, next_id=state.next_link)
    return state._rails


def put_rails(state: SteamState, rails: Rails) -> None:
    """Store `rails` in `state` (both the JSON fields and the cache)."""
    m = board_map(state)
    # A record that did not change is kept (most of them: a move changes a tile or two).
    kept_tiles = {(t.hex, t.face, t.rotation, t.pairing): t for t in state.tiles}
    tiles = []
    for h, t in rails.tiles:
        key = (m.label(h), t.face, t.rotation, t.pairing)
        tile = kept_tiles.get(key)
        if tile is None:
            tile = StoredTile(hex=key[0], face=t.face, rotation=t.rotation, pairing=t.pairing)
        tiles.append(tile)
    kept_links = {(r.id, r.owner, r.extended, r.segments): r for r in state.links}
    links = []
    for r in sorted(rails.links, key=lambda r: r.id):
        segments = _labelled(state.options.map, r.segments)
        link = kept_links.get((r.id, r.owner, r.extended, segments))
        if link is None:
            link = StoredLink(id=r.id, owner=r.owner, extended=r.extended, segments=segments)
        links.append(link)
    state.tiles = tiles
    state.links = links
    state.next_link = rails.next_id
    state._rails = rails


@lru_cache(maxsize=4096)
def _labelled(map_id: str, segments: frozenset) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """A link's segments as the state stores them (by label, sorted); a link keeps its segments
    over many moves while the whole board is stored after each."""
    m = map_of(map_id)
    return tuple(sorted((m.label(h), tuple(s)) for h, s in segments))


def stock_of(state: SteamState) -> Stock:
    return Stock(tileset(), tuple(state.stock))


def runs(state: SteamState) -> dict[int, Run]:
    """Each link's traced run: its segments in order and what its ends reach."""
    return runs_by_id(board_map(state), rails_of(state), tileset())


def complete_links(state: SteamState) -> list[Link]:
    return delivery_links(board_map(state), rails_of(state), tileset())


def network(state: SteamState) -> Network:
    """The completed links as the route search wants them, built once per board (kept with the
    rails it was built from, so every state holding those rails shares it)."""
    m, rails, tiles = board_map(state), rails_of(state), tileset()
    return memo(rails, "network", m, tiles, lambda: Network(delivery_links(m, rails, tiles)))


def city_colours(state: SteamState) -> dict[Hex, Colour]:
    """Every city on the board, printed and new, with its colour."""
    m = board_map(state)
    out = {h: s.city for h, s in m.cities.items()}
    for label, colour in state.new_cities.items():
        out[m.hex_at(label)] = Colour(colour)
    return out


def cubes_by_city(state: SteamState) -> dict[Hex, dict[Colour, int]]:
    m = board_map(state)
    return {m.hex_at(label): {_COLOURS[i]: k for i, k in enumerate(counts) if k}
            for label, counts in state.cubes.items() if any(counts)}


_COLOURS = tuple(Colour(c) for c in COLOURS)


def place_name(state: SteamState, h: Hex, lang: str = "en") -> str:
    """A city's or town's name, or the hex label for a hex without a place."""
    m = board_map(state)
    return m.name(h, lang) if h in m.places else m.label(h)
