"""Self-tests of the loopback fake's forum channels against the real discord.py client: posts
with their starter message and tags, what a forum refuses (messages, untagged posts in a
REQUIRE_TAG forum, moderated tags, tags from elsewhere), a post's tags changed by its creator
or a moderator, and the forum's own tags (Manage Channels, at most 20, unique names)."""
from __future__ import annotations

import asyncio

import discord
import pytest

from tests.fake_discord import FakeDiscord, limits
from tests.fake_discord.models import FORUM, PUBLIC_THREAD, REQUIRE_TAG
from tests.fake_discord_selftest.test_fake_discord import ALICE, BOB, CHANNEL, GUILD, MOD, TestBot, sync_to_guild

FORUM_ID = 1010
TIDY = 1011  # a forum whose posts must carry a tag
OPEN_TAG, MOD_TAG, OTHER_TAG = 1020, 1021, 1022


@pytest.fixture
async def fake():
    async with FakeDiscord() as f:
        f.add_user(ALICE, "alice")
        f.add_user(BOB, "bob")
        f.add_user(MOD, "mod")
        f.add_guild(GUILD, "Railyard Test", members=[ALICE, BOB, MOD], channels=[
            CHANNEL,
            {"id": FORUM_ID, "name": "games", "type": FORUM,
             "available_tags": [{"id": OPEN_TAG, "name": "open"}, {"id": MOD_TAG, "name": "pinned", "moderated": True}]},
            {"id": TIDY, "name": "tidy", "type": FORUM, "flags": REQUIRE_TAG,
             "available_tags": [{"id": OTHER_TAG, "name": "staff", "moderated": True}]},
        ])
        yield f


@pytest.fixture
async def bot(fake):
    client = TestBot()
    async with fake.running(client):
        await sync_to_guild(client)
        yield client


async def test_a_post_is_a_thread_of_the_forum_with_its_starter_message(fake, bot):
    forum = bot.get_channel(FORUM_ID)
    assert isinstance(forum, discord.ForumChannel)
    assert [t.name for t in forum.available_tags] == ["open", "pinned"] and forum.get_tag(MOD_TAG).moderated
    made = await forum.create_thread(name="Friday game", content="lobby", applied_tags=[forum.get_tag(OPEN_TAG)],
                                     auto_archive_duration=10080)
    post, starter = made.thread, made.message
    assert starter.id == post.id and starter.channel.id == post.id  # the starter message has the post's id
    assert post.parent_id == FORUM_ID and [t.id for t in post.applied_tags] == [OPEN_TAG]
    fake_post = fake.channels[post.id]
    assert fake_post.type == PUBLIC_THREAD and fake_post.owner_id == fake.application_id
    assert fake_post.auto_archive_duration == 10080 and fake_post.applied_tags == [OPEN_TAG]
    assert [m.content for m in fake.messages(post.id)] == ["lobby"]
    await asyncio.sleep(0.05)
    assert bot.get_channel(post.id) is not None  # THREAD_CREATE reached the cache
    # its messages are the post's, the starter message first; editing it is editing a message
    await post.send("second")
    history = [m async for m in post.history(oldest_first=True)]
    assert [m.id for m in history][0] == post.id and [m.content for m in history] == ["lobby", "second"]
    await starter.edit(content="lobby (2 seated)")
    assert fake.message(post.id).content == "lobby (2 seated)"


async def test_what_a_forum_refuses(fake, bot):
    forum = bot.get_channel(FORUM_ID)
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.send_message(FORUM_ID, params=discord.http.handle_message_parameters(content="hi"))
    assert (refused.value.status, refused.value.code) == (400, 40058)
    with pytest.raises(discord.HTTPException) as refused:  # a post needs its starter message
        await bot.http.start_thread_in_forum(FORUM_ID, params=discord.http.MultipartParameters(
            payload={"name": "empty", "message": {}}, multipart=None, files=None))
    assert refused.value.code == 50035 and [v.rule for v in fake.violations] == ["empty_message"]
    with pytest.raises(discord.HTTPException) as refused:  # more than 5 tags
        await bot.http.start_thread_in_forum(FORUM_ID, params=discord.http.MultipartParameters(
            payload={"name": "many", "message": {"content": "x"}, "applied_tags": [str(OPEN_TAG)] * 6},
            multipart=None, files=None))
    assert refused.value.code == 50035 and fake.violations[-1].rule == "applied_tags_count"
    with pytest.raises(discord.HTTPException) as refused:  # a tag of another forum
        await forum.create_thread(name="odd", content="x", applied_tags=[discord.Object(OTHER_TAG)])
    assert refused.value.code == 50035 and fake.violations[-1].rule == "applied_tags_unknown"
    # a REQUIRE_TAG forum: no post without a tag; its only tag is moderated
    tidy = bot.get_channel(TIDY)
    assert tidy.flags.require_tag
    await fake.deny_bot(TIDY, "manage_threads")
    with pytest.raises(discord.HTTPException) as refused:
        await tidy.create_thread(name="untagged", content="x")
    assert (refused.value.status, refused.value.code) == (400, 40066)
    await fake.deny_bot(TIDY)
    with pytest.raises(discord.HTTPException) as refused:
        await tidy.create_thread(name="untagged", content="x")
    assert refused.value.code == 40067
    made = await tidy.create_thread(name="tagged", content="x", applied_tags=[tidy.get_tag(OTHER_TAG)])
    assert fake.channels[made.thread.id].applied_tags == [OTHER_TAG]
    # a moderated tag needs Manage Threads; Create Posts is Send Messages in the forum
    await fake.deny_bot(FORUM_ID, "manage_threads")
    with pytest.raises(discord.Forbidden) as forbidden:
        await forum.create_thread(name="pinned", content="x", applied_tags=[forum.get_tag(MOD_TAG)])
    assert forbidden.value.code == 50013
    await fake.deny_bot(FORUM_ID, "send_messages")
    with pytest.raises(discord.Forbidden) as forbidden:
        await forum.create_thread(name="no", content="x")
    assert forbidden.value.code == 50013
    await fake.deny_bot(FORUM_ID, "view_channel")
    with pytest.raises(discord.Forbidden) as forbidden:
        await forum.create_thread(name="no", content="x")
    assert forbidden.value.code == 50001
    posts = [c for c in fake.channels.values() if c.parent_id in (FORUM_ID, TIDY)]
    assert [p.name for p in posts] == ["tagged"]  # nothing refused was made
    # nobody runs a command in the forum itself: it has no message box
    with pytest.raises(ValueError, match="forum"):
        await fake.slash(GUILD, FORUM_ID, ALICE, "game new", {"game": "ticket_to_ride"})


async def test_a_posts_tags_change_by_its_creator_or_a_moderator(fake, bot):
    forum = bot.get_channel(FORUM_ID)
    post = (await forum.create_thread(name="game", content="x", applied_tags=[forum.get_tag(OPEN_TAG)])).thread
    await post.edit(applied_tags=[])
    assert fake.channels[post.id].applied_tags == []
    await fake.deny_bot(FORUM_ID, "manage_threads")
    await post.edit(applied_tags=[forum.get_tag(OPEN_TAG)])  # its creator may
    assert fake.channels[post.id].applied_tags == [OPEN_TAG]
    with pytest.raises(discord.Forbidden):  # a moderated tag is a moderator's
        await post.edit(applied_tags=[forum.get_tag(OPEN_TAG), forum.get_tag(MOD_TAG)])
    # someone else's post: only with Manage Threads
    await fake.deny_bot(FORUM_ID)
    await fake.add_channel(GUILD, 1030, "alice's post", type=PUBLIC_THREAD, parent_id=FORUM_ID)
    fake.channels[1030].owner_id = ALICE
    await asyncio.sleep(0.05)
    theirs = bot.get_channel(1030)
    await theirs.edit(applied_tags=[forum.get_tag(MOD_TAG)])
    assert fake.channels[1030].applied_tags == [MOD_TAG]
    await fake.deny_bot(FORUM_ID, "manage_threads")
    with pytest.raises(discord.Forbidden) as forbidden:
        await theirs.edit(applied_tags=[])
    assert forbidden.value.code == 50013
    # an archived post takes a change only with its unarchiving
    fake.channels[post.id].archived = True
    with pytest.raises(discord.HTTPException) as refused:
        await post.edit(applied_tags=[])
    assert refused.value.code == 50083
    await post.edit(archived=False, applied_tags=[])
    assert fake.channels[post.id].applied_tags == [] and not fake.channels[post.id].archived
    with pytest.raises(discord.HTTPException):  # at most 5
        await post.edit(applied_tags=[discord.Object(OPEN_TAG)] * 6)


async def test_the_forums_tags_are_manage_channels(fake, bot):
    forum = bot.get_channel(FORUM_ID)
    post = (await forum.create_thread(name="game", content="x", applied_tags=[forum.get_tag(MOD_TAG)])).thread
    with pytest.raises(discord.Forbidden) as forbidden:  # the bot has no Manage Channels by default
        await forum.edit(available_tags=[*forum.available_tags, discord.ForumTag(name="lobby")])
    assert forbidden.value.code == 50013
    fake.guilds[GUILD].app_permissions |= limits.permission_value("manage_channels")
    edited = await forum.edit(available_tags=[forum.get_tag(OPEN_TAG), discord.ForumTag(name="lobby", emoji="🙋")])
    names = {t.name: t for t in edited.available_tags}
    assert set(names) == {"open", "lobby"} and names["open"].id == OPEN_TAG and str(names["lobby"].emoji) == "🙋"
    assert fake.channels[post.id].applied_tags == []  # the deleted tag left its posts
    await asyncio.sleep(0.05)
    assert {t.name for t in bot.get_channel(FORUM_ID).available_tags} == {"open", "lobby"}  # CHANNEL_UPDATE
    with pytest.raises(discord.HTTPException) as refused:
        await forum.edit(available_tags=[discord.ForumTag(name="Lobby"), discord.ForumTag(name="lobby")])
    assert refused.value.code == 40061
    with pytest.raises(discord.HTTPException) as refused:
        await forum.edit(available_tags=[discord.ForumTag(name=f"tag {i}") for i in range(21)])
    assert refused.value.code == 50035 and fake.violations[-1].rule == "available_tags_count"
    with pytest.raises(discord.HTTPException):
        await forum.edit(available_tags=[discord.ForumTag(name="x" * 21)])
    assert fake.violations[-1].rule == "tag_name"
    await forum.edit(require_tag=True)
    assert fake.channels[FORUM_ID].flags & REQUIRE_TAG
    await fake.deny_bot(FORUM_ID, "manage_channels")  # denied in the forum itself
    with pytest.raises(discord.Forbidden):
        await forum.edit(available_tags=[])
