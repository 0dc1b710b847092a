"""Alt text for posted images: what a sighted player sees, said in words for a screen reader.

Discord keeps an attachment description of at most 1024 characters. A game's describe_*
function builds a few sentences with the phrases below (whose turn, the scores, the last
move, the ranking) and its own details, most important first, and `alt_text` joins them
and drops whole sentences from the end when they do not fit.
"""
from __future__ import annotations

import re
from typing import Sequence

from games.core.i18n import translate

DISCORD_LIMIT = 1024
ELLIPSIS = "…"
# The end of a sentence: Latin stop + space, or a Japanese full stop / mark (no space).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_CJK_STOP = ("。", "！", "？", "」", "）")


def _join(parts: Sequence[str]) -> str:
    out = ""
    for part in parts:
        if not out:
            out = part
        elif out.endswith(_CJK_STOP) or part[:1] in "。、":
            out += part  # Japanese sentences follow each other without a space
        else:
            out += " " + part
    return out


def _sentences(line: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(line) if s and s.strip()]


def alt_text(lines: Sequence[str], limit: int = DISCORD_LIMIT) -> str:
    """The lines (each one or more sentences) as one description of at most `limit` characters.

    Empty lines are skipped and line breaks become spaces. When everything does not fit,
    the text ends after the last whole sentence that does; a first sentence longer than
    the limit on its own is cut at a word (or character) and ends with "…".
    """
    sentences = [s for line in lines if line for s in _sentences(" ".join(str(line).split()))]
    kept: list[str] = []
    for sentence in sentences:
        if len(_join(kept + [sentence])) > limit:
            break
        kept.append(sentence)
    if kept:
        return _join(kept)
    if not sentences:
        return ""
    head = sentences[0][:max(0, limit - len(ELLIPSIS))]
    if " " in head.strip():
        head = head[:head.rstrip().rfind(" ")]
    return head.rstrip(" ,;:、") + ELLIPSIS


def board_heading(lang: str, game: str, turn: int | None, waiting: Sequence[int],
                  names: Sequence[str]) -> str:
    """"Board of Ticket to Ride, turn 12. Waiting for Alice." (`game` is the game's name,
    `waiting` the seats the game waits for; either part is left out when unknown/empty)."""
    title = translate(lang, f"{game}.title")
    parts = [translate(lang, "render.kit.alt.board_turn" if turn is not None else "render.kit.alt.board",
                       {"game": title, "turn": turn})]
    if waiting:
        parts.append(translate(lang, "render.kit.alt.waiting", {"seats": list(waiting)}, names))
    return _join(parts)


def scores_sentence(lang: str, scores: Sequence[tuple[int, int]], names: Sequence[str]) -> str:
    """"Scores: Alice 30 points, Bob 27 points." from (seat, points) pairs, in the given order."""
    entries = [translate(lang, "render.kit.alt.score_entry", {"seat": seat, "points": points}, names)
               for seat, points in scores]
    return translate(lang, "render.kit.alt.scores", {"entries": _list(lang, entries)})


def last_move_sentence(lang: str, move: str | Sequence[str]) -> str:
    """"Last move: Alice claimed Denver–Omaha." Several events of one turn are all listed.

    The sentence ends with the last event's own mark when it has one ("Game over!"), else
    with a full stop; the events in between lose theirs, as the list separates them."""
    events = [move] if isinstance(move, str) else list(move)
    events = [e.strip() for e in events if e and e.strip()]
    if not events:
        return ""
    *earlier, last = events
    earlier = [e.rstrip(".。") for e in earlier]
    if not last.endswith(_SENTENCE_ENDS):
        last = last.rstrip(".。") + ("。" if lang == "ja" else ".")
    return translate(lang, "render.kit.alt.last_move", {"move": _list(lang, [*earlier, last], "; ")})


def hand_heading(lang: str, seat: int, names: Sequence[str]) -> str:
    """"Alice's hand." — the opening of a hand image's description."""
    return translate(lang, "render.kit.alt.hand", {"seat": seat}, names)


def ranking_sentence(lang: str, game: str, ranking: Sequence[tuple[int, int, int]],
                     names: Sequence[str]) -> str:
    """"Final result of Ticket to Ride: #1 Alice, 52 points; #2 Bob, 40 points." from
    (rank, seat, points), best first (ties share a rank)."""
    entries = [translate(lang, "render.kit.alt.rank_entry", {"rank": rank, "seat": seat, "points": points}, names)
               for rank, seat, points in ranking]
    return translate(lang, "render.kit.alt.ranking",
                     {"game": translate(lang, f"{game}.title"), "entries": _list(lang, entries, "; ")})


_SENTENCE_ENDS = (".", "。", "!", "！", "?", "？")


def _list(lang: str, items: Sequence[str], latin_sep: str = ", ") -> str:
    return ("、" if lang == "ja" else latin_sep).join(items)
