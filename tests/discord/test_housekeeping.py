"""The hourly housekeeping sweep through the real bot: an idle lobby closes with a line in its
channel (in the game's language), a lobby someone just joined stays, and the channel is free."""
from __future__ import annotations

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, OTHER, Harness

DAY = 24 * 3600.0


async def sweep(h: Harness) -> None:
    cog = h.bot.get_cog("Housekeeping")
    await cog.sweep.coro(cog)
    await h.idle()


async def test_idle_lobby_closes_with_a_line_and_a_busy_one_stays(harness: Harness, fake, clock) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "language": "ja"})
    await h.slash(BOB, "game new", {"game": "ticket_to_ride"}, channel=OTHER)
    clock.advance(6 * DAY)
    await h.click(h.lobby(OTHER), None, ALICE, label=translate("en", "discord.lobby.join"))
    before = len(h.posts())
    clock.advance(1.5 * DAY)
    await sweep(h)
    closing = h.posts()[before:]
    assert [m.content for m in closing] == ["🛑 " + translate("ja", "session.lobby_expired", {"days": 7})]
    assert (await h.bot.service.status(str(OTHER))).info.status == "lobby"
    await sweep(h)
    assert len(h.posts()) == before + 1, "closed once"
    closed_id = await h.game_id()
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    status = await h.bot.service.status(str(CHANNEL))
    assert status.info.status == "lobby" and status.info.game_id != closed_id, "the channel is free for a new game"
    fake.assert_clean()
