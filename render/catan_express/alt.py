"""Alt text for the Catan Express images (Discord's attachment description, at most 1024
characters): what the picture shows, most important first — whose move, the roll, each seat's
public numbers, the last build and ride, the race — so render.kit.alt can drop whole sentences
from the end. Only public facts go into the board's text, as on the picture.
"""
from __future__ import annotations

from typing import Sequence

from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES
from games.catan_express.models import CatanView
from games.core.i18n import translate
from render.catan_express.board import towers_left
from render.kit.ranking import category_label, tie_notes
from render.catan_express.hand import COSTED, affordable, own_cards
from render.catan_express.sidebar import banner_text, race_lines
from render.kit.alt import alt_text, last_move_sentence
from render.kit.ended import is_abandoned
from render.kit.events import public_event_lines

_ONE_LINE = 10 ** 6


def _list(lang: str, items: Sequence[str], latin_sep: str = ", ") -> str:
    return ("、" if lang == "ja" else latin_sep).join(items)


def _seat(view: CatanView, seat: int, names: Sequence[str], lang: str) -> str:
    s = view.seats[seat]
    text = translate(lang, "catan_express.render.alt.seat", {"seat": seat, "points": s.points, "cards": s.cards,
                                                  "dev": s.dev_cards, "knights": s.knights, "towers": s.towers},
                     names)
    if s.largest_army:
        text += " " + translate(lang, "catan_express.render.alt.largest_army", {"seat": seat}, names)
    if s.fastest:
        text += " " + translate(lang, "catan_express.render.alt.fastest", {"seat": seat}, names)
    return text


def describe_board(view: CatanView, names: Sequence[str], lang: str = "en") -> str:
    state = view.state
    title, sub, _, _ = banner_text(view, names, lang)
    over = state.phase == "over" or is_abandoned(view)
    lines = [translate(lang, "catan_express.render.alt.board", {"title": title, "sub": sub})]
    if state.dice and len(state.dice) == 2:
        lines.append(translate(lang, "catan_express.render.alt.roll", {"a": state.dice[0], "b": state.dice[1],
                                                            "sum": sum(state.dice)}))
    if state.last_build:
        lines.append(translate(lang, "catan_express.render.alt.last_build", {"what": _list(lang, state.last_build)}))
    if state.last_ride:
        lines.append(translate(lang, "catan_express.render.alt.last_ride", {"path": " → ".join(str(p) for p in state.last_ride)}))
    lines += [_seat(view, seat, names, lang) for seat in range(state.n)]
    events = public_event_lines(state.last, names, lang, 10, _ONE_LINE, _ONE_LINE)
    if events and events != ["—"]:
        lines.append(last_move_sentence(lang, list(events)))
    if not over:
        lines.append(translate(lang, "catan_express.render.alt.robber", {"hex": state.robber}))
    lines += [line + ("" if line.endswith(("。", ".")) else ("。" if lang == "ja" else "."))
              for line in race_lines(view, names, lang)]
    for order, stop in enumerate(state.stops, start=1):
        lines.append(translate(lang, "catan_express.render.alt.stop", {"order": order, "point": stop,
                                                            "seats": towers_left(state, stop) or "—"}, names))
    return alt_text(lines)


def describe_hand(view: CatanView, names: Sequence[str], lang: str = "en") -> str:
    if view.viewer is None:
        return ""
    try:
        hand, dev, dev_new = own_cards(view)
    except ValueError:
        return ""
    seat = view.viewer
    cards = [translate(lang, f"catan_express.cards.{r.value}", {"count": hand[i]}) for i, r in enumerate(RESOURCES) if hand[i]]
    devs = [translate(lang, "catan_express.render.hand.dev_line", {"card": translate(lang, f"catan_express.card.{k}"), "playable": dev[i],
                                                        "new": dev_new[i]})
            for i, k in enumerate(KINDS) if dev[i] or dev_new[i]]
    can = [translate(lang, f"catan_express.render.item.{item}") for item in COSTED if affordable(hand, item)]
    lines = [translate(lang, "catan_express.render.alt.hand", {"seat": seat, "points": view.seats[seat].points}, names),
             translate(lang, "catan_express.render.alt.resources", {"cards": _list(lang, cards) if cards else "—",
                                                         "count": sum(hand)}),
             translate(lang, "catan_express.render.alt.development", {"cards": _list(lang, devs, "; ") if devs else "—"}),
             translate(lang, "catan_express.render.alt.can_build", {"items": _list(lang, can) if can else "—"})]
    return alt_text(lines)


def describe_final(view: CatanView, names: Sequence[str], lang: str = "en") -> str:
    result = view.result
    if result is None:
        return ""
    entries = []
    for row in result.players:
        per = row.by_category()
        parts = [f"{category_label(result, c, lang)} {per[c]}" for c in result.categories if per.get(c)]
        entries.append(translate(lang, "catan_express.render.alt.rank_entry", {"rank": row.rank, "seat": row.seat,
                                                                    "points": row.total,
                                                                    "detail": _list(lang, parts)}, names))
    lines = [translate(lang, "catan_express.render.alt.ranking", {"entries": _list(lang, entries, "; ")}),
             *tie_notes(result, lang, names)]
    if view.state.race_winner is not None:
        lines.append(translate(lang, "catan_express.render.race.won", {"seat": view.state.race_winner}, names)
                     + ("。" if lang == "ja" else "."))
    return alt_text(lines)

