"""A Catan Express player's own hand (sent privately): their resource cards, their development
cards (playable ones apart from those bought this turn), their victory points and pieces left,
a key of what each build costs, ticked where the hand can pay for it now, and their knights,
victory point cards, chips and towers.

Drawn from the viewer's own view: only there are the hand and the development cards filled in
(CE-12); a spectator view, or a view whose hand is blanked, is refused.

Sized for a phone: Discord shows the image about 400 px wide there, so it is drawn only 800 px
wide (halved, not shrunk to two fifths) with its smallest text 20 px, 10 px at 400; the name
and the card counts are larger still. Each cost is a row of chips in the resource's colour with
its word and count printed on it, so the colour is never the only way to tell them apart, and
a build the hand can pay for carries a filled tick disc (an empty ring otherwise).
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES, components
from games.catan_express.models import CatanView
from games.core.i18n import translate
from render.catan_express import style
from render.catan_express.sidebar import name_of
from render.kit.chart import draw_marker
from render.kit.palette import contrast_text
from render.kit.shapes import card_glyph
from render.kit.text import draw_text, measure, wrap

WIDTH = 800
PAD = 20
INNER = WIDTH - 2 * PAD
TITLE = 34          # name and points: 17 px at 400
HEAD = 25           # section headings
TEXT = 22           # rows: development cards, builds, cost chips
SMALL = 20          # the smallest text (note, tile labels): 10 px at 400
HEADER_H = 66
HEAD_H = 40
CARD_W, CARD_H = 124, 100
BADGE_OVER = 16     # how far a card's count badge rises above (and beyond) the card
# The last card's badge straddles its right edge: leave it room inside the margin.
CARD_GAP = (INNER - 4 - BADGE_OVER - 5 * CARD_W) // 4
DEV_H = 36
ROW_H = 46
ROW_GAP = 6
TILE_H = 80
TILE_GAP = 12
TILE_PAD = 6
TILE_LINE = SMALL + 4  # a stat label too long for its tile takes two lines
STATS = ("knights", "vp_cards", "chips", "towers")
SECTION_GAP = 14
COSTED = ("settlement", "city", "rail", "ferry", "development_card")
CHECK = "✓"
# Darker than the board's muted grey: the hand is read shrunk, where a light grey washes out.
SOFT_TEXT = (70, 64, 58)
CAN_PAY = (30, 120, 60)     # the filled disc behind a tick
CANNOT_PAY = (150, 142, 132)  # the empty ring: a shape apart from the disc, not only a colour


def own_cards(view: CatanView) -> tuple[list[int], list[int], list[int]]:
    """(hand, dev, dev_new) of the viewer; ValueError if the view does not show them."""
    if view.viewer is None:
        raise ValueError("a hand image needs a player's view, not a spectator view")
    p = view.state.players[view.viewer]
    if p.hand is None or p.dev is None or p.dev_new is None:
        raise ValueError("this view does not show the viewer's cards")
    return list(p.hand), list(p.dev), list(p.dev_new)


def affordable(hand: Sequence[int], item: str) -> bool:
    cost = components().cost(item)
    return all(hand[RESOURCES.index(r)] >= n for r, n in cost.items())


def pieces_left(view: CatanView, seat: int) -> dict[str, int]:
    per = components().pieces_per_player
    s = view.seats[seat]
    return {"settlement": per["settlement"] - s.settlements, "city": per["city"] - s.cities,
            "rail": per["rail"] - s.rails, "ferry": per["ferry"] - s.ferries}


def cost_chips(item: str, lang: str) -> list[tuple[str, str]]:
    """(resource, words) for each resource a build costs, e.g. ("ore", "3 ore")."""
    return [(r.value, translate(lang, f"catan_express.cards.{r.value}", {"count": n})) for r, n in components().cost(item).items()]


def render_hand(view: CatanView, names: Sequence[str], lang: str = "en") -> Image.Image:
    hand, dev, dev_new = own_cards(view)
    seat = view.viewer
    dev_rows = [(k, dev[i], dev_new[i]) for i, k in enumerate(KINDS) if dev[i] or dev_new[i]]
    any_new = any(new for _, _, new in dev_rows)
    widths, labels = _tile_layout(lang)
    tile_h = TILE_H + (max(len(lines) for lines in labels) - 1) * TILE_LINE
    height = (PAD + HEADER_H + SECTION_GAP
              + HEAD_H + BADGE_OVER + CARD_H + SECTION_GAP
              + HEAD_H + max(1, len(dev_rows)) * DEV_H + (DEV_H if any_new else 0) + SECTION_GAP
              + HEAD_H + len(COSTED) * (ROW_H + ROW_GAP) + SECTION_GAP
              + tile_h + PAD)
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)

    _header(img, d, view, name_of(names, seat), lang)
    y = PAD + HEADER_H + SECTION_GAP
    y = _resources(img, hand, lang, y) + SECTION_GAP
    y = _development(img, d, dev_rows, any_new, sum(dev) + sum(dev_new), lang, y) + SECTION_GAP
    y = _costs(img, d, view, hand, lang, y) + SECTION_GAP
    p = view.state.players[seat]
    _tiles(img, d, [p.knights, p.vp_cards, len(p.chips), len(p.towers)], widths, labels, tile_h, y)
    return img


def _header(img: Image.Image, d: ImageDraw.ImageDraw, view: CatanView, name: str, lang: str) -> None:
    seat = view.viewer
    colour = style.player_rgb(seat)
    top, mid = PAD, PAD + HEADER_H / 2
    d.rounded_rectangle((PAD, top, WIDTH - PAD, top + HEADER_H), 12, fill=style.mix(colour, (255, 255, 255), 0.75),
                        outline=colour, width=4)
    draw_marker(d, style.player_marker(seat), (PAD + 34, mid), 16, colour, outline=style.CASING, width=2)
    points = translate(lang, "catan_express.render.hand.points", {"points": view.seats[seat].points})
    end = draw_text(img, (WIDTH - PAD - 18, mid), points, TITLE, style.TEXT, bold=True, anchor="rm")
    draw_text(img, (PAD + 62, mid), name, TITLE, style.TEXT, bold=True, anchor="lm", max_width=end[0] - 24 - PAD - 62)


def _heading(img: Image.Image, text: str, y: float) -> float:
    draw_text(img, (PAD, y + HEAD_H / 2), text, HEAD, style.TEXT, bold=True, anchor="lm", max_width=INNER)
    return y + HEAD_H


def _resources(img: Image.Image, hand: Sequence[int], lang: str, y: float) -> float:
    y = _heading(img, translate(lang, "catan_express.render.hand.resources", {"count": sum(hand)}), y) + BADGE_OVER
    x = PAD + 4
    for i, r in enumerate(RESOURCES):
        rgb = style.RESOURCE[r.value]
        held = hand[i] > 0
        card_glyph(img, (x, y), CARD_W, CARD_H, rgb if held else style.mix(rgb, (255, 255, 255), 0.7), count=hand[i])
        # The word sits low on the card, clear of the count badge on its top corner.
        draw_text(img, (x + CARD_W / 2, y + CARD_H * 0.6), translate(lang, f"catan_express.resource.{r.value}"), HEAD,
                  contrast_text(rgb) if held else SOFT_TEXT, bold=True, anchor="mm", max_width=CARD_W - 10)
        x += CARD_W + CARD_GAP
    return y + CARD_H


def _development(img: Image.Image, d: ImageDraw.ImageDraw, rows, any_new: bool, total: int, lang: str,
                 y: float) -> float:
    y = _heading(img, translate(lang, "catan_express.render.hand.development", {"count": total}), y)
    if not rows:
        draw_text(img, (PAD + 14, y + DEV_H / 2), "—", TEXT, SOFT_TEXT, anchor="lm")
        return y + DEV_H
    names = {kind: translate(lang, f"catan_express.card.{kind}") for kind, _, _ in rows}
    playable = {kind: translate(lang, "catan_express.render.hand.dev_playable", {"playable": n}) for kind, n, _ in rows}
    # Columns line up across the rows: names, then the playable counts, then those bought this turn.
    name_x = PAD + 46
    count_x = name_x + max(measure(t, TEXT, True)[0] for t in names.values()) + 26
    new_x = count_x + max(measure(t, TEXT)[0] for t in playable.values()) + 22
    for kind, n, new in rows:
        mid = y + DEV_H / 2
        card_glyph(img, (PAD + 12, mid - 14), 22, 28, style.DEV_CARD)
        draw_text(img, (name_x, mid), names[kind], TEXT, style.TEXT, bold=True, anchor="lm",
                  max_width=count_x - 12 - name_x)
        draw_text(img, (count_x, mid), playable[kind], TEXT, style.TEXT if n else SOFT_TEXT, anchor="lm",
                  max_width=new_x - 10 - count_x)
        if new:
            words = translate(lang, "catan_express.render.hand.dev_bought", {"new": new})
            w = min(measure(words, TEXT)[0], WIDTH - PAD - 14 - new_x - 14)
            d.rounded_rectangle((new_x, mid - 15, new_x + w + 20, mid + 15), 15, fill=style.PANEL,
                                outline=style.DEV_CARD, width=2)
            draw_text(img, (new_x + 10, mid), words, TEXT, style.TEXT, anchor="lm", max_width=w)
        y += DEV_H
    if any_new:
        draw_text(img, (PAD + 14, y + DEV_H / 2), translate(lang, "catan_express.render.hand.dev_note"), SMALL, SOFT_TEXT,
                  anchor="lm", max_width=INNER - 14)
        y += DEV_H
    return y


def _costs(img: Image.Image, d: ImageDraw.ImageDraw, view: CatanView, hand: Sequence[int], lang: str,
           y: float) -> float:
    y = _heading(img, translate(lang, "catan_express.render.hand.costs"), y)
    left = pieces_left(view, view.viewer)
    labels = {}
    for item in COSTED:
        name = translate(lang, f"catan_express.render.item.{item}")
        labels[item] = (translate(lang, f"catan_express.render.hand.left.{item}", {"left": left[item]})
                        if item in left else name)
    name_x = PAD + 58
    chips_x = name_x + max(measure(t, TEXT, True)[0] for t in labels.values()) + 22
    for item in COSTED:
        top, mid = y, y + ROW_H / 2
        d.rounded_rectangle((PAD, top, WIDTH - PAD, top + ROW_H), 10, fill=style.PANEL, outline=style.PANEL_EDGE,
                            width=2)
        cx = PAD + 28
        if affordable(hand, item):
            d.ellipse((cx - 15, mid - 15, cx + 15, mid + 15), fill=CAN_PAY)
            draw_text(img, (cx, mid), CHECK, TEXT, (255, 255, 255), bold=True, anchor="mm")
        else:
            d.ellipse((cx - 13, mid - 13, cx + 13, mid + 13), outline=CANNOT_PAY, width=3)
        draw_text(img, (name_x, mid), labels[item], TEXT, style.TEXT, bold=True, anchor="lm",
                  max_width=chips_x - 10 - name_x)
        x = chips_x
        for res, words in cost_chips(item, lang):
            rgb = style.RESOURCE[res]
            w = min(measure(words, TEXT, True)[0], WIDTH - PAD - 10 - x - 20)
            d.rounded_rectangle((x, mid - 16, x + w + 20, mid + 16), 8, fill=rgb, outline=style.CASING, width=1)
            draw_text(img, (x + 10, mid), words, TEXT, contrast_text(rgb), bold=True, anchor="lm", max_width=w)
            x += w + 20 + 8
        y += ROW_H + ROW_GAP
    return y - ROW_GAP


def _tile_layout(lang: str) -> tuple[list[float], list[list[str]]]:
    """Each stat tile's width and its label's lines. Tiles share the row by their labels' widths,
    so a long term (勝利ポイント・チップ) stays on one line; only if the four cannot fit so do
    the labels wrap, in tiles of equal width."""
    texts = [translate(lang, f"catan_express.render.hand.stat.{key}") for key in STATS]
    room = INNER - TILE_GAP * (len(STATS) - 1)
    natural = [measure(t, SMALL)[0] + 2 * TILE_PAD for t in texts]
    if sum(natural) <= room:
        extra = (room - sum(natural)) / len(STATS)
        return [n + extra for n in natural], [[t] for t in texts]
    width = room / len(STATS)
    return [width] * len(STATS), [wrap(t, SMALL, round(width) - 2 * TILE_PAD, lang)[:2] for t in texts]


def _tiles(img: Image.Image, d: ImageDraw.ImageDraw, values: Sequence[int], widths: Sequence[float],
           labels: Sequence[Sequence[str]], tile_h: float, y: float) -> None:
    x = PAD
    for value, w, lines in zip(values, widths, labels):
        d.rounded_rectangle((x, y, x + w, y + tile_h), 10, fill=style.PANEL, outline=style.PANEL_EDGE, width=2)
        draw_text(img, (x + w / 2, y + 28), str(value), TITLE - 4, style.TEXT, bold=True, anchor="mm")
        first = y + tile_h - 22 - (len(lines) - 1) * TILE_LINE
        for n, line in enumerate(lines):
            draw_text(img, (x + w / 2, first + n * TILE_LINE), line, SMALL, SOFT_TEXT, anchor="mm",
                      max_width=round(w) - 2 * TILE_PAD)
        x += w + TILE_GAP
