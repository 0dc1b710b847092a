"""Line breaking: BudouX phrases and kinsoku in Japanese, words in English, measured with the
kit's real fonts on real catalog sentences."""
import re

import budoux
import pytest

from games.core.i18n import translate
from render.kit.linebreak import NO_LINE_START, OPENERS, break_lines, keeps_together, units
from render.kit.text import measure, wrap

NAMES = ["山田太郎", "Bob 🚂"]
CITY = {"en": "Kansas City", "ja": "カンザスシティ"}
SECTION = {"key": "santa_fe.section.double", "params": {"from": {"en": "Chicago", "ja": "シカゴ"},
                                                  "to": {"en": "Omaha", "ja": "オマハ"}, "half": 2}}
SENTENCES = [
    ("santa_fe.ev.placed_paid", {"seat": 0, "cost": 12, "rr": "UP", "section": SECTION, "space": 1, "spaces": 4}),
    ("santa_fe.ev.bonus_special", {"rr": "SF", "city": CITY, "seat": 1, "amount": 8}),
    ("ginga.ev.stations", {"seat": 0, "count": 12}),
    ("ticket_to_ride.ev.final_round", {"seat": 1, "trains": 2}),
    ("ginga.error.two_failures", {"failures": 10}),
    ("ticket_to_ride.ev.face_up_stuck", {"locos": 4}),
    ("error.ambiguous_move", {"text": "place UP Chicago-Omaha", "moves_lines": ["place UP Chicago>Omaha",
                                                                              "place UP Chicago>Omaha/2"]}),
    ("ginga.discord.rules", {}),
]
SIZE = 18


def _texts(lang):
    return [translate(lang, key, params, NAMES) for key, params in SENTENCES]


def _check(text, lines, width):
    """The lines are the text, in order, each fitting, broken only where the rules allow."""
    assert re.sub(r"\s", "", "".join(lines)) == re.sub(r"\s", "", text)  # nothing lost, nothing added
    pos = 0
    for i, line in enumerate(lines):
        assert line == line.strip()
        assert measure(line, SIZE)[0] <= width or len(units(line, "ja")) == 1, line
        pos = text.index(line, pos) + len(line)
        if i == len(lines) - 1:
            break
        left, right, at_space = line[-1], lines[i + 1][0], text[pos].isspace()
        assert left not in OPENERS, (line, lines[i + 1])
        assert right not in NO_LINE_START, (line, lines[i + 1])
        assert not (left.isdigit() and not at_space), (line, lines[i + 1])  # 10|個
        assert not (left.isascii() and right.isascii() and not at_space), (line, lines[i + 1])  # Latin words


@pytest.mark.parametrize("width", [90, 140, 200, 320, 480])
def test_japanese_sentences_from_the_catalogs_keep_the_kinsoku_rules(width):
    for text in _texts("ja"):
        for paragraph in text.split("\n"):
            _check(paragraph, wrap(paragraph, SIZE, width, "ja"), width)


def test_japanese_breaks_fall_between_budoux_phrases_when_phrases_fit():
    parser = budoux.load_default_japanese_parser()
    text = translate("ja", *SENTENCES[0], NAMES)
    boundaries, pos = set(), 0
    for chunk in parser.parse(text):
        pos += len(chunk)
        boundaries.add(pos)
    lines = wrap(text, SIZE, 260, "ja")
    assert len(lines) >= 2
    pos = 0
    for line in lines[:-1]:
        pos = text.index(line, pos) + len(line)
        assert pos in boundaries, (line, lines)


def test_a_number_stays_with_its_counter_and_its_sign():
    text = "🚉 山田太郎が12個の駅を接続：+12点。所持金は$12です。"
    for width in range(40, 400, 6):
        for line in wrap(text, SIZE, width, "ja"):
            assert not re.search(r"\d$", line) and not re.search(r"[+$]$", line), (width, line)
            assert not re.match(r"[個点]", line), (width, line)


def test_opening_brackets_never_end_a_line():
    text = "「接続失敗」が3本あるため置けません（1本まで）。「盤面」（最新）を確認して【再試行】してください。"
    for width in range(30, 400, 5):
        lines = wrap(text, SIZE, width, "ja")
        assert all(line[-1] not in OPENERS for line in lines), (width, lines)
        assert all(line[0] not in NO_LINE_START for line in lines[1:]), (width, lines)


def test_english_breaks_only_at_spaces_and_keeps_words_whole():
    for text in _texts("en"):
        words = text.split()
        for width in (120, 200, 360):
            if max(measure(w, SIZE)[0] for w in words) > width:
                continue  # a word wider than the line is cut where it can be: not this test
            lines = wrap(text, SIZE, width, "en")
            assert " ".join(lines).split() == words
            for line in lines:
                assert measure(line, SIZE)[0] <= width or " " not in line


def test_explicit_line_breaks_start_new_lines():
    text = translate("en", "error.ambiguous_move", {"text": "x", "moves_lines": ["a b", "c d"]}, NAMES)
    lines = wrap(text, SIZE, 2000, "en")
    assert lines[-2:] == ["a b", "c d"]


def test_emoji_sequences_and_latin_notation_are_never_split():
    family = "👨\u200d👩\u200d👧"
    text = f"{family}{family}{family}が/moveでplace T17 at H8を選びました"
    for width in range(10, 300, 7):
        joined = "\n".join(break_lines(text, lambda s: measure(s, SIZE)[0] <= width, "ja"))
        assert joined.count(family) == 3
        for word in ("/move", "place", "T17", "H8"):
            assert word in joined


def test_rules_on_single_pairs():
    assert keeps_together("（", "駅") and keeps_together("駅", "。") and keeps_together("し", "ょ")
    assert keeps_together("0", "個") and keeps_together("+", "4") and keeps_together("$", "1")
    assert keeps_together("T", "1") and keeps_together("ー", "ー")
    assert not keeps_together("た", "（") and not keeps_together("。", "駅")
