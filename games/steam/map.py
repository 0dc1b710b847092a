"""Steam's two maps as data: terrain, towns, printed cities, water, black edges (ST-M1 … ST-M4).

Why it is shaped so
    A map file (data/steam/maps/*.json) is typed as rows of a flat-top hex grid in odd-q offset
    coordinates — odd columns (B, D, …) stand half a hex lower — one two-character code per hex,
    so the whole board can be read and edited in a text editor the way it looks:

        first character   .  plains   ^  hills   ~  water   -  off the map   C  printed city
        second character  .  nothing  r  river   t  town    T  town on a river
                          (for a city: its colour, r b y p)

    Flat-top columns let track run straight north-south, as the rulebook's Albany–Poughkeepsie–
    New York example does. Names, starting cubes and the names of lakes, coasts and rivers are
    listed beside the rows by hex label ("L7" = column L, row 7), and thick black edges as label
    pairs ("L2|M3"). The loader turns all of it into axial `Hex`es (games/core/hexgrid.py), the
    only coordinates the rules see, and checks that every code, label and name agrees, raising
    DataError naming the file and the problem otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel

from games.core.datafile import Names, broken, read_built
from games.core.errors import DataError
from games.core.hexgrid import Edge, Hex, Offset, from_offset, label, parse_label

MAPS_DIR = Path(__file__).resolve().parents[2] / "data" / "steam" / "maps"
MAP_IDS = ("northeast", "rhine_ruhr")


class Terrain(StrEnum):
    PLAINS = "plains"
    HILLS = "hills"
    WATER = "water"


class Colour(StrEnum):
    """Goods and city colours (gray cities appear only through Urbanize)."""

    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"
    PURPLE = "purple"
    GRAY = "gray"


PRINTED_COLOURS = (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.PURPLE)
_TERRAIN_CODES = {".": Terrain.PLAINS, "^": Terrain.HILLS, "~": Terrain.WATER}
_CITY_CODES = {"r": Colour.RED, "b": Colour.BLUE, "y": Colour.YELLOW, "p": Colour.PURPLE}


@dataclass(frozen=True, slots=True)
class Space:
    """One hex of the map. A city hex has `city` set; its terrain does not matter (no track)."""

    hex: Hex
    terrain: Terrain
    river: bool = False
    town: bool = False
    city: Colour | None = None

    @property
    def land(self) -> bool:
        return self.terrain is not Terrain.WATER


@dataclass(frozen=True, slots=True)
class Place:
    hex: Hex
    name: dict[str, str]
    cubes: int = 0  # a printed city's starting cubes; 0 for a town


@dataclass(frozen=True, slots=True)
class Feature:
    """A named lake, coast or river (for labels on the board and for the rulings' checks)."""

    name: dict[str, str]
    hexes: tuple[Hex, ...] = ()
    edges: tuple[Edge, ...] = ()


class _PlaceSpec(BaseModel):
    at: str
    name: Names
    cubes: int | None = None


class _HexGroup(BaseModel):
    name: Names
    at: list[str]


class _EdgeGroup(BaseModel):
    name: Names
    edges: list[str]


class _Players(BaseModel):
    min: int
    max: int
    recommended: list[int]


class _MapFile(BaseModel):
    format: int
    id: str
    title: Names
    legend: list[str] = []  # the codes, explained for whoever edits the file
    players: _Players
    setup_cubes_fewer_with_3_players: int
    source: str
    offset: Offset
    rows: list[str]
    places: list[_PlaceSpec]
    water: list[_HexGroup] = []
    rivers: list[_HexGroup] = []
    black_edges: list[_EdgeGroup] = []


@dataclass(frozen=True)
class SteamMap:
    id: str
    title: dict[str, str]
    players: tuple[int, int]
    recommended: tuple[int, ...]
    setup_cubes_fewer_with_3_players: int
    offset: Offset
    spaces: dict[Hex, Space]
    places: dict[Hex, Place]
    black_edges: frozenset[Edge]
    water: tuple[Feature, ...]
    rivers: tuple[Feature, ...]
    black_edge_features: tuple[Feature, ...]
    size: tuple[int, int]  # columns, rows of the typed grid

    # --- lookups the rules use -----------------------------------------------------------
    def space(self, h: Hex) -> Space | None:
        """The hex's space, or None off the map (an off-map code or beyond the grid)."""
        return self.spaces.get(h)

    def label(self, h: Hex) -> str:
        text = self._labels.get(h)
        if text is None:
            text = label(h, self.offset)
            if h in self.spaces:  # remembered for the map's own hexes only: a bounded table
                self._labels[h] = text
        return text

    def words(self, h: Hex, key: str) -> dict | str:
        """A hex as a message param: its place's name (in both languages) with its label through
        the catalog string `key` ({hex}, {place}), or the bare label where there is no place."""
        if h in self.places:
            return {"key": key, "params": {"hex": self.label(h), "place": dict(self.places[h].name)}}
        return self.label(h)

    def hex_at(self, text: str) -> Hex:
        h = self._hexes.get(text)
        if h is None:
            h = parse_label(text, self.offset)
            if h in self.spaces:
                self._hexes[text] = h
        return h

    # Labels both ways, remembered as they are asked: the state names hexes by label and the
    # rules work on hexes, so every question about a stored board converts many of them.
    @cached_property
    def _labels(self) -> dict[Hex, str]:
        return {}

    @cached_property
    def _hexes(self) -> dict[str, Hex]:
        return {}

    @cached_property
    def cities(self) -> dict[Hex, Space]:
        return {h: s for h, s in self.spaces.items() if s.city is not None}

    @cached_property
    def towns(self) -> dict[Hex, Space]:
        return {h: s for h, s in self.spaces.items() if s.town}

    def name(self, h: Hex, lang: str = "en") -> str:
        return self.places[h].name.get(lang) or self.places[h].name["en"]

    def place_named(self, english: str) -> Place:
        for p in self.places.values():
            if p.name["en"] == english:
                return p
        raise KeyError(english)

    def starting_cubes(self, h: Hex, players: int) -> int:
        """A printed city's cubes at setup (ST-M1: Rhine & Ruhr with 3 players has one fewer)."""
        cubes = self.places[h].cubes
        return max(0, cubes - self.setup_cubes_fewer_with_3_players) if players == 3 else cubes

    def is_black(self, h: Hex, side: int) -> bool:
        return h.edge(side) in self.black_edges


MAP_FILE = "Steam map"


def _fail(path: Path, problem: str) -> DataError:
    return broken(MAP_FILE, path, problem)


def _parse_edge(text: str, offset: Offset) -> Edge:
    a_text, sep, b_text = text.partition("|")
    if not sep:
        raise ValueError(f"black edge {text!r} must be two hex labels joined by '|'")
    a, b = parse_label(a_text, offset), parse_label(b_text, offset)
    return a.edge(a.side_towards(b))


def load_map(path: Path) -> SteamMap:
    """Read and validate one map file; DataError naming the file and the problem if broken."""
    return read_built(path, _MapFile, MAP_FILE, _build)


def _build(spec: _MapFile, path: Path) -> SteamMap:
    offset = spec.offset
    spaces: dict[Hex, Space] = {}
    width = None
    for row, line in enumerate(spec.rows):
        codes = line.split()
        if width is None:
            width = len(codes)
        if len(codes) != width:
            raise _fail(path, f"row {row + 1} has {len(codes)} hexes, row 1 has {width}")
        for col, code in enumerate(codes):
            where = f"hex {label(from_offset(col, row, offset), offset)} ({code!r})"
            if len(code) != 2:
                raise _fail(path, f"{where}: a hex code is two characters")
            h = from_offset(col, row, offset)
            first, second = code
            if first == "-":
                if second != "-":
                    raise _fail(path, f"{where}: off-map is '--'")
                continue
            if first == "C":
                if second not in _CITY_CODES:
                    raise _fail(path, f"{where}: a city's second character is its colour, one of r b y p")
                spaces[h] = Space(h, Terrain.PLAINS, city=_CITY_CODES[second])
                continue
            if first not in _TERRAIN_CODES:
                raise _fail(path, f"{where}: unknown terrain {first!r}")
            terrain = _TERRAIN_CODES[first]
            if terrain is Terrain.WATER:
                if second != "~":
                    raise _fail(path, f"{where}: water is '~~' (no river or town in water)")
                spaces[h] = Space(h, terrain)
                continue
            if second not in ".rtT":
                raise _fail(path, f"{where}: unknown feature {second!r}")
            spaces[h] = Space(h, terrain, river=second in "rT", town=second in "tT")
    if not spaces:
        raise _fail(path, "the map has no hexes")

    places: dict[Hex, Place] = {}
    for p in spec.places:
        h = parse_label(p.at, offset)
        s = spaces.get(h)
        if s is None or not (s.town or s.city):
            raise _fail(path, f"place {p.name.en} at {p.at} is not on a town or city hex")
        if h in places:
            raise _fail(path, f"two places at {p.at}")
        if s.city and not (p.cubes and 1 <= p.cubes <= 4):
            raise _fail(path, f"city {p.name.en} at {p.at} needs its starting cubes (1-4)")
        if s.town and p.cubes is not None:
            raise _fail(path, f"town {p.name.en} at {p.at} has no cubes")
        places[h] = Place(h, p.name.model_dump(), p.cubes or 0)
    for h, s in spaces.items():
        if (s.town or s.city) and h not in places:
            raise _fail(path, f"{'city' if s.city else 'town'} at {label(h, offset)} has no name")
    names = [p.name["en"] for p in places.values()]
    if len(set(names)) != len(names):
        raise _fail(path, "two places share a name")

    def group_hexes(g: _HexGroup, ok, what: str) -> tuple[Hex, ...]:
        out = []
        for text in g.at:
            h = parse_label(text, offset)
            if h not in spaces or not ok(spaces[h]):
                raise _fail(path, f"{g.name.en}: {text} is not {what}")
            out.append(h)
        return tuple(out)

    water = tuple(Feature(g.name.model_dump(), group_hexes(g, lambda s: not s.land, "water"))
                  for g in spec.water)
    rivers = tuple(Feature(g.name.model_dump(), group_hexes(g, lambda s: s.river, "a river hex"))
                   for g in spec.rivers)
    black: set[Edge] = set()
    black_features = []
    for g in spec.black_edges:
        edges = []
        for text in g.edges:
            e = _parse_edge(text, offset)
            if any(h not in spaces or not spaces[h].land for h in e.hexes()):
                raise _fail(path, f"black edge {text} must lie between two land hexes of the map")
            if e in black:
                raise _fail(path, f"black edge {text} is listed twice")
            black.add(e)
            edges.append(e)
        black_features.append(Feature(g.name.model_dump(), edges=tuple(edges)))
    if not 3 <= spec.players.min <= spec.players.max:
        raise _fail(path, "players: min must be at least 3 and at most max")
    return SteamMap(
        id=spec.id, title=spec.title.model_dump(), players=(spec.players.min, spec.players.max),
        recommended=tuple(spec.players.recommended),
        setup_cubes_fewer_with_3_players=spec.setup_cubes_fewer_with_3_players, offset=offset,
        spaces=spaces, places=places, black_edges=frozenset(black), water=water, rivers=rivers,
        black_edge_features=tuple(black_features), size=(width or 0, len(spec.rows)))


@lru_cache(maxsize=None)
def steam_map(map_id: str) -> SteamMap:
    if map_id not in MAP_IDS:
        raise KeyError(f"unknown Steam map {map_id!r}")
    path = MAPS_DIR / f"{map_id}.json"
    m = load_map(path)
    if m.id != map_id:
        raise _fail(path, f"its id is {m.id!r}, not {map_id!r} as its file name says")
    return m
