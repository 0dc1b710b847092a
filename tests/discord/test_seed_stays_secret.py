"""The seed a game was dealt from stays on the server: no stored outbox payload (a post carries
the game's view), live board, timer or action row, and nothing Discord was sent, publicly or
privately, shows it or a number drawn from it (tests/support/protocol_checks.py `Secrets`).
The games' own views are checked at every step by tests/games/test_views_keep_the_seed.py;
this is the same promise end to end, through the real client on the loopback Discord."""
from __future__ import annotations

import json
import random

import pytest

from games import registry
from tests.discord.conftest import ALICE, CHANNEL, Harness, _label
from tests.support import dump_db
from tests.support.protocol_checks import watching_randomness

SEED = 7_318_349_394_477_056_019  # 63 random bits, as a new game's seed is drawn
MOVES = 15  # Alice's moves: the setup and some turns, with bots moving in between


@pytest.mark.parametrize("name", ["catan_express", "steam"])
async def test_no_stored_post_or_sent_message_shows_the_seed(harness: Harness, name: str) -> None:
    h = harness
    game = registry.get(name)
    h.first_seed = SEED
    with watching_randomness(SEED) as secrets:
        await h.restart()
        opened = await h.slash(ALICE, "game new", {"game": name})
        assert opened.ephemeral, opened.content
        lobby = h.lobby()
        for _ in range(2):
            await h.click(lobby, None, ALICE, label=_label("discord.lobby.add_bot", "en"))
        await h.click(lobby, None, ALICE, label=_label("discord.lobby.start", "en"))
        status = await h.bot.service.status(str(CHANNEL))
        game_id = status.info.game_id
        seat = next(s.seat for s in status.info.seats if s.user_id == str(ALICE))
        bot = game.bots()[next(iter(game.bots()))]
        rng = random.Random(1)
        for _ in range(MOVES):
            status = await h.bot.service.status(str(CHANNEL))
            if status.info.status != "active" or str(ALICE) not in status.waiting_user_ids:
                break
            state = await h.bot.service.rebuild(game_id)
            move = game.format_action(bot.choose(game, state, seat, rng))
            typed = await h.slash(ALICE, "move", {"move": move})
            assert typed.ephemeral and "✅" in typed.content, typed.content
        hand = await h.slash(ALICE, "game hand")  # a player's own part, privately (Steam has no button for it)
        assert hand.ephemeral and hand.attachments
        assert (await h.bot.service.rebuild(game_id)).seed == SEED  # the rules still deal from it
    assert len(h.game_posts()) > 1

    # every stored row but the game's own (its seed and snapshot are the server's record)
    rows = {table: found for table, found in dump_db(h.db_path).items() if table != "games"}
    assert rows["outbox"] and rows["live_boards"]
    for table, found in rows.items():
        for row in found:
            assert not secrets.found_in(str(row)), (table, secrets.found_in(str(row)))
    for payload in [*h.fake.public_payloads(), *h.fake.ephemeral_payloads()]:
        text = json.dumps(payload.payload, ensure_ascii=False)
        assert not secrets.found_in(text), (payload.path, secrets.found_in(text))
    h.fake.assert_clean()

