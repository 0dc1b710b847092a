"""A Steam player's own card: there are no secrets in Steam (ST-15), so the "hand" image is the
player's side of the table in one place — cash, income, points, locomotive, the action tile,
their links (complete, or still open and where), and what they could deliver right now.

Drawn from view.state for the view's seat (a spectator view names no player and is refused).
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex
from games.core.i18n import translate
from games.steam.derived import board_map, city_colours, complete_links, cubes_by_city, place_name, runs
from games.steam.delivery import Delivery, Network, deliveries
from games.steam.models import SteamState, SteamView
from render.kit.legibility import min_font_px
from render.kit.text import draw_text, signed
from render.steam import marks, style
from render.steam.sidebar import name_of, tile_name

WIDTH = 1000
PAD = 24
SMALL = min_font_px(WIDTH)        # 18 px: 7 px at 400 px wide
BIG = SMALL + 8
LINE_H = SMALL + 14
MAX_LINKS = 12
MAX_DELIVERIES = 8


def own_links(state: SteamState, seat: int) -> list[tuple[bool, tuple]]:
    """(complete, ends) of each link the seat owns; an end is a place (Hex) or an open end
    (hex, side)."""
    traced = runs(state)
    return [(traced[rec.id].complete, traced[rec.id].ends) for rec in state.links
            if rec.owner == seat and rec.id in traced]


def link_words(state: SteamState, ends, lang: str) -> str:
    m = board_map(state)
    words = []
    for e in ends:
        if isinstance(e, Hex):
            words.append(place_name(state, e, lang))
        else:
            words.append(translate(lang, "steam.render.hand.open_at", {"hex": m.label(e[0])}))
    return " – ".join(words)


def best_deliveries(state: SteamState, seat: int) -> list[Delivery]:
    """The best delivery (most points for the seat, then the longest) of each cube the seat
    could move now, best first."""
    p = state.players[seat]
    found = deliveries(Network(complete_links(state)), city_colours(state), cubes_by_city(state), seat, p.locomotive)
    best: dict[tuple, Delivery] = {}
    for d in found:
        key = (d.source, d.colour)
        if key not in best or (d.points_of(seat), len(d.links)) > (best[key].points_of(seat), len(best[key].links)):
            best[key] = d
    return sorted(best.values(), key=lambda d: (-d.points_of(seat), -len(d.links)))


def render_hand(view: SteamView, names: Sequence[str], lang: str = "en") -> Image.Image:
    if view.viewer is None:
        raise ValueError("render_hand needs a player's view, not a spectator view")
    state = view.state
    seat = view.viewer
    p = state.players[seat]
    links = own_links(state, seat)
    links.sort(key=lambda item: not item[0])
    goods = best_deliveries(state, seat) if not p.bankrupt else []
    shown_links = links[:MAX_LINKS]
    shown_goods = goods[:MAX_DELIVERIES]
    # as drawn below: banner, the stats, then three headings (action, links, deliveries) with their lines
    height = (PAD + 60 + 16 + 2 * (LINE_H + 8) + 8 + LINE_H + 16 + LINE_H + max(1, len(shown_links)) * LINE_H
              + (LINE_H if len(links) > MAX_LINKS else 0) + 16 + LINE_H + max(1, len(shown_goods)) * LINE_H
              + (LINE_H if len(goods) > MAX_DELIVERIES else 0) + PAD)
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    colour = style.player_rgb(seat)
    # header: the seat's marker and name on a band of its colour
    d.rounded_rectangle((PAD, PAD, WIDTH - PAD, PAD + 60), 12, fill=style.mix(colour, (255, 255, 255), 0.75),
                        outline=colour, width=4)
    marks.seat_marker(d, seat, (PAD + 30, PAD + 30), 14)
    title = name_of(names, seat)
    if p.bankrupt:
        title = f"{title} · {translate(lang, 'render.steam.bankrupt')}"
    draw_text(img, (PAD + 56, PAD + 30), title, BIG + 4, style.TEXT, bold=True, anchor="lm",
              max_width=WIDTH - 2 * PAD - 70)
    y = PAD + 60 + 16
    stats = [("cash", f"${p.cash}"), ("income", signed(p.income) if p.income <= 0 else f"+{p.income}"),
             ("points", str(p.points)), ("loco", str(p.locomotive))]
    col_w = (WIDTH - 2 * PAD) / len(stats)
    for k, (key, value) in enumerate(stats):
        x = PAD + k * col_w
        draw_text(img, (x + 6, y + LINE_H / 2), translate(lang, f"steam.render.col.{key}"), SMALL, style.MUTED_TEXT,
                  anchor="lm", max_width=int(col_w) - 12)
        ink = style.MONEY if key == "cash" else style.LOSS if key == "income" and p.income < 0 else style.TEXT
        draw_text(img, (x + 6, y + LINE_H + 8 + LINE_H / 2), value, BIG, ink, bold=True, anchor="lm")
    y += 2 * (LINE_H + 8)
    action = translate(lang, "steam.render.hand.no_action")
    if p.action:
        action = tile_name(p.action, lang)
        if p.declined:
            action = translate(lang, "steam.render.declined", {"tile": action})
    y = _heading(img, translate(lang, "steam.render.col.action") + ": " + action, y + 8)
    y = _heading(img, translate(lang, "steam.render.hand.links", {"count": len(links)}), y + 16)
    if not links:
        draw_text(img, (PAD + 12, y + LINE_H / 2), "—", SMALL, style.MUTED_TEXT, anchor="lm")
        y += LINE_H
    for complete, ends in shown_links:
        mid = y + LINE_H / 2
        x = PAD + 12
        d.line((x, mid, x + 34, mid), fill=style.CASING, width=12)
        d.line((x, mid, x + 34, mid), fill=colour, width=7)
        if not complete:
            d.line((x + 34, mid - 11, x + 34, mid + 11), fill=style.OPEN_END, width=5)
        key = "steam.render.hand.complete" if complete else "steam.render.hand.incomplete"
        draw_text(img, (x + 48, mid), translate(lang, key, {"link": link_words(state, ends, lang)}), SMALL,
                  style.TEXT if complete else style.MUTED_TEXT, anchor="lm", max_width=WIDTH - PAD - x - 48)
        y += LINE_H
    if len(links) > MAX_LINKS:
        draw_text(img, (PAD + 12, y + LINE_H / 2), translate(lang, "steam.render.hand.more",
                                                             {"count": len(links) - MAX_LINKS}),
                  SMALL, style.MUTED_TEXT, anchor="lm")
        y += LINE_H
    y = _heading(img, translate(lang, "steam.render.hand.deliverable", {"level": p.locomotive}), y + 16)
    if not goods:
        draw_text(img, (PAD + 12, y + LINE_H / 2), translate(lang, "steam.render.hand.nothing"), SMALL,
                  style.MUTED_TEXT, anchor="lm")
        y += LINE_H
    for dv in shown_goods:
        mid = y + LINE_H / 2
        marks.cube(d, dv.colour.value, (PAD + 22, mid), 10)
        text = translate(lang, "steam.render.hand.delivery", {
            "from": place_name(state, dv.source, lang), "to": place_name(state, dv.destination, lang),
            "links": len(dv.links), "points": dv.points_of(seat)})
        draw_text(img, (PAD + 44, mid), text, SMALL, style.TEXT, anchor="lm", max_width=WIDTH - 2 * PAD - 44)
        y += LINE_H
    if len(goods) > MAX_DELIVERIES:
        draw_text(img, (PAD + 12, y + LINE_H / 2), translate(lang, "steam.render.hand.more",
                                                             {"count": len(goods) - MAX_DELIVERIES}),
                  SMALL, style.MUTED_TEXT, anchor="lm")
    return img


def _heading(img: Image.Image, text: str, y: float) -> float:
    draw_text(img, (PAD, y + LINE_H / 2), text, SMALL + 2, style.TEXT, bold=True, anchor="lm",
              max_width=WIDTH - 2 * PAD)
    return y + LINE_H


