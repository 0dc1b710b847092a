"""Alt text for the Steam images (Discord's attachment description, at most 1024 characters):
what the picture shows, most important first — whose move, each player's money and points,
the last turn, each player's links — so render.kit.alt can drop whole sentences from the end.
"""
from __future__ import annotations

from typing import Sequence

from games.core.i18n import has_key, translate
from games.steam.derived import place_name
from games.steam.models import SteamView
from render.kit.alt import alt_text, board_heading, hand_heading, last_move_sentence, ranking_sentence
from render.kit.ended import is_abandoned
from render.kit.events import public_event_lines
from render.kit.ranking import tie_notes
from render.steam.hand import best_deliveries, link_words, own_links
from render.steam.sidebar import banner_text, seats_in_order, tile_name

GAME = "steam"
_ONE_LINE = 10 ** 6


def _list(lang: str, items: Sequence[str], latin_sep: str = ", ") -> str:
    return ("、" if lang == "ja" else latin_sep).join(items)


def _heading(lang: str, view: SteamView, names: Sequence[str], waiting: Sequence[int]) -> str:
    if has_key(lang, f"{GAME}.title") or has_key("en", f"{GAME}.title"):
        return board_heading(lang, GAME, view.state.turn, waiting, names)
    return translate(lang, "steam.render.alt.board", {"turn": view.state.turn, "turns": view.state.turns})


def _player(view: SteamView, seat: int, names: Sequence[str], lang: str) -> str:
    p = view.state.players[seat]
    if p.bankrupt:
        return translate(lang, "steam.render.alt.bankrupt", {"seat": seat}, names)
    action = tile_name(p.action, lang) if p.action else "—"
    return translate(lang, "steam.render.alt.player", {"seat": seat, "cash": p.cash, "income": p.income,
                                                       "points": p.points, "level": p.locomotive,
                                                       "action": action}, names)


def _links(view: SteamView, seat: int, names: Sequence[str], lang: str) -> str:
    links = own_links(view.state, seat)
    if not links:
        return ""
    words = [link_words(view.state, ends, lang) for complete, ends in links if complete]
    open_ = sum(1 for complete, _ in links if not complete)
    return translate(lang, "steam.render.alt.links", {"seat": seat, "links": _list(lang, words) or "—",
                                                      "open": open_}, names)


def describe_board(view: SteamView, names: Sequence[str], lang: str = "en") -> str:
    state = view.state
    title, sub, _, _ = banner_text(view, names, lang)
    over = state.phase == "over" or is_abandoned(view)
    events = public_event_lines(state.turn_events or state.last, names, lang, 10, _ONE_LINE, _ONE_LINE)
    events = [] if events == ["—"] else list(events)
    lines = [_heading(lang, view, names, [] if over else list(view.active)),
             translate(lang, "steam.render.alt.status", {"title": title, "sub": sub})]
    lines += [_player(view, seat, names, lang) for seat in seats_in_order(state)]
    if state.last_builds:
        lines.append(translate(lang, "steam.render.alt.last_build", {"hexes": _list(lang, state.last_builds)}))
    if events:
        lines.append(last_move_sentence(lang, events))
    lines += [_links(view, seat, names, lang) for seat in seats_in_order(state)]
    return alt_text(lines)


def describe_hand(view: SteamView, names: Sequence[str], lang: str = "en") -> str:
    if view.viewer is None:
        return ""
    state = view.state
    seat = view.viewer
    lines = [hand_heading(lang, seat, names), _player(view, seat, names, lang), _links(view, seat, names, lang)]
    goods = best_deliveries(state, seat) if not state.players[seat].bankrupt else []
    if goods:
        lines.append(translate(lang, "steam.render.alt.deliverable", {"entries": _list(lang, [
            translate(lang, "steam.render.hand.delivery", {
                "from": place_name(state, d.source, lang), "to": place_name(state, d.destination, lang),
                "links": len(d.links), "points": d.points_of(seat)}) for d in goods[:6]], "; ")}))
    else:
        lines.append(translate(lang, "steam.render.hand.nothing"))
    return alt_text(lines)


def describe_final(view: SteamView, names: Sequence[str], lang: str = "en") -> str:
    if view.result is None:
        return ""
    rows = view.result.players
    if has_key(lang, f"{GAME}.title") or has_key("en", f"{GAME}.title"):
        lines = [ranking_sentence(lang, GAME, [(r.rank, r.seat, r.total) for r in rows], names)]
    else:
        lines = [translate(lang, "steam.render.alt.ranking", {"entries": _list(lang, [
            translate(lang, "render.kit.alt.rank_entry", {"rank": r.rank, "seat": r.seat, "points": r.total}, names)
            for r in rows], "; ")}, names)]
    lines += tie_notes(view.result, lang, names)
    lines += [_player(view, r.seat, names, lang) for r in rows]
    return alt_text(lines)
