"""Games in forum posts and threads, through the real client against the loopback Discord: a
game opened in a forum gets a post whose starter message is its lobby, and the post's status
tag (lobby, playing, finished) follows the game through the outbox; the tags are the forum's
own, found by name in English or Japanese, made when the bot may; a forum that requires tags,
a bot that may not make them, a forum full of tags; rematch and follow of a forum game; two
games side by side in threads of one channel and in posts of one forum."""
from __future__ import annotations

import random
import re

import pytest

from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, YUKI, Harness
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


async def open_ginga(h: Harness, host: int, where: dict, *, locale: str = "en-US"):
    """/game new for Galactic Railway (the first player fixed) with `where` (forum:, thread:)."""
    opened = await h.slash(host, "game new", {"game": "ginga", "options": "start_player=1", **where}, locale=locale)
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
    assert joined.content == "✅ " + en("discord.rematch.joined") and len(posts_of(fake)) == 2
    assert "Alice" in str(fake.message(second.id).embeds[0])  # the lobby in the other post, redrawn
    # the rematch abandoned in its lobby: its post is over too
    closed = await h.slash(BOB, "game abandon", channel=second.id)
    assert closed.content.startswith("🛑")
    await h.idle()
    assert tag_names(fake, second) == ["Finished"]
    fake.assert_clean()
