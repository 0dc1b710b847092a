"""The web table's pages in a real headless Chromium: the replay steps through a finished game
with the keyboard and its buttons; the public table on a phone's width; what a table weighs."""
from __future__ import annotations

import pytest

from tests.support.browser import Browser, browser  # noqa: F401 - the fixture

pytestmark = pytest.mark.slow


async def test_the_replay_steps_through_a_finished_game(web, browser):
    game_id = await web.start_game("ginga", humans=1, bots=1)
    await web.advance(game_id, 400)
    ld, _ = await web.service.core.read_id(game_id)
    assert ld.row.status == "finished"
    await browser.open(f"{web.url}/g/{game_id}/replay")
    total = await browser.wait("const s = document.querySelector('#step'); return s && Number(s.max)", what="slider")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0", what="the last board")
    assert await browser.js("return Number(document.querySelector('#step').value)") == total
    await browser.wait("return document.querySelector('#chart') && document.querySelector('#chart').naturalWidth > 0",
                       what="the score chart")
    last_src = await browser.js("return document.querySelector('#board').src")
    await browser.click("#first")  # ⏮ the start
    await browser.wait("return document.querySelector('#board').src.includes('/replay/0.png')", what="frame 0")
    assert "0" in await browser.text("#frame")
    await browser.click("#next")  # next ▶
    await browser.wait("return document.querySelector('#board').src.includes('/replay/1.png')", what="frame 1")
    # the keyboard: the slider takes the arrow keys
    from selenium.webdriver.common.keys import Keys

    await browser.call(lambda: browser.driver.find_element("css selector", "#step").send_keys(Keys.ARROW_RIGHT))
    await browser.wait("return document.querySelector('#board').src.includes('/replay/2.png')", what="frame 2")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0 && document.querySelector('#board').complete",
                       what="frame 2 drawn")
    assert last_src != await browser.js("return document.querySelector('#board').src")


async def test_the_public_table_reads_on_a_phone_and_weighs_little(web, tmp_path):
    game_id = await web.start_game("steam", humans=3)
    await web.advance(game_id, 6)
    phone = await Browser.launch(phone=True)
    try:
        await phone.open(f"{web.url}/g/{game_id}")
        await phone.wait("return document.querySelector('#board').naturalWidth > 0", what="the board")
        await phone.wait("return document.querySelectorAll('#log li').length > 0", what="the log")
        # nothing wider than the screen: the board scales down, the sidebar goes below it
        overflow = await phone.js("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        shown = await phone.js("const r = document.querySelector('#board').getBoundingClientRect(); return r.width")
        assert 300 <= shown <= 390 and await phone.js('return window.innerWidth') == 390
        weight = await phone.js(
            "const n = performance.getEntriesByType('navigation')[0];"
            "const r = performance.getEntriesByType('resource');"
            "return {page: n.transferSize, parts: r.map(e => [e.name.split('/').slice(-1)[0].split('?')[0], e.transferSize])}")
        await phone.screenshot(tmp_path / "phone.png")
    finally:
        await phone.close()
    parts = dict(weight["parts"])
    print("table page weight:", weight)
    assert set(parts) >= {"table.js", "table.css", "table.json", "board.png"}
    text = sum(v for k, v in parts.items() if k != "board.png") + weight["page"]
    assert text < 16_000  # the page, its script, style and data, compressed; the board is the rest


@pytest.mark.parametrize("game", ["ticket_to_ride", "ginga", "santa_fe", "steam", "catan_express"])
async def test_a_player_clicks_a_place_on_every_games_board(web, browser, game):
    from tests.web.test_player import _placed_step

    game_id = await web.start_game(game)
    actor, token, data = await _placed_step(web, game_id)
    ld, _ = await web.service.core.read_id(game_id)
    await browser.open(f"{web.url}/g/{game_id}/play#t={token}")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0", what="the board")
    for value in data["step"]["picks"]:  # the picks before the places; those the menu takes itself have no button
        await browser.wait("return document.querySelectorAll('#move button').length > 0", what="the menu")
        clicked = await browser.js(
            "const b = [...document.querySelectorAll('#move .options button')].find(b => b.dataset.value === arguments[0]);"
            "if (b) b.click(); return !!b", value)
        if clicked:
            await browser.wait("return !document.querySelector('#move button[data-value=\"' + CSS.escape(arguments[0]) + '\"]')",
                               value, what="the next step")
    await browser.wait("return document.querySelectorAll('#hits g.hit').length > 0", what="places on the board")
    # the places sit on the board image as drawn: the overlay has the image's own size
    box = await browser.js("const i = document.querySelector('#board').getBoundingClientRect();"
                           "const s = document.querySelector('#hits').getBoundingClientRect();"
                           "return [i.width - s.width, i.height - s.height]")
    assert abs(box[0]) < 1 and abs(box[1]) < 1
    before = await browser.text("#move")
    await browser.click("#hits g.hit:last-child circle")
    await browser.wait("return document.querySelector('#move').innerText !== arguments[0]", before, what="the place's step")
    for _ in range(8):
        state = await browser.wait(
            "if (document.querySelector('#move button.primary')) return 'confirm';"
            "if (document.querySelector('#move form')) return 'form';"
            "return document.querySelector('#move .at-place button, #move .options button') ? 'option' : null",
            what="a choice")
        if state != "option":
            break
        before = await browser.text("#move")
        has_place = await browser.js("return !!document.querySelector('#move .at-place button')")
        await browser.click("#move .at-place button" if has_place else "#move .options button")
        await browser.wait("return document.querySelector('#move').innerText !== arguments[0]", before, what="a step")
    assert state == "confirm", await browser.text("#move")
    outbox = len(await web.service.store.outbox_rows(game_id))
    await browser.click("#move button.primary")
    await browser.wait("return document.querySelector('#status').innerText.includes('Move made')", what="moved")
    after, actions = await web.service.core.read_id(game_id, with_actions=True)
    assert after.row.version > ld.row.version
    assert any(a.actor_user_id == actor.user_id for a in actions if a.seq > len(actions) - 5)
    assert len(await web.service.store.outbox_rows(game_id)) > outbox


async def test_the_places_and_options_work_from_the_keyboard(web, browser):
    from selenium.webdriver.common.keys import Keys

    from tests.web.test_player import _placed_step

    game_id = await web.start_game("steam", humans=3)
    actor, token, data = await _placed_step(web, game_id)
    await browser.open(f"{web.url}/g/{game_id}/play#t={token}")
    await browser.wait("return document.querySelector('#board').naturalWidth > 0", what="the board")
    for value in data["step"]["picks"]:
        await browser.wait("return document.querySelectorAll('#move button').length > 0", what="the menu")
        await browser.js("const b = [...document.querySelectorAll('#move .options button')]"
                         ".find(b => b.dataset.value === arguments[0]); if (b) b.click();", value)
    await browser.wait("return document.querySelectorAll('#hits g.hit').length > 0", what="places on the board")
    # every place is a focusable button named by its options' words
    names = await browser.js("return [...document.querySelectorAll('#hits g.hit')].map(g => "
                             "[g.getAttribute('tabindex'), g.getAttribute('role'), g.getAttribute('aria-label')])")
    assert all(t == "0" and r == "button" and label for t, r, label in names)
    before = await browser.text("#move")

    def enter_on_first_place() -> None:
        place = browser.driver.find_element("css selector", "#hits g.hit:last-child")
        browser.driver.execute_script("arguments[0].focus()", place)
        browser.driver.switch_to.active_element.send_keys(Keys.ENTER)

    await browser.call(enter_on_first_place)
    await browser.wait("return document.querySelector('#move').innerText !== arguments[0]", before,
                       what="the place's options")
    # the focus lands on something to press next: an option, or Confirm
    await browser.wait("return document.activeElement.tagName === 'BUTTON' && "
                       "document.querySelector('#move').contains(document.activeElement)", what="the focus on the next step")
