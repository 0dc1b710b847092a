"""The bundled Galactic Railway tiles and messages: the 32 tiles the rulings describe (generated
here independently), stable ids, clear errors for a broken file, and every message in both
languages."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from games.core.errors import message_key_of
from games.core.errors import DataError
from games.core.i18n import catalog, translate
from games.core.plural import Placeholder, Plural, parse_template
from games.ginga.tiles import TILES_PATH, file_data, generate, load_tiles, tileset
from render.kit.fonts import coverage
from render.kit.text import segments
from tests.support.broken_data import assert_names_the_file_and_the_fault, assert_unreadable_is_refused, broken_copy


def independent_tiles() -> set[tuple[frozenset[int], bool]]:
    """Every tile of GT-3, by brute force: all exit sets of 3–5 of the 6 edges, each with a
    station in half L or R when it has three exits, then one per class under the 180° turn
    (edge i → i+3 mod 6, halves swapped)."""
    def turn(tile):
        exits, station_left = tile
        return frozenset((e + 3) % 6 for e in exits), (not station_left if len(exits) == 3 else False)

    every = set()
    for mask in range(64):
        exits = frozenset(e for e in range(6) if mask >> e & 1)
        if 3 <= len(exits) <= 5:
            for station_left in ((True, False) if len(exits) == 3 else (False,)):
                every.add((exits, station_left))
    classes = set()
    for tile in every:
        classes.add(min(tile, turn(tile), key=lambda t: (sorted(t[0]), not t[1])))
    # show each class with its station in half L, as the rulings ask
    out = set()
    for exits, station_left in classes:
        if len(exits) == 3 and not station_left:
            exits, station_left = turn((exits, station_left))
        out.add((exits, station_left))
    return out


def test_the_32_tiles_are_exactly_the_ones_the_rulings_describe():
    tiles = tileset().tiles
    assert len(tiles) == 32
    mine = {(t.exits, t.station) for t in tiles}
    assert len(mine) == 32 and mine == independent_tiles()
    counts = {k: sum(t.kind == k for t in tiles) for k in (3, 4, 5)}
    assert counts == {3: 20, 4: 9, 5: 3}


def test_no_two_tiles_are_equal_under_a_half_turn():
    seen = set()
    for t in tileset().tiles:
        forms = {(t.exits, "L" if t.station else None),
                 (frozenset((e + 3) % 6 for e in t.exits), "R" if t.station else None)}
        assert not forms & seen, t.id
        seen |= forms


def test_ids_are_stable():
    tiles = tileset().tiles
    assert [t.id for t in tiles] == [f"T{i}" for i in range(1, 33)]
    # a few fixed points: changing the order would change every recorded game
    assert sorted(tiles[0].exits) == [0, 1, 2] and tiles[0].station
    assert sorted(tiles[19].exits) == [3, 4, 5]
    assert sorted(tiles[20].exits) == [0, 1, 2, 3] and not tiles[20].station
    assert sorted(tiles[31].exits) == [0, 1, 2, 4, 5]
    assert {t.id for t in tiles if t.symmetric} == {"T24", "T27", "T29"}


def test_the_file_is_what_the_generator_writes():
    on_disk = json.loads(TILES_PATH.read_text(encoding="utf-8"))
    assert on_disk == json.loads(json.dumps(file_data()))
    assert on_disk["tiles"] == generate()
    rules = tileset().rules
    assert (rules.players_min, rules.players_max, rules.hand_size, rules.frame) == (2, 4, 2, 8)


@pytest.mark.parametrize("breakage, needle", [
    (lambda d: d["tiles"][3].update(exits=[0, 1]), "3, 4 or 5 exits"),
    (lambda d: d["tiles"][3].update(exits=[0, 1, 9]), "0..5"),
    (lambda d: d["tiles"][4].update(station=None), "station in half L"),
    (lambda d: d["tiles"][25].update(station="L"), "only three-exit tiles"),
    (lambda d: d["tiles"][5].update(id="T99"), "T1..T32"),
    (lambda d: d["tiles"][21].update(exits=[0, 1, 2, 3]), "same tile"),  # T22 made a copy of T21
    (lambda d: d["tiles"][22].update(exits=[3, 4, 5, 0]), "same tile"),  # T23 = T21 turned
    (lambda d: d["tiles"].pop(), "counts"),
    (lambda d: d.pop("tiles"), "tiles"),
])
def test_a_broken_tile_file_names_the_file_and_the_fault(tmp_path, breakage, needle):
    assert_names_the_file_and_the_fault(load_tiles, broken_copy(TILES_PATH, tmp_path, breakage), needle)


def test_an_unreadable_tile_file(tmp_path):
    assert_unreadable_is_refused(load_tiles, tmp_path / "tiles.json", "{nope")
    with pytest.raises(DataError):
        load_tiles(tmp_path / "missing.json")


def _codes() -> set[str]:
    codes = set()
    for path in Path("games/ginga").glob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_.]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_every_error_code_of_the_game_has_a_message_in_both_languages():
    codes = _codes()
    assert {"ginga.two_failures", "ginga.too_wide", "ginga.no_success", "ginga.cannot_stop"} <= codes
    for lang in ("en", "ja"):
        missing = sorted(c for c in codes if message_key_of(c) not in catalog(lang))
        assert not missing, f"{lang} lacks {missing}"


def _arguments(message: str) -> set[str]:
    """The names a message takes: its placeholders and the arguments of its plurals."""
    names: set[str] = set()

    def walk(parts) -> None:
        for part in parts:
            if isinstance(part, Placeholder):
                names.update(re.findall(r"{(\w+)", part.text))
            elif isinstance(part, Plural):
                names.add(part.name)
                for _, branch in (*part.exact, *part.categories):
                    walk(branch)

    walk(parse_template(message).parts)
    return names


def test_every_key_the_game_uses_has_a_message_and_the_same_placeholders():
    keys = set()
    for folder in ("games/ginga", "render/ginga", "bot/discord/ui"):
        for path in Path(folder).glob("*.py"):
            text = path.read_text(encoding="utf-8")
            keys |= set(re.findall(r'"((?:ginga|ginga\.discord)\.[a-z_.0-9]+)"', text))
    keys = {k for k in keys if not k.endswith(".")} - _codes()  # codes are checked above as error.<code>
    keys |= {f"ginga.render.direction.{k}" for k in range(4)} | {"ginga.title", "ginga.discord.rules"}
    assert len(keys) > 40
    en = json.loads(Path("data/ginga/messages.en.json").read_text(encoding="utf-8"))
    ja = json.loads(Path("data/ginga/messages.ja.json").read_text(encoding="utf-8"))
    den = json.loads(Path("data/ginga/discord/messages.en.json").read_text(encoding="utf-8"))
    dja = json.loads(Path("data/ginga/discord/messages.ja.json").read_text(encoding="utf-8"))
    assert en.keys() == ja.keys() and den.keys() == dja.keys()
    for a, b in ((en, ja), (den, dja)):
        for key in a:
            assert _arguments(a[key]) == _arguments(b[key]), key
    for lang in ("en", "ja"):
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert not missing, (lang, missing)
    assert all(k.startswith("ginga.") for k in en)
    assert all(k.startswith("ginga.discord.") for k in den)


def test_the_japanese_words_are_in_the_bundled_font():
    ja = json.loads(Path("data/ginga/messages.ja.json").read_text(encoding="utf-8"))
    text = "".join(v for k, v in ja.items() if k.startswith(("ginga.render", "ginga.category", "game.")))
    text = "".join(piece for emoji, piece in segments(text) if not emoji)  # emoji come from the emoji font
    missing = {c for c in text if ord(c) not in coverage(False) and not c.isspace()}
    assert not missing and not {c for c in text if ord(c) not in coverage(True) and not c.isspace()}


def test_the_title_reads_in_both_languages():
    assert translate("en", "ginga.title") == "Galactic Railway"
    assert translate("ja", "ginga.title") == "銀河鉄道 英楽園"
