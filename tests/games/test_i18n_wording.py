"""Wording rules every catalog string keeps, in English and Japanese."""
import json
import re

import pytest

from games.core.i18n import DATA_DIR, translate

NAMES = ["Ann", "Bob"]
JAPANESE = r"[\u3040-\u30ff\u3400-\u9fff]"
PARTICLES = "がをにでとはもへのや"
SHOGI = r"棋譜|手[をが]指|指[さしすせ]\S{0,2}手|(?:ボット|代わり)\S{0,2}指|指し手|一手|[\d}]\s?手(?!番)|対局|投了"


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
    ("ticket_to_ride.ev.claimed", "points", {"seat": 0, "route": "A–B", "payment": "2 red"}, "for 1 point.", "for 2 points."),
    ("ticket_to_ride.ev.final_round", "trains", {"seat": 0}, "has 1 train left", "has 2 trains left"),
    ("discord.claim.intro", "count", {}, "claim 1 route now", "claim 2 routes now"),
    ("santa_fe.ev.exchanged", "count", {"seat": 0}, "exchanged 1 city card.", "exchanged 2 city cards."),
    ("ginga.choice.tile_detail", "count", {}, "1 place,", "2 places,"),
    ("ticket_to_ride.render.trains_left", "count", {}, "1 train left", "2 trains left"),
    ("santa_fe.discord.place.toward", "count", {"city": "Denver"}, "1 more space to Denver", "2 more spaces to Denver"),
    ("ticket_to_ride.error.keep_more", "keep_min", {}, "at least 1 ticket.", "at least 2 tickets."),
    ("ginga.discord.more", "count", {}, "1 more placement did", "2 more placements did"),
    ("catan_express.render.winner", "count", {"seats": [0]}, "Ann wins!", "share the win!"),
    ("steam.render.final.stats", "delivered", {"level": 2, "income": 3}, "1 cube delivered", "2 cubes delivered"),
    ("steam.discord.player.engine", "delivered", {"level": 2}, "1 cube delivered", "2 cubes delivered"),
    ("steam.choice.cube", "count", {"colour": "red", "hex": "B5"}, "red cube at B5", "red cube at B5 (one of 2)"),
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


def test_english_that_read_badly_is_gone():
    # "r4 · exits SE, N" (a notation value in a menu label), "(1 there)", "1 good delivered",
    # "Stop (towers still there below)", "…link; nobody extends another player's link."
    clumsy = [r"\br\{rotation\}", r"\bexits \{sides\}", r"\(\{count\} there\)", r"\bgoods? delivered",
              r"towers still there below", r"nobody extends"]
    assert [o for rule in clumsy for o in _offences("en", rule)] == []
    assert translate("en", "steam.choice.cube", {"colour": "red", "hex": "B5", "count": 1}) == "red cube at B5"


def test_japanese_text_uses_full_width_brackets_and_colons():
    # 「(例:12)」 reads as half-width English punctuation dropped into Japanese. Notation in
    # backticks keeps its own spelling; a ratio or a time (3:1, 22-7) has digits on both sides.
    offences = []
    for where, text in _strings("ja"):
        body = re.sub(r"`[^`]*`", "", text)
        if not re.search(JAPANESE, body):
            continue
        offences += [(where, m.group(0)) for m in re.finditer(r".?[()].?|.?(?<!\d):|:(?!\d).?", body)]
    assert offences == []


# numbers a player counts, each followed by its counter (開拓地2 · 都市3 read as labels)
COUNTED = [
    ("catan_express.render.final.stats", {"settlements": 2, "cities": 3, "knights": 1, "towers": 2}),
    ("catan_express.render.alt.seat", {"seat": 0, "points": 9, "cards": 4, "dev": 1, "knights": 2, "towers": 1}),
    ("catan_express.discord.seat.pieces", {"settlements": 2, "cities": 3, "rails": 11, "ferries": 1}),
    *[(f"catan_express.render.hand.left.{item}", {"left": 3}) for item in ("settlement", "city", "rail", "ferry")],
    ("ginga.render.breakdown", {"stations": 6, "loops": 12}),
    ("ginga.score.both", {"points": 18, "loop": 12, "stations": 6}),
    ("santa_fe.choice.railroad_detail", {"count": 3, "tiles": 12}),
    ("santa_fe.discord.status.deck", {"deck": 20, "doubles": 4}),
    ("santa_fe.render.spurs_left", {"count": 2}),
    ("discord.mine.title", {"count": 2}),
    ("ticket_to_ride.discord.status.decks", {"deck": 40, "discard": 6, "tickets": 20}),
]
COUNTERS = "枚個本人点回件か所"


@pytest.mark.parametrize("key, params", COUNTED, ids=[k for k, _ in COUNTED])
def test_japanese_numbers_carry_their_counters(key, params):
    text = translate("ja", key, params, NAMES)
    bare = [m.group(0) for m in re.finditer(rf"\d+(?![\d{COUNTERS}])", text)]
    assert bare == [], text


def test_a_card_letter_is_the_first_character_of_its_colour_name():
    # a pink card read 桃 over the word ピンク in the same hand
    for colour in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "locomotive"):
        assert translate("ja", f"ticket_to_ride.card_letter.{colour}") == translate("ja", f"ticket_to_ride.color.{colour}")[0]


@pytest.mark.parametrize("prefix", ["steam.ev.", "santa_fe.ev."])
def test_japanese_log_lines_say_what_happened_in_the_past(prefix):
    # "…を支払います。" among "…を支払いました。": a log line was present tense
    catalog = {k: v for where, v in _strings("ja") for k in [where.split("/", 1)[1]] if k.startswith(prefix)}
    assert len(catalog) > 10
    assert {k: v for k, v in catalog.items() if re.search(r"ます[。（]", v)} == {}
    english = {k: v for where, v in _strings("en") for k in [where.split("/", 1)[1]] if k.startswith(prefix)}
    assert {k: v for k, v in english.items() if re.search(r"\} (?:takes|pays|owes|buys) ", v)} == {}


@pytest.mark.parametrize("lang, nobody, everyone, some", [
    ("en", "Everyone refused the offer.", "Everyone accepted the offer.", "Accepted by Ann; refused by Bob, Cyd."),
    ("ja", "全員が申し出を断りました。", "全員が申し出を受けました。", "Annが申し出を受け、Bob、Cydが断りました。"),
])
def test_catan_express_trade_answers_read_well_however_they_fall(lang, nobody, everyone, some):
    names = ["Ann", "Bob", "Cyd", "Dee"]

    def answers(yes, no):
        return translate(lang, "catan_express.ev.answers", {"accepted_seats": yes, "refused_seats": no,
                                                 "accepted_count": len(yes), "refused_count": len(no)}, names)
    assert answers([], [0, 1, 2]) == nobody
    assert answers([0, 1, 2], []) == everyone
    assert answers([0], [1, 2]) == some


def test_the_rules_catch_what_they_are_meant_to_catch():
    # The wording rules above pass on the catalogs; here each one is shown to bite.
    samples = {r"(?:\}|\d\d)つ": "駅を{count}つ接続", SHOGI: "手を指しました",
               rf"(?:{JAPANESE}|\}})\x20[{PARTICLES}](?={JAPANESE}|\{{)": "{seat} が山札から引きました"}
    for pattern, text in samples.items():
        assert re.search(pattern, text), pattern
    assert re.search(SHOGI, "ボットが代わりに指します") and re.search(SHOGI, "{game} — 棋譜")
    assert re.search(SHOGI, "（{game}、{moves} 手）") and not re.search(SHOGI, "残り{count}手番")
    assert not re.search(SHOGI, "もう半分の向きを指しています")
