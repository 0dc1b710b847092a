"""Ticket to Ride's look on Discord: card colours as emoji (every menu pick whose icon is a
colour: the face-up cards, routes, payments), the status embed and the private hand.

What a player can do, and in which steps (take a card, draw tickets, claim a route → pay),
comes from the rules' menus (games/ticket_to_ride/decisions.py), drawn by the one chooser.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.sessions import PrivateView
from games.ticket_to_ride import notation

EMOJI = {"red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦",
         "pink": "🟪", "white": "⬜", "black": "⬛", "gray": "🔲", "locomotive": "🌈"}
ICONS = {**EMOJI, "deck": "🂠", "tickets": "🎫", "claim": "🛤️"}


class TicketToRideUI(GameUI):
    name = "ticket_to_ride"
    colour = discord.Colour(0xB03A2E)
    icon_emoji = ICONS

    # --- public -----------------------------------------------------------------------
    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        lines = []
        if view.phase == "choose":
            lines.append(t(lang, "ticket_to_ride.discord.status.choosing", {"seats": list(view.active)}, names))
        elif view.phase == "play":
            lines.append(t(lang, "ticket_to_ride.discord.status.turn", {"turn": view.turn + 1, "seat": view.current}, names))
            if view.final_round and view.turns_left is not None:
                lines.append("⚠️ " + t(lang, "ticket_to_ride.discord.status.final_round", turns=view.turns_left))
        else:
            lines.append(t(lang, "ticket_to_ride.discord.status.over"))
        lines.append(t(lang, "ticket_to_ride.discord.status.decks", deck=view.deck_size, discard=view.discard_size,
                       tickets=view.ticket_deck_size))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = clip(marker + (names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"), 256)
            value = t(lang, "ticket_to_ride.discord.player", trains=p.trains, cards=p.card_count,
                      tickets=p.ticket_count, points=p.route_points, routes=p.routes_claimed)
            if p.choosing:
                value += "\n" + t(lang, "ticket_to_ride.discord.player_choosing", count=p.choosing)
            fields.append((name, value))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        if view is None:
            return t(lang, "discord.hint.your_turn")
        if view.phase == "choose":
            return t(lang, "ticket_to_ride.discord.hint.choose")
        if view.drew_one:
            return t(lang, "ticket_to_ride.discord.hint.second")
        return t(lang, "ticket_to_ride.discord.hint.turn")

    # --- private ----------------------------------------------------------------------
    def ticket_text(self, ticket: Any, lang: str) -> str:
        return event_text(lang, notation.ticket_words(self.game.board, ticket.id), None)

    def hand_text(self, pv: PrivateView, lang: str) -> str:
        me = pv.view.players[pv.seat]
        lines: list[str] = []
        cards = [f"{EMOJI.get(c, '')} {t(lang, f'ttr.color.{c}')} ×{n}" for c, n in (me.hand or {}).items() if n]
        lines.append(f"**{t(lang, 'discord.ttr.hand.cards')}** " +
                     (" · ".join(cards) if cards else t(lang, "ticket_to_ride.discord.hand.no_cards")))
        lines.append(f"**{t(lang, 'discord.ttr.hand.trains')}** {me.trains}")
        if me.tickets:
            lines.append(f"**{t(lang, 'discord.ttr.hand.tickets')}**")
            for ticket in me.tickets:
                mark = "✅" if ticket.completed else "▫️"
                lines.append(f"{mark} {self.ticket_text(ticket, lang)}")
        if me.offered:
            lines.append(f"**{t(lang, 'discord.ttr.hand.offered', keep_min=me.keep_min)}**")
            for ticket in me.offered:
                lines.append(f"🎫 {self.ticket_text(ticket, lang)}")
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif not pv.active and pv.view.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)


register(TicketToRideUI())
