"""Delivery faults, end to end: the real dispatcher of the real bot against the loopback
Discord, with faults injected. In every test nothing is lost — each outbox row ends
delivered, or given up with the game's host told why — and no game stalls: a later move's
post still arrives.

The dispatcher's clock is the test's: `settle` travels to each row's next attempt, so the
back-off is followed exactly without waiting for it."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.discord import outbox_messages
from bot.sessions import Actor
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, KEN, OTHER, YUKI, Harness

POSTS = f"/channels/{CHANNEL}/messages"
HOUR = 3600.0


# ------------------------------------------------------------------------------ helpers
async def any_move(h: Harness, channel: int = CHANNEL, locale: str = "en-US") -> None:
    """The first legal move autocomplete offers the first player the game waits on."""
    status = await h.bot.service.status(str(channel))
    user = int(status.waiting_user_ids[0])
    choices = await h.autocomplete(user, "move", focused="move", value="", channel=channel, locale=locale)
    assert choices, "no legal move offered"
    result = await h.slash(user, "move", {"move": choices[0]["value"]}, channel=channel, locale=locale)
    assert result.content.startswith("✅"), result.content


async def settle(h: Harness, clock, rounds: int = 500) -> None:
    """Let the dispatcher work through its retries, moving the clock to each next attempt,
    until no row is left to deliver. Fails if that never happens (a stalled outbox)."""
    for _ in range(rounds):
        await h.idle()  # delivers (or fails) everything due now
        pending = [r for r in await h.bot.store.outbox_rows() if r.delivered_at is None and not r.dead]
        if not pending:
            return
        # what is left waits for a back-off (or behind a row that does)
        later = [r.next_attempt_at for r in pending if r.next_attempt_at > clock.now]
        assert later, f"rows due now were not delivered: {pending}"
        clock.now = min(later)
    raise AssertionError(f"the outbox never settled: {pending}")


async def all_accounted_for(h: Harness) -> list:
    """Every row delivered or given up; never both, never neither. Returns the dead ones."""
    rows = await h.bot.store.outbox_rows()
    assert rows
    for row in rows:
        assert (row.delivered_at is not None) != row.dead, row
    return [r for r in rows if r.dead]


def versions(h: Harness, channel: int = CHANNEL) -> list[int]:
    return [int(re.search(r"board (\d+)", p.embeds[-1]["footer"]["text"]).group(1))
            for p in h.game_posts(channel)]


def notices(h: Harness, channel: int = CHANNEL) -> list:
    return [m for m in h.posts(channel) if m.content.startswith("⚠️")]


def board_size(message) -> tuple[int, int]:
    (board,) = [a for a in message.attachments if a.filename == "board.png"]
    return Image.open(io.BytesIO(board.data)).size


# ------------------------------------------------------------------------------ 403
async def test_missing_permissions_give_up_tell_the_host_once_and_the_game_goes_on(
        harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    before = versions(h)
    await fake.deny_bot(CHANNEL, "send_messages", "attach_files")

    await any_move(h)
    await any_move(h)  # its post queues behind the first
    await settle(h, clock)

    dead = await all_accounted_for(h)
    assert [r.game_id for r in dead] == [game_id, game_id]
    # bounded: a few attempts each, not forever; each was refused for the permission
    assert all(r.attempts == 4 and r.last_error.startswith("forbidden 50013") for r in dead)
    assert versions(h) == before
    # the host is told once (not per post), by DM since the channel takes no messages,
    # naming exactly what is missing, in their language
    (dm,) = fake.dm_messages(ALICE)
    assert dm.content == "⚠️ " + translate("en", "discord.delivery.permissions", {
        "host": "", "channel": f"<#{CHANNEL}>", "game_id": game_id, "game": translate("en", "game.ticket_to_ride.title"),
        "permissions": "**Send Messages** and **Attach Files**"})
    assert fake.dm_messages(BOB) == [] and notices(h) == []

    # fixed: the next move's post arrives, and every row is accounted for
    await fake.deny_bot(CHANNEL)
    await any_move(h)
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 1 and versions(h)[-1] > before[-1]
    assert len(await all_accounted_for(h)) == 2
    fake.assert_clean()


async def test_without_attach_files_the_post_goes_out_without_its_image(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await fake.deny_bot(CHANNEL, "attach_files")
    posts = len(h.posts())

    await any_move(h)
    await settle(h, clock)
    new = [m for m in h.posts()[posts:] if not m.content.startswith("⚠️")]
    (post,) = new
    assert post.attachments == [] and "image" not in post.embeds[0]
    assert "board" in post.embeds[0]["footer"]["text"] and post.components  # the rest is there
    # the host is told in the channel (it takes text), with a mention, what to fix
    (notice,) = notices(h)
    assert notice.content.startswith(f"⚠️ <@{ALICE}> ")
    assert "**Attach Files**" in notice.content and "Send Messages" not in notice.content
    assert [u.id for u in notice.mentions] == [ALICE]

    await any_move(h)  # the same problem again: the post goes out, the host is not told twice
    await settle(h, clock)
    assert len(notices(h)) == 1
    assert await all_accounted_for(h) == []
    fake.assert_clean()


# ------------------------------------------------------------------------------ 404
async def test_a_deleted_channel_gives_up_at_once_and_tells_the_host_in_japanese(
        harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(KEN, [YUKI], channel=OTHER, locale="ja")
    await h.new_game(ALICE, [BOB])
    other_game = (await h.bot.service.status(str(OTHER))).info.game_id
    await fake.delete_channel(OTHER)

    # a move that reaches the game without an interaction (as a deadline's would)
    status = await h.bot.service.status(str(OTHER))
    user = status.waiting_user_ids[0]
    legal = (await h.bot.service.private_view(str(OTHER), user)).legal
    h.bot.after_commit(await h.bot.service.act(str(OTHER), Actor(user_id=user, name="ken"), legal[0].notation))
    await any_move(h)  # meanwhile in another channel
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.game_id == other_game and dead.attempts == 1 and dead.last_error.startswith("not found 10003")
    (dm,) = fake.dm_messages(KEN)
    assert dm.content == "⚠️ " + translate("ja", "discord.delivery.gone", {
        "host": "", "game_id": other_game, "game": translate("ja", "game.ticket_to_ride.title")})
    assert "チャンネルが見つからない" in dm.content
    assert len(versions(h)) == 2  # the other channel's game was not held up
    fake.assert_clean()


# ------------------------------------------------------------------------------ 413
async def test_too_large_sends_a_smaller_image_then_none(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    full = h.last_post()
    width, height = board_size(full)
    (board,) = full.attachments
    fake.attachment_size_limit = board.size // 2  # the board no longer fits; a quarter of it does

    await any_move(h)
    smaller = h.last_post()
    assert smaller is not full and board_size(smaller) == (width // 2, height // 2)
    assert smaller.embeds[0]["image"]["url"] == "attachment://board.png"

    fake.attachment_size_limit = 100  # nothing fits: the post goes out without its image
    posts = len(h.posts())
    await any_move(h)
    await settle(h, clock)
    (bare,) = h.posts()[posts:]
    assert bare.attachments == [] and "image" not in bare.embeds[0] and bare.components

    assert await all_accounted_for(h) == []
    # each refusal was a real 413 from the fake (and nothing else went wrong)
    assert [r.status for r in fake.requests_to("POST", POSTS) if r.status != 200] == [413, 413, 413]
    assert {v.rule for v in fake.violations} == {"file_size"}
    fake.assert_no_unexpected_requests()


# ------------------------------------------------------------------------------ 5xx, lost answers
async def test_server_errors_then_success_and_a_lost_answer_never_duplicate(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    before = versions(h)

    fake.fail_next("POST", POSTS, status=503, times=3)
    await any_move(h)
    assert versions(h) == before
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 1
    row = (await h.bot.store.outbox_rows())[-1]
    assert row.delivered_at is not None and row.attempts == 3 and not row.dead

    # Discord creates the post but the answer is lost: the retry carries the same nonce,
    # so Discord hands back the first post instead of making a second
    fake.fail_next("POST", POSTS, status=503, after=True)
    await any_move(h)
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 2 and versions(h) == sorted(set(versions(h)))
    (repeat,) = fake.nonce_repeats
    (lost,) = [r for r in fake.requests_to("POST", POSTS) if r.handled_status == 200]
    assert repeat.nonce == lost.nonce == h.last_post().nonce
    assert await all_accounted_for(h) == []
    fake.assert_clean()


# ------------------------------------------------------------------------------ broken posts
async def test_a_post_that_cannot_be_built_is_given_up_and_the_next_one_goes_out(
        harness: Harness, fake, clock, monkeypatch) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    broken: set[int] = set()
    real = outbox_messages.game_post

    async def renderer(payload):
        if payload["version"] in broken:
            raise RuntimeError("the renderer crashed")
        return await real(payload)

    monkeypatch.setattr(outbox_messages, "game_post", renderer)
    status = await h.bot.service.status(str(CHANNEL))
    broken.add(status.version + 1)
    await any_move(h)
    await any_move(h)
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.attempts == 2 and "the renderer crashed" in dead.last_error
    assert status.version + 1 not in versions(h) and status.version + 2 in versions(h)
    (notice,) = notices(h)
    assert notice.content == "⚠️ " + translate("en", "discord.delivery.broken", {
        "host": f"<@{ALICE}> ", "channel": f"<#{CHANNEL}>", "game_id": status.info.game_id,
        "game": translate("en", "game.ticket_to_ride.title")})
    fake.assert_clean()


@pytest.mark.parametrize("kind, payload", [
    ("move", "this is not JSON {"),
    ("move", {"channel_id": str(CHANNEL)}),  # a game post missing almost everything
    ("move", ["a", "list"]),
    ("teleport", {"channel_id": str(CHANNEL)}),  # a kind this version does not know
])
async def test_junk_rows_are_given_up_and_hold_nothing_back(harness: Harness, fake, clock, kind, payload) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    before = versions(h)
    async with h.bot.store.write() as tx:
        junk = await tx.add_outbox(game_id, kind, payload, clock.now)
    await any_move(h)  # its post is queued behind the junk
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.id == junk and dead.attempts == 2 and dead.last_error.startswith("error:")
    assert len(versions(h)) == len(before) + 1
    assert len(notices(h)) == 1
    fake.assert_clean()


# ------------------------------------------------------------------------------ reminders across a restart
async def test_a_restart_between_reminder_dms_sends_each_dm_once(harness: Harness, fake, clock) -> None:
    h = harness
    await h.slash(ALICE, "game settings", {"dm_reminders": True})
    await h.slash(BOB, "game settings", {"dm_reminders": True})
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()

    # the reminder DMs the two players in seat order; Discord creates the second DM but
    # its answer is lost, so the row fails after the first DM went out
    clock.advance(12 * HOUR)
    reminders = await h.bot.service.due_reminders()
    (reminder,) = reminders
    first, second = (int(u) for u in reminder.dm_user_ids)

    def second_dm(rec) -> bool:
        channel = fake.dm_channel(second)
        return channel is not None and rec.path == f"/channels/{channel.id}/messages"

    fake.fail_next("POST", "/channels/{id}/messages", status=503, after=True, match=second_dm)
    await h.idle()
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind == "reminder"]
    assert row.delivered_at is None and row.attempts == 1
    assert set((await h.bot.store.outbox_parts(row.id))) == {f"dm:{first}"}  # kept, not in memory

    await h.restart()  # a new process: nothing but the database is left
    await settle(h, clock)
    assert len(fake.dm_messages(first)) == 1 and len(fake.dm_messages(second)) == 1
    first_posts = fake.requests_to("POST", f"/channels/{fake.dm_channel(first).id}/messages")
    assert len(first_posts) == 1  # the first DM was not even tried again
    second_posts = fake.requests_to("POST", f"/channels/{fake.dm_channel(second).id}/messages")
    assert [r.status for r in second_posts] == [503, 200]
    assert second_posts[0].nonce == second_posts[1].nonce  # so Discord could drop the repeat
    assert fake.nonce_repeats == [second_posts[1]]
    assert await all_accounted_for(h) == []
    fake.assert_clean()
