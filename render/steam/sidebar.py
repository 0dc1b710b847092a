"""The panel under the Steam map: the turn and phase and whose move it is, one row per player
in turn order (cash, income, points, locomotive, action tile), the twelve goods supply spaces,
a legend of the map's marks, and the last turn's events.

Drawn per move from view.state (all public, ST-15). Players mostly see the board 400 px wide,
so no text is smaller than layout.MIN_TEXT.
"""
from __future__ import annotations

import math
from typing import Hashable, Sequence

from PIL import Image, ImageDraw

from games.core.i18n import translate
from games.steam.components import components
from games.steam.models import COLOURS, SteamState, SteamView
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, is_abandoned
from render.kit.events import public_event_lines
from render.kit.banner import draw_banner
from render.kit.legend import draw_legend, legend_height
from render.kit.palette import contrast_text
from render.kit.regions import Panel
from render.kit.text import draw_text, measure, signed
from render.steam import marks, style
from render.steam.layout import BOARD_W, MIN_TEXT

PAD = 12
LEFT, RIGHT = PAD, BOARD_W - PAD
Point = tuple[float, float]
TEXT = MIN_TEXT
NAME_SIZE = MIN_TEXT + 2
BANNER_H = 56
BANNER_SIZE = 30
HEAD_H = 34
ROW_H = 44
SPLIT = 930                  # players on the left, the last turn on the right
SUPPLY_TITLE_H = TEXT + 12    # the goods supply's title, over its spaces
SUPPLY_H = 64
SUPPLY_GAP = 6
CUBE_R = 8
CUBE_PITCH = 20
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


def panel_height(state: SteamState, lang: str) -> int:
    rows = max(state.n, 3)
    return (10 + BANNER_H + 10 + HEAD_H + rows * ROW_H + 12 + SUPPLY_TITLE_H + SUPPLY_H + 8
            + legend_height(legend_items(lang), TEXT, RIGHT - LEFT) + PAD)


def draw_panel(img: Image.Image, view: SteamView, names: Sequence[str], lang: str, top: int,
               ground: Hashable = None) -> None:
    """The panel from `top` down. `ground`: a name for the empty panel img holds
    (render.kit.regions.Panel), if known."""
    state = view.state
    d = ImageDraw.Draw(img)
    panel = Panel(img, ground)
    y = _banner(panel, d, view, names, lang, top + 10)
    rows_top = y + 10
    rows_bottom = rows_top + HEAD_H + max(state.n, 3) * ROW_H
    _players(panel, d, view, names, lang, rows_top)
    _last_turn(panel, d, view, names, lang, rows_top, rows_bottom)
    y = _supply(panel, d, state, lang, rows_bottom + 12)
    # each part of the panel is drawn again only when what it shows changes (render.kit.regions)
    items = legend_items(lang)
    box = (0, y + 4, BOARD_W, min(img.height, y + 12 + legend_height(items, TEXT, RIGHT - LEFT)))
    panel.draw(box, ("steam-legend", lang, y), lambda: draw_legend(img, (LEFT, y + 8), items, TEXT, RIGHT - LEFT))


# --- the banner ----------------------------------------------------------------------------------
def phase_text(state: SteamState, lang: str) -> str:
    if state.phase == "deliver":
        return translate(lang, "steam.render.phase.deliver", {"round": state.deliver_round})
    return translate(lang, f"steam.render.phase.{state.phase}")


def banner_text(view: SteamView, names: Sequence[str], lang: str) -> tuple[str, str, tuple[int, int, int], bool]:
    """(title, subtitle, colour, arrow) of the banner: whose move and what, or who won."""
    state = view.state
    turn = translate(lang, "steam.render.turn", {"turn": state.turn, "turns": state.turns})
    if is_abandoned(view):
        return translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY), style.OVER_BG, False
    if state.phase == "over":
        title = translate(lang, "steam.render.game_over")
        result = view.result
        winners = [p.seat for p in result.players if p.rank == 1 and not p.stats.get("bankrupt")] if result else []
        if len(winners) == 1:
            title = translate(lang, "steam.render.winner", {"seat": winners[0]}, names)
        elif winners:
            title = translate(lang, "steam.render.winners", {"seats": winners}, names)
        return title, turn, style.OVER_BG, False
    seat = view.active[0] if view.active else None
    sub = f"{turn} · {phase_text(state, lang)}"
    if seat is None:
        return phase_text(state, lang), turn, style.OVER_BG, False
    key = f"steam.render.move.{state.phase}"
    params = {"seat": seat}
    if state.phase == "deliver" and state.pending:
        key, params = "steam.render.move.score", {"seat": seat, "points": state.pending[0][1]}
    elif state.phase == "build":
        limit = components().placements_per_turn
        params["left"] = (limit["engineer"] if state.players[seat].action == "engineer" else limit["default"]) \
            - state.placed
    return translate(lang, key, params, names), sub, style.player_rgb(seat), True


def _banner(panel: Panel, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
            top: int) -> int:
    img = panel.img
    title, sub, bg, arrow = banner_text(view, names, lang)
    return panel.draw((0, top - 4, BOARD_W, top + BANNER_H + 4), ("steam-banner", title, sub, bg, arrow),
                        lambda: draw_banner(img, d, (LEFT, top, RIGHT, top + BANNER_H), title, sub, bg, arrow,
                                            title_size=BANNER_SIZE, text_size=TEXT, sub_room=(RIGHT - LEFT) // 2,
                                            text=draw_text))


# --- the players ---------------------------------------------------------------------------------
def _players(panel: Panel, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
             top: int) -> None:
    img = panel.img
    state = view.state
    panel.draw((0, top, SPLIT - 6, top + HEAD_H), ("steam-head", lang), lambda: _head(img, lang, top))
    active = set(view.active) if state.phase != "over" and not is_abandoned(view) else set()
    y = top + HEAD_H
    for seat in seats_in_order(state):
        key = ("steam-row", lang, y, seat, seat in active, repr(state.players[seat]), name_of(names, seat))
        panel.draw((0, y, SPLIT - 6, y + ROW_H), key,
                   lambda: _player_row(img, d, state, seat, names, lang, y, seat in active))
        y += ROW_H


def _head(img: Image.Image, lang: str, top: int) -> None:
    mid = top + HEAD_H // 2
    for key, right in (("cash", COL_CASH), ("income", COL_INCOME), ("points", COL_POINTS), ("loco", COL_LOCO)):
        draw_text(img, (right, mid), translate(lang, f"steam.render.col.{key}"), TEXT, style.MUTED_TEXT, anchor="rm")
    draw_text(img, (COL_ACTION + 6, mid), translate(lang, "steam.render.col.action"), TEXT, style.MUTED_TEXT,
              anchor="lm", max_width=SPLIT - 16 - COL_ACTION - 6)


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
        _pill(img, d, (x, mid), translate(lang, "steam.render.bankrupt"), style.BANKRUPT_BG, room)
    elif p.action:
        text = tile_name(p.action, lang)
        if p.declined:
            text = translate(lang, "steam.render.declined", {"tile": text})
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
def _last_turn(panel: Panel, d: ImageDraw.ImageDraw, view: SteamView, names: Sequence[str], lang: str,
               top: int, bottom: int) -> None:
    img = panel.img
    state = view.state
    x = SPLIT + 8
    width = RIGHT - x
    y = top + TEXT + 14
    room = max(1, (bottom - y) // EVENT_LINE_H)
    lines = tuple(public_event_lines(state.turn_events or state.last, names, lang, TEXT, width, room))
    panel.draw((SPLIT - 6, top, BOARD_W, bottom + 1), ("steam-last-turn", lang, top, bottom, lines),
               lambda: _draw_last_turn(img, d, lang, top, bottom, lines))


def _draw_last_turn(img: Image.Image, d: ImageDraw.ImageDraw, lang: str, top: int, bottom: int,
                    lines: Sequence[str]) -> None:
    x = SPLIT + 8
    width = RIGHT - x
    d.line((SPLIT - 2, top, SPLIT - 2, bottom), fill=style.PANEL_EDGE, width=2)
    draw_text(img, (x, top + 2), translate(lang, "steam.render.last_events"), TEXT, style.MUTED_TEXT, bold=True,
              max_width=width)
    y = top + TEXT + 14
    for line in lines:
        draw_text(img, (x, y + EVENT_LINE_H // 2), line, TEXT, style.TEXT, anchor="lm", max_width=width)
        y += EVENT_LINE_H


# --- the goods supply and the legend -------------------------------------------------------------
def supply_layout(state: SteamState, top: int) -> list[tuple[tuple[float, float, float, float], list[tuple[str, Point]]]]:
    """Each goods supply space's box and its cubes (colour, centre), left to right under the
    title: the twelve spaces share the panel's width, and a space's cubes close up (down to
    touching) so that the fullest space still holds all of its cubes."""
    n = max(1, len(state.supply))
    w = (RIGHT - LEFT - (n - 1) * SUPPLY_GAP) / n
    y0, y1 = top + SUPPLY_TITLE_H + 4, top + SUPPLY_TITLE_H + SUPPLY_H - 4
    out = []
    for k, counts in enumerate(state.supply):
        x0 = LEFT + k * (w + SUPPLY_GAP)
        cubes = [COLOURS[c] for c, m in enumerate(counts) for _ in range(m)]
        first = x0 + 8 + measure(str(k + 1), TEXT, True)[0] + 8 + CUBE_R + 2
        room = x0 + w - 6 - CUBE_R - 2 - first
        pitch = min(CUBE_PITCH, room / (len(cubes) - 1)) if len(cubes) > 1 else 0
        out.append(((x0, y0, x0 + w, y1), [(colour, (first + i * pitch, (y0 + y1) / 2)) for i, colour in enumerate(cubes)]))
    return out


def _supply(panel: Panel, d: ImageDraw.ImageDraw, state: SteamState, lang: str, top: int) -> int:
    """The twelve goods supply spaces (City Growth and Urbanize take their cubes), numbered."""
    box = (0, top, BOARD_W, top + SUPPLY_TITLE_H + SUPPLY_H)
    return panel.draw(box, ("steam-supply", lang, top, repr(state.supply)),
                      lambda: _draw_supply(panel.img, d, state, lang, top))


def _draw_supply(img: Image.Image, d: ImageDraw.ImageDraw, state: SteamState, lang: str, top: int) -> int:
    draw_text(img, (LEFT, top + SUPPLY_TITLE_H / 2), translate(lang, "steam.render.supply"), TEXT, style.MUTED_TEXT,
              bold=True, anchor="lm")
    for k, (box, cubes) in enumerate(supply_layout(state, top)):
        d.rounded_rectangle(box, 8, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
        draw_text(img, (box[0] + 8, (box[1] + box[3]) / 2), str(k + 1), TEXT, style.MUTED_TEXT, bold=True, anchor="lm")
        for colour, centre in cubes:
            marks.cube(d, colour, centre, CUBE_R)
    return top + SUPPLY_TITLE_H + SUPPLY_H


def legend_items(lang: str) -> list[tuple]:
    """What the map's marks mean: the goods' shapes and colours, the looks of a link, a grown
    city, the black edges no track may cross, and what rivers and hills add to a build's cost."""
    costs = components().build_costs
    items = [(_cube_symbol(colour), translate(lang, f"steam.render.colour.{colour}")) for colour in COLOURS]
    items += [(_link_symbol(style.player_rgb(0)), translate(lang, "steam.render.legend.owned")),
              (_link_symbol(style.UNOWNED, dashed=True), translate(lang, "steam.render.legend.unowned")),
              (_link_symbol(style.player_rgb(1), open_end=True), translate(lang, "steam.render.legend.open")),
              (_growth_symbol, translate(lang, "steam.render.legend.grown")),
              (_black_edge_symbol, translate(lang, "steam.render.legend.black_edge")),
              (_river_symbol, translate(lang, "steam.render.legend.river", {"cost": costs.river})),
              (_hills_symbol, translate(lang, "steam.render.legend.hills", {"cost": costs.hills}))]
    return items


def _cube_symbol(colour: str):
    def draw(d: ImageDraw.ImageDraw, box) -> None:
        marks.cube(d, colour, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 9)
    return draw


def _link_symbol(fill, dashed: bool = False, open_end: bool = False):
    def draw(d: ImageDraw.ImageDraw, box) -> None:
        x0, x1, mid = box[0] - 4, box[2] + 2, (box[1] + box[3]) / 2
        d.line((x0, mid, x1, mid), fill=style.CASING, width=14)
        d.line((x0, mid, x1, mid), fill=fill, width=8)
        if dashed:
            for k in range(3):
                d.line((x0 + 3 + k * 12, mid, x0 + 9 + k * 12, mid), fill=style.UNOWNED_DASH, width=4)
        if open_end:
            d.line((x1, mid - 14, x1, mid + 14), fill=style.OPEN_END, width=5)
    return draw


def _growth_symbol(d: ImageDraw.ImageDraw, box) -> None:
    marks.growth_marker(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), 10)


def _black_edge_symbol(d: ImageDraw.ImageDraw, box) -> None:
    """A stretch of black edge as the map draws it: a thick line with round ends."""
    mid = (box[1] + box[3]) / 2
    d.line((box[0] + 3, mid, box[2] - 3, mid), fill=style.BLACK_EDGE, width=7)
    for x in (box[0] + 3, box[2] - 3):
        d.ellipse((x - 3.5, mid - 3.5, x + 3.5, mid + 3.5), fill=style.BLACK_EDGE)


def _river_symbol(d: ImageDraw.ImageDraw, box) -> None:
    """A little of a river hex: plains with the wavy blue line."""
    d.rectangle(box, fill=style.PLAINS, outline=style.GRID_LINE)
    x0, x1, mid = box[0] + 2, box[2] - 2, (box[1] + box[3]) / 2
    pts = [(x0 + (x1 - x0) * i / 12, mid + 4 * math.sin(i / 12 * 2 * math.pi)) for i in range(13)]
    d.line(pts, fill=style.RIVER, width=4, joint="curve")


def _hills_symbol(d: ImageDraw.ImageDraw, box) -> None:
    """A little of a hills hex: its colour and a hump."""
    d.rectangle(box, fill=style.HILLS, outline=style.GRID_LINE)
    w = box[2] - box[0]
    d.arc((box[0] + w * 0.2, box[1] + w * 0.3, box[2] - w * 0.2, box[3] - w * 0.1), 200, 340, fill=style.HILL_MARK,
          width=3)
