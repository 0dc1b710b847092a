"""A game's vocabulary: what people may type for its things (games/core/typed.py reads it)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping


@dataclass(frozen=True)
class Vocabulary:
    """What a person may type for a game's things, beyond the notation's own spelling.

    `names` are names of things (cities, railroads, tiles, cells, and words such as `none` that
    must not be guessed): typed spelling -> the word the notation uses, the notation's own
    spelling included. A move is completed only if every name it contains was typed.
    `words` are other synonyms (colours, directions, verbs): typed -> notation word; mapping to
    "" drops a filler word ("at", "に"). Keys and values are matched normalized (any case,
    either width); a key starting or ending with a Latin letter or digit only matches whole
    words, other keys (Japanese) match anywhere, the longest first.
    """

    names: Mapping[str, str] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict)
