"""Message catalogs: every sentence a player reads comes from data/messages/<lang>.json and
data/<game>/messages.<lang>.json (and its render/ and discord/ folders), never from the rules code.

`translate(lang, key, params, names)` fills `{param}` placeholders. A param that is a seat
(`is_seat_param`: named `seat`, `seats`, `waiting`, `..._seat` or `..._seats`) becomes the
player's name, a list of seats the names joined; a seat under any other name would reach
players as a bare index, so every seat param is named that way; a param shaped like an event
(`{"key": ..., "params": ...}`) is translated recursively; a name given in several languages
(`{"en": ..., "ja": ...}`, e.g. a city from a map file) picks the reader's; a list is joined,
or, when the param's name ends in `_lines`, put one item per line (each after a line break).

A catalog string may hold ICU plural arguments, several per string and nested if need be:
`{count, plural, =0 {no routes} one {# route} other {# routes}}`. The branch is chosen by
the exact value (`=N`) first, then by the CLDR plural category of the reader's language
(Babel); `#` inside the branch is the number; `other` is required. Placeholders work inside
branches as everywhere else. Malformed plural syntax is a DataError when the catalog loads.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from babel import Locale
from pydantic import BaseModel

from games.core.errors import DataError
from games.core.plural import parse_template

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
LANGUAGES = ("en", "ja")
DEFAULT_LANGUAGE = "en"


def language_for(locale: str | None) -> str:
    """Map a Discord locale ('ja', 'en-US', 'en-GB', ...) to a catalog language."""
    if locale and locale.lower().startswith("ja"):
        return "ja"
    return DEFAULT_LANGUAGE


def load_catalog(path: Path) -> dict[str, str]:
    """One catalog file, every string checked (plural syntax included); DataError if bad."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"message catalog {path} cannot be read: {exc}") from exc
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise DataError(f"message catalog {path} must be an object of strings")
    for key, value in data.items():
        try:
            parse_template(value)
        except ValueError as exc:
            raise DataError(f"message {key!r} in {path}: {exc}") from exc
    return data


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The merged catalog for a language: core messages plus every game's messages."""
    merged = dict(load_catalog(DATA_DIR / "messages" / f"{lang}.json"))
    # data/<game>/ holds a game's rules words; data/<game>/render/ and data/<game>/discord/ the
    # words of its pictures and of its Discord look; data/render/ and data/discord/ the shared ones.
    paths = [*DATA_DIR.glob(f"*/messages.{lang}.json"), *DATA_DIR.glob(f"*/*/messages.{lang}.json")]
    for path in sorted(paths):
        for key, value in load_catalog(path).items():
            if key in merged:
                raise DataError(f"message key {key!r} defined twice ({path})")
            merged[key] = value
    return merged


class Renamed(BaseModel):
    """data/messages/renamed.json: old key prefixes and the new ones (see its "why")."""

    why: str
    prefixes: dict[str, str]


@lru_cache(maxsize=1)
def renamed_prefixes() -> tuple[tuple[str, str], ...]:
    path = DATA_DIR / "messages" / "renamed.json"
    try:
        table = Renamed.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # pydantic's ValidationError is a ValueError
        raise DataError(f"{path} cannot be read: {exc}") from exc
    return tuple(sorted(table.prefixes.items(), key=lambda item: -len(item[0])))


def current_key(key: str) -> str:
    """The key as the catalogs name it now: an old key (stored with an older game) renamed."""
    for old, new in renamed_prefixes():
        if key.startswith(old):
            return new + key[len(old):]
    return key


class _Missing(dict):
    def __missing__(self, key: str) -> str:  # leave unknown placeholders visible, never crash
        return "{" + key + "}"


def translate(
    lang: str,
    key: str,
    params: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    template = catalog(lang).get(key) or catalog(DEFAULT_LANGUAGE).get(key)
    if template is None and (renamed := current_key(key)) != key:
        template = catalog(lang).get(renamed) or catalog(DEFAULT_LANGUAGE).get(renamed)
    if template is None:
        return key  # a missing message is a bug a test catches; users still see something
    return format_message(lang, template, params, names)


def format_message(
    lang: str,
    template: str,
    params: Mapping[str, Any] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """Fill one catalog string: plural arguments first, then the `{param}` placeholders."""
    values = _Missing()
    for name, value in (params or {}).items():
        values[name] = _render_value(lang, name, value, names)
    parsed = parse_template(template)
    if parsed.has_plurals:
        template = parsed.expand(params or {}, _plural_rule(lang))
    return template.format_map(values)


@lru_cache(maxsize=None)
def _plural_rule(lang: str):
    """The CLDR plural category function of a language: number -> 'one', 'other', ..."""
    return Locale.parse(lang).plural_form


def is_seat_param(name: str) -> bool:
    """Whether a param of this name holds a seat (or a list of seats), shown as names."""
    return name in ("seat", "seats", "waiting") or name.endswith(("_seat", "_seats"))


def _render_value(lang: str, name: str, value: Any, names: Sequence[str] | None) -> str:
    if isinstance(value, dict) and "key" in value:
        return translate(lang, value["key"], value.get("params"), names)
    if isinstance(value, dict) and DEFAULT_LANGUAGE in value:  # data-driven names: {"en":..,"ja":..}
        return str(value.get(lang, value[DEFAULT_LANGUAGE]))
    if isinstance(value, (list, tuple)) and name.endswith("_lines"):
        return "".join("\n" + _render_value(lang, name, v, names) for v in value)
    if isinstance(value, (list, tuple)):
        sep = "、" if lang == "ja" else ", "
        return sep.join(_render_value(lang, name, v, names) for v in value)
    if is_seat_param(name) and isinstance(value, int) and not isinstance(value, bool):
        if names is not None and 0 <= value < len(names):
            return names[value]
        return f"#{value + 1}"
    return str(value)


def has_key(lang: str, key: str) -> bool:
    return key in catalog(lang)
