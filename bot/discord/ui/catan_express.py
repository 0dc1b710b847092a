"""Catan Express's look on Discord: emoji for the menus' icons (the dice, the pieces,
resources and terrains, the answers to an offer), the status embed (turn, phase, whose move,
the dice and the robber, the bank, the race, each seat's public numbers) and the private text
(the reader's own resources and development cards, their trade ratios, what the game asks).

What a player can do comes from the rules' menus (games/catan_express/decisions.py): build as
what → point (places picked by number on a picture of the map), offers as give → get, discards and
answers as secret choices of their own; the one chooser draws them, and every move also
works with `/move`.

Hands are secret (CE-12): the public parts below read only counts (`view.seats`,
`PlayerState.cards`), never `hand` or `dev`, and are built from the spectator view in which
those are None anyway. Only `hand_text` reads a hand, the reader's own, and it is sent
ephemerally.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.sessions import PrivateView
from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES, components
from games.catan_express.economy import Hand

RESOURCE_EMOJI = {"lumber": "🌲", "brick": "🧱", "wool": "🐑", "grain": "🌾", "ore": "⛰️"}
TERRAIN_EMOJI = {"forest": "🌳", "hills": "🟫", "pasture": "🌿", "fields": "🌻", "mountains": "🏔️",
                 "gold_river": "🪙", "desert": "🏜️"}
CARD_EMOJI = {"knight": "⚔️", "victory_point": "⭐", "road_building": "🛤️", "year_of_plenty": "🎁",
              "monopoly": "💰"}
ACTION_EMOJI = {"roll": "🎲", "end": "⏭️", "end_special": "⏭️", "buy": "📜", "settlement": "🏠", "city": "🏙️", "rail": "🛤️",
                "ferry": "⛴️", "card": "🎴", "bank": "🏦", "offer": "🤝", "ride": "🚂", "route": "🗺️",
                "accept": "✅", "refuse": "❌", "withdraw": "↩️"}
ICONS = {**TERRAIN_EMOJI, **RESOURCE_EMOJI, **ACTION_EMOJI}
DICE = "⚀⚁⚂⚃⚄⚅"
HINT_PHASES = ("setup", "roll", "gold", "discard", "robber", "main", "answer", "pick", "special", "stops")


def _name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def cards_line(counts: Sequence[int], lang: str) -> str:
    """Five resource counts in words with their emoji, only those held ("🌲 2 lumber · …", "🌲 材木2枚")."""
    parts = [f"{RESOURCE_EMOJI[r.value]} {t(lang, f'ce.cards.{r.value}', count=n)}"
             for r, n in zip(RESOURCES, counts) if n]
    return " · ".join(parts)


def dev_line(counts: Sequence[int], lang: str) -> str:
    parts = [f"{CARD_EMOJI[k.value]} {t(lang, f'ce.card.{k.value}')} ×{n}" for k, n in zip(KINDS, counts) if n]
    return " · ".join(parts)


class CatanExpressUI(GameUI):
    name = "catan_express"
    colour = discord.Colour(0xB5651D)
    icon_emoji = ICONS

    # --- public -----------------------------------------------------------------------
    def _phase_line(self, view: Any, names: Sequence[str], lang: str) -> str:
        state = view.state
        phase = state.phase
        waiting = {"seats": list(view.active)}
        turn = {"turn": state.turn}
        if phase == "over":
            reason = view.result.reason if view.result is not None else "end"
            return t(lang, "catan_express.discord.status.over", reason={"key": f"catan_express.reason.{reason}"})
        if phase == "setup":
            what = "rail" if state.setup_rail else "settlement"
            return t(lang, "catan_express.discord.status.setup", {"seat": state.current}, names,
                     round=1 if state.setup_pos < state.n else 2, what={"key": f"catan_express.piece.{what}"})
        if phase == "discard":
            return t(lang, "catan_express.discord.status.discard", waiting, names, **turn)
        if phase == "gold":
            return t(lang, "catan_express.discord.status.gold", {"seat": state.gold_owed[0][0]}, names,
                     count=state.gold_owed[0][1], **turn)
        if phase == "answer" and state.offer is not None:
            # the offerer is waited on too once someone accepted: they may pick now (CE-B5)
            key = "catan_express.discord.status.answer_pick" if state.current in view.active else "catan_express.discord.status.answer"
            return t(lang, key, {"seat": state.current, "seats": [s for s in view.active if s != state.current]},
                     names, gave=Hand(tuple(state.offer.give)).param(), got=Hand(tuple(state.offer.get)).param(),
                     **turn)
        if phase == "pick" and state.offer is not None:
            return t(lang, "catan_express.discord.status.pick", {"seat": state.current, "seats": list(view.accepted)}, names,
                     gave=Hand(tuple(state.offer.give)).param(), got=Hand(tuple(state.offer.get)).param(), **turn)
        if phase == "special":
            return t(lang, "catan_express.discord.status.special", {"seat": state.special_queue[0], "from_seat": state.current},
                     names, **turn)
        if phase == "stops":
            return t(lang, "catan_express.discord.status.stops", {"seat": state.stop_queue[0]}, names,
                     number=len(state.stops) + 1)
        if phase == "main" and state.moving:
            return t(lang, "catan_express.discord.status.moving", {"seat": state.current}, names, count=state.move_left, **turn)
        if phase == "robber":  # discord.ce.status.robber is the robber's place, another line
            return t(lang, "catan_express.discord.status.moving_robber", {"seat": state.current}, names, **turn)
        if phase in ("roll", "main"):
            return t(lang, f"catan_express.discord.status.{phase}", {"seat": state.current}, names, **turn)
        return t(lang, "catan_express.discord.status.waiting", waiting, names, **turn)

    def _race_line(self, view: Any, names: Sequence[str], lang: str) -> str:
        state = view.state
        if state.race_winner is not None:
            return "🏆 " + t(lang, "catan_express.discord.race.won", {"seat": state.race_winner}, names)
        if state.race:
            stops = list(state.stops) or "—"  # intersections, listed in the reader's way (36、24)
            return "🏁 " + t(lang, "catan_express.discord.race.on", {"seat": state.starter}, names, stops=stops,
                             count=len(state.stops))
        if state.starter is not None:
            return "🏁 " + t(lang, "catan_express.discord.race.soon", {"seat": state.starter}, names)
        return "🏁 " + t(lang, "catan_express.discord.race.not_yet", points=components().race_start_points)

    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        state = view.state
        lines = [self._phase_line(view, names, lang)]
        if state.dice and state.phase not in ("setup", "over"):
            faces = " ".join(DICE[d - 1] for d in state.dice if 1 <= d <= 6)
            lines.append(f"🎲 {faces} " + t(lang, "catan_express.discord.status.dice", dice=" + ".join(map(str, state.dice)),
                                             total=sum(state.dice)))
        lines.append("🦹 " + t(lang, "catan_express.discord.status.robber", hex=state.robber))
        bank = " · ".join(f"{RESOURCE_EMOJI[r.value]} {n}" for r, n in zip(RESOURCES, state.bank))
        lines.append("🏦 " + t(lang, "catan_express.discord.status.bank", bank=bank, deck=state.deck_left))
        lines.append(self._race_line(view, names, lang))
        fields = []
        for seat, (p, s) in enumerate(zip(state.players, view.seats)):
            title = ("👉 " if seat in view.active else "") + _name(seat, names)
            if s.largest_army:
                title += " ⚔️"
            if s.fastest:
                title += " 🏆"
            value = [t(lang, "catan_express.discord.seat.points", points=s.points, cards=s.cards, dev=s.dev_cards),
                     t(lang, "catan_express.discord.seat.pieces", settlements=s.settlements, cities=s.cities, rails=s.rails,
                       ferries=s.ferries)]
            extras = []
            if s.knights:
                extras.append(t(lang, "catan_express.discord.seat.knights", count=s.knights))
            if s.largest_army:
                extras.append(t(lang, "catan_express.discord.seat.largest_army"))
            if p.vp_cards:
                extras.append(t(lang, "catan_express.discord.seat.vp_cards", count=p.vp_cards))
            if s.chips:
                extras.append(t(lang, "catan_express.discord.seat.chips", count=s.chips))
            if extras:
                value.append(" · ".join(extras))
            if state.race:
                value.append(t(lang, "catan_express.discord.seat.race", at=p.loco or "—", towers=s.towers, stops=len(state.stops)))
            status = self._seat_status(view, seat, lang)
            if status:
                value.append(status)
            fields.append((clip(title, 256), "\n".join(value)))
        return "\n".join(lines), fields

    @staticmethod
    def _seat_status(view: Any, seat: int, lang: str) -> str:
        """What a seat is doing in a simultaneous step — never what it chose (CE-12)."""
        state = view.state
        if state.phase == "discard":
            if seat in state.discards:
                return "⏳ " + t(lang, "catan_express.discord.seat.discarding", count=state.discards[seat])
            return ""
        if state.phase == "answer" and seat != state.current:
            return "⏳ " + t(lang, "catan_express.discord.seat.answering") if seat in view.active \
                else "✉️ " + t(lang, "catan_express.discord.seat.answered")
        if state.phase == "pick" and seat != state.current:
            return "✅ " + t(lang, "catan_express.discord.seat.accepted") if seat in view.accepted \
                else "❌ " + t(lang, "catan_express.discord.seat.refused")
        return ""

    def waiting_hint(self, view: Any, lang: str) -> str:
        state = getattr(view, "state", None)
        if state is None:
            return t(lang, "discord.hint.your_turn")
        phase = state.phase
        if phase == "main" and state.moving:
            return t(lang, "catan_express.discord.hint.moving")
        if phase == "setup" and state.setup_rail:
            return t(lang, "catan_express.discord.hint.setup_rail")
        if phase in HINT_PHASES:
            return t(lang, f"catan_express.discord.hint.{phase}")
        return t(lang, "discord.hint.your_turn")

    # --- private ----------------------------------------------------------------------
    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        state = view.state
        me = state.players[pv.seat]
        hand = me.hand or [0] * len(RESOURCES)
        lines = [f"**{t(lang, 'discord.ce.hand.resources', count=sum(hand))}**",
                 cards_line(hand, lang) or t(lang, "catan_express.discord.hand.no_resources")]
        dev, new = me.dev or [0] * len(KINDS), me.dev_new or [0] * len(KINDS)
        lines.append(f"**{t(lang, 'discord.ce.hand.dev', count=sum(dev) + sum(new))}**")
        if any(dev):
            lines.append(dev_line(dev, lang))
        if any(new):
            lines.append("🆕 " + t(lang, "catan_express.discord.hand.dev_new", cards=dev_line(new, lang)))
        if not any(dev) and not any(new):
            lines.append(t(lang, "catan_express.discord.hand.no_dev"))
        summary = view.seats[pv.seat]
        extras = [t(lang, "catan_express.discord.hand.points", points=summary.points)]
        if me.vp_cards:
            extras.append(t(lang, "catan_express.discord.seat.vp_cards", count=me.vp_cards))
        if me.knights:
            extras.append(t(lang, "catan_express.discord.seat.knights", count=me.knights))
        lines.append(" · ".join(extras))
        lines.append("🏦 " + t(lang, "catan_express.discord.hand.ratios", ratios=" · ".join(
            f"{RESOURCE_EMOJI[r.value]} {n}:1" for r, n in zip(RESOURCES, summary.ratios))))
        if state.race and me.loco is not None:
            lines.append("🚂 " + t(lang, "catan_express.discord.hand.loco", at=me.loco, towers=len(me.towers),
                                  stops=len(state.stops)))
        waiting = {"seats": list(view.active)}
        if state.phase == "answer" and state.offer is not None:
            waiting = {"seats": [s for s in view.active if s != state.current]}  # the answers still to come
            if pv.seat in state.offer.answers:  # only the reader's own answer is in their view
                word = "accepted" if state.offer.answers[pv.seat] else "refused"
                lines.append("🔒 " + t(lang, f"catan_express.discord.hand.you_{word}", waiting, pv.names))
            elif pv.seat == state.current and pv.prompt is None:
                lines.append("⏳ " + t(lang, "catan_express.discord.hand.wait_answers", waiting, pv.names))
        elif state.phase == "discard" and not pv.active:
            lines.append("⏳ " + t(lang, "catan_express.discord.hand.wait_discards", waiting, pv.names))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif state.phase not in ("over", "discard", "answer"):
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)


UI = CatanExpressUI()
register(UI)
