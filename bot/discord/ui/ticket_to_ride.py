"""Ticket to Ride on Discord.

Turn post buttons (from the public view): take a face-up card (one button per colour in the
row), draw from the deck, draw tickets, "Claim a route…" (opens private selects: the routes
this player can claim now, then the ways to pay for the chosen one) and "Show my hand".
During the opening ticket choice the post offers "Choose my tickets", which shows the
player's hand with a private multi-select of the offered tickets.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.discord.ui.components import Row, button, option, selects
from bot.sessions import PrivateView
from games import registry
from games.ticket_to_ride import notation
from games.ticket_to_ride.models import Claim

EMOJI = {"red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦",
         "pink": "🟪", "white": "⬜", "black": "⬛", "gray": "🔲", "locomotive": "🌈"}


class TicketToRideUI(GameUI):
    name = "ticket_to_ride"
    colour = discord.Colour(0xB03A2E)

    @property
    def game(self) -> Any:
        return registry.get(self.name)

    # --- public -----------------------------------------------------------------------
    def turn_rows(self, view: Any, game_id: int, version: int, lang: str) -> list[Row]:
        if view is None or view.phase == "over":
            return []
        hand_label = "discord.ttr.button.choose" if view.phase == "choose" else "discord.button.hand"
        hand = button(game_id, version, "hand", label=t(lang, hand_label),
                      emoji="🎫" if view.phase == "choose" else "🃏", style=discord.ButtonStyle.primary)
        if view.phase == "choose":
            return [[hand]]
        face_up: Row = []
        seen: set[str] = set()
        for color in view.face_up:
            if color is None or color in seen or (view.drew_one and color == "locomotive"):
                continue
            seen.add(color)
            face_up.append(button(game_id, version, "act", f"draw {color}", emoji=EMOJI.get(color),
                                  label=t(lang, "discord.ttr.button.take",
                                          color=t(lang, f"ttr.color.{color}"))))
        actions: Row = [button(game_id, version, "act", "draw deck", emoji="🂠",
                               label=t(lang, "discord.ttr.button.deck"),
                               disabled=view.deck_size + view.discard_size == 0)]
        if not view.drew_one:
            actions.append(button(game_id, version, "act", "tickets", emoji="🎫",
                                  label=t(lang, "discord.ttr.button.tickets"),
                                  disabled=view.ticket_deck_size == 0))
            actions.append(button(game_id, version, "claim", emoji="🛤️",
                                  label=t(lang, "discord.ttr.button.claim"),
                                  style=discord.ButtonStyle.success))
        actions.append(hand)
        return [face_up, actions] if face_up else [actions]

    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        lines = []
        if view.phase == "choose":
            lines.append(t(lang, "discord.ttr.status.choosing", {"seats": list(view.active)}, names))
        elif view.phase == "play":
            lines.append(t(lang, "discord.ttr.status.turn", {"turn": view.turn + 1, "seat": view.current}, names))
            if view.final_round and view.turns_left is not None:
                lines.append("⚠️ " + t(lang, "discord.ttr.status.final_round", turns=view.turns_left))
        else:
            lines.append(t(lang, "discord.ttr.status.over"))
        lines.append(t(lang, "discord.ttr.status.decks", deck=view.deck_size, discard=view.discard_size,
                       tickets=view.ticket_deck_size))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = clip(marker + (names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"), 256)
            value = t(lang, "discord.ttr.player", trains=p.trains, cards=p.card_count,
                      tickets=p.ticket_count, points=p.route_points, routes=p.routes_claimed)
            if p.choosing:
                value += "\n" + t(lang, "discord.ttr.player_choosing", count=p.choosing)
            fields.append((name, value))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        if view is None:
            return t(lang, "discord.hint.your_turn")
        if view.phase == "choose":
            return t(lang, "discord.ttr.hint.choose")
        if view.drew_one:
            return t(lang, "discord.ttr.hint.second")
        return t(lang, "discord.ttr.hint.turn")

    def private_notation(self, notation: str) -> bool:
        return notation.strip().lower().startswith("keep")

    # --- private ----------------------------------------------------------------------
    def ticket_text(self, ticket: Any, lang: str) -> str:
        return event_text(lang, notation.ticket_words(self.game.board, ticket.id), None)

    def hand_text(self, pv: PrivateView, lang: str) -> str:
        me = pv.view.players[pv.seat]
        lines: list[str] = []
        cards = [f"{EMOJI.get(c, '')} {t(lang, f'ttr.color.{c}')} ×{n}" for c, n in (me.hand or {}).items() if n]
        lines.append(f"**{t(lang, 'discord.ttr.hand.cards')}** " +
                     (" · ".join(cards) if cards else t(lang, "discord.ttr.hand.no_cards")))
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

    def private_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        me = pv.view.players[pv.seat]
        if pv.active and me.offered:
            options = [option(self.ticket_text(tk, lang), str(tk.id), emoji="🎫") for tk in me.offered]
            return [selects(pv.game_id, pv.version, "keep", options, numbered=False,
                            placeholder=t(lang, "discord.ttr.keep_placeholder", keep_min=me.keep_min),
                            min_values=max(1, me.keep_min), max_values=len(options))]
        return super().private_rows(pv, lang)

    # --- claim a route: which route, then how to pay ------------------------------------
    def _claims(self, pv: PrivateView) -> list[tuple[str, Claim]]:
        out = []
        for move in pv.legal:
            if move.notation.startswith("claim "):
                action = self.game.parse_action(move.notation)
                if isinstance(action, Claim):
                    out.append((move.notation, action))
        return out

    def claim_targets(self, pv: PrivateView, lang: str) -> list[discord.SelectOption]:
        board = self.game.board
        ways: dict[int, int] = {}
        for _, claim in self._claims(pv):
            ways[claim.route] = ways.get(claim.route, 0) + 1
        ordered = sorted(ways, key=lambda rid: (-board.routes[rid].length, board.routes[rid].code))
        options = []
        for rid in ordered:
            route = board.routes[rid]
            label = event_text(lang, notation.route_words(board, rid), None)
            desc = t(lang, "discord.ttr.claim_desc", points=board.rules.route_points[route.length],
                     ways=ways[rid])
            options.append(option(label, str(rid), desc, emoji=EMOJI.get(route.color)))
        return options

    def claim_payments(self, pv: PrivateView, target: str, lang: str) -> list[discord.SelectOption]:
        board = self.game.board
        options = []
        for text, claim in self._claims(pv):
            if str(claim.route) != target:
                continue
            length = board.routes[claim.route].length
            label = event_text(lang, notation.payment_words(claim, length), None)
            options.append(option(label, text, emoji=EMOJI.get(claim.color)))
        return options

    def route_name(self, target: str, lang: str) -> str:
        board = self.game.board
        try:
            return event_text(lang, notation.route_words(board, int(target)), None)
        except (ValueError, IndexError):
            return target


register(TicketToRideUI())
