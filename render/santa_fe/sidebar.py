"""The board's sidebar: whose turn and what the game waits on, the players, the railroads,
the cards beside the board and the last events.

Everything here is drawn per move from public view fields. During the secret card choice it
shows who has chosen and who not yet, never what. Type sizes are large on purpose: Discord
shows the board about 550 px wide, so the turn banner and the money must still read there.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.santa_fe.map import west
from games.santa_fe.models import DOUBLE, NOTHING, PlayerView, SFView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.palette import contrast_text
from render.kit.events import draw_events
from render.kit.text import draw_text, measure
from render.santa_fe import icons, style
from render.santa_fe.layout import BOARD_H, BOARD_W, SIDEBAR_X

PAD = 14
LEFT = SIDEBAR_X + PAD + 2
RIGHT = BOARD_W - PAD
WIDTH = RIGHT - LEFT

BANNER_H = 86
BANNER_SIZE = 30
NAME_SIZE = 26
MONEY_SIZE = 30
LABEL_SIZE = 18
EVENT_SIZE = 19
EVENT_LINE_H = EVENT_SIZE + 7
RAIL_H = 140  # the railroads panel
PILES_H = 44  # double turns, deck, engineers
EVENTS_MIN = 26 + 3 * EVENT_LINE_H
ROW_MAX = 124
LEGEND_H = 26


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def draw_sidebar(img: Image.Image, view: SFView, names: Sequence[str], lang: str) -> None:
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, PAD)
    bottom = BOARD_H - PAD - (LEGEND_H + RAIL_H + 12 + PILES_H + 12 + EVENTS_MIN)
    y = _players(img, d, view, names, lang, y + 12, bottom)
    y = _icon_legend(img, d, view, lang, y + 4)
    y = _railroads(img, d, view, lang, y + 8)
    y = _piles(img, d, view, lang, y + 10)
    _events(img, view, names, lang, y + 12, BOARD_H - PAD)


# --- top: whose turn, what the game waits on ------------------------------------------------------------
def banner_text(view: SFView, names: Sequence[str], lang: str) -> tuple[str, str, tuple[int, int, int], bool]:
    """(title, subtitle, colour, arrow) of the turn banner."""
    rnd = translate(lang, "render.sf.round", {"round": view.round})
    phase = view.phase
    if is_abandoned(view):
        return translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY), style.OVER_BG, False
    if phase == "over":
        title = translate(lang, "render.sf.game_over")
        sub = title
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if len(winners) == 1:
            title = translate(lang, "render.sf.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "render.sf.winners", {"seats": winners}, names)
        reason = f"sf.end.{view.end_reason}"
        if view.end_reason and has_key(lang, reason):
            sub = f"{sub} · {translate(lang, reason)}"
        return title, sub, style.OVER_BG, False
    if phase in ("choose", "exchange"):
        waiting = [i for i in view.active]
        key = "render.sf.choosing" if phase == "choose" else "render.sf.exchanging"
        if phase == "choose" and view.round == 1:
            key = "render.sf.choosing_first"
        title = translate(lang, key)
        sub = rnd + " · " + translate(lang, "render.sf.waiting_for", {"seats": waiting}, names)
        return title, sub, style.OVER_BG, False
    seat = view.current if view.current is not None else (view.active[0] if view.active else 0)
    if phase == "track":
        title = translate(lang, "render.sf.track_of", {"seat": seat}, names)
        me = view.players[seat]
        double = me.revealed is not None and me.revealed.card == DOUBLE
        sub = translate(lang, "render.sf.track_sub", {"turn": view.track_turn, "left": view.left})
        if double:
            sub += " · " + translate(lang, "render.sf.double_turn_short")
        sub = rnd + " · " + sub
    elif phase == "draw":
        title = translate(lang, "render.sf.draw_of", {"seat": seat}, names)
        sub = rnd + " · " + translate(lang, "render.sf.draw_sub")
    elif phase == "buy":
        title = translate(lang, "render.sf.buy_of", {"seat": seat}, names)
        sub = rnd + " · " + translate(lang, "render.sf.buy_sub")
    else:  # engineer
        title = translate(lang, "render.sf.engineer_of", {"seat": seat}, names)
        sub = translate(lang, "render.sf.engineer_sub")
    return title, sub, style.player_rgb(seat), True


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, names: Sequence[str], lang: str,
            top: int) -> int:
    title, sub, bg, arrow = banner_text(view, names, lang)
    fg = contrast_text(bg)
    d.rounded_rectangle((LEFT, top, RIGHT, top + BANNER_H), 12, fill=bg)
    x = LEFT + 16
    if arrow:
        d.polygon([(x, top + 18), (x + 18, top + 31), (x, top + 44)], fill=fg)
        x += 28
    draw_text(img, (x, top + 31), title, BANNER_SIZE, fg, bold=True, anchor="lm", max_width=RIGHT - 14 - x)
    draw_text(img, (LEFT + 16, top + 67), sub, LABEL_SIZE + 1, fg, anchor="lm", max_width=WIDTH - 32)
    return top + BANNER_H


# --- middle: the players -------------------------------------------------------------------------------------
def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, names: Sequence[str], lang: str,
             top: int, bottom: int) -> int:
    """One row per player between top and (at most) bottom; returns where the rows end."""
    n = len(view.players)
    gap = 8
    row_h = min(ROW_MAX, (bottom - top - gap * (n - 1)) // max(n, 1))
    active = set(view.active) if view.phase != "over" and not is_abandoned(view) else set()
    y = top
    for p in view.players:
        _player_row(img, d, view, p, names, lang, y, row_h, p.seat in active)
        y += row_h + gap
    return y - gap


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, p: PlayerView, names: Sequence[str],
                lang: str, y: int, h: int, is_active: bool) -> None:
    board = west()
    colour = style.player_rgb(p.seat)
    box = (LEFT, y, RIGHT, y + h)
    if is_active:
        d.rounded_rectangle(box, 12, fill=style.mix(colour, (255, 255, 255), 0.84), outline=colour, width=5)
    else:
        d.rounded_rectangle(box, 12, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
    d.rounded_rectangle((LEFT + 10, y + 10, LEFT + 24, y + h - 10), 5, fill=colour, outline=style.TILE_EDGE, width=2)
    x0 = LEFT + 36
    line1, line2, line3 = y + h * 0.22, y + h * 0.52, y + h * 0.80
    # money, big and green; the current score under it
    money = f"${p.money}"
    mw = draw_text(img, (RIGHT - 14, line1), money, MONEY_SIZE, style.MONEY, bold=True, anchor="rm")[2] - \
        measure(money, MONEY_SIZE, True)[0]
    score = translate(lang, "render.sf.points", {"points": p.score})
    sw = measure(score, LABEL_SIZE, True)[0]
    draw_text(img, (RIGHT - 14, line2), score, LABEL_SIZE, style.TEXT, bold=True, anchor="rm")
    # name, then the first-player mark
    name_right = mw - 14
    first = view.first == p.seat and view.phase != "over"
    tag = translate(lang, "render.sf.first") if first else ""
    tag_w = measure(tag, 15, True)[0] + 16 if first else 0
    end = draw_text(img, (x0, line1), name_of(names, p.seat), NAME_SIZE, style.TEXT, bold=True, anchor="lm",
                    max_width=name_right - x0 - tag_w - 8)[2]
    if first:
        d.rounded_rectangle((end + 8, line1 - 11, end + 8 + tag_w, line1 + 11), 11, fill=style.OVER_BG)
        draw_text(img, (end + 8 + tag_w / 2, line1), tag, 15, (255, 255, 255), bold=True, anchor="mm")
    # played city cards: value badges (faded while no railroad reaches the city: worth nothing yet)
    x = x0 + 11
    limit = RIGHT - 14 - sw - 12
    if not p.played:
        draw_text(img, (x0, line2), translate(lang, "render.sf.no_cards_played"), 16, style.MUTED_TEXT, anchor="lm")
    shown = 0
    for city in p.played:
        if x + 26 > limit:
            more = f"+{len(p.played) - shown}"
            draw_text(img, (x - 8, line2), more, 16, style.MUTED_TEXT, bold=True, anchor="lm")
            break
        reach = bin(view.connected[city]).count("1")
        icons.value_badge(img, (x, line2), board.values[city], 11.5, faded=reach == 0)
        if reach >= 2:  # worth value × railroads: the multiplier as a small subscript
            x = draw_text(img, (x + 11, line2 + 7), f"×{reach}", 13, style.TEXT, bold=True, anchor="lm")[2] + 2
            x += 13
        else:
            x += 27
        shown += 1
    # the cards in hand (hand size), double turns, spur, engineer
    x = x0
    x = icons.cards(d, (x, line3), 22) + 4
    x = draw_text(img, (x, line3), str(p.hand_size), 19, style.TEXT, bold=True, anchor="lm")[2] + 12
    if p.doubles:
        icons.double_card(img, (int(x), int(line3 - 11), int(x + 30), int(line3 + 11)), 14)
        x += 32
        if p.doubles > 1:
            x = draw_text(img, (x, line3), f"×{p.doubles}", 16, style.TEXT, bold=True, anchor="lm")[2] + 4
        x += 8
    if p.spur >= 0:
        icons.spur_card(img, (int(x), int(line3 - 11), int(x + 30), int(line3 + 11)), style.rr_rgb(p.spur))
        x = draw_text(img, (x + 34, line3), style.rr_code(p.spur), 15, style.TEXT, bold=True, anchor="lm")[2] + 12
    if p.engineer:
        x = icons.engineer(d, (x, line3), 22) + 12
    _status(img, d, view, p, lang, x, line3)


def _status(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, p: PlayerView, lang: str, x: float,
            y: float) -> None:
    """Right end of the third line: chosen / choosing during the secret choice, what was played
    once revealed (public from then on)."""
    text, fill, fg = None, None, (255, 255, 255)
    if view.phase == "choose":
        if p.chosen:
            text, fill = translate(lang, "render.sf.chosen"), style.DONE
        else:
            text, fill = translate(lang, "render.sf.not_chosen"), style.CHOOSING_BG
    elif view.phase == "exchange" and p.seat in view.active:
        text, fill = translate(lang, "render.sf.exchanging_short"), style.CHOOSING_BG
    elif view.phase in ("track", "exchange") and p.revealed is not None:
        c = p.revealed
        if c.card == DOUBLE:
            text = translate(lang, "render.sf.played_double")
        elif c.card == NOTHING:
            text = translate(lang, "render.sf.played_nothing")
        else:
            text = translate(lang, "render.sf.played_city",
                             {"city": west().city_label(c.card, lang), "value": west().values[c.card]})
        if p.spur_active >= 0:
            key = "render.sf.spur_used" if p.spur_used else "render.sf.spur_active"
            text += " · " + translate(lang, key, {"rr": style.rr_code(p.spur_active)})
        fill, fg = style.mix(style.OVER_BG, (255, 255, 255), 0.85), style.TEXT
    if text is None:
        return
    size = 16
    room = RIGHT - 12 - (x + 4)
    if room < 40:
        return
    w = min(measure(text, size, True)[0] + 20, room)
    x1 = RIGHT - 12
    d.rounded_rectangle((x1 - w, y - 13, x1, y + 13), 13, fill=fill)
    draw_text(img, (x1 - w / 2, y), text, size, fg, bold=True, anchor="mm", max_width=int(w) - 14)


def _icon_legend(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, lang: str, top: int) -> int:
    """What the small pictures in the player rows mean."""
    y = top + LEGEND_H // 2
    x = LEFT + 4
    grey = style.MUTED_TEXT
    size = 15
    x = icons.cards(d, (x, y), 17) + 5
    x = draw_text(img, (x, y), translate(lang, "render.sf.icon.hand"), size, grey, anchor="lm")[2] + 14
    icons.double_card(img, (int(x), y - 9, int(x + 24), y + 9), 11)
    x = draw_text(img, (x + 29, y), translate(lang, "render.sf.icon.double"), size, grey, anchor="lm")[2] + 14
    icons.spur_card(img, (int(x), y - 9, int(x + 24), y + 9), style.rr_rgb(0))
    x = draw_text(img, (x + 29, y), translate(lang, "render.sf.icon.spur"), size, grey, anchor="lm")[2] + 14
    if view.options.advanced:
        x = icons.engineer(d, (x, y), 17) + 5
        draw_text(img, (x, y), translate(lang, "render.sf.icon.engineer"), size, grey, anchor="lm")
    return top + LEGEND_H


# --- the railroads ---------------------------------------------------------------------------------------------
def _railroads(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, lang: str, top: int) -> int:
    board = west()
    draw_text(img, (LEFT, top), translate(lang, "render.sf.railroads"), LABEL_SIZE, style.MUTED_TEXT, bold=True)
    n = len(board.railroads)
    gap = 8
    w = (WIDTH - gap * (n - 1)) / n
    y0 = top + 28
    for r in range(n):
        x0 = LEFT + r * (w + gap)
        x1 = x0 + w
        colour = style.rr_rgb(r)
        d.rounded_rectangle((x0, y0, x1, y0 + RAIL_H - 30), 10, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
        d.rounded_rectangle((x0, y0, x1, y0 + 28), 10, fill=colour, outline=style.TILE_EDGE, width=2)
        d.rectangle((x0 + 2, y0 + 16, x1 - 2, y0 + 26), fill=colour)
        draw_text(img, ((x0 + x1) / 2, y0 + 14), style.rr_code(r), 18, contrast_text(colour), bold=True, anchor="mm")
        cy = y0 + 54
        left = view.supply[r]
        tw = measure(str(left), 28, True)[0]
        tx = (x0 + x1) / 2 - (tw + 26) / 2
        icons.tile(d, (tx, cy), 18, colour)
        draw_text(img, (tx + 26, cy), str(left), 28, style.TEXT if left else style.MUTED_TEXT, bold=True, anchor="lm")
        spurs = view.spurs[r] if r < len(view.spurs) else 0
        lines = len(view.lines[r]) if r < len(view.lines) else 1
        for k, (key, params) in enumerate((("render.sf.spurs_left", {"count": spurs}),
                                           ("render.sf.lines", {"lines": lines, "max": board.rules.max_lines}))):
            draw_text(img, ((x0 + x1) / 2, y0 + 82 + k * 19), translate(lang, key, params), 15, style.MUTED_TEXT,
                      anchor="mm", max_width=int(w) - 8)
    return y0 + RAIL_H - 30


def _piles(img: Image.Image, d: ImageDraw.ImageDraw, view: SFView, lang: str, top: int) -> int:
    """The cards beside the board: double turns face up, the city deck, engineers (advanced)."""
    items = [("double", view.double_pile), ("deck", view.deck_size)]
    if view.options.advanced:
        items.append(("engineers", view.engineers))
    mid = top + PILES_H // 2
    parts = []
    for kind, count in items:
        label = translate(lang, f"render.sf.pile.{kind}")
        parts.append((kind, str(count), label, 44 + measure(str(count), 26, True)[0] + 6 + measure(label, 16)[0]))
    gap = max(12, (WIDTH - sum(p[3] for p in parts)) / max(1, len(parts) - 1)) if len(parts) > 1 else 0
    x = LEFT
    for kind, count, label, width in parts:
        if kind == "double":
            icons.double_card(img, (int(x), mid - 15, int(x + 36), mid + 15), 17)
        elif kind == "deck":
            icons.cards(d, (x + 2, mid), 30)
        else:
            icons.engineer(d, (x, mid), 30)
        end = draw_text(img, (x + 44, mid), count, 26, style.TEXT, bold=True, anchor="lm")[2]
        draw_text(img, (end + 6, mid), label, 16, style.MUTED_TEXT, anchor="lm", max_width=int(RIGHT - end - 6))
        x += width + gap
    return top + PILES_H


def _events(img: Image.Image, view: SFView, names: Sequence[str], lang: str, top: int, bottom: int) -> None:
    room = max(1, (bottom - top - 28) // EVENT_LINE_H)
    draw_events(img, view.last, names, lang, title=translate(lang, "render.sf.last_events"), left=LEFT, top=top,
                width=WIDTH, room=room, line_h=EVENT_LINE_H, title_size=LABEL_SIZE, size=EVENT_SIZE,
                title_colour=style.MUTED_TEXT, colour=style.TEXT)
