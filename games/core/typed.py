"""Understanding a move a person typed, against the moves that person may make now.

`resolve(game, state, seat, text)` tries, in order:

1. the game's own notation, exactly (`parse_action`): what it reads is returned as it is, legal
   or not, so the rules still explain a refusal in their own words;
2. the same text rewritten with the game's vocabulary (`Game.vocabulary()`): any case, Latin
   accents dropped, full-width letters and every dash (– — − 〜 …) made plain, and the names
   and words a person may type in any language replaced by the ones the notation uses;
3. completion among the seat's legal moves: a legal move fits when every word typed is one of
   its words (in any order) and every *name* it contains (a city, a railroad, a tile, a cell:
   the vocabulary says which words are names) was typed. What the person left out can only be
   filled in when exactly one legal move fits; several give IllegalAction('ambiguous_move')
   listing them;
4. otherwise the legal moves most like the text (difflib ratio over the normalized notation,
   over its words in any order, word by word, and, for text in another script than the
   notation's, over the move's label in each language) as IllegalAction('did_you_mean'); text
   like none of them keeps the notation's own error (of the rewritten text when the typed one
   was merely unreadable).

Only `legal_actions(state, seat)` and `describe_action(state, seat, …)` of that seat are read,
so a suggestion never shows another player's secret options. Lists reach the catalog as
params ending in `_lines` (one move per line), each move as its notation and its label.
"""
from __future__ import annotations

import difflib
import heapq
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from games.core.errors import IllegalAction
from games.core.i18n import LANGUAGES, translate
from games.core.vocabulary import Vocabulary

if TYPE_CHECKING:
    from games.core.protocol import Game

MAX_SUGGESTIONS = 5
MAX_LISTED = 10  # an ambiguous text lists at most this many moves, then says how many more
CUTOFF = 0.6  # below this similarity a legal move is not offered as a suggestion
WORD_CUTOFF = 0.75  # a typed word this like a word of the move counts as a typo of it
MAX_TEXT = 300

_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−⁃﹘﹣－〜～~"), "-")
_COMMAS = dict.fromkeys(map(ord, "、，､"), ",")
_SEPARATORS = r"\s\-,>+/"  # between the words of a notation
_ACCENTED = re.compile("[\u00c0-\u024f\u1e00-\u1eff]")  # Latin letters that may carry accents


def normalize(text: str) -> str:
    """Lower case, full-width and compatibility forms folded (NFKC), Latin accents dropped,
    dashes and Japanese commas made plain, runs of spaces made one."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    text = text.translate(_DASHES).translate(_COMMAS)
    if _ACCENTED.search(text):  # "Montréal" -> "montreal"; kana keep their marks
        out: list[str] = []
        for ch in unicodedata.normalize("NFD", text):
            if unicodedata.combining(ch) and out and out[-1].isascii():
                continue
            out.append(ch)
        text = unicodedata.normalize("NFC", "".join(out))
    return " ".join(text.split())


def _bounded(key: str) -> str:
    pattern = re.escape(key)
    if key[:1].isascii() and key[:1].isalnum():
        pattern = r"(?<![a-z0-9])" + pattern
    if key[-1:].isascii() and key[-1:].isalnum():
        pattern += r"(?![a-z0-9])"
    return pattern


class _Reader:
    """A vocabulary compiled: rewrite typed text, split a notation into words."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        aliases: dict[str, str] = {}
        for source in (vocabulary.words, vocabulary.names):  # a name wins over a word
            for key, value in source.items():
                key = normalize(key)
                if key:
                    aliases[key] = normalize(value)
        for value in set(aliases.values()):  # the notation's own spelling stays itself
            if value:
                aliases[value] = value
        self.aliases = aliases
        self.names = frozenset(normalize(v) for v in vocabulary.names.values())
        self._alias_re = _alternation(aliases) if aliases else None
        atoms = sorted({v for v in aliases.values() if re.search(f"[{_SEPARATORS}]", v)}, key=len, reverse=True)
        word = f"[^{_SEPARATORS}]+"
        self._token_re = re.compile("|".join([*(_bounded(a) for a in atoms), word]))

    def rewrite(self, text: str) -> str:
        text = normalize(text)
        if self._alias_re is None:
            return text
        return " ".join("".join(piece for piece, _, _ in self._pieces(text)).split())

    def _pieces(self, text: str) -> list[tuple[str, int, int]]:
        """A normalized text rewritten, in pieces: the text between names and words as it is,
        each name or word as the notation's (spaced apart); each with the span it replaces."""
        pieces: list[tuple[str, int, int]] = []
        end = 0
        for m in self._alias_re.finditer(text) if self._alias_re is not None else ():
            if m.start() > end:
                pieces.append((text[end:m.start()], end, m.start()))
            pieces.append((f" {self.aliases[m.group(0)]} ", m.start(), m.end()))
            end = m.end()
        if end < len(text):
            pieces.append((text[end:], end, len(text)))
        return pieces

    def typed_part(self, text: str, part: str) -> str | None:
        """What was typed (normalized) for `part` of the text's rewriting ("シアトル-ニューヨーク"
        for "seattle - new york"), or None if the rewriting has no such part."""
        norm = normalize(text)
        chars: list[tuple[str, int, int]] = []  # the rewriting's characters, each with its source span
        for piece, start, stop in self._pieces(norm):
            kept = norm[start:stop] == piece
            chars += [(ch, start + i, start + i + 1) if kept else (ch, start, stop) for i, ch in enumerate(piece)]
        collapsed: list[tuple[str, int, int]] = []  # runs of spaces made one, as `rewrite` does
        for ch, start, stop in chars:
            if ch.isspace() and (not collapsed or collapsed[-1][0] == " "):
                continue
            collapsed.append((" " if ch.isspace() else ch, start, stop))
        while collapsed and collapsed[-1][0] == " ":
            collapsed.pop()
        at = "".join(ch for ch, _, _ in collapsed).find(normalize(part))
        if at < 0 or not part.strip():
            return None
        span = collapsed[at:at + len(normalize(part))]
        return norm[min(s for _, s, _ in span):max(e for _, _, e in span)].strip()

    def words(self, canonical: str) -> list[str]:
        return self._token_re.findall(canonical)


def _alternation(aliases: Mapping[str, str]) -> re.Pattern[str]:
    keys = sorted(aliases, key=len, reverse=True)
    return re.compile("|".join(_bounded(k) for k in keys))


@lru_cache(maxsize=64)
def _reader(game: "Game") -> _Reader:
    return _Reader(game.vocabulary())


# --------------------------------------------------------------------------------------
@dataclass
class _Candidate:
    action: Any
    notation: str
    canonical: str
    words: list[str]

    def __post_init__(self) -> None:
        self.counts = Counter(self.words)


def resolve(game: "Game", state: Any, seat: int, text: str) -> Any:
    """The action `text` means for `seat` now; raises the typed IllegalAction otherwise."""
    text = str(text).strip()
    try:
        return game.parse_action(text)
    except IllegalAction as exc:
        first_error = exc
    if len(text) > MAX_TEXT:
        raise first_error
    reader = _reader(game)
    canonical = reader.rewrite(text)
    if canonical and canonical != text:
        try:
            return game.parse_action(canonical)
        except IllegalAction as exc:
            # "no route シアトル-ニューヨーク" says more than "unparsable"; a refusal quotes what
            # the person typed, never the rewritten text ("蒸気 locomotive" for "蒸気機関車")
            if first_error.code == "unparsable" and exc.code != "unparsable":
                first_error = _as_typed(exc, reader, text) or first_error
    candidates = [_candidate(game, reader, action) for action in game.legal_actions(state, seat)]
    typed = [w for w in reader.words(canonical) if w]
    if typed:
        fits = [c for c in candidates if _fits(Counter(typed), c, reader.names)]
        if len(fits) == 1:
            return fits[0].action
        if fits:
            listed = fits[:MAX_LISTED]
            lines = [_line(game, state, seat, c) for c in listed]
            if len(fits) > len(listed):
                lines.append({"key": "move.more", "params": {"count": len(fits) - len(listed)}})
            raise IllegalAction("ambiguous_move", text=text[:80], moves_lines=lines)
    close = _closest(game, state, seat, text, canonical, typed, candidates)
    if close:
        raise IllegalAction("did_you_mean", text=text[:80],
                            suggestions_lines=[_line(game, state, seat, c) for c in close])
    raise first_error


def _as_typed(error: IllegalAction, reader: _Reader, text: str) -> IllegalAction | None:
    """The refusal of the rewritten text quoting the typed words instead of their rewriting, or
    None if some quoted text cannot be traced back to what was typed."""
    params = dict(error.params)
    for key, value in error.params.items():
        if isinstance(value, str):
            typed = reader.typed_part(text, value)
            if typed is None:
                return None
            params[key] = typed
    return IllegalAction(error.code, **params)


def _candidate(game: "Game", reader: _Reader, action: Any) -> _Candidate:
    notation = game.format_action(action)
    canonical = reader.rewrite(notation)
    return _Candidate(action, notation, canonical, [w for w in reader.words(canonical) if w])


def _fits(typed: Counter[str], candidate: _Candidate, names: frozenset[str]) -> bool:
    if typed - candidate.counts:  # a typed word the move does not have
        return False
    named = Counter({w: n for w, n in candidate.counts.items() if w in names})
    return not named - typed  # a name of the move that was not typed


def _line(game: "Game", state: Any, seat: int, candidate: _Candidate) -> dict[str, Any]:
    event = game.describe_action(state, seat, candidate.action)
    return {"key": "move.choice", "params": {"notation": candidate.notation,
                                             "label": {"key": event.key, "params": dict(event.params)}}}


class _Like:
    """difflib's ratio of one text against many (the text's index is built once), or 0 when
    its cheap upper bounds are already below `floor`."""

    def __init__(self, text: str, floor: float) -> None:
        self.matcher = difflib.SequenceMatcher(None, autojunk=False)
        self.matcher.set_seq2(text)
        self.floor = floor

    def __call__(self, other: str) -> float:
        matcher = self.matcher
        matcher.set_seq1(other)
        if matcher.real_quick_ratio() < self.floor or matcher.quick_ratio() < self.floor:
            return 0.0
        return matcher.ratio()


def _word_score(typed: list[str], words: list[str], memo: dict[tuple[str, str], float]) -> float:
    """Each typed word against its likest word of the move ("drw" ~ "draw", "angles" ~ the
    "angeles" of "los angeles"): their mean, or 0 when some typed word is like none."""
    if not typed:
        return 0.0
    pool = set(words) | {part for w in words for part in w.split()}
    total = 0.0
    for w in typed:
        like = _Like(w, WORD_CUTOFF)
        best = 0.0
        for p in pool:
            key = (w, p)
            if key not in memo:
                memo[key] = like(p)
            best = max(best, memo[key])
        if best < WORD_CUTOFF:
            return 0.0
        total += best
    return total / len(typed)


def _labels(game: "Game", state: Any, seat: int, action: Any) -> Iterable[str]:
    event = game.describe_action(state, seat, action)
    for lang in LANGUAGES:
        yield normalize(translate(lang, event.key, event.params))


def _closest(game: "Game", state: Any, seat: int, text: str, canonical: str, typed: list[str],
             candidates: list[_Candidate]) -> list[_Candidate]:
    likes = [_Like(canonical, CUTOFF), _Like(" ".join(sorted(typed)), CUTOFF)]
    like_text = _Like(normalize(text), CUTOFF)
    memo: dict[tuple[str, str], float] = {}
    foreign = not canonical.isascii()
    best: list[tuple[float, int]] = []  # a min-heap of the best (score, -index) so far
    chosen: dict[int, _Candidate] = {}
    for index, c in enumerate(candidates):
        floor = max(CUTOFF, best[0][0]) if len(best) >= MAX_SUGGESTIONS else CUTOFF
        for like in (*likes, like_text):
            like.floor = floor  # what cannot beat the fifth best need not be measured exactly
        score = max(likes[0](c.canonical), likes[1](" ".join(sorted(c.words))), _word_score(typed, c.words, memo))
        if score < floor and foreign:  # words the notation's alphabet cannot hold: try the labels
            for label in _labels(game, state, seat, c.action):
                score = max(score, like_text(label))
        if score >= floor and (len(best) < MAX_SUGGESTIONS or score > best[0][0]):
            heapq.heappush(best, (score, -index))
            chosen[index] = c
            if len(best) > MAX_SUGGESTIONS:
                heapq.heappop(best)
    ranked = sorted(best, key=lambda item: (-item[0], -item[1]))
    return [chosen[-neg] for _, neg in ranked]
