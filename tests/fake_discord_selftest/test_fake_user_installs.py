"""Self-tests of the loopback's installs and places, against the real discord.py client: group
DMs, the app installed to a person or a server, the contexts a command is registered for, and
what Discord refuses where the bot is no member (its own posts, a sixth follow-up)."""
from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fake_discord import CommandUnavailable, FakeDiscord, limits

GUILD, CHANNEL = 1000, 1001  # the app is installed here
OUTSIDE, OUTSIDE_CHANNEL = 2000, 2001  # a server the app is not installed to
GDM = 3000
ALICE, BOB, CAROL = 7, 8, 9  # Alice installed the app to her account; Bob and Carol did not


class WhereBot(discord.Client):
    __test__ = False

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none(), guild_ready_timeout=0.05,
                         allowed_mentions=discord.AllowedMentions.none())
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []
        self.errors: list[discord.HTTPException] = []
        bot = self

        @self.tree.command(name="where", description="Say where this is")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def where(interaction: discord.Interaction) -> None:
            bot.seen.append(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Again", custom_id="where:again"))
            await interaction.response.send_message("here", view=view)

        @self.tree.command(name="admin", description="A server's own business")
        @app_commands.allowed_installs(guilds=True, users=False)
        @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin", ephemeral=True)

        @self.tree.command(name="plain", description="No places of its own")
        async def plain(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("plain", ephemeral=True)

        @self.tree.command(name="chatty", description="Six follow-ups")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def chatty(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("0")
            for n in range(1, 7):
                try:
                    await interaction.followup.send(str(n))
                except discord.HTTPException as exc:
                    bot.errors.append(exc)

        @self.tree.command(name="announce", description="Post in the channel by itself")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("posting", ephemeral=True)
            try:
                await interaction.client.get_partial_messageable(interaction.channel_id).send("by myself")
            except discord.HTTPException as exc:
                bot.errors.append(exc)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            self.seen.append(interaction)
            await interaction.response.send_message("again", ephemeral=True)


@pytest.fixture
async def fake():
    async with FakeDiscord() as f:
        f.add_user(ALICE, "alice", installed=True)
        f.add_user(BOB, "bob")
        f.add_user(CAROL, "carol")
        f.add_guild(GUILD, "Installed", channels=[CHANNEL], members=[ALICE, BOB])
        f.add_guild(OUTSIDE, "Elsewhere", channels=[OUTSIDE_CHANNEL], members=[ALICE, BOB], installed=False)
        f.add_group_dm(GDM, [ALICE, BOB], name="friends")
        yield f


@pytest.fixture
async def bot(fake):
    client = WhereBot()
    async with fake.running(client):
        await client.tree.sync()
        yield client


async def test_registration_carries_installs_and_contexts(fake, bot):
    sent = {c["name"]: c for c in fake.command_syncs[-1][1]}
    assert (sent["where"]["integration_types"], sent["where"]["contexts"]) == ([0, 1], [0, 1, 2])
    assert (sent["admin"]["integration_types"], sent["admin"]["contexts"]) == ([0], [0])
    assert sent["plain"]["integration_types"] is None and sent["plain"]["contexts"] is None
    # the client hears only of the server the app is installed to
    assert [g.id for g in bot.guilds] == [GUILD]
    assert not any(e == "GUILD_CREATE" and d["id"] == str(OUTSIDE) for e, d in fake.gateway_events)


async def test_a_group_dm_reaches_the_app_of_whoever_installed_it(fake, bot):
    r = await fake.slash(None, GDM, ALICE, "where")
    assert r.callback_type == 4 and not r.ephemeral
    payload = r.payload
    assert payload["context"] == limits.CONTEXT_PRIVATE_CHANNEL and "guild_id" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    assert payload["channel"]["type"] == 3 and {u["id"] for u in payload["channel"]["recipients"]} == {str(ALICE), str(BOB)}
    assert int(payload["app_permissions"]) == limits.PRIVATE_CHANNEL_APP_PERMISSIONS
    seen = bot.seen[-1]
    assert seen.context.private_channel and seen.guild_id is None and seen.is_user_integration()
    assert isinstance(seen.channel, discord.GroupChannel)
    # Bob did not install it: Discord offers him none of its commands there
    with pytest.raises(CommandUnavailable):
        await fake.slash(None, GDM, BOB, "where")
    # ... but the buttons on its answer are anyone's in the group DM, authorized by Alice's install
    again = await fake.click(r.original, "where:again", BOB)
    assert again.callback_type == 4
    assert again.payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    assert not bot.seen[-1].is_user_integration()  # Bob pressed it, on Alice's install
    with pytest.raises(LookupError):  # Carol is not in the group DM
        await fake.click(r.original, "where:again", CAROL)
    # a command registered for servers only is not offered there, to anyone
    with pytest.raises(CommandUnavailable, match="context 2"):
        await fake.slash(None, GDM, ALICE, "admin")
    assert [c[3] for c in fake.refused_commands] == ["where", "admin"]
    fake.assert_clean()


async def test_the_dm_with_the_bot_and_a_server_it_is_not_in(fake, bot):
    dm = await fake.slash(None, None, ALICE, "where")
    assert dm.payload["context"] == limits.CONTEXT_BOT_DM
    assert dm.payload["authorizing_integration_owners"] == {"0": "0", "1": str(ALICE)}
    assert int(dm.payload["app_permissions"]) == limits.BOT_DM_APP_PERMISSIONS
    outside = await fake.slash(OUTSIDE, OUTSIDE_CHANNEL, ALICE, "where")
    assert outside.payload["context"] == limits.CONTEXT_GUILD
    assert outside.payload["authorizing_integration_owners"] == {"1": str(ALICE)}
    assert not bot.seen[-1].is_guild_integration()
    inside = await fake.slash(GUILD, CHANNEL, ALICE, "where")
    assert inside.payload["authorizing_integration_owners"] == {"0": str(GUILD), "1": str(ALICE)}
    assert bot.seen[-1].is_guild_integration()
    with pytest.raises(CommandUnavailable):  # a server install's command, where the server did not install it
        await fake.slash(OUTSIDE, OUTSIDE_CHANNEL, ALICE, "admin")
    with pytest.raises(CommandUnavailable):  # Bob reaches the app there through no install at all
        await fake.slash(OUTSIDE, OUTSIDE_CHANNEL, BOB, "where")
    # unset places, as Discord takes them: a server and the DM with the bot, no group DM
    assert (await fake.slash(None, None, BOB, "plain")).content == "plain"
    with pytest.raises(CommandUnavailable):
        await fake.slash(None, GDM, ALICE, "plain")
    fake.assert_clean()


async def test_no_post_of_its_own_where_the_bot_is_no_member(fake, bot):
    for guild, channel in ((None, GDM), (OUTSIDE, OUTSIDE_CHANNEL)):
        bot.errors.clear()
        r = await fake.slash(guild, channel, ALICE, "announce")
        assert r.ephemeral and r.content == "posting"
        (error,) = bot.errors
        assert isinstance(error, discord.Forbidden) and error.code == 50001
        assert [m for m in fake.messages(channel) if m.interaction_id is None] == []
    assert [v.rule for v in fake.violations] == ["not_a_member", "not_a_member"]
    with pytest.raises(AssertionError, match="not_a_member"):
        fake.assert_clean()


async def test_five_follow_ups_where_only_a_user_install_reaches(fake, bot):
    installed = await fake.slash(GUILD, CHANNEL, ALICE, "chatty")
    assert len(installed.followups) == 6 and bot.errors == []
    assert fake.violations == []
    group = await fake.slash(None, GDM, ALICE, "chatty")
    assert [m.content for m in group.followups] == ["1", "2", "3", "4", "5"]
    (error,) = bot.errors
    assert error.status == 400 and error.code == 40094
    assert [v.rule for v in fake.violations] == ["followup_limit"]
