"""Text notation for Galactic Railway moves, and their words.

    place T17 at H8 right     put tile T17 with its half L (the station half) on H8 and its
                              half R to the right of it (on I8)
    place T5 at C4 down       … half R below (C5); also `left` and `up`
    stop                      after a first tile: do not place the other one

Cells are named like a spreadsheet on the fixed 15×15 table: columns A–O, rows 1–15 from the
top; the first tile of the game lies on H8, the centre, and every later cell keeps its name,
which the board image prints along its edges. Parsing is forgiving: any case, `T17` or `17`,
`at`/`on`/`@` optional, directions as words, initials, arrows or compass points (r, d, l, u, e,
s, w, n, →, ↓, ←, ↑), and `done`, `end`, `pass`, `skip` for stop. A typed move is read more
freely still (games.core.typed, with `vocabulary` below): Japanese directions, and the
direction left out when only one is legal for that tile on that cell.
"""
from __future__ import annotations

import re
from typing import Any

from games.core.errors import IllegalAction
from games.core.vocabulary import Vocabulary
from games.ginga.board import SIZE, cell_name, parse_cell, second_cell
from games.ginga.models import Place, Stop
from games.ginga.tiles import ORIENTATIONS, tileset

DIRECTIONS = {
    "right": 0, "r": 0, "east": 0, "e": 0, "→": 0, ">": 0,
    "down": 1, "d": 1, "south": 1, "s": 1, "↓": 1, "v": 1,
    "left": 2, "l": 2, "west": 2, "w": 2, "←": 2, "<": 2,
    "up": 3, "u": 3, "north": 3, "n": 3, "↑": 3, "^": 3,
}
STOP_WORDS = {"stop", "done", "end", "pass", "skip", "finish"}
_PLACE = re.compile(
    r"^(?:place\s+|put\s+)?t?\s*(?P<tile>\d{1,2})\s*(?:(?:at|on|@)\s*)?(?P<cell>[a-z]\s*\d{1,2})\s*"
    r"(?P<dir>[a-z]+|[→↓←↑<>^])$"
)
ARROWS = ("→", "↓", "←", "↑")


DIRECTIONS_JA = {
    "右": "right", "東": "right", "下": "down", "南": "down", "左": "left", "西": "left", "上": "up", "北": "up",
}
STOP_WORDS_JA = ("終了", "終わり", "おわり", "ストップ", "やめる", "パス")


def vocabulary(game: Any = None) -> Vocabulary:
    """What a person may type: tiles as `T17` or `17` and cells (names: both must be typed),
    directions as words, initials, arrows or in Japanese; `at`/`on`/`@` and particles are
    optional."""
    names: dict[str, str] = {}
    for number in range(1, len(tileset()) + 1):
        names[f"t{number}"] = names[f"{number}"] = f"t{number}"
    for x in range(SIZE):
        for y in range(SIZE):
            name = cell_name(x, y).lower()
            names[name] = name
    words: dict[str, str] = {key: ORIENTATIONS[value] for key, value in DIRECTIONS.items()}
    words.update({f"{key}向き": value for key, value in DIRECTIONS_JA.items()})
    words.update(DIRECTIONS_JA)
    words.update({word: "stop" for word in (*STOP_WORDS, *STOP_WORDS_JA)})
    words.update({"place": "", "put": "", "at": "", "on": "", "@": "", "に": "", "を": "", "へ": "",
                  "で": "", "置く": "", "配置": "", "タイル": ""})
    return Vocabulary(names=names, words=words)


def format_action(action: Any) -> str:
    if isinstance(action, Place):
        return f"place T{action.tile + 1} at {cell_name(action.x, action.y)} {ORIENTATIONS[action.orient]}"
    if isinstance(action, Stop):
        return "stop"
    raise IllegalAction("unparsable", text=str(action)[:80])


def parse_action(text: str) -> Any:
    raw = str(text)
    text = " ".join(raw.strip().lower().split())
    if not text or len(text) > 100:
        raise IllegalAction("unparsable", text=raw[:80])
    if text in STOP_WORDS:
        return Stop()
    match = _PLACE.match(text)
    if not match:
        raise IllegalAction("unparsable", text=raw[:80])
    number = int(match["tile"])
    if not 1 <= number <= len(tileset()):
        raise IllegalAction("ginga.unknown_tile", tile=f"T{number}", count=len(tileset()))
    cell = parse_cell(match["cell"].replace(" ", ""))
    if cell is None:
        raise IllegalAction("ginga.unknown_cell", cell=match["cell"].upper())
    direction = DIRECTIONS.get(match["dir"])
    if direction is None:
        raise IllegalAction("unparsable", text=raw[:80])
    return Place(tile=number - 1, x=cell[0], y=cell[1], orient=direction)


# --- words ---------------------------------------------------------------------------
def tile_name(tile: int) -> str:
    return f"T{tile + 1}"


def cells_words(x: int, y: int, orient: int) -> tuple[str, str]:
    rx, ry = second_cell(x, y, orient)
    return cell_name(x, y), cell_name(rx, ry)


def score_words(stations: int, loop: int) -> dict[str, Any] | str:
    """' — scores 6 (loop 4, stations 2)' style words, or '' when it scores nothing."""
    if stations and loop:
        return {"key": "ginga.score.both", "params": {"points": stations + loop, "loop": loop, "stations": stations}}
    if loop:
        return {"key": "ginga.score.loop", "params": {"points": loop}}
    if stations:
        return {"key": "ginga.score.stations", "params": {"points": stations}}
    return ""


def place_words(action: Place) -> dict[str, Any]:
    """'T17 → on H8–I8, station on H8': the tile, its direction and the two cells it covers."""
    tile = tileset().tiles[action.tile]
    a, b = cells_words(action.x, action.y, action.orient)
    params: dict[str, Any] = {"tile": tile_name(action.tile), "a": a, "b": b, "arrow": ARROWS[action.orient]}
    key = "ginga.place_station" if tile.station else "ginga.place"
    return {"key": key, "params": params}
