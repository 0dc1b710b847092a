"""The final post's "Rematch in a new thread", through the real client against the loopback
Discord: the first press opens the rematch's lobby in a new thread of the channel, every
later press of either Rematch button joins it there; two first presses at once make one
thread; a rematch opened in the channel itself is joined from the thread button without a
thread; a game played in a thread has its rematch's thread in the same channel."""
from __future__ import annotations

import asyncio

import pytest

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, final_buttons
from tests.discord.test_forum import open_ginga, play_out
from tests.fake_discord.models import PUBLIC_THREAD

pytestmark = pytest.mark.slow  # whole games through the real client


def en(key: str, **params) -> str:
    return translate("en", key, params)


def threads_of(fake) -> list:
    return [c for c in fake.channels.values() if c.type == PUBLIC_THREAD and c.parent_id == CHANNEL]


async def finished_game(h: Harness, where: dict | None = None) -> tuple:
    """A game of Alice and Bob played to its end (in the channel, or a thread of it with
    `where={"thread": True}`); its final post and the custom ids of its two Rematch buttons."""
    await open_ginga(h, ALICE, where or {})
    home = threads_of(h.fake)[0].id if where else CHANNEL
    lobby = h.lobby(home)
    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    await play_out(h, home)
    await h.idle()
    final = h.last_post(home)
    assert final_buttons(final) == ["rematch", "rematch:thread"]
    here = next(cid for cid in final.custom_ids if cid.endswith(":rematch"))
    in_thread = next(cid for cid in final.custom_ids if cid.endswith(":rematch:thread"))
    return final, here, in_thread


async def test_a_rematch_in_a_new_thread_is_joined_there_with_either_button(harness: Harness, fake) -> None:
    h = harness
    final, here, in_thread = await finished_game(h)
    refused = await h.click(final, in_thread, CAROL)  # not one of its players: no thread made
    assert refused.content == "⚠️ " + en("error.not_in_game") and threads_of(fake) == []

    opened = await h.click(final, in_thread, BOB)
    (thread,) = threads_of(fake)
    assert opened.ephemeral and opened.content == "✅ " + en("discord.rematch.opened_in", where=f"<#{thread.id}>")
    lobby = h.lobby(thread.id)
    assert "Bob" in str(lobby.embeds[0]) and "Alice" not in str(lobby.embeds[0])
    assert BOB in thread.member_ids

    joined = await h.click(final, here, ALICE)  # the plain button finds the rematch in its thread
    assert joined.ephemeral and joined.content == "✅ " + en("discord.rematch.joined_in", where=f"<#{thread.id}>")
    assert "Alice" in str(h.lobby(thread.id).embeds[0]) and ALICE in thread.member_ids
    assert (await h.bot.service.lobby(str(thread.id))).settings.rematch_of == final_game_id(final)
    assert len(threads_of(fake)) == 1
    fake.assert_clean()


async def test_two_first_presses_at_once_make_one_thread(harness: Harness, fake) -> None:
    h = harness
    final, _, in_thread = await finished_game(h)
    both = await asyncio.gather(fake.click(final, in_thread, ALICE), fake.click(final, in_thread, BOB))
    await h.idle()
    (thread,) = threads_of(fake)  # the loser's thread was taken back
    assert sorted(r.content for r in both) == sorted([
        "✅ " + en("discord.rematch.opened_in", where=f"<#{thread.id}>"),
        "✅ " + en("discord.rematch.joined_in", where=f"<#{thread.id}>")])
    embed = str(h.lobby(thread.id).embeds[0])
    assert "Alice" in embed and "Bob" in embed
    fake.assert_clean()


async def test_a_rematch_in_the_channel_is_joined_from_the_thread_button(harness: Harness, fake) -> None:
    h = harness
    final, here, in_thread = await finished_game(h)
    opened = await h.click(final, here, BOB)
    assert opened.content == "✅ " + en("discord.rematch.opened")
    joined = await h.click(final, in_thread, ALICE)
    assert joined.content == "✅ " + en("discord.rematch.joined") and threads_of(fake) == []
    embed = str(h.lobby(CHANNEL).embeds[0])
    assert "Alice" in embed and "Bob" in embed
    fake.assert_clean()


async def test_a_game_in_a_thread_has_its_rematchs_thread_beside_it(harness: Harness, fake) -> None:
    h = harness
    final, _, in_thread = await finished_game(h, {"thread": True})
    (played,) = threads_of(fake)
    opened = await h.click(final, in_thread, ALICE)
    (rematch,) = [c for c in threads_of(fake) if c.id != played.id]  # a thread of the channel, not of the thread
    assert opened.content == "✅ " + en("discord.rematch.opened_in", where=f"<#{rematch.id}>")
    assert "Alice" in str(h.lobby(rematch.id).embeds[0])
    fake.assert_clean()


def final_game_id(final) -> int:
    return int(final.custom_ids[0].split(":")[1])
