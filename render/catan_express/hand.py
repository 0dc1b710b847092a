"""A Catan Express player's own hand (sent privately): their resource cards, their development
cards (playable ones apart from those bought this turn), their victory points and pieces left,
and a key of what each build costs, ticked where the hand can pay for it now.

Drawn from the viewer's own view: only there are the hand and the development cards filled in
(CE-12); a spectator view, or a view whose hand is blanked, is refused.
"""
from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES, components
from games.catan_express.models import CatanView
from games.core.i18n import translate
from render.catan_express import style
from render.kit.chart import draw_marker
from render.kit.legibility import min_font_px
from render.kit.palette import contrast_text
from render.kit.shapes import card_glyph
from render.kit.text import draw_text

WIDTH = 1000
PAD = 24
SMALL = min_font_px(WIDTH)        # 18 px: 7 px at 400 px wide
BIG = SMALL + 8
LINE_H = SMALL + 16
CARD_W, CARD_H = 150, 96
CARD_GAP = 30
COSTED = ("settlement", "city", "rail", "ferry", "development_card")
CHECK = "✓"


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


def cost_words(item: str, lang: str) -> str:
    cost = components().cost(item)
    return " + ".join(translate(lang, f"ce.cards.{r.value}", {"count": n}) for r, n in cost.items())


def render_hand(view: CatanView, names: Sequence[str], lang: str = "en") -> Image.Image:
    from render.catan_express.sidebar import name_of

    hand, dev, dev_new = own_cards(view)
    seat = view.viewer
    summary = view.seats[seat]
    dev_rows = [(k, dev[i], dev_new[i]) for i, k in enumerate(KINDS) if dev[i] or dev_new[i]]
    height = (PAD + 64 + 16 + LINE_H + CARD_H + 30 + LINE_H + max(1, len(dev_rows)) * LINE_H + 16
              + LINE_H + len(COSTED) * LINE_H + 16 + LINE_H + PAD)
    img = Image.new("RGB", (WIDTH, height), style.PANEL_BG)
    d = ImageDraw.Draw(img)
    colour = style.player_rgb(seat)
    d.rounded_rectangle((PAD, PAD, WIDTH - PAD, PAD + 64), 12, fill=style.mix(colour, (255, 255, 255), 0.75),
                        outline=colour, width=4)
    draw_marker(d, style.player_marker(seat), (PAD + 32, PAD + 32), 14, colour, outline=style.CASING, width=2)
    points = translate(lang, "ce_render.hand.points", {"points": summary.points})
    end = draw_text(img, (WIDTH - PAD - 18, PAD + 32), points, BIG + 4, style.TEXT, bold=True, anchor="rm")
    draw_text(img, (PAD + 58, PAD + 32), name_of(names, seat), BIG + 4, style.TEXT, bold=True, anchor="lm",
              max_width=end[0] - 30 - PAD - 58)
    y = PAD + 64 + 16

    y = _heading(img, translate(lang, "ce_render.hand.resources", {"count": sum(hand)}), y)
    x = PAD + 6
    for i, r in enumerate(RESOURCES):
        rgb = style.RESOURCE[r.value]
        card_glyph(img, (x, y + 14), CARD_W, CARD_H, rgb if hand[i] else style.mix(rgb, (255, 255, 255), 0.7),
                   count=hand[i])
        draw_text(img, (x + CARD_W / 2, y + 14 + CARD_H / 2), translate(lang, f"ce.resource.{r.value}"), SMALL + 2,
                  contrast_text(rgb) if hand[i] else style.MUTED_TEXT, bold=True, anchor="mm", max_width=CARD_W - 10)
        x += CARD_W + CARD_GAP
    y += CARD_H + 30

    y = _heading(img, translate(lang, "ce_render.hand.development", {"count": sum(dev) + sum(dev_new)}), y + 8)
    if not dev_rows:
        draw_text(img, (PAD + 12, y + LINE_H / 2), "—", SMALL, style.MUTED_TEXT, anchor="lm")
        y += LINE_H
    for kind, playable, new in dev_rows:
        mid = y + LINE_H / 2
        d.rounded_rectangle((PAD + 12, mid - 12, PAD + 40, mid + 12), 4, fill=style.DEV_CARD, outline=style.CASING,
                            width=2)
        text = translate(lang, "ce_render.hand.dev_line", {"card": translate(lang, f"ce.card.{kind}"),
                                                          "playable": playable, "new": new})
        draw_text(img, (PAD + 54, mid), text, SMALL, style.TEXT, anchor="lm", max_width=WIDTH - 2 * PAD - 54)
        y += LINE_H

    y = _heading(img, translate(lang, "ce_render.hand.costs"), y + 16)
    left = pieces_left(view, seat)
    for item in COSTED:
        mid = y + LINE_H / 2
        ok = affordable(hand, item)
        draw_text(img, (PAD + 26, mid), CHECK if ok else "·", SMALL + 4, (30, 120, 60) if ok else style.MUTED_TEXT,
                  bold=True, anchor="mm")
        name = translate(lang, f"ce_render.item.{item}")
        if item in left:
            name = translate(lang, "ce_render.hand.item_left", {"item": name, "left": left[item]})
        end = draw_text(img, (PAD + 48, mid), name, SMALL, style.TEXT, bold=True, anchor="lm", max_width=400)[2]
        x = max(end + 16, PAD + 420)
        for r, n in components().cost(item).items():
            for _ in range(n):
                d.rounded_rectangle((x, mid - 11, x + 16, mid + 11), 3, fill=style.RESOURCE[r.value],
                                    outline=style.CASING, width=1)
                x += 20
            x += 8
        draw_text(img, (x + 6, mid), cost_words(item, lang), SMALL, style.MUTED_TEXT, anchor="lm",
                  max_width=int(WIDTH - PAD - x - 6))
        y += LINE_H
    p = view.state.players[seat]
    y += 16
    extra = translate(lang, "ce_render.hand.footer", {"knights": p.knights, "vp_cards": p.vp_cards,
                                                      "chips": len(p.chips), "towers": len(p.towers)})
    draw_text(img, (PAD, y + LINE_H / 2), extra, SMALL, style.MUTED_TEXT, anchor="lm", max_width=WIDTH - 2 * PAD)
    return img


def _heading(img: Image.Image, text: str, y: float) -> float:
    draw_text(img, (PAD, y + LINE_H / 2), text, SMALL + 2, style.TEXT, bold=True, anchor="lm",
              max_width=WIDTH - 2 * PAD)
    return y + LINE_H
