"""/league and /stats through the real client and the loopback Discord: only those who may
manage the server turn its ratings on; games played to the end are rated; the leaderboard is an
image legible at 400 px, the profile is text in the viewer's language."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD, Harness


def en(key: str, **params) -> str:
    return translate("en", key, params)


async def _finish_ticket_to_ride(h: Harness, rng: random.Random, *, follower: int | None = None) -> None:
    """A Ticket to Ride game between Alice and Bob played to its end with /move, each move the
    game's bot would make (`follower` follows it, a DM every 25 moves)."""
    await h.new_game(ALICE, [BOB])
    if follower is not None:
        followed = await h.slash(follower, "game follow", {"every": 25})
        assert followed.ephemeral and followed.content.startswith("👀")
    service = h.bot.service
    for _ in range(2000):
        status = await service.status(str(CHANNEL))
        if status.info.status != "active":
            return
        ld, _ = await service.core.read_channel(str(CHANNEL))
        seat = status.waiting[0]
        user = int(ld.seats[seat].user_id)
        action, _ = service.moves.bot_move(ld, seat, service.core.bot_names(ld.game)[0], salt=str(rng.random()))
        moved = await h.slash(user, "move", {"move": ld.game.format_action(action)})
        assert moved.ephemeral, moved.content
    raise AssertionError("the game did not end")


@pytest.mark.slow  # a whole game through the real client
async def test_ratings_are_the_servers_call_and_show_as_a_leaderboard_and_profiles(harness: Harness, fake) -> None:
    h = harness
    commands = {c["name"]: c for c in fake.commands[GUILD]}
    assert int(commands["league"]["default_member_permissions"]) == 32  # Manage Server
    refused = await h.slash(MOD, "league ratings", {"on": True})  # may manage channels, not the server
    assert refused.ephemeral and refused.content == "⚠️ " + en("discord.error.missing_permission")
    assert await h.bot.service.rating_rules(str(GUILD)) is None

    fake.guilds[GUILD].owner_id = CAROL  # the server's owner may manage it
    on = await h.slash(CAROL, "league ratings", {"on": True})
    assert on.content == "✅ " + en("discord.league.on")
    await _finish_ticket_to_ride(h, random.Random(2))

    board = await h.slash(CAROL, "stats board", {"game": "ticket_to_ride"})
    (picture,) = board.original.attachments
    image = Image.open(io.BytesIO(picture.data))
    assert image.width >= 800 and image.height > 96 + 2 * 50  # a row per player
    assert "Alice" in picture.description and "Bob" in picture.description

    profile = await h.slash(CAROL, "stats profile", {"player": str(ALICE)}, locale="ja")
    assert profile.content.startswith("📊 **Alice** — 1戦")
    assert "最長経路" in profile.content and "レーティング" in profile.content and "Bob" in profile.content
    none = await h.slash(CAROL, "stats profile")
    assert none.content == en("discord.stats.no_games", name="Carol")
    rebuilt = await h.slash(CAROL, "league rebuild")
    assert rebuilt.content == "✅ " + translate("en", "discord.league.rebuilt", {"count": 1})
    fake.assert_clean()


@pytest.mark.slow  # a whole game through the real client
async def test_the_final_post_offers_a_rematch_that_the_players_open_and_join(harness: Harness, fake) -> None:
    h = harness
    await _finish_ticket_to_ride(h, random.Random(5), follower=CAROL)
    await h.idle()
    dms = [m for m in fake.dm_messages(CAROL) if m.interaction_id is None]
    assert len(dms) >= 2 and all(m.content.startswith("👀") and not m.components for m in dms)
    assert any(a.filename == "final.png" for a in dms[-1].attachments)  # the end, with its final images
    assert all(a.filename == "board.png" for m in dms[:-1] for a in m.attachments)
    final = h.last_post(CHANNEL)
    rematch_id = next(cid for cid in final.custom_ids if cid.endswith(":rematch"))
    refused = await h.click(final, rematch_id, CAROL)  # not one of its players
    assert refused.ephemeral and refused.content == "⚠️ " + en("error.not_in_game")
    opened = await h.click(final, rematch_id, BOB)
    assert opened.ephemeral and opened.content == "✅ " + en("discord.rematch.opened")
    lobby = h.lobby(CHANNEL)
    assert "Bob" in str(lobby.embeds[0]) and "Alice" not in str(lobby.embeds[0])
    joined = await h.click(final, rematch_id, ALICE)
    assert joined.content == "✅ " + en("discord.rematch.joined")
    lobby = h.lobby(CHANNEL)  # the public lobby shows her at once
    assert "Alice" in str(lobby.embeds[0])
    fake.assert_clean()
