"""Railyard installed to a person: a game in a group DM of friends, and in a server channel of a
server that only its members installed Railyard to. The bot is no member there, so Discord lets
it answer interactions and nothing else: the lobby is the answer to /game new, the board follows
each change as a public answer, reminders and the result go to the players by DM, and the bot
never posts there by itself (the loopback refuses that, and `assert_clean` would say so)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.discord import launcher
from bot.sessions import Actor
from bot.sessions.delivery import notice_payload
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, KEN, Harness, final_buttons, find_id
from tests.discord.test_timers import tick
from tests.fake_discord import CommandUnavailable, FakeMessage, InteractionResult
from tests.support import dump_db

GDM = 700  # Alice, Bob and Carol; only Alice installed Railyard
OUTSIDE, OUTSIDE_CHANNEL = 600, 601  # a server Railyard is not installed to
HOUR = 3600.0

# where each command may be installed (integration_types) and used (contexts)
PLACES = {
    "game": ([0, 1], [0, 2]),
    "move": ([0, 1], [0, 2]),
    "orders": ([0, 1], [0, 2]),
    "me": ([0, 1], [0, 1, 2]),
    "away": ([0, 1], [0, 1, 2]),
    "league": ([0], [0]),
    "stats": ([0], [0]),
}


def en(key: str, **params) -> str:
    return translate("en", key, params)


@pytest.fixture
async def friends(harness: Harness, fake) -> Harness:
    await harness.bot.sync_commands()  # global: what a group DM can reach
    fake.install_app(ALICE)
    fake.add_group_dm(GDM, [ALICE, BOB, CAROL], name="friends")
    return harness


async def in_group(h: Harness, user: int, command: str, options=None, *, locale: str = "en-US",
                   channel: int = GDM, guild: int | None = None) -> InteractionResult:
    result = await h.fake.slash(guild, channel, user, command, options, locale=locale)
    await h.idle()
    return result


async def click(h: Harness, message: FakeMessage, custom_id: str | None, user: int, *,
                label: str | None = None) -> InteractionResult:
    result = await h.fake.click(message, custom_id, user, label=label)
    await h.idle()
    return result


def boards(h: Harness, channel: int = GDM) -> list[FakeMessage]:
    """The public boards in the channel: every one an answer to an interaction."""
    return [m for m in h.fake.messages(channel, ephemeral=False)
            if any(a.filename == "board.png" for a in m.attachments)]


def unprompted(h: Harness, channel: int = GDM) -> list[FakeMessage]:
    """Messages the bot made in the channel outside any interaction (there must be none)."""
    return [m for m in h.fake.messages(channel) if m.interaction_id is None]


async def public_board_of(result: InteractionResult) -> FakeMessage:
    """The public board that follows the answer to `result` (drawn after the answer went out,
    so it is waited for)."""
    for _ in range(3000):
        boards = [m for m in result.followups
                  if not m.ephemeral and any(a.filename == "board.png" for a in m.attachments)]
        if boards:
            (board,) = boards
            return board
        await asyncio.sleep(0.005)
    raise AssertionError(f"no board followed {result!r}")


async def test_sync_registers_where_each_command_works(fake, tmp_path: Path) -> None:
    """`railyard sync` registers every command with the installs and places it works in."""
    from bot.config import Settings

    settings = Settings(token=fake.token, database=tmp_path / "unused.sqlite3")
    with fake.patched():
        assert await launcher._sync(settings, fake.token, False, tmp_path / ".env") == 0
    scope, payload = fake.command_syncs[-1]
    assert scope is None
    registered = {c["name"]: (c["integration_types"], c["contexts"]) for c in payload}
    assert registered == PLACES
    fake.assert_clean()


@pytest.mark.slow  # a whole game through the real client
async def test_a_whole_game_in_a_group_dm(friends: Harness, fake, clock) -> None:
    h = friends
    bot = h.bot
    # Bob and Carol did not install Railyard: Discord offers them none of its commands here
    with pytest.raises(CommandUnavailable):
        await fake.slash(None, GDM, BOB, "game status")
    # the lobby is the public answer to /game new, and says what is different here
    opened = await in_group(h, ALICE, "game new", {"game": "ticket_to_ride", "players": 2})
    assert opened.callback_type == 4 and not opened.ephemeral
    lobby = opened.original
    assert en("discord.lobby.replies") in lobby.embeds[0]["description"]
    game_id = await h.game_id(GDM)
    # the host makes the game quick for the test: late players' turns are played by a bot
    saved = await in_group(h, ALICE, "game settings", {"reminder_minutes": 10, "deadline_hours": 1,
                                                       "deadline_action": "bot"})
    assert saved.ephemeral
    # Bob joins with the lobby's button; it fills the lobby, which starts by itself: the lobby is
    # redrawn in place (the answer) and the first board follows, public
    joined = await click(h, lobby, None, BOB, label=en("discord.lobby.join"))
    assert joined.callback_type == 7
    assert fake.message(lobby.id).embeds[0]["description"] == en("discord.lobby.started")
    board = await public_board_of(joined)
    assert board.allowed_mentions is not None and board.mentions == []  # named, never pinged here

    # a friend who does not play presses a button on the board: the board, privately, says why
    carol = await click(h, board, find_id(board, r"ry:\d+:\d+:hand"), CAROL)
    assert carol.ephemeral and any(a.filename == "board.png" for a in carol.attachments)
    assert en("error.not_in_game") in carol.content

    # Bob keeps his first tickets with the buttons alone (his hand, then its select)
    hand = await click(h, board, find_id(board, r"ry:\d+:\d+:hand"), BOB)
    keep_id = find_id(hand.original, r"ry:\d+:\d+:cg:.*")
    select = hand.original.component(keep_id)
    kept = await h.fake.select(hand.original, keep_id, [o["value"] for o in select["options"]][:2], BOB)
    await h.idle()
    assert kept.callback_type == 7 and kept.original.ephemeral  # his own note; the board follows for all
    assert not (await public_board_of(kept)).ephemeral

    alice_moves = deadlines = 0
    early, checked_old = None, False
    for _ in range(400):
        status = await bot.service.status(str(GDM))
        if status.info.status != "active":
            break
        if str(ALICE) in status.waiting_user_ids:
            state = await bot.service.rebuild(game_id)
            seat = next(s for s in status.waiting if status.info.seats[s].user_id == str(ALICE))
            moved = await in_group(h, ALICE, "move", {"move": h.planned(state, seat)})
            assert moved.ephemeral, moved.content
            after = await public_board_of(moved)  # each move's answer is followed by the board
            assert after.mentions == []
            alice_moves += 1
            early = early or (after if find_id(after, r"ry:\d+:\d+:cb:.*") else None)
            if alice_moves == 6 and early is not None:
                # a button on an older board (no board here is ever edited): nothing is played,
                # and the board as it stands comes privately
                old = await click(h, early, find_id(early, r"ry:\d+:\d+:cb:.*"), ALICE)
                assert old.ephemeral and old.content.startswith("🔄")
                assert any(a.filename == "board.png" for a in old.attachments)
                checked_old = True
        else:  # Bob is reminded by DM, then his turn is played for him when the deadline passes
            clock.advance(HOUR + 1)
            await tick(h)
            await h.idle()
            deadlines += 1
    status = await bot.service.status(str(GDM))
    assert status.info.status == "finished", (alice_moves, deadlines)
    assert alice_moves > 10 and deadlines > 10 and checked_old

    # the result went to both players by DM, with the final board and scores
    for user in (ALICE, BOB):
        final = [m for m in fake.dm_messages(user) if m.interaction_id is None and m.embeds
                 and m.content.startswith("🏁 ") and f"<https://discord.com/channels/@me/{GDM}>" in m.content]
        assert len(final) == 1, [m.content[:80] for m in fake.dm_messages(user)]
        assert {a.filename for a in final[0].attachments} >= {"board.png", "final.png"}
    # reminders came by DM (Bob asked for none: there is no other way to reach him here)
    reminded = [m for m in fake.dm_messages(BOB) if m.interaction_id is None and "Ticket to Ride" in m.content
                and m not in final]
    assert len(reminded) >= deadlines // 2
    assert all(f"https://discord.com/channels/@me/{GDM}" in m.content for m in reminded), reminded[0].content
    # nothing was posted in the group DM but answers: every board there answers someone
    assert unprompted(h) == []
    assert len(boards(h)) >= alice_moves + 2
    # the game ended on Alice's move: its answer is followed by the result, public
    last = boards(h)[-1]
    assert last.interaction_id == moved.id and not last.ephemeral
    assert {a.filename for a in last.attachments} >= {"board.png", "final.png"}
    assert en("discord.result.announce") in last.content
    assert final_buttons(last) == ["rematch"]  # no thread where the bot is no member

    # Bob asks for a rematch with the result's button: its lobby is his answer, public; Alice
    # joins with the same button, and her answer is the lobby as it stands
    rematch = await click(h, last, None, BOB, label=en("discord.rematch.button"))
    assert not rematch.ephemeral and en("discord.lobby.replies") in rematch.original.embeds[0]["description"]
    again = await click(h, last, None, ALICE, label=en("discord.rematch.button"))
    seats = again.original.embeds[0]["fields"][0]["value"]
    assert not again.ephemeral and "Bob" in seats and "Alice" in seats
    assert unprompted(h) == []
    fake.assert_clean()


async def test_refusals_in_a_group_dm_say_why_in_the_users_language(friends: Harness, fake) -> None:
    h = friends
    fake.install_app(KEN)
    fake.add_group_dm(GDM + 1, [KEN, BOB], name="友だち")
    before = dump_db(h.db_path)
    # no thread where the bot is no member
    thread = await in_group(h, ALICE, "game new", {"game": "ticket_to_ride", "thread": True})
    assert thread.ephemeral and thread.content == "⚠️ " + en("discord.error.thread_replies")
    ja = await in_group(h, KEN, "game new", {"game": "ticket_to_ride", "thread": True}, locale="ja",
                        channel=GDM + 1)
    assert ja.ephemeral and ja.content == "⚠️ " + translate("ja", "discord.error.thread_replies")
    # a server's own commands are not offered in a group DM at all
    with pytest.raises(CommandUnavailable):
        await fake.slash(None, GDM, ALICE, "league ratings", {"on": True})
    assert dump_db(h.db_path) == before
    assert unprompted(h) == [] and unprompted(h, GDM + 1) == []
    fake.assert_clean()


async def test_a_lobby_closed_and_a_game_abandoned_are_said_in_the_answer(friends: Harness, fake) -> None:
    h = friends
    await in_group(h, ALICE, "game new", {"game": "ticket_to_ride"})
    closed = await in_group(h, ALICE, "game abandon")
    assert not closed.ephemeral and closed.content == "🛑 " + en("discord.lobby.closed_by", name="Alice")
    opened = await in_group(h, ALICE, "game new", {"game": "ticket_to_ride"})
    await click(h, opened.original, None, BOB, label=en("discord.lobby.join"))
    started = await click(h, opened.original, None, ALICE, label=en("discord.lobby.start"))
    assert not (await public_board_of(started)).ephemeral
    # a problem the host must hear of reaches them by DM: the group DM takes nothing unprompted
    deliveries = h.bot.service.deliveries
    contact = await deliveries.contact(await h.game_id(GDM))
    await deliveries.queue_notice(contact.game_id, "broken", notice_payload(contact, "broken"), notice_every=0)
    h.bot.outbox.wake()
    await h.idle()
    (notice,) = [m for m in fake.dm_messages(ALICE) if m.interaction_id is None]
    assert notice.content.startswith("⚠️ ") and f"#{contact.game_id}" in notice.content
    # the host replaces Bob by a bot: her answer is followed by the board
    kicked = await in_group(h, ALICE, "game kick", {"player": BOB})
    assert kicked.ephemeral and not (await public_board_of(kicked)).ephemeral
    gone = await in_group(h, ALICE, "game abandon")
    assert not gone.ephemeral and "Alice" in gone.content and gone.content.startswith("🛑 ")
    await h.idle()
    assert unprompted(h) == []
    fake.assert_clean()


async def test_a_server_that_only_its_members_installed_railyard_to(friends: Harness, fake) -> None:
    h = friends
    fake.add_guild(OUTSIDE, "Elsewhere", channels=[OUTSIDE_CHANNEL], members=[ALICE, BOB], installed=False)
    opened = await in_group(h, ALICE, "game new", {"game": "ticket_to_ride", "players": 2},
                            guild=OUTSIDE, channel=OUTSIDE_CHANNEL)
    assert not opened.ephemeral and en("discord.lobby.replies") in opened.original.embeds[0]["description"]
    joined = await click(h, opened.original, None, BOB, label=en("discord.lobby.join"))
    board = await public_board_of(joined)
    assert not board.ephemeral
    info = (await h.bot.service.status(str(OUTSIDE_CHANNEL))).info
    assert info.settings.delivery == "replies" and info.guild_id == str(OUTSIDE)
    # a server's own records need Railyard added to the server
    with pytest.raises(CommandUnavailable):
        await fake.slash(OUTSIDE, OUTSIDE_CHANNEL, ALICE, "stats board", {"game": "ticket_to_ride"})
    assert unprompted(h, OUTSIDE_CHANNEL) == []
    fake.assert_clean()


async def test_a_standing_order_that_moves_at_once_is_followed_by_the_board(friends: Harness, fake) -> None:
    """Catan Express in a group DM, Alice and two bots: on her turn to roll she sets "roll as
    soon as my turn begins"; it rolls at once, and the board after the roll follows her answer."""
    h = friends
    service = h.bot.service
    opened = await in_group(h, ALICE, "game new", {"game": "catan_express"})
    for _ in range(2):
        await click(h, opened.original, None, ALICE, label=en("discord.lobby.add_bot"))
    await public_board_of(await click(h, opened.original, None, ALICE, label=en("discord.lobby.start")))
    alice = Actor(str(ALICE), "Alice", locale="en-US")
    for _ in range(20):  # her settlements, made directly: what matters here is her first roll
        pv = await service.private_view(str(GDM), str(ALICE))
        if pv.active and "roll" in [legal.notation for legal in pv.legal]:
            break
        assert pv.active, pv.waiting
        h.bot.after_commit(await service.act(str(GDM), alice, pv.legal[0].notation))
        await h.idle()
    rolls = len([e for e in await service.history(str(GDM)) if e.notation.startswith("roll")])
    ordered = await in_group(h, ALICE, "orders", {"order": "roll"})
    assert ordered.ephemeral and ordered.content.startswith("✅")
    board = await public_board_of(ordered)
    assert len([e for e in await service.history(str(GDM)) if e.notation.startswith("roll")]) == rolls + 1
    assert "Alice's standing order made their move" in board.content and "Alice rolled" in board.content
    assert board.mentions == []  # whose turn it is, named without a ping
    assert unprompted(h) == []
    fake.assert_clean()
