"""The leaderboard image (render/community.py): every text legible at 400 px, names of any
script drawn, long names cut rather than run into the rating."""
from __future__ import annotations

import io

from PIL import Image

from render.community import WIDTH, draw_leaderboard, draw_standings
from render.kit.legibility import recording_text_sizes


def _lines(names):
    return [dict(rank=i + 1, user_id=str(i), name=n, rating=30 - 2.5 * i, sigma=7.5 - 0.4 * i, games=20 - i,
                 wins=9 - i, trend=[1.4, -0.7, None][i % 3]) for i, n in enumerate(names)]


def test_every_text_is_legible_at_400_px_in_both_languages() -> None:
    names = ["Alice", "山田太郎", "A player with a very long display name indeed", "ゆき", "Bob"]
    for lang, title in (("en", "Ticket to Ride — USA"), ("ja", "チケット・トゥ・ライド アメリカ")):
        with recording_text_sizes() as sizes:
            png, alt = draw_leaderboard({"lines": _lines(names)}, title, lang)
        image = Image.open(io.BytesIO(png))
        assert image.width == WIDTH and sizes.smallest_at(image.width) >= 11
        assert all(n in alt for n in ("Alice", "山田太郎", "ゆき"))
        drawn = [text for _, text in sizes.drawn]
        assert not any("very long display name indeed" in t for t in drawn)  # cut with an ellipsis


def test_an_empty_board_says_so() -> None:
    with recording_text_sizes() as sizes:
        png, alt = draw_leaderboard({"lines": []}, "Steam", "en")
    assert any("No rated games" in text for _, text in sizes.drawn) and Image.open(io.BytesIO(png)).height > 100


def _standing(names, forfeits=()):
    return [dict(rank=i + 1, user_id=str(i), name=n, points=12 - 2 * i, played=3, wins=max(0, 2 - i),
                 forfeits=1 if i in forfeits else 0, average_place=None if i == len(names) - 1 else 1.2 + 0.5 * i)
            for i, n in enumerate(names)]


def test_league_standings_are_legible_and_say_forfeits_in_words() -> None:
    names = ["Alice", "山田太郎", "A player with a very long display name indeed", "ゆき", "Bob"]
    for lang, title, word in (("en", "Ticket to Ride — USA", "1 forfeit"), ("ja", "チケット・トゥ・ライド — USA", "棄権1回")):
        standings = {"name": "Autumn Cup", "round": 1, "rounds": 3, "status": "playing",
                     "lines": _standing(names, forfeits=(2,))}
        with recording_text_sizes() as sizes:
            png, alt = draw_standings(standings, title, lang)
        image = Image.open(io.BytesIO(png))
        assert image.width == WIDTH and sizes.smallest_at(image.width) >= 11
        drawn = [text for _, text in sizes.drawn]
        assert word in drawn and "Autumn Cup" in drawn
        stage = {"en": "round 1 of 3", "ja": "第1ラウンド（全3ラウンド）"}[lang]
        assert any(stage in t for t in drawn)  # the round being played, not "after" it
        assert not any("very long display name indeed" in t for t in drawn)  # cut before the forfeit note
        assert all(n in alt for n in ("Alice", "山田太郎", "ゆき")) and word.split()[0] in alt
    with recording_text_sizes() as sizes:
        draw_standings({"name": "Cup", "round": 3, "rounds": 3, "status": "finished", "lines": []}, "Steam", "en")
    drawn = [text for _, text in sizes.drawn]
    assert any("final standings" in t for t in drawn) and any("Nobody has joined" in t for t in drawn)
    with recording_text_sizes() as sizes:
        draw_standings({"name": "Cup", "round": 0, "rounds": 3, "status": "playing", "lines": []}, "Steam", "ja")
    assert any("参加受付中" in text for _, text in sizes.drawn)
