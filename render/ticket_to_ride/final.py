"""The end of a Ticket to Ride game, the picture attached to the final post: the ranking,
every player's score after each turn, each player's tickets (✓ completed, × failed, with
their points), and a small map with the longest path ringed.

Drawn 1400 px wide with type of 25 px and more, like the board, so it reads when Discord
shows it shrunk. The small map carries no names (it would need type too small to read):
the board posted beside it has the same routes with every city named.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import TicketView, TicketToRideView
from render.kit.chart import score_timeline
from render.kit.ranking import (RankEntry, RankingLook, draw_notes, draw_rank_row, ending_on_totals, notes_height,
                                tie_notes)
from render.kit.text import draw_text, measure
from render.ticket_to_ride import icons, style
from render.kit.highlight import halo_lines
from render.ticket_to_ride.board import claimed_patch, render_map, route_line
from render.ticket_to_ride.layout import CLAIMED_W, MAP_H, MAP_W, board_layout

WIDTH = 1400
PAD = 28
TEXT = 25  # 7 px when shown 400 px wide
LOOK = RankingLook(background=style.SIDEBAR_BG, panel=style.PANEL, panel_edge=style.PANEL_EDGE, text=style.TEXT,
                   muted=style.MUTED_TEXT, swatch_outline=style.CLAIM_OUTLINE, width=WIDTH, pad=PAD,
                   title_size=44, subtitle_size=TEXT, row_h=84, rank_size=32, total_size=44, stats_size=TEXT + 1,
                   swatch_x=88, name_x=128)
CHART_H = 440
ROW_TILE_W = 34  # drawn over the kit's narrower swatch: room for the seat's shape
MINI_W = 520
MINI_H = round(MAP_H * MINI_W / MAP_W)
PILL_H = 40
PILL_GAP = 8
DONE_MARK, FAILED_MARK = "✓", "×"

__all__ = ["render_final", "longest_holders", "longest_map", "timeline"]


def render_final(view: TicketToRideView, names: Sequence[str], lang: str = "en") -> Image.Image:
    result = view.result
    if result is None:
        raise ValueError("the game is not over: the view has no result")
    rows = list(result.players)
    tickets_w = WIDTH - 2 * PAD - MINI_W - 24
    tickets_h = _tickets_height(view, rows, names, lang, tickets_w)
    top = PAD + LOOK.header_h
    notes = tie_notes(result, lang, names)
    ranking_h = len(rows) * (LOOK.row_h + LOOK.row_gap) + notes_height(LOOK, notes, lang)
    details_top = top + ranking_h + 20 + CHART_H + 30
    height = details_top + max(tickets_h, 44 + MINI_H) + PAD
    img = Image.new("RGB", (WIDTH, height), style.SIDEBAR_BG)
    d = ImageDraw.Draw(img)
    title = translate(lang, "ticket_to_ride.render.ranking")
    draw_text(img, (PAD, PAD + LOOK.title_y), title, LOOK.title_size, style.TEXT, bold=True, anchor="lm")
    reason = f"{result.label_prefix or 'ttr'}.ev.game_over_{result.reason}"
    if has_key(lang, reason):
        draw_text(img, (WIDTH - PAD, PAD + LOOK.title_y), translate(lang, reason), TEXT, style.MUTED_TEXT,
                  anchor="rm", max_width=WIDTH - 2 * PAD - measure(title, LOOK.title_size, True)[0] - 30)
    y = top
    for row in rows:
        draw_rank_row(img, d, LOOK, RankEntry(rank=row.rank, colour=style.player_rgb(row.seat),
                                              name=_name(names, row.seat), stats=_stats_line(row, lang),
                                              total=style.signed(row.total)), y)
        # over the kit's swatch: the seat's tile with the shape its routes and chart line carry
        x = PAD + LOOK.swatch_x - ROW_TILE_W // 2 + 8
        icons.seat_tile(d, (x, y + 14, x + ROW_TILE_W, y + LOOK.row_h - 14), row.seat)
        y += LOOK.row_h + LOOK.row_gap
    y = draw_notes(img, LOOK, notes, y, lang)
    img.paste(timeline(view, names, lang, (WIDTH - 2 * PAD, CHART_H)), (PAD, y + 20))
    _tickets(img, d, view, rows, names, lang, (PAD, details_top), tickets_w)
    _mini_map(img, view, result, names, lang, (WIDTH - PAD - MINI_W, details_top))
    return img


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"#{seat + 1}"


def _stats_line(row, lang: str) -> str:
    stats = row.stats or {}
    parts = []
    if "completed" in stats and "failed" in stats:
        done, failed = stats["completed"], stats["failed"]
        parts.append(translate(lang, "ticket_to_ride.render.tickets_done_short", {"done": done, "total": done + failed}))
    if "longest" in stats:
        parts.append(translate(lang, "ticket_to_ride.render.longest", {"length": stats["longest"]}))
    return " · ".join(parts)


def timeline(view: TicketToRideView, names: Sequence[str], lang: str, size: tuple[int, int]) -> Image.Image:
    """Each seat's route points after every turn, then the final score (tickets and the
    longest-path bonus count only at the end, TTR-9): the last point is the ranking's total."""
    history = ending_on_totals(view.history, view.result, view.n)
    series = [(_name(names, seat), style.player_rgb(seat), [row[seat] for row in history]) for seat in range(view.n)]
    return score_timeline(series, size, title=translate(lang, "ticket_to_ride.render.score_over_time"),
                          final=translate(lang, "render.kit.final_score"), markers=icons.SYMBOLS.seats)


# --- each player's tickets ------------------------------------------------------------------------------
def _ticket_label(t: TicketView, lang: str) -> str:
    board = usa()
    mark = DONE_MARK if t.completed else FAILED_MARK
    points = t.points if t.completed else -t.points
    return f"{mark} {board.city_label(t.a, lang)}–{board.city_label(t.b, lang)} {style.signed(points)}"


def _flow(labels: Sequence[str], width: int) -> list[list[tuple[str, int]]]:
    """Pills (label, width) in rows no wider than `width`."""
    rows: list[list[tuple[str, int]]] = [[]]
    used = 0
    for label in labels:
        w = min(width, measure(label, TEXT, True)[0] + 24)
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0
        rows[-1].append((label, w))
        used += w + PILL_GAP
    return [r for r in rows if r]


def _player_tickets(view: TicketToRideView, seat: int) -> list[TicketView]:
    tickets = view.players[seat].tickets or []
    return sorted(tickets, key=lambda t: (not t.completed, -t.points))


def _tickets_height(view: TicketToRideView, rows, names, lang: str, width: int) -> int:
    h = 44
    for row in rows:
        labels = [_ticket_label(t, lang) for t in _player_tickets(view, row.seat)]
        h += 40 + max(1, len(_flow(labels, width))) * (PILL_H + PILL_GAP) + 10
    return h


def _tickets(img: Image.Image, d: ImageDraw.ImageDraw, view: TicketToRideView, rows, names: Sequence[str], lang: str,
             at: tuple[int, int], width: int) -> None:
    x0, y = at
    draw_text(img, (x0, y), translate(lang, "ticket_to_ride.render.tickets_title"), TEXT + 3, style.TEXT, bold=True)
    y += 44
    for row in rows:
        icons.seat_tile(d, (x0, y + 3, x0 + 32, y + 35), row.seat)
        draw_text(img, (x0 + 42, y + 19), _name(names, row.seat), TEXT + 1, style.TEXT, bold=True, anchor="lm",
                  max_width=width - 42)
        y += 40
        tickets = _player_tickets(view, row.seat)
        if not tickets:
            draw_text(img, (x0, y + PILL_H / 2), translate(lang, "ticket_to_ride.render.no_tickets"), TEXT, style.MUTED_TEXT,
                      anchor="lm")
            y += PILL_H + PILL_GAP + 10
            continue
        by_label = {_ticket_label(t, lang): t for t in tickets}
        for pill_row in _flow(list(by_label), width):
            x = x0
            for label, w in pill_row:
                done = bool(by_label[label].completed)
                fill, edge = (style.DONE_BG, style.DONE) if done else (style.FAILED_BG, style.FINAL_BG)
                d.rounded_rectangle((x, y, x + w, y + PILL_H), PILL_H // 2, fill=fill, outline=edge, width=2)
                draw_text(img, (x + 12, y + PILL_H / 2), label, TEXT, style.TEXT, bold=True, anchor="lm",
                          max_width=w - 20)
                x += w + PILL_GAP
            y += PILL_H + PILL_GAP
        y += 10


# --- the longest path ------------------------------------------------------------------------------------
def longest_holders(result: Result) -> list[int]:
    """The seats that scored the longest-path bonus."""
    return [row.seat for row in result.players if (row.stats or {}).get("longest_bonus")]


def longest_map(view: TicketToRideView, routes: Sequence[tuple[int, int]], width: int) -> Image.Image:
    """The map without names, every other route faded, the longest path ringed on top: at a
    third of the board's size the path must still jump out."""
    full = render_map(view, None)
    faded = Image.blend(full, Image.new("RGB", full.size, style.MAP_BG), 0.62)
    layout = board_layout()
    halo_lines(faded, [route_line(layout.routes[r].cars) for r, _ in routes], CLAIMED_W * 1.6)
    for route, seat in routes:
        patch, offset = claimed_patch(route, seat)
        faded.paste(patch, offset, patch)
    return faded.resize((width, round(MAP_H * width / MAP_W)), Image.Resampling.LANCZOS)


def _mini_map(img: Image.Image, view: TicketToRideView, result: Result, names: Sequence[str], lang: str,
              at: tuple[int, int]) -> None:
    x, y = at
    holders = longest_holders(result)
    if holders:
        title = translate(lang, "ticket_to_ride.render.longest_of",
                          {"seats": holders, "length": view.players[holders[0]].longest}, names)
    else:
        title = translate(lang, "ticket_to_ride.render.longest_title")
    draw_text(img, (x, y), title, TEXT + 3, style.TEXT, bold=True, max_width=MINI_W)
    routes = [(r, seat) for seat in holders for r in view.players[seat].longest_routes]
    img.paste(longest_map(view, routes, MINI_W), (x, y + 44))
    ImageDraw.Draw(img).rectangle((x - 1, y + 43, x + MINI_W, y + 44 + MINI_H), outline=style.PANEL_EDGE, width=2)
