"""Games in forum posts and threads, through the real client against the loopback Discord: a
game opened in a forum gets a post whose starter message is its lobby, and the post's status
tag (lobby, playing, finished) follows the game through the outbox; the tags are the forum's
own, found by name in English or Japanese, made when the bot may; a forum that requires tags,
a bot that may not make them, a forum full of tags; rematch and follow of a forum game; two
games side by side in threads of one channel and in posts of one forum."""
from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.sessions import Actor
from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, YUKI, Harness, final_buttons
from tests.discord.test_delivery_faults import all_accounted_for, settle
from tests.discord.test_final_post import holders_die
from tests.fake_discord import limits
from tests.fake_discord.models import FORUM, PUBLIC_THREAD, REQUIRE_TAG

FORUM_ID = 520
OWN_TAG = 521  # a tag the server's people use for their own purposes


def en(key: str, **params) -> str:
    return translate("en", key, params)


def ja(key: str, **params) -> str:
    return translate("ja", key, params)


async def add_forum(fake, *, tags=(), flags: int = 0, manage_channels: bool = True):
    """A forum in the test server, with `tags`; the bot may manage channels there or not."""
    await fake.add_channel(GUILD, FORUM_ID, "games-forum", type=FORUM)
    await fake.set_forum(FORUM_ID, tags=list(tags), flags=flags)
    if manage_channels:
        fake.guilds[GUILD].app_permissions |= limits.permission_value("manage_channels")
    else:
        fake.guilds[GUILD].app_permissions &= ~limits.permission_value("manage_channels")


def posts_of(fake, forum: int = FORUM_ID) -> list:
    return [c for c in fake.channels.values() if c.type == PUBLIC_THREAD and c.parent_id == forum]


def tag_names(fake, post, forum: int = FORUM_ID) -> list[str]:
    """The names of a post's tags, in the order they were applied."""
    by_id = {t.id: t.name for t in fake.channels[forum].available_tags}
    return [by_id[t] for t in fake.channels[post.id].applied_tags]


async def play_out(h: Harness, channel: int) -> None:
    """Play the game of `channel` to its end with /move, each person the game waits on making
    the move its first bot would (bots play their own seats)."""
    service = h.bot.service
    for n in range(600):
        status = await service.status(str(channel))
        if status.info.status != "active":
            return
        seat = status.waiting[0]
        user = int(status.info.seats[seat].user_id)
        game = registry.get(status.info.game)
        state = await service.current_state(status.info.game_id)
        planner = next(iter(game.bots().values()))
        notation = game.format_action(planner.choose(game, state, seat, random.Random(n)))
        moved = await h.slash(user, "move", {"move": notation}, channel=channel)
        assert moved.ephemeral, moved.content
    raise AssertionError("the game did not end")


async def open_ginga(h: Harness, host: int, where: dict, *, locale: str = "en-US", first: int = 1):
    """/game new for Galactic Railway (the first player fixed: seat `first`) with `where`
    (forum:, thread:)."""
    opened = await h.slash(host, "game new", {"game": "ginga", "options": f"start_player={first}", **where},
                           locale=locale)
    assert opened.ephemeral, opened.content
    return opened


@pytest.mark.slow  # a whole game through the real client
async def test_a_forum_game_from_lobby_to_finish_its_tag_following_it_then_its_rematch(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake, tags=[{"id": OWN_TAG, "name": "Beginners welcome"}])
    opened = await open_ginga(h, ALICE, {"forum": FORUM_ID})  # run from the text channel
    (post,) = posts_of(fake)
    assert opened.content == "✅ " + en("discord.lobby.opened", where=f"<#{post.id}>")  # no note: tags made
    forum = fake.channels[FORUM_ID]
    made = {t.name: t for t in forum.available_tags}
    assert set(made) == {"Beginners welcome", "Lobby", "Playing", "Finished"}
    assert (made["Lobby"].emoji_name, made["Playing"].emoji_name, made["Finished"].emoji_name) == ("🙋", "🚂", "🏁")
    assert post.name == en("ginga.title") and post.owner_id == fake.application_id and ALICE in post.member_ids
    assert post.auto_archive_duration == 10080
    assert tag_names(fake, post) == ["Lobby"]
    lobby = h.lobby(post.id)
    assert lobby.id == post.id  # the post's starter message is the lobby
    assert [m.content for m in fake.messages(FORUM_ID)] == [] and h.posts(CHANNEL) == []
    fake.channels[post.id].applied_tags.append(OWN_TAG)  # a person adds a tag of their own

    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    followed = await h.slash(CAROL, "game follow", channel=post.id)
    assert followed.content.startswith("👀")
    assert tag_names(fake, post) == ["Beginners welcome", "Playing"]  # theirs kept, the status changed
    status = await h.slash(BOB, "game status", channel=post.id)
    assert status.ephemeral and en("ginga.title") in str(status.original.embeds)
    waiting = (await h.bot.service.status(str(post.id))).waiting[0]
    waited_on = int((await h.bot.service.status(str(post.id))).info.seats[waiting].user_id)
    mine = await h.slash(waited_on, "game mine")
    assert f"<#{post.id}>" in mine.original.embeds[0]["description"]  # its link leads to the post

    await play_out(h, post.id)
    await h.idle()
    assert tag_names(fake, post) == ["Beginners welcome", "Finished"]
    final = h.last_post(post.id)
    assert any(a.filename == "final.png" for a in final.attachments)
    assert any(a.filename == "final.png" for m in fake.dm_messages(CAROL) for a in m.attachments)  # followed
    requests = [r for r in fake.requests_to("PATCH", "/channels/{channel_id}") if r.path.endswith(str(post.id))]
    assert len(requests) == 2  # playing, finished: one change each

    # the rematch opens a new post of the same forum, tagged lobby; the next player joins it
    assert final_buttons(final) == ["rematch"]  # a forum's rematch is a new post: no thread button
    rematch_id = next(cid for cid in final.custom_ids if cid.endswith(":rematch"))
    refused = await h.click(final, rematch_id, CAROL)
    assert refused.content == "⚠️ " + en("error.not_in_game") and len(posts_of(fake)) == 1
    again = await h.click(final, rematch_id, BOB)
    (_, second) = posts_of(fake)
    assert again.content == "✅ " + en("discord.rematch.opened_in", where=f"<#{second.id}>")
    assert tag_names(fake, second) == ["Lobby"] and tag_names(fake, post) == ["Beginners welcome", "Finished"]
    rematch_lobby = h.lobby(second.id)
    assert rematch_lobby.id == second.id and "Bob" in str(rematch_lobby.embeds[0])
    joined = await h.click(final, rematch_id, ALICE)
    # told where the rematch is, and added to its post
    assert joined.content == "✅ " + en("discord.rematch.joined_in", where=f"<#{second.id}>") and len(posts_of(fake)) == 2
    assert ALICE in second.member_ids
    assert "Alice" in str(fake.message(second.id).embeds[0])  # the lobby in the other post, redrawn
    # the rematch abandoned in its lobby: its post is over too
    closed = await h.slash(BOB, "game abandon", channel=second.id)
    assert closed.content.startswith("🛑")
    await h.idle()
    assert tag_names(fake, second) == ["Finished"]
    fake.assert_clean()


async def test_a_bot_that_may_not_make_tags_opens_the_game_and_tells_the_host_once(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake, tags=[{"id": OWN_TAG, "name": "Beginners welcome"}], manage_channels=False)
    opened = await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    tags = en("discord.delivery.list", first=", ".join(['“Lobby”', '“Playing”']), last='“Finished”')
    assert opened.content.splitlines() == [
        "✅ " + en("discord.lobby.opened", where=f"<#{post.id}>"),
        "🏷️ " + en("discord.forum.tags_not_allowed", forum=f"<#{FORUM_ID}>", tags=tags, max=20)]
    assert tag_names(fake, post) == [] and h.lobby(post.id).id == post.id  # the game runs untagged
    lobby = h.lobby(post.id)
    await h.click(lobby, None, ALICE, label=en("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    await h.idle()
    assert tag_names(fake, post) == []
    assert all(not m.content.startswith("⚠️") for m in fake.messages(post.id))  # told once, at /game new
    assert all(r.dead is False for r in await h.bot.store.outbox_rows(await h.game_id(post.id)))

    # someone who manages the forum makes the tags, in Japanese: the game's next change finds them
    await fake.set_forum(FORUM_ID, tags=[{"id": OWN_TAG, "name": "Beginners welcome"}, {"name": "募集中"},
                                         {"name": "プレイ中"}, {"name": "終了"}])
    await h.slash(ALICE, "game abandon", channel=post.id)
    await h.idle()
    assert tag_names(fake, post) == ["終了"]
    # only the missing ones are named; a forum of 20 tags has no room for them
    fake.guilds[GUILD].app_permissions |= limits.permission_value("manage_channels")
    await fake.set_forum(FORUM_ID, tags=[{"name": "Lobby"}, *({"name": f"topic {n}"} for n in range(19))])
    full = await open_ginga(h, ALICE, {"forum": FORUM_ID})
    second = posts_of(fake)[-1]
    tags = en("discord.delivery.list", first='“Playing”', last='“Finished”')
    assert full.content.splitlines()[1] == "🏷️ " + en("discord.forum.tags_full", forum=f"<#{FORUM_ID}>", tags=tags,
                                                        max=20)
    assert tag_names(fake, second) == ["Lobby"] and len(fake.channels[FORUM_ID].available_tags) == 20
    fake.assert_clean()


async def test_a_forum_that_requires_a_tag(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake, tags=[{"id": OWN_TAG, "name": "Beginners welcome"}], flags=REQUIRE_TAG,
                    manage_channels=False)
    refused = await h.slash(ALICE, "game new", {"game": "ginga", "forum": FORUM_ID})
    assert refused.ephemeral and refused.content == "⚠️ " + en("discord.error.forum_needs_tag", forum=f"<#{FORUM_ID}>",
                                                               tag="Lobby")
    assert posts_of(fake) == [] and await h.bot.service.games_waiting_on(str(ALICE)) == []  # nothing made
    # given Manage Channels, the bot makes its tags, and the post carries one
    fake.guilds[GUILD].app_permissions |= limits.permission_value("manage_channels")
    opened = await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    assert opened.content == "✅ " + en("discord.lobby.opened", where=f"<#{post.id}>")
    assert tag_names(fake, post) == ["Lobby"]
    # a bot that may not post in the forum opens nothing, and says where
    await fake.deny_bot(FORUM_ID, "send_messages")
    denied = await h.slash(BOB, "game new", {"game": "ginga", "forum": FORUM_ID})
    assert denied.content == "⚠️ " + en("discord.error.cannot_post_forum", forum=f"<#{FORUM_ID}>")
    assert len(posts_of(fake)) == 1
    fake.assert_clean()


async def test_a_japanese_server_names_its_tags_in_japanese(harness: Harness, fake) -> None:
    h = harness
    fake.guilds[GUILD].locale = "ja"
    await add_forum(fake)
    opened = await open_ginga(h, YUKI, {"forum": FORUM_ID}, locale="ja")
    (post,) = posts_of(fake)
    assert opened.content == "✅ " + ja("discord.lobby.opened", where=f"<#{post.id}>")
    assert [t.name for t in fake.channels[FORUM_ID].available_tags] == ["募集中", "プレイ中", "終了"]
    assert tag_names(fake, post) == ["募集中"] and post.name == ja("ginga.title")
    lobby = h.lobby(post.id)
    assert lobby.embeds[0]["title"] == "🚂 " + ja("discord.lobby.title", game=ja("ginga.title"))
    await h.click(lobby, None, YUKI, label=ja("discord.lobby.add_bot"), locale="ja")
    await h.click(lobby, None, YUKI, label=ja("discord.lobby.start"), locale="ja")
    assert tag_names(fake, post) == ["プレイ中"]
    # a host whose own client is English reads the note in English; the server's words name the tags
    fake.guilds[GUILD].app_permissions &= ~limits.permission_value("manage_channels")
    await fake.set_forum(FORUM_ID, tags=[])
    note = await open_ginga(h, ALICE, {"forum": FORUM_ID})
    tags = en("discord.delivery.list", first=", ".join(['“Lobby”', '“Playing”']), last='“Finished”')
    assert note.content.splitlines()[1] == "🏷️ " + en("discord.forum.tags_not_allowed", forum=f"<#{FORUM_ID}>",
                                                       tags=tags, max=20)
    fake.assert_clean()


async def test_two_games_side_by_side_in_threads_of_a_channel_and_in_posts_of_a_forum(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake)
    # two threads of one text channel
    await open_ginga(h, ALICE, {"thread": True})
    await open_ginga(h, BOB, {"thread_name": "Bob's table"})
    first, second = [c for c in fake.channels.values() if c.type == PUBLIC_THREAD and c.parent_id == CHANNEL]
    # two posts of one forum: the second opened from inside the first (thread:True in a post)
    await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    inner = await h.slash(CAROL, "game new", {"game": "ginga", "options": "start_player=1", "thread": True},
                          channel=post.id)
    assert inner.ephemeral and inner.content.startswith("✅"), inner.content
    post2 = posts_of(fake)[-1]
    assert post2.id != post.id and tag_names(fake, post2) == ["Lobby"]
    tables = [first.id, second.id, post.id, post2.id]
    hosts = [ALICE, BOB, ALICE, CAROL]
    for table, host in zip(tables, hosts):
        lobby = h.lobby(table)
        await h.click(lobby, None, host, label=en("discord.lobby.add_bot"))
        await h.click(lobby, None, host, label=en("discord.lobby.start"))
    games = [await h.game_id(table) for table in tables]
    assert len(set(games)) == 4
    # a move in each, in turn: every board stays in its own thread or post
    moved_in = []
    for table, host in zip(tables, hosts):
        before = {t: len(h.game_posts(t)) for t in tables}
        status = await h.bot.service.status(str(table))
        if status.info.seats[status.waiting[0]].user_id != str(host):
            continue  # the bot began and moved already
        game = registry.get("ginga")
        state = await h.bot.service.current_state(status.info.game_id)
        notation = game.format_action(next(iter(game.bots().values())).choose(game, state, status.waiting[0],
                                                                               random.Random(1)))
        moved = await h.slash(host, "move", {"move": notation}, channel=table)
        assert moved.ephemeral and moved.content.startswith("✅"), moved.content
        after = {t: len(h.game_posts(t)) for t in tables}
        assert {t for t in tables if after[t] != before[t]} <= {table}
        moved_in.append(table)
        assert (await h.bot.service.status(str(table))).info.game_id == games[tables.index(table)]
    assert len(moved_in) >= 2
    assert [tag_names(fake, p) for p in (post, post2)] == [["Playing"], ["Playing"]]
    for table, host in zip(tables, hosts):
        status = await h.slash(host, "game status", channel=table)
        assert status.ephemeral and f"#{games[tables.index(table)]}" in str(status.original.embeds)
    fake.assert_clean()


async def test_a_tag_change_outlives_failures_and_a_process_that_died_holding_it(harness: Harness, fake, clock) -> None:
    h = harness
    await add_forum(fake)
    await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    lobby = h.lobby(post.id)
    await h.click(lobby, None, ALICE, label=en("discord.lobby.add_bot"))
    fake.fail_next("PATCH", f"/channels/{post.id}", status=503, times=3)  # Discord down for a while
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    assert tag_names(fake, post) == ["Lobby"]
    await settle(h, clock)
    assert tag_names(fake, post) == ["Playing"]
    game_id = await h.game_id(post.id)
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind == "forum_status"]
    assert row.delivered_at is not None and row.attempts == 3 and row.payload["status"] == "playing"

    # the game is abandoned and a process claims its posts, then dies before delivering any
    # (its lease runs out): this one takes them over, the tag change with them
    await h.bot.service.abandon(str(post.id), Actor(user_id=str(ALICE), name="Alice"))
    first, tagging = [r for r in await h.bot.store.outbox_rows(game_id) if r.delivered_at is None]
    assert (first.kind, tagging.kind, tagging.payload["status"]) == ("abandoned", "forum_status", "finished")
    await holders_die(h, first, 1)
    # Discord sets the tag but its answer is lost: the retry finds it set and asks nothing more
    fake.fail_next("PATCH", f"/channels/{post.id}", status=503, after=True)
    await settle(h, clock)
    assert tag_names(fake, post) == ["Finished"]
    assert await all_accounted_for(h) == []
    patches = [r for r in fake.requests_to("PATCH", "/channels/{channel_id}") if r.path.endswith(str(post.id))]
    assert [r.status for r in patches][-1] == 503  # the last one asked, answered lost; none after it
    fake.assert_clean()


async def test_moderated_status_tags_without_manage_threads_leave_the_game_untagged(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake, tags=[{"name": "Lobby", "moderated": True}, {"name": "Playing", "moderated": True},
                                {"name": "Finished"}])
    await fake.deny_bot(FORUM_ID, "manage_threads")
    opened = await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    tags = en("discord.delivery.list", first='“Lobby”', last='“Playing”')
    assert opened.content.splitlines()[1] == "🏷️ " + en("discord.forum.tags_moderated", forum=f"<#{FORUM_ID}>",
                                                         tags=tags, max=20)
    assert tag_names(fake, post) == []
    lobby = h.lobby(post.id)
    await h.click(lobby, None, ALICE, label=en("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    assert tag_names(fake, post) == []  # refused by Discord, and left so: the game goes on
    await h.slash(ALICE, "game abandon", channel=post.id)
    assert tag_names(fake, post) == ["Finished"]  # an unmoderated one is the bot's to set
    assert await all_accounted_for(h) == []
    fake.assert_clean()


@pytest.mark.slow  # two whole games through the real client
async def test_a_forum_game_posts_exactly_what_the_same_game_posts_in_a_channel(harness: Harness, fake) -> None:
    """The status tags ride between a game's posts without changing them: the same game (same
    seed, same moves) makes the same messages, edits and pings in a forum post as in a channel."""
    h = harness
    await add_forum(fake)

    async def play(where: dict, table_of) -> list[tuple[str, frozenset[int]]]:
        await h.restart()  # the same seed for each game
        await open_ginga(h, ALICE, where, first=2)
        table = table_of()
        lobby = h.lobby(table)
        await h.click(lobby, None, ALICE, label=en("discord.lobby.add_bot"))
        await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
        await play_out(h, table)
        await h.idle()
        made = [m for m in h.posts(table) if m.id != lobby.id]
        return [(m.content, frozenset(u.id for u in m.mentions)) for m in made] + [
            ("edits", frozenset([sum(len(m.history) for m in made)]))]

    in_channel = await play({}, lambda: CHANNEL)
    in_post = await play({"forum": FORUM_ID}, lambda: posts_of(fake)[-1].id)
    assert len(in_channel) > 3 and in_post == in_channel
    assert ALICE not in in_channel[0][1]  # the bot began: its first moves went out with the start
    assert tag_names(fake, posts_of(fake)[-1]) == ["Finished"]


@pytest.mark.slow  # a whole game through the real client
async def test_two_players_pressing_rematch_at_once_get_one_post(harness: Harness, fake) -> None:
    h = harness
    await add_forum(fake)
    await open_ginga(h, ALICE, {"forum": FORUM_ID})
    (post,) = posts_of(fake)
    lobby = h.lobby(post.id)
    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    await play_out(h, post.id)
    final = h.last_post(post.id)
    rematch_id = next(cid for cid in final.custom_ids if cid.endswith(":rematch"))
    both = await asyncio.gather(fake.click(final, rematch_id, ALICE), fake.click(final, rematch_id, BOB))
    await h.idle()
    (rematch,) = [p for p in posts_of(fake) if p.id != post.id]  # the other post taken back
    assert sorted(r.content for r in both) == sorted([
        "✅ " + en("discord.rematch.opened_in", where=f"<#{rematch.id}>"),
        "✅ " + en("discord.rematch.joined_in", where=f"<#{rematch.id}>")])
    assert {"Alice", "Bob"} <= set(re.findall(r"Alice|Bob", str(fake.message(rematch.id).embeds[0])))
    assert tag_names(fake, rematch) == ["Lobby"]
    # (when both opened a post before either committed, the loser's was deleted)
    assert all(not r.path.endswith(str(rematch.id)) for r in fake.requests_to("DELETE", "/channels/{channel_id}"))
    fake.assert_clean()
