"""What a click or a command does, shared by the cogs and the components.

Every change goes through the sessions service; its commit writes the outbox row that the
dispatcher turns into the public post. The interaction itself is answered privately: a
"done" note with what only this player may know (the card drawn blind, the tickets
offered), and the next private choice if there is one.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import discord

from bot.discord import chooser, ids, leagues, picking, where
from bot.discord.boards import board_follows
from bot.discord import forum as forum_posts
from bot.discord.errors import StaleClick, report_error
from bot.discord.refusals import UserError
from bot.discord.posts import attach, lobby_reply, render_picture
from bot.discord.host import Host
from bot.discord.replies import Reply, answer
from bot.discord.text import CONTENT_MAX, clip, event_text, join_lines, lang_of, t
from bot.discord.threads import add_members, open_thread
from bot.discord.ui import base as ui_base
from bot.discord.ui.components import button, make_view
from bot.sessions import Actor, ClickResult, GameInfo, MenuMove, MenuWalk, Outcome, PrivateView, SessionError
from bot.sessions.settings import REPLIES
from games import registry
from games.core import IllegalAction
from games.core.choices import Amount, Decision, Stop


log = logging.getLogger("railyard.discord.play")

LOG_PAGE_CHARS = 3800


def bot_of(interaction: discord.Interaction) -> Host:
    return interaction.client  # type: ignore[return-value]


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    return Actor(user_id=str(user.id), name=user.display_name, locale=str(interaction.locale),
                 is_manager=bool(perms.manage_channels or perms.administrator))


def channel_key(interaction: discord.Interaction) -> str:
    return str(interaction.channel_id)


# ------------------------------------------------------------------------------ one call a click
async def click(interaction: discord.Interaction, *, game_id: int | None = None, menu: MenuWalk | None = None,
                move: str | None = None, expected_version: int | None = None) -> ClickResult:
    """What a click or a typed move asks of the sessions service, in one call that reads the
    game once and writes it at most once (SessionService.click): nothing here reads it again.
    A component of a game that is no longer the channel's open one is stale ("that game has
    ended"). A move made is handed on to be posted (and the bots to move after it)."""
    bot = bot_of(interaction)
    try:
        result = await bot.service.click(channel_key(interaction), actor_of(interaction), game_id=game_id,
                                         menu=menu, move=move, expected_version=expected_version)
    except SessionError as exc:
        if game_id is not None and exc.code == "no_game_here":
            raise StaleClick(ended=True) from None
        raise
    if result.outcome is not None:
        bot.after_commit(result.outcome)
        board_follows(interaction, result.outcome)
    return result


def menu_walk(ref: ids.ComponentId, lead: Callable[[PrivateView, Decision, chooser.Ref], MenuMove | None]) -> MenuWalk:
    """The clicker's own menu as the service reads it, checked against the one the component
    was drawn from; then `lead` says where the click leads in it (a move, or None to show)."""
    def walk(pv: PrivateView) -> MenuMove | None:
        if not pv.active or pv.decision is None:
            if ref.version != pv.version:
                raise StaleClick()  # drawn when the clicker still had a choice to make
            raise IllegalAction("not_active", waiting=pv.waiting)
        cref = chooser.Ref.parse(ref.arg)
        chooser.verify(cref, pv.decision, ref.version, pv.version)
        return lead(pv, pv.decision, cref)

    return walk


def menu_move(cref: chooser.Ref, notation: str) -> MenuMove:
    """A move completed in a menu: a version-checked menu plays against the version it was
    drawn for; a keyed one does not (others may have moved; its key proved the menu unchanged)."""
    return MenuMove(notation=notation, bound=cref.check == "v")


# ------------------------------------------------------------------------------ moves
async def confirm_move(result: ClickResult, lang: str) -> Reply:
    """The private "done" reply after this player's move, with their next private choice
    when the game still waits on them (from the state the move committed)."""
    outcome = result.outcome
    assert outcome is not None
    names = outcome.names
    lines = ["✅ " + t(lang, "discord.move.done", notation=outcome.notation or "")]
    lines += [event_text(lang, e, names) for e in outcome.public_events]
    if outcome.seat is not None:
        lines += ["🔒 " + event_text(lang, e, names) for e in outcome.private_events.get(outcome.seat, [])]
    if outcome.orders_cancelled:
        key = "discord.orders.cancelled_by_move" if not outcome.orders_kept else "discord.orders.some_cancelled_by_move"
        lines.append("📋 " + t(lang, key, kept=outcome.orders_kept))
    reply = Reply()
    pv = result.after
    if pv is not None and pv.decision is not None:
        # still this player's move: offer the next private choice (e.g. keep tickets) here
        shown = await menu_shown(pv, pv.decision, lang)
        if shown.rows and pv.prompt is not None:
            lines.append("👉 " + event_text(lang, pv.prompt, pv.names))
        lines += shown.lines
        reply.view = make_view(shown.rows)
        attach(reply, shown.filename, shown.picture)
    reply.content = join_lines(lines, CONTENT_MAX)
    return reply


async def menu_shown(pv: PrivateView, decision: Decision, lang: str) -> picking.Shown:
    """A decision from its start, privately: the first step (with its pick picture when its
    options are places), the groups, the amounts."""
    look = ui_base.get(pv.game)
    first = decision.first_step()
    shown = picking.Shown([], [])
    if first:
        shown = await picking.stop_shown(pv.game, pv.game_id, pv.version, chooser.check_of(decision), (), pv.view,
                                         pv.names, first, first[0].step, look, lang)
    shown.rows = chooser.decision_rows(pv.game_id, pv.version, decision, look, lang, names=pv.names,
                                       first_rows=shown.rows)
    return shown


async def play(interaction: discord.Interaction, notation: str, *, expected_version: int | None = None,
               game_id: int | None = None) -> Reply:
    """A move given by its notation (typed, or a number asked for), and the reply to it."""
    result = await click(interaction, game_id=game_id, move=notation, expected_version=expected_version)
    return await confirm_move(result, lang_of(interaction))


async def require_game(bot: Host, channel_id: str, game_id: int) -> GameInfo:
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
    """The caller's private hand. From a post's button (`game_id`) only while that game is the
    channel's open one: a finished or abandoned game's post answers "that game has ended", like
    its move buttons. /game hand (no `game_id`) also shows the final hand of a game played to
    its end, saying it is over; of a lobby or an abandoned game the service says what is true.
    In a game where nothing is private, /game hand says so before the player's own part."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    if game_id is not None:
        pv = (await click(interaction, game_id=game_id)).view
        assert pv is not None
    else:
        pv = await bot.service.private_view(channel_key(interaction), str(interaction.user.id))
    ui = ui_base.get(pv.game)
    image = await render_picture(pv.game, "hand", pv.view, pv.names, lang)
    lines = []
    if pv.status == "finished":
        lines.append("🏁 " + t(lang, "discord.status.finished"))
    if game_id is None and not registry.get(pv.game).private_information:
        lines.append("ℹ️ " + t(lang, "discord.hand.all_public", game=ui.title(lang)))
    text = "\n".join(line for line in [*lines, ui.hand_text(pv, lang)] if line)
    reply = Reply(content=clip(text, CONTENT_MAX) or t(lang, "discord.hand.title"))
    attach(reply, "hand.png", image)
    rows: list = []
    if pv.active and pv.decision is not None:
        shown = await menu_shown(pv, pv.decision, lang)
        rows = list(shown.rows)
        attach(reply, shown.filename, shown.picture)
        if shown.lines:
            reply.content = clip("\n".join([reply.content or "", *shown.lines]), CONTENT_MAX)
    table = table_link(bot, pv, str(interaction.user.id), lang)
    reply.view = make_view([*rows, [table]] if table is not None else rows)
    if table is not None and (reply.view is None or table not in reply.view.children):
        # the menu took every row: the link goes in the words (this reply is the player's alone)
        reply.content = clip(f"{reply.content or ''}\n🌐 {t(lang, 'web.link.open')}: <{table.url}>", CONTENT_MAX)
    return reply


def table_link(bot: Any, pv: PrivateView, user_id: str, lang: str) -> discord.ui.Button | None:
    """"Open the table": the player's own link to the game's web table, when the bot serves one.
    Only ever in a private reply: the link opens this player's hand."""
    web = getattr(bot, "web", None)
    if web is None:
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t(lang, "web.link.open"), emoji="🌐",
                             url=web.link(pv.game_id, user_id, pv.seat))


# ------------------------------------------------------------------------------ the chooser
@dataclass
class _Led:
    """Where a click that made no move led in the menu, kept by its `lead` to draw it."""

    stop: Stop | None = None  # None: "open my menu" (everything the decision offers)
    path: list[int] = field(default_factory=list)
    page: int = 0
    region: int | None = None
    counts: list[int] | None = None  # a group's picks so far
    amount: Amount | None = None  # the amount a modal asks for
    cref: chooser.Ref | None = None


async def choose_reply(interaction: discord.Interaction, ref: ids.ComponentId, values: Sequence[str]) -> Reply:
    """A pick in a menu (`cb`, `cs`, `cp`): play the move it completes, or show the next step."""
    lang = lang_of(interaction)
    led = _Led()

    def lead(pv: PrivateView, decision: Decision, cref: chooser.Ref) -> MenuMove | None:
        region = None
        if ref.verb == "cr":  # a region of a step's place options: the same stop, another picture
            path, page, region = list(cref.path), 0, cref.n
        else:
            path, page = chooser.path_and_page(cref, values, picked=ref.verb == "cs", paging=ref.verb == "cp")
        if cref.check == "o":  # "open my menu": everything the decision offers, privately
            led.stop = None
            return None
        stop = chooser.walk(decision, path)
        if stop.move is not None:
            if region is not None:  # a region button names no option
                raise IllegalAction("choice.not_offered")
            return menu_move(cref, stop.move)
        led.stop, led.path, led.page, led.region = stop, path, page, region
        return None

    result = await click(interaction, game_id=ref.game_id, menu=menu_walk(ref, lead))
    if result.outcome is not None:
        return await confirm_move(result, lang)
    pv = result.view
    assert pv is not None and pv.decision is not None
    decision = pv.decision
    if led.stop is None:
        shown = await menu_shown(pv, decision, lang)
        lines = ["👉 " + event_text(lang, pv.prompt, pv.names)] if pv.prompt is not None else []
        reply = Reply(content=join_lines(lines + shown.lines, CONTENT_MAX) or t(lang, "discord.choose.title"),
                      view=make_view(shown.rows))
        attach(reply, shown.filename, shown.picture)
        return reply
    stop = led.stop
    if stop.group is not None:
        return _group_page(pv, decision, stop.group, None, lang, chooser.picked_text(decision, stop, lang, pv.names))
    check = chooser.check_of(decision)
    shown = await picking.stop_shown(pv.game, pv.game_id, pv.version, check, led.path, pv.view, pv.names,
                                     stop.options, stop.step, ui_base.get(pv.game), lang, page=led.page,
                                     region=led.region)
    lines = chooser.picked_text(decision, stop, lang, pv.names) + ["👉 " + t(lang, stop.step or "choice.step.move")]
    reply = Reply(content=join_lines(lines + shown.lines, CONTENT_MAX), view=make_view(shown.rows))
    attach(reply, shown.filename, shown.picture)
    return reply


async def group_reply(interaction: discord.Interaction, ref: ids.ComponentId, values: Sequence[str]) -> Reply:
    """A click in a group (`cg` select, `ct` + / − / Start over, `cd` Confirm): the move it
    makes (the rules check the bounds again), or the group shown with the picks so far."""
    lang = lang_of(interaction)
    led = _Led()

    def lead(pv: PrivateView, decision: Decision, cref: chooser.Ref) -> MenuMove | None:
        picked = chooser.group_pick(decision, cref, values, select=ref.verb == "cg", done=ref.verb == "cd")
        if picked.move is not None:
            return menu_move(cref, picked.move)
        led.counts, led.cref = picked.counts, cref
        return None

    result = await click(interaction, game_id=ref.game_id, menu=menu_walk(ref, lead))
    if result.outcome is not None:
        return await confirm_move(result, lang)
    pv = result.view
    assert pv is not None and pv.decision is not None and led.cref is not None
    n = led.cref.n or 0
    return _group_page(pv, pv.decision, n, led.counts, lang, chooser.group_heading(pv.decision, n, lang, pv.names))


def _group_page(pv: PrivateView, decision: Decision, n: int, counts: Sequence[int] | None, lang: str,
                lines: Sequence[str]) -> Reply:
    """A group on a private message of its own: what is picked so far and its components."""
    group = decision.groups[n]
    rows = chooser.group_rows(pv.game_id, pv.version, chooser.check_of(decision), n, group, counts,
                              ui_base.get(pv.game), lang, names=pv.names)
    text = [*lines, *chooser.group_lines(group, counts, lang, pv.names)]
    return Reply(content=join_lines(text, CONTENT_MAX), view=make_view(rows))


class AmountModal(discord.ui.Modal):
    """Asks for a number within the amount's bounds (a bid); the move is made on submit."""

    def __init__(self, ref: ids.ComponentId, cref: chooser.Ref, amount: Amount, lang: str) -> None:
        super().__init__(title=clip(t(lang, amount.step), 45), custom_id=ids.make_id(ref.game_id, ref.version, "cm"))
        self.ref, self.cref, self.amount = ref, cref, amount
        self.number: discord.ui.TextInput = discord.ui.TextInput(
            label=clip(t(lang, "discord.choose.amount", min=amount.min, max=amount.max), 45),
            min_length=1, max_length=12, placeholder=str(amount.min))
        self.add_item(self.number)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            text = self.number.value.strip()
            if not text.lstrip("-").isdigit():
                raise IllegalAction("choice.amount_range", min=self.amount.min, max=self.amount.max)
            notation = self.amount.notation(int(text))
            expected = self.ref.version if self.cref.check == "v" else None
            await answer(interaction, play(interaction, notation, expected_version=expected, game_id=self.ref.game_id))
        except Exception as exc:  # noqa: BLE001 - the one handler answers every error
            await report_error(interaction, exc)


async def quick_amount_reply(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """A quick amount (`cq`: the minimum bid, +1, +2, +5): its move, made at once."""
    def lead(pv: PrivateView, decision: Decision, cref: chooser.Ref) -> MenuMove | None:
        return menu_move(cref, chooser.quick_notation(decision, cref))

    return await confirm_move(await click(interaction, game_id=ref.game_id, menu=menu_walk(ref, lead)),
                              lang_of(interaction))


async def amount_modal(interaction: discord.Interaction, ref: ids.ComponentId) -> None:
    """An amount (`ca`): open the modal that asks for it (a modal must be the first answer)."""
    led = _Led()

    def lead(pv: PrivateView, decision: Decision, cref: chooser.Ref) -> MenuMove | None:
        if cref.n is None or not 0 <= cref.n < len(decision.amounts):
            raise IllegalAction("choice.not_offered")
        led.amount, led.cref = decision.amounts[cref.n], cref
        return None

    await click(interaction, game_id=ref.game_id, menu=menu_walk(ref, lead))
    assert led.amount is not None and led.cref is not None
    await interaction.response.send_modal(AmountModal(ref, led.cref, led.amount, lang_of(interaction)))


# ------------------------------------------------------------------------------ lobby
async def lobby_action(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """Join / Leave / Add a bot / Start; the lobby message (public, in the game's language) is
    redrawn in place. A lobby opened with `players: n` starts by itself once n seats are taken:
    the service reads n from the stored lobby (a button's custom id carries no count, and an
    arg on an old or forged one is ignored)."""
    bot = bot_of(interaction)
    channel_id = channel_key(interaction)
    actor = actor_of(interaction)
    info = await require_game(bot, channel_id, ref.game_id)
    if info.status != "lobby":
        raise SessionError("not_lobby")
    outcome: Outcome | None = None
    if ref.verb == "join":
        info = await bot.service.join(channel_id, actor)
    elif ref.verb == "leave":
        info = await bot.service.leave(channel_id, actor)
        if info.status == "abandoned":
            bot.outbox.wake()  # a forum post's tag says it is over
            return lobby_reply(info, info.locale, state="closed")
    elif ref.verb == "bot":
        info = await bot.service.add_bot(channel_id, actor)
    elif ref.verb == "start":
        outcome = await bot.service.start(channel_id, actor)
    if outcome is None and ref.verb in ("join", "bot"):
        outcome = await bot.service.autostart(channel_id)
    if outcome is not None:
        bot.after_commit(outcome)
        board_follows(interaction, outcome)
        info = await bot.service.lobby(channel_id) if outcome.status == "active" else info
        return lobby_reply(info, info.locale, state="started")
    return lobby_reply(info, info.locale)


# ------------------------------------------------------------------------------ leagues
async def league_card_click(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """Join / Leave on a league's card (its id in the place of a game's): the card redrawn in
    place; the service checks the league is this server's and still takes sign-ups."""
    bot = bot_of(interaction)
    guild = str(interaction.guild_id) if interaction.guild_id else None
    if ref.verb == leagues.JOIN:
        info = await bot.service.join_league(ref.game_id, actor_of(interaction), guild)
    else:
        info = await bot.service.leave_league(ref.game_id, actor_of(interaction), guild)
    return leagues.league_card(info)


# ------------------------------------------------------------------------------ rematch
LOBBY_LOOK_BACK = 50  # messages of the channel looked through for a rematch's lobby


async def rematch_reply(interaction: discord.Interaction, ref: ids.ComponentId) -> Reply:
    """The final post's Rematch buttons: the first player to press one opens the rematch's
    lobby in the channel (posted there like /game new's), or in a new thread of the channel
    ("in a new thread"), or, for a game in a forum post, as a new post of the same forum; each
    next one, pressing either, joins it wherever it is and the lobby message is redrawn.
    Answered privately; in a game that lives by its answers the answer is the lobby itself,
    public (the bot can neither post it by itself nor redraw it later)."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    made: list[forum_posts.OpenedPost] = []

    async def new_post(finished: GameInfo) -> str:
        name = t(finished.locale, "discord.thread.default_name", game=ui_base.get(finished.game).title(finished.locale))
        if finished.settings.forum_id is None:  # a new thread of the channel the game was played in
            here: Any = interaction.channel
            channel = here.parent if isinstance(here, discord.Thread) else here
            thread = await open_thread(channel, name)  # its opener is added once the lobby is in it
            made.append(forum_posts.OpenedPost(thread, None, None))
            return str(thread.id)
        forum = bot.get_channel(int(finished.settings.forum_id))
        if not isinstance(forum, discord.ForumChannel):
            raise UserError("discord.error.cannot_post")  # the forum is gone, or the bot may not see it
        opened = await forum_posts.open_post(interaction.client, forum, name, finished.locale)  # type: ignore[arg-type]
        made.append(opened)
        return str(opened.post.id)

    try:
        info, opened = await bot.service.rematch(ref.game_id, actor_of(interaction), new_post=new_post,
                                                 elsewhere=ref.arg == ids.REMATCH_IN_THREAD)
    except Exception:
        for unused in made:  # a post opened for a rematch that did not open there
            await forum_posts.clear_post(unused)
        raise
    post = made[0] if made else None
    if post is not None and (not opened or info.channel_id != str(post.post.id)):
        await forum_posts.clear_post(post)  # another player's rematch opened first: this post is not needed
        post = None
    lobby = lobby_reply(info, info.locale)
    if info.settings.delivery == REPLIES:
        outcome = None if opened else await bot.service.autostart(str(info.channel_id))
        if outcome is not None:
            bot.after_commit(outcome)
            board_follows(interaction, outcome)
            lobby = lobby_reply(await bot.service.lobby(str(info.channel_id)), info.locale, state="started")
        return lobby
    if opened:
        try:
            if post is not None and post.starter is not None:
                await post.starter.edit(**lobby.edit_kwargs())
            elif post is not None:
                await post.post.send(**lobby.new_kwargs())
            else:
                await interaction.channel.send(**lobby.new_kwargs())  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            log.warning("cannot post the rematch lobby of game %s: %s", info.game_id, exc)
            await bot.service.abandon(str(info.channel_id), actor_of(interaction))
            bot.outbox.wake()
            raise UserError("discord.error.cannot_post") from None
        if post is not None:
            await add_members(post.post, [interaction.user])
            return Reply(content="✅ " + t(lang, "discord.rematch.opened_in", where=post.post.mention))
        return Reply(content="✅ " + t(lang, "discord.rematch.opened"))
    outcome = await bot.service.autostart(str(info.channel_id))
    if outcome is not None:
        bot.after_commit(outcome)
        lobby = lobby_reply(await bot.service.lobby(str(info.channel_id)), info.locale, state="started")
    await _redraw_lobby(interaction, info.game_id, lobby, info.channel_id)
    if str(info.channel_id) != str(interaction.channel_id):  # in a new thread or post: say where
        thread = interaction.client.get_channel(int(info.channel_id))
        if isinstance(thread, discord.Thread):
            await add_members(thread, [interaction.user])
        return Reply(content="✅ " + t(lang, "discord.rematch.joined_in", where=f"<#{info.channel_id}>"))
    return Reply(content="✅ " + t(lang, "discord.rematch.joined"))


async def _redraw_lobby(interaction: discord.Interaction, game_id: int, lobby: Reply, channel_id: str) -> None:
    """Edit the lobby message of `game_id` among the recent messages of its channel (found by
    its buttons), so everyone sees who has joined. Not found (deleted, or far up): left as it is."""
    me = interaction.client.user
    prefix = f"{ids.PREFIX}:{game_id}:"
    channel = interaction.client.get_partial_messageable(int(channel_id))
    try:
        async for message in channel.history(limit=LOBBY_LOOK_BACK):
            if me is None or message.author.id != me.id:
                continue
            custom_ids = [c.custom_id for row in message.components for c in getattr(row, "children", [])
                          if getattr(c, "custom_id", None)]
            if any(str(cid).startswith(prefix) for cid in custom_ids):
                await message.edit(**lobby.edit_kwargs())
                return
    except discord.HTTPException as exc:
        log.info("could not redraw the lobby of game %s: %s", game_id, exc)


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
        # the service gives public events and notation only (kept tickets are not named)
        words = " ".join(event_text(lang, ev, names) for ev in e.events) or e.notation
        mark = {"bot": "🤖 ", "deadline": "⏰ ", "order": "📋 ", "forced": "⏭️ ", "lapsed": "⌛ ", "away": "🏖️ "}.get(e.auto or "", "")
        line = clip(f"`{e.seq:>3}` {mark}{words}", 400)
        if e.undone:
            line = f"~~{line}~~"
        lines.append(line)
    if not lines:  # "no moves yet" only while moves may still come
        lines = [t(lang, "discord.log.empty" if status.info.status in ("lobby", "active") else "discord.log.none")]
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
        # Selects and log pages belong to private (ephemeral) messages, which their answer
        # replaces. Only there: on a public post (an id it never carried) the answer is a new
        # private message, so no click can rewrite a post everyone sees.
        private = interaction.message is not None and interaction.message.flags.ephemeral
        if verb in ("cb", "cs", "cp", "cr"):
            await answer(interaction, choose_reply(interaction, ref, values), update=private)
        elif verb in ("cg", "ct", "cd"):
            await answer(interaction, group_reply(interaction, ref, values), update=private)
        elif verb == "ca":
            await amount_modal(interaction, ref)
        elif verb == "cq":
            await answer(interaction, quick_amount_reply(interaction, ref), update=private)
        elif verb == "hand":
            await answer(interaction, hand_reply(interaction, ref.game_id), slow=True)
        elif verb in ids.LEGACY_BUTTON_VERBS + ids.LEGACY_SELECT_VERBS:
            raise StaleClick()  # a post drawn by an earlier version: its menu is gone
        elif verb in ("join", "leave", "bot", "start"):
            await answer(interaction, lobby_action(interaction, ref), update=True)
        elif verb == "rematch":
            await answer(interaction, rematch_reply(interaction, ref),
                         public=where.delivery_of(interaction) == REPLIES)
        elif verb in (leagues.JOIN, leagues.LEAVE):
            await answer(interaction, league_card_click(interaction, ref), update=True)
        elif verb == "log":
            page = int(ref.arg) if ref.arg and ref.arg.isdigit() else None
            await answer(interaction, log_reply(interaction, page), update=private)
        else:
            raise StaleClick(ended=True)
    except Exception as exc:  # noqa: BLE001 - the one handler answers every error
        await report_error(interaction, exc)
