"""Catan Express's maps as data, and the boards laid out on them (CE-M1 … CE-M3, CE-11).

Why it is shaped so
    A map file (data/catan_express/maps/*.json) is typed as rows of a pointy-top hex grid in
    offset coordinates ("odd-r" or "even-r": which rows stand half a hex to the right), one code
    per hex, so the board reads in a text editor the way it looks:

        -      off the map          ~      sea (the frame, the channels between islands)
        D      desert               F6     forest with the beginner layout's 6 token
                                    (F forest, P pasture, W fields, H hills, M mountains,
                                     G gold river)

    The rows carry the *shape* (which hexes are land, which are sea) and the fixed beginner
    layout at once. Harbours are listed beside the rows as "sea hex|land hex" label pairs: the
    edge between them is a coast edge and the harbour serves its two intersections. A
    `counts` block states the map's pieces (terrain hexes, number tokens, harbour kinds); the
    loader checks that the beginner layout uses exactly them, so the numbers of CE-M1 / CE-M2
    are written down once and enforced, and a random layout deals out the same pieces.

    The shape never changes between layouts: a random layout shuffles terrains over the land
    hexes, tokens over the producing ones (6s and 8s never side by side, CE-M3) and harbour
    kinds over the fixed harbour places, as the printed frame does. Everything is seeded
    through games/core/rng.py, so one seed always gives one board.

    The loader turns labels into axial `Hex`es (games/core/hexgrid.py), the only coordinates
    the rules see, and raises DataError naming the file and the problem when anything
    disagrees.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from games.core.datafile import Names, broken, read_built
from games.catan_express.components import Resource
from games.core.errors import DataError
from games.core.hexgrid import Corner, Edge, Hex, Offset, from_offset, label, parse_label
from games.core.rng import SeededRng

MAPS_DIR = Path(__file__).resolve().parents[2] / "data" / "catan_express" / "maps"
MAP_IDS = ("standard", "large", "islands", "islands_large")
TOKEN_NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
RED_NUMBERS = frozenset({6, 8})  # the likeliest rolls: never on neighbouring hexes (CE-M3)
GENERIC = "generic"  # a 3:1 harbour; the others trade one resource 2:1 and are named by it
HARBOUR_KINDS = (GENERIC, *(r.value for r in Resource))
# How many fresh shuffles a random layout may need before its 6s and 8s fit apart. The greedy
# placement nearly always succeeds at once; the bound only turns an impossible map into an error.
_MAX_ATTEMPTS = 1000


class Terrain(StrEnum):
    FOREST = "forest"
    PASTURE = "pasture"
    FIELDS = "fields"
    HILLS = "hills"
    MOUNTAINS = "mountains"
    GOLD_RIVER = "gold_river"
    DESERT = "desert"

    @property
    def produces(self) -> bool:
        """Whether a hex of this terrain carries a number token (all but the desert)."""
        return self is not Terrain.DESERT


_CODES = {"F": Terrain.FOREST, "P": Terrain.PASTURE, "W": Terrain.FIELDS, "H": Terrain.HILLS,
          "M": Terrain.MOUNTAINS, "G": Terrain.GOLD_RIVER, "D": Terrain.DESERT}


@dataclass(frozen=True, slots=True, order=True)
class LandHex:
    """One land hex of a laid-out board; `token` is None on a desert."""

    hex: Hex
    terrain: Terrain
    token: int | None


@dataclass(frozen=True, slots=True, order=True)
class Harbour:
    """A harbour on the coast edge between `sea` and `land`; `kind` is GENERIC or a resource."""

    edge: Edge
    sea: Hex
    land: Hex
    kind: str

    @property
    def corners(self) -> tuple[Corner, Corner]:
        """The two intersections whose settlements and cities trade here (CE-B5)."""
        return self.edge.corners()


# --- the file ------------------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Players(_Strict):
    min: int
    max: int


class _Counts(_Strict):
    terrain: dict[Terrain, int]
    tokens: dict[int, int]
    harbours: dict[str, int]


class _HarbourSpec(_Strict):
    at: str
    kind: str


class _MapFile(_Strict):
    format: int
    id: str
    title: Names
    players: _Players
    legend: list[str] = []  # the codes, explained for whoever edits the file
    source: str
    offset: Offset
    counts: _Counts
    ferries_cross_straits: bool
    rows: list[str]
    harbours: list[_HarbourSpec]


@dataclass(frozen=True)
class CatanMap:
    """A map as read: its fixed shape, its pieces and its beginner layout (see `beginner`)."""

    id: str
    title: dict[str, str]
    players: tuple[int, int]
    offset: Offset
    land: tuple[Hex, ...]  # sorted, so shuffles over it are reproducible
    sea: frozenset[Hex]
    terrain_counts: dict[Terrain, int]
    token_counts: dict[int, int]
    harbour_counts: dict[str, int]
    harbour_sites: tuple[tuple[Hex, Hex], ...]  # (sea, land) in file order
    beginner_terrain: dict[Hex, Terrain]
    beginner_tokens: dict[Hex, int]
    beginner_harbours: tuple[str, ...]  # the kinds, site by site
    ferries_cross_straits: bool


MAP_FILE = "Catan Express map"


def _fail(path: Path, problem: str) -> DataError:
    return broken(MAP_FILE, path, problem)


def load_map(path: Path) -> CatanMap:
    """Read and validate one map file; DataError naming the file and the problem if broken."""
    return read_built(path, _MapFile, MAP_FILE, _build)


def _build(spec: _MapFile, path: Path) -> CatanMap:
    offset = spec.offset
    if spec.format != 1:
        raise _fail(path, f"format {spec.format} is not known (1 is)")
    if not 3 <= spec.players.min <= spec.players.max <= 6:
        raise _fail(path, "players: 3 <= min <= max <= 6")
    terrain: dict[Hex, Terrain] = {}
    tokens: dict[Hex, int] = {}
    sea: set[Hex] = set()
    for row, line in enumerate(spec.rows):
        for col, code in enumerate(line.split()):
            h = from_offset(col, row, offset)
            where = f"hex {label(h, offset)} ({code!r})"
            if code == "-":
                continue
            if code == "~":
                sea.add(h)
                continue
            try:
                terrain[h], token = _read_code(code)
            except ValueError as exc:
                raise _fail(path, f"{where}: {exc}") from None
            if token is not None:
                tokens[h] = token
    if not terrain:
        raise _fail(path, "the map has no land")
    for h in sorted(terrain):
        for n in h.neighbors():
            if n not in terrain and n not in sea:
                raise _fail(path, f"land hex {label(h, offset)} touches the edge of the map: "
                                  "surround the land with sea")

    counts = spec.counts
    if set(counts.tokens) - set(TOKEN_NUMBERS):
        raise _fail(path, f"counts.tokens: numbers must be among {TOKEN_NUMBERS}")
    if set(counts.harbours) - set(HARBOUR_KINDS):
        raise _fail(path, f"counts.harbours: kinds must be among {HARBOUR_KINDS}")
    if any(n < 0 for n in (*counts.terrain.values(), *counts.tokens.values(), *counts.harbours.values())):
        raise _fail(path, "counts must not be negative")
    _same(path, "terrain", _tally(terrain.values()), counts.terrain)
    _same(path, "tokens", _tally(tokens.values()), counts.tokens)

    sites: list[tuple[Hex, Hex]] = []
    kinds: list[str] = []
    seen: set[Edge] = set()
    for hs in spec.harbours:
        sea_text, sep, land_text = hs.at.partition("|")
        if not sep:
            raise _fail(path, f"harbour {hs.at!r} must be 'sea hex|land hex'")
        s, ld = parse_label(sea_text, offset), parse_label(land_text, offset)
        if s not in sea or ld not in terrain:
            raise _fail(path, f"harbour {hs.at}: the first hex must be sea and the second land")
        edge = s.edge(s.side_towards(ld))
        if edge in seen:
            raise _fail(path, f"harbour {hs.at} is listed twice")
        if hs.kind not in HARBOUR_KINDS:
            raise _fail(path, f"harbour {hs.at}: kind {hs.kind!r} is not one of {HARBOUR_KINDS}")
        seen.add(edge)
        sites.append((s, ld))
        kinds.append(hs.kind)
    _same(path, "harbours", _tally(kinds), counts.harbours)
    for a, b in _red_neighbours(tokens):
        raise _fail(path, f"the beginner layout puts {tokens[a]} at {label(a, offset)} next to "
                          f"{tokens[b]} at {label(b, offset)}")
    return CatanMap(
        id=spec.id, title=spec.title.model_dump(), players=(spec.players.min, spec.players.max),
        offset=offset, land=tuple(sorted(terrain)), sea=frozenset(sea),
        terrain_counts={t: n for t, n in counts.terrain.items() if n},
        token_counts={k: n for k, n in counts.tokens.items() if n},
        harbour_counts={k: n for k, n in counts.harbours.items() if n},
        harbour_sites=tuple(sites), beginner_terrain=terrain, beginner_tokens=tokens,
        beginner_harbours=tuple(kinds), ferries_cross_straits=spec.ferries_cross_straits)


def _read_code(code: str) -> tuple[Terrain, int | None]:
    """A land hex's code ("F6", "D"): its terrain and number token; ValueError saying what is wrong."""
    kind = _CODES.get(code[:1])
    if kind is None:
        raise ValueError(f"unknown terrain {code[:1]!r}")
    number = code[1:]
    if not kind.produces:
        if number:
            raise ValueError("a desert has no number token")
        return kind, None
    if not number.isdigit() or int(number) not in TOKEN_NUMBERS:
        raise ValueError(f"a producing hex needs a number token, one of {TOKEN_NUMBERS}")
    return kind, int(number)


def _code(x: LandHex) -> str:
    letter = next(c for c, t in _CODES.items() if t is x.terrain)
    return letter if x.token is None else f"{letter}{x.token}"


def _tally(items) -> dict:  # noqa: ANN001 - any iterable of hashables
    out: dict = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return out


def _same(path: Path, what: str, laid: dict, stated: dict) -> None:
    stated = {k: n for k, n in stated.items() if n}
    if laid != stated:
        diff = {str(k): (laid.get(k, 0), stated.get(k, 0)) for k in {*laid, *stated}
                if laid.get(k, 0) != stated.get(k, 0)}
        raise _fail(path, f"the beginner layout's {what} differ from counts.{what} "
                          f"(laid, stated): {dict(sorted(diff.items()))}")


def _red_neighbours(tokens: dict[Hex, int]) -> list[tuple[Hex, Hex]]:
    """Pairs of neighbouring hexes both carrying a 6 or an 8."""
    reds = sorted(h for h, n in tokens.items() if n in RED_NUMBERS)
    red_set = set(reds)
    return [(h, n) for h in reds for n in h.neighbors() if n in red_set and h < n]


@lru_cache(maxsize=None)
def catan_map(map_id: str) -> CatanMap:
    if map_id not in MAP_IDS:
        raise KeyError(f"unknown Catan Express map {map_id!r}")
    path = MAPS_DIR / f"{map_id}.json"
    m = load_map(path)
    if m.id != map_id:
        raise _fail(path, f"its id is {m.id!r}, not {map_id!r} as its file name says")
    return m


def maps_for(players: int) -> tuple[str, ...]:
    """The maps made for this many players (CE-M1: 3–4, CE-M2: 5–6; islands of each)."""
    return tuple(i for i in MAP_IDS if catan_map(i).players[0] <= players <= catan_map(i).players[1])


# --- boards --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """One laid-out board: every land hex with its terrain and token, the sea, the harbours.

    A plain value (hashable, comparable): two layouts are equal exactly when every hex, token
    and harbour agrees. The shape (`land_hexes`, `sea`) is the map's and never changes.
    """

    map_id: str
    offset: Offset
    land: tuple[LandHex, ...]  # sorted by hex
    sea: frozenset[Hex]
    harbours: tuple[Harbour, ...]  # in the map file's site order
    ferries_cross_straits: bool

    @cached_property
    def _by_hex(self) -> dict[Hex, LandHex]:
        return {x.hex: x for x in self.land}

    @cached_property
    def land_hexes(self) -> frozenset[Hex]:
        return frozenset(self._by_hex)

    def at(self, h: Hex) -> LandHex | None:
        """The land hex there, or None (sea or off the map)."""
        return self._by_hex.get(h)

    def is_land(self, h: Hex) -> bool:
        return h in self._by_hex

    def hexes_rolling(self, number: int) -> tuple[LandHex, ...]:
        """The land hexes that produce on this roll (robber aside)."""
        return self._rolling.get(number, ())

    @cached_property
    def _rolling(self) -> dict[int, tuple[LandHex, ...]]:
        out: dict[int, list[LandHex]] = {}
        for x in self.land:
            if x.token is not None:
                out.setdefault(x.token, []).append(x)
        return {n: tuple(xs) for n, xs in out.items()}

    @cached_property
    def deserts(self) -> tuple[Hex, ...]:
        """Where the robber may start (the first desert in hex order is the usual choice)."""
        return tuple(x.hex for x in self.land if x.terrain is Terrain.DESERT)

    @cached_property
    def _harbours_at(self) -> dict[Corner, Harbour]:
        return {c: hb for hb in self.harbours for c in hb.corners}

    def harbour_at(self, corner: Corner) -> Harbour | None:
        """The harbour a building on this intersection may trade at, if any."""
        return self._harbours_at.get(corner)

    def label(self, h: Hex) -> str:
        """A hex's printed name ("C3"): offset column letters, then the row from 1."""
        return label(h, self.offset)

    def hex_at(self, text: str) -> Hex:
        """The hex named by a label; ValueError if the text is not a label."""
        return parse_label(text, self.offset)


def _board(m: CatanMap, terrain: dict[Hex, Terrain], tokens: dict[Hex, int], kinds: tuple[str, ...]) -> Board:
    harbours = tuple(Harbour(s.edge(s.side_towards(ld)), s, ld, k) for (s, ld), k in zip(m.harbour_sites, kinds))
    return Board(map_id=m.id, offset=m.offset,
                 land=tuple(LandHex(h, terrain[h], tokens.get(h)) for h in m.land),
                 sea=m.sea, harbours=harbours, ferries_cross_straits=m.ferries_cross_straits)


def beginner_of(m: CatanMap) -> Board:
    return _board(m, m.beginner_terrain, m.beginner_tokens, m.beginner_harbours)


def random_of(m: CatanMap, seed: int) -> Board:
    """A seeded random layout of map `m` (see `random_layout`)."""
    salt = f"catan_express.map:{m.id}"
    terrains = [t for t in Terrain for _ in range(m.terrain_counts.get(t, 0))]
    numbers = [n for n in TOKEN_NUMBERS for _ in range(m.token_counts.get(n, 0))]
    reds = [n for n in numbers if n in RED_NUMBERS]
    others = [n for n in numbers if n not in RED_NUMBERS]
    for attempt in range(_MAX_ATTEMPTS):
        rng = SeededRng(seed, attempt, salt)
        laid = list(terrains)
        rng.shuffle(laid)
        terrain = dict(zip(m.land, laid))
        producing = [h for h in m.land if terrain[h].produces]
        rng.shuffle(producing)
        # The 6s and 8s go first, each on a hex with no 6 or 8 beside it; the rest can go
        # anywhere. If the shuffle leaves no room, the next attempt reshuffles from scratch.
        red_hexes: list[Hex] = []
        blocked: set[Hex] = set()
        for h in producing:
            if len(red_hexes) == len(reds):
                break
            if h not in blocked:
                red_hexes.append(h)
                blocked.update(h.neighbors())
        if len(red_hexes) < len(reds):
            continue
        red_numbers = list(reds)
        rng.shuffle(red_numbers)
        rest_numbers = list(others)
        rng.shuffle(rest_numbers)
        chosen = set(red_hexes)
        rest_hexes = [h for h in producing if h not in chosen]
        tokens = dict(zip(red_hexes, red_numbers)) | dict(zip(rest_hexes, rest_numbers))
        kinds = list(m.beginner_harbours)
        rng.shuffle(kinds)
        return _board(m, terrain, tokens, tuple(kinds))
    raise DataError(f"Catan Express map {m.id}: no layout keeps its 6s and 8s apart")


def beginner(map_id: str) -> Board:
    """The map's fixed beginner layout, as printed in its file."""
    return _beginner_cached(map_id)


@lru_cache(maxsize=None)
def _beginner_cached(map_id: str) -> Board:
    return beginner_of(catan_map(map_id))


def random_layout(map_id: str, seed: int) -> Board:
    """Terrains, tokens and harbour kinds shuffled from `seed`: the same seed always gives the
    same board. 6s and 8s are never on neighbouring hexes and deserts get no token (CE-M3)."""
    return random_of(catan_map(map_id), seed)


# --- a board by name, as a view carries it -------------------------------------------------

LayoutKey = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]  # BoardLayout.key


class BoardLayout(BaseModel):
    """A laid-out board by name: what a view carries instead of the seed that dealt it (the seed
    would tell the dice and the development deck as well). Each land hex's code as the map
    files write it ("F6": forest with a 6, "D": desert) by its label, each harbour's kind by its
    place ("sea hex|land hex", as the map files name harbour places). The map's shape is not
    repeated: `board_from` lays the codes out on it again."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hexes: dict[str, str]
    harbours: dict[str, str]

    @property
    def key(self) -> LayoutKey:
        """The layout as a hashable value, for what is drawn or derived once per board."""
        return tuple(self.hexes.items()), tuple(self.harbours.items())


def layout_of(board: Board) -> BoardLayout:
    return BoardLayout(hexes={board.label(x.hex): _code(x) for x in board.land},
                       harbours={_site(board.offset, hb.sea, hb.land): hb.kind for hb in board.harbours})


def _site(offset: Offset, sea: Hex, land: Hex) -> str:
    return f"{label(sea, offset)}|{label(land, offset)}"


def board_from(map_id: str, layout: BoardLayout) -> Board:
    """The board a layout names, on its map; DataError if the layout does not fit the map."""
    return board_from_key(map_id, layout.key)


@lru_cache(maxsize=64)
def board_from_key(map_id: str, key: LayoutKey) -> Board:
    """`board_from` by the layout's key (BoardLayout.key)."""
    m = catan_map(map_id)
    hexes, harbours = dict(key[0]), dict(key[1])
    by_label = {label(h, m.offset): h for h in m.land}
    if set(hexes) != set(by_label):
        raise DataError(f"a Catan Express layout does not name the land hexes of map {map_id}")
    terrain: dict[Hex, Terrain] = {}
    tokens: dict[Hex, int] = {}
    for text, code in hexes.items():
        try:
            terrain[by_label[text]], token = _read_code(code)
        except ValueError as exc:
            raise DataError(f"a Catan Express layout of map {map_id}: hex {text} ({code!r}): {exc}") from None
        if token is not None:
            tokens[by_label[text]] = token
    sites = [_site(m.offset, sea, land) for sea, land in m.harbour_sites]
    if set(harbours) != set(sites) or not set(harbours.values()) <= set(HARBOUR_KINDS):
        raise DataError(f"a Catan Express layout does not name the harbours of map {map_id}")
    return _board(m, terrain, tokens, tuple(harbours[site] for site in sites))
