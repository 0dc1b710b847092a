"""The lobby (thread, one game per channel, auto-start, buttons), and the host's tools:
undo, kick (host or Manage Channels), settings, abandon; plus /game mine and /game rules."""
from __future__ import annotations

import re

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, MOD, OTHER, Harness
from tests.fake_discord.models import PUBLIC_THREAD


def en(key: str, **params) -> str:
    return translate("en", key, params)


async def test_thread_lobby_autostart_and_lobby_buttons(harness: Harness, fake) -> None:
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "players": 2,
                                                "thread_name": "Friday TTR"})
    (thread,) = [c for c in fake.channels.values() if c.type == PUBLIC_THREAD]
    assert thread.parent_id == CHANNEL and thread.name == "Friday TTR" and thread.auto_archive_duration == 10080
    assert ALICE in thread.member_ids
    assert opened.ephemeral and f"<#{thread.id}>" in opened.content
    assert h.posts(CHANNEL) == []  # the game lives in the thread
    lobby = h.lobby(thread.id)
    assert en("discord.lobby.autostart", count=2) in lobby.embeds[0]["description"]

    # options the game does not know are refused before anything is made
    odd = await h.slash(BOB, "game new", {"game": "ticket_to_ride", "options": "speed=fast"}, channel=OTHER)
    assert odd.content == "⚠️ " + en("error.bad_option", option="speed", value="fast")
    assert h.posts(OTHER) == []

    # one game per channel or thread
    again = await h.slash(BOB, "game new", {"game": "ticket_to_ride"}, channel=thread.id)
    assert again.ephemeral and again.content == "⚠️ " + en("error.game_already_here")
    # the lobby's buttons refuse what they must
    assert (await h.click(lobby, None, BOB, label="Leave")).content == "⚠️ " + en("error.not_in_game")
    assert (await h.click(lobby, None, BOB, label="Add a bot")).content == "⚠️ " + en("error.not_host")
    too_few = await h.click(lobby, None, ALICE, label="Start")
    assert too_few.content == "⚠️ " + en("error.not_enough_players", min=2, have=1)
    assert (await h.click(lobby, None, ALICE, label="Join")).content == "⚠️ " + en("error.already_joined")

    # a second seat starts the game by itself (players: 2)
    joined = await h.click(lobby, None, BOB, label="Join")
    assert joined.callback_type == 7
    lobby = fake.message(lobby.id)
    assert lobby.components == [] and en("discord.lobby.started") == lobby.embeds[0]["description"]
    start = h.last_post(thread.id)
    assert "has started" in start.content and {u.id for u in start.mentions} == {ALICE, BOB}

    # /game mine lists it (with a link) for both players, not for others
    mine = await h.slash(ALICE, "game mine")
    assert mine.ephemeral and f"<#{thread.id}>" in mine.original.embeds[0]["description"]
    assert (await h.slash(CAROL, "game mine")).content == en("discord.mine.none_anywhere")

    # a lobby the bot cannot post is not left behind to block the channel
    fake.fail_next("POST", f"/channels/{CHANNEL}/messages", status=403, code=50013, message="Missing Permissions")
    refused = await h.slash(CAROL, "game new", {"game": "ticket_to_ride"})
    assert refused.ephemeral and refused.content == "⚠️ " + en("discord.error.cannot_post")
    # a lobby in the parent channel is another game; leaving it as the only player closes it
    await h.slash(CAROL, "game new", {"game": "ticket_to_ride"})
    lobby2 = h.lobby(CHANNEL)
    left = await h.click(lobby2, None, CAROL, label="Leave")
    assert left.callback_type == 7 and en("discord.lobby.closed") == fake.message(lobby2.id).embeds[0]["description"]
    fake.assert_clean()


async def test_undo_kick_settings_rules_abandon(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB], channel=OTHER)
    kept = await h.keep_tickets(ALICE, channel=OTHER)
    notation = re.search(r"`(keep [\d,]+)`", fake.message(kept.original.id).content).group(1)

    # undo: only your own last move; the public post does not say which tickets were kept
    assert (await h.slash(BOB, "game undo", channel=OTHER)).content.startswith("⚠️ ")
    undone = await h.slash(ALICE, "game undo", channel=OTHER)
    assert undone.ephemeral and undone.content.startswith("↩️")
    post = h.last_post(OTHER)
    assert "took back" in post.content and "“keep (2)”" in post.content  # how many, never which
    assert notation not in post.content and notation[5:] not in post.content
    status = await h.bot.service.status(str(OTHER))
    assert set(status.waiting_user_ids) == {str(ALICE), str(BOB)}

    # settings: shown to anyone, changed by the host only; bad values refused
    shown = await h.slash(BOB, "game settings", channel=OTHER)
    assert "Reminders after 720 idle minutes" in shown.content and "No deadline" in shown.content
    saved = await h.slash(ALICE, "game settings", {"reminder_minutes": 60, "quiet_hours": "22-7",
                                                   "timezone": "Asia/Tokyo"}, channel=OTHER)
    assert "Quiet hours 22:00–07:00 (Asia/Tokyo)" in saved.content and "after 60 idle minutes" in saved.content
    bad = await h.slash(ALICE, "game settings", {"quiet_hours": "lunchtime"}, channel=OTHER)
    assert bad.content == "⚠️ " + en("error.bad_setting", setting="quiet_hours", value="lunchtime")
    bad_tz = await h.slash(ALICE, "game settings", {"timezone": "Mars/Olympus"}, channel=OTHER)
    assert bad_tz.content.startswith("⚠️ ") and "Mars/Olympus" in bad_tz.content

    # kick: Carol (no rights) cannot; a member with Manage Channels can; a bot takes the seat
    no = await h.slash(CAROL, "game kick", {"player": BOB}, channel=OTHER)
    assert no.content == "⚠️ " + en("error.not_host")
    kicked = await h.slash(MOD, "game kick", {"player": BOB}, channel=OTHER)
    assert kicked.ephemeral and "Bob" in kicked.content
    texts = [p.content for p in h.game_posts(OTHER)[-3:]]
    assert any("was removed from the game" in t for t in texts)
    status = await h.bot.service.status(str(OTHER))
    assert [s.bot for s in status.info.seats if s.name == "Bob"] == ["planner"]
    assert status.waiting_user_ids == [str(ALICE)]  # the bot chose Bob's tickets at once

    # rules
    rules = await h.slash(CAROL, "game rules", channel=OTHER)
    assert rules.ephemeral and "**Goal:**" in rules.original.embeds[0]["description"]

    # abandon: a player who is not the host cannot; the host can; the channel is told
    assert (await h.slash(BOB, "game abandon", channel=OTHER)).content == "⚠️ " + en("error.not_host")
    done = await h.slash(ALICE, "game abandon", channel=OTHER)
    assert done.ephemeral and done.content == "🛑 " + en("discord.abandon.done")
    assert h.posts(OTHER)[-1].content == "🛑 " + translate("en", "session.abandoned", {"by": "Alice"})
    after = await h.slash(ALICE, "game status", channel=OTHER)
    assert after.ephemeral and en("discord.status.abandoned") in after.content
    assert (await h.slash(ALICE, "move", {"move": "draw deck"}, channel=OTHER)).content == \
        "⚠️ " + en("error.no_game_here.abandoned")
    fake.assert_clean()
