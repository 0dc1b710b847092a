"""End-to-end fixtures: the real RailyardBot (real discord.py client) against the loopback
fake Discord (tests/fake_discord), on a SQLite file in a temp dir, with a clock the tests
move by hand.

`Harness` drives the bot only the way a user can: slash commands, autocomplete, button
clicks and select menus. After each interaction it waits until the bots have moved and the
outbox is delivered (`bot.idle()`), so tests see every post the interaction caused.
"""
from __future__ import annotations

import asyncio
import contextlib
import random
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import discord
import pytest

from bot.config import Settings
from bot.discord import ids
from bot.discord.bot import RailyardBot
from tests.conftest import FakeClock
from tests.fake_discord import FakeDiscord, FakeMessage, InteractionResult

GUILD = 500
CHANNEL = 501
OTHER = 502  # a second text channel
EMPTY = 503  # a channel without a game
ALICE, BOB, CAROL, MOD, KEN, YUKI, DANA = 11, 12, 13, 14, 15, 16, 17
MANAGE = discord.Permissions(manage_channels=True).value
SEED = 2026


def ids_in(message: FakeMessage) -> list[str]:
    return message.custom_ids


def find_id(message: FakeMessage, pattern: str) -> str | None:
    regex = re.compile(pattern)
    for cid in message.custom_ids:
        if regex.fullmatch(cid):
            return cid
    return None


class Harness:
    def __init__(self, fake: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
        self.fake = fake
        self.db_path = db_path
        self.clock = clock
        self.bot: RailyardBot | None = None
        self._running: contextlib.AbstractAsyncContextManager | None = None
        self.bots_started = 0
        self.first_seed = SEED  # the seed of the first game the next start opens (then +1, +2, ...)
        # Told of every step `choose` (and `pick_group`) answers, just before the answer is
        # sent: (user, the step's catalog key, its options, the message showing it). A test
        # measuring what people are shown reads the message then, before the answer replaces it.
        # told of each step a person answers: (user, step, options, message shown, option picked)
        self.on_step: Callable[[int, str, Sequence[Any], FakeMessage, Any], None] | None = None

    # ------------------------------------------------------------------ lifecycle
    def settings(self) -> Settings:
        return Settings(token=self.fake.token, database=self.db_path, dev_guild_id=GUILD)

    async def start(self) -> RailyardBot:
        seeds = iter(range(self.first_seed, self.first_seed + 1000))
        bot = RailyardBot(self.settings(), clock=self.clock, new_seed=lambda: next(seeds),
                          guild_ready_timeout=0.05)
        self._running = self.fake.running(bot)
        await self._running.__aenter__()
        self.bot = bot
        self.bots_started += 1
        return bot

    async def stop(self) -> None:
        if self._running is not None:
            running, self._running = self._running, None
            # A bot that cannot close within a minute is a bug to see, not a test run that hangs.
            await asyncio.wait_for(running.__aexit__(None, None, None), 60)
        self.bot = None

    async def restart(self) -> RailyardBot:
        await self.stop()
        return await self.start()

    # ------------------------------------------------------------------ driving
    async def idle(self) -> None:
        assert self.bot is not None
        await self.bot.idle()
        await self.fake.settle(quiet=0.01, timeout=5)

    async def slash(self, user: int, command: str, options: Any = None, *, channel: int = CHANNEL,
                    locale: str = "en-US", **kw: Any) -> InteractionResult:
        result = await self.fake.slash(GUILD, channel, user, command, options, locale=locale, **kw)
        await self.idle()
        return result

    async def autocomplete(self, user: int, command: str, options: Any = None, *, focused: str, value: str,
                           channel: int = CHANNEL, locale: str = "en-US") -> list[dict]:
        return await self.fake.autocomplete(GUILD, channel, user, command, options, focused=focused,
                                            value=value, locale=locale)

    async def click(self, message: Any, custom_id: str | None, user: int, *, label: str | None = None,
                    locale: str = "en-US") -> InteractionResult:
        result = await self.fake.click(message, custom_id, user, label=label, locale=locale)
        await self.idle()
        return result

    async def select(self, message: Any, custom_id: str, values: Iterable[Any], user: int, *,
                     locale: str = "en-US") -> InteractionResult:
        result = await self.fake.select(message, custom_id, list(values), user, locale=locale)
        await self.idle()
        return result

    # ------------------------------------------------------------------ looking
    def posts(self, channel: int = CHANNEL) -> list[FakeMessage]:
        """Public messages the bot posted in the channel outside interactions (lobby, outbox)."""
        return [m for m in self.fake.messages(channel, ephemeral=False)
                if m.author.id == self.fake.application_id and m.interaction_id is None]

    def game_posts(self, channel: int = CHANNEL) -> list[FakeMessage]:
        """Posts with a board (turn posts and the final post)."""
        return [m for m in self.posts(channel) if any(a.filename == "board.png" for a in m.attachments)]

    def last_post(self, channel: int = CHANNEL) -> FakeMessage:
        return self.game_posts(channel)[-1]

    def lobby(self, channel: int = CHANNEL) -> FakeMessage:
        """The latest lobby message (its footer says "Game #n · lobby")."""
        lobbies = [m for m in self.posts(channel) if m.embeds
                   and re.search(r"#\d+ · (lobby|ロビー)$", (m.embeds[0].get("footer") or {}).get("text", ""))]
        return lobbies[-1]

    async def game_id(self, channel: int = CHANNEL) -> int:
        assert self.bot is not None
        return (await self.bot.service.status(str(channel))).info.game_id

    # ------------------------------------------------------------------ set-ups
    async def new_game(self, host: int = ALICE, others: Iterable[int] = (BOB,), bots: int = 0, *,
                       channel: int = CHANNEL, locale: str = "en-US") -> InteractionResult:
        """Open a lobby, let `others` join, add bots, start. Returns the Start click. A host
        with a Japanese client picks Japanese for the game (the test server's language is
        English, which a game takes by default)."""
        options = {"game": "ticket_to_ride"}
        if locale.startswith("ja"):
            options["language"] = "ja"
        opened = await self.slash(host, "game new", options, channel=channel, locale=locale)
        assert opened.ephemeral, opened.content
        lobby = self.lobby(channel)
        for user in others:
            await self.click(lobby, None, user, label=_label("discord.lobby.join", locale), locale=locale)
        for _ in range(bots):
            await self.click(lobby, None, host, label=_label("discord.lobby.add_bot", locale), locale=locale)
        return await self.click(lobby, None, host, label=_label("discord.lobby.start", locale), locale=locale)

    async def keep_tickets(self, user: int, *, channel: int = CHANNEL, locale: str = "en-US",
                           how_many: int | None = None) -> InteractionResult:
        """Open the hand from the latest post and keep tickets with the private multi-select."""
        post = self.last_post(channel)
        hand_id = find_id(post, r"ry:\d+:\d+:hand")
        assert hand_id, post.custom_ids
        hand = await self.click(post, hand_id, user, locale=locale)
        assert hand.ephemeral
        message = hand.original
        keep_id = find_id(message, r"ry:\d+:\d+:cg:.*")
        assert keep_id, message.custom_ids
        select = message.component(keep_id)
        values = [o["value"] for o in select["options"]]
        count = how_many or select.get("min_values", 1)
        return await self.select(message, keep_id, values[:count], user, locale=locale)

    async def click_as_drawn(self, message: FakeMessage, custom_id: str, user: int, *,
                             locale: str = "en-US") -> InteractionResult:
        """Click a button the message showed earlier but no longer has (the live board took
        it off): what a client still showing the old message, or a late click, sends."""
        live = self.fake.message(message.id)
        if live.component(custom_id) is None:
            live.components.append({"type": 1, "components": [
                {"type": 2, "style": 2, "label": "(as drawn)", "custom_id": custom_id}]})
        return await self.click(live, custom_id, user, locale=locale)

    async def move_button(self, post: FakeMessage, notation: str, *, channel: int = CHANNEL) -> str | None:
        """The id of the turn post's button for a first-step pick (a move like `draw deck`,
        or the first step of a longer one like `claim`), as the game stands now."""
        assert self.bot is not None
        status = await self.bot.service.status(str(channel))
        values = [o.value for o in status.menu.options] if status.menu is not None else []
        if notation not in values:
            return None
        return find_id(post, rf"ry:\d+:{status.version}:cb:[vk][0-9a-f]*::{values.index(notation)}")

    async def choose(self, user: int, notation: str, *, channel: int = CHANNEL, locale: str = "en-US",
                     start: str = "post", quick: bool = False) -> InteractionResult:
        """Make `notation` through the chooser, clicking as a person would: from the latest
        post's buttons (`start="post"`), or from the private hand (`start="hand"`), then each
        private step until the move is made. An amount is typed into its modal, or with
        `quick` tapped as a quick amount when one is that number. Returns the last interaction."""
        assert self.bot is not None
        pv = await self.bot.service.private_view(str(channel), str(user))
        decision = pv.decision
        assert decision is not None and pv.active, f"user {user} is not waited on"
        post = self.last_post(channel)
        if start == "hand":  # the post's button, or /game hand in a game that offers none
            hand_id = find_id(post, r"ry:\d+:\d+:hand")
            opened = await (self.click(post, hand_id, user, locale=locale) if hand_id
                            else self.slash(user, "game hand", channel=channel, locale=locale))
            message, result = opened.original, opened
        else:
            message, result = post, None
        for group_index, group in enumerate(decision.groups):
            counts = group.counts_of(notation)
            if counts is None:
                continue
            if group.entry is not None:  # opened from the first step, like the first pick of a path
                first = decision.first_step()
                index = [p.value for p in first].index(group.entry.value)
                if start == "post" and not self._first_step_component(post, "", index):
                    opened = await self.click(post, find_id(post, r"ry:\d+:\d+:cb:o:"), user, locale=locale)
                    message = opened.original
                opened = await self._pick_first_step(message, "", index, user, locale, shown=(first[0].step, first))
                message = self.fake.message(opened.original.id)
            elif start == "post":
                opened = await self.click(post, find_id(post, r"ry:\d+:\d+:cb:o:"), user, locale=locale)
                message = opened.original
            return await self.pick_group(message, group_index, group, counts, user, locale=locale)
        for amount_index, amount in enumerate(decision.amounts):
            numbers = [n for n in range(amount.min, amount.max + 1, amount.step_by)
                       if amount.template.format(n) == notation]
            if numbers:
                if start == "post":
                    opened = await self.click(post, find_id(post, r"ry:\d+:\d+:cb:o:"), user, locale=locale)
                    message = opened.original
                if self.on_step is not None:
                    self.on_step(user, amount.step, [], message, None)
                tap = find_id(message, rf"ry:\d+:\d+:cq:[vk][0-9a-f]*::{amount_index}:{numbers[0]}") if quick else None
                if tap:
                    return await self.click(message, tap, user, locale=locale)
                cid = find_id(message, rf"ry:\d+:\d+:ca:[vk][0-9a-f]*::{amount_index}")
                assert cid, message.custom_ids
                modal = await self.click(message, cid, user, locale=locale)
                field = next(comp["custom_id"] for row in (modal.callback.data or {}).get("components") or []
                             for comp in row.get("components") or [])
                typed = await self.fake.submit_modal(modal, {field: str(numbers[0])}, user)
                await self.idle()
                return typed
        choice = next((c for c in decision.choices if c.notation == notation), None)
        assert choice is not None, (notation, [c.notation for c in decision.choices][:20])
        if start == "post" and find_id(post, r"ry:\d+:\d+:cb:o:") and not find_id(post, r"ry:\d+:\d+:c[bs]:[vk].*"):
            opened = await self.click(post, find_id(post, r"ry:\d+:\d+:cb:o:"), user, locale=locale)
            message = opened.original
        picks: list[str] = []
        path: list[int] = []
        while True:
            stop = decision.walk(picks)
            if stop.move is not None:
                assert stop.move == notation and result is not None
                return result
            picks = list(stop.picks)
            index = [o.value for o in stop.options].index(choice.path[len(picks)].value)
            here = ".".join(map(str, path))
            message = await self._reach_option(message, here, index, pv, stop.options, user, locale)
            result = await self._pick_first_step(message, here, index, user, locale,
                                                 shown=(stop.step or "", stop.options))
            picks.append(stop.options[index].value)
            path.append(index)
            if result.original is not None and result.original.ephemeral:
                message = self.fake.message(result.original.id)

    async def show_option(self, message: FakeMessage, here: str, index: int, user: int, *,
                          locale: str = "en-US") -> FakeMessage:
        """The message on which option `index` of the stop reached by `here` can be clicked,
        reached as a person would (`_reach_option`) from `message`."""
        from bot.discord import chooser

        assert self.bot is not None
        pv = await self.bot.service.private_view(str(CHANNEL), str(user))
        stop = chooser.walk(pv.decision, [int(p) for p in here.split(".") if p])
        return await self._reach_option(message, here, index, pv, stop.options, user, locale)

    def _first_step_component(self, message: FakeMessage, here: str, index: int) -> tuple[str, str] | None:
        """The button or select of option `index` at the stop reached by `here`: (kind, id)."""
        button_id = find_id(message, rf"ry:\d+:\d+:cb:[vk][0-9a-f]*:{re.escape(here)}:{index}")
        if button_id:
            return "button", button_id
        select_id = next((cid for cid in message.custom_ids
                          if re.fullmatch(rf"ry:\d+:\d+:cs:[vk][0-9a-f]*:{re.escape(here)}:\d+", cid)
                          and str(index) in [o["value"] for o in message.component(cid)["options"]]), None)
        return ("select", select_id) if select_id else None

    async def _reach_option(self, message: FakeMessage, here: str, index: int, pv: Any, options: Any, user: int,
                            locale: str) -> FakeMessage:
        """The message showing option `index` of the stop at `here`, clicking as a person would
        when it is not on `message`: the button of the part of the map holding it (on a turn
        post or in a private menu), else "Choose…" and then that button."""
        from bot.discord import picking

        if self._first_step_component(message, here, index):
            return message
        lay = picking.layout(pv.game, pv.view, options)
        if lay is not None:
            region = next(n for n, r in enumerate(lay.regions) if index in r)
            cid = find_id(message, rf"ry:\d+:\d+:cr:[vk][0-9a-f]*:{re.escape(here)}:{region}")
            if cid:
                return self.fake.message((await self.click(message, cid, user, locale=locale)).original.id)
        opener = find_id(message, r"ry:\d+:\d+:cb:o:")
        assert opener and not here, (index, message.custom_ids)
        opened = (await self.click(message, opener, user, locale=locale)).original
        return await self._reach_option(self.fake.message(opened.id), here, index, pv, options, user, locale)

    async def _pick_first_step(self, message: FakeMessage, here: str, index: int, user: int,
                               locale: str, shown: tuple[str, Sequence[Any]] | None = None) -> InteractionResult:
        """Pick option `index` at the stop reached by `here`, turning the pages of a long
        menu (◀️ / ▶️, a hundred options a page) until it is shown."""
        from bot.discord.chooser import OPTIONS_PER_PAGE

        found = self._first_step_component(message, here, index)
        while not found:
            pages = {int(cid.rsplit(":", 1)[1]): cid for cid in message.custom_ids
                     if re.fullmatch(rf"ry:\d+:\d+:cp:[vk][0-9a-f]*:{re.escape(here)}:\d+", cid)}
            assert pages, (index, message.custom_ids)
            toward = min(pages, key=lambda p: abs(p - index // OPTIONS_PER_PAGE))  # ◀️ or ▶️
            paged = await self.click(message, pages[toward], user, locale=locale)
            message = self.fake.message(paged.original.id)
            found = self._first_step_component(message, here, index)
        if shown is not None and self.on_step is not None:
            self.on_step(user, shown[0], shown[1], message, shown[1][index])
        kind, cid = found
        if kind == "button":
            return await self.click(message, cid, user, locale=locale)
        return await self.select(message, cid, [str(index)], user, locale=locale)

    def region_buttons(self, message: FakeMessage, here: str) -> list[str]:
        """The ids of the buttons of the parts of the map a pictured step is split into (`cr`),
        at the stop reached by `here`, in order; the part shown is greyed."""
        return [cid for cid in message.custom_ids
                if re.fullmatch(rf"ry:\d+:\d+:cr:[vk][0-9a-f]*:{re.escape(here)}:\d+", cid)]

    async def pick_group(self, message: FakeMessage, n: int, group: Any, counts: tuple[int, ...], user: int, *,
                         locale: str = "en-US") -> InteractionResult:
        """Pick `counts` of group `n` as a person would: tick as many cards of each item in a
        side's select as it should count (each option is one card, named like the item), or
        press "+ item" that many times, side by side; then Confirm (a group made by its one
        select needs none)."""
        from games.core.i18n import language_for, translate

        if self.on_step is not None:
            self.on_step(user, group.step, group.items, message, None)
        lang = language_for(locale)
        words = [translate(lang, item.label.key, item.label.params) for item in group.items]
        whole = find_id(message, rf"ry:\d+:\d+:cg:[^:]+::{n}")
        if whole:  # one select makes the move
            return await self.select(message, whole, self._ticks(message.component(whole), words, counts,
                                                                  range(len(group.items))), user, locale=locale)
        result: InteractionResult | None = None
        for side, (_, a, b) in enumerate(group.sides()):
            select_id = find_id(message, rf"ry:\d+:\d+:cg:[^:]+::{n}:[0-9a-z]+:{side}")
            if select_id:
                ticks = self._ticks(message.component(select_id), words, counts, range(a, b))
                result = await self.select(message, select_id, ticks, user, locale=locale)
                message = self.fake.message(result.original.id)
                continue
            for i in range(a, b):
                for _ in range(counts[i]):
                    plus = translate(lang, "discord.choose.add", {"item": words[i]})
                    cid = next(c for c in message.custom_ids if re.fullmatch(r"ry:\d+:\d+:ct:.*", c)
                               and message.component(c)["label"] == plus)
                    result = await self.click(message, cid, user, locale=locale)
                    message = self.fake.message(result.original.id)
        confirm = find_id(message, r"ry:\d+:\d+:cd:.*")
        assert confirm and not message.component(confirm).get("disabled"), (counts, message.content)
        return await self.click(message, confirm, user, locale=locale)

    @staticmethod
    def _ticks(select: dict, words: list[str], counts: tuple[int, ...], items: Any) -> list[str]:
        """The options of a select of cards to tick for `counts` of `items`: as many options
        named like each item as it counts (what was ticked before is replaced)."""
        options = select["options"]
        ticks: list[str] = []
        for i in items:
            named = [o["value"] for o in options if o["label"] == words[i]]
            assert len(named) >= counts[i], (words[i], counts[i], len(named))
            ticks += named[:counts[i]]
        return ticks

    async def waited_on(self, game_id: int, channel: int = CHANNEL) -> tuple[Any, int, int, Any] | None:
        """Whose move a running game waits for, once the bots have moved (after idle()): its
        status, the first user it waits on, that user's seat and the state. None when it is over."""
        assert self.bot is not None
        status = await self.bot.service.status(str(channel))
        if status.info.status != "active":
            return None
        assert status.waiting_user_ids, "the game waits on nobody but bots after idle()"
        user = int(status.waiting_user_ids[0])
        seat = next(s for s in status.waiting if status.info.seats[s].user_id == str(user))
        return status, user, seat, await self.bot.service.rebuild(game_id)

    def planned(self, state: Any, seat: int) -> str:
        from games import registry

        game = registry.get("ticket_to_ride")
        bot = game.bots()["planner"]
        action = bot.choose(game, state, seat, random.Random(seat * 1000 + getattr(state, "draws", 0)))
        return game.format_action(action)


def _label(key: str, locale: str) -> str:
    from games.core.i18n import language_for, translate

    return translate(language_for(locale), key)


@pytest.fixture
async def fake():
    async with FakeDiscord(quiet_period=0.05) as f:
        f.add_user(ALICE, "alice", global_name="Alice")
        f.add_user(BOB, "bob", global_name="Bob")
        f.add_user(CAROL, "carol", global_name="Carol")
        f.add_user(MOD, "mod", global_name="Mod")
        f.add_user(KEN, "ken", global_name="健")
        f.add_user(YUKI, "yuki", global_name="ゆき")
        f.add_user(DANA, "dana", global_name="Dana", dm_closed=True)
        f.add_guild(GUILD, "Railyard Test", channels=[{"id": CHANNEL, "name": "games"},
                                                      {"id": OTHER, "name": "more-games"},
                                                      {"id": EMPTY, "name": "chat"}],
                    members=[ALICE, BOB, CAROL, KEN, YUKI, DANA, {"id": MOD, "permissions": MANAGE}],
                    locale="en-US")
        yield f


@pytest.fixture
async def harness(fake: FakeDiscord, tmp_path: Path, clock: FakeClock):
    h = Harness(fake, tmp_path / "railyard.sqlite3", clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def final_buttons(message) -> list[str]:
    """What the buttons of a message do ("verb" or "verb:arg" of each custom id), in order."""
    refs = [ids.ComponentId.parse(c.get("custom_id", "")) for row in message.components for c in row["components"]]
    return [f"{r.verb}:{r.arg}" if r.arg else r.verb for r in refs if r is not None]
