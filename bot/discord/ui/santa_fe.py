"""Santa Fe on Discord.

Turn post buttons (from the SPECTATOR view, so they never depend on a hand):

* card choice ("choose"): **Choose my card** opens the player's own page (the `hand` reply)
  with a private select of the cards they may play (city card or double turn, with the spur
  when one is held), named and valued, with which railroads reach each city now. The pick
  is a `pick:choose.<round>` select: checked against the round's choice, not the version, so
  players choose in any order while the others choose too. The public posts only say who
  has chosen; the reveal post (the rules' `sf.ev.reveal` event) names every choice.
* track laying: **Place a tile…** (the generic `claim` flow) → a select of the railroads
  with a legal placement (a spur's new lines are a separate entry) → a select of that
  railroad's placements ("Santa Fe: Kansas City → Wichita (space 2/3) · $1 river"), 25 per
  select; Pass (advanced game). Decline (optional rule) is offered on the private page.
* double-turn exchange: **Exchange cards…** opens the page with a multi-select of the hand
  ("keep my hand" is its first option), again a `pick` select.
* drawing: one button per draw (city card, double turn, spur of each railroad, engineer);
  buying track (optional rule) and the engineer before round 1 (advanced): buttons.

Every move also works with `/move`, whose autocomplete lists the legal moves in words.
"""
from __future__ import annotations

from typing import Any, Sequence

import discord

from bot.discord import ids
from bot.discord.text import clip, event_text, t
from bot.discord.ui.base import GameUI, register
from bot.discord.ui.components import OPTIONS_PER_SELECT, GameSelect, Row, button, option, selects
from bot.sessions import PrivateView
from games import registry
from games.santa_fe import notation
from games.santa_fe.models import DOUBLE, Decline, Draw, Pass, Place, Play

EMOJI = {"blue": "🟦", "white": "⬜", "green": "🟩", "red": "🟥", "yellow": "🟨"}
KEEP = "keep"  # the exchange select's "keep my hand" value
MAX_ROWS = 5


class SantaFeUI(GameUI):
    name = "santa_fe"
    colour = discord.Colour(0xC0622F)
    claim_words = "discord.sf.claim"

    @property
    def game(self) -> Any:
        return registry.get(self.name)

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
        return t(lang, "discord.sf.city_value", city=self.city(c, lang), value=self.board.values[c])

    def reached_by(self, view: Any, c: int, lang: str) -> str:
        mask = view.connected[c]
        codes = [self.board.railroads[r].code for r in range(len(self.board.railroads)) if mask >> r & 1]
        if not codes:
            return t(lang, "discord.sf.not_reached")
        return t(lang, "discord.sf.reached_by", railroads=" ".join(codes), points=self.board.values[c] * len(codes))

    def choice_text(self, card: int, spur: bool, spur_rr: int, lang: str) -> str:
        return event_text(lang, notation.choice_words(self.board, card, spur, spur_rr), None)

    def _name(self, seat: int, names: Sequence[str]) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"

    def _spur_price(self, view: Any) -> int:
        rules = self.board.rules
        return rules.spur_price_advanced if view.options.advanced else rules.spur_price

    # --- public -----------------------------------------------------------------------
    def turn_rows(self, view: Any, game_id: int, version: int, lang: str) -> list[Row]:
        if view is None or view.phase == "over" or view.result is not None:
            return []
        phase = view.phase
        hand = button(game_id, version, "hand", label=t(lang, "discord.button.hand"), emoji="🃏")
        if phase == "choose":
            return [[button(game_id, version, "hand", label=t(lang, "discord.sf.button.choose"), emoji="🂠",
                            style=discord.ButtonStyle.primary)]]
        if phase == "exchange":
            return [[button(game_id, version, "hand", label=t(lang, "discord.sf.button.exchange"), emoji="🔄",
                            style=discord.ButtonStyle.primary)]]
        current = view.current
        me = view.players[current] if current is not None and 0 <= current < len(view.players) else None
        if phase == "track":
            row: Row = [button(game_id, version, "claim", label=t(lang, "discord.sf.button.place"), emoji="🛤️",
                               style=discord.ButtonStyle.success)]
            if view.options.advanced:
                row.append(button(game_id, version, "act", "pass", label=t(lang, "discord.sf.button.pass"),
                                  emoji="⏭️"))
            row.append(hand)
            return [row]
        if phase == "draw":
            first: Row = [
                button(game_id, version, "act", "draw city", label=t(lang, "discord.sf.button.draw_city",
                                                                       count=view.deck_size),
                       emoji="🂠", style=discord.ButtonStyle.primary, disabled=view.deck_size == 0),
                button(game_id, version, "act", "draw double",
                       label=t(lang, "discord.sf.button.draw_double", count=view.double_pile),
                       emoji="⏩", disabled=view.double_pile == 0),
            ]
            if view.options.advanced and view.engineers > 0:
                first.append(button(game_id, version, "act", "draw engineer", emoji="👷",
                                    label=t(lang, "discord.sf.button.draw_engineer"),
                                    disabled=me is None or me.engineer))
            first.append(hand)
            price = self._spur_price(view)
            spurs: Row = []
            for r, left in enumerate(view.spurs):
                if left <= 0:
                    continue
                code = self.board.railroads[r].code
                spurs.append(button(game_id, version, "act", f"draw spur {code}", emoji=self.rr_emoji(r),
                                    label=t(lang, "discord.sf.button.draw_spur", rr=self.rr_name(r, lang),
                                            price=price),
                                    disabled=me is None or me.spur >= 0 or me.money < price))
            return [first, spurs] if spurs else [first]
        if phase == "buy":
            price = self.board.rules.track_price
            buys: Row = []
            for r, left in enumerate(view.supply):
                if left <= 0:
                    continue
                code = self.board.railroads[r].code
                buys.append(button(game_id, version, "act", f"buy {code}", emoji=self.rr_emoji(r),
                                   label=t(lang, "discord.sf.button.buy", rr=self.rr_name(r, lang), price=price),
                                   disabled=me is None or me.money < price))
            return [buys, [button(game_id, version, "act", "buy none", label=t(lang, "discord.sf.button.buy_none"),
                                  emoji="✋"), hand]]
        if phase == "engineer":
            price = self.board.rules.engineer_price
            return [[
                button(game_id, version, "act", "engineer yes", emoji="👷", style=discord.ButtonStyle.primary,
                       label=t(lang, "discord.sf.button.engineer_yes", price=price),
                       disabled=me is None or me.money < price or view.engineers <= 0),
                button(game_id, version, "act", "engineer no", label=t(lang, "discord.sf.button.engineer_no"),
                       emoji="✋"),
                hand,
            ]]
        return [[hand]]

    def summary(self, view: Any, names: Sequence[str], lang: str) -> tuple[str, list[tuple[str, str]]]:
        board = self.board
        phase = view.phase
        lines: list[str] = []
        if phase == "over":
            lines.append(t(lang, "discord.sf.status.over", reason={"key": f"sf.end.{view.end_reason or 'all_placed'}"}))
        elif phase == "engineer":
            lines.append(t(lang, "discord.sf.status.engineer", {"seat": view.current}, names,
                           price=board.rules.engineer_price))
        elif phase == "choose":
            waiting = [p.seat for p in view.players if not p.chosen]
            chosen = [p.seat for p in view.players if p.chosen]
            lines.append(t(lang, "discord.sf.status.choose", {"seats": waiting}, names, round=view.round))
            if chosen:
                lines.append("✅ " + t(lang, "discord.sf.status.chosen", {"seats": chosen}, names))
        elif phase == "track":
            lines.append(t(lang, "discord.sf.status.track", {"seat": view.current}, names, round=view.round,
                           turn=view.track_turn, left=view.left))
        elif phase == "exchange":
            lines.append(t(lang, "discord.sf.status.exchange", {"seats": list(view.active)}, names,
                           round=view.round))
        elif phase == "draw":
            lines.append(t(lang, "discord.sf.status.draw", {"seat": view.current}, names, round=view.round))
        elif phase == "buy":
            lines.append(t(lang, "discord.sf.status.buy", {"seat": view.current}, names, round=view.round,
                           price=board.rules.track_price))
        if phase != "over":
            lines.append(t(lang, "discord.sf.status.first", {"seat": view.first}, names))
        lines.append(t(lang, "discord.sf.status.deck", deck=view.deck_size, doubles=view.double_pile))
        if view.options.advanced:
            lines.append(t(lang, "discord.sf.status.engineers", count=view.engineers))
        tiles = " · ".join(f"{self.rr_emoji(r)} {rr.code} {view.supply[r]}" for r, rr in enumerate(board.railroads))
        lines.append(t(lang, "discord.sf.status.tiles", tiles=tiles))
        spurs = " · ".join(f"{rr.code} {view.spurs[r]}" for r, rr in enumerate(board.railroads))
        lines.append(t(lang, "discord.sf.status.spurs", spurs=spurs, price=self._spur_price(view)))
        fields = []
        for p in view.players:
            marker = "👉 " if p.seat in view.active else ""
            name = marker + self._name(p.seat, names)
            if p.seat == view.first and phase != "over":
                name += " 🚩"
            value = [t(lang, "discord.sf.player.money", money=p.money, score=p.score)]
            spur = self.board.railroads[p.spur].code if p.spur >= 0 else "—"
            value.append(t(lang, "discord.sf.player.hand", cards=p.hand_size, doubles=p.doubles, spur=spur))
            if p.engineer:
                value.append("👷 " + t(lang, "discord.sf.player.engineer"))
            if any(p.bought):
                bought = " · ".join(f"{board.railroads[r].code} {k}" for r, k in enumerate(p.bought) if k)
                value.append(t(lang, "discord.sf.player.bought", tiles=bought))
            if phase == "choose":
                value.append("✅ " + t(lang, "discord.sf.player.chosen") if p.chosen
                             else "⏳ " + t(lang, "discord.sf.player.choosing"))
            elif p.revealed is not None:
                spur_rr = p.spur_active if p.revealed.spur else -1
                value.append("🂠 " + t(lang, "discord.sf.player.this_round",
                                      choice=self.choice_text(p.revealed.card, p.revealed.spur, spur_rr, lang)))
            if p.played:
                cards = ", ".join(t(lang, "discord.sf.played_card", city=self.city(c, lang), value=board.values[c],
                                    railroads=bin(view.connected[c]).count("1")) for c in p.played)
                value.append(t(lang, "discord.sf.player.played", cards=cards))
            else:
                value.append(t(lang, "discord.sf.player.played", cards="—"))
            fields.append((name, "\n".join(value)))
        return "\n".join(lines), fields

    def waiting_hint(self, view: Any, lang: str) -> str:
        phase = getattr(view, "phase", None)
        if phase in ("choose", "track", "exchange", "draw", "buy", "engineer"):
            return t(lang, f"discord.sf.hint.{phase}")
        return t(lang, "discord.hint.your_turn")

    # --- private ----------------------------------------------------------------------
    def hand_text(self, pv: PrivateView, lang: str) -> str:
        view = pv.view
        me = view.players[pv.seat]
        lines: list[str] = [f"**{t(lang, 'discord.sf.hand.cards')}**"]
        for c in me.hand or []:
            lines.append(f"🂠 {self.city_value(c, lang)} — {self.reached_by(view, c, lang)}")
        if not me.hand:
            lines.append(t(lang, "discord.sf.hand.no_cards"))
        extras = [t(lang, "discord.sf.hand.money", money=me.money),
                  t(lang, "discord.sf.hand.doubles", count=me.doubles)]
        if me.spur >= 0:
            extras.append(t(lang, "discord.sf.hand.spur", rr=self.rr_name(me.spur, lang)))
        if me.engineer:
            extras.append("👷 " + t(lang, "discord.sf.player.engineer"))
        lines.append(" · ".join(extras))
        if me.spur_active >= 0 and not me.spur_used and view.phase == "track":
            lines.append("🔀 " + t(lang, "discord.sf.hand.spur_active", rr=self.rr_name(me.spur_active, lang)))
        if me.choice is not None:
            spur_rr = me.spur if me.choice.spur else -1
            lines.append("🔒 " + t(lang, "discord.sf.hand.your_choice",
                                  choice=self.choice_text(me.choice.card, me.choice.spur, spur_rr, lang)))
        if pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        elif view.phase == "choose" and me.chosen:
            waiting = [p.seat for p in view.players if not p.chosen]
            lines.append(t(lang, "discord.sf.hand.wait_reveal", {"seats": waiting}, pv.names))
        elif view.phase != "over":
            lines.append(t(lang, "discord.hand.not_your_turn"))
        return "\n".join(lines)

    def _moves(self, pv: PrivateView) -> list[tuple[str, Any, Any]]:
        """(notation, action, label) of every legal move of this player."""
        out = []
        for move in pv.legal:
            try:
                out.append((move.notation, self.game.parse_action(move.notation), move.label))
            except Exception:  # noqa: BLE001 - a move we cannot read is left to /move
                continue
        return out

    def _actions(self, pv: PrivateView) -> list[tuple[str, Any]]:
        return [(text, action) for text, action, _ in self._moves(pv)]

    def _pick(self, pv: PrivateView, options: list[discord.SelectOption], placeholder: str,
              max_values: int = 1) -> GameSelect:
        """A private `pick` select: checked against the decision it was drawn for."""
        options = options[:OPTIONS_PER_SELECT]
        return GameSelect(discord.ui.Select(
            custom_id=ids.make_id(pv.game_id, pv.version, "pick", self.decision_key(pv)),
            placeholder=clip(placeholder, 150), options=options, min_values=1,
            max_values=max(1, min(max_values, len(options)))))

    def decision_key(self, pv: PrivateView) -> str:
        view = pv.view
        if view.phase in ("choose", "exchange"):
            return f"{view.phase}.{view.round}"
        return str(pv.version)

    def pick_notation(self, pv: PrivateView, values: Sequence[str]) -> str:
        from bot.discord.errors import UserError

        if pv.view.phase != "exchange":
            return values[0] if values else ""
        cards = [v.split("|", 1)[0] for v in values if v != KEEP]
        if KEEP in values and cards:
            raise UserError("discord.sf.error.keep_and_exchange")
        return "exchange " + (",".join(cards) if cards else "none")

    def _choice_option(self, view: Any, seat: int, action: Play, text: str, lang: str) -> discord.SelectOption:
        me = view.players[seat]
        spur_rr = me.spur if action.spur else -1
        label = self.choice_text(action.card, action.spur, spur_rr, lang)
        if action.card >= 0:
            desc = self.reached_by(view, action.card, lang)
            emoji = "🂠"
        elif action.card == DOUBLE:
            desc = t(lang, "discord.sf.double_desc")
            emoji = "⏩"
        else:
            desc = None
            emoji = "✋"
        return option(label, text, description=desc, emoji=emoji)

    def private_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        view = pv.view
        if not pv.active or view.phase == "over":
            return []
        phase = view.phase
        if phase == "choose":
            options = [self._choice_option(view, pv.seat, a, text, lang)
                       for text, a in self._actions(pv) if isinstance(a, Play)]
            return [[self._pick(pv, options, t(lang, "discord.sf.pick_card"))]] if options else []
        if phase == "exchange":
            return self._exchange_rows(pv, lang)
        if phase == "track":
            return self._place_rows(pv, lang)
        # draw, buy, engineer: one button per legal move, in the rules' words
        row: Row = [button(pv.game_id, pv.version, "act", text, label=self.move_label(label, pv.names, lang),
                           emoji=self._emoji(action))
                    for text, action, label in self._moves(pv)]
        return [row]

    def _emoji(self, action: Any) -> str | None:
        if isinstance(action, Draw):
            if action.what == "spur":
                return self.rr_emoji(action.rr) if action.rr >= 0 else None
            return {"city": "🂠", "double": "⏩", "engineer": "👷"}.get(action.what)
        return None

    def _exchange_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        view = pv.view
        me = view.players[pv.seat]
        hand = list(me.hand or [])
        limit = min(len(hand), view.deck_size)
        options = [option(t(lang, "discord.sf.exchange.keep"), KEEP, emoji="✋")]
        seen: dict[int, int] = {}
        for c in hand:
            seen[c] = seen.get(c, 0) + 1
            options.append(option(self.city_value(c, lang), f"{self.board.cities[c].name}|{seen[c]}",
                                  description=self.reached_by(view, c, lang), emoji="🂠"))
        return [[self._pick(pv, options, t(lang, "discord.sf.exchange.placeholder", count=limit),
                            max_values=max(1, limit))]]

    # --- track laying: railroad, then placement ------------------------------------------
    def _placements(self, pv: PrivateView) -> list[tuple[str, Place]]:
        return [(text, a) for text, a in self._actions(pv) if isinstance(a, Place)]

    @staticmethod
    def _target(place: Place, code: str) -> str:
        return code + ("+spur" if place.spur else "")

    def claim_targets(self, pv: PrivateView, lang: str) -> list[discord.SelectOption]:
        view = pv.view
        board = self.board
        counts: dict[tuple[int, bool], int] = {}
        for _, place in self._placements(pv):
            key = (place.rr, place.spur)
            counts[key] = counts.get(key, 0) + 1
        options = []
        for (r, spur), count in sorted(counts.items()):
            code = board.railroads[r].code
            me = view.players[pv.seat]
            tiles = view.supply[r] if view.supply[r] > 0 else me.bought[r]
            key = "discord.sf.target_spur" if spur else "discord.sf.target"
            desc_key = "discord.sf.target_desc_own" if view.supply[r] <= 0 else "discord.sf.target_desc"
            options.append(option(t(lang, key, rr=self.rr_name(r, lang), code=code), code + ("+spur" if spur else ""),
                                  description=t(lang, desc_key, count=count, tiles=tiles),
                                  emoji="🔀" if spur else self.rr_emoji(r)))
        return options

    def _parse_target(self, target: str) -> tuple[int, bool] | None:
        code, _, extra = target.partition("+")
        r = self.board.rr_index.get(code.strip().lower())
        if r is None:
            return None
        return r, extra == "spur"

    def route_name(self, target: str, lang: str) -> str:
        parsed = self._parse_target(target)
        if parsed is None:
            return target
        r, spur = parsed
        return t(lang, "discord.sf.target_spur" if spur else "discord.sf.target", rr=self.rr_name(r, lang),
                 code=self.board.railroads[r].code)

    def claim_payments(self, pv: PrivateView, target: str, lang: str) -> list[discord.SelectOption]:
        parsed = self._parse_target(target)
        if parsed is None:
            return []
        r, spur = parsed
        mine = [(text, p) for text, p in self._placements(pv) if p.rr == r and p.spur == spur]
        mine.sort(key=lambda tp: self._sort_key(pv.view, tp[1]))
        return [self.placement_option(pv, text, p, lang) for text, p in mine]

    def _sort_key(self, view: Any, p: Place) -> tuple:
        board = self.board
        built = view.sec_built[p.section]
        a, b = board.ends[p.section]
        start, far = (a, b) if p.end == 0 else (b, a)
        # sections already under way first, then by the start city and the city reached
        return (built == 0, board.cities[start].name, board.cities[far].name, board.sections[p.section].code)

    def placement_label(self, view: Any, seat: int, p: Place, lang: str) -> tuple[str, str]:
        """("Santa Fe: Kansas City → Wichita (space 2/3) · $1 river", what it reaches)."""
        board = self.board
        section = board.sections[p.section]
        a, b = board.ends[p.section]
        start, far = (a, b) if p.end == 0 else (b, a)
        built = view.sec_built[p.section]
        half = ""
        if section.double is not None:
            half = t(lang, "discord.sf.place.half", half=2 if section.code.endswith("/2") else 1)
        cost = ""
        if view.options.advanced:  # SF-11: terrain costs
            me = view.players[seat]
            amount = board.space_cost(p.section, built, me.engineer, p.end)
            river = board.river_at(p.section, built, p.end)
            why = []
            if section.mountain:
                why.append(t(lang, "discord.sf.place.mountain"))
            if river and not me.engineer:
                why.append(t(lang, "discord.sf.place.river"))
            if amount:
                cost = t(lang, "discord.sf.place.cost", cost=amount, why=" + ".join(why))
            else:
                cost = t(lang, "discord.sf.place.river_free" if river else "discord.sf.place.free")
        label = t(lang, "discord.sf.place.label", rr=self.rr_name(p.rr, lang), **{"from": self.city(start, lang)},
                  to=self.city(far, lang), half=half, space=built + 1, spaces=section.spaces, cost=cost)
        remaining = section.spaces - built - 1
        if remaining == 0:
            extra = []
            me = view.players[seat]
            mult = 2 if me.revealed is not None and me.revealed.card == DOUBLE else 1
            if not view.connected[far] >> p.rr & 1:
                if board.values[far] and view.connected[far] == 0:
                    extra.append(t(lang, "discord.sf.place.first_bonus", amount=board.rules.city_bonus * mult))
                if board.special_city[p.rr] == far:
                    extra.append(t(lang, "discord.sf.place.special_bonus", amount=board.rules.special_bonus * mult))
            target = self.city_value(far, lang) if board.values[far] else self.city(far, lang)
            desc = t(lang, "discord.sf.place.reaches", city=target) + "".join(" · " + e for e in extra)
        else:
            desc = t(lang, "discord.sf.place.toward", count=remaining, city=self.city(far, lang))
        return label, desc

    def placement_option(self, pv: PrivateView, text: str, p: Place, lang: str) -> discord.SelectOption:
        label, desc = self.placement_label(pv.view, pv.seat, p, lang)
        return option(label, text, description=desc, emoji="🔀" if p.spur else self.rr_emoji(p.rr))

    def _place_rows(self, pv: PrivateView, lang: str) -> list[Row]:
        """The track-laying page: the railroad select (a choice opens that railroad's
        placements, 25 per select) and the Pass / Decline buttons."""
        rows: list[Row] = []
        targets = self.claim_targets(pv, lang)
        if targets:
            rows += [[s] for s in selects(pv.game_id, pv.version, "route", targets,
                                          placeholder=t(lang, "discord.sf.claim.pick_route"))][:MAX_ROWS - 1]
        buttons: Row = []
        for text, action in self._actions(pv):
            if isinstance(action, Pass):
                buttons.append(button(pv.game_id, pv.version, "act", text, emoji="⏭️",
                                      label=t(lang, "discord.sf.button.pass")))
            elif isinstance(action, Decline):
                buttons.append(button(pv.game_id, pv.version, "act", text, emoji="🛑",
                                      label=t(lang, "discord.sf.button.decline")))
        if buttons:
            rows.append(buttons)
        return rows

    # --- public words about moves ------------------------------------------------------
    def private_notation(self, text: str) -> bool:
        """A card choice or an exchange that names cities (the public forms are
        "play (secret)" and "exchange (n)")."""
        low = text.strip().lower()
        if low.startswith("play "):
            return low != "play (secret)"
        if low.startswith("exchange "):
            rest = low[len("exchange "):].strip()
            return rest != "none" and not (rest.startswith("(") and rest.endswith(")"))
        return False


UI = SantaFeUI()
register(UI)
