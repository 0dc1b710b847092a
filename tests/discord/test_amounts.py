"""Amounts in menus (a bid): a button opens a modal; the number typed makes the move; a
number out of bounds or not a number is refused privately and changes nothing."""
from __future__ import annotations

import pytest

from games import registry
from tests.support.registered import registered_games
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, _label, find_id
from tests.support import dump_db


@pytest.fixture
def bid_game():
    with registered_games(bid="tests.support.bid_game:GAME"):
        yield registry.get("bid")


async def test_a_bid_through_the_modal(harness: Harness, fake, bid_game) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "bid"})
    await h.click(h.lobby(), None, BOB, label=_label("discord.lobby.join", "en-US"))
    await h.click(h.lobby(), None, ALICE, label=_label("discord.lobby.start", "en-US"))
    status = await h.bot.service.status(str(CHANNEL))
    first = int(status.waiting_user_ids[0])
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
