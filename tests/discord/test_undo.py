"""/game undo explains precisely why there is nothing to take back."""
from __future__ import annotations

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness
from tests.support import dump_db


def warning(lang: str, key: str, **params) -> str:
    return "⚠️ " + translate(lang, key, params)


async def undo_refused(h: Harness, user: int, locale: str = "en-US") -> str:
    before = dump_db(h.db_path)
    result = await h.slash(user, "game undo", locale=locale)
    assert result.ephemeral and dump_db(h.db_path) == before
    return result.content


async def test_undo_by_a_player_who_has_not_moved_yet(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)
    # Bob has made no move at all
    assert await undo_refused(h, BOB) == warning("en", "error.nothing_of_yours_to_undo")

    await h.keep_tickets(BOB)
    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    other = ALICE if mover == BOB else BOB
    # the first player to move kept tickets before the other did, but has not moved in this
    # turn: nothing of theirs can be taken back (not "someone moved since your move")
    assert await undo_refused(h, mover) == warning("en", "error.nothing_of_yours_to_undo")
    assert await undo_refused(h, mover, "ja") == warning("ja", "error.nothing_of_yours_to_undo")

    # the other player's ticket choice was the last move: it can still be taken back, but once
    # the mover has drawn a card (still their turn: one more card), it is too late
    await h.slash(mover, "move", {"move": "draw deck"})
    assert await undo_refused(h, other) == warning("en", "error.undo_not_allowed.someone_moved_since")
    fake.assert_clean()
