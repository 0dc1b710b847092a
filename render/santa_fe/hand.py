"""A player's private Santa Fe hand: city cards (with how far each railroad is from the city),
the double turn and spur cards, the card chosen this round, money, and the cities on the map.

Shown only in an ephemeral reply, and drawn only from a view made for that player: a spectator
view (viewer None) or a view whose hand was stripped is refused.
"""
from __future__ import annotations

import heapq
from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.santa_fe.map import west
from games.santa_fe.models import Choice, PlayerView, SantaFeView
from games.santa_fe.notation import choice_words
from render.kit.legibility import min_font_px
from render.kit.palette import contrast_text
from render.kit.text import draw_text, fit_size, measure
from render.santa_fe import icons, style
from render.santa_fe.board import render_map
from render.santa_fe.layout import MAP_H, MAP_W, board_layout

WIDTH = 1000
PAD = 24
# The smallest type, 7 px tall when the image is shown 400 px wide (render.kit.legibility).
SMALL = min_font_px(WIDTH)
# Two cards a row leave each railroad's chip room for its code and the distance, so the
# railroads differ by more than their colour.
COLUMNS = 2
CARD_GAP = 14
CARD_W = (WIDTH - 2 * PAD - (COLUMNS - 1) * CARD_GAP) // COLUMNS
CARD_H = 112
# The map runs edge to edge: shrunk from the board's 1270 px to 1000, its names (the board's
# smallest type) stay 7 px tall at 400 px wide.
MAP_WIDTH = WIDTH
MAP_HEIGHT = round(MAP_H * MAP_WIDTH / MAP_W)
UNREACHABLE = 10 ** 6


def render_hand(view: SantaFeView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("render_hand needs the player's own view, not a spectator view")
    me = view.players[view.viewer]
    if me.hand is None:
        raise ValueError("this view does not include the viewer's hand")
    hand = list(me.hand)
    rows = max(1, (len(hand) + COLUMNS - 1) // COLUMNS)
    height = (PAD + 80 + 20 + 60 + 44 + rows * (CARD_H + CARD_GAP) + 30 + 44 + 90 + 20 + 44 + 80
              + 20 + 44 + MAP_HEIGHT + 40 + PAD)
    img = Image.new("RGB", (WIDTH, height), style.SIDEBAR_BG)
    d = ImageDraw.Draw(img)
    y = _header(img, d, me, names, lang)
    y = _choice(img, d, view, me, lang, y + 20)
    distances = reach_distances(view)
    y = _section_title(img, translate(lang, "santa_fe.render.hand.city_cards", {"count": len(hand)}), y + 12,
                       translate(lang, "santa_fe.render.hand.reach_note"))
    y = _city_cards(img, d, view, me, hand, distances, lang, y)
    y = _section_title(img, translate(lang, "santa_fe.render.hand.other_cards"), y + 16)
    y = _other_cards(img, d, me, lang, y)
    y = _section_title(img, translate(lang, "santa_fe.render.hand.played"), y + 20,
                       translate(lang, "santa_fe.render.points", {"points": me.score}))
    y = _played(img, d, view, me, lang, y)
    y = _section_title(img, translate(lang, "santa_fe.render.hand.on_map"), y + 20)
    y = _map(img, view, me, lang, y)
    return img.crop((0, 0, WIDTH, min(height, y + PAD)))


# --- how far each railroad is from a city --------------------------------------------------------------
def reach_distances(view: SantaFeView) -> list[list[int]]:
    """[railroad][city]: track spaces the railroad still needs to reach the city from its line
    heads over sections still free for it (0 if it reaches the city; UNREACHABLE if it cannot,
    or has fewer tiles left than that). Spurs are not counted."""
    board = west()
    n_rr, n_city = len(board.railroads), len(board.cities)
    out = []
    for r in range(n_rr):
        dist = [UNREACHABLE] * n_city
        queue: list[tuple[int, int]] = []
        for city, sid, built, end in view.lines[r]:
            if sid < 0:
                start, cost = city, 0
            else:
                start, cost = board.ends[sid][1 - end], board.sections[sid].spaces - built
            if cost < dist[start]:
                dist[start] = cost
                heapq.heappush(queue, (cost, start))
        while queue:
            cost, city = heapq.heappop(queue)
            if cost > dist[city]:
                continue
            for sid, side in board.adjacency[city]:
                if view.sec_rr[sid] != -1:
                    continue
                twin = board.twin[sid]
                if twin >= 0 and view.sec_rr[twin] == r:
                    continue
                far = board.ends[sid][1 - side]
                nxt = cost + board.sections[sid].spaces
                if nxt < dist[far]:
                    dist[far] = nxt
                    heapq.heappush(queue, (nxt, far))
        tiles = view.supply[r] + sum(p.bought[r] for p in view.players)
        for city in range(n_city):
            if view.connected[city] >> r & 1:
                dist[city] = 0
            elif dist[city] > tiles:
                dist[city] = UNREACHABLE
        out.append(dist)
    return out


# --- pieces ---------------------------------------------------------------------------------------------------
def _header(img: Image.Image, d: ImageDraw.ImageDraw, me: PlayerView, names: Sequence[str], lang: str) -> int:
    colour = style.player_rgb(me.seat)
    fg = contrast_text(colour)
    top, bottom = PAD, PAD + 80
    d.rounded_rectangle((PAD, top, WIDTH - PAD, bottom), 14, fill=colour)
    money = f"${me.money}"
    right = WIDTH - PAD - 22
    mw = measure(money, 40, True)[0]
    draw_text(img, (right, (top + bottom) // 2), money, 40, fg, bold=True, anchor="rm")
    title = translate(lang, "santa_fe.render.hand.title", {"seat": me.seat}, names)
    draw_text(img, (PAD + 22, (top + bottom) // 2), title, 32, fg, bold=True, anchor="lm",
              max_width=right - mw - 30 - PAD - 22)
    return bottom


def _section_title(img: Image.Image, text: str, y: int, note: str | None = None) -> int:
    nw = measure(note, SMALL)[0] if note else 0
    draw_text(img, (PAD, y + 18), text, 25, style.TEXT, bold=True, anchor="lm",
              max_width=WIDTH - 2 * PAD - nw - 20)
    if note:
        draw_text(img, (WIDTH - PAD, y + 18), note, SMALL, style.MUTED_TEXT, anchor="rm")
    return y + 44


def choice_text(choice: Choice, lang: str, spur_rr: int) -> str:
    """A card choice in the game's own words (the same as the reveal's)."""
    words = choice_words(west(), choice.card, choice.spur, spur_rr)
    return translate(lang, words["key"], words.get("params"))


def _choice(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, me: PlayerView, lang: str, y: int) -> int:
    """This round's card: secret until everyone has chosen, so only this image shows it."""
    if view.phase == "choose":
        if me.choice is not None:
            text = translate(lang, "santa_fe.render.hand.you_chose", {"choice": choice_text(me.choice, lang, me.spur)})
            fill = style.DONE
        else:
            text = translate(lang, "santa_fe.render.hand.choose_now")
            fill = style.CHOOSING_BG
    elif view.phase in ("track", "exchange") and me.revealed is not None:
        spur = me.spur_active if me.revealed.spur else -1
        text = translate(lang, "santa_fe.render.hand.you_played", {"choice": choice_text(me.revealed, lang, spur)})
        fill = style.OVER_BG
    else:
        return y - 20
    d.rounded_rectangle((PAD, y, WIDTH - PAD, y + 56), 12, fill=fill)
    draw_text(img, (PAD + 20, y + 28), text, 24, (255, 255, 255), bold=True, anchor="lm",
              max_width=WIDTH - 2 * PAD - 40)
    return y + 56


def _city_cards(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, me: PlayerView, hand: list[int],
                distances: list[list[int]], lang: str, y: int) -> int:
    board = west()
    if not hand:
        draw_text(img, (PAD, y + 30), translate(lang, "santa_fe.render.hand.no_city_cards"), 22, style.MUTED_TEXT,
                  anchor="lm")
        return y + 60
    chosen = me.choice.card if me.choice is not None else None
    order = sorted(hand, key=lambda c: (-board.values[c], board.cities[c].name))
    marked = False
    for i, city in enumerate(order):
        row, col = divmod(i, COLUMNS)
        x0 = PAD + col * (CARD_W + CARD_GAP)
        y0 = y + row * (CARD_H + CARD_GAP)
        x1, y1 = x0 + CARD_W, y0 + CARD_H
        is_chosen = city == chosen and not marked
        marked = marked or is_chosen
        d.rounded_rectangle((x0, y0, x1, y1), 12, fill=style.CARD_BG,
                            outline=style.DONE if is_chosen else style.CARD_INK, width=4 if is_chosen else 2)
        # the value, as on the map, and the name
        icons.value_badge(img, (x1 - 30, y0 + 30), board.values[city], 19)
        name = board.city_label(city, lang)
        size = fit_size(name, CARD_W - 74, 24, min_size=15, bold=True)
        draw_text(img, (x0 + 14, y0 + 30), name, size, style.TEXT, bold=True, anchor="lm", max_width=CARD_W - 70)
        chip_w = (CARD_W - 20) / len(board.railroads)
        for r in range(len(board.railroads)):
            cx0 = x0 + 10 + r * chip_w
            _reach_chip(img, d, (cx0 + 2, y0 + 66, cx0 + chip_w - 3, y0 + 98), r, distances[r][city])
        if is_chosen:
            tag = translate(lang, "santa_fe.render.hand.chosen_tag")
            tw = measure(tag, SMALL, True)[0] + 18
            d.rounded_rectangle((x0 + 12, y0 - 13, x0 + 12 + tw, y0 + 13), 13, fill=style.DONE)
            draw_text(img, (x0 + 12 + tw / 2, y0), tag, SMALL, (255, 255, 255), bold=True, anchor="mm")
    rows = (len(order) + COLUMNS - 1) // COLUMNS
    return y + rows * (CARD_H + CARD_GAP) - CARD_GAP


def _reach_chip(img: Image.Image, d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], r: int,
                dist: int) -> None:
    """How far railroad r is from the city: its code on its colour, then ✓ (it reaches the
    city), the spaces still to build, or – (out of reach: drawn faded)."""
    colour = style.rr_rgb(r)
    faded = dist >= UNREACHABLE
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    tab = style.mix(colour, style.PANEL, 0.6) if faded else colour
    edge = style.PANEL_EDGE if faded else style.TILE_EDGE
    split = x0 + measure(style.rr_code(r), SMALL, True)[0] + 12
    if dist == 0:  # reached: the whole chip in the railroad's colour
        d.rounded_rectangle(box, 8, fill=colour, outline=style.TILE_EDGE, width=2)
        ink = contrast_text(colour)
        mx = (split + x1) / 2
        d.line([(mx - 8, cy), (mx - 3, cy + 6), (mx + 8, cy - 7)], fill=ink, width=4, joint="curve")
    else:
        d.rounded_rectangle(box, 8, fill=style.PANEL, outline=edge, width=2)
        d.rounded_rectangle((x0, y0, split, y1), 8, fill=tab, outline=edge, width=2)
        text = "–" if faded else str(dist)
        draw_text(img, ((split + x1) / 2, cy), text, SMALL + 1, style.MUTED_TEXT if faded else style.TEXT,
                  bold=True, anchor="mm")
    ink = style.MUTED_TEXT if faded else contrast_text(colour)
    draw_text(img, ((x0 + split) / 2, cy), style.rr_code(r), SMALL, ink, bold=True, anchor="mm")


def _other_cards(img: Image.Image, d: ImageDraw.ImageDraw, me: PlayerView, lang: str, y: int) -> int:
    board = west()
    x = PAD
    h = 72
    items = 0
    for _ in range(me.doubles):
        icons.double_card(img, (x, y, x + 56, y + h), 26)
        x += 66
        items += 1
    if me.doubles:
        x = draw_text(img, (x, y + h / 2), translate(lang, "santa_fe.render.hand.doubles", {"count": me.doubles}), 20,
                      style.TEXT, anchor="lm")[2] + 28
    if me.spur >= 0:
        icons.spur_card(img, (x, y, x + 56, y + h), style.rr_rgb(me.spur), style.rr_code(me.spur))
        x += 66
        text = translate(lang, "santa_fe.render.hand.spur", {"rr": board.railroads[me.spur].name})
        note = translate(lang, "santa_fe.render.hand.spur_note")
        end = draw_text(img, (x, y + h / 2 - 13), text, 20, style.TEXT, anchor="lm")[2]
        end = max(end, draw_text(img, (x, y + h / 2 + 14), note, SMALL, style.MUTED_TEXT, anchor="lm")[2])
        x = end + 28
        items += 1
    if me.engineer:
        icons.engineer(ImageDraw.Draw(img), (x, y + h / 2), 40)
        x = draw_text(img, (x + 50, y + h / 2), translate(lang, "santa_fe.render.hand.engineer"), 20, style.TEXT,
                      anchor="lm")[2] + 28
        items += 1
    if not items:
        draw_text(img, (PAD, y + h / 2), translate(lang, "santa_fe.render.hand.none"), 22, style.MUTED_TEXT, anchor="lm")
    return y + h


def _played(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, me: PlayerView, lang: str, y: int) -> int:
    """Cards played so far (public), each with what it is worth now: value × railroads."""
    board = west()
    if not me.played:
        draw_text(img, (PAD, y + 20), translate(lang, "santa_fe.render.no_cards_played"), 22, style.MUTED_TEXT,
                  anchor="lm")
        return y + 40
    x, row_y = PAD, y
    chip_h = 42
    for city in me.played:
        k = bin(view.connected[city]).count("1")
        name = board.city_label(city, lang)
        worth = f"×{k} = {board.values[city] * k}"
        w = 42 + measure(name, 20, True)[0] + 8 + measure(worth, 19)[0] + 14
        if x + w > WIDTH - PAD:
            x = PAD
            row_y += chip_h + 10
        d.rounded_rectangle((x, row_y, x + w, row_y + chip_h), 21, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
        icons.value_badge(img, (x + 21, row_y + chip_h / 2), board.values[city], 16, faded=k == 0)
        end = draw_text(img, (x + 42, row_y + chip_h / 2), name, 20, style.TEXT, bold=True, anchor="lm")[2]
        draw_text(img, (end + 8, row_y + chip_h / 2), worth, 19, style.MUTED_TEXT if k == 0 else style.MONEY,
                  bold=k > 0, anchor="lm")
        x += w + 10
    return row_y + chip_h


def _map(img: Image.Image, view: SantaFeView, me: PlayerView, lang: str, top: int) -> int:
    """The board with every city of the hand ringed in magenta, the played ones in near-black."""
    scale = MAP_WIDTH / MAP_W
    small = render_map(view, lang, MAP_WIDTH)
    d = ImageDraw.Draw(small)
    cities = board_layout().cities
    for city in set(me.played):
        x, y = cities[city][0] * scale, cities[city][1] * scale
        rad = 20
        d.ellipse((x - rad, y - rad, x + rad, y + rad), outline=style.PLAYED_RING, width=4)
    for city in set(me.hand or []):
        x, y = cities[city][0] * scale, cities[city][1] * scale
        rad = 22
        d.ellipse((x - rad, y - rad, x + rad, y + rad), outline=style.HIGHLIGHT, width=5)
    img.paste(small, (0, top))
    y = top + MAP_HEIGHT + 24
    dd = ImageDraw.Draw(img)
    dd.ellipse((PAD, y - 10, PAD + 20, y + 10), outline=style.HIGHLIGHT, width=4)
    x = draw_text(img, (PAD + 28, y), translate(lang, "santa_fe.render.hand.map_hand"), SMALL + 1, style.TEXT,
                  anchor="lm")[2] + 30
    dd.ellipse((x, y - 10, x + 20, y + 10), outline=style.PLAYED_RING, width=4)
    draw_text(img, (x + 28, y), translate(lang, "santa_fe.render.hand.map_played"), SMALL + 1, style.TEXT, anchor="lm")
    return y + 16
