"""Buttons keep working after a restart: a new bot process on the same database file."""
from __future__ import annotations

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id
from tests.support import dump_db


async def test_buttons_survive_a_restart_and_stale_ones_say_so(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB], bots=1)
    await h.keep_tickets(ALICE)
    status = await h.bot.service.status(str(CHANNEL))
    assert status.waiting_user_ids == [str(BOB)]  # the bot chose too; Bob still has to
    choose_post = h.last_post()  # drawn by the first process

    first = h.bot
    second = await h.restart()
    assert second is not first and h.bots_started == 2
    # Bob chooses his tickets from the post the first process drew
    kept = await h.keep_tickets(BOB)
    assert kept.original.ephemeral and "✅" in fake.message(kept.original.id).content
    assert h.last_post() is not choose_post

    # play on to a turn post; the player to move uses its "Draw from deck" button ...
    status = await second.service.status(str(CHANNEL))
    while not status.waiting_user_ids:
        await h.idle()
        status = await second.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    turn_post = h.last_post()
    deck = await h.move_button(turn_post, "draw deck")
    assert deck, turn_post.custom_ids

    third = await h.restart()  # ... after yet another restart
    moved = await h.click(turn_post, deck, mover)
    assert moved.ephemeral and moved.content.startswith("✅"), moved.content
    after = await third.service.status(str(CHANNEL))
    assert after.version > status.version
    assert (await third.store.actions(after.info.game_id))[-1].notation == "draw deck"

    # the same (now stale) button again: nothing is played, and the clicker is told so
    before = dump_db(h.db_path)
    stale = await h.click_as_drawn(turn_post, deck, mover)
    assert stale.ephemeral
    assert stale.content.startswith("🔄 " + translate("en", "discord.stale.changed"))
    assert not stale.attachments
    assert dump_db(h.db_path) == before

    # the lobby from the first process says its game has started
    lobby = h.lobby()
    assert lobby.components == [] and "started" in lobby.embeds[0]["description"]
    fake.assert_clean()
