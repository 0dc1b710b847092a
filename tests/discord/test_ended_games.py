"""Posts of a game that is over (finished or abandoned) stay in the channel: their buttons and
the board images shown afterwards must say the game has ended, never show an old hand or
whose turn it was."""
from __future__ import annotations

import pytest

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id
from tests.support import dump_db


def en(key: str, params: dict | None = None, names=None) -> str:
    return translate("en", key, params or {}, names)


GAME_ENDED = "🔄 " + en("discord.error.game_ended")


async def click_hand_after_the_end(h: Harness, post, hand_id: str, user: int) -> str:
    """Click "Show my hand" on an old post (taken off the live board at the end, so as a
    client still showing it would): answered privately, nothing written, no hand."""
    before = dump_db(h.db_path)
    result = await h.click_as_drawn(post, hand_id, user)
    assert result.ephemeral and dump_db(h.db_path) == before
    assert "hand.png" not in [a.filename for a in result.attachments]
    assert not [cid for cid in result.original.custom_ids if ":cg:" in cid or ":hand" in cid]
    return result.content or ""


async def test_show_my_hand_on_a_post_of_an_abandoned_game_says_it_ended(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)  # Bob still has tickets to choose: his hand would offer them
    post = h.last_post()
    hand_id = find_id(post, r"ry:\d+:\d+:hand")
    await h.slash(ALICE, "game abandon")
    assert find_id(fake.message(post.id), r"ry:\d+:\d+:hand") is None, "the ended board lost its buttons"
    for user in (ALICE, BOB):
        text = await click_hand_after_the_end(h, post, hand_id, user)
        assert text.startswith(GAME_ENDED), text
        assert en("discord.hand.not_your_turn") not in text
        assert en("discord.status.abandoned") in text
    fake.assert_clean()


async def test_show_my_hand_on_a_post_of_a_finished_game_says_it_ended(harness: Harness, fake, toy_game) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "toy", "options": "rounds=1"})
    await h.click(h.lobby(), None, BOB, label=en("discord.lobby.join"))
    await h.click(h.lobby(), None, ALICE, label=en("discord.lobby.start"))
    first = next(p for p in h.posts() if find_id(p, r"ry:\d+:\d+:hand"))
    first_hand = find_id(first, r"ry:\d+:\d+:hand")
    for user in (ALICE, BOB):
        await h.slash(user, "move", {"move": "open red"})
    for _ in range(2):
        status = await h.bot.service.status(str(CHANNEL))
        await h.slash(int(status.waiting_user_ids[0]), "move", {"move": "pass"})
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"
    for user in (ALICE, BOB):
        text = await click_hand_after_the_end(h, first, first_hand, user)
        assert text.startswith(GAME_ENDED), text
        assert en("discord.status.finished") in text
    fake.assert_clean()


@pytest.fixture
def drawn_text(monkeypatch) -> list[str]:
    """Every text the renderers measure or draw (all of it goes through the kit's cleaner)."""
    from render.kit import text as kit_text

    seen: list[str] = []
    original = kit_text._clean

    def recording(text: str) -> str:
        seen.append(text)
        return original(text)

    monkeypatch.setattr(kit_text, "_clean", recording)
    return seen


async def test_the_board_of_an_abandoned_game_says_so_not_whose_turn(harness: Harness, fake, drawn_text) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)
    await h.keep_tickets(BOB)
    status = await h.bot.service.status(str(CHANNEL))
    names = status.names
    turn_of = en("render.turn_of", {"seat": status.waiting[0]}, names)
    post = h.last_post()
    deck = await h.move_button(post, "draw deck")
    await h.slash(ALICE, "game abandon")

    # /game status, and a stale click on the old post, both show the last board
    for look in (lambda: h.slash(BOB, "game status"), lambda: h.click_as_drawn(post, deck, BOB)):
        drawn_text.clear()
        shown = await look()
        assert shown.ephemeral and en("discord.status.abandoned") in shown.content
        assert [a.filename for a in shown.attachments] == ["board.png"]
        assert turn_of not in drawn_text
        assert en("render.kit.abandoned") in drawn_text
        # the status embed beside the board says it too, not whose turn it was
        assert shown.original.embeds[0]["description"] == en("discord.status.abandoned")
    fake.assert_clean()
