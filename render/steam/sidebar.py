"""The panel under the Steam map: the turn and phase and whose move it is, one row per player
in turn order (cash, income, points, locomotive, action tile), the twelve goods supply spaces,
a legend of the map's marks, and the last turn's events.

Drawn per move from view.state (all public, ST-15). Players mostly see the board 400 px wide,
so no text is smaller than layout.MIN_TEXT.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.steam.components import components
from games.steam.models import COLOURS, SteamState, SteamView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.events import public_event_lines
from render.kit.banner import draw_banner
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure, signed
from render.steam import marks, style
from render.steam.layout import BOARD_W, MIN_TEXT

PAD = 12
LEFT, RIGHT = PAD, BOARD_W - PAD
TEXT = MIN_TEXT
NAME_SIZE = MIN_TEXT + 2
BANNER_H = 56
BANNER_SIZE = 30
HEAD_H = 34
ROW_H = 44
SPLIT = 930                  # players on the left, the last turn on the right
SUPPLY_H = 64
LEGEND_H = 44
EVENT_LINE_H = TEXT + 6
# Column right edges (numbers are right-aligned under their headings).
COL_CASH, COL_INCOME, COL_POINTS, COL_LOCO = 390, 490, 590, 680
COL_ACTION = 700             # left edge of the action tile's pill


def name_of(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def tile_name(tile: str, lang: str) -> str:
    name = components().action(tile).name
    return name.get(lang) or name["en"]


def seats_in_order(state: SteamState) -> list[int]:
    """This turn's order, then anyone out of the game."""
    return list(state.order) + [i for i in range(state.n) if i not in state.order]


def panel_height(state: SteamState) -> int:
    rows = max(state.n, 3)
    return 10 + BANNER_H + 10 + HEAD_H + rows * ROW_H + 12 + SUPPLY_H + 8 + LEGEND_H + PAD


def draw_panel(img: Image.Image, view: SteamView, names: Sequence[str], lang: str, top: int) -> None:
    state = view.state
    d = ImageDraw.Draw(img)
    y = _banner(img, d, view, names, lang, top + 10)
    rows_top = y + 10
    rows_bottom = rows_top + HEAD_H + max(state.n, 3) * ROW_H
    _players(img, d, view, names, lang, rows_top)
    _last_turn(img, d, view, names, lang, rows_top, rows_bottom)
    y = _supply(img, d, state, lang, rows_bottom + 12)
    _legend(img, d, lang, y + 8)


# --- the banner ----------------------------------------------------------------------------------
def phase_text(state: SteamState, lang: str) -> str:
    if state.phase == "deliver":
        return translate(lang, "render.steam.phase.deliver", {"round": state.deliver_round})
    return translate(lang, f"render.steam.phase.{state.phase}")


def banner_text(view: SteamView, names: Sequence[str], lang: str) -> tuple[str, str, tuple[int, int, int], bool]:
    """(title, subtitle, colour, arrow) of the banner: whose move and what, or who won."""
    state = view.state
    turn = translate(lang, "render.steam.turn", {"turn": state.turn, "turns": state.turns})
    if is_abandoned(view):
        return translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY), style.OVER_BG, False
    if state.phase == "over":
        title = translate(lang, "render.steam.game_over")
        result = view.result
        winners = [p.seat for p in result.players if p.rank == 1 and not p.stats.get("bankrupt")] if result else []
        if len(winners) == 1:
            title = translate(lang, "render.steam.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "render.steam.winners", {"seats": winners}, names)
        return title, turn, style.OVER_BG, False
    seat = view.active[0] if view.active else None
    sub = f"{turn} · {phase_text(state, lang)}"
    if seat is None:
        return phase_text(state, lang), turn, style.OVER_BG, False
    key = f"render.steam.move.{state.phase}"
    params = {"seat": seat}
    if state.phase == "deliver" and state.pending:
        key, params = "render.steam.move.score", {"seat": seat, "points": state.pending[0][1]}
    elif state.phase == "build":
        limit = components().placements_per_turn
        params["left"] = (limit["engineer"] if state.players[seat].action == "engineer" else limit["default"]) \
            - state.placed
    return translate(lang, key, params, names), sub, style.player_rgb(seat), True


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
            top: int) -> int:
    title, sub, bg, arrow = banner_text(view, names, lang)
    return draw_banner(img, d, (LEFT, top, RIGHT, top + BANNER_H), title, sub, bg, arrow, title_size=BANNER_SIZE,
                       text_size=TEXT, sub_room=(RIGHT - LEFT) // 2, text=draw_text)


# --- the players ---------------------------------------------------------------------------------
def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
             top: int) -> None:
    state = view.state
    mid = top + HEAD_H // 2
    for key, right in (("cash", COL_CASH), ("income", COL_INCOME), ("points", COL_POINTS), ("loco", COL_LOCO)):
        draw_text(img, (right, mid), translate(lang, f"render.steam.col.{key}"), TEXT, style.MUTED_TEXT, anchor="rm")
    draw_text(img, (COL_ACTION + 6, mid), translate(lang, "render.steam.col.action"), TEXT, style.MUTED_TEXT,
              anchor="lm", max_width=SPLIT - 16 - COL_ACTION - 6)
    active = set(view.active) if state.phase != "over" and not is_abandoned(view) else set()
    y = top + HEAD_H
    for seat in seats_in_order(state):
        _player_row(img, d, state, seat, names, lang, y, seat in active)
        y += ROW_H


def _player_row(img: Image.Image, d: ImageDraw.ImageDraw, state: SteamState, seat: int, names: Sequence[str],
                lang: str, y: int, is_active: bool) -> None:
    p = state.players[seat]
    colour = style.player_rgb(seat)
    if is_active:
        d.rounded_rectangle((LEFT, y + 2, SPLIT - 10, y + ROW_H - 2), 8, fill=style.mix(colour, (255, 255, 255), 0.8),
                            outline=colour, width=4)
    mid = y + ROW_H / 2
    marks.seat_marker(d, seat, (LEFT + 20, mid), 11)
    ink = style.MUTED_TEXT if p.bankrupt else style.TEXT
    draw_text(img, (LEFT + 40, mid), name_of(names, seat), NAME_SIZE, ink, bold=True, anchor="lm",
              max_width=COL_CASH - 80 - LEFT - 40)
    draw_text(img, (COL_CASH, mid), f"${p.cash}", NAME_SIZE, style.MONEY, bold=True, anchor="rm")
    draw_text(img, (COL_INCOME, mid), signed(p.income) if p.income <= 0 else f"+{p.income}", NAME_SIZE,
              style.LOSS if p.income < 0 else style.TEXT, bold=True, anchor="rm")
    draw_text(img, (COL_POINTS, mid), str(p.points), NAME_SIZE, style.TEXT, bold=True, anchor="rm")
    draw_text(img, (COL_LOCO, mid), str(p.locomotive), NAME_SIZE, style.TEXT, bold=True, anchor="rm")
    x = COL_ACTION
    room = SPLIT - 16 - x
    if p.bankrupt:
        _pill(img, d, (x, mid), translate(lang, "render.steam.bankrupt"), style.BANKRUPT_BG, room)
    elif p.action:
        text = tile_name(p.action, lang)
        if p.declined:
            text = translate(lang, "render.steam.declined", {"tile": text})
        _pill(img, d, (x, mid), text, style.PANEL if not p.declined else style.PANEL_BG, room,
              outline=style.PANEL_EDGE, ink=style.MUTED_TEXT if p.declined else style.TEXT)


def _pill(img: Image.Image, d: ImageDraw.ImageDraw, at: tuple[float, float], text: str, fill, room: int,
          outline=None, ink=None) -> None:
    x, mid = at
    w = min(measure(text, TEXT, True)[0] + 20, room)
    d.rounded_rectangle((x, mid - 16, x + w, mid + 16), 16, fill=fill, outline=outline, width=2 if outline else 0)
    draw_text(img, (x + w / 2, mid), text, TEXT, ink or contrast_text(fill), bold=True, anchor="mm",
              max_width=int(w) - 14)


# --- the last turn -------------------------------------------------------------------------------
def _last_turn(img: Image.Image, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
               top: int, bottom: int) -> None:
    state = view.state
    x = SPLIT + 8
    width = RIGHT - x
    d.line((SPLIT - 2, top, SPLIT - 2, bottom), fill=style.PANEL_EDGE, width=2)
    draw_text(img, (x, top + 2), translate(lang, "render.steam.last_events"), TEXT, style.MUTED_TEXT, bold=True,
              max_width=width)
    y = top + TEXT + 14
    room = max(1, (bottom - y) // EVENT_LINE_H)
    for line in public_event_lines(state.turn_events or state.last, names, lang, TEXT, width, room):
        draw_text(img, (x, y + EVENT_LINE_H // 2), line, TEXT, style.TEXT, anchor="lm", max_width=width)
        y += EVENT_LINE_H


# --- the goods supply and the legend -------------------------------------------------------------
def _supply(img: Image.Image, d: ImageDraw.ImageDraw, state: SteamState, lang: str, top: int) -> int:
    """The twelve goods supply spaces (City Growth and Urbanize take their cubes), numbered."""
    title = translate(lang, "render.steam.supply")
    end = draw_text(img, (LEFT, top + SUPPLY_H / 2), title, TEXT, style.MUTED_TEXT, bold=True, anchor="lm")[2]
    x0 = end + 14
    n = max(1, len(state.supply))
    w = (RIGHT - x0 - (n - 1) * 6) / n
    for k, counts in enumerate(state.supply):
        bx = x0 + k * (w + 6)
        d.rounded_rectangle((bx, top + 4, bx + w, top + SUPPLY_H - 4), 8, fill=style.PANEL, outline=style.PANEL_EDGE,
                            width=2)
        draw_text(img, (bx + 8, top + SUPPLY_H / 2), str(k + 1), TEXT, style.MUTED_TEXT, bold=True, anchor="lm")
        cubes = [COLOURS[c] for c, m in enumerate(counts) for _ in range(m)]
        cx = bx + 8 + measure(str(k + 1), TEXT, True)[0] + 14
        for colour in cubes:
            marks.cube(d, colour, (cx, top + SUPPLY_H / 2), 8)
            cx += 20
    return top + SUPPLY_H


def _legend(img: Image.Image, d: ImageDraw.ImageDraw, lang: str, top: int) -> None:
    """What the goods shapes and the track looks mean."""
    mid = top + LEGEND_H / 2
    x = LEFT
    for colour in COLOURS:
        marks.cube(d, colour, (x + 10, mid), 9)
        x = draw_text(img, (x + 24, mid), translate(lang, f"render.steam.colour.{colour}"), TEXT, style.TEXT,
                      anchor="lm")[2] + 18
    x += 10
    seg = 36
    # owned link with a marker, unowned (dashed), an open end, a grown city
    d.line((x, mid, x + seg, mid), fill=style.CASING, width=14)
    d.line((x, mid, x + seg, mid), fill=style.player_rgb(0), width=8)
    x = draw_text(img, (x + seg + 8, mid), translate(lang, "render.steam.legend.owned"), TEXT, style.TEXT,
                  anchor="lm")[2] + 18
    d.line((x, mid, x + seg, mid), fill=style.CASING, width=14)
    d.line((x, mid, x + seg, mid), fill=style.UNOWNED, width=8)
    for k in range(3):
        d.line((x + 3 + k * 12, mid, x + 9 + k * 12, mid), fill=style.UNOWNED_DASH, width=4)
    x = draw_text(img, (x + seg + 8, mid), translate(lang, "render.steam.legend.unowned"), TEXT, style.TEXT,
                  anchor="lm")[2] + 18
    d.line((x, mid, x + seg, mid), fill=style.CASING, width=14)
    d.line((x, mid, x + seg, mid), fill=style.player_rgb(1), width=8)
    d.line((x + seg, mid - 14, x + seg, mid + 14), fill=style.OPEN_END, width=5)
    x = draw_text(img, (x + seg + 10, mid), translate(lang, "render.steam.legend.open"), TEXT, style.TEXT,
                  anchor="lm")[2] + 18
    marks.growth_marker(d, (x + 10, mid), 10)
    draw_text(img, (x + 26, mid), translate(lang, "render.steam.legend.grown"), TEXT, style.TEXT, anchor="lm",
              max_width=int(RIGHT - x - 26))
