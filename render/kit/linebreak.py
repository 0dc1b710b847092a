"""Where a line of text may break, independent of fonts.

English breaks at spaces. Japanese breaks between BudouX phrases (so a line never ends in the
middle of a word such as 置きました), with the kinsoku rules on top: no line ends on an opening
bracket, none starts with closing punctuation, a small kana or the long-vowel mark, a number
stays with its counter or unit (10個, +4点, $12) and Latin words, notation and emoji sequences
are never split. A phrase longer than a whole line is broken inside, at the places the same
rules allow.

`break_lines(text, fits, lang)` does the greedy layout with a caller's measure, so the rules
can be tested without fonts and the kit's text module supplies real widths.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

OPENERS = frozenset("「『（【〈《〔［｛〘〖“‘([{\"'")
NO_LINE_START = frozenset(
    "」』）】〉》〕］｝〙〗”’)]}"  # closing brackets
    "、。，．・：；？！‼⁇⁈⁉…‥〜～ー"  # punctuation, ellipsis, wave dash, long vowel
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ々〻ゝゞヽヾ"  # small kana, iteration
    ",.!?:;%）"
)
# Signs written in front of a number that belong to it: +4, −2, $12, ×2, #3, ¥500.
NUMBER_PREFIXES = frozenset("+−-±$＄¥￥×#＃＋")
# Characters that only make sense together with the one before them (emoji sequences, accents).
_JOINERS = re.compile("[\u200d\ufe0e\ufe0f\u20e3\U0001F3FB-\U0001F3FF\U000E0020-\U000E007F]")


def _is_regional(ch: str) -> bool:
    return "\U0001F1E6" <= ch <= "\U0001F1FF"


def keeps_together(a: str, b: str) -> bool:
    """True when no line break is allowed between the characters a and b."""
    if b.isspace():
        return True  # a space stays at the end of its line (and is trimmed there)
    if a.isspace():
        return b in NO_LINE_START
    if a == "\u200d" or _JOINERS.match(b) or unicodedata.combining(b) or (_is_regional(a) and _is_regional(b)):
        return True
    if a in OPENERS or b in NO_LINE_START:
        return True
    if a.isascii() and b.isascii():
        return True  # Latin words, notation such as /move, T17, 1/2, $4
    if a.isdigit() and b not in OPENERS:
        return True  # a number and its counter or unit: 10個, 4点, 3枚, 2本目
    return a in NUMBER_PREFIXES and b.isdigit()


@lru_cache(maxsize=1)
def _parser():
    import budoux  # imported on first use: only Japanese text needs the model

    return budoux.load_default_japanese_parser()


@lru_cache(maxsize=2048)
def units(text: str, lang: str) -> tuple[str, ...]:
    """The text cut at every place a line may break; the pieces join back to the text."""
    if not text:
        return ()
    if lang != "ja":
        return tuple(re.findall(r"\s+|\S+\s*", text))
    pieces: list[str] = []
    for chunk in _parser().parse(text):
        if pieces and keeps_together(pieces[-1][-1], chunk[0]):
            pieces[-1] += chunk
        else:
            pieces.append(chunk)
    return tuple(pieces)


def _atoms(unit: str) -> list[str]:
    """A unit cut at every place a line may break inside it (for units wider than a line)."""
    atoms = [unit[0]]
    for a, b in zip(unit, unit[1:]):
        if keeps_together(a, b):
            atoms[-1] += b
        else:
            atoms.append(b)
    return atoms


def _layout(paragraph: str, fits: Callable[[str], bool], lang: str) -> list[str]:
    lines: list[str] = []
    line = ""

    def push() -> None:
        nonlocal line
        if line.strip():
            lines.append(line.rstrip())
        line = ""

    for unit in units(paragraph, lang):
        if fits(line + unit):
            line += unit
        elif line.strip() and fits(unit.strip()):
            push()
            line = unit.lstrip()
        else:  # wider than a whole line: fill this line, then go on at the allowed places
            for atom in _atoms(unit):
                if fits(line + atom) or not line.strip():
                    line += atom if line.strip() else atom.lstrip()
                else:
                    push()
                    line = atom.lstrip()
    push()
    return lines


def break_lines(text: str, fits: Callable[[str], bool], lang: str) -> list[str]:
    """Lines of the text, each one `fits`, broken only where the rules above allow (a piece
    that fits no line on its own is left whole, to be cut by the caller). Explicit newlines
    start a new line; empty paragraphs between text stay as empty lines."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        out.extend(_layout(paragraph, fits, lang) or [""])
    while out and out[-1] == "":
        out.pop()
    return out
