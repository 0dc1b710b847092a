"""The panel under the Catan Express map: whose move and what, one row per seat with its public
numbers (CE-12: victory points, resource and development card counts, knights, water towers,
victory point chips), the last roll as two dice, the race (on or not, who started it, the stops
in order with the towers still on each), the last turn's events, and a key to the map's marks.

Drawn per move from the view's public parts only. No text is smaller than sizes.MIN_TEXT.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from PIL import Image, ImageChops, ImageDraw

from games.catan_express.components import components
from games.catan_express.models import CatanState, CatanView
from games.core.i18n import translate
from render.catan_express import style
from render.catan_express.figures import loco_patch, robber_patch
from render.catan_express.sizes import BOARD_W, MIN_TEXT
from render.catan_express.stamps import is_plain, stamp_text
from render.kit.chart import draw_marker
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.events import public_event_lines
from render.kit.banner import draw_banner
from render.kit.regions import REGIONS
from render.kit.symbols import glyph
from render.kit.text import wrap

PAD = 12
LEFT, RIGHT = PAD, BOARD_W - PAD
TEXT = MIN_TEXT
NAME_SIZE = MIN_TEXT + 2
BANNER_H = 56
BANNER_SIZE = 28
HEAD_H = 34
ROW_H = 42
SPLIT = 740                  # the seats on the left, dice / race / last turn on the right
EVENT_LINE_H = TEXT + 6
LEGEND_H = 2 * (TEXT + 14)
# Column right edges: victory points, cards, development cards, knights, towers, chips.
COLUMNS = (("points", 300), ("cards", 382), ("dev", 452), ("knights", 546), ("towers", 640), ("chips", 726))
STAR = glyph(style.SYMBOLS.of("award", "Largest Army"))    # beside the knights
FLAG = glyph(style.SYMBOLS.of("award", "Fastest Driver"))  # beside the towers


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def panel_height(view: CatanView) -> int:
    rows = max(view.state.n, 4)
    return 10 + BANNER_H + 10 + HEAD_H + rows * ROW_H + TEXT + 16 + LEGEND_H + PAD


def draw_panel(img: Image.Image, view: CatanView, names: Sequence[str], lang: str, top: int) -> None:
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, top + 10)
    rows_top = y + 10
    rows_bottom = rows_top + HEAD_H + max(view.state.n, 4) * ROW_H
    _seats(img, d, view, names, lang, rows_top)
    _right(img, d, view, names, lang, rows_top, rows_bottom + TEXT + 10)
    stamp_text(img, (LEFT, rows_bottom + 4 + TEXT / 2), translate(lang, "catan_express.render.marks", {"star": STAR, "flag": FLAG}),
              TEXT, style.MUTED_TEXT, anchor="lm", max_width=SPLIT - LEFT - 16)
    legend_top = rows_bottom + TEXT + 16
    if not is_plain():  # the key never changes: drawn once per language on the panel's colour
        key, at = legend_patch(lang, img.height - legend_top)
        img.paste(key, (at[0], legend_top - KEY_LIFT + at[1]))
    else:
        _legend(img, d, lang, legend_top)


# --- the banner ----------------------------------------------------------------------------------
def phase_text(state: CatanState, lang: str) -> str:
    return translate(lang, f"catan_express.render.phase.{state.phase}")


def banner_text(view: CatanView, names: Sequence[str], lang: str) -> tuple[str, str, tuple[int, int, int], bool]:
    """(title, subtitle, colour, arrow): whose move and what, or who won."""
    state = view.state
    turn = translate(lang, "catan_express.render.turn", {"turn": state.turn}) if state.turn else phase_text(state, lang)
    if is_abandoned(view):
        return translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY), style.OVER_BG, False
    if state.phase == "over":
        title = translate(lang, "catan_express.render.game_over")
        result = view.result
        winners = [p.seat for p in result.players if p.rank == 1] if result else []
        if winners:
            title = translate(lang, "catan_express.render.winner", {"seats": winners, "count": len(winners)}, names)
        return title, turn, style.OVER_BG, False
    active = sorted(view.active)
    sub = f"{turn} · {phase_text(state, lang)}" if state.turn else turn
    if not active:
        return phase_text(state, lang), sub, style.OVER_BG, False
    if len(active) > 1:
        return translate(lang, "catan_express.render.waiting", {"seats": active}, names), sub, style.OVER_BG, True
    seat = active[0]
    return translate(lang, f"catan_express.render.move.{state.phase}", {"seat": seat}, names), sub, style.player_rgb(seat), True


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: CatanView, names: Sequence[str], lang: str,
            top: int) -> int:
    title, sub, bg, arrow = banner_text(view, names, lang)
    # each part of the panel is drawn again only when what it shows changes (render.kit.regions)
    return REGIONS.draw(img, (0, top - 4, BOARD_W, top + BANNER_H + 4), ("ce-banner", is_plain(), title, sub, bg, arrow),
                        lambda: draw_banner(img, d, (LEFT, top, RIGHT, top + BANNER_H), title, sub, bg, arrow,
                                            title_size=BANNER_SIZE, text_size=TEXT, sub_room=(RIGHT - LEFT) // 2,
                                            text=stamp_text))


# --- the seats -----------------------------------------------------------------------------------
def seat_values(view: CatanView, seat: int) -> dict[str, str]:
    """The seat's public numbers as printed in its row."""
    s = view.seats[seat]
    stops = len(view.state.stops)
    return {
        "points": str(s.points),
        "cards": str(s.cards),
        "dev": str(s.dev_cards),
        "knights": f"{s.knights}{STAR if s.largest_army else ''}",
        "towers": (f"{s.towers}/{stops}" if stops else str(s.towers)) + (FLAG if s.fastest else ""),
        "chips": str(s.chips),
    }


def _seats(img: Image.Image, d: ImageDraw.ImageDraw, view: CatanView, names: Sequence[str], lang: str,
           top: int) -> None:
    state = view.state
    REGIONS.draw(img, (0, top, SPLIT - 4, top + HEAD_H), ("ce-head", is_plain(), lang), lambda: _head(img, lang, top))
    active = set(view.active) if state.phase != "over" and not is_abandoned(view) else set()
    y = top + HEAD_H
    for seat in range(state.n):
        values = seat_values(view, seat)
        key = ("ce-row", is_plain(), lang, seat, seat in active, name_of(names, seat), tuple(values.items()))
        REGIONS.draw(img, (0, y, SPLIT - 4, y + ROW_H), key,
                     lambda: _seat_row(img, d, seat, names, values, y, seat in active))
        y += ROW_H


def _head(img: Image.Image, lang: str, top: int) -> None:
    mid = top + HEAD_H // 2
    for key, right in COLUMNS:
        stamp_text(img, (right, mid), translate(lang, f"catan_express.render.col.{key}"), TEXT, style.MUTED_TEXT, anchor="rm")


def _seat_row(img: Image.Image, d: ImageDraw.ImageDraw, seat: int, names: Sequence[str], values: dict[str, str],
              y: int, is_active: bool) -> None:
    colour = style.player_rgb(seat)
    if is_active:
        d.rounded_rectangle((LEFT, y + 2, SPLIT - 8, y + ROW_H - 2), 8,
                            fill=style.mix(colour, (255, 255, 255), 0.8), outline=colour, width=4)
    row_mid = y + ROW_H / 2
    draw_marker(d, style.player_marker(seat), (LEFT + 20, row_mid), 11, colour, outline=style.CASING, width=2)
    stamp_text(img, (LEFT + 40, row_mid), name_of(names, seat), NAME_SIZE, style.TEXT, bold=True, anchor="lm",
              max_width=COLUMNS[0][1] - 50 - LEFT - 40)
    for key, right in COLUMNS:
        stamp_text(img, (right, row_mid), values[key], NAME_SIZE if key == "points" else TEXT, style.TEXT,
                  bold=key == "points", anchor="rm")


# --- dice, race, last turn -----------------------------------------------------------------------
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def draw_die(d: ImageDraw.ImageDraw, x: float, y: float, size: float, value: int) -> None:
    d.rounded_rectangle((x, y, x + size, y + size), size * 0.18, fill=style.DIE, outline=style.CASING, width=2)
    r = size * 0.09
    for px, py in PIPS.get(value, []):
        cx, cy = x + size / 2 + px * size * 0.27, y + size / 2 + py * size * 0.27
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=style.DIE_PIP)


def race_lines(view: CatanView, names: Sequence[str], lang: str) -> list[str]:
    state = view.state
    if not state.race:
        return [translate(lang, "catan_express.render.race.off", {"points": components().race_start_points})]
    lines = [translate(lang, "catan_express.render.race.on", {"seat": state.starter if state.starter is not None else 0}, names)]
    if state.stops:
        lines.append(translate(lang, "catan_express.render.race.stops",
                               {"stops": " · ".join(f"{k}→{n}" for k, n in enumerate(state.stops, start=1))}))
    if state.race_winner is not None:
        lines.append(translate(lang, "catan_express.render.race.won", {"seat": state.race_winner}, names))
    return lines


def _right(img: Image.Image, d: ImageDraw.ImageDraw, view: CatanView, names: Sequence[str], lang: str,
           top: int, bottom: int) -> None:
    state = view.state
    width = RIGHT - (SPLIT + 10)
    race = tuple(part for text in race_lines(view, names, lang) for part in wrap(text, TEXT, width, lang, True))
    y = top + 40 + 8 + len(race) * EVENT_LINE_H + 4 + TEXT + 10
    room = max(1, int((bottom - y) // EVENT_LINE_H))
    lines = tuple(public_event_lines(state.last, names, lang, TEXT, width, room))
    key = ("ce-right", is_plain(), lang, top, bottom, tuple(state.dice), race, lines)
    REGIONS.draw(img, (SPLIT - 3, top, BOARD_W, bottom + 1), key,
                 lambda: _draw_right(img, d, state.dice, race, lines, lang, top, bottom))


def _draw_right(img: Image.Image, d: ImageDraw.ImageDraw, dice: Sequence[int], race: Sequence[str],
                lines: Sequence[str], lang: str, top: int, bottom: int) -> None:
    x = SPLIT + 10
    width = RIGHT - x
    d.line((SPLIT, top, SPLIT, bottom), fill=style.PANEL_EDGE, width=2)
    die = 40
    label = translate(lang, "catan_express.render.roll")
    end = stamp_text(img, (x, top + die / 2), label, TEXT, style.MUTED_TEXT, bold=True, anchor="lm")[2]
    if len(dice) == 2:
        for k, v in enumerate(dice):
            draw_die(d, end + 10 + k * (die + 8), top, die, v)
        stamp_text(img, (end + 10 + 2 * (die + 8) + 4, top + die / 2), f"= {sum(dice)}", NAME_SIZE, style.TEXT,
                  bold=True, anchor="lm")
    else:
        stamp_text(img, (end + 10, top + die / 2), "—", TEXT, style.TEXT, anchor="lm")
    y = top + die + 8
    for line in race:
        stamp_text(img, (x, y + EVENT_LINE_H / 2), line, TEXT, style.RACE, bold=True, anchor="lm", max_width=width)
        y += EVENT_LINE_H
    y += 4
    stamp_text(img, (x, y), translate(lang, "catan_express.render.last_events"), TEXT, style.MUTED_TEXT, bold=True,
              max_width=width)
    y += TEXT + 10
    for line in lines:
        stamp_text(img, (x, y + EVENT_LINE_H // 2), line, TEXT, style.TEXT, anchor="lm", max_width=width)
        y += EVENT_LINE_H


# --- the key to the map --------------------------------------------------------------------------
KEY_LIFT = 40


@lru_cache(maxsize=8)
def legend_patch(lang: str, height: int) -> tuple[Image.Image, tuple[int, int]]:
    """The key as _legend draws it on an empty panel `height` tall, cut to what it inks, and
    where that cut lies: pasting it leaves the panel round it as it was. Drawn KEY_LIFT lower
    than at the panel's top, so int() rounds every coordinate the same way as on the panel
    (it truncates towards zero, and a patch above the key's top would sit at a negative y)."""
    patch = Image.new("RGB", (BOARD_W, height + KEY_LIFT), style.PANEL_BG)
    _legend(patch, ImageDraw.Draw(patch), lang, KEY_LIFT)
    box = ImageChops.difference(patch, Image.new("RGB", patch.size, style.PANEL_BG)).getbbox()
    box = box or (0, 0, 1, 1)
    return patch.crop(box), box[:2]


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, lang: str, top: int) -> None:
    """Rail, ferry, stop, the last move's halo: the marks that are not obvious."""
    mid = top + (LEGEND_H / 2) / 2
    x = LEFT
    seg = 40
    d.line((x, mid, x + seg, mid), fill=style.CASING, width=12)
    d.line((x, mid, x + seg, mid), fill=style.player_rgb(1), width=8)
    x = stamp_text(img, (x + seg + 8, mid), translate(lang, "catan_express.render.legend.rail"), TEXT, style.TEXT,
                  anchor="lm")[2] + 20
    d.line((x, mid, x + seg, mid), fill=style.CASING, width=12)
    d.line((x, mid, x + seg, mid), fill=style.player_rgb(1), width=8)
    for k in range(3):
        d.line((x + 4 + k * 13, mid, x + 10 + k * 13, mid), fill=style.FERRY_DASH, width=3)
    x = stamp_text(img, (x + seg + 8, mid), translate(lang, "catan_express.render.legend.ferry"), TEXT, style.TEXT,
                  anchor="lm")[2] + 20
    r = 13
    d.ellipse((x, mid - r, x + 2 * r, mid + r), outline=style.STOP, width=5)
    x = stamp_text(img, (x + 2 * r + 8, mid), translate(lang, "catan_express.render.legend.stop"), TEXT, style.TEXT,
                  anchor="lm")[2] + 20
    patch = loco_patch(0)
    img.paste(patch, (int(x), int(mid - patch.height / 2)), patch)
    x = stamp_text(img, (x + patch.width + 6, mid), translate(lang, "catan_express.render.legend.loco"), TEXT, style.TEXT,
                  anchor="lm", max_width=int(RIGHT - x - patch.width - 6))[2] + 20
    mid2 = mid + LEGEND_H / 2
    x = LEFT
    d.line((x, mid2, x + seg, mid2), fill=style.CASING, width=8 + 2 * 10)
    d.line((x, mid2, x + seg, mid2), fill=(255, 255, 255), width=8 + 2 * 6)
    d.line((x, mid2, x + seg, mid2), fill=style.CASING, width=12)
    d.line((x, mid2, x + seg, mid2), fill=style.player_rgb(2), width=8)
    x = stamp_text(img, (x + seg + 8, mid2), translate(lang, "catan_express.render.legend.last"), TEXT, style.TEXT,
                  anchor="lm")[2] + 20
    patch = robber_patch(60.0)
    img.paste(patch, (int(x), int(mid2 - patch.height / 2)), patch)
    stamp_text(img, (x + patch.width + 6, mid2), translate(lang, "catan_express.render.legend.robber"), TEXT, style.TEXT,
              anchor="lm", max_width=int(RIGHT - x - patch.width - 6))
