"""Alt text: whole sentences within Discord's limit, phrased from the catalogs in both languages."""
from games.core.i18n import translate
from render.kit.alt import (DISCORD_LIMIT, alt_text, board_heading, hand_heading, last_move_sentence,
                            ranking_sentence, scores_sentence)

NAMES = ["Alice", "Bob", "山田"]


def test_short_lines_are_joined_whole():
    assert alt_text(["Board of X.", "", "Scores: A 1 point.\nLast move: none."]) == \
        "Board of X. Scores: A 1 point. Last move: none."
    assert alt_text(["盤面。", "得点：A 1点。"]) == "盤面。得点：A 1点。"


def test_too_long_text_is_clipped_after_a_whole_sentence():
    lines = [f"Sentence number {i} says something about the board." for i in range(40)]
    text = alt_text(lines)
    assert len(text) <= DISCORD_LIMIT
    assert text.endswith("board.")
    assert len(text) > DISCORD_LIMIT - 60  # nothing dropped that would have fitted
    ja = alt_text(["山田が路線を引いた。" * 200], limit=100)
    assert len(ja) <= 100 and ja.endswith("。")


def test_one_sentence_over_the_limit_is_cut_at_a_word_with_an_ellipsis():
    text = alt_text(["word " * 400], limit=50)
    assert len(text) <= 50 and text.endswith("word…")
    assert alt_text([]) == ""


def test_phrases_name_players_and_use_real_plurals():
    en = " ".join([board_heading("en", "ticket_to_ride", 12, [0], NAMES),
                   scores_sentence("en", [(0, 30), (1, 1)], NAMES),
                   last_move_sentence("en", ["Bob drew a red card.", "Bob drew a locomotive."])])
    title = translate("en", "ticket_to_ride.title")
    assert en == (f"Board of {title}, turn 12. Waiting for Alice. Scores: Alice 30 points, Bob 1 point. "
                  "Last move: Bob drew a red card; Bob drew a locomotive.")
    assert "(s)" not in en


def test_japanese_phrases_use_counters_and_no_spaces_around_particles():
    ja = alt_text([board_heading("ja", "ginga", None, [2], NAMES), scores_sentence("ja", [(2, 10)], NAMES),
                   hand_heading("ja", 2, NAMES)])
    assert "山田の手番" in ja and "山田 10点" in ja and "山田の手札" in ja
    assert " の" not in ja and "の " not in ja and "10つ" not in ja


def test_ranking_lists_every_player_best_first_and_keeps_ties():
    en = ranking_sentence("en", "santa_fe", [(1, 2, 52), (2, 0, 40), (2, 1, 40)], NAMES)
    assert en.index("山田") < en.index("Alice") < en.index("Bob")
    assert en.count("#2") == 2 and "52 points" in en
    ja = ranking_sentence("ja", "santa_fe", [(1, 2, 52), (2, 0, 40)], NAMES)
    assert "1位 山田 52点" in ja and "2位 Alice 40点" in ja
    # Clipping never cuts inside a ranking entry.
    assert alt_text([en]) == en


def test_last_move_sentence_keeps_the_last_events_own_mark_and_adds_no_second_one():
    said = last_move_sentence("en", ["Bob placed a tile.", "Bob cannot place any track. Game over!"])
    assert said.endswith("Game over!") and "!." not in said
    assert last_move_sentence("en", ["Bob drew a card"]).endswith("drew a card.")
    ja = last_move_sentence("ja", ["ボブがタイルを置きました。", "ゲーム終了！"])
    assert ja.endswith("ゲーム終了！") and "！。" not in ja
