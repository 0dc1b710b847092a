"""Shards: the real RailyardBot serving the shards its settings name, against the loopback's
several gateway sessions; `railyard run --shard-ids/--shard-count`; and two real bot
processes on one SQLite file, each answering the guilds of its own shard.

Guild ids come from `fake.guild_id_on_shard`, so each guild lands on the shard the test means
by Discord's formula, not by luck.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import time
from pathlib import Path

import pytest

from railyard import cli
from bot.config import ConfigError, Settings, load_settings
from bot.discord.bot import RailyardBot
from bot.discord import launcher
from bot.discord.launcher import with_shard_flags
from bot.sessions import SessionService
from bot.store import open_store
from tests.conftest import FakeClock
from tests.discord.conftest import ALICE, BOB, SEED, _label
from tests.fake_discord import FakeDiscord, FakeMessage, InteractionResult
from tests.support.processes import BotProcesses

pytestmark = pytest.mark.slow  # several gateway sessions and real bot processes

NEW = ("game new", {"game": "ticket_to_ride"})


def sharded_world(fake: FakeDiscord, count: int) -> list[int]:
    """One guild per shard of `count` (its game channel is guild id + 1), Alice and Bob in each."""
    fake.add_user(ALICE, "alice", global_name="Alice")
    fake.add_user(BOB, "bob", global_name="Bob")
    guilds = [fake.guild_id_on_shard(shard, count) for shard in range(count)]
    for shard, guild in enumerate(guilds):
        fake.add_guild(guild, f"shard {shard}", channels=[{"id": guild + 1, "name": "games"}], members=[ALICE, BOB])
    return guilds


def sharded_bot(fake: FakeDiscord, db: Path, clock: FakeClock, shard_ids: tuple[int, ...] | None,
                shard_count: int | None) -> RailyardBot:
    settings = Settings(token=fake.token, database=db, shard_ids=shard_ids, shard_count=shard_count)
    seeds = iter(range(SEED, SEED + 100))
    bot = RailyardBot(settings, clock=clock, new_seed=lambda: next(seeds), identify_interval=0.0,
                      guild_ready_timeout=0.05)
    bot.received = []  # type: ignore[attr-defined]

    async def on_interaction(interaction) -> None:
        bot.received.append(interaction.id)  # type: ignore[attr-defined]

    bot.add_listener(on_interaction, "on_interaction")
    return bot


async def until(check, timeout: float, what: str, report=lambda: ""):
    """Poll `check()` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} within {timeout} s\n{report()}")
        await asyncio.sleep(0.02)


def lobby_in(fake: FakeDiscord, channel: int) -> FakeMessage | None:
    """The channel's latest bot post with a Join button (posted by whichever dispatcher)."""
    join = _label("discord.lobby.join", "en-US")
    posts = [m for m in fake.messages(channel, ephemeral=False)
             if m.author.id == fake.application_id and m.interaction_id is None and m.component(label=join)]
    return posts[-1] if posts else None


# ------------------------------------------------------------------------------ one process
async def test_one_bot_serving_both_shards_answers_guilds_on_each(tmp_path: Path, clock: FakeClock, caplog) -> None:
    caplog.set_level(logging.INFO, logger="railyard.discord")
    async with FakeDiscord(quiet_period=0.05) as fake:
        g0, g1 = sharded_world(fake, 2)
        bot = sharded_bot(fake, tmp_path / "railyard.sqlite3", clock, (0, 1), 2)
        async with fake.running(bot):
            await bot.tree.sync()
            assert fake.live_shards == [(0, 2), (1, 2)] and bot.served_shards == (0, 1)
            assert {g.id: g.shard_id for g in bot.guilds} == {g0: 0, g1: 1}
            assert "on shards 0-1 of 2" in caplog.text
            for shard, guild in enumerate((g0, g1)):
                opened = await fake.slash(guild, guild + 1, ALICE, *NEW)
                assert opened.shard == shard and opened.ephemeral and opened.callback_type in (4, 5), opened
                await bot.idle()
                lobby = lobby_in(fake, guild + 1)
                assert lobby is not None, "no lobby was posted"
                joined = await fake.click(lobby, None, BOB, label=_label("discord.lobby.join", "en-US"))
                assert joined.shard == shard and joined.answered_mono is not None
                await bot.idle()
            assert sorted(bot.received) == sorted(r.id for r in fake.interactions)
            # the games are the store's, not the shard's: one lobby per channel, each with both
            for guild in (g0, g1):
                info = await bot.service.lobby(str(guild + 1))
                assert info.status == "lobby" and len(info.seats) == 2
        fake.assert_clean()


async def test_a_bot_serving_shard_1_never_gets_a_shard_0_guild(tmp_path: Path, clock: FakeClock) -> None:
    async with FakeDiscord(quiet_period=0.05) as fake:
        g0, g1 = sharded_world(fake, 2)
        bot = sharded_bot(fake, tmp_path / "railyard.sqlite3", clock, (1,), 2)
        async with fake.running(bot):
            await bot.tree.sync()
            assert fake.live_shards == [(1, 2)] and bot.served_shards == (1,)
            assert bot.get_guild(g0) is None and bot.get_guild(g1) is not None  # GUILD_CREATE of shard 1 only
            # Discord sends a shard-0 guild's interaction to no one serving shard 1: the user
            # sees "The application did not respond" once the acknowledgement window passes
            lost = await fake.slash(g0, g0 + 1, ALICE, *NEW, timeout=1.0)
            assert lost.shard is None and not lost.delivered and lost.callback is None
            answered = await fake.slash(g1, g1 + 1, ALICE, *NEW)
            assert answered.shard == 1 and answered.callback is not None and answered.ephemeral
            await bot.idle()
            assert bot.received == [answered.id]
            assert lobby_in(fake, g0 + 1) is None and lobby_in(fake, g1 + 1) is not None
        fake.assert_clean()


async def test_without_shard_settings_the_bot_serves_what_discord_recommends(tmp_path: Path, clock: FakeClock,
                                                                            caplog) -> None:
    caplog.set_level(logging.INFO, logger="railyard.discord")
    async with FakeDiscord(quiet_period=0.05, shards=2) as fake:
        g0, g1 = sharded_world(fake, 2)
        bot = sharded_bot(fake, tmp_path / "railyard.sqlite3", clock, None, None)
        async with fake.running(bot):
            assert bot.shard_count == 2 and bot.served_shards == (0, 1)
            assert fake.live_shards == [(0, 2), (1, 2)]
            assert fake.requests_to("GET", "/gateway/bot")  # asked Discord
            assert "on shards 0-1 of 2" in caplog.text
        fake.assert_clean()


# ------------------------------------------------------------------------------ the flags
def test_run_flags_override_the_shard_settings_and_are_checked_alike(tmp_path: Path, capsys) -> None:
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=abc.def\nRAILYARD_SHARD_COUNT=4\nRAILYARD_SHARD_IDS=0-1\n", encoding="utf-8")
    settings = load_settings(env, environ={})
    assert (settings.shard_ids, settings.shard_count) == ((0, 1), 4)
    assert with_shard_flags(settings, None, None) is settings
    moved = with_shard_flags(settings, "2-3", None)
    assert (moved.shard_ids, moved.shard_count) == ((2, 3), 4)
    assert (settings.shard_ids, settings.shard_count) == ((0, 1), 4)  # the settings themselves are untouched
    wider = with_shard_flags(settings, "0,5,7", "8")
    assert (wider.shard_ids, wider.shard_count) == ((0, 5, 7), 8)
    bot = RailyardBot(wider, background=False)
    assert (tuple(bot.shard_ids), bot.shard_count, bot.served_shards) == ((0, 5, 7), 8, (0, 5, 7))
    assert bot.shards_text() == "shards 0,5,7 of 8"
    problems = {
        ("0-4", "4"): "--shard-ids has shard 4, but with --shard-count 4 the ids run from 0 to 3",
        (None, "1"): "RAILYARD_SHARD_IDS has shard 1, but with --shard-count 1 the ids run from 0 to 0",
        ("1-0", None): "--shard-ids has the range '1-0', which runs backwards",
        (None, "two"): "--shard-count must be a whole number of shards (1 or more), not 'two'",
        ("3", "0"): "--shard-count must be a whole number of shards (1 or more), not '0'",
    }
    for (ids, count), message in problems.items():
        with pytest.raises(ConfigError) as caught:
            with_shard_flags(settings, ids, count)
        assert str(caught.value).startswith(message), caught.value
    bare = load_settings(None, environ={"DISCORD_TOKEN": "abc.def"})
    with pytest.raises(ConfigError, match="--shard-ids needs --shard-count"):
        with_shard_flags(bare, "0", None)
    only_count = with_shard_flags(bare, None, "3")  # every shard of 3 in this process
    assert (only_count.shard_ids, only_count.shard_count) == (None, 3)
    assert RailyardBot(only_count, background=False).served_shards == (0, 1, 2)
    # through the command line: one line, exit 2, before anything connects
    assert cli.main(["run", "--env", str(env), "--shard-ids", "0-4", "--shard-count", "4"]) == 2
    err = capsys.readouterr().err
    assert err == "railyard: --shard-ids has shard 4, but with --shard-count 4 the ids run from 0 to 3\n"


async def test_railyard_run_with_a_shard_count_discord_refuses_says_so(tmp_path: Path, clock: FakeClock,
                                                                      monkeypatch, capsys) -> None:
    monkeypatch.setattr(launcher, "setup_logging", lambda level: None)
    env = tmp_path / ".env"
    async with FakeDiscord(quiet_period=0.05) as fake:
        sharded_world(fake, 2)
        env.write_text(f"DISCORD_TOKEN={fake.token}\nDATABASE_URL=sqlite:///{tmp_path / 'b.sqlite3'}\n",
                       encoding="utf-8")
        async with fake.running(sharded_bot(fake, tmp_path / "a.sqlite3", clock, (0,), 2)):
            # another process started with another count than the running one's
            args = argparse.Namespace(env=env, shard_ids="1", shard_count="3")
            code = await asyncio.to_thread(launcher.main_run, args)
            assert fake.live_shards == [(0, 2)]
    assert code == 2
    assert capsys.readouterr().err == (
        "railyard: Discord refused shard 1 of 3 (4010 invalid shard): every process must use the same "
        "RAILYARD_SHARD_COUNT, with its RAILYARD_SHARD_IDS below it.\n")
    assert fake.shard_rejections == [([1, 3], "shard count 3 disagrees with the live sessions' [2]")]


# ------------------------------------------------------------------------------ two processes
async def test_two_bot_processes_each_answer_the_guilds_of_their_shard(tmp_path: Path) -> None:
    # A loaded machine may be slow to start two interpreters and to answer their first
    # interaction: the deadlines here are about routing, not speed.
    async with FakeDiscord(quiet_period=0.05, ack_deadline=10.0, response_timeout=20.0) as fake:
        g0, g1 = sharded_world(fake, 2)
        db = tmp_path / "railyard.sqlite3"
        url = f"sqlite:///{db}"
        store = await open_store(url)  # migrated once, before two processes open it
        await store.close()
        async with BotProcesses(fake, url, tmp_path) as procs:
            first = procs.start(shard_ids="0", shard_count=2, sync_commands=True)
            second = procs.start(shard_ids="1", shard_count=2)
            await procs.wait_ready(timeout=60)
            assert (first.shards, second.shards) == ((0,), (1,)), procs.report()
            assert fake.live_shards == [(0, 2), (1, 2)]
            serving = {0: first, 1: second}
            results: list[tuple[int, InteractionResult]] = []
            for shard, guild in enumerate((g0, g1)):
                channel = guild + 1
                opened = await fake.slash(guild, channel, ALICE, *NEW)
                results.append((shard, opened))
                assert opened.ephemeral, (opened, procs.report())
                lobby = await until(lambda: lobby_in(fake, channel), 20, "lobby post", procs.report)
                joined = await fake.click(lobby, None, BOB, label=_label("discord.lobby.join", "en-US"))
                results.append((shard, joined))
                # the join is committed before its answer is shown: only then may Alice start
                await until(lambda: joined.answered_mono, 20, "answer to the join", procs.report)
                started = await fake.click(lobby, None, ALICE, label=_label("discord.lobby.start", "en-US"))
                results.append((shard, started))
                await until(lambda: started.answered_mono, 20, "answer to the start", procs.report)
            for shard, result in results:
                assert result.shard == shard and result.callback is not None, (result, procs.report())
                owner, other = serving[shard], serving[1 - shard]
                await owner.wait_for(lambda line: line.startswith(f"interaction {result.id} "), 10,
                                     f"log of interaction {result.id}")
                assert result.id not in other.interactions(), procs.report()
            assert first.pid != second.pid
            # both games started, in the one database both processes share
            async with contextlib.AsyncExitStack() as stack:
                store = await open_store(url)
                stack.push_async_callback(store.close)
                service = SessionService(store)
                for guild in (g0, g1):
                    status = await service.status(str(guild + 1))
                    assert status.info.status == "active" and len(status.info.seats) == 2
            # SIGTERM closes a process cleanly, even with its dispatcher busy posting the boards;
            # SIGKILL just ends the other, and its gateway session drops with it
            assert await first.stop() == 0, procs.report()
            assert second.kill() == -signal.SIGKILL
            await until(lambda: fake.live_shards == [], 10, "sessions to drop", procs.report)
        fake.assert_no_unexpected_requests()
