"""Self-tests of the loopback's shards: several gateway sessions at once, guild events routed
by Discord's formula, 4010 for invalid shards, the recommended count, and discord.py's own
AutoShardedClient against it."""
from __future__ import annotations

import asyncio
import contextlib
import json

import aiohttp
import discord
import pytest

from tests.fake_discord import CLOSE_INVALID_SHARD, FakeDiscord, shard_for_guild

ALICE = 7
INTENTS = 1 | (1 << 12)  # GUILDS, DIRECT_MESSAGES


class RawSession:
    """A bare gateway client: IDENTIFY with a shard, then keep every event it gets."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict]] = []
        self.close_code: int | None = None
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                data = json.loads(msg.data)
                if data["op"] == 0:
                    self.events.append((data["t"], data["d"]))
        self.close_code = self.ws.close_code

    def named(self, event: str) -> list[dict]:
        return [d for t, d in self.events if t == event]

    async def closed(self, timeout: float = 3.0) -> int | None:
        await asyncio.wait_for(asyncio.shield(self._task), timeout)
        return self.close_code

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(BaseException):
            await self._task


@contextlib.asynccontextmanager
async def sessions(fake: FakeDiscord):
    opened: list[RawSession] = []
    async with aiohttp.ClientSession() as http:
        async def identify(shard: list[int] | None, *, wait: bool = True) -> RawSession:
            ws = await http.ws_connect(fake.gateway_url)
            hello = await ws.receive_json()
            assert hello["op"] == 10
            d = {"token": fake.token, "intents": INTENTS, "properties": {"os": "linux"}}
            if shard is not None:
                d["shard"] = shard
            await ws.send_json({"op": 2, "d": d})
            session = RawSession(ws)
            opened.append(session)
            if wait:
                for _ in range(300):
                    if session.named("READY") or session.close_code is not None:
                        break
                    await asyncio.sleep(0.01)
            return session

        try:
            yield identify
        finally:
            for session in opened:
                await session.close()


def world(fake: FakeDiscord, count: int = 2) -> list[int]:
    """One guild per shard (channels: guild id + 1 and + 2) and ALICE in each."""
    fake.add_user(ALICE, "alice")
    guilds = [fake.guild_id_on_shard(shard, count) for shard in range(count)]
    for guild in guilds:
        fake.add_guild(guild, f"guild {guild}", channels=[guild + 1, guild + 2], members=[ALICE])
    return guilds


def test_guild_id_on_shard_follows_discords_formula() -> None:
    fake = FakeDiscord()
    for count in (1, 2, 3, 16):
        for shard in range(count):
            guild = fake.guild_id_on_shard(shard, count)
            assert (guild >> 22) % count == shard == shard_for_guild(guild, count) == fake.shard_of(guild, count)
            fake.add_guild(guild, "g")
            assert fake.guild_id_on_shard(shard, count) != guild  # a fresh one each time
    with pytest.raises(ValueError):
        fake.guild_id_on_shard(2, 2)
    # a real snowflake: 175928847299117063 >> 22 = 41944705796, which is even
    assert shard_for_guild(175928847299117063, 2) == 0 and shard_for_guild(175928847299117063 + (1 << 22), 2) == 1


async def test_gateway_bot_reports_the_recommended_shard_count() -> None:
    for shards in (1, 3):
        async with FakeDiscord(shards=shards) as fake, aiohttp.ClientSession() as http:
            async with http.get(fake.api_base + "/gateway/bot", headers={"Authorization": f"Bot {fake.token}"}) as r:
                body = await r.json()
            assert body["shards"] == shards and body["url"] == fake.gateway_url
    with pytest.raises(ValueError):
        FakeDiscord(shards=0)


async def test_guild_events_and_interactions_go_to_the_session_of_their_shard() -> None:
    async with FakeDiscord(quiet_period=0.02) as fake:
        g0, g1 = world(fake)
        async with sessions(fake) as identify:
            s0 = await identify([0, 2])
            s1 = await identify([1, 2])
            assert fake.live_shards == [(0, 2), (1, 2)]
            # READY lists, and GUILD_CREATE sends, only the session's own guilds
            assert [g["id"] for g in s0.named("READY")[0]["guilds"]] == [str(g0)]
            assert [g["id"] for g in s1.named("READY")[0]["guilds"]] == [str(g1)]
            assert s0.named("READY")[0]["shard"] == [0, 2] and s1.named("READY")[0]["shard"] == [1, 2]
            assert [g["id"] for g in s0.named("GUILD_CREATE")] == [str(g0)]
            assert [g["id"] for g in s1.named("GUILD_CREATE")] == [str(g1)]
            # channel events follow their guild
            await fake.add_channel(g1, g1 + 5, "later")
            await fake.delete_channel(g0 + 2)
            await asyncio.sleep(0.1)
            assert [c["id"] for c in s1.named("CHANNEL_CREATE")] == [str(g1 + 5)] and not s0.named("CHANNEL_CREATE")
            assert [c["id"] for c in s0.named("CHANNEL_DELETE")] == [str(g0 + 2)] and not s1.named("CHANNEL_DELETE")
            # interactions: to the shard of their guild; a DM to shard 0
            on1 = await fake.slash(g1, g1 + 1, ALICE, "ping", require_synced=False, wait=False)
            in_dm = await fake.slash(None, None, ALICE, "ping", require_synced=False, wait=False)
            await asyncio.sleep(0.1)
            assert (on1.shard, on1.session_id) == (1, s1.named("READY")[0]["session_id"])
            assert in_dm.shard == 0 and in_dm.delivered
            assert [d["id"] for d in s1.named("INTERACTION_CREATE")] == [str(on1.id)]
            assert [d["id"] for d in s0.named("INTERACTION_CREATE")] == [str(in_dm.id)]
            # a user's message in a DM reaches shard 0 only
            await fake.user_message(fake.dm_channel(ALICE).id, ALICE, "hello")
            await asyncio.sleep(0.1)
            assert len(s0.named("MESSAGE_CREATE")) == 1 and not s1.named("MESSAGE_CREATE")
            # with shard 0 gone, its guild's interactions reach nobody and time out unanswered
            await s0.close()
            await asyncio.sleep(0.05)
            assert fake.live_shards == [(1, 2)]
            fake.ack_deadline = 0.1
            lost = await fake.slash(g0, g0 + 1, ALICE, "ping", require_synced=False, timeout=0.5)
            assert lost.shard is None and not lost.delivered and lost.callback is None
            assert str(lost.id) not in {d["id"] for d in s1.named("INTERACTION_CREATE")}
        fake.assert_clean()


async def test_an_invalid_shard_is_closed_with_4010() -> None:
    async with FakeDiscord() as fake:
        world(fake)
        async with sessions(fake) as identify:
            beyond = await identify([2, 2])
            assert await beyond.closed() == CLOSE_INVALID_SHARD
            first = await identify([0, 2])
            assert first.named("READY")
            other_count = await identify([1, 3])  # disagrees with the live [0, 2]
            assert await other_count.closed() == CLOSE_INVALID_SHARD
            assert not other_count.events
            second = await identify([1, 2])
            assert second.named("READY") and fake.live_shards == [(0, 2), (1, 2)]
            assert [why for _, why in fake.shard_rejections] == [
                "shard id 2 is not below the shard count 2",
                "shard count 3 disagrees with the live sessions' [2]",
            ]
            # once they are gone, another count is fine (a resharded restart)
            await first.close()
            await second.close()
            await asyncio.sleep(0.05)
            resharded = await identify([2, 3])
            assert resharded.named("READY") and fake.live_shards == [(2, 3)]
            # no shard at all is the unsharded [0, 1]; it disagrees with [2, 3]
            unsharded = await identify(None)
            assert await unsharded.closed() == CLOSE_INVALID_SHARD


class NoWaitShardedClient(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id, *, initial=False):
        return None  # the loopback does not limit IDENTIFYs


async def test_discord_py_auto_sharded_client_uses_the_recommended_count_and_resumes_per_shard() -> None:
    async with FakeDiscord(shards=2, quiet_period=0.02) as fake:
        g0, g1 = world(fake)
        client = NoWaitShardedClient(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
        seen: list[tuple[int, int | None]] = []

        @client.event
        async def on_interaction(interaction: discord.Interaction) -> None:
            seen.append((interaction.id, interaction.guild_id))
            await interaction.response.send_message("pong", ephemeral=True)

        async with fake.running(client):
            assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
            assert fake.live_shards == [(0, 2), (1, 2)]
            assert client.get_guild(g0).shard_id == 0 and client.get_guild(g1).shard_id == 1
            answered = await fake.slash(g1, g1 + 1, ALICE, "ping", require_synced=False)
            assert answered.shard == 1 and answered.callback_type == 4
            await fake.disconnect_gateway(shard=1)
            for _ in range(300):
                if fake.live_shards == [(0, 2), (1, 2)] and any(s.shard == [1, 2] for s in fake.live_sessions):
                    break
                await asyncio.sleep(0.01)
            again = await fake.slash(g1, g1 + 1, ALICE, "ping", require_synced=False)
            assert again.shard == 1 and again.callback_type == 4  # resumed on the same shard
            assert [op for op in (m.get("op") for m in fake.gateway_received) if op in (2, 6)] == [2, 2, 6]
        assert seen == [(answered.id, g1), (again.id, g1)]
        fake.assert_clean()
