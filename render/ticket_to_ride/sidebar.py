"""The board's sidebar: whose turn, the players, the face-up row, the piles, the last move.

Everything here is drawn per move from public view fields. Type sizes are large on purpose:
Discord shows the board about 550 px wide, so a 1800 px image is scaled to under a third,
and the turn banner and the scores must still read there.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.models import TTRView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.palette import contrast_text
from render.kit.events import draw_events
from render.kit.text import draw_text, measure
from render.ticket_to_ride import icons, style
from render.ticket_to_ride.layout import BOARD_H, BOARD_W, SIDEBAR_X

PAD = 14
LEFT = SIDEBAR_X + PAD
RIGHT = BOARD_W - PAD
WIDTH = RIGHT - LEFT

BANNER_SIZE = 31
NAME_SIZE = 29
SCORE_SIZE = 38
STAT_SIZE = 27
LABEL_SIZE = 19
EVENT_SIZE = 20
EVENT_LINES = 4


def draw_sidebar(img: Image.Image, view: TTRView, names: Sequence[str], lang: str) -> None:
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, PAD)
    if view.final_round:
        y = _final_round(img, d, view, lang, y + 10)
    # Players take the room left above the cards, piles and last move (rows shrink for five
    # players); with few players the lower sections move up rather than leave a gap.
    y = _players(img, d, view, names, lang, y + 12, BOARD_H - PAD - BOTTOM_H - 10)
    _bottom_sections(img, d, view, names, lang, y + 12)


# --- top: whose turn ------------------------------------------------------------------------------
def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, names: Sequence[str], lang: str, top: int) -> int:
    height = 84
    box = (LEFT, top, RIGHT, top + height)
    sub = translate(lang, "render.turn_number", {"turn": view.turn + 1})
    if is_abandoned(view):
        bg = style.OVER_BG
        title = translate(lang, ABANDONED_KEY)
        sub = translate(lang, ABANDONED_SUB_KEY)
    elif view.phase == "over":
        # the winner is the news: big; "game over" goes underneath
        bg = style.OVER_BG
        title = translate(lang, "render.game_over")
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if winners:
            sub = title
            if len(winners) == 1:
                title = translate(lang, "render.winner", {"seat": winners[0]}, names)
            else:
                title = translate(lang, "render.winners", {"seats": winners}, names)
    elif view.phase == "choose":
        bg = style.OVER_BG
        title = translate(lang, "render.choosing_all")
    else:
        bg = style.player_rgb(view.current)
        title = translate(lang, "render.turn_of", {"seat": view.current}, names)
        if view.drew_one:
            sub = sub + " · " + translate(lang, "render.second_card_short")
    fg = contrast_text(bg)
    d.rounded_rectangle(box, 12, fill=bg)
    x = LEFT + 16
    if view.phase == "play" and not is_abandoned(view):
        icons.turn_arrow(d, (x, top + 30), 22, fg)
        x += 32
    draw_text(img, (x, top + 30), title, BANNER_SIZE, fg, bold=True, anchor="lm", max_width=RIGHT - 14 - x)
    draw_text(img, (LEFT + 16, top + 66), sub, LABEL_SIZE + 1, fg, anchor="lm", max_width=WIDTH - 32)
    return top + height


def _final_round(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, lang: str, top: int) -> int:
    height = 50
    d.rounded_rectangle((LEFT, top, RIGHT, top + height), 12, fill=style.FINAL_BG)
    if view.turns_left is not None:
        text = translate(lang, "render.final_round_left", {"count": view.turns_left})
    else:
        text = translate(lang, "render.final_round")
    draw_text(img, ((LEFT + RIGHT) // 2, top + height // 2), text, 26, (255, 255, 255), bold=True,
              anchor="mm", max_width=WIDTH - 20)
    return top + height


# --- middle: the players -----------------------------------------------------------------------------
def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, names: Sequence[str], lang: str,
             top: int, bottom: int) -> int:
    """One row per player between top and (at most) bottom; returns where the rows end."""
    n = len(view.players)
    gap = 8
    legend_h = 28
    row_h = min(112, (bottom - top - legend_h - gap * n) // max(n, 1))
    active = set(view.active) if view.phase != "over" and not is_abandoned(view) else set()
    scores = {p.seat: p.total for p in view.result.players} if view.result else {}
    y = top
    for p in view.players:
        colour = style.player_rgb(p.seat)
        is_active = p.seat in active
        box = (LEFT, y, RIGHT, y + row_h)
        if is_active:
            tint = tuple(int(255 - (255 - c) * 0.18) for c in colour)
            d.rounded_rectangle(box, 12, fill=tint, outline=colour, width=5)
        else:
            d.rounded_rectangle(box, 12, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
        # colour swatch: a train car in the player's colour
        d.rounded_rectangle((LEFT + 10, y + 12, LEFT + 26, y + row_h - 12), 5, fill=colour,
                            outline=style.CLAIM_OUTLINE, width=2)
        name_x = LEFT + 38
        score = scores.get(p.seat, p.route_points)
        score_text = style.signed(score)
        sw, _ = measure(score_text, SCORE_SIZE, True)
        draw_text(img, (RIGHT - 14, y + 8), score_text, SCORE_SIZE, style.TEXT, bold=True, anchor="ra")
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        draw_text(img, (name_x, y + row_h * 0.30), name, NAME_SIZE, style.TEXT, bold=True, anchor="lm",
                  max_width=RIGHT - 24 - sw - name_x)
        # stats line
        sy = y + row_h * 0.73
        x = name_x
        for icon, value in ((icons.train, p.trains), (icons.cards, p.card_count), (icons.ticket, p.ticket_count)):
            x = icon(d, (x, sy), 28, colour) + 6
            x = draw_text(img, (x, sy), str(value), STAT_SIZE, style.TEXT, bold=True, anchor="lm")[2] + 18
        if p.choosing and view.phase != "over" and not is_abandoned(view):
            tag = translate(lang, "render.choosing")
            tw, _ = measure(tag, LABEL_SIZE, True)
            tx1 = RIGHT - 12
            tx0 = tx1 - tw - 20
            if tx0 > x - 10:
                d.rounded_rectangle((tx0, sy - 15, tx1, sy + 15), 15, fill=style.CHOOSING_BG)
                draw_text(img, ((tx0 + tx1) // 2, sy), tag, LABEL_SIZE, (255, 255, 255), bold=True, anchor="mm")
        y += row_h + gap
    _legend(img, d, lang, y + 2)
    return y + legend_h


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, lang: str, y: int) -> None:
    x = LEFT + 4
    cy = y + 12
    grey = style.MUTED_TEXT
    for icon, key in ((icons.train, "render.trains"), (icons.cards, "render.cards"), (icons.ticket, "render.tickets")):
        x = icon(d, (x, cy), 18, grey) + 5
        x = draw_text(img, (x, cy), translate(lang, key), 17, grey, anchor="lm")[2] + 16
    draw_text(img, (RIGHT - 4, cy), translate(lang, "render.points"), 17, grey, anchor="rm")


# --- bottom: cards, piles, last move ---------------------------------------------------------------------
EVENT_LINE_H = EVENT_SIZE + 7
FACE_UP_H, PILES_H, LAST_MOVE_H = 84, 62, 28 + EVENT_LINES * EVENT_LINE_H
BOTTOM_H = FACE_UP_H + 14 + PILES_H + 16 + LAST_MOVE_H


def _bottom_sections(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, names: Sequence[str], lang: str,
                     top: int) -> None:
    """The face-up row, the piles and the last move, from `top` down (BOTTOM_H tall)."""
    _face_up(img, d, view, lang, top)
    piles_top = top + FACE_UP_H + 14
    _piles(img, d, view, lang, piles_top)
    _last_move(img, view, names, lang, piles_top + PILES_H + 16, EVENT_LINE_H)


def _face_up(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, lang: str, top: int) -> None:
    draw_text(img, (LEFT, top), translate(lang, "render.face_up"), LABEL_SIZE, style.MUTED_TEXT, bold=True)
    n = max(len(view.face_up), 1)
    gap = 10
    w = (WIDTH - gap * (n - 1)) / n
    y0, y1 = top + 30, top + 84
    for i, colour in enumerate(view.face_up):
        x0 = LEFT + i * (w + gap)
        icons.card_face(d, (int(x0), y0, int(x0 + w), y1), colour)


def _piles(img: Image.Image, d: ImageDraw.ImageDraw, view: TTRView, lang: str, top: int) -> None:
    items = (
        (icons.deck, "render.deck", view.deck_size),
        (icons.discard, "render.discard", view.discard_size),
        (icons.ticket_pile, "render.tickets", view.ticket_deck_size),
    )
    w = WIDTH / len(items)
    for i, (icon, key, count) in enumerate(items):
        x0 = int(LEFT + i * w)
        icon(d, (x0, top + 8, x0 + 34, top + 54))
        draw_text(img, (x0 + 44, top + 16), translate(lang, key), 17, style.MUTED_TEXT, anchor="lm",
                  max_width=int(w) - 48)
        draw_text(img, (x0 + 44, top + 44), str(count), 28, style.TEXT, bold=True, anchor="lm")


def _last_move(img: Image.Image, view: TTRView, names: Sequence[str], lang: str, top: int, line_h: int) -> None:
    draw_events(img, view.last, names, lang, title=translate(lang, "render.last_move"), left=LEFT, top=top,
                width=WIDTH, room=EVENT_LINES, line_h=line_h, title_size=LABEL_SIZE, size=EVENT_SIZE,
                title_colour=style.MUTED_TEXT, colour=style.TEXT)
