"""Self-tests of tests/fake_discord against the real discord.py client.

A minimal bot is defined here (not the Railyard bot): one slash group with
subcommands and autocomplete, a persistent DynamicItem button, a persistent
select, an ephemeral PNG reply, a deferred response edited later, and a slow
responder for the 3-second rule.
"""

from __future__ import annotations

import asyncio
import io
import struct
import zlib

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
from discord import app_commands
from discord.http import Route

from tests.fake_discord import FakeDiscord, fast_http_retries, limits

GUILD, CHANNEL, ALICE, BOB, MOD = 1000, 1001, 7, 8, 9
GAME_ID = 42
MOVES = ["claim", "claim-route", "draw", "draw-tickets", "pass"]


def tiny_png(width: int = 2, height: int = 1) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


PNG = tiny_png()


# --------------------------------------------------------------------------- the test bot
class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"game:(?P<gid>\d+):hand"):
    def __init__(self, gid: int) -> None:
        super().__init__(discord.ui.Button(label="Show my hand", style=discord.ButtonStyle.primary, custom_id=f"game:{gid}:hand"))
        self.gid = gid

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.events.append(("hand", self.gid, interaction.user.id))
        await interaction.response.send_message(f"hand for game {self.gid}", ephemeral=True,
                                                file=discord.File(io.BytesIO(PNG), "hand.png"))


class ColorSelect(discord.ui.Select):
    def __init__(self) -> None:
        super().__init__(custom_id="game:color", placeholder="Pick a colour",
                         options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue", "green")])

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.events.append(("color", tuple(self.values), interaction.user.id))
        await interaction.response.edit_message(content=f"colour: {self.values[0]}")


class ColorView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(ColorSelect())


class GameCommands(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(name="game", description="Play a board game")

    @app_commands.command(name="new", description="Start a new game")
    @app_commands.describe(game="Which game to play")
    @app_commands.choices(game=[app_commands.Choice(name="Ticket to Ride", value="ticket_to_ride")])
    async def new(self, interaction: discord.Interaction, game: str) -> None:
        view = ColorView()
        view.add_item(HandButton(GAME_ID))
        await interaction.response.send_message(f"new {game} [{interaction.locale.value}/{interaction.guild_locale.value}]", view=view)

    @app_commands.command(name="move", description="Make a move")
    async def move(self, interaction: discord.Interaction, game_id: int, move: str) -> None:
        await interaction.response.send_message(f"game {game_id}: {move}")

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        interaction.client.events.append(("autocomplete", interaction.namespace.game_id, current))
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

    @app_commands.command(name="hand", description="Show your hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand", ephemeral=True, file=discord.File(io.BytesIO(PNG), "hand.png"))

    @app_commands.command(name="slow", description="Render slowly")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.45)  # longer than the fake's quiet period
        await interaction.edit_original_response(content="rendered", attachments=[discord.File(io.BytesIO(PNG), "board.png")])

    @app_commands.command(name="think", description="Ephemeral defer, then follow-ups")
    async def think(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("first")
        await interaction.followup.send("second")

    @app_commands.command(name="late", description="Answer too late")
    async def late(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.5)
        try:
            await interaction.response.send_message("too late")
        except discord.HTTPException as exc:
            interaction.client.errors.append(exc)

    @app_commands.command(name="admin", description="Needs Manage Channels")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)


class TestBot(discord.Client):
    __test__ = False

    def __init__(self, **options) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("allowed_mentions", discord.AllowedMentions(everyone=False, roles=False, users=True))
        super().__init__(guild_ready_timeout=0.05, **options)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(GameCommands())
        self.events: list = []
        self.errors: list = []

        @self.tree.error
        async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
            self.errors.append(error)
            if not interaction.response.is_done():
                await interaction.response.send_message(f"error: {type(error).__name__}", ephemeral=True)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(HandButton)
        self.add_view(ColorView())


# --------------------------------------------------------------------------- fixtures
async def sync_to_guild(client: TestBot) -> list:
    client.tree.copy_global_to(guild=discord.Object(GUILD))
    return await client.tree.sync(guild=discord.Object(GUILD))


@pytest.fixture
async def fake():
    async with FakeDiscord() as f:
        f.add_user(ALICE, "alice")
        f.add_user(BOB, "bob", dm_closed=True)
        f.add_user(MOD, "mod")
        f.add_guild(GUILD, "Railyard Test", channels=[CHANNEL, {"id": 1002, "name": "games"}],
                    members=[ALICE, BOB, {"id": MOD, "permissions": discord.Permissions(manage_channels=True).value}],
                    roles=[{"id": 1500, "name": "players", "permissions": 0}], locale="de")
        yield f


@pytest.fixture
async def bot(fake):
    client = TestBot()
    async with fake.running(client):
        await sync_to_guild(client)
        yield client


# --------------------------------------------------------------------------- harness basics
def test_discord_py_patch_points_exist():
    assert isinstance(vars(discord.http.Route)["BASE"], str)
    assert vars(discord.http.Route)["BASE"].startswith("https://discord.com/api/v10")
    assert "DEFAULT_GATEWAY" in vars(discord.gateway.DiscordWebSocket)
    assert discord.__version__ == "2.7.1", "the fake was checked against discord.py 2.7.1; re-check on upgrade"


async def test_patched_restores_even_on_failure(fake):
    before = (Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    with pytest.raises(RuntimeError, match="boom"):
        with fake.patched():
            assert Route.BASE == fake.api_base
            assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith(fake.gateway_url)
            raise RuntimeError("boom")
    assert (Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == before


async def test_wrong_token_raises_login_failure(fake):
    client = TestBot()
    with fake.patched():
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
        await client.close()
    assert fake.requests_to("GET", "/users/@me")[0].status == 401


async def test_ready_populates_guild_cache(fake, bot):
    guild = bot.get_guild(GUILD)
    assert guild is not None and guild.name == "Railyard Test"
    assert guild.preferred_locale == discord.Locale.german
    assert guild.default_role.id == GUILD
    assert {r.name for r in guild.roles} == {"@everyone", "players"}
    assert bot.get_channel(CHANNEL).name == "channel-1001"
    assert guild.get_channel(1002).name == "games"
    assert guild.me is not None and guild.me.id == fake.application_id
    assert bot.application_id == fake.application_id
    # default intents have no GUILD_MEMBERS, so (like Discord) only the bot is sent
    (sent,) = [d for event, d in fake.gateway_events if event == "GUILD_CREATE"]
    assert [m["user"]["id"] for m in sent["members"]] == [str(fake.application_id)]
    assert guild.get_member(ALICE) is None and guild.member_count == 5
    ident = fake.identify_payloads[-1]
    assert ident["token"] == fake.token and ident["intents"] == discord.Intents.default().value


async def test_members_intent_sends_members(fake):
    client = TestBot(intents=discord.Intents.default() | discord.Intents(members=True))
    async with fake.running(client):
        assert client.get_guild(GUILD).get_member(ALICE).name == "alice"
        assert len(client.get_guild(GUILD).members) == 5


async def test_gateway_resume_after_disconnect(fake, bot):
    first = fake.active_session
    await fake.disconnect_gateway()
    for _ in range(200):
        if fake.active_session not in (None, first):
            break
        await asyncio.sleep(0.01)
    assert fake.active_session is not first
    assert fake.gateway_received[-1]["op"] in (1, 6) and any(m["op"] == 6 for m in fake.gateway_received)
    assert fake.gateway_events[-1][0] == "RESUMED"
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game hand")
    assert r.callback_type == 4


async def test_tree_sync_payload_recorded(fake, bot):
    (game,) = fake.commands[GUILD]
    assert game["name"] == "game" and game["guild_id"] == str(GUILD)
    subs = {o["name"]: o for o in game["options"]}
    assert set(subs) == {"new", "move", "hand", "slow", "think", "late", "admin"}
    assert subs["new"]["options"][0]["choices"] == [{"name": "Ticket to Ride", "value": "ticket_to_ride"}]
    assert [o.get("autocomplete", False) for o in subs["move"]["options"]] == [False, True]
    assert fake.command_syncs[-1][0] == GUILD
    fake.assert_clean()


# --------------------------------------------------------------------------- interactions
async def test_slash_subcommand_reaches_handler_and_records_callback(fake, bot):
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game", [("new", {"game": "ticket_to_ride"})], locale="ja")
    assert r.callback_type == 4 and not r.ephemeral
    assert r.content == "new ticket_to_ride [ja/de]"
    assert r.ack_latency < 3.0
    cb = fake.interaction_responses[-1]
    assert cb.interaction_id == r.id and cb.status == 200
    rows = cb.data["components"]
    assert [c["custom_id"] for row in rows for c in row["components"]] == ["game:color", f"game:{GAME_ID}:hand"]
    sent = r.payload["data"]
    assert sent["name"] == "game" and sent["guild_id"] == str(GUILD)
    assert sent["options"] == [{"name": "new", "type": 1, "options": [{"name": "game", "type": 3, "value": "ticket_to_ride"}]}]
    assert r.original in fake.messages(CHANNEL, ephemeral=False)
    assert fake.mass_mention_risks() == []
    fake.assert_clean()


async def test_slash_helper_checks_against_synced_commands(fake, bot):
    with pytest.raises(ValueError, match="choices"):
        await fake.slash(GUILD, CHANNEL, ALICE, "game new", {"game": "monopoly"})
    with pytest.raises(LookupError, match="needs a subcommand"):
        await fake.slash(GUILD, CHANNEL, ALICE, "game")
    with pytest.raises(LookupError, match="not a synced command"):
        await fake.slash(GUILD, CHANNEL, ALICE, "nope")
    with pytest.raises(ValueError, match="missing required options \\['move'\\]"):
        await fake.slash(GUILD, CHANNEL, ALICE, "game move", {"game_id": 1})
    with pytest.raises(ValueError, match="expected a number"):
        await fake.slash(GUILD, CHANNEL, ALICE, "game move", {"game_id": "one", "move": "x"})
    with pytest.raises(LookupError, match="not a member"):
        await fake.slash(GUILD, CHANNEL, fake.add_user(77).id, "game hand")
    assert fake.interactions == []  # nothing was dispatched


async def test_member_permissions_reach_the_bot(fake, bot):
    denied = await fake.slash(GUILD, CHANNEL, ALICE, "game admin")
    assert denied.content == "error: MissingPermissions" and denied.ephemeral
    allowed = await fake.slash(GUILD, CHANNEL, MOD, "game admin")
    assert allowed.content == "admin ok"
    override = await fake.slash(GUILD, CHANNEL, ALICE, "game admin", permissions=discord.Permissions(manage_channels=True))
    assert override.content == "admin ok"


async def test_autocomplete_returns_choices(fake, bot):
    choices = await fake.autocomplete(GUILD, CHANNEL, ALICE, "game move", {"game_id": 5}, focused="move", value="cl")
    assert choices == [{"name": "claim", "value": "claim"}, {"name": "claim-route", "value": "claim-route"}]
    assert bot.events[-1] == ("autocomplete", 5, "cl")
    assert fake.last_interaction.payload["type"] == 4
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game move", {"game_id": 5, "move": "draw"})
    assert r.content == "game 5: draw"


async def test_ephemeral_reply_with_png_file(fake, bot):
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game hand")
    assert r.callback_type == 4 and r.ephemeral
    (att,) = r.attachments
    assert att.filename == "hand.png" and att.data == PNG and att.size == len(PNG)
    assert r.callback.files[0].data == PNG  # the raw multipart part
    assert [p.message_id for p in fake.ephemeral_payloads()] == [r.original.id]
    assert fake.public_payloads() == []
    assert fake.messages(CHANNEL, ephemeral=False) == []


async def test_deferred_response_then_edit_original(fake, bot):
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game slow")
    assert r.callback_type == 5 and r.deferred
    assert r.content == "rendered" and not r.original.loading
    assert r.attachments[0].filename == "board.png" and r.attachments[0].data == PNG
    assert len(r.edits) == 1 and r.edits[0]["content"] == "rendered"
    assert r.original.history[0]["flags"] & limits.FLAG_LOADING
    fake.assert_clean()


async def test_first_followup_after_thinking_defer_edits_the_loading_message(fake, bot):
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game think")
    assert r.callback_type == 5 and r.ephemeral
    # Discord's deprecated behaviour: the first follow-up replaces the (ephemeral) loading message
    assert r.original.content == "first" and r.original.ephemeral and not r.original.loading
    (second,) = r.followups
    assert second.content == "second" and not second.ephemeral
    assert [p.payload["content"] for p in fake.public_payloads()] == ["second"]
    # the defer itself (the "thinking..." message) and the follow-up that replaced it
    assert [(p.kind, p.payload.get("content")) for p in fake.ephemeral_payloads()] == [("create", None), ("edit", "first")]


async def test_button_routed_to_dynamic_item_after_restart(fake):
    first = TestBot()
    async with fake.running(first):
        await sync_to_guild(first)
        posted = await fake.slash(GUILD, CHANNEL, ALICE, "game new", {"game": "ticket_to_ride"})
    message = posted.original

    second = TestBot()  # a new process: it never sent that message
    async with fake.running(second):
        r = await fake.click(message, f"game:{GAME_ID}:hand", BOB)
        picked = await fake.select(message, "game:color", ["blue"], ALICE)
    assert second.events == [("hand", GAME_ID, BOB), ("color", ("blue",), ALICE)]
    assert first.events == []
    assert r.callback_type == 4 and r.ephemeral and r.attachments[0].data == PNG
    assert r.payload["message"]["id"] == str(message.id)
    assert picked.callback_type == 7 and fake.message(message.id).content == "colour: blue"
    fake.assert_clean()


async def test_click_by_label_and_unknown_component(fake, bot):
    posted = await fake.slash(GUILD, CHANNEL, ALICE, "game new", {"game": "ticket_to_ride"})
    r = await fake.click(posted.original, None, ALICE, label="Show my hand")
    assert r.content == f"hand for game {GAME_ID}"
    with pytest.raises(LookupError, match="no component"):
        await fake.click(posted.original, "game:999:nothing", ALICE)


async def test_late_callback_is_rejected(fake, bot):
    fake.ack_deadline = 0.3
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game late")
    assert r.callback is None
    (rejected,) = r.rejected_callbacks
    assert rejected.status == 404 and rejected.error["code"] == 10062
    assert [v.rule for v in fake.violations] == ["late_ack"]
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    with pytest.raises(AssertionError, match="late_ack"):
        fake.assert_no_violations()


async def test_second_callback_is_rejected(fake, bot):
    r = await fake.slash(GUILD, CHANNEL, ALICE, "game hand")
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/interactions/{r.id}/{r.token}/callback"
        async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
            assert resp.status == 400
            assert resp.headers["Content-Type"] == "application/json"
            assert (await resp.json())["code"] == 40060
    assert [v.rule for v in fake.violations] == ["double_ack"]


# --------------------------------------------------------------------------- REST behaviour
async def test_dm_to_closed_user_is_forbidden_50007(fake, bot):
    alice = await bot.fetch_user(ALICE)
    await alice.send("your turn")
    assert [m.content for m in fake.dm_messages(ALICE)] == ["your turn"]
    bob = await bot.fetch_user(BOB)
    with pytest.raises(discord.Forbidden) as info:
        await bob.send("your turn")
    assert info.value.code == 50007 and info.value.status == 403
    assert fake.dm_messages(BOB) == []
    fake.assert_clean()


async def test_429_is_retried_then_succeeds(fake, bot):
    fake.fail_next("POST", "/channels/{id}/messages", status=429, retry_after=0.05)
    message = await bot.get_channel(CHANNEL).send("board")
    assert message.content == "board"
    statuses = [r.status for r in fake.requests_to("POST", f"/channels/{CHANNEL}/messages")]
    assert statuses == [429, 200]
    assert fake.pending_failures == []


async def test_500_raises_discord_server_error(fake, bot):
    channel = bot.get_channel(CHANNEL)
    fake.fail_next("POST", f"/channels/{CHANNEL}/messages", status=500, times=5)
    with fast_http_retries():  # discord.py itself retries 500s 5 times, sleeping 1+3+5+7 s
        with pytest.raises(discord.DiscordServerError):
            await channel.send("board")
    assert [r.status for r in fake.requests_to("POST", "/channels/{id}/messages")] == [500] * 5
    fake.fail_next("POST", f"/channels/{CHANNEL}/messages", status=503)  # not retried by discord.py
    with pytest.raises(discord.DiscordServerError):
        await channel.send("board")
    assert Route.BASE == fake.api_base  # fast_http_retries restored nothing it should not


async def test_content_over_2000_is_rejected_and_recorded(fake, bot):
    channel = bot.get_channel(CHANNEL)
    await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.status == 400 and info.value.code == 50035
    assert "content" in info.value.text
    assert [v.rule for v in fake.violations] == ["content_length"]


async def test_six_action_rows_are_rejected(fake, bot):
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"}]} for i in range(6)]
    with pytest.raises(discord.HTTPException) as info:
        await bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL),
                               json={"content": "rows", "components": rows})
    assert info.value.status == 400
    assert [v.rule for v in fake.violations] == ["action_rows"]
    assert fake.messages(CHANNEL) == []


async def test_invalid_localized_command_name_fails_sync(fake):
    class BadGerman(app_commands.Translator):
        async def translate(self, string, locale, context):
            if locale is discord.Locale.german and context.location is app_commands.TranslationContextLocation.command_name:
                return "Neues Spiel"
            return None

    client = TestBot()
    async with fake.running(client):
        await client.tree.set_translator(BadGerman())
        with pytest.raises(app_commands.CommandSyncFailure) as info:
            await sync_to_guild(client)
    assert info.value.status == 400
    assert {v.rule for v in fake.violations} == {"command_name"}
    assert GUILD not in fake.commands  # nothing stored
    assert fake.command_syncs[-1][1][0]["options"][0]["name_localizations"]["de"] == "Neues Spiel"


async def test_threads_and_unmodelled_routes(fake, bot):
    channel = bot.get_channel(CHANNEL)
    thread = await channel.create_thread(name="game-42", type=discord.ChannelType.private_thread, invitable=False)
    await thread.add_user(discord.Object(ALICE))
    await thread.send("welcome")
    assert fake.channels[thread.id].member_ids == [fake.application_id, ALICE]
    assert [m.content for m in fake.messages(thread.id)] == ["welcome"]
    await asyncio.sleep(0.05)
    assert bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the cache
    with pytest.raises(discord.HTTPException):
        await channel.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
    assert [v.rule for v in fake.violations] == ["thread_name"]
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/voice/regions"))
    assert [r.path for r in fake.unexpected_requests] == ["/voice/regions"]
    with pytest.raises(AssertionError, match="voice/regions"):
        fake.assert_no_unexpected_requests()


async def test_default_allowed_mentions_flagged(fake):
    client = TestBot(allowed_mentions=None)
    async with fake.running(client):
        await client.get_channel(CHANNEL).send(f"hi <@{ALICE}>")
    (risk,) = fake.mass_mention_risks()
    assert risk.payload["content"] == f"hi <@{ALICE}>"
    assert fake.messages(CHANNEL)[0].mentions[0].id == ALICE


class NameModal(discord.ui.Modal, title="Name your game"):
    name = discord.ui.TextInput(label="Name", custom_id="game_name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value}", ephemeral=True)


def extra_bot() -> TestBot:
    """TestBot plus global commands that break limits or open a modal."""
    client = TestBot()
    tree = client.tree

    @tree.command(name="bigfile", description="Upload a file over the limit")
    async def bigfile(interaction: discord.Interaction) -> None:
        client.events.append(("filesize_limit", interaction.filesize_limit))
        try:
            await interaction.response.send_message(file=discord.File(io.BytesIO(b"x" * 2000), "big.bin"))
        except discord.HTTPException as exc:
            client.errors.append(exc)

    @tree.command(name="pick", description="Autocomplete with too many choices")
    async def pick(interaction: discord.Interaction, item: str) -> None:
        await interaction.response.send_message(item)

    @pick.autocomplete("item")
    async def pick_autocomplete(interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=str(i), value=str(i)) for i in range(30)]  # discord.py does not cut at 25

    @tree.command(name="ask", description="Open a modal, then follow up much later")
    async def ask(interaction: discord.Interaction) -> None:
        client.events.append(interaction)
        await interaction.response.send_modal(NameModal())

    return client


async def test_file_over_attachment_size_limit_is_rejected(fake):
    fake.attachment_size_limit = 1000
    client = extra_bot()
    async with fake.running(client):
        await client.tree.sync()
        r = await fake.slash(GUILD, CHANNEL, ALICE, "bigfile")
    assert client.events == [("filesize_limit", 1000)]  # the bot can see the limit in the interaction
    assert r.callback is None and r.rejected_callbacks[0].status == 413
    assert client.errors[0].code == 40005
    assert [v.rule for v in fake.violations] == ["file_size"]


async def test_too_many_autocomplete_choices_and_modal_and_token_expiry(fake, expect_error):
    expect_error('discord.app_commands.tree', "Ignoring exception in autocomplete for 'pick'")
    client = extra_bot()
    async with fake.running(client):
        await client.tree.sync()
        assert await fake.autocomplete(GUILD, CHANNEL, ALICE, "pick", focused="item", value="") == []
        assert [v.rule for v in fake.violations] == ["autocomplete_choices"]

        opened = await fake.slash(GUILD, CHANNEL, ALICE, "ask")
        assert opened.callback_type == 9 and opened.callback.data["title"] == "Name your game"
        submitted = await fake.submit_modal(opened, {"game_name": "Friday TTR"})
        assert submitted.content == "named Friday TTR" and submitted.ephemeral

        fake.advance_time(16 * 60)  # interaction tokens live 15 minutes
        with pytest.raises(discord.HTTPException) as info:
            await client.events[-1].followup.send("reminder")
        assert info.value.status == 401 and info.value.code == 50027
        assert [v.rule for v in fake.violations] == ["autocomplete_choices", "expired_token"]


# --------------------------------------------------------------------------- pure limit checks
@pytest.mark.parametrize(
    "name, ok",
    [("game", True), ("new-game", True), ("o'clock", True), ("spiel_neu", True), ("ゲーム", True),
     ("खेल", True), ("เกม", True), ("Game", False), ("neues spiel", False), ("", False), ("a" * 33, False),
     ("a" * 32, True)],
)
def test_command_name_rule(name, ok):
    assert limits.is_valid_command_name(name) is ok


def test_component_and_embed_limits():
    row = lambda *ids: {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": i} for i in ids]}
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    rules = lambda problems: sorted({p.rule for p in problems})
    assert rules(limits.check_components([row("a", "b", "c", "d", "e", "f")])) == ["row_buttons"]
    assert rules(limits.check_components([row("a"), row("a")])) == ["custom_id_duplicate"]
    assert rules(limits.check_components([row("x" * 101)])) == ["custom_id"]
    assert rules(limits.check_components([{"type": 1, "components": [select, {"type": 2, "style": 1, "custom_id": "b"}]}])) == ["select_not_alone"]
    many = dict(select, options=[{"label": str(i), "value": str(i)} for i in range(26)], max_values=26)
    assert "select_options" in rules(limits.check_components([{"type": 1, "components": [many]}]))
    embed = {"title": "t" * 256, "description": "d" * 4096, "fields": [{"name": "n", "value": "v" * 1024}] * 2}
    assert rules(limits.check_embeds([embed])) == ["embed_total"]
    assert rules(limits.check_embeds([{"title": "t" * 257}])) == ["embed_title"]
    assert rules(limits.check_embeds([{"description": "d"}] * 11)) == ["embeds_count"]
    assert rules(limits.check_autocomplete({"choices": [{"name": "n", "value": "v"}] * 26})) == ["autocomplete_choices"]
    assert rules(limits.check_message({})) == ["empty_message"]
