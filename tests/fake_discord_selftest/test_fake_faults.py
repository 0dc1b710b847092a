"""Self-tests of the loopback fake's fault modelling against the real discord.py client:
nonces, lost answers, targeted failures, the bot's channel permissions, deleted channels,
and when an interaction's answer was shown."""
from __future__ import annotations

import discord
import pytest

from tests.fake_discord import FakeDiscord
from tests.fake_discord.models import PUBLIC_THREAD
from tests.fake_discord_selftest.test_fake_discord import ALICE, BOB, CHANNEL, GUILD, MOD, TestBot, sync_to_guild


@pytest.fixture
async def fake():
    async with FakeDiscord() as f:
        f.add_user(ALICE, "alice")
        f.add_user(BOB, "bob")
        f.add_user(MOD, "mod")
        f.add_guild(GUILD, "Railyard Test", channels=[CHANNEL, {"id": 1002, "name": "games"}], members=[ALICE, BOB, MOD])
        yield f


@pytest.fixture
async def bot(fake):
    client = TestBot()
    async with fake.running(client):
        await sync_to_guild(client)
        yield client


POSTS = f"/channels/{CHANNEL}/messages"


async def test_a_repeated_nonce_returns_the_first_message(fake, bot):
    channel = bot.get_channel(CHANNEL)
    first = await channel.send("board", nonce="ry1.abc")
    again = await channel.send("board", nonce="ry1.abc")
    other = await channel.send("board", nonce="ry2.abc")
    assert again.id == first.id and other.id != first.id
    assert [m.content for m in fake.messages(CHANNEL)] == ["board", "board"]
    assert fake.nonce_repeats == [fake.requests_to("POST", POSTS)[1]]
    assert fake.message(first.id).nonce == "ry1.abc"
    fake.advance_time(fake.nonce_window + 1)  # Discord only remembers nonces for minutes
    late = await channel.send("board", nonce="ry1.abc")
    assert late.id != first.id


async def test_a_lost_answer_still_creates_the_message(fake, bot):
    channel = bot.get_channel(CHANNEL)
    fake.fail_next("POST", POSTS, status=503, after=True)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("board", nonce="ry7.p")
    (lost,) = fake.requests_to("POST", POSTS)
    assert (lost.status, lost.handled_status) == (503, 200)
    assert [m.content for m in fake.messages(CHANNEL)] == ["board"]
    repeat = await channel.send("board", nonce="ry7.p")  # the retry finds it
    assert repeat.id == fake.messages(CHANNEL)[0].id and len(fake.messages(CHANNEL)) == 1


async def test_a_failure_can_target_some_requests(fake, bot):
    fake.fail_next("POST", "/channels/{id}/messages", status=503, match=lambda rec: "second" in str(rec.json))
    await bot.get_channel(CHANNEL).send("first")
    with pytest.raises(discord.DiscordServerError):
        await bot.get_channel(CHANNEL).send("second")
    await bot.get_channel(CHANNEL).send("second")
    assert [r.status for r in fake.requests_to("POST", POSTS)] == [200, 503, 200]


async def test_denied_permissions_refuse_posts_and_reach_the_clients_cache(fake, bot):
    channel = bot.get_channel(CHANNEL)
    await fake.deny_bot(CHANNEL, "attach_files")
    await fake.settle(quiet=0.05)
    me = channel.guild.me
    assert not channel.permissions_for(me).attach_files and channel.permissions_for(me).send_messages
    await channel.send("text only")  # still allowed
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("with a file", file=discord.File(__file__, "x.txt"))
    assert info.value.code == 50013

    await fake.deny_bot(CHANNEL, "view_channel")
    with pytest.raises(discord.Forbidden) as info:
        await channel.send("anything")
    assert info.value.code == 50001

    await fake.deny_bot(CHANNEL)  # lifted
    await fake.settle(quiet=0.05)
    assert channel.permissions_for(me).attach_files
    await channel.send("with a file", file=discord.File(__file__, "x.txt"))
    fake.assert_clean()


async def test_a_deleted_channel_is_gone_for_the_client_too(fake, bot):
    await fake.delete_channel(1002)
    await fake.settle(quiet=0.05)
    assert bot.get_channel(1002) is None
    with pytest.raises(discord.NotFound) as info:
        await bot.get_partial_messageable(1002).send("board")
    assert info.value.code == 10003


async def test_the_answer_time_is_the_answer_not_the_defer(fake, bot):
    quick = await fake.slash(GUILD, CHANNEL, ALICE, "game new", {"game": "ticket_to_ride"})
    assert quick.callback_type == 4 and quick.answered_mono is not None
    assert quick.answer_latency == pytest.approx(quick.ack_latency, abs=0.05)
    slow = await fake.slash(GUILD, CHANNEL, ALICE, "game slow")  # defers, edits 0.45 s later
    assert slow.deferred and slow.edits
    assert slow.answer_latency >= slow.ack_latency + 0.4


async def test_a_nonce_is_not_kept_with_the_message(fake, bot):
    """Discord hands a nonce back only in the answer to the post (and its MESSAGE_CREATE);
    a message fetched later has none, so a sent message cannot be found again by it."""
    channel = bot.get_channel(CHANNEL)
    sent = await channel.send("board", nonce="ry3.abc")
    assert sent.nonce == "ry3.abc"
    fetched = await channel.fetch_message(sent.id)
    assert fetched.nonce is None
    assert [m.nonce async for m in channel.history(limit=10)] == [None]
    assert fake.message(sent.id).nonce == "ry3.abc"  # the fake remembers it, for tests


async def test_reading_the_history_needs_view_channel_and_read_message_history(fake, bot):
    channel = bot.get_channel(CHANNEL)
    await channel.send("board")
    await fake.deny_bot(CHANNEL, "read_message_history")
    assert [m async for m in channel.history(limit=10)] == []  # Discord: no messages, no error
    await fake.deny_bot(CHANNEL, "view_channel")
    with pytest.raises(discord.Forbidden) as info:
        [m async for m in channel.history(limit=10)]
    assert info.value.code == 50001


async def test_an_archived_thread_takes_a_new_message_but_refuses_edits(fake, bot):
    thread = await fake.add_channel(GUILD, 1003, "game", type=PUBLIC_THREAD, parent_id=CHANNEL)
    messageable = bot.get_partial_messageable(thread.id)
    first = await messageable.send("board")
    thread.archived = True
    with pytest.raises(discord.HTTPException) as info:
        await messageable.get_partial_message(first.id).edit(content="edited")
    assert (info.value.status, info.value.code) == (400, 50083)
    await messageable.send("next board")  # a new message unarchives it
    assert not thread.archived
    await messageable.get_partial_message(first.id).edit(content="edited")
    thread.archived = thread.locked = True
    with pytest.raises(discord.HTTPException) as info:
        await messageable.send("locked")
    assert (info.value.status, info.value.code) == (400, 50083)


async def test_deleting_a_channel_deletes_its_threads(fake, bot):
    await fake.add_channel(GUILD, 1003, "game", type=PUBLIC_THREAD, parent_id=1002)
    await bot.get_partial_messageable(1003).send("board")
    await fake.delete_channel(1002)
    with pytest.raises(discord.NotFound) as info:
        await bot.get_partial_messageable(1003).send("board")
    assert info.value.code == 10003
    with pytest.raises(discord.NotFound) as info:
        await bot.fetch_channel(1003)
    assert info.value.code == 10003
