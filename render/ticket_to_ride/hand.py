"""A player's private Ticket to Ride hand: cards by colour, tickets, tickets on offer, trains.

Shown only in an ephemeral reply, and drawn only from a view made for that player: a
spectator view (viewer None) or a view whose hand was stripped is refused.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import PlayerView, TicketView, TicketToRideView
from render.kit.palette import contrast_text
from render.kit.text import draw_text, fit_size, measure
from render.ticket_to_ride import icons, style
from render.ticket_to_ride.board import render_map
from render.ticket_to_ride.layout import MAP_H, MAP_W, board_layout

WIDTH = 1000
PAD = 24
MARK_R = 15  # the seat's shape in the header, left of the title
MARK_X = PAD + 22 + MARK_R
HEADER_H = 76
CARD_W, CARD_H = 84, 118
CARD_GAP = 18
TICKET_H = 62
TICKET_GAP = 12
COLUMNS = 2
# The map runs edge to edge: its 25 px city names shrink to 18 px here, which is still 7 px
# when the hand is shown 400 px wide.
MAP_WIDTH = WIDTH
MAP_HEIGHT = round(MAP_H * MAP_WIDTH / MAP_W)
OFFER_MARKS = "ABCDEFG"


def render_hand(view: TicketToRideView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("render_hand needs the player's own view, not a spectator view")
    me = view.players[view.viewer]
    if me.hand is None:
        raise ValueError("this view does not include the viewer's hand")
    offered = me.offered or []
    tickets = me.tickets or []
    # Drawn on a canvas tall enough for everything, then cut to what was used.
    height = (
        PAD + 76 + 24 + 44 + CARD_H + 64
        + 24 + 44 + _tickets_height(len(offered))
        + 20 + 44 + _tickets_height(max(len(tickets), 1))
        + 20 + 44 + MAP_HEIGHT + PAD
    )
    img = Image.new("RGB", (WIDTH, height), style.SIDEBAR_BG)
    d = ImageDraw.Draw(img)
    y = _header(img, d, me, names, lang)
    y = _cards(img, d, me, lang, y + 24)
    if offered:
        y = _section_title(img, translate(lang, "ticket_to_ride.render.offered", {"keep_min": me.keep_min}), y + 24,
                           style.CHOOSING_BG)
        y = _tickets(img, d, offered, lang, y, marks=OFFER_MARKS, highlight=True, over=False)
    title = translate(lang, "ticket_to_ride.render.your_tickets")
    y = _section_title(img, title, y + 20, style.TEXT, _ticket_summary(tickets, lang))
    over = view.phase == "over"
    if tickets:
        y = _tickets(img, d, tickets, lang, y, marks=None, highlight=False, over=over)
    else:
        draw_text(img, (PAD, y + 24), translate(lang, "ticket_to_ride.render.no_tickets"), 22, style.MUTED_TEXT, anchor="lm")
        y += _tickets_height(1)
    if tickets or offered:
        y = _section_title(img, translate(lang, "ticket_to_ride.render.tickets_on_map"), y + 20, style.TEXT)
        y = _ticket_map(img, view, tickets, offered, lang, y, over)
    return img.crop((0, 0, WIDTH, min(height, y + PAD)))


def _mark(i: int, marks: str | None) -> str:
    return marks[i] if marks else str(i + 1)


def _badge_colour(t: TicketView, offered: bool, over: bool):
    if offered:
        return style.CHOOSING_BG
    if t.completed:
        return style.DONE
    if over and t.completed is False:
        return style.FINAL_BG
    return style.TICKET_INK


def _ticket_map(img: Image.Image, view: TicketToRideView, tickets: list[TicketView], offered: list[TicketView],
                lang: str, top: int, over: bool) -> int:
    """The board (with everyone's trains) and each ticket's two cities marked with its badge."""
    mw, mh = MAP_WIDTH, MAP_HEIGHT
    scale = mw / MAP_W
    small = render_map(view, lang, mw)
    overlay = Image.new("RGBA", small.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    cities = board_layout().cities
    marks: list[tuple[str, str, tuple[int, int, int]]] = []
    for group, is_offer in ((tickets, False), (offered, True)):
        for i, t in enumerate(group):
            colour = _badge_colour(t, is_offer, over)
            label = _mark(i, OFFER_MARKS if is_offer else None)
            (ax, ay), (bx, by) = cities[t.a], cities[t.b]
            od.line([(ax * scale, ay * scale), (bx * scale, by * scale)], fill=(*colour, 110), width=4)
            marks.append((t.a, label, colour))
            marks.append((t.b, label, colour))
    small = Image.alpha_composite(small.convert("RGBA"), overlay).convert("RGB")
    d = ImageDraw.Draw(small)
    per_city: dict[str, int] = {}
    r = 15
    for city, label, colour in marks:
        k = per_city.get(city, 0)
        per_city[city] = k + 1
        x, y = cities[city]
        cx, cy = x * scale + k * (2 * r - 4), y * scale  # a second ticket's badge sits beside the first
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour, outline=(255, 255, 255), width=2)
        draw_text(small, (cx, cy), label, 20, (255, 255, 255), bold=True, anchor="mm")
    img.paste(small, (0, top))
    ImageDraw.Draw(img).line((0, top - 1, WIDTH, top - 1), fill=style.PANEL_EDGE, width=1)
    return top + mh


def _header(img: Image.Image, d: ImageDraw.ImageDraw, me: PlayerView, names: Sequence[str], lang: str) -> int:
    colour = style.player_rgb(me.seat)
    fg = contrast_text(colour)
    top, bottom = PAD, PAD + HEADER_H
    d.rounded_rectangle((PAD, top, WIDTH - PAD, bottom), 14, fill=colour)
    trains = translate(lang, "ticket_to_ride.render.trains_left", {"count": me.trains})
    tw, _ = measure(trains, 26, True)
    right = WIDTH - PAD - 20
    draw_text(img, (right, (top + bottom) // 2), trains, 26, fg, bold=True, anchor="rm")
    icons.train(d, (right - tw - 52, (top + bottom) // 2 + 2), 32, (255, 255, 255))
    # the seat's shape, as on its trains on the map below and beside its name on the board
    icons.owner_mark(d, (MARK_X, (top + bottom) / 2), MARK_R, me.seat, 3)
    left = MARK_X + MARK_R + 14
    title = translate(lang, "ticket_to_ride.render.hand_of", {"seat": me.seat}, names)
    draw_text(img, (left, (top + bottom) // 2), title, 32, fg, bold=True, anchor="lm",
              max_width=right - tw - 72 - left)
    return bottom


def _section_title(img: Image.Image, text: str, y: int, colour, note: str | None = None) -> int:
    draw_text(img, (PAD, y + 18), text, 26, colour, bold=True, anchor="lm", max_width=WIDTH - 2 * PAD)
    if note:
        draw_text(img, (WIDTH - PAD, y + 18), note, 20, style.MUTED_TEXT, anchor="rm")
    return y + 44


def _cards(img: Image.Image, d: ImageDraw.ImageDraw, me: PlayerView, lang: str, y: int) -> int:
    hand = me.hand or {}
    total = sum(hand.values())
    y = _section_title(img, translate(lang, "ticket_to_ride.render.train_cards"), y, style.TEXT,
                       translate(lang, "ticket_to_ride.render.card_total", {"count": total}))
    kinds = [c for c in usa().card_colors if hand.get(c, 0) > 0]
    if not kinds:
        draw_text(img, (PAD, y + CARD_H // 2), translate(lang, "ticket_to_ride.render.no_cards"), 22, style.MUTED_TEXT, anchor="lm")
        return y + CARD_H + 64
    step = min(CARD_W + CARD_GAP, (WIDTH - 2 * PAD - CARD_W) // max(len(kinds) - 1, 1))
    x = PAD
    for colour in kinds:
        count = hand[colour]
        # a small stack: the edge of one more card shows behind for each extra card (up to 3)
        for k in range(min(count, 4) - 1, 0, -1):
            icons.card_face(d, (x + k * 4, y + k * 4, x + CARD_W + k * 4, y + CARD_H + k * 4), colour)
        icons.lettered_card(img, (x, y, x + CARD_W, y + CARD_H), colour, lang, 34)
        # the count on a dark badge over the card's foot, the colour's name under it
        cx, by, badge_r = x + CARD_W // 2 + 6, y + CARD_H + 18, 22
        d.ellipse((cx - badge_r, by - badge_r, cx + badge_r, by + badge_r), fill=style.TEXT)
        draw_text(img, (cx, by), str(count), 26, (255, 255, 255), bold=True, anchor="mm")
        caption = translate(lang, f"ticket_to_ride.color.{colour}")  # "locomotive" takes a size smaller to fit
        draw_text(img, (cx, by + 36), caption, fit_size(caption, step - 4, 20, 17), style.MUTED_TEXT, anchor="mm",
                  max_width=step - 4)
        x += step
    return y + CARD_H + 64


def _tickets_height(n: int) -> int:
    rows = (n + COLUMNS - 1) // COLUMNS
    return rows * (TICKET_H + TICKET_GAP)


def _ticket_summary(tickets: list[TicketView], lang: str) -> str | None:
    if not tickets:
        return None
    done = sum(1 for t in tickets if t.completed)
    return translate(lang, "ticket_to_ride.render.tickets_summary", {"done": done, "total": len(tickets)})


def _tickets(img: Image.Image, d: ImageDraw.ImageDraw, tickets: list[TicketView], lang: str, y: int,
             marks: str | None, highlight: bool, over: bool) -> int:
    board = usa()
    col_w = (WIDTH - 2 * PAD - (COLUMNS - 1) * 16) // COLUMNS
    for i, t in enumerate(tickets):
        row, col = divmod(i, COLUMNS)
        x0 = PAD + col * (col_w + 16)
        y0 = y + row * (TICKET_H + TICKET_GAP)
        x1, y1 = x0 + col_w, y0 + TICKET_H
        fill = style.TICKET_BG
        edge = style.CHOOSING_BG if highlight else style.PANEL_EDGE
        if t.completed:
            fill = style.DONE_BG
            edge = style.DONE
        elif t.completed is False and over:
            fill = style.FAILED_BG
            edge = style.FINAL_BG
        d.rounded_rectangle((x0, y0, x1, y1), 10, fill=fill, outline=edge, width=3)
        mid = (y0 + y1) // 2
        # the ticket's badge (the same one marks its cities on the map below)
        mx = x0 + 30
        badge = _badge_colour(t, highlight, over)
        d.ellipse((mx - 17, mid - 17, mx + 17, mid + 17), fill=badge)
        draw_text(img, (mx, mid), _mark(i, marks), 20, (255, 255, 255), bold=True, anchor="mm")
        # points badge
        pr = 22
        px = x1 - 14 - pr
        d.ellipse((px - pr, mid - pr, px + pr, mid + pr), fill=style.TICKET_INK)
        draw_text(img, (px, mid), str(t.points), 24, (255, 255, 255), bold=True, anchor="mm")
        right = px - pr - 10
        # done: a check mark; failed at the end: a cross
        if t.completed or (over and t.completed is False):
            ok = bool(t.completed)
            cx = right - 14
            mark_colour = style.DONE if ok else style.FINAL_BG
            if ok:
                d.line([(cx - 11, mid), (cx - 3, mid + 9), (cx + 12, mid - 10)], fill=mark_colour, width=5,
                       joint="curve")
            else:
                d.line([(cx - 9, mid - 9), (cx + 9, mid + 9)], fill=mark_colour, width=5)
                d.line([(cx - 9, mid + 9), (cx + 9, mid - 9)], fill=mark_colour, width=5)
            right = cx - 20
        text = f"{board.city_label(t.a, lang)} – {board.city_label(t.b, lang)}"
        text_x = x0 + 58
        size = fit_size(text, right - text_x, 23, bold=True, min_size=18)
        draw_text(img, (text_x, mid), text, size, style.TEXT, bold=True, anchor="lm", max_width=right - text_x)
    return y + _tickets_height(len(tickets))
