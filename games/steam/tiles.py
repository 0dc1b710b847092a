"""Steam's track tiles: faces, their geometry, the double-sided stock (rulings ST-T1 … ST-T3).

Why it is shaped so
    The rules ask three questions of a tile: where does its track leave the hex (exits, for
    legality and cost), which sides does each track join (links run through a crossing tile as
    two independent tracks), and does one face keep all the track of another (upgrades, ST-6).
    A face is therefore stored as its tracks at rotation 0 — side pairs for plain track, the
    exit sides for a town tile, whose every exit meets at the town — and a placed tile is a face
    plus a rotation; sides are numbered as games/core/hexgrid.py numbers them, so a tile's side
    d faces the hex across DIRECTIONS[d] with no conversion.

    The 136 physical tiles are double-sided, so faces are not independent counts: taking a
    straight uses up a gentle curve too. `Stock` therefore counts tiles per pairing (13
    numbers in a tuple: immutable and cheap for the rules to copy into every game state),
    answers "how many of this face are left" from them, and takes the tile ST-T2 names.

    Everything about the set lives in data/steam/tiles.json and is validated when loaded, so a
    hand-edited file cannot silently drift from the rulings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, field_validator, model_validator

from games.core.datafile import read_model
from games.core.errors import DataError
from games.core.hexgrid import rotate_side

TILES_PATH = Path(__file__).resolve().parents[2] / "data" / "steam" / "tiles.json"

Track = frozenset[int]  # the two sides one track joins (plain track) ...
TOWN_SIDE = -1           # ... or, on a town tile, a side paired with the town itself


class _FaceSpec(BaseModel):
    id: str
    name: dict[str, str]
    tracks: list[tuple[int, int]] = []
    town: list[int] = []
    blank: bool = False

    @field_validator("name")
    @classmethod
    def _both_languages(cls, v: dict[str, str]) -> dict[str, str]:
        if not v.get("en") or not v.get("ja"):
            raise ValueError("a face needs an English and a Japanese name")
        return v

    @model_validator(mode="after")
    def _one_kind(self) -> "_FaceSpec":
        kinds = [bool(self.tracks), bool(self.town), self.blank]
        if sum(kinds) != 1:
            raise ValueError(f"face {self.id}: give exactly one of tracks, town or blank")
        sides = [s for pair in self.tracks for s in pair] + list(self.town)
        if any(not 0 <= s < 6 for s in sides):
            raise ValueError(f"face {self.id}: sides run 0-5")
        if len(set(sides)) != len(sides):
            raise ValueError(f"face {self.id}: a side is used twice (track never branches except at towns)")
        return self


class _PairSpec(BaseModel):
    faces: tuple[str, str]
    count: int

    @field_validator("count")
    @classmethod
    def _positive(cls, v: int) -> int:
        if v < 1:
            raise ValueError("a pairing has at least one tile")
        return v


class _TileFile(BaseModel):
    format: int
    geometry: str
    faces: list[_FaceSpec]
    tiles: list[_PairSpec]

    @model_validator(mode="after")
    def _consistent(self) -> "_TileFile":
        ids = [f.id for f in self.faces]
        if len(set(ids)) != len(ids):
            raise ValueError("face ids must be unique")
        known = set(ids)
        used: set[str] = set()
        for p in self.tiles:
            for fid in p.faces:
                if fid not in known:
                    raise ValueError(f"pairing {p.faces} names unknown face {fid!r}")
                used.add(fid)
        if len({tuple(p.faces) for p in self.tiles}) != len(self.tiles):
            raise ValueError("a pairing is listed twice")
        if unused := known - used:
            raise ValueError(f"faces on no tile: {sorted(unused)}")
        return self


@dataclass(frozen=True, slots=True)
class Face:
    """One printed face at rotation 0. `tracks` are side pairs; a town face's tracks pair each
    exit with TOWN_SIDE, so "keeps all the track" is the same subset test for both kinds."""

    id: str
    name: dict[str, str] = field(compare=False, hash=False)
    tracks: frozenset[Track]
    town: bool
    blank: bool = False

    @property
    def exits(self) -> frozenset[int]:
        return frozenset(s for t in self.tracks for s in t if s != TOWN_SIDE)

    def rotated(self, k: int) -> frozenset[Track]:
        """The tracks after turning the tile k × 60° clockwise (side d moves to d + k)."""
        return frozenset(frozenset(s if s == TOWN_SIDE else rotate_side(s, k) for s in t) for t in self.tracks)

    def exits_at(self, k: int) -> frozenset[int]:
        return frozenset(rotate_side(s, k) for s in self.exits)

    @property
    def rotations(self) -> tuple[int, ...]:
        """The rotations 0..5 that give different track (a straight has 3, the star town 2)."""
        return _rotations(self)

    @property
    def crossing(self) -> bool:
        """Two independent tracks on one plain tile (each belongs to its own link)."""
        return not self.town and len(self.tracks) > 1


@lru_cache(maxsize=None)
def _rotations(face: Face) -> tuple[int, ...]:
    seen: set[frozenset[Track]] = set()
    out = []
    for k in range(6):
        shape = face.rotated(k)
        if shape not in seen:
            seen.add(shape)
            out.append(k)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Pairing:
    """One kind of physical tile: two faces (front, back) and how many such tiles the box has."""

    faces: tuple[str, str]
    count: int

    def other(self, face_id: str) -> str:
        a, b = self.faces
        return b if face_id == a else a


class TileSet:
    """The faces and pairings of the box, with the geometric questions the rules ask."""

    def __init__(self, faces: list[Face], pairings: list[Pairing]) -> None:
        self.faces: dict[str, Face] = {f.id: f for f in faces}
        self.pairings: tuple[Pairing, ...] = tuple(pairings)
        self.carriers: dict[str, tuple[int, ...]] = {
            fid: tuple(i for i, p in enumerate(pairings) if fid in p.faces) for fid in self.faces}

    @property
    def total_tiles(self) -> int:
        return sum(p.count for p in self.pairings)

    def face_count(self, face_id: str) -> int:
        """How many tiles in the box carry this face (a tile with it on both sides counts once)."""
        return sum(self.pairings[i].count for i in self.carriers[face_id])

    def playable(self) -> list[Face]:
        return [f for f in self.faces.values() if not f.blank]

    def keeps(self, new: str, new_rotation: int, old: str, old_rotation: int) -> bool:
        """Whether face `new` at `new_rotation` keeps every track of `old` at `old_rotation`."""
        a, b = self.faces[new], self.faces[old]
        if a.town != b.town or a.blank or b.blank:
            return False
        return b.rotated(old_rotation) <= a.rotated(new_rotation)

    def upgrade_rotations(self, new: str, old: str, old_rotation: int) -> tuple[int, ...]:
        """The rotations of `new` that upgrade `old` as placed (ST-6): all its track kept, and more."""
        a, b = self.faces[new], self.faces[old]
        if len(a.tracks) <= len(b.tracks):
            return ()
        return tuple(k for k in a.rotations if self.keeps(new, k, old, old_rotation))

    def upgrades(self, old: str, old_rotation: int = 0) -> dict[str, tuple[int, ...]]:
        """Every face that may replace `old` as an upgrade, with its legal rotations."""
        out = {}
        for f in self.playable():
            rots = self.upgrade_rotations(f.id, old, old_rotation)
            if rots:
                out[f.id] = rots
        return out

    def full_stock(self) -> "Stock":
        return Stock(self, tuple(p.count for p in self.pairings))


@dataclass(frozen=True, slots=True)
class Stock:
    """The unplaced tiles: a count per pairing (ST-T2). Immutable: take/give_back return new stocks.

    `tiles` is the shared, never-copied tile set; `counts` is all that changes.
    """

    tiles: TileSet = field(compare=False, hash=False, repr=False)
    counts: tuple[int, ...]

    def available(self, face_id: str) -> int:
        """How many unplaced tiles carry this face."""
        return _left_by_face(self.tiles, self.counts)[face_id]

    def by_face(self) -> dict[str, int]:
        """Unplaced tiles per face id. Do not modify."""
        return _left_by_face(self.tiles, self.counts)

    def choose(self, face_id: str) -> int:
        """The pairing ST-T2 takes for this face: the one whose other face has the most copies
        left, ties to the first in the list; ValueError if no unplaced tile carries it."""
        best, best_left = -1, -1
        for i in self.tiles.carriers[face_id]:
            if self.counts[i] == 0:
                continue
            left = self.available(self.tiles.pairings[i].other(face_id))
            if left > best_left:
                best, best_left = i, left
        if best < 0:
            raise ValueError(f"no tile with face {face_id} is left")
        return best

    def take(self, face_id: str) -> tuple["Stock", int]:
        """Use one tile carrying the face; returns the new stock and the pairing used (the board
        keeps it so that the same tile goes back when it is removed)."""
        i = self.choose(face_id)
        counts = list(self.counts)
        counts[i] -= 1
        return Stock(self.tiles, tuple(counts)), i

    def give_back(self, pairing: int) -> "Stock":
        """A tile taken off the board returns to the stock (ST-T2)."""
        if self.counts[pairing] >= self.tiles.pairings[pairing].count:
            raise ValueError(f"every tile of pairing {self.tiles.pairings[pairing].faces} is already in stock")
        counts = list(self.counts)
        counts[pairing] += 1
        return Stock(self.tiles, tuple(counts))


@lru_cache(maxsize=256)
def _left_by_face(tiles: TileSet, counts: tuple[int, ...]) -> dict[str, int]:
    """Unplaced tiles per face for one stock (the listing and the bots ask every face of the
    same stock again and again). Do not modify."""
    return {fid: sum(counts[i] for i in carriers) for fid, carriers in tiles.carriers.items()}


def _face(spec: _FaceSpec) -> Face:
    if spec.town:
        tracks = frozenset(frozenset((s, TOWN_SIDE)) for s in spec.town)
    else:
        tracks = frozenset(frozenset(p) for p in spec.tracks)
    return Face(spec.id, spec.name, tracks, town=bool(spec.town), blank=spec.blank)


def load_tiles(path: Path = TILES_PATH) -> TileSet:
    """Read and validate a tile file; DataError naming the file and the problem if broken."""
    spec = read_model(path, _TileFile, "Steam tile file")
    faces = [_face(f) for f in spec.faces]
    shapes: dict[frozenset[Track], str] = {}
    for f in faces:
        for k in range(6):
            other = shapes.setdefault(f.rotated(k), f.id)
            if other != f.id and not f.blank:
                raise DataError(f"Steam tile file {path} is broken: faces {other} and {f.id} are the same track turned")
    return TileSet(faces, [Pairing(tuple(p.faces), p.count) for p in spec.tiles])


@lru_cache(maxsize=1)
def tileset() -> TileSet:
    return load_tiles()
