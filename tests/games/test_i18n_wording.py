"""Wording rules every catalog string keeps, in English and Japanese."""
import json
import re

import pytest

from games.core.i18n import DATA_DIR, translate

NAMES = ["Ann", "Bob"]
JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff]"
PARTICLES = "がをにでとはもへのや"
SHOGI = r"棋譜|手[をが]指|指[さしすせ]\S{0,2}手|(?:ボット|代わり)\S{0,2}指|指し手|一手|[\d}]手目|対局|投了"


def _catalog_files(lang):
    return [DATA_DIR / "messages" / f"{lang}.json", *sorted(DATA_DIR.glob(f"*/messages.{lang}.json"))]


def _strings(lang):
    for path in _catalog_files(lang):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            yield f"{path.parent.name}/{key}", text


def _offences(lang, pattern):
    rx = re.compile(pattern)
    return [(where, m.group(0), text) for where, text in _strings(lang) for m in rx.finditer(text)]


def test_no_hand_made_plurals_in_any_catalog():
    for lang in ("en", "ja"):
        assert _offences(lang, r"\w\((?:s|es)\)") == []


def test_no_doubled_brackets():
    for lang in ("en", "ja"):
        assert _offences(lang, r"\(\(|\)\)|（（|））|\)\s*\(|）（") == []


def test_english_event_text_has_no_internal_line_numbers():
    # "line 2" was how the second track of a Santa Fe double line read; players see tracks.
    assert _offences("en", r"\bline (?:\d|\{half\})") == []


@pytest.mark.parametrize("key, count, params, one, two", [
    ("ttr.ev.claimed", "points", {"seat": 0, "route": "A–B", "payment": "2 red"}, "for 1 point.", "for 2 points."),
    ("ttr.ev.final_round", "trains", {"seat": 0}, "has 1 train left", "has 2 trains left"),
    ("discord.claim.intro", "count", {}, "claim 1 route now", "claim 2 routes now"),
    ("sf.ev.exchanged", "count", {"seat": 0}, "exchanged 1 city card.", "exchanged 2 city cards."),
    ("gt.choice.tile_detail", "count", {}, "1 place,", "2 places,"),
    ("render.trains_left", "count", {}, "1 train left", "2 trains left"),
    ("discord.sf.place.toward", "count", {"city": "Denver"}, "1 more space to Denver", "2 more spaces to Denver"),
    ("error.ttr.keep_more", "keep_min", {}, "at least 1 ticket.", "at least 2 tickets."),
    ("discord.gt.more", "count", {}, "1 more placement did", "2 more placements did"),
])
def test_english_counts_read_right_for_one_and_two(key, count, params, one, two):
    assert one in translate("en", key, {**params, count: 1}, NAMES)
    assert two in translate("en", key, {**params, count: 2}, NAMES)


def test_no_shogi_or_go_terms_in_japanese():
    # 棋譜 (game record), 手を指す (to play a move), 一手/N手目, 対局, 投了 belong to shogi and go.
    # 指す alone is fine where it means "to point" (向きを指す).
    pattern = SHOGI
    assert _offences("ja", pattern) == []


def test_japanese_counters_never_use_tsu_after_a_number_that_can_pass_nine():
    # ～つ counts only 1–9 (ひとつ…ここのつ): "駅を10つ" is wrong, a placeholder may be 10 or more.
    assert _offences("ja", r"(?:\}|\d\d)つ") == []


def test_no_ascii_space_next_to_a_particle_between_japanese_words():
    before = rf"(?:{JAPANESE}|\}})\x20[{PARTICLES}](?={JAPANESE}|\{{)"
    after = rf"(?<={JAPANESE}|\}})[{PARTICLES}]\x20(?:{JAPANESE}|\{{)"
    assert _offences("ja", before) == [] and _offences("ja", after) == []


def test_the_rules_catch_what_they_are_meant_to_catch():
    # The wording rules above pass on the catalogs; here each one is shown to bite.
    samples = {r"(?:\}|\d\d)つ": "駅を{count}つ接続", SHOGI: "手を指しました",
               rf"(?:{JAPANESE}|\}})\x20[{PARTICLES}](?={JAPANESE}|\{{)": "{seat} が山札から引きました"}
    for pattern, text in samples.items():
        assert re.search(pattern, text), pattern
    assert re.search(SHOGI, "ボットが代わりに指します") and re.search(SHOGI, "{game} — 棋譜")
    assert not re.search(SHOGI, "もう半分の向きを指しています")
