"""Forced moves through Discord, on the bid game whose players can only pass once the bid has
reached everyone's money (tests/support/bid_game.py FORCED): the bot makes those passes at once,
says so in the channel in the game's language, marks them in the game log, and pings nobody
for them."""
from __future__ import annotations

import pytest

from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, KEN, Harness
from tests.discord.test_standing_orders import start_bid
from tests.support.bid_game import MONEY, words
from tests.support.registered import registered_games


@pytest.fixture
def forced_game():
    with registered_games(bid_forced="tests.support.bid_game:FORCED"), words():
        yield registry.get("bid_forced")


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("ja", "ja")])
async def test_forced_passes_are_made_announced_and_ping_nobody(harness: Harness, fake, forced_game,
                                                                locale, lang) -> None:
    h = harness
    seats = await start_bid(h, "bid_forced", (ALICE, BOB, KEN if lang == "ja" else CAROL), locale)
    game_id = await h.game_id()
    before = len(h.posts())
    await h.slash(seats[0], "move", {"move": f"bid {MONEY}"}, locale=locale)
    log = await h.bot.store.actions(game_id)
    assert [(a.seat, a.notation, a.auto) for a in log] == [(0, f"bid {MONEY}", None), (1, "pass", "forced"),
                                                           (2, "pass", "forced")]
    assert (await h.bot.store.get_game(game_id)).status == "finished"
    posted = "\n".join(p.content for p in fake.messages(CHANNEL, ephemeral=False)
                       if p.author.id == fake.application_id)
    # both passes are said to be forced, in the game's language (the words between the name and the move)
    middle = translate(lang, "session.forced_move", {"seat": "\x00", "move": "\x00"}).split("\x00")[1]
    assert middle and posted.count(middle) == 2, posted
    mentioned = {m.id for p in h.posts()[before:] for m in p.mentions}
    assert seats[1] not in mentioned and seats[2] not in mentioned
    shown = await h.slash(seats[0], "game log", locale=locale)
    assert shown.original.embeds[0]["description"].count("⏭️") == 2
