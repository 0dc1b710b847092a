"""Santa Fe's look on Discord: railroad colours as emoji, the status embed (money, played
cities, who has chosen) and the private hand (cards, money, spur, engineer, the secret choice).

What a player can do comes from the rules' menus (games/santa_fe/decisions.py): the secret
card choice and the exchange privately, track laying as railroad → section → end, the draws;
the one chooser draws them. Every move also works with `/move`.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import event_text, t
from bot.discord.ui.base import GameUI, register
from bot.sessions import PrivateView
from games.santa_fe import notation

EMOJI = {"blue": "🟦", "white": "⬜", "green": "🟩", "red": "🟥", "yellow": "🟨"}
ICONS = {**EMOJI, "engineer": "👷", "double": "⏩", "spur": "🔀", "exchange": "🔁", "city": "🏙️", "nothing": "▫️"}


class SantaFeUI(GameUI):
    name = "santa_fe"
    colour = discord.Colour(0xC0622F)
    icon_emoji = ICONS

    @property
    def board(self) -> Any:
        return self.game.board

    # --- words ------------------------------------------------------------------------
    def rr_name(self, r: int, lang: str) -> str:
        names = self.board.railroads[r].name
        return names.get(lang, names["en"])

    def rr_emoji(self, r: int) -> str:
        return EMOJI.get(self.board.railroads[r].color, "🛤️")

    def city(self, c: int, lang: str) -> str:
        return self.board.city_label(c, lang)

    def city_value(self, c: int, lang: str) -> str:
        return t(lang, "santa_fe.discord.city_value", city=self.city(c, lang), value=self.board.values[c])

    def reached_by(self, view: Any, c: int, lang: str) -> str:
        mask = view.connected[c]
        codes = [self.board.railroads[r].code for r in range(len(self.board.railroads)) if mask >> r & 1]
        if not codes:
            return t(lang, "santa_fe.discord.not_reached")
        return t(lang, "santa_fe.discord.reached_by", railroads=" ".join(codes), points=self.board.values[c] * len(codes))

    def choice_text(self, card: int, spur: bool, spur_rr: int, lang: str) -> str:
        return event_text(lang, notation.choice_words(self.board, card, spur, spur_rr), None)

    def _name(self, seat: int, names: Sequence[str]) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    def _spur_price(self, view: Any) -> int:
        rules = self.board.rules
        return rules.spur_price_advanced if view.options.advanced else rules.spur_price

    # --- public -----------------------------------------------------------------------
    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        board = self.board
        phase = view.phase
        lines: list[str] = []
        if phase == "over":
            lines.append(t(lang, "santa_fe.discord.status.over", reason={"key": f"santa_fe.end.{view.end_reason or 'all_placed'}"}))
        elif phase == "engineer":
            lines.append(t(lang, "santa_fe.discord.status.engineer", {"seat": view.current}, names,
                           price=board.rules.engineer_price))
        elif phase == "choose":
            waiting = [p.seat for p in view.players if not p.chosen]
            chosen = [p.seat for p in view.players if p.chosen]
            lines.append(t(lang, "santa_fe.discord.status.choose", {"seats": waiting}, names, round=view.round))
            if chosen:
                lines.append("✅ " + t(lang, "santa_fe.discord.status.chosen", {"seats": chosen}, names))
        elif phase == "track":
            lines.append(t(lang, "santa_fe.discord.status.track", {"seat": view.current}, names, round=view.round,
                           turn=view.track_turn, left=view.left))
        elif phase == "exchange":
            lines.append(t(lang, "santa_fe.discord.status.exchange", {"seats": list(view.active)}, names,
                           round=view.round))
        elif phase == "draw":
            lines.append(t(lang, "santa_fe.discord.status.draw", {"seat": view.current}, names, round=view.round))
        elif phase == "buy":
            lines.append(t(lang, "santa_fe.discord.status.buy", {"seat": view.current}, names, round=view.round,
                           price=board.rules.track_price))
        if phase != "over":
            lines.append(t(lang, "santa_fe.discord.status.first", {"seat": view.first}, names))
        lines.append(t(lang, "santa_fe.discord.status.deck", deck=view.deck_size, doubles=view.double_pile))
        if view.options.advanced:
            lines.append(t(lang, "santa_fe.discord.status.engineers", count=view.engineers))
        tiles = " · ".join(f"{self.rr_emoji(r)} {rr.code} {view.supply[r]}" for r, rr in enumerate(board.railroads))
        lines.append(t(lang, "santa_fe.discord.status.tiles", tiles=tiles))
        spurs = " · ".join(f"{rr.code} {view.spurs[r]}" for r, rr in enumerate(board.railroads))
        lines.append(t(lang, "santa_fe.discord.status.spurs", spurs=spurs, price=self._spur_price(view)))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = marker + self._name(p.seat, names)
            if p.seat == view.first and phase != "over":
                name += " 🚩"
            value = [t(lang, "santa_fe.discord.player.money", money=p.money, score=p.score)]
            spur = self.board.railroads[p.spur].code if p.spur >= 0 else "—"
            value.append(t(lang, "santa_fe.discord.player.hand", cards=p.hand_size, doubles=p.doubles, spur=spur))
            if p.engineer:
                value.append("👷 " + t(lang, "santa_fe.discord.player.engineer"))
            if any(p.bought):
                bought = " · ".join(f"{board.railroads[r].code} {k}" for r, k in enumerate(p.bought) if k)
                value.append(t(lang, "santa_fe.discord.player.bought", tiles=bought))
            if phase == "choose":
                value.append("✅ " + t(lang, "santa_fe.discord.player.chosen") if p.chosen
                             else "⏳ " + t(lang, "santa_fe.discord.player.choosing"))
            elif p.revealed is not None:
                spur_rr = p.spur_active if p.revealed.spur else -1
                value.append("🂠 " + t(lang, "santa_fe.discord.player.this_round",
                                      choice=self.choice_text(p.revealed.card, p.revealed.spur, spur_rr, lang)))
            if p.played:
                cards = [{"key": "santa_fe.discord.played_card",  # a list: joined the reader's way (、 in Japanese)
                          "params": {"city": self.city(c, lang), "value": board.values[c],
                                     "railroads": bin(view.connected[c]).count("1")}} for c in p.played]
                value.append(t(lang, "santa_fe.discord.player.played", cards=cards))
            else:
                value.append(t(lang, "santa_fe.discord.player.played", cards="—"))
            fields.append((name, "\n".join(value)))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        phase = getattr(view, "phase", None)
        if phase in ("choose", "track", "exchange", "draw", "buy", "engineer"):
            return t(lang, f"santa_fe.discord.hint.{phase}")
        return t(lang, "discord.hint.your_turn")

    # --- private ----------------------------------------------------------------------
    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        me = view.players[pv.seat]
        lines: list[str] = [f"**{t(lang, 'discord.sf.hand.cards')}**"]
        for c in me.hand or []:
            lines.append(f"🂠 {self.city_value(c, lang)} — {self.reached_by(view, c, lang)}")
        if not me.hand:
            lines.append(t(lang, "santa_fe.discord.hand.no_cards"))
        extras = [t(lang, "santa_fe.discord.hand.money", money=me.money),
                  t(lang, "santa_fe.discord.hand.doubles", count=me.doubles)]
        if me.spur >= 0:
            extras.append(t(lang, "santa_fe.discord.hand.spur", rr=self.rr_name(me.spur, lang)))
        if me.engineer:
            extras.append("👷 " + t(lang, "santa_fe.discord.player.engineer"))
        lines.append(" · ".join(extras))
        if me.spur_active >= 0 and not me.spur_used and view.phase == "track":
            lines.append("🔀 " + t(lang, "santa_fe.discord.hand.spur_active", rr=self.rr_name(me.spur_active, lang)))
        if me.choice is not None:
            spur_rr = me.spur if me.choice.spur else -1
            lines.append("🔒 " + t(lang, "santa_fe.discord.hand.your_choice",
                                  choice=self.choice_text(me.choice.card, me.choice.spur, spur_rr, lang)))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif view.phase == "choose" and me.chosen:
            waiting = [p.seat for p in view.players if not p.chosen]
            lines.append(t(lang, "santa_fe.discord.hand.wait_reveal", {"seats": waiting}, pv.names))
        elif view.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)


UI = SantaFeUI()
register(UI)
