"""A game's final post (its result, final board, chart and timelapse) is published, whatever
happens to the processes delivering it: one that sent it and died before recording it does
not make the next one give it up (the next finds the message in the channel), and ones that
die while drawing it make the next send it lighter (without the timelapse, then without
images) rather than give it up. The dispatcher runs in this process, against the loopback
Discord; the holders that "died" are claims another owner took and never finished, as a
SIGKILLed process leaves them (tests/discord/test_processes.py kills real ones)."""
from __future__ import annotations

import pytest

from bot.sessions.live import LiveBoard
from games.core.i18n import translate
from tests.discord.conftest import ALICE, CHANNEL, Harness
from tests.discord.test_alt_text import _play_out
from tests.discord.test_delivery_faults import all_accounted_for, notices, settle

POSTS = f"/channels/{CHANNEL}/messages"
FINAL_FILES = {"board.png", "final.png", "timelapse.webp"}


def is_final(rec) -> bool:
    """A post of the game's final message (the only one with the final chart)."""
    return any(f.filename == "final.png" for f in rec.files)


def finals(h: Harness) -> list:
    """The channel's messages that publish the result."""
    title = translate("en", "discord.result.title", {"game": translate("en", "ginga.title")})
    return [m for m in h.posts() if m.embeds and m.embeds[0].get("title") == title]


async def finish_a_game(h: Harness) -> int:
    """Alice plays Galactic Railway against a bot to its end; returns the game's id."""
    opened = await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
    game_id = await h.game_id()
    await _play_out(h, ALICE)
    return game_id


async def holders_die(h: Harness, row, count: int) -> None:
    """`count` processes claim the row in turn, and each dies before recording anything
    (its lease runs out); then the clock is where the next claim is a takeover."""
    lease = h.bot.outbox.lease
    now = max(row.next_attempt_at, h.clock.now)
    for n in range(count):
        (held,) = await h.bot.store.claim_outbox(f"elsewhere:{n}:gone", now, lease)
        assert held.id == row.id
        now += lease + 1
    h.clock.now = now


async def final_row(h: Harness, game_id: int):
    (row,) = [r for r in await h.bot.store.outbox_rows(game_id) if r.payload.get("finished")]
    return row


async def test_a_final_post_sent_before_its_holders_died_is_found_not_given_up(harness: Harness, fake, clock) -> None:
    """Discord made the final post, but its answer never came back (the holder died, or the
    answer was lost), and then three holders in a row died before recording anything. The
    next one finds the message in the channel and delivers the row with it: the result is
    published once, and nobody is told the post was broken."""
    h = harness
    fake.fail_next("POST", POSTS, status=503, after=True, match=is_final)
    game_id = await finish_a_game(h)
    row = await final_row(h, game_id)
    assert row.delivered_at is None and row.attempts == 1
    (sent,) = finals(h)  # made on the first try, with everything
    assert {a.filename for a in sent.attachments} == FINAL_FILES
    await holders_die(h, row, 3)
    await settle(h, clock)

    done = await final_row(h, game_id)
    assert done.delivered_at is not None and not done.dead and done.takeovers == 0
    assert finals(h) == [sent]
    assert [r.nonce for r in fake.requests_to("POST", POSTS) if is_final(r)] == [sent.nonce]  # never sent again
    assert notices(h) == [] and fake.dm_messages(ALICE) == []
    board = LiveBoard.model_validate_json(await h.bot.store.live_board(game_id))
    assert board.closed and board.message_id == str(sent.id)
    assert await all_accounted_for(h) == []
    fake.assert_clean()


@pytest.mark.parametrize("dead_holders, files", [
    (1, {"board.png", "final.png"}),  # the timelapse takes longest to draw: left out first
    (2, set()),  # then every image
    (3, set()),  # what an ordinary post is given up after: the final post still goes out
    (4, set()),
])
@pytest.mark.slow  # a whole game
async def test_a_final_post_whose_holders_die_drawing_it_goes_out_lighter(
        harness: Harness, fake, clock, dead_holders: int, files: set[str]) -> None:
    h = harness
    fake.fail_next("POST", POSTS, status=503, match=is_final)  # refused, nothing made
    game_id = await finish_a_game(h)
    assert finals(h) == []
    await holders_die(h, await final_row(h, game_id), dead_holders)
    await settle(h, clock)

    done = await final_row(h, game_id)
    assert done.delivered_at is not None and not done.dead
    (final,) = finals(h)
    assert {a.filename for a in final.attachments} == files
    assert final.embeds[0]["fields"] and "🏁" in final.content  # the result itself is all there
    assert not [e for e in final.embeds if (e.get("image") or {}).get("url", "").startswith("attachment://")
                and not files], "no embed points at a picture that was left out"
    assert notices(h) == [] and fake.dm_messages(ALICE) == []
    assert await all_accounted_for(h) == []
    fake.assert_clean()


async def test_a_final_post_is_given_up_only_when_even_its_words_outlived_three_holders(
        harness: Harness, fake, clock, expect_error) -> None:
    """A post that kills every process delivering it must not take them all down forever:
    when even the words-only form outlived three holders in a row (after the two lighter
    forms had their own), and the channel shows no such message, it is given up and the
    host told."""
    expect_error('railyard.discord.outbox', 'failed for good \\(its delivery outlived 5 processes')
    h = harness
    fake.fail_next("POST", POSTS, status=503, match=is_final)
    game_id = await finish_a_game(h)
    await holders_die(h, await final_row(h, game_id), 5)
    await settle(h, clock)

    done = await final_row(h, game_id)
    assert done.dead and "5 processes in a row" in done.last_error, done.last_error
    assert finals(h) == []
    assert fake.requests_to("GET", POSTS), "the channel was looked at first"
    (notice,) = notices(h)
    assert notice.content.startswith(f"⚠️ <@{ALICE}> ")
    fake.assert_clean()


async def test_a_lighter_final_post_found_by_the_next_holder_is_not_sent_again(harness: Harness, fake, clock) -> None:
    """The holder that sent the final post without its timelapse died before recording it:
    the next holder finds that one (its words are the same whatever the form) and sends
    nothing."""
    h = harness
    fake.fail_next("POST", POSTS, status=503, match=is_final)
    game_id = await finish_a_game(h)
    await holders_die(h, await final_row(h, game_id), 1)
    fake.fail_next("POST", POSTS, status=503, after=True, match=is_final)  # made, answer lost
    await h.idle()
    (sent,) = finals(h)
    assert {a.filename for a in sent.attachments} == {"board.png", "final.png"}
    row = await final_row(h, game_id)
    assert row.delivered_at is None
    await holders_die(h, row, 2)
    await settle(h, clock)
    assert finals(h) == [sent] and (await final_row(h, game_id)).delivered_at is not None
    assert len([r for r in fake.requests_to("POST", POSTS) if is_final(r)]) == 2  # refused, lost; none after
    fake.assert_clean()

