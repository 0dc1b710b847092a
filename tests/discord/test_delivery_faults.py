"""Delivery faults, end to end: the real dispatcher of the real bot against the loopback
Discord, with faults injected. In every test nothing is lost — each outbox row ends
delivered, or given up with the game's host told why — and no game stalls: a later move
still reaches the channel.

A game keeps one live board (bot/sessions/live.py): a move makes a new message when
somebody is newly waited on (the second of a turn's draws, the last ticket choice of the
start) and otherwise edits the live message. So "a move reaches the channel" means: the
live message (the newest board message, the only one with buttons) shows the latest state,
its footer naming the game's version and its text the latest move's events, whether a new
message or an edit of the live one brought it. The fake keeps every creation and edit
(`fake.message_payloads`), so a test also sees each state the channel was shown.

The dispatcher's clock is the test's: `settle` travels to each row's next attempt, so the
back-off is followed exactly without waiting for it."""
from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.discord import outbox_messages
from bot.discord.text import event_text
from bot.sessions import Actor, SessionError
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, KEN, OTHER, YUKI, Harness

POSTS = f"/channels/{CHANNEL}/messages"
EDITS = f"/channels/{CHANNEL}/messages/{{message_id}}"  # an edit of one of the channel's messages
HOUR = 3600.0
BOARD = re.compile(r"(?:board|盤面) (\d+)")  # the footer of a game's board message (en, ja)


# ------------------------------------------------------------------------------ moves
async def any_move(h: Harness, channel: int = CHANNEL, locale: str = "en-US") -> None:
    """The first legal move autocomplete offers the first player the game waits on. At the
    start of Ticket to Ride that is keeping tickets: the first player's keep edits the live
    board (the other is still waited on), the second's posts a new message (the first
    player's turn pings them)."""
    status = await h.bot.service.status(str(channel))
    user = int(status.waiting_user_ids[0])
    choices = await h.autocomplete(user, "move", focused="move", value="", channel=channel, locale=locale)
    assert choices, "no legal move offered"
    result = await h.slash(user, "move", {"move": choices[0]["value"]}, channel=channel, locale=locale)
    assert result.content.startswith("✅"), result.content


async def draw(h: Harness, channel: int = CHANNEL) -> None:
    """The player the game waits on draws a card from the deck. The first draw of a turn
    edits the live board (the same player is still waited on); the second ends the turn, and
    the next player's turn is a new message."""
    status = await h.bot.service.status(str(channel))
    (user,) = status.waiting_user_ids
    result = await h.slash(int(user), "move", {"move": "draw deck"}, channel=channel)
    assert result.content.startswith("✅"), result.content


# ------------------------------------------------------------------------------ the outbox
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


# ------------------------------------------------------------------------------ the channel
def board_version(embeds: list[dict]) -> int | None:
    """The version a board message's footer names (None: not a board message)."""
    found = BOARD.search(((embeds[-1] if embeds else {}).get("footer") or {}).get("text", ""))
    return int(found.group(1)) if found else None


def boards(h: Harness, channel: int = CHANNEL) -> list:
    """The game's board messages as they stand now, oldest first (with or without a picture)."""
    return [m for m in h.posts(channel) if board_version(m.embeds) is not None]


def versions(h: Harness, channel: int = CHANNEL) -> list[int]:
    """The version each board message shows now (an edit changes its message's)."""
    return [board_version(m.embeds) for m in boards(h, channel)]


def live(h: Harness, channel: int = CHANNEL):
    """The live board: the newest board message, and the only one with buttons (each earlier
    one lost them when the next was posted)."""
    messages = boards(h, channel)
    assert messages, "no board message"
    assert [m.id for m in messages if m.components] == [messages[-1].id], "only the live board has buttons"
    return messages[-1]


def shown(h: Harness, channel: int = CHANNEL) -> list[tuple[str, int, int]]:
    """Every board state the bot showed in the channel, in order: (create | edit, message id,
    version). A repeat that Discord dropped by its nonce created nothing and is not here."""
    out = []
    for record in h.fake.message_payloads:
        if record.path.startswith(f"/channels/{channel}/messages") and isinstance(record.payload, dict):
            version = board_version(record.payload.get("embeds") or [])
            if version is not None:
                out.append((record.kind, record.message_id, version))
    return out


def notices(h: Harness, channel: int = CHANNEL) -> list:
    return [m for m in h.posts(channel) if m.content.startswith("⚠️")]


def board_size(message) -> tuple[int, int]:
    (board,) = [a for a in message.attachments if a.filename == "board.png"]
    return Image.open(io.BytesIO(board.data)).size


def told(row) -> list[str]:
    """The lines a game post's events are told in."""
    payload = row.payload
    return [event_text(payload.get("locale") or "en", e, payload.get("names") or []) for e in payload["events"]]


async def assert_live_shows_latest(h: Harness, channel: int = CHANNEL) -> None:
    """The move last made reached the channel: the live message's footer names the game's
    version, and its text tells that move's events."""
    status = await h.bot.service.status(str(channel))
    board = live(h, channel)
    assert board_version(board.embeds) == status.version, (board.embeds, status.version)
    posts = [r for r in await h.bot.store.outbox_rows(status.info.game_id)
             if r.kind in outbox_messages.GAME_POST_KINDS and not r.dead]
    assert posts[-1].delivered_at is not None and posts[-1].payload["version"] == status.version
    for line in told(posts[-1]):
        assert line in board.content, (line, board.content)


async def assert_nothing_lost_or_repeated(h: Harness, channel: int = CHANNEL) -> None:
    """Every delivered game post was told in the channel (by a new message or an edit of the
    live one), the channel never went back to an older state, and no message was created
    twice (each creation carried its own nonce)."""
    status = await h.bot.service.status(str(channel))
    records = [r for r in h.fake.message_payloads if r.path.startswith(f"/channels/{channel}/messages")]
    contents = "\n".join(r.payload.get("content") or "" for r in records if isinstance(r.payload, dict))
    for row in await h.bot.store.outbox_rows(status.info.game_id):
        if row.kind in outbox_messages.GAME_POST_KINDS and row.delivered_at is not None:
            for line in told(row):
                assert line in contents, (row.id, line)
    seen = [version for _, _, version in shown(h, channel)]
    assert seen == sorted(seen), seen
    nonces = [r.payload.get("nonce") for r in records if r.kind == "create"]
    assert None not in nonces and len(set(nonces)) == len(nonces), nonces


# ------------------------------------------------------------------------------ 403
async def test_missing_permissions_give_up_tell_the_host_once_and_the_game_goes_on(
        harness: Harness, fake, clock, expect_error) -> None:
    expect_error('railyard.discord.outbox', 'failed for good \\(forbidden 50013')
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    await any_move(h)  # Alice keeps her tickets: an edit of the live board
    before = versions(h)
    await fake.deny_bot(CHANNEL, "send_messages", "attach_files")

    await any_move(h)  # Bob keeps his: Alice's turn is a new message, which is refused
    await draw(h)  # its post queues behind the first (and needs a new message too: Alice is pinged)
    await settle(h, clock)

    dead = await all_accounted_for(h)
    assert [r.game_id for r in dead] == [game_id, game_id]
    # bounded: a few attempts each, not forever; each was refused for the permission
    assert all(r.attempts == 4 and r.last_error.startswith("forbidden 50013") for r in dead)
    assert versions(h) == before  # nothing posted, the live board untouched
    # the host is told once (not per post), by DM since the channel takes no messages,
    # naming exactly what is missing, in their language
    (dm,) = fake.dm_messages(ALICE)
    assert dm.content == "⚠️ " + translate("en", "discord.delivery.permissions", {
        "host": "", "channel": f"<#{CHANNEL}>", "game_id": game_id, "game": translate("en", "ticket_to_ride.title"),
        "permissions": "**Send Messages** and **Attach Files**"})
    assert fake.dm_messages(BOB) == [] and notices(h) == []

    # fixed: the next move reaches the channel (here as an edit: Bob, whose turn it is, was
    # still waited on in the live board), and every row is accounted for
    await fake.deny_bot(CHANNEL)
    await draw(h)
    await settle(h, clock)
    assert versions(h)[-1] > before[-1]
    await assert_live_shows_latest(h)
    assert len(await all_accounted_for(h)) == 2
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


async def test_without_attach_files_the_post_goes_out_without_its_image(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await any_move(h)  # Alice keeps: an edit sends no picture, Attach Files or not
    await fake.deny_bot(CHANNEL, "attach_files")
    posts = len(h.posts())

    await any_move(h)  # Bob keeps: Alice's turn is a new message, with a new picture of the board
    await settle(h, clock)
    new = [m for m in h.posts()[posts:] if not m.content.startswith("⚠️")]
    (post,) = new
    assert post.attachments == [] and "image" not in post.embeds[0]
    assert "board" in post.embeds[0]["footer"]["text"] and post.components  # the rest is there
    assert live(h) is post
    # the host is told in the channel (it takes text), with a mention, what to fix
    (notice,) = notices(h)
    assert notice.content.startswith(f"⚠️ <@{ALICE}> ")
    assert "**Attach Files**" in notice.content and "Send Messages" not in notice.content
    assert [u.id for u in notice.mentions] == [ALICE]

    await draw(h)  # an edit of the live board: it has no picture, so its embed shows none
    await settle(h, clock)
    assert live(h) is post and "image" not in fake.message(post.id).embeds[0]
    await draw(h)  # the same problem again: the new message goes out, the host is not told twice
    await settle(h, clock)
    newest = live(h)
    assert newest is not post and newest.attachments == [] and newest.components
    await assert_live_shows_latest(h)
    assert len(notices(h)) == 1
    assert await all_accounted_for(h) == []
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


# ------------------------------------------------------------------------------ 404
async def act_quietly(h: Harness, channel: int) -> None:
    """The first legal move of the first person the game waits on, made without an
    interaction (as a deadline's or a bot's is): the channel may be gone, or an archived
    thread, where nobody can use a command."""
    status = await h.bot.service.status(str(channel))
    user = status.waiting_user_ids[0]
    legal = (await h.bot.service.private_view(str(channel), user)).legal
    await h.bot.service.act(str(channel), Actor(user_id=user, name=user), legal[0].notation)


async def test_a_deleted_channel_ends_its_game_and_tells_the_host_once_in_japanese(
        harness: Harness, fake, clock, monkeypatch) -> None:
    """Somebody deletes the channel of a game under way. Its next post gets Unknown Channel
    (404, code 10003); Discord, asked about the channel, says the same: the game is
    abandoned (one version further), its timers and standing orders go, every post of it
    still to deliver is given up, and its host is told once, by DM, in the game's language.
    The game in another channel goes on."""
    h = harness
    await h.new_game(KEN, [YUKI], channel=OTHER, locale="ja")
    await h.new_game(ALICE, [BOB])
    other_game = (await h.bot.service.status(str(OTHER))).info.game_id
    async with h.bot.store.write() as tx:
        await tx.set_standing_orders(other_game, 0, ["draw deck"], clock.now)
    await fake.delete_channel(OTHER)

    flush = h.bot.outbox.flush

    async def later() -> int:
        return 0

    monkeypatch.setattr(h.bot.outbox, "flush", later)  # two moves wait for the dispatcher
    await act_quietly(h, OTHER)
    await act_quietly(h, OTHER)
    before = await h.bot.service.status(str(OTHER))
    assert before.info.status == "active" and await h.bot.store.timers(other_game)
    monkeypatch.setattr(h.bot.outbox, "flush", flush)
    await any_move(h)  # meanwhile in another channel
    await settle(h, clock)

    after = (await h.bot.service.status(str(OTHER))).info
    assert after.status == "abandoned" and after.version == before.version + 1
    assert await h.bot.store.timers(other_game) == [] and await h.bot.store.standing_orders(other_game) == {}
    first, second = [r for r in await h.bot.store.outbox_rows(other_game) if r.kind == "move"]
    assert first.dead and first.attempts == 1 and first.last_error.startswith("not found 10003")
    assert second.dead and second.attempts == 0 and "channel was deleted" in second.last_error
    assert [r.status for r in fake.requests_to("GET", f"/channels/{OTHER}")] == [404]  # asked once
    (dm,) = fake.dm_messages(KEN)
    assert dm.content == "⚠️ " + translate("ja", "discord.delivery.deleted", {
        "host": "", "game_id": other_game, "game": translate("ja", "ticket_to_ride.title")})
    assert "チャンネルが削除された" in dm.content and "放棄" in dm.content
    assert fake.dm_messages(YUKI) == []
    with pytest.raises(SessionError) as refused:  # nothing more happens in it
        await h.bot.service.act(str(OTHER), Actor(user_id=str(KEN), name="ken"), "draw deck")
    assert refused.value.code == "no_game_here"

    await assert_live_shows_latest(h)  # the other channel's game was not held up
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


async def test_an_archived_thread_is_posted_in_again_and_a_deleted_one_ends_its_game(
        harness: Harness, fake, clock) -> None:
    """A game in a thread. The thread is archived (Discord does that after a quiet spell):
    that is no deletion. An edit of the live board there is refused (400, 50083), so the
    step posts a new message instead, which unarchives the thread, and takes the buttons off
    the old one. Then the thread's channel is deleted, which deletes the thread: that game
    ends, and its host is told."""
    h = harness
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "players": 2, "thread_name": "Friday"})
    (thread,) = [c for c in fake.channels.values() if c.is_thread]
    await h.click(h.lobby(thread.id), None, BOB, label="Join")  # the second seat starts it
    start = live(h, thread.id)
    game_id = await h.game_id(thread.id)

    thread.archived = True
    await act_quietly(h, thread.id)  # a first ticket choice: an edit of the live board
    await settle(h, clock)
    # the edit refused; its buttons taken off once the new message had opened the thread again
    assert [r.status for r in fake.requests_to("PATCH", f"/channels/{thread.id}/messages/{start.id}")] == [400, 200]
    reposted = live(h, thread.id)
    assert reposted.id != start.id and reposted.attachments and not thread.archived
    assert fake.message(start.id).components == []
    await assert_live_shows_latest(h, thread.id)
    assert (await h.bot.service.status(str(thread.id))).info.status == "active"

    thread.archived = True
    await act_quietly(h, thread.id)  # the second: a new message, which unarchives the thread
    await settle(h, clock)
    await assert_live_shows_latest(h, thread.id)
    assert not thread.archived and await all_accounted_for(h) == [] and fake.dm_messages(ALICE) == []

    await fake.delete_channel(CHANNEL)  # the thread goes with it
    await act_quietly(h, thread.id)
    await settle(h, clock)
    assert (await h.bot.service.status(str(thread.id))).info.status == "abandoned"
    (dead,) = await all_accounted_for(h)
    assert dead.game_id == game_id and dead.last_error.startswith("not found 10003")
    (dm,) = fake.dm_messages(ALICE)
    assert dm.content == "⚠️ " + translate("en", "discord.delivery.deleted", {
        "host": "", "game_id": game_id, "game": translate("en", "ticket_to_ride.title")})
    fake.assert_clean()


async def test_a_channel_the_bot_may_no_longer_see_is_not_a_deleted_one(harness: Harness, fake, clock, expect_error) -> None:
    """Missing Access (403, 50001) means the bot lost View Channel, not that the channel is
    gone: the game goes on, and the host is told what to switch back on."""
    expect_error('railyard.discord.outbox', 'failed for good \\(forbidden 50001')
    h = harness
    await h.new_game(ALICE, [BOB])
    await any_move(h)
    await fake.deny_bot(CHANNEL, "view_channel")
    await act_quietly(h, CHANNEL)  # Bob keeps: Alice's turn, refused
    await settle(h, clock)
    (dead,) = await all_accounted_for(h)
    assert dead.last_error.startswith("forbidden 50001")
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "active"
    assert await h.bot.store.timers(dead.game_id)
    (dm,) = fake.dm_messages(ALICE)
    assert "View Channel" in dm.content and fake.requests_to("GET", f"/channels/{CHANNEL}") == []
    fake.assert_clean()


async def test_a_deleted_live_board_is_posted_anew(harness: Harness, fake, clock) -> None:
    """Somebody deletes the game's live message: the next edit finds it gone (404 10008) and
    the step posts a new live board instead of failing; a new message that would take the
    buttons off the deleted one just goes out."""
    h = harness
    await h.new_game(ALICE, [BOB])
    start = live(h)
    # a moderator deletes it (DELETE /channels/{id}/messages/{id}, as the fake models it)
    await h.bot.http.delete_message(CHANNEL, start.id)
    assert boards(h) == []

    await any_move(h)  # Alice keeps: would edit the live board, which is gone
    reposted = live(h)
    assert reposted.id != start.id and reposted.attachments and reposted.components
    await assert_live_shows_latest(h)
    # Bob, still waited on, is named and notified again: the message that pinged him is gone
    assert [u.id for u in reposted.mentions] == [BOB]
    patches = fake.requests_to("PATCH", f"/channels/{CHANNEL}/messages/{start.id}")
    assert [r.status for r in patches] == [404]  # tried once, then posted anew
    row = (await h.bot.store.outbox_rows())[-1]
    assert row.delivered_at is not None and row.attempts == 0 and row.last_error is None  # not even a retry

    await h.bot.http.delete_message(CHANNEL, reposted.id)
    await any_move(h)  # Bob keeps: Alice's turn, a new message; taking the buttons off the deleted one 404s
    await assert_live_shows_latest(h)
    assert len(boards(h)) == 1 and live(h).id not in (start.id, reposted.id)
    await draw(h)  # and the live board is edited as usual from there
    await assert_live_shows_latest(h)
    assert len(boards(h)) == 1 and shown(h)[-1][0] == "edit"

    assert await all_accounted_for(h) == [] and notices(h) == []
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


# ------------------------------------------------------------------------------ 413
async def test_too_large_sends_a_smaller_image_then_none(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    full = h.last_post()
    width, height = board_size(full)
    (board,) = full.attachments
    await any_move(h)  # Alice keeps: an edit, which keeps the picture and uploads nothing
    assert h.last_post() is full and full.attachments == [board]
    fake.attachment_size_limit = board.size // 2  # the board no longer fits; a quarter of it does

    await any_move(h)  # Bob keeps: Alice's turn is a new message with a new picture
    smaller = h.last_post()
    assert smaller is not full and board_size(smaller) == (width // 2, height // 2)
    assert smaller.embeds[0]["image"]["url"] == "attachment://board.png"

    fake.attachment_size_limit = 100  # nothing fits: the post goes out without its image
    await draw(h)  # an edit: nothing to upload
    posts = len(h.posts())
    await draw(h)  # the end of Alice's turn: a new message
    await settle(h, clock)
    (bare,) = h.posts()[posts:]
    assert bare.attachments == [] and "image" not in bare.embeds[0] and bare.components
    assert live(h) is bare
    await assert_live_shows_latest(h)

    assert await all_accounted_for(h) == []
    # each refusal was a real 413 from the fake (and nothing else went wrong)
    assert [r.status for r in fake.requests_to("POST", POSTS) if r.status != 200] == [413, 413, 413]
    assert {v.rule for v in fake.violations} == {"file_size"}
    await assert_nothing_lost_or_repeated(h)
    fake.assert_no_unexpected_requests()


# ------------------------------------------------------------------------------ 5xx, lost answers
async def test_server_errors_then_success_and_a_lost_answer_never_duplicate(harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await any_move(h)  # Alice keeps: an edit
    before = versions(h)

    fake.fail_next("POST", POSTS, status=503, times=3)
    await any_move(h)  # Bob keeps: Alice's turn is a new message, which fails three times
    assert versions(h) == before
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 1
    await assert_live_shows_latest(h)
    row = (await h.bot.store.outbox_rows())[-1]
    assert row.delivered_at is not None and row.attempts == 3 and not row.dead

    # Discord creates the post but the answer is lost: the retry finds it in the channel
    # (the bot's message saying the same, since the row was written) and does not post again
    await draw(h)  # an edit
    fake.fail_next("POST", POSTS, status=503, after=True)
    await draw(h)  # the end of the turn: a new message
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 2 and versions(h) == sorted(set(versions(h)))
    (lost,) = [r for r in fake.requests_to("POST", POSTS) if r.handled_status == 200]
    assert lost.nonce == h.last_post().nonce
    assert [r.nonce for r in fake.requests_to("POST", POSTS)].count(lost.nonce) == 1 and fake.nonce_repeats == []
    assert fake.requests_to("GET", POSTS), "the channel was looked at"
    await assert_live_shows_latest(h)

    # without Read Message History the channel shows nothing: the retry carries the same
    # nonce, so Discord hands back the first post instead of making a second
    await fake.deny_bot(CHANNEL, "read_message_history")
    await draw(h)  # Bob's first card: an edit
    fake.fail_next("POST", POSTS, status=503, after=True)
    await draw(h)  # his second: Alice's turn, a new message
    await settle(h, clock)
    assert len(versions(h)) == len(before) + 3 and versions(h) == sorted(set(versions(h)))
    (repeat,) = fake.nonce_repeats
    lost = [r for r in fake.requests_to("POST", POSTS) if r.handled_status == 200][-1]
    assert repeat.nonce == lost.nonce == h.last_post().nonce
    await assert_live_shows_latest(h)
    assert await all_accounted_for(h) == []
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()


async def test_a_server_error_on_an_edit_of_the_live_board_is_retried_and_nothing_is_lost(
        harness: Harness, fake, clock) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    start = live(h)
    before = versions(h)

    fake.fail_next("PATCH", EDITS, status=503, times=2)
    await any_move(h)  # Alice keeps: the edit of the live board fails
    assert versions(h) == before and fake.message(start.id).history == []
    (row,) = [r for r in await h.bot.store.outbox_rows() if r.delivered_at is None]
    assert row.attempts == 1 and "server error 503" in row.last_error
    await settle(h, clock)  # retried after its back-off (and failing once more)

    assert [r.status for r in fake.requests_to("PATCH", f"/channels/{CHANNEL}/messages/{start.id}")] == [503, 503, 200]
    assert live(h).id == start.id  # the same live board, edited: no second message
    await assert_live_shows_latest(h)

    # a move made while an edit waits for its retry is not lost either
    await any_move(h)  # Bob keeps: Alice's turn is a new message, and the old one loses its buttons
    turn = live(h)
    assert turn.id != start.id and fake.message(start.id).components == []
    fake.fail_next("PATCH", EDITS, status=503)
    await draw(h)  # Alice's first card: the edit of the live board fails
    assert fake.message(turn.id).history == []
    await draw(h)  # her second, made while that edit waits for its retry: Bob's turn
    await settle(h, clock)
    assert [r.status for r in fake.requests_to("PATCH", f"/channels/{CHANNEL}/messages/{turn.id}")] == [
        503, 200, 200]  # the edit, retried; then the buttons taken off for Bob's new message
    await assert_live_shows_latest(h)
    assert await all_accounted_for(h) == []
    await assert_nothing_lost_or_repeated(h)
    assert fake.pending_failures == []
    fake.assert_clean()


@pytest.mark.parametrize("fault", ["lost answer", "buttons not taken off"])
async def test_a_move_made_while_a_step_waits_for_its_retry_reaches_the_channel(
        harness: Harness, fake, clock, fault) -> None:
    """A step that went out only partly (Discord created the new message but its answer was
    lost; or the new message went out and taking the old one's buttons off failed) is
    retried. A move made meanwhile must still be shown: the retry cannot add it to a message
    that is already out (found in the channel, or handed back unchanged by its nonce; a part
    already sent is not sent again), so it comes after."""
    h = harness
    await h.new_game(ALICE, [BOB])
    await any_move(h)  # Alice keeps: an edit
    if fault == "lost answer":
        fake.fail_next("POST", POSTS, status=503, after=True)
    else:
        fake.fail_next("PATCH", EDITS, status=503)
    await any_move(h)  # Bob keeps: Alice's turn is a new message; the step fails part way
    (waiting,) = [r for r in await h.bot.store.outbox_rows() if r.delivered_at is None]
    assert waiting.attempts == 1
    await draw(h)  # Alice draws a card meanwhile
    await settle(h, clock)

    await assert_live_shows_latest(h)
    assert await all_accounted_for(h) == []
    await assert_nothing_lost_or_repeated(h)
    assert fake.nonce_repeats == []  # the lost answer's message was found, not posted again
    fake.assert_clean()


# ------------------------------------------------------------------------------ broken posts
async def test_a_post_that_cannot_be_built_is_given_up_and_the_next_one_goes_out(
        harness: Harness, fake, clock, monkeypatch, expect_error) -> None:
    expect_error('railyard.discord.outbox', 'could not be built or sent|failed for good')
    h = harness
    await h.new_game(ALICE, [BOB])
    broken: set[int] = set()
    real = outbox_messages.game_post

    async def renderer(post, **kwargs):
        if post.version in broken:
            raise RuntimeError("the renderer crashed")
        return await real(post, **kwargs)

    monkeypatch.setattr(outbox_messages, "game_post", renderer)
    status = await h.bot.service.status(str(CHANNEL))
    broken.add(status.version + 1)
    await any_move(h)
    await any_move(h)
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.attempts == 2 and "the renderer crashed" in dead.last_error
    assert dead.payload["version"] == status.version + 1
    # the broken state was never shown; the next one was, and is on the live board
    assert status.version + 1 not in [v for _, _, v in shown(h)] and status.version + 2 in versions(h)
    await assert_live_shows_latest(h)
    (notice,) = notices(h)
    assert notice.content == "⚠️ " + translate("en", "discord.delivery.broken", {
        "host": f"<@{ALICE}> ", "channel": f"<#{CHANNEL}>", "game_id": status.info.game_id,
        "game": translate("en", "ticket_to_ride.title")})
    fake.assert_clean()


async def test_after_a_post_given_up_the_next_one_pings_whoever_it_newly_waits_on(
        harness: Harness, fake, clock, expect_error) -> None:
    """Alice's turn-ending draw makes the game wait on Bob, but Discord refuses that post for
    good: it is given up, so Bob was never pinged, and the live message still shows Alice's
    turn. Bob then claims a route, so the game waits on Alice again: she is newly waited on
    (her turn came round again), so a new message pings her, rather than an edit of her old
    turn's message that notifies nobody."""
    expect_error('railyard.discord.outbox', 'failed for good \\(refused 400 50035')
    h = harness
    await h.new_game(ALICE, [BOB])
    await any_move(h)
    await any_move(h)  # both kept their tickets: Alice's turn, a new message pinging her
    alices_turn = live(h)
    assert [u.id for u in alices_turn.mentions] == [ALICE]
    await draw(h)  # her first card: an edit
    fake.fail_next("POST", POSTS, status=400, code=50035, message="Invalid Form Body")
    await draw(h)  # her second: Bob's turn, a new message, refused for good
    (dead,) = await all_accounted_for(h)
    assert dead.attempts == 1 and dead.last_error.startswith("refused 400")
    assert live(h).id == alices_turn.id

    status = await h.bot.service.status(str(CHANNEL))
    assert status.waiting_user_ids == [str(BOB)]
    claim = next(c.notation for c in (await h.bot.service.private_view(str(CHANNEL), str(BOB))).legal
                 if c.notation.startswith("claim "))
    result = await h.slash(BOB, "move", {"move": claim})
    assert result.content.startswith("✅"), result.content
    await settle(h, clock)

    assert (await h.bot.service.status(str(CHANNEL))).waiting_user_ids == [str(ALICE)]
    newest = live(h)
    assert newest.id != alices_turn.id and shown(h)[-1][0] == "create"
    assert [u.id for u in newest.mentions] == [ALICE]
    assert fake.message(alices_turn.id).components == []  # the old turn's buttons are off
    await assert_live_shows_latest(h)
    fake.assert_clean()


JUNK = [
    ("move", "this is not JSON {"),
    ("move", {"channel_id": str(CHANNEL)}),  # a game post missing almost everything
    ("move", ["a", "list"]),
    ("teleport", {"channel_id": str(CHANNEL)}),  # a kind this version does not know
]


@pytest.mark.parametrize("kind, payload", JUNK)
async def test_junk_rows_are_given_up_and_hold_nothing_back(harness: Harness, fake, clock, kind, payload, expect_error) -> None:
    expect_error('railyard.discord.outbox', 'could not be built or sent|failed for good')
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    before = versions(h)
    async with h.bot.store.write() as tx:
        junk = await tx.add_outbox(game_id, kind, payload, clock.now)
    await h.idle()  # tried, and failed
    await any_move(h)  # its post is queued behind the junk
    assert versions(h) == before
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.id == junk and dead.attempts == 2 and dead.last_error.startswith("error:")
    assert versions(h)[-1] > before[-1]
    await assert_live_shows_latest(h)
    assert len(notices(h)) == 1
    fake.assert_clean()


@pytest.mark.parametrize("kind, payload", JUNK)
async def test_a_junk_row_behind_good_posts_does_not_take_them_down(
        harness: Harness, fake, clock, kind, payload, expect_error) -> None:
    """A step delivers a due post together with the game's posts due right after it; a junk
    row among those must not make a good post fail for good, nor be shown."""
    expect_error('railyard.discord.outbox', 'could not be built or sent|failed for good')
    h = harness
    await h.new_game(ALICE, [BOB])
    game_id = await h.game_id()
    fake.fail_next("PATCH", EDITS, status=503)
    await any_move(h)  # Alice keeps: the edit fails, the post waits for its retry
    await any_move(h)  # Bob keeps: his post queues behind it
    good = [r.id for r in await h.bot.store.outbox_rows() if r.delivered_at is None]
    assert len(good) == 2
    async with h.bot.store.write() as tx:
        junk = await tx.add_outbox(game_id, kind, payload, clock.now)
    await settle(h, clock)

    (dead,) = await all_accounted_for(h)
    assert dead.id == junk and dead.attempts == 2
    first, second = [r for r in await h.bot.store.outbox_rows() if r.id in good]
    assert first.delivered_at is not None and first.attempts == 1  # the failed edit, then alone
    # the post behind it goes out at its first try: a junk row is never taken into a step
    # (only rows that read as game posts are)
    assert second.delivered_at is not None and second.attempts == 0, second
    await assert_live_shows_latest(h)
    await assert_nothing_lost_or_repeated(h)
    assert len(notices(h)) == 1
    fake.assert_clean()


# ------------------------------------------------------------------------------ a post that kills its holders
@pytest.mark.parametrize("dead_holders", [2, 3])
async def test_a_post_that_outlives_three_holders_in_a_row_is_given_up(
        harness: Harness, fake, clock, dead_holders: int, expect_error) -> None:
    """Processes that claimed a post and died before recording anything (their leases ran
    out): after two the post is still delivered by the next process (a restart, a deploy);
    after three it is likely what kills them, so it is given up and the host told, and the
    game's next post goes out."""
    if dead_holders == 3:
        expect_error("railyard.discord.outbox", r"failed for good \(its delivery outlived 3 processes")
    h = harness
    await h.new_game(ALICE, [BOB])
    fake.fail_next("POST", POSTS, status=503)
    await any_move(h)  # Alice keeps: an edit
    await any_move(h)  # Bob keeps: Alice's turn is a new message, which fails once
    (row,) = [r for r in await h.bot.store.outbox_rows() if r.delivered_at is None]
    lease = h.bot.outbox.lease
    now = row.next_attempt_at
    for n in range(dead_holders):  # each claims it, then dies before recording anything
        (held,) = await h.bot.store.claim_outbox(f"elsewhere:{n}:gone", now, lease)
        assert held.id == row.id
        now += lease + 1
    clock.now = now
    await settle(h, clock)

    final = next(r for r in await h.bot.store.outbox_rows() if r.id == row.id)
    assert final.takeovers == 0  # an outcome was recorded: delivered, or given up
    # the 503 and every takeover are counted (giving up is recorded as one more, as always)
    assert final.attempts == 1 + dead_holders + (dead_holders == 3)
    version = row.payload["version"]
    if dead_holders == 2:
        assert final.delivered_at is not None and not final.dead
        assert version in versions(h) and notices(h) == []
    else:
        assert final.dead and "3 processes in a row" in final.last_error, final.last_error
        assert version not in [v for _, _, v in shown(h)]
        (notice,) = notices(h)
        assert f"<#{CHANNEL}>" in notice.content and notice.content.startswith("⚠️")
        await draw(h)  # the game goes on: Alice's draw reaches the channel
        await settle(h, clock)
        await assert_live_shows_latest(h)
    await all_accounted_for(h)
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
    assert [r.status for r in second_posts] == [503]  # its message was found in the DMs instead
    assert fake.nonce_repeats == []
    assert await all_accounted_for(h) == []
    fake.assert_clean()


async def test_a_step_of_several_posts_whose_answer_was_lost_is_shown_once(harness: Harness, fake, clock,
                                                                           monkeypatch) -> None:
    """Three posts wait (the dispatcher was busy elsewhere), so one step folds them into one new
    message; Discord creates it but the answer is lost. The retry must fold in the same rows
    (stored before sending): it then finds that message in the channel and all three are
    delivered with it. Folding the first row alone would show the other two again in a second
    message."""
    h = harness
    await h.new_game(ALICE, [BOB])
    flush = h.bot.outbox.flush

    async def later() -> int:
        return 0

    monkeypatch.setattr(h.bot.outbox, "flush", later)
    await any_move(h)  # Alice keeps: an edit
    await any_move(h)  # Bob keeps: Alice's turn, a new message
    await draw(h)      # Alice draws: an edit
    waiting = [r for r in await h.bot.store.outbox_rows() if r.delivered_at is None]
    assert len(waiting) == 3
    creates_before = len([r for r in fake.message_payloads if r.kind == "create"])
    fake.fail_next("POST", POSTS, status=503, after=True)
    monkeypatch.setattr(h.bot.outbox, "flush", flush)
    await settle(h, clock)

    created = [r for r in fake.message_payloads if r.kind == "create"][creates_before:]
    assert len(created) == 1, "one new message for the three posts"
    assert fake.nonce_repeats == []
    first = next(r for r in await h.bot.store.outbox_rows() if r.id == waiting[0].id)
    assert first.attempts == 1
    await assert_live_shows_latest(h)
    assert await all_accounted_for(h) == []
    await assert_nothing_lost_or_repeated(h)
    fake.assert_clean()
