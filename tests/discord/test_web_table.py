"""The web table beside Discord, end to end: the real bot (discord.py on the loopback Discord)
serves its web table; "Open the table" in a player's private hand reply is their own link and
never shows in a public post; a move made on the table lands in the channel as a Discord
move does; the host opens the table to spectators with /game settings."""
from __future__ import annotations

import asyncio
import json
import time

import aiohttp
import pytest

from bot.config import Settings
from tests.discord.conftest import ALICE, BOB, CHANNEL, GUILD, Harness, find_id

SECRET = "s" * 40


class WebHarness(Harness):
    def settings(self) -> Settings:
        return Settings(token=self.fake.token, database=self.db_path, dev_guild_id=GUILD,
                        web_url="http://127.0.0.1:1", web_port=0, web_secret=SECRET)

    async def start(self):
        bot = await super().start()
        assert bot.web is not None
        bot.web.rebase(f"http://127.0.0.1:{bot.web.port}")  # the port the system gave
        return bot


@pytest.fixture
async def web_harness(fake, tmp_path, clock):
    h = WebHarness(fake, tmp_path / "railyard.sqlite3", clock)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def _links(message) -> list[str]:
    return [c["url"] for row in message.components for c in row["components"] if c.get("url")]


async def _hand_link(h: WebHarness, user: int) -> str:
    post = h.last_post()
    hand = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), user)
    assert hand.ephemeral
    links = _links(hand.original)
    assert len(links) == 1 and "/play#t=" in links[0], hand.original.components
    return links[0]


async def test_open_the_table_is_a_private_link_and_a_move_made_there_lands_in_the_channel(web_harness):
    h = web_harness
    await h.new_game()
    assert h.bot is not None and h.bot.web is not None
    game_id = await h.game_id()
    link = await _hand_link(h, ALICE)
    token = link.split("#t=", 1)[1]
    base = link.split("/g/", 1)[0]
    # no public message carries a link to anyone's table
    for message in h.fake.messages(CHANNEL, ephemeral=False):
        assert not any("/play" in url for url in _links(message))
        assert "#t=" not in message.content and token not in json.dumps(message.embeds)

    auth = {"Authorization": f"Bearer {token}", "X-Railyard-Page": "p1"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/g/{game_id}/play/table.json", headers=auth) as r:
            data = await r.json()
        assert r.status == 200 and data["active"]
        group = data["step"]["groups"][0]
        sent = len(h.fake.public_payloads())
        started = time.perf_counter()
        async with http.post(f"{base}/g/{game_id}/play/move", headers={**auth, "X-Railyard-CSRF": data["csrf"],
                                                                        "Origin": base},
                             json={"group": {"index": group["index"], "counts": [1] * len(group["items"])},
                                   "version": data["version"]}) as r:
            assert r.status == 200, await r.text()
        # the channel's live board is edited for the move, as for a move made in Discord
        while len(h.fake.public_payloads()) == sent:
            assert time.perf_counter() - started < 10
            await asyncio.sleep(0.005)
        elapsed = time.perf_counter() - started
    await h.idle()
    status = await h.bot.service.status(str(CHANNEL))
    assert status.version == data["version"] + 1
    print(f"click to the channel's edit: {elapsed * 1000:.0f} ms")


async def test_the_host_opens_the_table_to_spectators(web_harness):
    h = web_harness
    await h.new_game()
    assert h.bot is not None and h.bot.web is not None
    game_id = await h.game_id()
    url = f"http://127.0.0.1:{h.bot.web.port}/g/{game_id}"
    async with aiohttp.ClientSession() as http:
        async with http.get(url + "/table.json") as r:
            assert r.status == 403
        reply = await h.slash(BOB, "game settings", {"public_table": True})
        assert "host" in reply.content.lower() or reply.ephemeral  # only the host may
        async with http.get(url + "/table.json") as r:
            assert r.status == 403
        reply = await h.slash(ALICE, "game settings", {"public_table": True})
        assert url in reply.content
        async with http.get(url + "/table.json") as r:
            assert r.status == 200
        reply = await h.slash(ALICE, "game settings", {"public_table": False}, locale="ja")
        async with http.get(url + "/table.json") as r:
            assert r.status == 403


async def test_a_menu_that_takes_every_row_leaves_the_link_in_the_private_words(web_harness, monkeypatch):
    from bot.discord import picking, play
    from bot.discord.ui.components import button

    h = web_harness
    await h.new_game()
    game_id = await h.game_id()
    version = (await h.bot.service.status(str(CHANNEL))).version

    async def full_menu(pv, decision, lang):  # five rows of buttons: Discord's most
        rows = [[button(game_id, version, "cb", f"v::{5 * r + i}", label=f"{5 * r + i}") for i in range(5)]
                for r in range(5)]
        return picking.Shown(rows=rows, lines=[])

    monkeypatch.setattr(play, "menu_shown", full_menu)
    post = h.last_post()
    hand = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    assert hand.ephemeral and not _links(hand.original)
    assert len(hand.original.components) == 5
    assert f"/g/{game_id}/play#t=" in hand.original.content


async def test_board_posts_link_the_public_table_and_the_final_post_its_replay(web_harness):
    h = web_harness
    await h.new_game()
    assert h.bot is not None and h.bot.web is not None
    base = f"http://127.0.0.1:{h.bot.web.port}"
    table = f"{base}/g/{await h.game_id()}"
    await h.keep_tickets(ALICE)
    assert table not in _links(h.last_post())  # the host keeps the table private
    await h.slash(ALICE, "game settings", {"public_table": True})
    await h.keep_tickets(BOB)  # the next change redraws the live board with the link
    post = h.last_post()
    watch = [c for row in post.components for c in row["components"] if c.get("url") == table]
    assert len(watch) == 1 and watch[0]["label"] == "Watch on the web"
    assert all("/play" not in link for link in _links(post))  # a public post never holds a player's link
    async with aiohttp.ClientSession() as http:
        async with http.get(table + "/table.json") as r:
            assert r.status == 200


def test_the_final_post_links_the_replay_only_where_the_table_is_public():
    from bot.discord.posts import web_links
    from bot.sessions.posting import GamePost

    post = GamePost(game_id=7, channel_id="1", game="ginga", version=9, kind="move", finished=True,
                    public_table=True)
    (replay,) = web_links(post, "ja", "https://example.org/railyard/")
    assert replay.url == "https://example.org/railyard/g/7/replay" and replay.label == "ウェブでリプレイ"
    (watch,) = web_links(post.model_copy(update={"finished": False}), "en", "https://example.org")
    assert watch.url == "https://example.org/g/7" and watch.label == "Watch on the web"
    assert web_links(post.model_copy(update={"public_table": False}), "en", "https://example.org") == []
    assert web_links(post, "en", None) == []  # the bot serves no web table
