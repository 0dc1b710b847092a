"""/away, the daily digest and time banks through the real client and the loopback Discord,
with a clock moved by hand: an away player is not pinged, the game waits for them or a bot
plays for them (and says so), they get one DM at their return; a digest replaces the pings
with one DM a day listing exactly the games waiting; a time bank shows on the board post."""
from __future__ import annotations

import random
import re
from datetime import datetime, timezone

import pytest

from bot.sessions.hours import asleep
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, GUILD, OTHER, Harness
from tests.discord.test_timers import reminders_in, tick

HOUR = 3600.0


def en(key: str, **params) -> str:
    return translate("en", key, params)


def ja(key: str, **params) -> str:
    return translate("ja", key, params)


def at(day: int, hour: int) -> float:
    return datetime(2026, 3, day, hour, tzinfo=timezone.utc).timestamp()


def pinged(message) -> set[int]:
    return {u.id for u in message.mentions}


async def test_an_away_player_is_left_alone_and_told_once_at_their_return(harness: Harness, fake, clock) -> None:
    h = harness
    clock.now = at(10, 8)
    commands = {c["name"]: c for c in fake.commands[GUILD]}
    assert commands["away"]["name_localizations"] == {"ja": "不在"}
    refused = await h.slash(BOB, "away", {"until": "someday"})
    assert refused.ephemeral and refused.content == "⚠️ " + en("error.bad_away_until", value="someday")
    assert not (await h.bot.service.user_prefs(str(BOB))).away_until
    offered = await h.autocomplete(BOB, "away", {}, focused="until", value="")
    assert [c["value"] for c in offered][:2] == ["off", "3d"]

    away = await h.slash(BOB, "away", {"until": "3d"}, locale="ja")
    back_at = int(at(13, 8))
    assert away.ephemeral and away.content == "🏖️ " + ja("discord.away.set", until=f"<t:{back_at}:f>")
    await h.new_game(ALICE, [BOB])
    post = h.last_post(CHANNEL)
    assert pinged(post) == {ALICE}  # both keep tickets; only Alice is pinged
    assert f"<t:{back_at}:f>" in post.content and "Bob" in post.content

    clock.now = at(11, 9)  # a reminder's time: Alice is reminded, Bob is not
    await tick(h)
    assert reminders_in(h) and all(BOB not in pinged(r) for r in reminders_in(h))
    assert fake.dm_messages(BOB) == []

    clock.now = at(13, 8)  # back: one DM, in the language he last used (joining), naming the game
    await tick(h)
    await tick(h)
    (dm,) = [m for m in fake.dm_messages(BOB) if m.interaction_id is None]
    assert dm.content.startswith(en("discord.returned.title", count=1))
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}" in dm.content
    assert "↳" in dm.content  # what the game asks of him
    fake.assert_clean()


async def test_a_bot_plays_for_the_away_where_the_host_allows_it(harness: Harness, fake, clock) -> None:
    h = harness
    clock.now = at(10, 8)
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    saved = await h.slash(ALICE, "game settings", {"away_bot": True})
    assert en("discord.settings.away_bot") in saved.content
    await h.slash(BOB, "away", {"until": "2d"})
    lobby = h.lobby(CHANNEL)
    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    await h.idle()
    words = "\n".join(m.content for m in h.posts(CHANNEL))
    assert "Bob is away, so a bot made their move" in words
    game_id = await h.game_id()
    actions = await h.bot.service.store.actions(game_id)
    assert [a.auto for a in actions if a.seat == 1] == ["away"]
    back = await h.slash(BOB, "away", {"until": "off"})
    assert back.ephemeral and back.content.startswith("👋")
    assert not (await h.slash(BOB, "away")).content.startswith("🏖️")
    fake.assert_clean()


async def test_the_digest_replaces_pings_with_one_dm_listing_exactly_the_games_waiting(
        harness: Harness, fake, clock) -> None:
    h = harness
    clock.now = at(10, 2)
    saved = await h.slash(BOB, "me", {"digest": "9"})
    assert en("discord.me.digest", hour="09:00", next=f"<t:{int(at(10, 9))}:R>") in saved.content
    await h.new_game(ALICE, [BOB], channel=CHANNEL)
    await h.new_game(ALICE, [BOB], channel=OTHER)
    assert all(BOB not in pinged(m) for m in h.posts(CHANNEL) + h.posts(OTHER))
    await h.keep_tickets(BOB, channel=OTHER)  # the other game no longer waits on Bob
    mine = await h.slash(BOB, "game mine")
    listed = mine.original.embeds[0]["description"]
    assert f"<#{CHANNEL}>" in listed and f"<#{OTHER}>" not in listed

    clock.now = at(10, 9)
    await tick(h)
    await tick(h)
    (digest,) = [m for m in fake.dm_messages(BOB) if m.interaction_id is None]
    assert digest.content.startswith(en("discord.digest.title", count=1))
    links = re.findall(r"https://discord\.com/channels/\d+/(\d+)", digest.content)
    assert links == [str(CHANNEL)]
    clock.now = at(10, 21)  # reminders go to Alice; Bob has his digest
    await tick(h)
    assert all(BOB not in pinged(r) for r in reminders_in(h))
    fake.assert_clean()


async def test_a_time_bank_is_set_before_the_start_and_shown_on_the_board(harness: Harness, fake, clock) -> None:
    h = harness
    clock.now = at(10, 0)
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    refused = await h.slash(ALICE, "game settings", {"time_bank": "forever"})
    assert refused.content == "⚠️ " + en("error.bad_time_bank", value="forever")
    saved = await h.slash(ALICE, "game settings", {"time_bank": "2d+12h/4d"})
    assert saved.content and "⏳" in saved.content
    lobby = h.lobby(CHANNEL)
    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=en("discord.lobby.start"))
    await h.idle()
    post = h.last_post(CHANNEL)
    ends = int(at(12, 0))
    assert f"⏳ Alice 2d 0h (runs out <t:{ends}:R>)" in post.content
    fixed = await h.slash(ALICE, "game settings", {"time_bank": "1d"})
    assert fixed.content == "⚠️ " + en("error.time_bank_fixed")
    status = await h.slash(BOB, "game status")
    assert "⏳" in status.content
    fake.assert_clean()


@pytest.mark.slow
async def test_a_week_across_time_zones_pings_nobody_in_their_own_night(harness: Harness, fake, clock) -> None:
    """Alice in UTC+9 and Bob in UTC−5 play Ticket to Ride for a simulated week through the real
    client, each moving (with /move) only while awake; the timer loop runs every half hour. Every
    message that mentions someone and every DM is checked against that person's own hours."""
    h = harness
    await h.slash(ALICE, "me", {"timezone": "UTC+9", "quiet_hours": "23-7"})
    await h.slash(BOB, "me", {"timezone": "UTC-5", "quiet_hours": "23-7", "dm_reminders": True})
    service = h.bot.service
    prefs = {ALICE: await service.user_prefs(str(ALICE)), BOB: await service.user_prefs(str(BOB))}
    clock.now = at(2, 12)  # 21:00 for Alice, 07:00 for Bob
    await h.new_game(ALICE, [BOB])
    await h.slash(ALICE, "game settings", {"reminder_minutes": 120, "deadline_hours": 30})
    rng = random.Random(11)
    seen: set[int] = set()
    pings: list[tuple[float, int]] = []
    moves = 0

    def look() -> None:
        for message in [*h.posts(CHANNEL), *fake.dm_messages(ALICE), *fake.dm_messages(BOB)]:
            if message.id in seen or message.interaction_id is not None:
                continue
            seen.add(message.id)
            if message.channel_id == CHANNEL:
                pings.extend((clock.now, u.id) for u in message.mentions)
            else:
                pings.append((clock.now, ALICE if message in fake.dm_messages(ALICE) else BOB))

    look()
    end = clock.now + 7 * 24 * HOUR
    while clock.now < end:
        clock.now += HOUR / 2
        await tick(h)
        look()
        status = await service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        for user in (ALICE, BOB):
            if asleep(prefs[user], clock.now) or rng.random() > 0.3:
                continue
            ld, _ = await service.core.read_channel(str(CHANNEL))
            seat = ld.seat_of(str(user))
            if seat not in ld.game.active_players(ld.state):
                continue
            if ld.game.decision(ld.state, seat).key == "tickets":
                await h.keep_tickets(user)
            else:
                action, _ = service.moves.bot_move(ld, seat, service.core.bot_names(ld.game)[0], salt="week")
                moved = await h.slash(user, "move", {"move": ld.game.format_action(action)})
                assert moved.ephemeral, moved.content
            moves += 1
            look()
    assert moves > 30 and len(pings) > 20
    assert {u for _, u in pings} == {ALICE, BOB}
    assert [(w, u) for w, u in pings if asleep(prefs[u], w)] == []
    fake.assert_clean()
