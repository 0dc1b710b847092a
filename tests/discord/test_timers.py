"""Reminders and deadlines with time travelled, not waited: the service's clock is moved by
hand and the timer loop's coroutine is called directly."""
from __future__ import annotations

import re

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, DANA, OTHER, Harness

HOUR = 3600.0


def reminders_in(h: Harness, channel: int = CHANNEL) -> list:
    return [m for m in h.posts(channel) if m.content.startswith("⏰")]


async def tick(h: Harness) -> None:
    timers = h.bot.get_cog("Timers")
    await timers.tick.coro(timers)
    await h.idle()


async def test_reminders_dm_fallback_back_off_and_abandoned(harness: Harness, fake, clock) -> None:
    h = harness
    on = await h.slash(ALICE, "game settings", {"dm_reminders": True})
    assert on.ephemeral and translate("en", "discord.settings.dm_on") in on.content
    await h.slash(DANA, "game settings", {"dm_reminders": True})  # Dana's DMs are closed
    await h.new_game(ALICE, [BOB, DANA])
    game_id = await h.game_id()

    clock.advance(12 * HOUR - 60)
    await tick(h)
    assert reminders_in(h) == [] and fake.dm_messages(ALICE) == []

    clock.advance(60)
    await tick(h)
    # Alice gets a DM; Dana's DM fails with 50007, so she is mentioned in the channel with Bob
    (dm,) = fake.dm_messages(ALICE)
    assert dm.content.startswith("⏰") and f"https://discord.com/channels/500/{CHANNEL}" in dm.content
    assert "Reminder" in dm.content and "12 h" in dm.content
    assert fake.dm_messages(DANA) == []
    closed = [r for r in fake.requests_to("POST", "/channels/{id}/messages") if r.status == 403]
    assert closed and closed[0].response["code"] == 50007
    (post,) = reminders_in(h)
    assert set(re.findall(r"<@(\d+)>", post.content)) == {str(BOB), str(DANA)}
    assert {u.id for u in post.mentions} == {BOB, DANA}
    # it names the game and what the game asks of them (their tickets to keep)
    assert post.content.startswith("⏰ Reminder: **Ticket to Ride — USA** is waiting (no move for 12 hours).")
    assert "Choose which of your 3 tickets to keep (at least 2)." in post.content

    # not again at once, and the next one only after the back-off (24 h later)
    await tick(h)
    clock.advance(23 * HOUR)
    await tick(h)
    assert len(reminders_in(h)) == 1 and len(fake.dm_messages(ALICE)) == 1
    clock.advance(1 * HOUR)
    await tick(h)
    # the second replaces the first in the channel (DMs stay as they are)
    (second,) = reminders_in(h)
    assert second.id != post.id and len(fake.dm_messages(ALICE)) == 2

    # the reminders are outbox rows, each delivered once
    rows = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind == "reminder"]
    assert len(rows) == 2 and all(r.delivered_at is not None for r in rows)

    # an abandoned game is never reminded about again
    await h.slash(ALICE, "game abandon")
    assert "abandoned" in h.posts()[-1].content
    clock.advance(30 * 24 * HOUR)
    await tick(h)
    assert reminders_in(h) == [] and len(fake.dm_messages(ALICE)) == 2  # abandoning took it back
    fake.assert_clean()


async def test_deadline_moves_for_late_players_and_says_so(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB], channel=OTHER)
    saved = await h.slash(ALICE, "game settings", {"deadline_hours": 1, "deadline_action": "pass"},
                          channel=OTHER)
    assert translate("en", "discord.settings.saved") in saved.content
    assert "Deadline: 1.0 h" in saved.content or "Deadline: 1 h" in saved.content
    posts = len(h.game_posts(OTHER))
    clock.advance(HOUR + 1)
    await tick(h)
    late = h.game_posts(OTHER)[posts:]
    # both automatic ticket choices are told on the live board: one new message, since the
    # game now waits on the first player, whom it pings
    assert len(late) == 1
    text = late[0].content
    assert text.count("ran out of time") == 2, text
    # the automatic choices are announced without saying which tickets were kept
    assert text.count("“keep (2)”") == 2  # how many tickets, never which
    assert not re.search(r"keep \d", text)
    status = await h.bot.service.status(str(OTHER))
    assert status.info.status == "active" and status.view.phase == "play"
    fake.assert_clean()


async def test_a_deadline_that_outlives_three_holders_is_given_up_and_the_host_told(
        harness: Harness, fake, clock, expect_error) -> None:
    """Three processes in a row claimed the passed deadline and died before rescheduling it:
    firing it is likely what kills them, so nobody is moved for the late players, and the
    host is told in the channel, in words, what happened and what comes next."""
    expect_error('railyard.sessions', 'deadline timer was taken over 3 times')
    h = harness
    await h.new_game(ALICE, [BOB], channel=OTHER)
    await h.slash(ALICE, "game settings", {"deadline_hours": 1}, channel=OTHER)
    game_id = (await h.bot.service.status(str(OTHER))).info.game_id
    version = (await h.bot.service.status(str(OTHER))).version
    clock.advance(HOUR + 1)
    lease = h.bot.get_cog("Timers").lease
    for n in range(3):
        assert len(await h.bot.store.claim_timers("deadline", f"elsewhere:{n}:gone", clock.now, lease)) == 1
        clock.advance(lease)
    await tick(h)

    assert (await h.bot.service.status(str(OTHER))).version == version  # nobody was moved
    assert [t.kind for t in await h.bot.store.timers(game_id)] == ["reminder"]
    (notice,) = [m for m in h.posts(OTHER) if m.content.startswith("⚠️")]
    assert notice.content.startswith(f"⚠️ <@{ALICE}> The deadline of game #{game_id}")
    assert f"<#{OTHER}>" in notice.content and "Nobody was moved for the late players" in notice.content
    assert {u.id for u in notice.mentions} == {ALICE}
    fake.assert_clean()


async def test_a_host_may_make_a_deadline_forfeit_the_game(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB], channel=OTHER)
    saved = await h.slash(ALICE, "game settings", {"deadline_hours": 1, "deadline_action": "forfeit"},
                          channel=OTHER)
    assert translate("en", "discord.settings.deadline_action.forfeit") in saved.content
    await h.keep_tickets(ALICE, channel=OTHER)  # Alice chooses in time, Bob does not
    clock.advance(HOUR + 1)
    await tick(h)
    told = "\n".join(m.content for m in h.game_posts(OTHER))
    assert "Bob ran out of time and forfeits this game" in told, told
    status = await h.bot.service.status(str(OTHER))
    bob = next(s for s in status.info.seats if s.name == "Bob")
    assert bob.user_id is None and bob.bot  # a bot plays his seat on
    refused = await h.slash(BOB, "game hand", channel=OTHER)
    assert refused.ephemeral and refused.content.startswith("⚠️")
    fake.assert_clean()
