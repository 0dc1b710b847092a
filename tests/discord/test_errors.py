"""Every refusal is answered ephemerally, in words from the catalog, and changes nothing."""
from __future__ import annotations

import logging

import pytest

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, EMPTY, KEN, Harness, find_id
from tests.support import dump_db


async def started_game(h: Harness) -> tuple[int, int, int]:
    """A two-player game past the ticket choice: (game id, user to move, the other user)."""
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)
    await h.keep_tickets(BOB)
    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    return status.info.game_id, mover, ALICE if mover == BOB else BOB


def message(key: str, params: dict | None = None, names=None) -> str:
    return "⚠️ " + translate("en", key, params or {}, names)


async def refused(h: Harness, run, expected: str | None = None):
    """Run one interaction; it must be answered ephemerally and leave the database as it was."""
    before = dump_db(h.db_path)
    posts = len(h.posts())
    result = await run()
    assert result.callback is not None and result.callback.accepted, result
    assert result.ephemeral, result.content
    text = result.content if result.content is not None else ""
    if expected is not None:
        assert text == expected, text
    assert dump_db(h.db_path) == before
    assert len(h.posts()) == posts
    return result


async def test_every_error_path_is_ephemeral_and_changes_nothing(harness: Harness, fake, caplog, expect_error) -> None:
    expect_error('railyard.discord.errors', 'unexpected error in /game log by user 11')
    h = harness
    # no game here
    await refused(h, lambda: h.slash(ALICE, "game status", channel=EMPTY), message("error.no_game_here"))
    await refused(h, lambda: h.slash(ALICE, "move", {"move": "draw deck"}, channel=EMPTY),
                  message("error.no_game_here"))

    game_id, mover, other = await started_game(h)
    status = await h.bot.service.status(str(CHANNEL))
    names = status.names
    post = h.last_post()
    deck = await h.move_button(post, "draw deck")
    claim = await h.move_button(post, "claim")

    # not in this game: a slash command, a public button, the hand button
    not_in = message("error.not_in_game")
    await refused(h, lambda: h.slash(CAROL, "move", {"move": "draw deck"}), not_in)
    await refused(h, lambda: h.click(post, deck, CAROL), not_in)
    await refused(h, lambda: h.click(post, find_id(post, r"ry:\d+:\d+:hand"), CAROL), not_in)
    await refused(h, lambda: h.click(post, claim, CAROL), not_in)
    assert await h.autocomplete(CAROL, "move", focused="move", value="") == []

    # not your turn (it names who the game waits on)
    not_yours = message("error.not_active", {"waiting": status.waiting}, names)
    assert names[status.waiting[0]] in not_yours
    await refused(h, lambda: h.slash(other, "move", {"move": "draw deck"}), not_yours)
    await refused(h, lambda: h.click(post, deck, other), not_yours)
    assert await h.autocomplete(other, "move", focused="move", value="") == []

    # illegal or unreadable moves
    await refused(h, lambda: h.slash(mover, "move", {"move": "fly to the moon"}),
                  message("error.unparsable", {"text": "fly to the moon"}))
    await refused(h, lambda: h.slash(mover, "move", {"move": "claim Nowhere-Elsewhere red"}),
                  message("ticket_to_ride.error.unknown_route", {"route": "nowhere-elsewhere"}))
    await refused(h, lambda: h.slash(mover, "move", {"move": "keep 1,2"}))

    # missing permission: only the host or channel managers may kick, abandon, change settings
    non_host = BOB
    not_host = message("error.not_host")
    await refused(h, lambda: h.slash(non_host, "game kick", {"player": ALICE}), not_host)
    await refused(h, lambda: h.slash(non_host, "game abandon"), not_host)
    await refused(h, lambda: h.slash(non_host, "game settings", {"reminder_minutes": 30}), not_host)

    # a stale button: the board changed since the post → nothing played, said briefly, with
    # the mover's own menu as it is now (the live board is in the channel: not sent again)
    moved = await h.click(post, deck, mover)
    assert moved.ephemeral and "✅" in moved.content
    stale = await refused(h, lambda: h.click_as_drawn(post, deck, mover))
    assert stale.content.startswith("🔄 " + translate("en", "discord.stale.changed"))
    assert not stale.attachments and not stale.original.embeds
    current = await h.bot.service.status(str(CHANNEL))
    assert stale.original.custom_ids and all(f":{current.version}:" in cid for cid in stale.original.custom_ids)

    # an unexpected failure: logged with its context, the user gets an apology
    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    h.bot.service.history = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="railyard.discord.errors"):
        sorry = await refused(h, lambda: h.slash(ALICE, "game log"))
    assert sorry.content == "😓 " + translate("en", "discord.error.unexpected")
    (record,) = [r for r in caplog.records if r.name == "railyard.discord.errors"]
    assert "/game log by user 11" in record.getMessage() and f"channel {CHANNEL}" in record.getMessage()
    assert "disk on fire" in str(record.exc_info[1])
    fake.assert_clean()


@pytest.mark.parametrize("user, locale, lang", [(KEN, "ja", "ja"), (ALICE, "en-GB", "en")])
async def test_errors_follow_the_users_language(harness: Harness, user: int, locale: str, lang: str) -> None:
    result = await harness.slash(user, "game hand", channel=EMPTY, locale=locale)
    assert result.ephemeral
    assert result.content == "⚠️ " + translate(lang, "error.no_game_here")
    harness.fake.assert_clean()
