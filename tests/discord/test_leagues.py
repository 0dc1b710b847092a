"""A league through the real client and the loopback Discord: eight people sign up on its card,
two rounds of two Ticket to Ride tables, each table a game in its own thread of the league's
channel; players who run out of time forfeit (a bot plays on, they are placed last); the
standings image is posted when each round's last game ends; round 2 seats the leaders together."""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, DANA, GUILD, KEN, MOD, YUKI, Harness

EVE = 18
PEOPLE = [ALICE, BOB, CAROL, MOD, KEN, YUKI, DANA, EVE]
HOUR = 3600.0


def en(key: str, **params) -> str:
    return translate("en", key, params)


async def _tick(h: Harness) -> None:
    timers = h.bot.get_cog("Timers")
    await timers.tick.coro(timers)
    await h.idle()


async def _play_round(h: Harness, clock, threads: dict[int, tuple[int, int]], keepers: dict[int, int],
                      rng: random.Random) -> None:
    """Play each table's game to its end: its keeper moves (with /move in the table's thread,
    the move the game's bot would make); everyone else lets their deadline pass and forfeits."""
    service = h.bot.service
    for _ in range(3000):
        moved = False
        for table, (game_id, thread) in threads.items():
            ld, _ = await service.core.read_id(game_id)
            if ld.row.status != "active":
                continue
            waiting = sorted(ld.game.active_players(ld.state))
            mine = [s for s in waiting if ld.seats[s].user_id == str(keepers[table])]
            if mine:
                action, _ = service.moves.bot_move(ld, mine[0], service.core.bot_names(ld.game)[0],
                                                   salt=str(rng.random()))
                reply = await h.slash(keepers[table], "move", {"move": ld.game.format_action(action)}, channel=thread)
                assert reply.ephemeral, reply.content
                moved = True
        if not moved:
            statuses = [(await service.core.read_id(g))[0].row.status for g, _ in threads.values()]
            if all(s == "finished" for s in statuses):
                return
            clock.advance(24 * HOUR + 1)  # the others' time runs out
            await _tick(h)
    raise AssertionError("the round did not end")


async def _league_threads(h: Harness, fake, league_id: int, round_no: int) -> dict[int, tuple[int, int]]:
    """table number -> (its game, its thread)"""
    async with h.bot.store.read() as tx:
        tables = await tx.league_tables(league_id, round_no)
        rows = {t.table_no: await tx.get_game(t.game_id) for t in tables}
    return {n: (row.id, int(row.channel_id)) for n, row in rows.items()}


@pytest.mark.slow  # four whole games through the real client
async def test_a_league_of_eight_over_two_rounds(harness: Harness, fake, clock) -> None:
    h = harness
    fake.add_member(GUILD, EVE, name="eve")
    fake.guilds[GUILD].owner_id = CAROL  # she may manage the server: the league's organiser
    await h.slash(CAROL, "league ratings", {"on": True})

    refused = await h.slash(MOD, "league open", {"name": "Autumn Cup", "game": "ticket_to_ride", "rounds": 2})
    assert refused.content == "⚠️ " + en("discord.error.missing_permission")
    opened = await h.slash(CAROL, "league open", {"name": "Autumn Cup", "game": "ticket_to_ride", "rounds": 2,
                                                  "table": 4, "deadline_hours": 24})
    assert opened.ephemeral and opened.content == "✅ " + en("discord.leagues.opened", name="Autumn Cup")
    again = await h.slash(CAROL, "league open", {"name": "Autumn Cup", "game": "steam", "rounds": 1})
    assert again.content == "⚠️ " + en("error.league_exists", name="Autumn Cup")
    card = h.posts(CHANNEL)[-1]
    assert "Autumn Cup" in str(card.embeds[0]) and len(card.custom_ids) == 2
    join_id = next(c for c in card.custom_ids if c.endswith(":lj"))
    leave_id = next(c for c in card.custom_ids if c.endswith(":lv"))
    league_id = int(join_id.split(":")[1])

    for user in PEOPLE:
        joined = await h.click(card, join_id, user)
        assert not joined.ephemeral  # the card redrawn in place
    twice = await h.click(card, join_id, ALICE)
    assert twice.ephemeral and twice.content == "⚠️ " + en("error.league_already_in")
    await h.click(card, leave_id, EVE)
    await h.click(card, join_id, EVE)
    card = fake.message(card.id)
    assert "Players (8)" in str(card.embeds[0]) and "eve" in str(card.embeds[0]).lower()

    choices = await h.autocomplete(CAROL, "league round", focused="league", value="autumn")
    assert [c["value"] for c in choices] == [str(league_id)]
    forged = await h.slash(CAROL, "league round", {"league": "12345"})
    assert forged.content == "⚠️ " + en("error.no_league")

    rng = random.Random(7)
    keepers_by_round: dict[int, dict[int, int]] = {}
    for round_no in (1, 2):
        started = await h.slash(CAROL, "league round", {"league": str(league_id)})
        assert started.content == "✅ " + en("discord.leagues.round_opened", name="Autumn Cup", round=round_no, count=2)
        card = fake.message(card.id)
        assert not card.components and f"Round {round_no} of 2 is being played" in str(card.embeds[0])
        threads = await _league_threads(h, fake, league_id, round_no)
        assert len(threads) == 2 and all(fake.channels[t].is_thread for _, t in threads.values())
        assert all(fake.channels[t].parent_id == CHANNEL for _, t in threads.values())
        seated: dict[int, list[int]] = {}
        for table, (_, thread) in threads.items():
            first = h.game_posts(thread)
            assert first, "the table's game posts its board in its thread"
            status = await h.bot.service.status(str(thread))
            seated[table] = [int(s.user_id) for s in status.info.seats]
            assert len(seated[table]) == 4
        assert sorted(u for users in seated.values() for u in users) == sorted(PEOPLE)
        if round_no == 2:  # the two who won round 1 lead the standings: seated together
            winners = set(keepers_by_round[1].values())
            assert any(winners <= set(users) for users in seated.values())
        early = await h.slash(CAROL, "league round", {"league": str(league_id)})
        assert early.content.startswith("⚠️ ") and "still being played" in early.content
        keepers = {table: users[table % 2] for table, users in seated.items()}
        keepers_by_round[round_no] = keepers
        await _play_round(h, clock, threads, keepers, rng)
        await h.idle()
        post = h.posts(CHANNEL)[-1]
        (picture,) = post.attachments
        assert picture.filename == "standings.png"
        image = Image.open(io.BytesIO(picture.data))
        assert image.width >= 800 and image.height > 8 * 50
        if round_no == 1:
            assert post.content.startswith("🏁") and "round 1 of 2 is over" in post.content
        else:
            assert post.content.startswith("🏆") and "is over" in post.content
        assert "forfeit" in picture.description

    assert "All 2 rounds have been played" in str(fake.message(card.id).embeds[0])
    standings = await h.bot.service.league_standings(league_id, str(GUILD))
    assert standings.status == "finished" and sum(line.played for line in standings.lines) == 16
    assert sum(line.forfeits for line in standings.lines) == 12  # three a table: only its keeper played
    top = {line.user_id for line in standings.lines if line.rank == 1}
    assert top <= {str(u) for keepers in keepers_by_round.values() for u in keepers.values()}
    shown = await h.slash(DANA, "stats standings", {"league": str(league_id)}, locale="ja")
    (picture,) = shown.original.attachments
    assert picture.filename == "standings.png" and "最終順位" in picture.description
    over = await h.slash(CAROL, "league round", {"league": str(league_id)})
    assert over.content == "⚠️ " + en("error.league_over")
    board = await h.bot.service.leaderboard(str(GUILD), "ticket_to_ride")
    assert len(board.lines) == 8  # forfeits are rated too: as last places
    fake.assert_clean()
