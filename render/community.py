"""The server's leaderboard for a game as an image: rank, name, rating with its uncertainty,
games, wins and the recent trend, one row per player, legible when Discord shows it 400 px wide.

Drawn from plain data (bot/sessions/results.py Leaderboard, dumped), so it can be drawn in a
render worker. The trend is told by an arrow's shape and its sign as well as its colour (blue
up, orange down: apart for every kind of colour blindness)."""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from games.core.i18n import translate
from render.kit.encode import to_png
from render.kit.text import draw_text

WIDTH = 860
PAD = 26
ROW_H = 58
HEAD_H = 122
TEXT = 28
SMALL = 24
BACKGROUND = (247, 245, 240)
STRIPE = (236, 232, 223)
INK = (34, 34, 38)
MUTED = (96, 96, 104)
UP = (0, 94, 184)  # blue
DOWN = (196, 96, 0)  # orange
MEDALS = {1: (212, 165, 32), 2: (160, 166, 176), 3: (176, 110, 60)}
# column left edges (rank, name) and right edges (rating, games, wins, trend)
RANK_X, NAME_X, RATING_R, GAMES_R, WINS_R, TREND_R = PAD, PAD + 62, 545, 640, 720, WIDTH - PAD


def _arrow(draw: ImageDraw.ImageDraw, x: float, y: float, up: bool, colour: tuple[int, int, int]) -> None:
    size = 9
    points = [(x, y - size), (x - size, y + size), (x + size, y + size)] if up else \
        [(x, y + size), (x - size, y - size), (x + size, y - size)]
    draw.polygon(points, fill=colour)


def draw_leaderboard(board: dict[str, Any], title: str, lang: str) -> tuple[bytes, str]:
    """(PNG, alt text) of a leaderboard: `board` is a Leaderboard dumped, `title` the game's."""
    lines = board.get("lines") or []
    height = HEAD_H + max(1, len(lines)) * ROW_H + PAD
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw_text(img, (PAD, PAD), translate(lang, "render.stats.title", {"game": title}), 34, INK, bold=True,
              max_width=WIDTH - 2 * PAD)
    head_y = HEAD_H - 20
    for text, x, anchor in ((translate(lang, "render.stats.player"), NAME_X, "lm"),
                            (translate(lang, "render.stats.rating"), RATING_R, "rm"),
                            (translate(lang, "render.stats.games"), GAMES_R, "rm"),
                            (translate(lang, "render.stats.wins"), WINS_R, "rm"),
                            (translate(lang, "render.stats.trend"), TREND_R, "rm")):
        draw_text(img, (x, head_y), text, SMALL, MUTED, anchor=anchor)
    if not lines:
        draw_text(img, (PAD, HEAD_H + ROW_H / 2), translate(lang, "render.stats.empty"), TEXT, MUTED, anchor="lm")
    alt = []
    for i, line in enumerate(lines):
        top = HEAD_H + i * ROW_H
        mid = top + ROW_H / 2
        if i % 2 == 0:
            draw.rectangle((0, top, WIDTH, top + ROW_H), fill=STRIPE)
        rank = int(line["rank"])
        if rank in MEDALS:
            draw.ellipse((RANK_X, mid - 20, RANK_X + 40, mid + 20), fill=MEDALS[rank])
        draw_text(img, (RANK_X + 20, mid), str(rank), TEXT, INK, bold=True, anchor="mm")
        draw_text(img, (NAME_X, mid), str(line["name"]), TEXT, INK, anchor="lm", max_width=RATING_R - NAME_X - 150)
        rating = f"{line['rating']:.1f}"
        draw_text(img, (RATING_R - 66, mid), rating, TEXT, INK, bold=True, anchor="rm")
        draw_text(img, (RATING_R, mid), f"±{line['sigma']:.1f}", SMALL, MUTED, anchor="rm")
        draw_text(img, (GAMES_R, mid), str(line["games"]), TEXT, INK, anchor="rm")
        draw_text(img, (WINS_R, mid), str(line["wins"]), TEXT, INK, anchor="rm")
        trend = line.get("trend")
        if trend is None or abs(trend) < 0.05:
            draw_text(img, (TREND_R, mid), "–", TEXT, MUTED, anchor="rm")
        else:
            colour = UP if trend > 0 else DOWN
            right = draw_text(img, (TREND_R, mid), f"{trend:+.1f}", TEXT, colour, bold=True, anchor="rm")
            _arrow(draw, right[0] - 16, mid, trend > 0, colour)
        alt.append(translate(lang, "render.stats.alt_entry", {"rank": rank, "name": line["name"], "rating": rating,
                                                               "games": line["games"], "wins": line["wins"]}))
    description = translate(lang, "render.stats.alt", {"game": title, "entries": "; ".join(alt) or "—"})
    return to_png(img), description
