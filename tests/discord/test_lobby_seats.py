"""How many seats a lobby has: `/game new players:` offers what the chosen game takes, and the
lobby starts by itself at the count stored with it, whatever a button's custom id says."""
from __future__ import annotations

import re

from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, find_id
from tests.support import dump_db


def en(key: str, **params) -> str:
    return translate("en", key, params)


# ------------------------------------------------------------------------------ players picker
async def test_the_players_picker_offers_what_the_chosen_game_takes(harness: Harness, fake, toy_game) -> None:
    h = harness
    names = registry.names()
    assert "toy" in names  # a game registered by the tests gets its own range (2–4) too
    for name in names:
        game = registry.get(name)
        choices = await h.autocomplete(ALICE, "game new", {"game": name}, focused="players", value="")
        assert [c["value"] for c in choices] == list(range(game.min_players, game.max_players + 1))
        assert [c["name"] for c in choices] == [en("discord.players.choice", count=n)
                                               for n in range(game.min_players, game.max_players + 1)]
    ja = await h.autocomplete(ALICE, "game new", {"game": "ticket_to_ride"}, focused="players", value="",
                              locale="ja")
    assert [c["name"] for c in ja] == [translate("ja", "discord.players.choice", {"count": n}) for n in range(2, 6)]
    # what is typed narrows the list; without a known game there is nothing to offer
    assert await h.autocomplete(ALICE, "game new", {"game": "ticket_to_ride"}, focused="players",
                                value="4") == [{"name": en("discord.players.choice", count=4), "value": 4}]
    assert await h.autocomplete(ALICE, "game new", focused="players", value="") == []
    assert await h.autocomplete(ALICE, "game new", {"game": "chess"}, focused="players", value="") == []
    fake.assert_clean()


async def test_any_other_number_of_players_gets_the_clear_error(harness: Harness, fake) -> None:
    h = harness
    before = dump_db(h.db_path)
    for typed in (0, 1, 6, 11):
        refused = await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "players": typed})
        assert refused.ephemeral and refused.content == "⚠️ " + en("discord.error.players", min=2, max=5)
        ja = await h.slash(ALICE, "game new", {"game": "ginga", "players": typed}, locale="ja")
        assert ja.content == "⚠️ " + translate("ja", "discord.error.players", {"min": 2, "max": 4})
    assert dump_db(h.db_path) == before and h.posts() == []
    fake.assert_clean()


# ------------------------------------------------------------------------------ forged custom ids
async def forged_click(h: Harness, message, real_id: str, forged_id: str, user: int):
    """Click a button whose custom id a modified client changed before sending it."""
    component = message.component(real_id)
    assert component is not None, message.custom_ids
    component["custom_id"] = forged_id
    return await h.click(message, forged_id, user)


async def lobby_status(h: Harness) -> tuple[str, int]:
    status = await h.bot.service.status(str(CHANNEL))
    return status.info.status, len(status.info.seats)


async def test_a_forged_join_id_starts_nothing(harness: Harness, fake) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    lobby = h.lobby()
    gid = await h.game_id()
    # the lobby's buttons name what they do, never a seat count
    assert {f"ry:{gid}:0:join", f"ry:{gid}:0:bot", f"ry:{gid}:0:start"} <= set(lobby.custom_ids)

    # "join:2" would have started the game at two seats on the host's behalf
    joined = await forged_click(h, lobby, f"ry:{gid}:0:join", f"ry:{gid}:0:join:2", BOB)
    assert joined.callback_type == 7
    assert await lobby_status(h) == ("lobby", 2)
    assert h.game_posts() == [] and find_id(fake.message(lobby.id), rf"ry:{gid}:0:start")
    # so would "bot:3" from the host's own client
    lobby = fake.message(lobby.id)
    await forged_click(h, lobby, f"ry:{gid}:0:bot", f"ry:{gid}:0:bot:3", ALICE)
    assert await lobby_status(h) == ("lobby", 3)
    assert h.game_posts() == []
    # the host starts it
    await h.click(fake.message(lobby.id), f"ry:{gid}:0:start", ALICE)
    assert (await lobby_status(h))[0] == "active"
    fake.assert_clean()


async def test_the_lobby_starts_at_its_stored_count_only(harness: Harness, fake) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "players": 3})
    lobby = h.lobby()
    gid = await h.game_id()
    assert en("discord.lobby.autostart", count=3) in lobby.embeds[0]["description"]
    await forged_click(h, lobby, f"ry:{gid}:0:join", f"ry:{gid}:0:join:2", BOB)
    assert await lobby_status(h) == ("lobby", 2)
    assert h.game_posts() == []

    # the count lives with the lobby, not in the running process
    await h.restart()
    lobby = fake.message(lobby.id)
    started = await h.click(lobby, f"ry:{gid}:0:join", CAROL)
    assert started.callback_type == 7
    assert await lobby_status(h) == ("active", 3)
    assert en("discord.lobby.started") == fake.message(lobby.id).embeds[0]["description"]
    assert {u.id for u in h.last_post().mentions} <= {ALICE, BOB, CAROL}
    fake.assert_clean()


async def test_forged_move_and_lobby_ids_grant_nothing(harness: Harness, fake) -> None:
    """Ids only say what was clicked: the rules and the service decide what it may do."""
    h = harness
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    lobby = h.lobby()
    gid = await h.game_id()
    await h.click(lobby, f"ry:{gid}:0:join", BOB)
    before = dump_db(h.db_path)
    # only the host starts, whatever the button
    refused = await forged_click(h, fake.message(lobby.id), f"ry:{gid}:0:join", f"ry:{gid}:0:start", BOB)
    assert refused.content == "⚠️ " + en("error.not_host")
    assert dump_db(h.db_path) == before

    await h.click(fake.message(lobby.id), f"ry:{gid}:0:start", ALICE)
    await h.keep_tickets(ALICE)
    await h.keep_tickets(BOB)
    status = await h.bot.service.status(str(CHANNEL))
    mover = int(status.waiting_user_ids[0])
    post = h.last_post()
    deck = await h.move_button(post, "draw deck")
    before = dump_db(h.db_path)
    # a pick that is not on the clicker's menu, sent as a button: an id only names a choice
    route = f"ry:{gid}:{status.version}:cb:v::99"
    refused = await forged_click(h, post, deck, route, mover)
    assert refused.ephemeral and refused.content.startswith("⚠️ "), refused.content
    assert "understand" not in refused.content  # refused by the rules, not as garbage
    assert dump_db(h.db_path) == before
    # log pages turn on the private /game log reply; on a public post the page is answered
    # privately and the post stays as it is
    post = fake.message(post.id)
    shown = (post.content, post.embeds, len(post.custom_ids))
    paged = await forged_click(h, post, find_id(post, r"ry:\d+:\d+:hand"), f"ry:{gid}:0:log:1", BOB)
    assert paged.ephemeral and paged.callback_type != 7
    assert paged.original.embeds[0]["title"] == en("discord.log.title", game=en("ticket_to_ride.title"))
    post = fake.message(post.id)
    assert (post.content, post.embeds, len(post.custom_ids)) == shown
    fake.assert_clean()
