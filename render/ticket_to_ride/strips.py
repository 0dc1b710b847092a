"""The board's two strips: the players above the map; the face-up row and the last turn below.

Drawn per move from public view fields only. The status embed beside the image already says
whose turn it is and lists every score in words, so the strips stay short: one chip per
player (the seat's tile in its colour with its shape, name, score, trains, cards, tickets;
the player who is waited on ringed and marked with an arrow), the labelled face-up row, and
the whole last turn: the cards it took (face-up ones in their colour, deck ones face down)
and its public events.
Every text is at least 25 px on the 1400 px board: 7 px when Discord shows it 400 px wide.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.ticket_to_ride.models import TicketToRideView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.events import public_event_lines
from render.kit.palette import contrast_text
from render.kit.regions import REGIONS
from render.kit.shapes import pill
from render.kit.text import draw_text, measure, truncate
from render.ticket_to_ride import icons, style
from render.ticket_to_ride.layout import BOARD_W, BOTTOM_H, MAP_H, MAP_Y, TOP_H

PAD = 12
TEXT = 25  # the smallest type on the board
NAME = 27
SCORE = 34
CARD_W, CARD_H = 80, 82
CARD_GAP = 8
EVENT_ROOM = 3
EVENT_LINE_H = 30
FACE_UP_RIGHT = PAD + 5 * CARD_W + 4 * CARD_GAP
TURN_LEFT = FACE_UP_RIGHT + 32


def draw_strips(img: Image.Image, view: TicketToRideView, names: Sequence[str], lang: str) -> None:
    d = ImageDraw.Draw(img)
    d.rectangle((0, TOP_H - 3, BOARD_W, TOP_H - 1), fill=style.DIVIDER)
    bottom = MAP_Y + MAP_H
    d.rectangle((0, bottom, BOARD_W, bottom + 2), fill=style.DIVIDER)
    _players(img, d, view, names, lang)
    _face_up(img, d, view, lang, bottom + 2)
    _last_turn(img, d, view, names, lang, bottom + 2)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if seat < len(names) else f"#{seat + 1}"


def waited_on(view: TicketToRideView) -> set[int]:
    if view.phase == "over" or is_abandoned(view):
        return set()
    return set(view.active)


# --- the players ------------------------------------------------------------------------------------
CHIP_GAP = 10
CHIP_TOP, CHIP_BOTTOM = 8, TOP_H - 12
# Each chip starts with the seat's tile: its colour and, on it, the shape its claimed routes
# carry on the map, so a player's trains are found without telling colours apart.
TILE_W = 36
TEXT_X = 10 + TILE_W + 8  # where a chip's text starts


def chip_box(n: int, index: int) -> tuple[int, int, int, int]:
    """The chip of the index-th of n players in the strip above the map."""
    n = max(n, 1)
    w = (BOARD_W - 2 * PAD - CHIP_GAP * (n - 1)) / n
    x0 = round(PAD + index * (w + CHIP_GAP))
    return x0, CHIP_TOP, round(x0 + w), CHIP_BOTTOM


def tile_box(n: int, index: int) -> tuple[int, int, int, int]:
    """The seat's tile (colour and shape) at the left of its chip."""
    x0, top, _, bottom = chip_box(n, index)
    return x0 + 10, top + 10, x0 + 10 + TILE_W, bottom - 10


def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: TicketToRideView, names: Sequence[str], lang: str) -> None:
    n = len(view.players)
    active = waited_on(view)
    scores = {p.seat: p.total for p in view.result.players} if view.result else {}
    ranks = {p.seat: p.rank for p in view.result.players} if view.result else {}
    pill = view.phase != "over" and not is_abandoned(view)
    for i, p in enumerate(view.players):
        score = style.signed(scores[p.seat]) if p.seat in scores else str(p.route_points)
        label = _name(names, p.seat)
        if p.seat in ranks:
            label = f"{ranks[p.seat]}. {label}"
        choosing = p.choosing and pill
        x0, top, x1, bottom = chip_box(n, i)
        # a chip is drawn again only when what it shows changes (render.kit.regions)
        key = ("ttr-chip", lang, n, i, p.seat, p.seat in active, score, label, choosing, p.trains, p.card_count,
               p.ticket_count)
        REGIONS.draw(img, (x0 - 2, top - 2, x1 + 3, bottom + 3), key,
                     lambda: _chip(img, d, (x0, top, x1, bottom), p, p.seat in active, score, label, choosing,
                                   n, i, lang))


def _chip(img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], p, is_active: bool,
          score: str, label: str, choosing: bool, n: int, i: int, lang: str) -> None:
    x0, top, x1, bottom = box
    colour = style.player_rgb(p.seat)
    if is_active:  # ringed in near-black and marked with an arrow: not colour alone
        d.rounded_rectangle((x0, top, x1, bottom), 12, fill=style.mix(colour, (255, 255, 255), 0.78),
                            outline=style.CLAIM_OUTLINE, width=5)
    else:
        d.rounded_rectangle((x0, top, x1, bottom), 12, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    icons.seat_tile(d, tile_box(n, i), p.seat)
    x = x0 + TEXT_X
    line1 = top + 22
    if is_active:
        x = icons.turn_arrow(d, (x, line1), 20, style.CLAIM_OUTLINE) + 6
    draw_text(img, (x1 - 10, line1), score, SCORE, style.TEXT, bold=True, anchor="rm")
    sw = measure(score, SCORE, True)[0]
    draw_text(img, (x, line1), label, NAME, style.TEXT, bold=True, anchor="lm", max_width=round(x1 - 16 - sw - x))
    line2 = bottom - 23
    x = x0 + TEXT_X
    if choosing:
        pill(img, (x, line2), translate(lang, "ticket_to_ride.render.choosing"), TEXT, style.CHOOSING_BG, anchor="lm")
        return
    for icon, value in ((icons.train, p.trains), (icons.cards, p.card_count), (icons.ticket, p.ticket_count)):
        x = icon(d, (x, line2), 24, colour) + 5
        x = draw_text(img, (x, line2), str(value), TEXT, style.TEXT, bold=True, anchor="lm")[2] + 14


# --- the face-up row -------------------------------------------------------------------------------------
def _face_up(img: Image.Image, d: ImageDraw.ImageDraw, view: TicketToRideView, lang: str, top: int) -> None:
    box = (0, top, min(img.width, FACE_UP_RIGHT + 20), min(img.height, top + BOTTOM_H))
    REGIONS.draw(img, box, ("ttr-face-up", lang, tuple(view.face_up)), lambda: _face_up_cards(img, d, view, lang, top))


def _face_up_cards(img: Image.Image, d: ImageDraw.ImageDraw, view: TicketToRideView, lang: str, top: int) -> None:
    draw_text(img, (PAD, top + 6), translate(lang, "ticket_to_ride.render.face_up"), TEXT, style.MUTED_TEXT, bold=True)
    y0 = top + BOTTOM_H - CARD_H - 10
    for i, colour in enumerate(view.face_up):
        x0 = PAD + i * (CARD_W + CARD_GAP)
        icons.lettered_card(img, (x0, y0, x0 + CARD_W, y0 + CARD_H), colour, lang, 28)
    d.line((FACE_UP_RIGHT + 16, top + 10, FACE_UP_RIGHT + 16, top + BOTTOM_H - 10), fill=style.PANEL_EDGE, width=2)


# --- the last turn -----------------------------------------------------------------------------------------
def status_tags(view: TicketToRideView, names: Sequence[str], lang: str) -> list[tuple[str, tuple[int, int, int]]]:
    """The state of the game in a few words, as (text, tag colour), most important last."""
    if is_abandoned(view):
        return [(translate(lang, ABANDONED_KEY), style.OVER_BG)]
    if view.phase == "over":
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if len(winners) == 1:
            return [(translate(lang, "ticket_to_ride.render.winner", {"seat": winners[0]}, names), style.OVER_BG)]
        if winners:
            return [(translate(lang, "ticket_to_ride.render.winners", {"seats": winners}, names), style.OVER_BG)]
        return [(translate(lang, "ticket_to_ride.render.game_over"), style.OVER_BG)]
    if view.phase == "choose":
        return [(translate(lang, "ticket_to_ride.render.choosing_all"), style.CHOOSING_BG)]
    tags = []
    if view.final_round:
        if view.turns_left is not None:
            tags.append((translate(lang, "ticket_to_ride.render.final_round_left", {"count": view.turns_left}), style.FINAL_BG))
        else:
            tags.append((translate(lang, "ticket_to_ride.render.final_round"), style.FINAL_BG))
    turn = translate(lang, "ticket_to_ride.render.turn_of", {"seat": view.current}, names)
    if view.drew_one:
        turn += " · " + translate(lang, "ticket_to_ride.render.second_card_short")
    tags.append((turn, style.player_rgb(view.current)))
    return tags


def _last_turn(img: Image.Image, d: ImageDraw.ImageDraw, view: TicketToRideView, names: Sequence[str], lang: str,
               top: int) -> None:
    right = BOARD_W - PAD
    title = translate(lang, "ticket_to_ride.render.last_turn")
    number = view.turn + (1 if view.drew_one else 0)  # mid-turn, the last turn is the one going on
    if view.phase != "choose" and number > 0 and not is_abandoned(view):
        title += " · " + translate(lang, "ticket_to_ride.render.turn_number", {"turn": number})
    title_right = draw_text(img, (TURN_LEFT, top + 6), title, TEXT, style.MUTED_TEXT, bold=True)[2]
    x = right
    for text, bg in reversed(status_tags(view, names, lang)):  # right-aligned, the most important rightmost
        room = x - title_right - 24 - TEXT
        if room < 3 * TEXT:
            break
        text = truncate(text, room, TEXT, True)
        x = pill(img, (x, top + 4), text, TEXT, bg, text_fill=contrast_text(bg), anchor="ra")[0] - 10
    x = TURN_LEFT
    cards_top = top + 44
    for source in view.turn_cards:  # the cards the turn took: a face-up colour, or face down from the deck
        box = (x, cards_top, x + 56, cards_top + 80)
        if source == "deck":
            icons.card_back(img, box)
        else:
            icons.lettered_card(img, box, source, lang, 25)
        x += 64
    if view.turn_cards:
        x += 8
    events = view.turn_log or view.last
    lines = public_event_lines(events, names, lang, TEXT, right - x, EVENT_ROOM)
    if is_abandoned(view):  # why there is no result, before the last turn
        lines = [translate(lang, ABANDONED_SUB_KEY)] + [line for line in lines if line != "—"][: EVENT_ROOM - 1]
    y = top + 44 + EVENT_LINE_H // 2
    for line in lines:
        draw_text(img, (x, y), line, TEXT, style.TEXT, anchor="lm", max_width=right - x)
        y += EVENT_LINE_H
