"""Exactly one process posts each outbox row, fires each reminder and plays each deadline:
real bot processes (``python -m tools.loopback.bot_process``) on one database and one loopback
Discord, one of them killed with SIGKILL in the middle of a delivery.

The timeline (the lease is LEASE = 2 s; the timer loop then sweeps every 2 s, the dispatchers
look for due rows every 5 s):

1. N processes, each serving one of N shards, guilds spread over the shards; Alice and Bob
   start a Ticket to Ride game in each guild and make moves in every game at once, so posts
   are delivered by all processes while moves keep coming.
2. The loopback is told to hold back its answer to the next post in one game's channel
   (``FakeDiscord.stall``): the message is created, the process that sent it waits for the
   answer. Which process that is, the database says (the row's ``claimed_by`` names its pid).
   That game's rows are let drain first and then one move made, so the held post is one
   row's alone (see "doubtful" below).
3. For more than two leases the holder keeps its claim (its dispatcher renews it) while the
   other games go on: nobody else sends that post.
4. SIGKILL. Its lease runs out; another process claims the row (counting the interrupted
   attempt), finds the message the dead process made among the channel's messages, and
   delivers the row with it instead of posting it again. Moves go on in the games of the
   surviving shards.
5. In the dead process's games (no process serves their shard any more) a reminder and a
   deadline fall due: the survivors' timer loops fire each once.
6. Everything settles: every row delivered; every post sent once (counted on the requests,
   not on the messages, which the nonce would hide), the one the dead process had sent and
   never heard back about too; no game's board posted twice for one version; the last board
   each game showed is its current version.

A second scenario (`bots_left_by_a_dead_process`): the bots of a game move in the process
that committed the person's move, which holds the game's 'bots' timer while it moves them.
That process is killed after the move committed and before its bots moved (it is started with
a long `--bots-delay`); the other process, which serves none of that game's interactions,
takes the timer over once the lease has run out and moves the bot: the game does not wait
for a process to restart.

A dead process may also have sent one post for several rows at once (a run of moves shown as
one step): it stored which rows it folded before sending, so the process taking over folds the
same rows, finds that message, and delivers them all with it (that case is tested in one
process, with a lost answer, in test_delivery_faults.py).
"""
from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import random
import re
import signal
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.discord.outbox_messages import FINAL_FORMS
from bot.sessions import Actor, SessionError, SessionService
from bot.sessions.live import LiveBoard
from bot.store import StoreBackend, open_store
from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, _label
from tests.fake_discord import FakeDiscord, InteractionResult
from tests.support.backends import PgBackend, pg_server
from tests.support.processes import BotProcesses

pytestmark = pytest.mark.slow  # several real bot processes

__all__ = ["pg_server"]

LEASE = 2.0
BOARD = re.compile(r"(?:board|盤面) (\d+)")  # a board message's footer names the game's version


@dataclass
class Table:
    """One guild with its game channel, and the game played there."""
    shard: int
    guild: int
    channel: int
    game_id: int = 0


async def until(check, timeout: float, what: str, report=lambda: "") -> Any:
    """Poll `check()` (plain or async) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout} s\n{report()}")
        await asyncio.sleep(0.05)


def board_version(embeds: list[dict] | None) -> int | None:
    found = BOARD.search(((embeds[-1] if embeds else {}).get("footer") or {}).get("text", ""))
    return int(found.group(1)) if found else None


class World:
    """The fake, the processes and a look at the database from outside, as the players'
    side of the test."""

    def __init__(self, fake: FakeDiscord, procs: BotProcesses, store: StoreBackend) -> None:
        self.fake = fake
        self.procs = procs
        self.store = store
        self.service = SessionService(store)  # reads only: never sweeps timers or delivers

    def report(self) -> str:
        return self.procs.report()

    async def answered(self, ir: InteractionResult, what: str) -> InteractionResult:
        await until(lambda: ir.answered_mono is not None or ir.rejected_callbacks, 30, what, self.report)
        return ir

    async def start(self, table: Table) -> None:
        fake = self.fake
        opened = await fake.slash(table.guild, table.channel, ALICE, "game new", {"game": "ticket_to_ride"},
                                  wait=False)
        await self.answered(opened, f"answer to /game new in {table.channel}")

        def lobby():
            join = _label("discord.lobby.join", "en-US")
            posts = [m for m in fake.messages(table.channel, ephemeral=False)
                     if m.interaction_id is None and m.component(label=join)]
            return posts[-1] if posts else None

        post = await until(lobby, 30, f"lobby in {table.channel}", self.report)
        joined = await fake.click(post, None, BOB, label=_label("discord.lobby.join", "en-US"), wait=False)
        await self.answered(joined, "answer to the join")
        started = await fake.click(post, None, ALICE, label=_label("discord.lobby.start", "en-US"), wait=False)
        await self.answered(started, "answer to the start")
        status = await self.service.status(str(table.channel))
        assert status.info.status == "active", (status.info, self.report())
        table.game_id = status.info.game_id

    async def move(self, table: Table) -> None:
        """The first legal move autocomplete offers the first player the game waits on,
        through /move, as that player would."""
        status = await self.service.status(str(table.channel))
        user = int(status.waiting_user_ids[0])
        choices = await self.fake.autocomplete(table.guild, table.channel, user, "move", focused="move", value="",
                                               timeout=20)
        assert choices, f"no legal move offered in {table.channel}\n{self.report()}"
        made = await self.fake.slash(table.guild, table.channel, user, "move", {"move": choices[0]["value"]},
                                     wait=False)
        await self.answered(made, f"answer to /move in {table.channel}")
        assert (made.content or "").startswith("✅"), (made.content, self.report())

    async def moves(self, tables: list[Table], count: int) -> None:
        async def play(table: Table) -> None:
            for _ in range(count):
                await self.move(table)
        await asyncio.gather(*(play(t) for t in tables))

    async def pending(self, game_id: int | None = None) -> list[dict]:
        sql = "SELECT id, game_id, claimed_by, claimed_until FROM outbox WHERE delivered_at IS NULL AND dead = 0"
        params: tuple = ()
        if game_id is not None:
            sql, params = sql + " AND game_id = ?", (game_id,)
        async with self.store.read() as tx:
            return await tx.fetchall(sql + " ORDER BY id", params)

    def post_attempts(self) -> Counter:
        """Every channel post the bot sent (a request, whatever became of it), by nonce."""
        return Counter(r.nonce for r in self.fake.requests_to("POST", "/channels/{id}/messages") if r.nonce)


def spread(fake: FakeDiscord, shards: int, per_shard: int) -> list[Table]:
    fake.add_user(ALICE, "alice", global_name="Alice")
    fake.add_user(BOB, "bob", global_name="Bob")
    tables = []
    for shard in range(shards):
        for n in range(per_shard):
            guild = fake.guild_id_on_shard(shard, shards)
            fake.add_guild(guild, f"shard {shard} #{n}", channels=[{"id": guild + 1, "name": "games"}],
                           members=[ALICE, BOB])
            tables.append(Table(shard, guild, guild + 1))
    return tables


async def kill_one_mid_delivery(url: str, tmp_path: Path, *, processes: int, per_shard: int) -> None:
    store = await open_store(url)  # migrated once, before the processes open it
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        fake = await stack.enter_async_context(
            FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=30.0, shards=processes))
        tables = spread(fake, processes, per_shard)
        procs = await stack.enter_async_context(BotProcesses(fake, url, tmp_path))
        for shard in range(processes):
            procs.start(shard_ids=str(shard), shard_count=processes, sync_commands=shard == 0,
                        extra=["--lease-seconds", str(LEASE)])
        await procs.wait_ready(timeout=90)
        world = World(fake, procs, store)

        # 1. games in every guild, moves in all of them at once
        await asyncio.gather(*(world.start(t) for t in tables))
        await world.moves(tables, 3)

        # 2. the next post in one game's channel is held: drain that game, then one move
        target = tables[0]
        stall = None
        for _ in range(8):  # an edit of the live board is not held: move until a new post is
            await until(lambda: _empty(world.pending(target.game_id)), 30, "the target game's posts", world.report)
            if stall is None:
                stall = fake.stall("POST", f"/channels/{target.channel}/messages",
                                   match=lambda rec: rec.nonce is not None)
            await world.move(target)
            # the move's post either is held, or goes out (an edit) and the game drains again
            await until(lambda: stall.requests or _empty(world.pending(target.game_id)), 30,
                        "the target game's post", world.report)
            if stall.requests:
                break
        held = await stall.reached(timeout=1)
        (row,) = await until(lambda: world.pending(target.game_id), 10, "the held row", world.report)
        owner = row["claimed_by"]
        assert owner, row
        victim = procs.by_pid(int(owner.rsplit(":", 2)[1]))
        assert victim is not None, (owner, world.report())
        survivors = [p for p in procs.procs if p is not victim]
        dead_shard = victim.shards[0]
        alive_tables = [t for t in tables if t.shard != dead_shard]

        # 3. the holder keeps its claim for over two leases while the other games go on
        first_lease = row["claimed_until"]
        moving = asyncio.create_task(world.moves([t for t in alive_tables if t is not target], 2))
        await asyncio.sleep(2.5 * LEASE)
        still = await world.pending(target.game_id)
        assert [r["id"] for r in still] == [row["id"]] and still[0]["claimed_by"] == owner, (still, row)
        assert still[0]["claimed_until"] > first_lease + LEASE / 2, (still, row)  # renewed
        assert world.post_attempts()[held.nonce] == 1, "another process sent the held post too"
        assert victim.returncode is None
        await moving

        # 4. SIGKILL mid-delivery; the others take over after the lease
        assert victim.kill() == -signal.SIGKILL
        stall.release()
        await world.moves(alive_tables, 2)

        # 5. a reminder and a deadline in the dead process's games
        dead_tables = [t for t in tables if t.shard == dead_shard]
        reminded, timed_out = dead_tables[0], dead_tables[-1]
        now = time.time()
        await _sql(store, "UPDATE timers SET due_at = ? WHERE game_id = ? AND kind = 'reminder'",
                   now - 1, reminded.game_id)
        await _sql(store, "INSERT INTO timers (game_id, kind, due_at, attempt, payload) VALUES (?, 'deadline', ?, 0, '{}')"
                   " ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at", timed_out.game_id, now - 1)

        def reminders() -> list:
            return [m for m in fake.messages(reminded.channel, ephemeral=False) if m.content.startswith("⏰")]

        await until(reminders, 30, "the reminder", world.report)

        async def deadline_moves() -> list:
            return [a for a in await store.actions(timed_out.game_id) if a.auto == "deadline"]

        await until(deadline_moves, 30, "the deadline's move", world.report)

        # 6. everything settles
        await until(lambda: _empty(world.pending()), 40, "every row delivered", world.report)

        rows = await store.outbox_rows()
        assert rows and all(r.delivered_at is not None and not r.dead for r in rows), world.report()
        assert not [r for r in rows if r.claimed_by is not None], "a delivered row is still claimed"
        async with store.read() as tx:
            taken_over = await tx.get_outbox(row["id"])
        assert taken_over.attempts == 1  # the dead process's attempt, counted at the takeover

        # every post went out once, the held one too: its message was found, not sent again
        attempts = world.post_attempts()
        assert {n: c for n, c in attempts.items() if c > 1} == {}, attempts
        assert attempts[held.nonce] == 1 and fake.nonce_repeats == []
        nonces = [m.nonce for m in fake.messages(include_deleted=True) if m.nonce]
        assert len(nonces) == len(set(nonces)) == len(attempts)

        # no board posted twice for one version; each game shows its last move
        for table in tables:
            shown = [(p.kind, board_version(p.payload.get("embeds"))) for p in fake.message_payloads
                     if p.path.startswith(f"/channels/{table.channel}/messages") and isinstance(p.payload, dict)]
            created = [v for kind, v in shown if kind == "create" and v is not None]
            assert len(created) == len(set(created)), (table, shown)
            status = await world.service.status(str(table.channel))
            assert [v for _, v in shown if v is not None][-1] == status.version, (table, shown, status.version)

        # the reminder posted once, the deadline played once, both by a survivor
        (reminder,) = reminders()
        assert [a.auto for a in await store.actions(timed_out.game_id)].count("deadline") == 1
        assert attempts[reminder.nonce] == 1
        # the survivors were never disturbed, and close cleanly
        assert [await p.stop() for p in survivors] == [0] * len(survivors), world.report()
        fake.assert_clean()


async def _empty(pending) -> bool:
    return not await pending


async def _sql(store: StoreBackend, sql: str, *params: Any) -> None:
    async with store.write() as tx:
        await tx.execute(sql, params)


BOTS_LEASE = 3.0


async def _bot_moves(store: StoreBackend, game_id: int) -> int:
    return sum(1 for a in await store.actions(game_id) if a.auto == "bot")


async def bots_left_by_a_dead_process(url: str, tmp_path: Path) -> float:
    """Returns how long the bot's move came after the dead process's lease ran out (seconds)."""
    store = await open_store(url)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        fake = await stack.enter_async_context(
            FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=30.0, shards=2))
        fake.add_user(ALICE, "alice", global_name="Alice")
        guild = fake.guild_id_on_shard(0, 2)
        fake.add_guild(guild, "with a bot", channels=[{"id": guild + 1, "name": "games"}], members=[ALICE])
        table = Table(0, guild, guild + 1)
        procs = await stack.enter_async_context(BotProcesses(fake, url, tmp_path))
        lease = ["--lease-seconds", str(BOTS_LEASE)]
        # the game's shard is served by a process whose bots would move only after ten minutes
        mover = procs.start(shard_ids="0", shard_count=2, sync_commands=True, extra=[*lease, "--bots-delay", "600"])
        survivor = procs.start(shard_ids="1", shard_count=2, extra=lease)
        await procs.wait_ready(timeout=90)
        world = World(fake, procs, store)

        # Alice opens a Ticket to Ride game with a bot and starts it
        opened = await fake.slash(table.guild, table.channel, ALICE, "game new", {"game": "ticket_to_ride"},
                                  wait=False)
        await world.answered(opened, "answer to /game new")
        post = await until(lambda: next((m for m in fake.messages(table.channel, ephemeral=False)
                                         if m.component(label=_label("discord.lobby.add_bot", "en-US"))), None),
                           30, "the lobby", world.report)
        for key in ("discord.lobby.add_bot", "discord.lobby.start"):
            clicked = await fake.click(post, None, ALICE, label=_label(key, "en-US"), wait=False)
            await world.answered(clicked, f"answer to {key}")
        status = await world.service.status(str(table.channel))
        assert status.info.status == "active", (status.info, world.report())
        table.game_id = status.info.game_id

        # Alice moves until her move leaves the game waiting on the bot alone
        for _ in range(20):
            status = await world.service.status(str(table.channel))
            if status.waiting and not status.waiting_user_ids:
                break
            await world.move(table)
        else:
            raise AssertionError(f"the game never waited on its bot alone\n{world.report()}")
        moved_before = await _bot_moves(store, table.game_id)
        (timer,) = [t for t in await store.timers(table.game_id) if t.kind == "bots"]
        assert timer.claimed_by is not None and procs.by_pid(int(timer.claimed_by.rsplit(":", 2)[1])) is mover

        assert mover.kill() == -signal.SIGKILL
        killed = time.monotonic()
        after = await world.service.status(str(table.channel))
        assert (after.version, await _bot_moves(store, table.game_id)) == (status.version, moved_before), \
            "the bot moved before the process that held it was killed"

        async def bot_moved() -> bool:
            now = await world.service.status(str(table.channel))
            return now.version > status.version and (
                now.info.status != "active" or len(now.waiting_user_ids) == len(now.waiting))

        await until(bot_moved, 10 * BOTS_LEASE, "the bot's move, by the live process", world.report)
        waited = time.monotonic() - killed
        first_bot_move = [a for a in await store.actions(table.game_id) if a.auto == "bot"][moved_before]
        # how long the game waited once the dead process's claim had run out
        after_lease = first_bot_move.created_at - timer.claimed_until
        print(f"bot moved {waited:.2f} s after the kill, {after_lease:.2f} s after the lease ran out")
        assert [t.kind for t in await store.timers(table.game_id) if t.kind == "bots"] == []
        # its post goes out too, from the live process
        await until(lambda: _empty(world.pending(table.game_id)), 30, "the bot move's post", world.report)
        assert await survivor.stop() == 0, world.report()
        fake.assert_clean()
        return after_lease


async def test_bots_left_by_a_killed_process_are_moved_by_the_live_one_on_postgresql(tmp_path: Path, pg_server) -> None:
    backend = await PgBackend.create(pg_server)
    try:
        after_lease = await bots_left_by_a_dead_process(backend.url, tmp_path)
    finally:
        await backend.cleanup()
    assert 0 < after_lease < 2 * BOTS_LEASE, after_lease  # the live process sweeps once a lease


async def test_bots_left_by_a_killed_process_are_moved_by_the_live_one_on_sqlite(tmp_path: Path) -> None:
    after_lease = await bots_left_by_a_dead_process(f"sqlite:///{tmp_path / 'railyard.sqlite3'}", tmp_path)
    assert 0 < after_lease < 2 * BOTS_LEASE, after_lease  # the live process sweeps once a lease


async def test_three_processes_on_postgresql_one_killed_mid_delivery(tmp_path: Path, pg_server) -> None:
    backend = await PgBackend.create(pg_server)
    try:
        await kill_one_mid_delivery(backend.url, tmp_path, processes=3, per_shard=2)
    finally:
        await backend.cleanup()


async def test_two_processes_on_one_sqlite_file_one_killed_mid_delivery(tmp_path: Path) -> None:
    await kill_one_mid_delivery(f"sqlite:///{tmp_path / 'railyard.sqlite3'}", tmp_path, processes=2, per_shard=2)



# ------------------------------------------------------------------------------ a final post
# A finished game's final post (its result, final board and chart, and the game's timelapse,
# seconds to draw) while the processes delivering it are killed, one after another:
#
# * "sending": the post is made (the loopback holds its answer back) and its sender killed
#   before it could record it. The process taking the row over must find the message in the
#   channel, not give the post up as one that kills its holders, nor post it again.
# * "drawing": killed while drawing the timelapse (nothing sent); "looking": killed while
#   looking in the channel for the message (the loopback holds the answer to that look).
#   After one holder lost the post goes without its timelapse, after two without images,
#   and after three, when any other post would be given up, it still goes out.
#
# Every killed process is replaced by a new one, as a supervisor would.


def actors() -> dict[str, Actor]:
    return {str(ALICE): Actor(user_id=str(ALICE), name="Alice"), str(BOB): Actor(user_id=str(BOB), name="Bob")}


async def play_to_the_last_move(service: SessionService, channel: str) -> tuple[Actor, str]:
    """Galactic Railway between Alice and Bob, each move the game's own bot's choice, up to
    the move that ends it: who makes that one, and what it is (not made)."""
    game = registry.get("ginga")
    bot = next(iter(game.bots().values()))
    people = actors()
    for turn in range(1000):
        status = await service.status(channel)
        user = status.waiting_user_ids[0]
        seat = next(s.seat for s in status.info.seats if s.user_id == user)
        state = await service.current_state(status.info.game_id)
        action = bot.choose(game, state, seat, random.Random(turn))
        if game.is_over(game.apply(state, seat, action).state):
            return people[user], game.format_action(action)
        await service.act(channel, people[user], game.format_action(action))
    raise AssertionError("the game did not end")


def post_nonce(row_id: int) -> str:
    """The nonce of a row's "post" part (bot/discord/outbox.py, Courier.nonce)."""
    return f"ry{row_id}.{hashlib.sha1(b'post').hexdigest()[:6]}"


async def final_post_outlives_its_holders(url: str, tmp_path: Path, moments: list[str]) -> tuple[Any, list]:
    """Run the game to its last move, make it, and kill the process holding the final post
    at each of `moments` in turn (stopping when the post is out). Returns the final message
    and the processes killed."""
    store = await open_store(url)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        fake = await stack.enter_async_context(FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=30.0))
        (table,) = spread(fake, 1, 1)
        channel = str(table.channel)
        service = SessionService(store)
        people = actors()
        await service.create("ginga", channel, str(table.guild), people[str(ALICE)], None, "en")
        await service.join(channel, people[str(BOB)])
        await service.start(channel, people[str(ALICE)])
        mover, last_move = await play_to_the_last_move(service, channel)
        game_id = (await service.status(channel)).info.game_id

        procs = await stack.enter_async_context(BotProcesses(fake, url, tmp_path))
        extra = ["--lease-seconds", str(LEASE)]
        for _ in range(2):
            procs.start(extra=extra)
        await procs.wait_ready(timeout=90)
        world = World(fake, procs, store)
        await until(lambda: _empty(world.pending(game_id)), 60, "the game's posts so far", world.report)

        async def holder() -> Any:
            (row,) = await world.pending(game_id) or [None]
            owner = row and row["claimed_by"]
            return procs.by_pid(int(owner.rsplit(":", 2)[1])) if owner else None

        async def out() -> bool:
            return not await world.pending(game_id)

        finished = await service.act(channel, mover, last_move)
        assert finished.status == "finished", finished
        marker = f"game {game_id}: drawing its timelapse"
        killed: list = []
        for moment in moments:
            stall = None
            if moment == "sending":
                stall = fake.stall("POST", f"/channels/{channel}/messages", match=lambda rec: rec.nonce is not None)
            elif moment == "looking":
                stall = fake.stall("GET", f"/channels/{channel}/messages")

            async def reached() -> Any:
                if await out():
                    return "out"
                if stall is not None:
                    return stall.requests and await holder()
                drawing = [p for p in procs.procs if p not in killed and p.returncode is None
                           and marker in p.log_path.read_text(encoding="utf-8", errors="replace")]
                return drawing[0] if drawing else None

            victim = await until(reached, 60, f"the final post's holder {moment}", world.report)
            if victim == "out":
                break
            assert victim is await holder(), (victim.name, world.report())
            assert victim.kill() == -signal.SIGKILL
            killed.append(victim)
            if stall is not None:
                stall.release()
            procs.start(extra=extra)  # a supervisor starts another

        await until(out, 90, "the final post delivered or given up", world.report)
        (row,) = [r for r in await store.outbox_rows(game_id) if r.id == finished.outbox_id]
        assert row.delivered_at is not None and not row.dead, (row, world.report())
        # one message carries the row's nonce, and it publishes the result
        (final,) = [m for m in fake.messages(include_deleted=True) if m.nonce == post_nonce(row.id)]
        title = translate("en", "discord.result.title", {"game": translate("en", "ginga.title")})
        assert final.embeds[0]["title"] == title and final.embeds[0]["fields"] and not final.deleted
        assert [m for m in fake.messages(table.channel) if m.embeds and m.embeds[0].get("title") == title] == [final]
        board = LiveBoard.model_validate_json(await store.live_board(game_id))
        assert board.closed and board.message_id == str(final.id)
        # nobody was told the post was broken
        assert not [m for m in fake.messages() if m.content.startswith("⚠️")], world.report()
        alive = [p for p in procs.procs if p not in killed]
        await procs.wait_ready(*alive, timeout=90)  # the replacements too, before a clean stop
        assert [await p.stop() for p in alive] == [0] * len(alive), world.report()
        fake.assert_clean()
        return final, killed


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_final_post_sent_before_its_sender_was_killed_is_found_not_given_up(
        tmp_path: Path, request, kind: str) -> None:
    """The sender of the final post is killed after Discord made it; whoever takes the post
    over (and, if need be, the ones after) would be killed while sending it too. The next
    holder finds it in the channel: one message, the results published with the timelapse."""
    async with _database(kind, tmp_path, request) as url:
        final, killed = await final_post_outlives_its_holders(url, tmp_path, ["sending"] * 3)
    assert len(killed) == 1
    assert {a.filename for a in final.attachments} == {"board.png", "final.png", "timelapse.webp"}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_final_post_whose_holders_are_killed_goes_out_lighter_not_given_up(
        tmp_path: Path, request, kind: str) -> None:
    """Killed while drawing the timelapse, then twice while looking whether the post was out:
    three holders lost, so the fourth sends it with its words only, and nothing is given up."""
    async with _database(kind, tmp_path, request) as url:
        final, killed = await final_post_outlives_its_holders(url, tmp_path, ["drawing", "looking", "looking"])
    assert len(killed) == 3 == FINAL_FORMS + 1
    assert final.attachments == []


@contextlib.asynccontextmanager
async def _database(kind: str, tmp_path: Path, request: pytest.FixtureRequest):
    """A new database of that kind (PostgreSQL: on the shared test server)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'railyard.sqlite3'}"
        return
    backend = await PgBackend.create(request.getfixturevalue("pg_server"))
    try:
        yield backend.url
    finally:
        await backend.cleanup()


# ------------------------------------------------------------------------------ a deleted channel
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_deleted_channel_ends_its_game_once_with_several_processes(tmp_path: Path, request, kind: str) -> None:
    """Two processes deliver two games' posts. One game's channel is deleted while moves keep
    coming in both: whichever process meets Unknown Channel first ends that game, once (one
    version further, one DM to its host), every post of it still to deliver is given up,
    moves made after are refused, and the other game goes on."""
    async with _database(kind, tmp_path, request) as url:
        store = await open_store(url)
        async with contextlib.AsyncExitStack() as stack:
            stack.push_async_callback(store.close)
            fake = await stack.enter_async_context(
                FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=30.0, shards=2))
            gone, kept = spread(fake, 2, 1)
            procs = await stack.enter_async_context(BotProcesses(fake, url, tmp_path))
            for shard in range(2):
                procs.start(shard_ids=str(shard), shard_count=2, sync_commands=shard == 0,
                            extra=["--lease-seconds", str(LEASE)])
            await procs.wait_ready(timeout=90)
            world = World(fake, procs, store)
            await asyncio.gather(world.start(gone), world.start(kept))
            await world.moves([gone, kept], 2)
            await until(lambda: _empty(world.pending()), 30, "the posts so far", world.report)
            before = await world.service.status(str(gone.channel))

            await fake.delete_channel(gone.channel)
            people = actors()

            async def move_quietly(table: Table) -> bool:
                """A move made without an interaction (nobody can use a command in a deleted
                channel; a deadline or a bot still moves): True if it was made."""
                status = await world.service.status(str(table.channel))
                if status.info.status != "active":
                    return False
                user = status.waiting_user_ids[0]
                legal = (await world.service.private_view(str(table.channel), user)).legal
                try:
                    await world.service.act(str(table.channel), people[user], legal[0].notation)
                except SessionError:
                    return False  # the game ended meanwhile
                return True

            made = [await move_quietly(gone)]
            for _ in range(3):  # more moves in both games while the processes deliver
                made.append(await move_quietly(gone))
                await world.move(kept)
                await asyncio.sleep(0.3)
            await until(lambda: _empty(world.pending()), 60, "every row delivered or given up", world.report)

            status = (await world.service.status(str(gone.channel))).info
            assert status.status == "abandoned" and made[0], (made, world.report())
            moves_made = sum(made)
            assert status.version == before.version + moves_made + 1  # each move, then the abandonment
            assert await store.timers(gone.game_id) == []
            rows = [r for r in await store.outbox_rows(gone.game_id) if r.kind == "move"]
            after = rows[-moves_made:]
            assert after and all(r.dead and r.delivered_at is None for r in after), (after, world.report())
            (dm,) = fake.dm_messages(ALICE)  # once, whichever process met it
            assert dm.content == "⚠️ " + translate("en", "discord.delivery.deleted", {
                "host": "", "game_id": gone.game_id, "game": translate("en", "ticket_to_ride.title")})
            assert not [m for m in fake.messages() if m.content.startswith("⚠️") and m is not dm]
            assert (await world.service.status(str(kept.channel))).info.status == "active"
            kept_rows = await store.outbox_rows(kept.game_id)
            assert all(r.delivered_at is not None for r in kept_rows)
            assert [await p.stop() for p in procs.procs] == [0, 0], world.report()
            fake.assert_clean()


# ------------------------------------------------------------------------------ a reminder taken back
async def reminder_replaced_while_its_deleter_is_killed(url: str, tmp_path: Path) -> None:
    """Two processes. A game's second reminder replaces its first: the process delivering it
    posts it, stores that part, and is killed after Discord deleted the first reminder but
    before it heard so. Another process takes the row over once the lease has run out: it
    does not post the second reminder again, deletes the first once more (Unknown Message:
    done) and keeps the second as the one standing; the move that answers it deletes it."""
    store = await open_store(url)
    async with contextlib.AsyncExitStack() as stack:
        stack.push_async_callback(store.close)
        fake = await stack.enter_async_context(FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=30.0))
        (table,) = spread(fake, 1, 1)
        channel = str(table.channel)
        service = SessionService(store)
        people = actors()
        await service.create("ginga", channel, str(table.guild), people[str(ALICE)], None, "en")
        await service.join(channel, people[str(BOB)])
        await service.start(channel, people[str(ALICE)])
        game_id = (await service.status(channel)).info.game_id

        procs = await stack.enter_async_context(BotProcesses(fake, url, tmp_path))
        extra = ["--lease-seconds", str(LEASE)]
        for _ in range(2):
            procs.start(extra=extra)
        await procs.wait_ready(timeout=90)
        world = World(fake, procs, store)
        await until(lambda: _empty(world.pending(game_id)), 60, "the game's first posts", world.report)

        def reminders() -> list:
            return [m for m in fake.messages(table.channel, ephemeral=False) if m.content.startswith("⏰")]

        async def remind() -> None:
            await _sql(store, "UPDATE timers SET due_at = ? WHERE game_id = ? AND kind = 'reminder'",
                       time.time() - 1, game_id)

        await remind()
        (first,) = await until(reminders, 30, "the first reminder", world.report)
        assert f"**{translate('en', 'ginga.title')}**" in first.content
        await until(lambda: _empty(world.pending(game_id)), 30, "the first reminder delivered", world.report)

        stall = fake.stall("DELETE", f"/channels/{channel}/messages/{first.id}")
        await remind()
        await until(lambda: stall.requests, 30, "the first reminder's deletion", world.report)
        (row,) = await world.pending(game_id)
        victim = procs.by_pid(int(row["claimed_by"].rsplit(":", 2)[1]))
        assert victim is not None and victim.kill() == -signal.SIGKILL
        stall.release()
        procs.start(extra=extra)  # a supervisor starts another
        await until(lambda: _empty(world.pending(game_id)), 60, "the second reminder taken over", world.report)

        (second,) = reminders()
        assert second.id != first.id and fake.message(first.id).deleted
        assert world.post_attempts()[second.nonce] == 1  # stored before the deletion: not posted again
        deletions = fake.requests_to("DELETE", f"/channels/{channel}/messages/{first.id}")
        assert len(deletions) == 2 and deletions[-1].status == 404
        board = LiveBoard.model_validate_json(await store.live_board(game_id))
        assert [r.message_id for r in board.reminders] == [str(second.id)]

        # the game moves on: the second reminder is answered, and goes
        game = registry.get("ginga")
        status = await service.status(channel)
        user = status.waiting_user_ids[0]
        seat = next(s.seat for s in status.info.seats if s.user_id == user)
        state = await service.current_state(game_id)
        action = next(iter(game.bots().values())).choose(game, state, seat, random.Random(0))
        await service.act(channel, people[user], game.format_action(action))
        await until(lambda: not reminders(), 30, "the second reminder deleted", world.report)
        await until(lambda: _empty(world.pending(game_id)), 30, "the move's post", world.report)

        rows = await store.outbox_rows(game_id)
        assert rows and all(r.delivered_at is not None and not r.dead for r in rows), world.report()
        assert not [m for m in fake.messages() if m.content.startswith("⚠️")], world.report()
        alive = [p for p in procs.procs if p is not victim]
        await procs.wait_ready(*alive, timeout=90)
        assert [await p.stop() for p in alive] == [0] * len(alive), world.report()
        fake.assert_clean()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
async def test_a_reminder_replaced_while_its_deleter_is_killed_is_taken_back_once(
        tmp_path: Path, request, kind: str) -> None:
    async with _database(kind, tmp_path, request) as url:
        await reminder_replaced_while_its_deleter_is_killed(url, tmp_path)
