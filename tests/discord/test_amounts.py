"""Amounts in menus (a bid): quick buttons bid the minimum, +1, +2 or +5 at one tap; a button
opens a modal for any other number; a number out of bounds or not a number is refused privately
and changes nothing."""
from __future__ import annotations

import re

import pytest

from games import registry
from tests.support.registered import registered_games
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, _label, find_id
from tests.support import dump_db


@pytest.fixture
def bid_game():
    with registered_games(bid="tests.support.bid_game:GAME"):
        yield registry.get("bid")


async def start_two(h: Harness):
    """A started 2-player bid game: its status and the user waited on."""
    await h.slash(ALICE, "game new", {"game": "bid"})
    await h.click(h.lobby(), None, BOB, label=_label("discord.lobby.join", "en-US"))
    await h.click(h.lobby(), None, ALICE, label=_label("discord.lobby.start", "en-US"))
    status = await h.bot.service.status(str(CHANNEL))
    return status, int(status.waiting_user_ids[0])


async def test_a_bid_through_the_modal(harness: Harness, fake, bid_game) -> None:
    h = harness
    status, first = await start_two(h)
    post = h.posts()[-1]  # the start post (this test game has no pictures)
    # the public post offers Pass, and "Choose…" for what needs more than a click
    menu = await h.click(post, find_id(post, r"ry:\d+:\d+:cb:o:"), first)
    post = menu.original
    amount_id = find_id(post, r"ry:\d+:\d+:ca:v::0")
    assert amount_id, post.custom_ids
    for bad in ("13", "0", "lots"):
        opened = await h.click(post, amount_id, first)
        assert opened.callback_type == 9  # a modal
        before = dump_db(h.db_path)
        refused = await fake.submit_modal(opened, {next(iter(_inputs(opened))): bad}, first)
        assert refused.ephemeral and refused.content.startswith("⚠️ "), refused.content
        assert "1" in refused.content and "12" in refused.content
        assert dump_db(h.db_path) == before
    opened = await h.click(post, amount_id, first)
    done = await fake.submit_modal(opened, {next(iter(_inputs(opened))): "5"}, first)
    await h.idle()
    assert done.ephemeral and "✅" in (done.content or ""), done.content
    assert (await h.bot.store.actions(status.info.game_id))[-1].notation == "bid 5"


def _inputs(result) -> list[str]:
    out = []
    for row in (result.callback.data or {}).get("components") or []:
        for comp in row.get("components") or []:
            out.append(comp["custom_id"])
    return out


async def test_a_bid_by_a_quick_button_and_a_forged_one_refused(harness: Harness, fake, bid_game) -> None:
    """Beside "Bid…" the menu offers the minimum and +1, +2, +5 as buttons: one tap bids. A value
    the menu does not offer (a forged id) is refused privately and changes nothing; a quick button
    of a board that has moved on says so."""
    h = harness
    status, first = await start_two(h)
    second = BOB if first == ALICE else ALICE
    menu = (await h.click(h.posts()[-1], find_id(h.posts()[-1], r"ry:\d+:\d+:cb:o:"), first)).original
    quick = {menu.component(c)["label"]: c for c in menu.custom_ids if re.fullmatch(r"ry:\d+:\d+:cq:v::0:\d+", c)}
    assert list(quick) == ["1", "2", "3", "6"], menu.custom_ids  # the minimum, +1, +2, +5
    forged = re.sub(r":\d+$", ":13", quick["1"])
    before = dump_db(h.db_path)
    refused = await h.click_as_drawn(menu, forged, first)
    assert refused.ephemeral and refused.content.startswith("⚠️ ") and "12" in refused.content, refused.content
    assert dump_db(h.db_path) == before
    done = await h.click(menu, quick["3"], first)
    assert "✅" in (done.content or ""), done.content
    assert (await h.bot.store.actions(status.info.game_id))[-1].notation == "bid 3"
    # the next player's quick buttons start at 4; the first player's old ones are stale
    menu2 = (await h.click(h.posts()[-1], find_id(h.posts()[-1], r"ry:\d+:\d+:cb:o:"), second)).original
    labels = [menu2.component(c)["label"] for c in menu2.custom_ids if re.fullmatch(r"ry:\d+:\d+:cq:v::0:\d+", c)]
    assert labels == ["4", "5", "6", "9"]
    stale = await h.click_as_drawn(menu, quick["6"], first)
    assert stale.ephemeral and stale.content.startswith("🔄 "), stale.content
    assert (await h.bot.store.actions(status.info.game_id))[-1].notation == "bid 3"


async def test_a_bid_in_one_tap_on_the_public_post(harness: Harness, fake, bid_game) -> None:
    """The turn post carries the waited-on player's quick bids: one tap bids (the private menu
    keeps "Bid…" for any other amount); the same buttons pressed by another player are
    refused privately and change nothing."""
    h = harness
    status, first = await start_two(h)
    second = BOB if first == ALICE else ALICE
    post = h.posts()[-1]
    quick = {post.component(c)["label"]: c for c in post.custom_ids if re.fullmatch(r"ry:\d+:\d+:cq:v::0:\d+", c)}
    assert list(quick) == ["1", "2", "3", "6"], post.custom_ids
    assert find_id(post, r"ry:\d+:\d+:cb:o:")  # "Choose…" still leads to any other amount
    before = dump_db(h.db_path)
    other = await h.click(post, quick["2"], second)
    assert other.ephemeral and other.content.startswith("⚠️ "), other.content
    assert dump_db(h.db_path) == before
    done = await h.click(post, quick["2"], first)
    assert done.ephemeral and "✅" in (done.content or ""), done.content
    assert (await h.bot.store.actions(status.info.game_id))[-1].notation == "bid 2"
