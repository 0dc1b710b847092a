"""Alt text for the Santa Fe images (Discord's attachment description, at most 1024
characters): in words what the picture shows, for a player with a screen reader.

Sentences go most important first (whose turn, the scores, the last turn, who played which
city), and render.kit.alt drops whole sentences from the end when they do not fit.
"""
from __future__ import annotations

from typing import Sequence

from games.core.i18n import translate
from games.santa_fe.map import west
from games.santa_fe.models import SantaFeView
from render.kit.alt import alt_text, board_heading, hand_heading, last_move_sentence, ranking_sentence
from render.kit.ended import is_abandoned
from render.kit.ranking import tie_notes
from render.kit.events import public_event_lines
from render.santa_fe.final import detail_lines
from render.santa_fe.sidebar import banner_text

GAME = "santa_fe"
_ONE_LINE = 10 ** 6  # wrap width and room large enough that every event stays one whole line


def _list(lang: str, items: Sequence[str], latin_sep: str = ", ") -> str:
    return ("、" if lang == "ja" else latin_sep).join(items)


def _scores(view: SantaFeView, names: Sequence[str], lang: str) -> str:
    """Money and points: in Santa Fe the money is part of the score and what players spend."""
    return translate(lang, "santa_fe.render.alt.scores", {"scores": _list(lang, [
        translate(lang, "santa_fe.render.alt.score", {"seat": p.seat, "money": p.money, "points": p.score}, names)
        for p in view.players])}, names)


def last_turn_events(view: SantaFeView, names: Sequence[str], lang: str) -> list[str]:
    """The whole last turn's public events, one string each (empty when nothing happened)."""
    lines = public_event_lines(view.turn_events or view.last, names, lang, 10, _ONE_LINE, _ONE_LINE)
    return [] if lines == ["—"] else list(lines)


def _played(view: SantaFeView, names: Sequence[str], lang: str) -> list[str]:
    """Who played which city card (public once revealed): a sentence per player."""
    board = west()
    out = []
    for p in view.players:
        if p.played:
            cities = _list(lang, [translate(lang, "santa_fe.render.played_city", {"city": board.city_label(c, lang),
                                                                             "value": board.values[c]})
                                  for c in p.played])
            out.append(translate(lang, "santa_fe.render.alt.played_entry", {"seat": p.seat, "cities": cities}, names))
    return out


def describe_board(view: SantaFeView, names: Sequence[str], lang: str = "en") -> str:
    title, sub, _, _ = banner_text(view, names, lang)
    over = view.phase == "over" or is_abandoned(view)
    events = last_turn_events(view, names, lang)
    return alt_text([
        board_heading(lang, GAME, None, [] if over else list(view.active), names),
        translate(lang, "santa_fe.render.alt.status", {"title": title, "sub": sub}),
        _scores(view, names, lang),
        last_move_sentence(lang, events) if events else "",
        *_played(view, names, lang),
    ])


def describe_hand(view: SantaFeView, names: Sequence[str], lang: str = "en") -> str:
    board = west()
    if view.viewer is None:
        return ""
    me = view.players[view.viewer]
    cards = _list(lang, [translate(lang, "santa_fe.render.played_city", {"city": board.city_label(c, lang),
                                                                     "value": board.values[c]})
                         for c in (me.hand or [])])
    lines = [hand_heading(lang, me.seat, names),
             translate(lang, "santa_fe.render.alt.hand", {"seat": me.seat, "cards": cards or "—", "money": me.money,
                                                    "doubles": me.doubles}, names)]
    if me.spur >= 0:
        lines.append(translate(lang, "santa_fe.render.alt.spur", {"rr": board.railroads[me.spur].code}))
    if view.legal:
        lines.append(translate(lang, "santa_fe.render.alt.your_move", {"count": len(view.legal)}))
    return alt_text(lines)


def describe_final(view: SantaFeView, names: Sequence[str], lang: str = "en") -> str:
    if view.result is None:
        return ""
    rows = view.result.players
    lines = [ranking_sentence(lang, GAME, [(r.rank, r.seat, r.total) for r in rows], names),
             *tie_notes(view.result, lang, names)]
    for r in rows:
        cities = _list(lang, detail_lines(view, r.seat, lang)) or "—"
        lines.append(translate(lang, "santa_fe.render.alt.detail", {"seat": r.seat, "money": r.stats.get("money", 0),
                                                              "cities": cities}, names))
    return alt_text(lines)
