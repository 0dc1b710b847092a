"""Standing orders on Discord: the /orders panel and its components.

The panel is ephemeral and in the caller's own language: their current orders (the rules'
words, `describe_order`) with a button to cancel each and one to cancel all, then the menu
of orders they may set now (`order_choices`), drawn by the shared chooser under the order
verbs (ob / os / op / og / oa, see bot/discord/ids.py). Completing a path in that menu sets
the order; every answer redraws the panel in place. The service checks every right again
(whose orders, a legal order, a running game); an id only names what was clicked.
"""
from __future__ import annotations

import hashlib
from typing import Sequence

import discord

from bot.discord import chooser, ids, where
from bot.discord.boards import board_follows_orders
from bot.discord.errors import StaleClick, report_error
from bot.discord.play import AmountModal, actor_of, bot_of, channel_key, require_game
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, LABEL_MAX, clip, event_text, join_lines, lang_of, t
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import Row, button, make_view
from bot.sessions import OrdersInfo
from bot.sessions.settings import REPLIES
from games.core import IllegalAction

CANCEL_BUTTONS_AT_MOST = 4  # and "Cancel all": one row


def order_hash(notation: str) -> str:
    """8 hex naming an order in a cancel button's id (notations may be long)."""
    return hashlib.sha1(notation.encode("utf-8")).hexdigest()[:8]


# ------------------------------------------------------------------------------ the panel
def panel(info: OrdersInfo, lang: str, *, note: str | None = None, rows: list[Row] | None = None,
          lines: Sequence[str] = ()) -> Reply:
    """The caller's orders and, below, the menu of orders (or `rows`: a later step of it)."""
    ui = ui_base.get(info.game)
    text = [note] if note else []
    text.append("📋 **" + t(lang, "discord.orders.title") + "**")
    if info.orders:
        text += [f"{i + 1}. {event_text(lang, o.label, info.names)}" for i, o in enumerate(info.orders)]
    else:
        text.append(t(lang, "discord.orders.none"))
    text.append("")
    how = "discord.orders.how_standing" if info.kept_by_own_moves else "discord.orders.how"
    text.append(t(lang, how if not info.choices.empty else "discord.orders.nothing_to_set"))
    text += list(lines)
    menu = rows if rows is not None else chooser.decision_rows(
        info.game_id, info.version, info.choices, ui, lang, verbs=chooser.ORDER_VERBS)
    cancel: list[Row] = []
    if info.orders:
        row: Row = [button(info.game_id, 0, "ox", f"{i}:{order_hash(o.notation)}",
                           label=clip(t(lang, "discord.orders.cancel_one", number=i + 1), LABEL_MAX), emoji="✖️")
                    for i, o in enumerate(info.orders[:CANCEL_BUTTONS_AT_MOST])]
        row.append(button(info.game_id, 0, "ox", "all", label=t(lang, "discord.orders.cancel_all"),
                          emoji="🗑️", style=discord.ButtonStyle.danger))
        cancel = [row]
    # Discord allows five rows: the menu gets what the cancel row leaves
    return Reply(content=join_lines(text, CONTENT_MAX), view=make_view([*menu[:5 - len(cancel)], *cancel]))


def _label_of(info: OrdersInfo, notation: str, lang: str) -> str:
    for order in info.orders:
        if order.notation == notation:
            return event_text(lang, order.label, info.names)
    return notation


async def orders_reply(interaction: discord.Interaction) -> Reply:
    """/orders: the caller's panel."""
    bot = bot_of(interaction)
    info = await bot.service.orders_of(channel_key(interaction), actor_of(interaction))
    return panel(info, lang_of(interaction))


async def set_reply(interaction: discord.Interaction, notation: str, game_id: int | None = None) -> Reply:
    """Set one order (from the menu, a modal or /orders order:…) and show the panel."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    channel_id = channel_key(interaction)
    if game_id is not None:
        await require_game(bot, channel_id, game_id)
    info = await bot.service.set_order(channel_id, actor_of(interaction), notation)
    if info.moves_now:
        if where.delivery_of(interaction) == REPLIES:  # the board the order's move leaves follows
            await board_follows_orders(interaction, info.game_id)
        bot.run_bots_soon(info.game_id)  # it is this player's turn: the order moves at once
    note = "✅ " + t(lang, "discord.orders.set", order=_label_of(info, notation.strip(), lang))
    return panel(info, lang, note=note)


# ------------------------------------------------------------------------------ components
async def _current(interaction: discord.Interaction, ref: ids.ComponentId) -> OrdersInfo:
    bot = bot_of(interaction)
    await require_game(bot, channel_key(interaction), ref.game_id)
    info = await bot.service.orders_of(channel_key(interaction), actor_of(interaction))
    if info.game_id != ref.game_id:
        raise StaleClick(ended=True)
    return info


def _moved_on(info: OrdersInfo, lang: str) -> Reply:
    return panel(info, lang, note="🔄 " + t(lang, "discord.orders.moved_on"))


async def pick_reply(interaction: discord.Interaction, ref: ids.ComponentId, values: Sequence[str]) -> Reply:
    """A pick in the menu of orders (ob / os / op / og / ot / od): set the order it completes,
    or show the next step."""
    lang = lang_of(interaction)
    info = await _current(interaction, ref)
    cref = chooser.Ref.parse(ref.arg)
    try:
        chooser.verify(cref, info.choices, ref.version, info.version)
    except StaleClick:
        return _moved_on(info, lang)
    decision = info.choices
    ui = ui_base.get(info.game)
    check = chooser.check_of(decision)
    if ref.verb in ("og", "ot", "od"):
        picked = chooser.group_pick(decision, cref, values, select=ref.verb == "og", done=ref.verb == "od")
        if picked.move is not None:
            return await set_reply(interaction, picked.move)
        n = cref.n or 0
        rows = chooser.group_rows(info.game_id, info.version, check, n, decision.groups[n], picked.counts, ui, lang,
                                  verbs=chooser.ORDER_VERBS)
        lines = chooser.group_heading(decision, n, lang) + chooser.group_lines(decision.groups[n], picked.counts, lang)
        return panel(info, lang, rows=rows, lines=lines)
    path, page = chooser.path_and_page(cref, values, picked=ref.verb == "os", paging=ref.verb == "op")
    stop = chooser.walk(decision, path)
    if stop.move is not None:
        return await set_reply(interaction, stop.move)
    if stop.group is not None:
        rows = chooser.group_rows(info.game_id, info.version, check, stop.group, decision.groups[stop.group], None,
                                  ui, lang, verbs=chooser.ORDER_VERBS)
        lines = chooser.picked_text(decision, stop, lang) + chooser.group_lines(decision.groups[stop.group], None, lang)
        return panel(info, lang, rows=rows, lines=lines)
    rows = chooser.stop_rows(info.game_id, info.version, check, path, stop.options,
                             stop.step, ui, lang, page=page, verbs=chooser.ORDER_VERBS)
    lines = chooser.picked_text(decision, stop, lang) + ["👉 " + t(lang, stop.step or "choice.step.move")]
    return panel(info, lang, rows=rows, lines=lines)


async def cancel_reply(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """✖️ one order (`ox:<i>:<hash>`) or 🗑️ all (`ox:all`)."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    info = await _current(interaction, ref)
    channel_id, actor = channel_key(interaction), actor_of(interaction)
    if ref.arg == "all":
        info = await bot.service.clear_orders(channel_id, actor)
        return panel(info, lang, note="🗑️ " + t(lang, "discord.orders.cancelled_all"))
    index, _, digest = (ref.arg or "").partition(":")
    if not index.isdigit() or not int(index) < len(info.orders) \
            or order_hash(info.orders[int(index)].notation) != digest:
        return _moved_on(info, lang)  # the order was used up or the list changed
    order = info.orders[int(index)]
    words = event_text(lang, order.label, info.names)
    info = await bot.service.cancel_order(channel_id, actor, order.notation)
    return panel(info, lang, note="🗑️ " + t(lang, "discord.orders.cancelled", order=words))


class OrderAmountModal(AmountModal):
    """The number of an amount in the menu of orders ("bid up to …"): sets the order."""

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            text = self.number.value.strip()
            if not text.lstrip("-").isdigit():
                raise IllegalAction("choice.amount_range", min=self.amount.min, max=self.amount.max)
            notation = self.amount.notation(int(text))
            await answer(interaction, set_reply(interaction, notation, game_id=self.ref.game_id))
        except Exception as exc:  # noqa: BLE001 - the one handler answers every error
            await report_error(interaction, exc)


async def amount_modal(interaction: discord.Interaction, ref: ids.ComponentId) -> None:
    info = await _current(interaction, ref)
    cref = chooser.Ref.parse(ref.arg)
    lang = lang_of(interaction)
    try:
        chooser.verify(cref, info.choices, ref.version, info.version)
    except StaleClick:
        await answer(interaction, _ready(_moved_on(info, lang)), update=_private(interaction))
        return
    if cref.n is None or not 0 <= cref.n < len(info.choices.amounts):
        raise IllegalAction("choice.not_offered")
    await interaction.response.send_modal(OrderAmountModal(ref, cref, info.choices.amounts[cref.n], lang))


async def _ready(reply: Reply) -> Reply:
    return reply


def _private(interaction: discord.Interaction) -> bool:
    return interaction.message is not None and interaction.message.flags.ephemeral


async def quick_order_reply(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """A quick amount in the menu of orders (`oq`: "bid up to" the minimum, +1, +2, +5): sets the
    order at once."""
    info = await _current(interaction, ref)
    cref = chooser.Ref.parse(ref.arg)
    try:
        chooser.verify(cref, info.choices, ref.version, info.version)
    except StaleClick:
        return _moved_on(info, lang_of(interaction))
    return await set_reply(interaction, chooser.quick_notation(info.choices, cref))


async def on_order_component(interaction: discord.Interaction, ref: ids.ComponentId,
                             values: list[str]) -> None:
    """Every component of the orders panel lands here (RailyardBot routes the order verbs)."""
    try:
        private = _private(interaction)
        if ref.verb in ("ob", "os", "op", "og", "ot", "od"):
            await answer(interaction, pick_reply(interaction, ref, values), update=private)
        elif ref.verb == "oa":
            await amount_modal(interaction, ref)
        elif ref.verb == "oq":
            await answer(interaction, quick_order_reply(interaction, ref), update=private)
        elif ref.verb == "ox":
            await answer(interaction, cancel_reply(interaction, ref), update=private)
        else:
            raise StaleClick(ended=True)
    except Exception as exc:  # noqa: BLE001 - the one handler answers every error
        await report_error(interaction, exc)
