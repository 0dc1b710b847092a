"""Alt text for the Ticket to Ride images (Discord's attachment description): in words, what
a sighted player reads off the picture, for players who use a screen reader.

Board: the turn and whom the game waits on, every seat's public score and trains, the
face-up row, the whole last turn. Hand: the cards held, the tickets (done or not), the
tickets on offer. Final: the ranking with totals, tickets and longest paths.
Every phrase comes from the catalogs; the whole text stays within Discord's 1024 characters.
"""
from __future__ import annotations

from typing import Sequence

from games.core.i18n import translate
from games.ticket_to_ride.models import TicketToRideView
from render.kit.ended import is_abandoned
from render.kit.ranking import tie_notes

LIMIT = 1024


def clip(sentences: Sequence[str], lang: str, limit: int = LIMIT) -> str:
    """Sentences joined; those that would pass `limit` are left off (a sentence is never cut)."""
    sep = "" if lang == "ja" else " "
    out = ""
    for sentence in sentences:
        if not sentence:
            continue
        joined = out + sep + sentence if out else sentence
        if len(joined) > limit:
            break
        out = joined
    return out[:limit]


def _scores(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    totals = {p.seat: p.total for p in view.result.players} if view.result else {}
    items = [translate(lang, "ticket_to_ride.alt.player", {"seat": p.seat, "points": totals.get(p.seat, p.route_points),
                                                 "trains": p.trains}, names) for p in view.players]
    return translate(lang, "ticket_to_ride.alt.scores", {"scores": items})


def _waiting(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    if is_abandoned(view):
        return translate(lang, "ticket_to_ride.alt.abandoned")
    if view.phase == "over":
        return translate(lang, "ticket_to_ride.alt.over")
    if view.phase == "choose":
        return translate(lang, "ticket_to_ride.alt.choosing", {"seats": list(view.active)}, names)
    return translate(lang, "ticket_to_ride.alt.waiting", {"seat": view.current}, names)


def _last_turn(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    events = [e for e in (view.turn_log or view.last) if e.to is None]
    if not events:
        return ""
    sep = "" if lang == "ja" else " "
    return translate(lang, "ticket_to_ride.alt.last_turn",
                     {"text": sep.join(translate(lang, e.key, e.params, names) for e in events)})


def describe_board(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    turn = view.turn + (0 if view.phase == "over" else 1)
    sentences = [translate(lang, "ticket_to_ride.alt.board", {"turn": turn}), _waiting(view, names, lang),
                 _scores(view, names, lang)]
    if view.final_round and view.turns_left is not None:
        sentences.append(translate(lang, "ticket_to_ride.render.final_round_left", {"count": view.turns_left}) + ".")
    cards = [{"key": f"ticket_to_ride.color.{c}"} for c in view.face_up if c is not None]
    if cards:
        sentences.append(translate(lang, "ticket_to_ride.alt.face_up", {"cards": cards}))
    sentences.append(_last_turn(view, names, lang))
    return clip(sentences, lang)


def _ticket(t, lang: str) -> str:
    if t.completed is None:
        key = "ticket_to_ride.alt.ticket"
    else:
        key = "ticket_to_ride.alt.ticket_done" if t.completed else "ticket_to_ride.alt.ticket_open"
    return translate(lang, key, {"a": _city(t.a, lang), "b": _city(t.b, lang), "points": t.points})


def _city(name: str, lang: str) -> str:
    from games.ticket_to_ride.map import usa

    return usa().city_label(name, lang)


def describe_hand(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    if view.viewer is None:
        return ""
    me = view.players[view.viewer]
    held = [translate(lang, "ticket_to_ride.alt.cards_of", {"count": n, "color": {"key": f"ticket_to_ride.color.{c}"}})
            for c, n in (me.hand or {}).items() if n]
    sentences = [translate(lang, "ticket_to_ride.alt.hand", {"seat": me.seat, "trains": me.trains}, names),
                 translate(lang, "ticket_to_ride.alt.holding", {"cards": held}) if held else translate(lang, "ticket_to_ride.alt.no_cards")]
    if me.offered:
        sentences.append(translate(lang, "ticket_to_ride.alt.offered", {"keep_min": me.keep_min,
                                                            "tickets": [_ticket(t, lang) for t in me.offered]}))
    if me.tickets:
        sentences.append(translate(lang, "ticket_to_ride.alt.tickets", {"tickets": [_ticket(t, lang) for t in me.tickets]}))
    return clip(sentences, lang)


def describe_final(view: TicketToRideView, names: Sequence[str], lang: str) -> str:
    if view.result is None:
        return ""
    sentences = [translate(lang, "ticket_to_ride.alt.final")]
    by_seat = {p.seat: p for p in view.players}
    for row in view.result.players:
        stats = row.stats or {}
        sentences.append(translate(lang, "ticket_to_ride.alt.rank", {
            "rank": row.rank, "seat": row.seat, "points": row.total, "done": stats.get("completed", 0),
            "total": stats.get("completed", 0) + stats.get("failed", 0), "longest": stats.get("longest", 0)}, names))
    sentences += tie_notes(view.result, lang, names)
    for row in view.result.players:
        tickets = by_seat[row.seat].tickets or []
        if tickets:
            sentences.append(translate(lang, "ticket_to_ride.alt.player_tickets",
                                       {"seat": row.seat, "tickets": [_ticket(t, lang) for t in tickets]}, names))
    return clip(sentences, lang)
