"""The web table in a real headless Chromium, beside the real bot on the loopback Discord: a
spectator sees a move made in Discord appear by itself; a player clicks a place on the board
and the move lands in the channel; another player's table never shows the first one's hand."""
from __future__ import annotations

import time
from urllib.parse import urlencode

import aiohttp
import pytest

from tests.discord.conftest import ALICE, BOB, CHANNEL
from tests.discord.test_web_table import _hand_link, web_harness  # noqa: F401 - the fixture
from tests.support.browser import Browser, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.slow


async def _waited_user(h) -> int:
    status = await h.bot.service.status(str(CHANNEL))
    seat = status.waiting[0]
    return int(status.info.seats[seat].user_id)


async def test_a_spectator_sees_a_move_made_in_discord_appear(web_harness, browser):  # noqa: F811
    h = web_harness
    await h.new_game()
    await h.slash(ALICE, "game settings", {"public_table": True})
    game_id = await h.game_id()
    await browser.open(f"{h.bot.web.base_url}/g/{game_id}")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0", what="the board")
    before = await browser.js("return document.querySelectorAll('#log li').length")
    src = await browser.js("return document.querySelector('#board').src")
    await browser.wait("return document.querySelector('#status').innerText.length > 0", what="live")
    await h.keep_tickets(BOB)  # in Discord
    await browser.wait(f"return document.querySelectorAll('#log li').length > {before}", what="the new move")
    await browser.wait("return document.querySelector('#board').src !== arguments[0]", src, what="the new board")
    assert "Bob" in await browser.text("#log")


async def _path_to_places(base: str, game_id: int, token: str) -> list[str]:
    """The picks (values) that reach a step whose options are places, asked of the table as the page does."""
    async with aiohttp.ClientSession() as http:
        queue: list[list[str]] = [[]]
        while queue:
            picks = queue.pop(0)
            async with http.get(f"{base}/g/{game_id}/play/table.json?" + urlencode([("p", p) for p in picks]),
                                headers={"Authorization": f"Bearer {token}"}) as r:
                data = await r.json()
            step = data["step"]
            if step and any("place" in o for o in step["options"]):
                return picks
            if step and not step["move"]:
                queue += [[*step["picks"], o["value"]] for o in step["options"][:12]]
    raise AssertionError("no step with places")


async def test_a_player_clicks_a_place_and_the_move_lands_in_the_channel(web_harness, browser):  # noqa: F811
    h = web_harness
    await h.new_game()
    await h.keep_tickets(ALICE)
    await h.keep_tickets(BOB)
    user = await _waited_user(h)
    link = await _hand_link(h, user)
    base, token = link.split("/g/", 1)[0], link.split("#t=", 1)[1]
    game_id = await h.game_id()
    path = await _path_to_places(base, game_id, token)

    await browser.open(link)
    await browser.wait("return document.querySelectorAll('#move .options button').length > 0", what="the menu")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0", what="the board")
    for value in path:
        await browser.js("[...document.querySelectorAll('#move .options button')]"
                         ".find(b => b.dataset.value === arguments[0]).click()", value)
        await browser.wait("return !document.querySelector('#move button[data-value=\"' + CSS.escape(arguments[0]) + '\"]')",
                           value, what="the next step")
    await browser.wait("return document.querySelectorAll('#hits g.hit').length > 0", what="places on the board")
    before = await browser.text("#move")
    await browser.click("#hits g.hit:last-child circle")  # a real click on the board
    await browser.wait("return document.querySelector('#move').innerText !== arguments[0]", before, what="the place's step")
    for _ in range(6):  # the options at that place, then whatever follows, to the move
        confirm = await browser.wait(
            "const c = [...document.querySelectorAll('#move button.primary')]; if (c.length) return 'confirm';"
            "const o = document.querySelectorAll('#move .at-place button, #move .options button');"
            "return o.length ? 'option' : null", what="a choice")
        if confirm == "confirm":
            break
        before = await browser.text("#move")
        await browser.click("#move .at-place button" if await browser.js(
            "return !!document.querySelector('#move .at-place button')") else "#move .options button")
        await browser.wait("return document.querySelector('#move').innerText !== arguments[0]", before, what="a step")
    version = (await h.bot.service.status(str(CHANNEL))).version
    sent = len(h.fake.public_payloads())
    started = time.perf_counter()
    await browser.click("#move button.primary")
    await browser.wait("return document.querySelector('#status').innerText.includes('Move made')", what="moved")
    while len(h.fake.public_payloads()) == sent:
        assert time.perf_counter() - started < 10
        await browser.js("return 1")
    print(f"click in the browser to the channel's edit: {(time.perf_counter() - started) * 1000:.0f} ms")
    await h.idle()
    status = await h.bot.service.status(str(CHANNEL))
    assert status.version > version
    ld, actions = await h.bot.service.core.read_id(game_id, with_actions=True)
    assert actions[-1].actor_user_id == str(user) or any(a.actor_user_id == str(user) for a in actions[-3:])


async def test_another_players_table_never_shows_the_first_players_hand(web_harness, browser):  # noqa: F811
    h = web_harness
    await h.new_game()
    game_id = await h.game_id()
    links = {user: await _hand_link(h, user) for user in (ALICE, BOB)}
    offered = {}
    async with aiohttp.ClientSession() as http:
        for user, link in links.items():
            base, token = link.split("/g/", 1)[0], link.split("#t=", 1)[1]
            async with http.get(f"{base}/g/{game_id}/play/table.json", headers={"Authorization": f"Bearer {token}"}) as r:
                data = await r.json()
            offered[user] = [i["label"] for g in data["step"]["groups"] for i in g["items"]]
    for user, other in ((ALICE, BOB), (BOB, ALICE)):
        await browser.open(links[user])
        await browser.wait("return document.querySelectorAll('#move form.group label').length > 0", what="tickets")
        await browser.wait("return document.querySelector('#hand').naturalWidth > 0", what="the hand")
        text = await browser.text()
        assert all(label in text for label in offered[user]), (offered[user], text)
        assert not any(label in text for label in offered[other])
