"""`railyard doctor`: every check against real pieces — a SQLite file, the loopback Discord with
its permission model — says what is wrong and how to fix it, and changes nothing."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import discord
import pytest

from bot.discord.doctor import FAIL, OK, WARN, diagnose, permissions_in
from bot.store import Store
from tests.fake_discord import FakeDiscord
from tests.support import dump_db

GUILD, FINE, NO_FILES, GONE, GROUP = 900, 901, 902, 903, 904


def env_file(tmp_path: Path, **values: str) -> Path:
    path = tmp_path / ".env"
    path.write_text("".join(f"{k}={v}\n" for k, v in values.items()), encoding="utf-8")
    return path


async def add_open_game(store: Store, channel: int, now: float, *, settings: dict | None = None,
                        guild: int | None = GUILD) -> int:
    async with store.write() as tx:
        return await tx.insert_game(game="ticket_to_ride", guild_id=str(guild) if guild else None,
                                    channel_id=str(channel), host_user_id="11", locale="en", options={},
                                    settings=settings or {}, seed=1, now=now)


async def test_offline_checks_name_a_bad_setting_and_stop(tmp_path: Path) -> None:
    findings = await diagnose(env_file(tmp_path, RAILYARD_SHARD_IDS="0,5", RAILYARD_SHARD_COUNT="2"),
                              discord_checks=False)
    assert findings[0].level == FAIL and "RAILYARD_SHARD_IDS" in findings[0].what
    assert all(f.level == FAIL for f in findings)


async def test_a_missing_file_is_a_note_and_a_newer_schema_a_problem(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    findings = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}"), discord_checks=False)
    assert [f.level for f in findings if "SQLite" in f.what] == [WARN]
    assert not db.exists(), "the doctor created the database"

    async with await Store.open(db):
        pass
    findings = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}"), discord_checks=False)
    assert [f.level for f in findings if "SQLite" in f.what] == [OK, OK]
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    findings = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}"), discord_checks=False)
    newer = [f for f in findings if f.level == FAIL]
    assert len(newer) == 1 and "newer" in newer[0].what and "upgrade" in (newer[0].fix or "")


async def test_channels_with_open_games_are_checked_for_the_permissions_a_post_needs(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    async with await Store.open(db) as store:
        for n, channel in enumerate((FINE, NO_FILES, GONE)):
            await add_open_game(store, channel, 1_700_000_000.0 + n)
        # a game in a group DM lives by its answers: the bot needs nothing there, nor could it look
        await add_open_game(store, GROUP, 1_700_000_010.0, settings={"delivery": "replies"}, guild=None)
    before = dump_db(db)
    async with FakeDiscord() as fake:
        fake.add_guild(GUILD, "Yard", channels=[FINE, NO_FILES, GONE])
        fake.add_group_dm(GROUP, [11, 12])
        await fake.deny_bot(NO_FILES, "attach_files", "embed_links")
        await fake.delete_channel(GONE)
        with fake.patched():
            findings = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}", DISCORD_TOKEN=fake.token))
            refused = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}", DISCORD_TOKEN="not-the-token"))
    by_channel = {c: [f for f in findings if f"channel {c} " in f.what] for c in (FINE, NO_FILES, GONE)}
    assert [f.level for f in by_channel[FINE]] == [OK]
    (lacking,) = by_channel[NO_FILES]
    assert lacking.level == FAIL and "Attach Files" in lacking.what and "Embed Links" in lacking.what
    assert "Send Messages" not in lacking.what and "allow" in (lacking.fix or "")
    (gone,) = by_channel[GONE]
    assert gone.level == WARN and "no longer exists" in gone.what
    assert [f for f in findings if f"channel {GROUP} " in f.what] == [] and fake.violations == []
    assert any(f.level == OK and "accepts the token" in f.what for f in findings)
    assert any("refused the token" in f.what for f in refused if f.level == FAIL)
    assert dump_db(db) == before, "the doctor wrote to the database"


@pytest.mark.parametrize("thread", [False, True])
def test_permissions_follow_discords_order(thread: bool) -> None:
    everyone = {"id": "1", "permissions": str(1024 | 2048)}     # view, send
    helpers = {"id": "2", "permissions": str(32768)}            # attach files
    guild = {"id": "1", "owner_id": "99", "roles": [everyone, helpers]}
    member = {"user": {"id": "5"}, "roles": ["2"]}
    channel = {"id": "10", "type": 0, "permission_overwrites": [
        {"id": "1", "type": 0, "allow": "0", "deny": "2048"},   # @everyone may not send here
        {"id": "2", "type": 0, "allow": "2048", "deny": "0"},   # but the helpers role may
        {"id": "5", "type": 1, "allow": "0", "deny": "32768"},  # and this member may not attach
    ]}
    if thread:
        perms = permissions_in(guild, member, {"id": "11", "type": 11, "parent_id": "10"}, channel)
    else:
        perms = permissions_in(guild, member, channel)
    assert perms.view_channel and perms.send_messages and not perms.attach_files
    owner = permissions_in(guild, {"user": {"id": "99"}, "roles": []}, channel)
    assert owner.attach_files


async def test_a_game_in_a_forum_post_has_its_forum_checked_too(tmp_path: Path) -> None:
    from tests.fake_discord.models import FORUM, PUBLIC_THREAD

    forum, post, tagged, tagged_post = 910, 911, 912, 913
    db = tmp_path / "games.sqlite3"
    async with await Store.open(db) as store:
        await add_open_game(store, post, 1_700_000_000.0)
        await add_open_game(store, tagged_post, 1_700_000_001.0)
    async with FakeDiscord() as fake:
        fake.add_guild(GUILD, "Yard", channels=[
            {"id": forum, "name": "games", "type": FORUM},
            {"id": post, "name": "Friday", "type": PUBLIC_THREAD, "parent_id": forum},
            {"id": tagged, "name": "tidy", "type": FORUM, "available_tags": [
                {"name": "Lobby"}, {"name": "プレイ中"}, {"name": "finished", "moderated": True}]},
            {"id": tagged_post, "name": "Saturday", "type": PUBLIC_THREAD, "parent_id": tagged},
        ])
        await fake.deny_bot(forum, "send_messages")  # threads keep Send Messages in Threads
        with fake.patched():
            findings = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}", DISCORD_TOKEN=fake.token))
            fake.guilds[GUILD].everyone.permissions |= discord.Permissions(manage_threads=True).value
            allowed = await diagnose(env_file(tmp_path, DATABASE_URL=f"sqlite:///{db}", DISCORD_TOKEN=fake.token))
    untagged = [f for f in findings if f"channel {post} " in f.what]
    assert [f.level for f in untagged] == [OK, WARN, WARN]  # the post itself is fine
    assert "create posts" in untagged[1].what and "Send Messages" in (untagged[1].fix or "")
    assert "no status tags for lobby, playing, finished" in untagged[2].what
    assert "Manage Channels" in (untagged[2].fix or "") and "募集中" in (untagged[2].fix or "")
    tidy = [f for f in findings if f"channel {tagged_post} " in f.what]
    assert [f.level for f in tidy] == [OK, WARN] and "moderated status tags (finished)" in tidy[1].what
    assert [f.level for f in allowed if f"channel {tagged_post} " in f.what] == [OK, OK]
