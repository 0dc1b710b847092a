"""A server's rankings as images, one row per player, legible when Discord shows them 400 px
wide: a game's leaderboard (rank, name, rating with its uncertainty, games, wins, the recent
trend) and a league's standings (rank, name, points, games, wins, average place, forfeits).

Drawn from plain data (bot/sessions/results.py Leaderboard, bot/sessions/standings.py
Standings, dumped), so they can be drawn in a render worker. The trend is told by an arrow's shape and its sign as well as its colour (blue
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


SUBTITLE_H = 40  # what a subtitle adds to the head


def _frame(title: str, headers: list[tuple[str, float, str]], rows: int, empty: str,
           subtitle: str | None = None) -> tuple[Image.Image, int]:
    """The image of a ranking of `rows` rows and where its rows begin: its title (and
    subtitle), the column heads (text, x, anchor) and the rows' stripes; `empty` said when
    there are none."""
    head = HEAD_H + (SUBTITLE_H if subtitle else 0)
    img = Image.new("RGB", (WIDTH, head + max(1, rows) * ROW_H + PAD), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw_text(img, (PAD, PAD), title, 34, INK, bold=True, max_width=WIDTH - 2 * PAD)
    if subtitle:
        draw_text(img, (PAD, PAD + 50), subtitle, TEXT, MUTED, max_width=WIDTH - 2 * PAD)
    for text, x, anchor in headers:
        draw_text(img, (x, head - 20), text, SMALL, MUTED, anchor=anchor)
    if not rows:
        draw_text(img, (PAD, head + ROW_H / 2), empty, TEXT, MUTED, anchor="lm")
    for i in range(0, rows, 2):
        draw.rectangle((0, head + i * ROW_H, WIDTH, head + (i + 1) * ROW_H), fill=STRIPE)
    return img, head


def _rank_and_name(img: Image.Image, top: float, rank: int, name: str, name_right: float) -> float:
    """A row's rank (a medal behind the first three) and name; returns the row's middle."""
    mid = top + ROW_H / 2
    if rank in MEDALS:
        ImageDraw.Draw(img).ellipse((RANK_X, mid - 20, RANK_X + 40, mid + 20), fill=MEDALS[rank])
    draw_text(img, (RANK_X + 20, mid), str(rank), TEXT, INK, bold=True, anchor="mm")
    draw_text(img, (NAME_X, mid), name, TEXT, INK, anchor="lm", max_width=name_right - NAME_X)
    return mid


def draw_leaderboard(board: dict[str, Any], title: str, lang: str) -> tuple[bytes, str]:
    """(PNG, alt text) of a leaderboard: `board` is a Leaderboard dumped, `title` the game's."""
    lines = board.get("lines") or []
    img, head = _frame(translate(lang, "render.stats.title", {"game": title}),
                 [(translate(lang, "render.stats.player"), NAME_X, "lm"),
                  (translate(lang, "render.stats.rating"), RATING_R, "rm"),
                  (translate(lang, "render.stats.games"), GAMES_R, "rm"),
                  (translate(lang, "render.stats.wins"), WINS_R, "rm"),
                  (translate(lang, "render.stats.trend"), TREND_R, "rm")],
                 len(lines), translate(lang, "render.stats.empty"))
    draw = ImageDraw.Draw(img)
    alt = []
    for i, line in enumerate(lines):
        rank = int(line["rank"])
        mid = _rank_and_name(img, head + i * ROW_H, rank, str(line["name"]), RATING_R - 150)
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


# the standings' columns, by their right edges: points, games, wins, average place
POINTS_R, PLAYED_R, WON_R, PLACE_R = 510, 600, 690, WIDTH - PAD


def draw_standings(standings: dict[str, Any], game_title: str, lang: str) -> tuple[bytes, str]:
    """(PNG, alt text) of a league's standings: `standings` is a Standings dumped. A player's
    forfeits are said after their name, in words."""
    lines = standings.get("lines") or []
    round_no, rounds = int(standings.get("round") or 0), int(standings.get("rounds") or 0)
    # The standings are posted when a round ends and shown by /stats at any time: the stage says
    # which round the league is in, not that it has ended.
    stage_key = ("render.league.final" if standings.get("status") == "finished"
                 else "render.league.round" if round_no else "render.league.signup")
    stage = translate(lang, stage_key, {"round": round_no, "rounds": rounds})
    title = str(standings.get("name", ""))
    subtitle = translate(lang, "render.league.subtitle", {"game": game_title, "stage": stage})
    img, head = _frame(title,
                 [(translate(lang, "render.stats.player"), NAME_X, "lm"),
                  (translate(lang, "render.league.points"), POINTS_R, "rm"),
                  (translate(lang, "render.stats.games"), PLAYED_R, "rm"),
                  (translate(lang, "render.stats.wins"), WON_R, "rm"),
                  (translate(lang, "render.league.place"), PLACE_R, "rm")],
                 len(lines), translate(lang, "render.league.empty"), subtitle)
    alt = []
    for i, line in enumerate(lines):
        rank = int(line["rank"])
        forfeits = int(line.get("forfeits") or 0)
        name_right = POINTS_R - 80
        if forfeits:
            note = translate(lang, "render.league.forfeits", {"count": forfeits})
            box = draw_text(img, (name_right, head + i * ROW_H + ROW_H / 2), note, SMALL, DOWN, anchor="rm")
            name_right = box[0] - 12
        mid = _rank_and_name(img, head + i * ROW_H, rank, str(line["name"]), name_right)
        draw_text(img, (POINTS_R, mid), str(line["points"]), TEXT, INK, bold=True, anchor="rm")
        draw_text(img, (PLAYED_R, mid), str(line["played"]), TEXT, INK, anchor="rm")
        draw_text(img, (WON_R, mid), str(line["wins"]), TEXT, INK, anchor="rm")
        average = line.get("average_place")
        draw_text(img, (PLACE_R, mid), "–" if average is None else f"{average:.1f}", TEXT,
                  INK if average is not None else MUTED, anchor="rm")
        alt.append(translate(lang, "render.league.alt_entry", {
            "rank": rank, "name": line["name"], "points": line["points"], "games": line["played"],
            "wins": line["wins"], "forfeits": forfeits}))
    description = translate(lang, "render.league.alt", {"title": f"{title} ({subtitle})",
                                                         "entries": "; ".join(alt) or "—"})
    return to_png(img), description
