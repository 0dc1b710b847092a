"""The panel under the map: whose turn and what the game waits on, the railroads' tiles left
and the cards beside the board, one line per player, and the whole last turn.

Everything here is drawn per move from public view fields. During the secret card choice it
shows who has chosen and who not yet, never what. Players mostly see the board 400 px wide,
so no text is smaller than layout.MIN_TEXT and the words are few; the status embed beside
the image carries the longer story.
"""
from __future__ import annotations

from typing import Hashable, Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.santa_fe.map import west
from games.santa_fe.models import DOUBLE, NOTHING, PlayerView, SantaFeView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.banner import draw_banner
from render.kit.events import public_event_lines
from render.kit.regions import Panel
from render.kit.text import draw_text, measure
from render.santa_fe import icons, style
from render.santa_fe.layout import BOARD_H, BOARD_W, MIN_TEXT, PANEL_Y
from render.santa_fe.tags import tag_patch

PAD = 12
LEFT = PAD
RIGHT = BOARD_W - PAD
WIDTH = RIGHT - LEFT

BANNER_H = 54
BANNER_SIZE = 30
TEXT = MIN_TEXT
NAME_SIZE = MIN_TEXT + 3
CHIPS_H = 40
ROW_MAX = 44
ROW_MARK_R = 12  # the seat's mark before each name
SPLIT = 800  # players on the left, the last turn on the right
EVENT_LINE_H = TEXT + 5


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def draw_sidebar(img: Image.Image, view: SantaFeView, names: Sequence[str], lang: str, ground: Hashable = None) -> None:
    """The panel under the map (it keeps the old name: the board calls it the same way).
    `ground`: a name for the empty panel img holds (render.kit.regions.Panel), if known."""
    d = ImageDraw.Draw(img)
    panel = Panel(img, ground)
    y = _banner(panel, d, view, names, lang, PANEL_Y + 10)
    y = _chips(panel, d, view, lang, y + 8)
    _players(panel, d, view, names, lang, y + 10, BOARD_H - PAD)
    _last_turn(panel, d, view, names, lang, y + 10, BOARD_H - PAD)


# --- top: whose turn, what the game waits on ------------------------------------------------------------
def banner_text(view: SantaFeView, names: Sequence[str], lang: str) -> tuple[str, str, tuple[int, int, int], bool]:
    """(title, subtitle, colour, arrow) of the turn banner."""
    rnd = translate(lang, "santa_fe.render.round", {"round": view.round})
    phase = view.phase
    if is_abandoned(view):
        return translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY), style.OVER_BG, False
    if phase == "over":
        title = translate(lang, "santa_fe.render.game_over")
        sub = title
        winners = [p.seat for p in view.result.players if p.rank == 1] if view.result else []
        if len(winners) == 1:
            title = translate(lang, "santa_fe.render.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "santa_fe.render.winners", {"seats": winners}, names)
        reason = f"santa_fe.end.{view.end_reason}"
        if view.end_reason and has_key(lang, reason):
            sub = f"{sub} · {translate(lang, reason)}"
        return title, sub, style.OVER_BG, False
    if phase in ("choose", "exchange"):
        waiting = [i for i in view.active]
        key = "santa_fe.render.choosing" if phase == "choose" else "santa_fe.render.exchanging"
        if phase == "choose" and view.round == 1:
            key = "santa_fe.render.choosing_first"
        title = translate(lang, key)
        sub = rnd + " · " + translate(lang, "santa_fe.render.waiting_for", {"seats": waiting}, names)
        return title, sub, style.OVER_BG, False
    seat = view.current if view.current is not None else (view.active[0] if view.active else 0)
    if phase == "track":
        title = translate(lang, "santa_fe.render.track_of", {"seat": seat}, names)
        me = view.players[seat]
        double = me.revealed is not None and me.revealed.card == DOUBLE
        sub = translate(lang, "santa_fe.render.track_sub", {"turn": view.track_turn, "left": view.left})
        if double:
            sub += " · " + translate(lang, "santa_fe.render.double_turn_short")
        sub = rnd + " · " + sub
    elif phase == "draw":
        title = translate(lang, "santa_fe.render.draw_of", {"seat": seat}, names)
        sub = rnd + " · " + translate(lang, "santa_fe.render.draw_sub")
    elif phase == "buy":
        title = translate(lang, "santa_fe.render.buy_of", {"seat": seat}, names)
        sub = rnd + " · " + translate(lang, "santa_fe.render.buy_sub")
    else:  # engineer
        title = translate(lang, "santa_fe.render.engineer_of", {"seat": seat}, names)
        sub = translate(lang, "santa_fe.render.engineer_sub")
    return title, sub, style.player_rgb(seat), True


def _banner(panel: Panel, d: ImageDraw.ImageDraw, view: SantaFeView, names: Sequence[str], lang: str,
            top: int) -> int:
    img = panel.img
    title, sub, bg, arrow = banner_text(view, names, lang)
    # each part of the panel is drawn again only when what it shows changes (render.kit.regions)
    return panel.draw((0, top - 4, BOARD_W, top + BANNER_H + 4), ("sf-banner", title, sub, bg, arrow),
                        lambda: draw_banner(img, d, (LEFT, top, RIGHT, top + BANNER_H), title, sub, bg, arrow,
                                            title_size=BANNER_SIZE, text_size=TEXT, sub_room=WIDTH // 2,
                                            text=draw_text))


# --- the railroads' tiles left and the cards beside the board --------------------------------------------
def _chips(panel: Panel, d: ImageDraw.ImageDraw, view: SantaFeView, lang: str, top: int) -> int:
    key = ("sf-chips", tuple(view.supply), view.double_pile, view.deck_size, view.options.advanced, view.engineers)
    return panel.draw((0, top, BOARD_W, top + CHIPS_H), key, lambda: _draw_chips(panel.img, d, view, top))


def _draw_chips(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, top: int) -> int:
    board = west()
    mid = top + CHIPS_H // 2
    x = LEFT
    for r in range(len(board.railroads)):
        colour = style.rr_rgb(r)
        code = style.rr_code(r)
        w = measure(code, TEXT, True)[0] + 16
        d.rounded_rectangle((x, mid - 17, x + w, mid + 17), 8, fill=colour, outline=style.TILE_EDGE, width=2)
        draw_text(img, (x + w / 2, mid), code, TEXT, style.rr_text(r), bold=True, anchor="mm")
        left = view.supply[r]
        x = draw_text(img, (x + w + 6, mid), str(left), NAME_SIZE, style.TEXT if left else style.MUTED_TEXT,
                      bold=True, anchor="lm")[2] + 22
    items = [("double", view.double_pile), ("deck", view.deck_size)]
    if view.options.advanced:
        items.append(("engineers", view.engineers))
    x += 10
    for kind, count in items:
        if kind == "double":
            icons.double_card(img, (int(x), mid - 17, int(x + 48), mid + 17), TEXT)
            x += 54
        elif kind == "deck":
            x = icons.cards(d, (x, mid), 32) + 6
        else:
            x = icons.engineer(d, (x, mid), 32) + 6
        x = draw_text(img, (x, mid), str(count), NAME_SIZE, style.TEXT, bold=True, anchor="lm")[2] + 22
    return top + CHIPS_H


# --- the players -----------------------------------------------------------------------------------------
def _players(panel: Panel, d: ImageDraw.ImageDraw, view: SantaFeView, names: Sequence[str], lang: str,
             top: int, bottom: int) -> None:
    img = panel.img
    n = len(view.players)
    row_h = min(ROW_MAX, (bottom - top) // max(n, 1))
    active = set(view.active) if view.phase != "over" and not is_abandoned(view) else set()
    for k, p in enumerate(view.players):
        y = top + k * row_h
        key = ("sf-row", lang, y, row_h, p.seat in active, repr(p), name_of(names, p.seat), view.phase, view.first,
               p.seat in view.active)
        panel.draw((0, y, SPLIT - 6, y + row_h), key,
                   lambda: _player_row(img, d, view, p, names, lang, y, row_h, p.seat in active))


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, p: PlayerView, names: Sequence[str],
                lang: str, y: int, h: int, is_active: bool) -> None:
    colour = style.player_rgb(p.seat)
    box = (LEFT, y + 2, SPLIT - 8, y + h - 2)
    if is_active:
        d.rounded_rectangle(box, 8, fill=style.mix(colour, (255, 255, 255), 0.82), outline=colour, width=4)
    mid = y + h / 2
    # the seat's mark, as on the map and the score chart: shape and colour name the player
    patch, offset = tag_patch(p.seat, (LEFT + 16, mid), ROW_MARK_R)
    img.paste(patch, offset, patch)
    first = view.first == p.seat and view.phase != "over"
    name = name_of(names, p.seat)
    tag = translate(lang, "santa_fe.render.first") if first else ""
    tag_w = measure(tag, TEXT, True)[0] + 14 if first else 0
    end = draw_text(img, (LEFT + 34, mid), name, NAME_SIZE, style.TEXT, bold=True, anchor="lm",
                    max_width=254 - tag_w - 8)[2]
    if first:  # the first player's marker: the flag the status embed uses for the first player
        d.rounded_rectangle((end + 6, mid - 15, end + 6 + tag_w, mid + 15), 15, fill=style.PANEL,
                            outline=style.DIVIDER, width=2)
        draw_text(img, (end + 6 + tag_w / 2, mid), tag, TEXT, style.TEXT, bold=True, anchor="mm")
    draw_text(img, (350, mid), f"${p.money}", NAME_SIZE, style.MONEY, bold=True, anchor="rm")
    draw_text(img, (462, mid), translate(lang, "santa_fe.render.points", {"points": p.score}), TEXT, style.TEXT,
              bold=True, anchor="rm")
    x = icons.cards(d, (474, mid), 26) + 3
    x = draw_text(img, (x, mid), str(p.hand_size), TEXT, style.TEXT, bold=True, anchor="lm")[2] + 8
    if p.doubles:
        icons.double_card(img, (int(x), int(mid - 16), int(x + 44), int(mid + 16)), TEXT)
        x += 50
    if p.spur >= 0:
        icons.spur_card(img, (int(x), int(mid - 12), int(x + 32), int(mid + 12)), style.rr_rgb(p.spur))
        x += 38
    if p.engineer:
        x = icons.engineer(d, (x, mid), 26) + 6
    _status(img, d, view, p, lang, x, mid)


def _status(img: Image.Image, d: ImageDraw.ImageDraw, view: SantaFeView, p: PlayerView, lang: str, x: float,
            y: float) -> None:
    """Right end of the row: chosen / choosing during the secret choice, the card played once
    revealed (public from then on)."""
    text, fill, fg = None, None, (255, 255, 255)
    if view.phase == "choose":
        if p.chosen:
            text, fill = translate(lang, "santa_fe.render.chosen"), style.DONE
        else:
            text, fill = translate(lang, "santa_fe.render.not_chosen"), style.CHOOSING_BG
    elif view.phase == "exchange" and p.seat in view.active:
        text, fill = translate(lang, "santa_fe.render.exchanging_short"), style.CHOOSING_BG
    elif view.phase in ("track", "exchange") and p.revealed is not None:
        c = p.revealed
        if c.card == DOUBLE:
            text = translate(lang, "santa_fe.render.played_double")
        elif c.card == NOTHING:
            text = translate(lang, "santa_fe.render.played_nothing")
        else:
            text = translate(lang, "santa_fe.render.played_city",
                             {"city": west().city_label(c.card, lang), "value": west().values[c.card]})
        fill, fg = style.mix(style.OVER_BG, (255, 255, 255), 0.85), style.TEXT
    if text is None:
        return
    right = SPLIT - 14
    room = right - (x + 4)
    if room < 60:
        return
    w = min(measure(text, TEXT, True)[0] + 18, room)
    d.rounded_rectangle((right - w, y - 15, right, y + 15), 15, fill=fill)
    draw_text(img, (right - w / 2, y), text, TEXT, fg, bold=True, anchor="mm", max_width=int(w) - 12)


# --- the last turn ---------------------------------------------------------------------------------------
def last_turn_lines(view: SantaFeView, names: Sequence[str], lang: str, width: int, room: int) -> list[str]:
    """The last turn's public events wrapped to `width`, at most `room` lines. When they do not
    fit, the kit keeps the start of the turn's first event (its move, naming the player) and
    the last events whole (bonuses and the game's end come last), with "…" between."""
    return public_event_lines(view.turn_events or view.last, names, lang, TEXT, width, room)


def _last_turn(panel: Panel, d: ImageDraw.ImageDraw, view: SantaFeView, names: Sequence[str], lang: str,
                top: int, bottom: int) -> None:
    x = SPLIT + 4
    width = RIGHT - x
    if view.turn_seat is not None:
        title = translate(lang, "santa_fe.render.last_turn_of", {"seat": view.turn_seat}, names)
    else:
        title = translate(lang, "santa_fe.render.last_events")
    y = top + TEXT + 12
    room = max(1, (bottom - y) // EVENT_LINE_H)
    lines = tuple(last_turn_lines(view, names, lang, width, room))
    panel.draw((SPLIT - 6, top, BOARD_W, bottom + 1), ("sf-last-turn", top, bottom, title, lines),
               lambda: _draw_last_turn(panel.img, d, top, bottom, title, lines))


def _draw_last_turn(img: Image.Image, d: ImageDraw.ImageDraw, top: int, bottom: int, title: str,
                    lines: Sequence[str]) -> None:
    x = SPLIT + 4
    width = RIGHT - x
    d.line((SPLIT - 2, top, SPLIT - 2, bottom), fill=style.PANEL_EDGE, width=2)
    draw_text(img, (x, top + 2), title, TEXT, style.MUTED_TEXT, bold=True, max_width=width)
    y = top + TEXT + 12
    for line in lines:
        draw_text(img, (x, y + EVENT_LINE_H // 2), line, TEXT, style.TEXT, anchor="lm", max_width=width)
        y += EVENT_LINE_H
