"""What a click or a command does, shared by the cogs and the components.

Every change goes through the sessions service; its commit writes the outbox row that the
dispatcher turns into the public post. The interaction itself is answered privately: a
"done" note with what only this player may know (the card drawn blind, the tickets
offered), and the next private choice if there is one.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Sequence

import discord

from bot.discord import ids
from bot.discord.errors import StaleClick, UserError, report_error
from bot.discord.posts import lobby_reply, render_png
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, lang_of, t
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import button, make_view, selects
from bot.sessions import Actor, GameInfo, Outcome, PrivateView, SessionError
from games.core import IllegalAction

if TYPE_CHECKING:
    from bot.discord.bot import RailyardBot

log = logging.getLogger("railyard.discord.play")

LOG_PAGE_CHARS = 3800


def bot_of(interaction: discord.Interaction) -> "RailyardBot":
    return interaction.client  # type: ignore[return-value]


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    return Actor(user_id=str(user.id), name=user.display_name, locale=str(interaction.locale),
                 is_manager=bool(perms.manage_channels or perms.administrator))


def channel_key(interaction: discord.Interaction) -> str:
    return str(interaction.channel_id)


# ------------------------------------------------------------------------------ moves
async def confirm_move(bot: "RailyardBot", interaction: discord.Interaction, outcome: Outcome,
                       lang: str) -> Reply:
    """The private "done" reply after this player's move."""
    names = outcome.names
    lines = ["✅ " + t(lang, "discord.move.done", notation=outcome.notation or "")]
    lines += [event_text(lang, e, names) for e in outcome.public_events]
    if outcome.seat is not None:
        lines += ["🔒 " + event_text(lang, e, names) for e in outcome.private_events.get(outcome.seat, [])]
    reply = Reply()
    if outcome.status == "active" and outcome.seat in outcome.waiting:
        # still this player's move: offer the next private choice (e.g. keep tickets) here
        try:
            pv = await bot.service.private_view(channel_key(interaction), str(interaction.user.id))
        except SessionError:
            pv = None
        if pv is not None and pv.game_id == outcome.game_id:
            ui = ui_base.get(pv.game)
            rows = ui.private_rows(pv, lang)
            if rows and pv.prompt is not None:
                lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
            reply.view = make_view(rows)
    reply.content = join_lines(lines, CONTENT_MAX)
    return reply


async def play(interaction: discord.Interaction, notation: str, *, expected_version: int | None = None,
               game_id: int | None = None) -> Reply:
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    channel_id = channel_key(interaction)
    if game_id is not None:
        await require_game(bot, channel_id, game_id)
    outcome = await bot.service.act(channel_id, actor_of(interaction), notation, expected_version)
    bot.after_commit(outcome)
    return await confirm_move(bot, interaction, outcome, lang)


async def require_game(bot: "RailyardBot", channel_id: str, game_id: int) -> GameInfo:
    """The channel's open game, which must be `game_id` (else the click is stale)."""
    try:
        info = await bot.service.lobby(channel_id)
    except SessionError as exc:
        if exc.code == "no_game_here":
            raise StaleClick(ended=True) from None
        raise
    if info.game_id != game_id:
        raise StaleClick(ended=True)
    return info


# ------------------------------------------------------------------------------ hand
async def hand_reply(interaction: discord.Interaction, game_id: int | None = None) -> Reply:
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    pv = await bot.service.private_view(channel_key(interaction), str(interaction.user.id))
    if game_id is not None and pv.game_id != game_id:
        raise StaleClick(ended=True)
    ui = ui_base.get(pv.game)
    image = await render_png(pv.game, "hand", pv.view, pv.names, lang)
    text = ui.hand_text(pv, lang)
    reply = Reply(content=clip(text, CONTENT_MAX) or t(lang, "discord.hand.title"))
    if image:
        reply.files.append(("hand.png", image))
    reply.view = make_view(ui.private_rows(pv, lang))
    return reply


# ------------------------------------------------------------------------------ claim flow
async def _private_for(interaction: discord.Interaction, ref: ids.ComponentId) -> PrivateView:
    bot = bot_of(interaction)
    pv = await bot.service.private_view(channel_key(interaction), str(interaction.user.id))
    if pv.game_id != ref.game_id:
        raise StaleClick(ended=True)
    if pv.version != ref.version:
        raise StaleClick()
    if not pv.active:
        status = await bot.service.status(channel_key(interaction))
        raise IllegalAction("not_active", waiting=status.waiting)
    return pv


async def claim_targets_reply(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    lang = lang_of(interaction)
    pv = await _private_for(interaction, ref)
    ui = ui_base.get(pv.game)
    options = ui.claim_targets(pv, lang)
    words = ui.claim_words
    if not options:
        raise UserError(f"{words}.none")
    rows = [[s] for s in selects(pv.game_id, pv.version, "route", options,
                                 placeholder=t(lang, f"{words}.pick_route"))][:5]
    return Reply(content=t(lang, f"{words}.intro", count=len(options)), view=make_view(rows))


async def claim_payments_reply(interaction: discord.Interaction, ref: ids.ComponentId,
                               values: Sequence[str]) -> Reply:
    lang = lang_of(interaction)
    pv = await _private_for(interaction, ref)
    ui = ui_base.get(pv.game)
    target = values[0] if values else ""
    options = ui.claim_payments(pv, target, lang)
    words = ui.claim_words
    if not options:
        raise UserError(f"{words}.cannot", route=ui.route_name(target, lang))
    rows = [[s] for s in selects(pv.game_id, pv.version, "pay", options,
                                 placeholder=t(lang, f"{words}.pick_payment"))][:5]
    return Reply(content=t(lang, f"{words}.payment_intro", route=ui.route_name(target, lang)),
                 view=make_view(rows))


# ------------------------------------------------------------------------------ private picks
async def pick_reply(interaction: discord.Interaction, ref: ids.ComponentId, values: Sequence[str]) -> Reply:
    """A private choice made while others choose too (e.g. Santa Fe's secret card): checked
    against the decision it was drawn for (the UI's `decision_key`), not the version, so
    another player's simultaneous choice does not make it stale."""
    bot = bot_of(interaction)
    pv = await bot.service.private_view(channel_key(interaction), str(interaction.user.id))
    if pv.game_id != ref.game_id:
        raise StaleClick(ended=True)
    ui = ui_base.get(pv.game)
    if pv.active and ui.decision_key(pv) != (ref.arg or ""):
        raise StaleClick()
    return await play(interaction, ui.pick_notation(pv, values), game_id=ref.game_id)


# ------------------------------------------------------------------------------ lobby
async def lobby_action(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """Join / Leave / Add a bot / Start; the lobby message (public, in the game's language) is
    redrawn in place. A lobby opened with `players: n` starts by itself once n seats are taken."""
    bot = bot_of(interaction)
    channel_id = channel_key(interaction)
    actor = actor_of(interaction)
    info = await require_game(bot, channel_id, ref.game_id)
    target = int(ref.arg) if ref.arg and ref.arg.isdigit() else None
    if info.status != "lobby":
        raise SessionError("not_lobby")
    outcome: Outcome | None = None
    if ref.verb == "join":
        info = await bot.service.join(channel_id, actor)
    elif ref.verb == "leave":
        info = await bot.service.leave(channel_id, actor)
        if info.status == "abandoned":
            return lobby_reply(info, info.locale, target, state="closed")
    elif ref.verb == "bot":
        info = await bot.service.add_bot(channel_id, actor)
    elif ref.verb == "start":
        outcome = await bot.service.start(channel_id, actor)
    if outcome is None and target and len(info.seats) >= target:
        # the table is full: start on the host's behalf, as the lobby announced
        host = Actor(user_id=info.host_user_id, name=info.host_user_id, is_manager=True)
        outcome = await bot.service.start(channel_id, host)
    if outcome is not None:
        bot.after_commit(outcome)
        info = await bot.service.lobby(channel_id) if outcome.status == "active" else info
        return lobby_reply(info, info.locale, target, state="started")
    return lobby_reply(info, info.locale, target)


# ------------------------------------------------------------------------------ log
async def log_reply(interaction: discord.Interaction, page: int | None) -> Reply:
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    channel_id = channel_key(interaction)
    entries = await bot.service.history(channel_id)
    status = await bot.service.status(channel_id)
    names = status.names
    ui = ui_base.get(status.info.game)
    lines = []
    for e in entries:
        words = " ".join(event_text(lang, ui.public_event(ev.model_dump(mode="json")), names)
                         for ev in e.events)
        if not words:
            words = t(lang, "discord.hidden_move") if ui.private_notation(e.notation) else e.notation
        mark = {"bot": "🤖 ", "deadline": "⏰ "}.get(e.auto or "", "")
        line = clip(f"`{e.seq:>3}` {mark}{words}", 400)
        if e.undone:
            line = f"~~{line}~~"
        lines.append(line)
    if not lines:
        lines = [t(lang, "discord.log.empty")]
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and size + len(line) + 1 > LOG_PAGE_CHARS:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    count = len(pages)
    index = count - 1 if page is None else max(0, min(count - 1, page - 1))
    embed = discord.Embed(title=clip(t(lang, "discord.log.title", game=ui.title(lang)), 256),
                          description="\n".join(pages[index]), colour=ui.colour)
    embed.set_footer(text=t(lang, "discord.log.page", page=index + 1, pages=count))
    gid = status.info.game_id
    nav = []
    if index > 0:
        nav.append(button(gid, 0, "log", str(index), label=t(lang, "discord.log.previous"), emoji="◀️"))
    if index < count - 1:
        nav.append(button(gid, 0, "log", str(index + 2), label=t(lang, "discord.log.next"), emoji="▶️"))
    return Reply(embeds=[embed], view=make_view([nav]))


# ------------------------------------------------------------------------------ routing
async def on_component(interaction: discord.Interaction, ref: ids.ComponentId | None,
                       values: list[str]) -> None:
    """Every Railyard button and select lands here."""
    try:
        if ref is None:
            raise StaleClick(ended=True)
        verb = ref.verb
        if verb == "act":
            await answer(interaction, play(interaction, ref.arg or "", expected_version=ref.version,
                                           game_id=ref.game_id))
        elif verb == "hand":
            await answer(interaction, hand_reply(interaction, ref.game_id), slow=True)
        elif verb == "claim":
            await answer(interaction, claim_targets_reply(interaction, ref))
        elif verb == "route":
            await answer(interaction, claim_payments_reply(interaction, ref, values), update=True)
        elif verb == "pay":
            await answer(interaction, play(interaction, values[0] if values else "",
                                           expected_version=ref.version, game_id=ref.game_id),
                         update=True)
        elif verb == "keep":
            # not version-checked: see bot.discord.ids
            await answer(interaction, play(interaction, "keep " + ",".join(values), game_id=ref.game_id),
                         update=True)
        elif verb == "pick":
            await answer(interaction, pick_reply(interaction, ref, values), update=True)
        elif verb in ("join", "leave", "bot", "start"):
            await answer(interaction, lobby_action(interaction, ref), update=True)
        elif verb == "log":
            page = int(ref.arg) if ref.arg and ref.arg.isdigit() else None
            await answer(interaction, log_reply(interaction, page), update=True)
        else:
            raise StaleClick(ended=True)
    except Exception as exc:  # noqa: BLE001 - the one handler answers every error
        await report_error(interaction, exc)
