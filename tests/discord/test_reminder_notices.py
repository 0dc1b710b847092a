"""Reminders that do not pile up, end to end (the real bot against the loopback Discord, time
travelled by hand): a reminder in the channel is deleted once the game moves on and when the
next reminder replaces it, so a game's channel holds one reminder at most; it names the game
and what is asked of each person; a DM is in its reader's own language; a deletion whose
answer was lost is retried without error and without leaving the reminder behind.

(A holder killed mid-deletion, with another process taking the row over, is in
test_processes.py, which runs real processes on both backends.)"""
from __future__ import annotations

from bot.sessions.live import LiveBoard
from tests.discord.conftest import ALICE, BOB, CHANNEL, GUILD, KEN, OTHER, Harness
from tests.discord.test_delivery_faults import settle

HOUR = 3600.0
DELETES = "/channels/{id}/messages/{id}"


def reminders_in(h: Harness, channel: int = CHANNEL) -> list:
    return [m for m in h.posts(channel) if m.content.startswith("⏰")]


async def tick(h: Harness) -> None:
    timers = h.bot.get_cog("Timers")
    await timers.tick.coro(timers)
    await h.idle()


async def first_move(h: Harness, channel: int = CHANNEL) -> int:
    """The first legal move autocomplete offers the first person the game waits on; returns who."""
    status = await h.bot.service.status(str(channel))
    user = int(status.waiting_user_ids[0])
    choices = await h.autocomplete(user, "move", focused="move", value="", channel=channel)
    result = await h.slash(user, "move", {"move": choices[0]["value"]}, channel=channel)
    assert result.content.startswith("✅"), result.content
    return user


async def standing(h: Harness, channel: int = CHANNEL) -> list[str]:
    """The reminders the game's live board keeps to delete."""
    game_id = (await h.bot.service.status(str(channel))).info.game_id
    board = LiveBoard.model_validate_json(await h.bot.store.live_board(game_id))
    return [r.message_id for r in board.reminders]


async def test_a_reminder_is_deleted_once_the_game_moves_on(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    clock.advance(12 * HOUR)
    await tick(h)
    (reminder,) = reminders_in(h)
    # the game by name, how long it waited, and what it asks of them (their tickets)
    assert reminder.content == (
        "⏰ Reminder: **Ticket to Ride — USA** is waiting (no move for 12 hours).\n"
        f"<@{ALICE}> <@{BOB}>: Choose which of your 3 tickets to keep (at least 2).")
    assert {u.id for u in reminder.mentions} == {ALICE, BOB}
    assert await standing(h) == [str(reminder.id)]

    # one of them keeps their tickets: the reminder is answered, and goes
    await first_move(h)
    assert reminders_in(h) == [] and fake.message(reminder.id).deleted
    assert [r.path for r in fake.requests_to("DELETE", DELETES)] == [f"/channels/{CHANNEL}/messages/{reminder.id}"]
    assert await standing(h) == []

    # the next reminder asks only who is still waited on, for what they still owe
    status = await h.bot.service.status(str(CHANNEL))
    (late,) = status.waiting_user_ids
    clock.advance(12 * HOUR)
    await tick(h)
    (again,) = reminders_in(h)
    assert again.content.endswith(f"<@{late}>: Choose which of your 3 tickets to keep (at least 2).")
    # and once everyone has kept theirs, the turn's prompt is what a reminder asks
    await first_move(h)
    assert reminders_in(h) == []
    clock.advance(12 * HOUR)
    await tick(h)
    (turn,) = reminders_in(h)
    assert turn.content.endswith(": Your turn: draw cards, claim a route or draw tickets.")
    fake.assert_clean()


async def test_a_newer_reminder_replaces_the_older_one_game_by_game(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.new_game(ALICE, [BOB], channel=OTHER)
    clock.advance(12 * HOUR)
    await tick(h)
    (first,), (other,) = reminders_in(h), reminders_in(h, OTHER)
    assert "Ticket to Ride — USA" in first.content

    clock.advance(24 * HOUR)  # the back-off: the second reminder comes a day later
    await tick(h)
    (second,), (other_second,) = reminders_in(h), reminders_in(h, OTHER)
    assert second.id != first.id and other_second.id != other.id
    assert fake.message(first.id).deleted and fake.message(other.id).deleted
    # each game deleted its own earlier reminder, once, and nothing else
    deleted = sorted(r.path for r in fake.requests_to("DELETE", DELETES))
    assert deleted == sorted([f"/channels/{CHANNEL}/messages/{first.id}", f"/channels/{OTHER}/messages/{other.id}"])
    assert await standing(h) == [str(second.id)] and await standing(h, OTHER) == [str(other_second.id)]

    # abandoning a game takes its reminder back too; the other game keeps its own
    await h.slash(ALICE, "game abandon")
    assert reminders_in(h) == [] and reminders_in(h, OTHER) == [other_second]
    fake.assert_clean()


async def test_a_dm_reminder_is_in_its_readers_language(harness: Harness, fake, clock) -> None:
    """Ken's Discord speaks Japanese; the game (Alice's) is in English. Ken's reminder comes by
    DM in Japanese, with the link to the game's channel; Alice's in the channel stays English."""
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    assert opened.ephemeral
    lobby = h.lobby(CHANNEL)
    await h.click(lobby, None, KEN, label="Join", locale="ja")  # the lobby speaks the game's language
    await h.click(lobby, None, ALICE, label="Start")
    on = await h.slash(KEN, "game settings", {"dm_reminders": True}, locale="ja")
    assert on.ephemeral
    prefs = await h.bot.service.user_prefs(str(KEN))
    assert prefs.locale == "ja" and prefs.dm_reminders

    clock.advance(12 * HOUR)
    await tick(h)
    (dm,) = fake.dm_messages(KEN)
    assert dm.content == (
        "⏰ リマインダー：**チケット・トゥ・ライド アメリカ**があなたの手番を待っています（12時間、動きがありません）。"
        f"https://discord.com/channels/{GUILD}/{CHANNEL}\n"
        "👉 3枚の目的地カードから残すものを選んでください（2枚以上）。")
    (channel,) = reminders_in(h)
    assert channel.content == (
        "⏰ Reminder: **Ticket to Ride — USA** is waiting (no move for 12 hours).\n"
        f"<@{ALICE}>: Choose which of your 3 tickets to keep (at least 2).")
    # DMs stay as they are when the game moves on; the channel's reminder goes
    await first_move(h)
    assert reminders_in(h) == [] and not fake.dm_messages(KEN)[0].deleted
    fake.assert_clean()


async def test_a_deletion_whose_answer_was_lost_is_retried_and_leaves_nothing(harness: Harness, fake, clock) -> None:
    """Discord deletes the reminder but its answer is lost (a 503 after the work): the row is
    retried, the retry's deletion meets Unknown Message, which counts as done. Nothing is
    posted twice, nothing given up, and no reminder is left in the channel."""
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = (await h.bot.service.status(str(CHANNEL))).info.game_id
    clock.advance(12 * HOUR)
    await tick(h)
    (first,) = reminders_in(h)

    # the second reminder replaces the first: the deletion's answer is lost
    fake.fail_next("DELETE", DELETES, status=503, after=True)
    clock.advance(24 * HOUR)
    await tick(h)
    await settle(h, clock)
    (second,) = reminders_in(h)
    assert fake.message(first.id).deleted
    assert [r.status for r in fake.requests_to("DELETE", DELETES)] == [503, 404]
    assert [r.nonce for r in fake.requests_to("POST", "/channels/{id}/messages")].count(second.nonce) == 1

    # the move that answers it: the board goes out once, the deletion's answer is lost again
    boards = len(h.game_posts())
    fake.fail_next("DELETE", DELETES, status=503, after=True)
    await first_move(h)
    await settle(h, clock)
    assert reminders_in(h) == [] and fake.message(second.id).deleted
    assert [r.status for r in fake.requests_to("DELETE", DELETES)] == [503, 404, 503, 404]
    assert len(h.game_posts()) == boards  # the keep edited the live board, once, not again
    rows = await h.bot.store.outbox_rows(game_id)
    assert rows and all(r.delivered_at is not None and not r.dead for r in rows)
    assert await standing(h) == []
    fake.assert_clean()
