"""tools.loopback: an in-repo loopback fake of Discord, for the end-to-end tests and the bench.

It lives in the package (not under tests/) so that `railyard bench` can run the real bot
against it from an installed copy: it needs only aiohttp (and discord.py for `patched()`),
never pytest. The tests import it as ``tests.fake_discord`` (a thin alias).

The REAL discord.py client (2.7.1) talks to it: REST under ``/api/v10`` and a
gateway websocket at ``/gateway``, both on 127.0.0.1 with a random free port
(aiohttp).  It models the parts of Discord Railyard uses, enforces the platform
limits from /work/shared/design/discord-notes.md and records everything.

Quick start
-----------
::

    from tools.loopback import FakeDiscord      # tests: from tests.fake_discord import ...

    async with FakeDiscord() as fake:                       # HTTP + gateway on loopback
        fake.add_user(7, "alice")
        fake.add_user(8, "bob", dm_closed=True)
        fake.add_guild(100, "Guild", channels=[101, {"id": 102, "name": "games"}],
                       members=[7, {"id": 8, "roles": [], "permissions": discord.Permissions(manage_channels=True)}],
                       locale="en-US")
        bot = MyBot(..., guild_ready_timeout=0.05)           # small ready delay keeps tests fast
        async with fake.running(bot):                      # patched() + login + connect + wait_ready + close
            await bot.tree.sync(guild=discord.Object(100))
            r = await fake.slash(100, 101, 7, "game", [("new", {"game": "ticket_to_ride"})], locale="ja")
            assert r.callback_type == 4 and not r.ephemeral
            choices = await fake.autocomplete(100, 101, 7, "game move", {"game": "1"}, focused="move", value="cl")
            r2 = await fake.click(r.original, "game:1:hand", 7)     # or label="Show my hand"
            r3 = await fake.select(r.original, "pick", ["a"], 7)
        fake.assert_clean()                                 # no limit violations, no unmodelled requests

Manual wiring, if a test needs it: ``with fake.patched(): await client.login(fake.token);
task = asyncio.create_task(client.connect()); await fake.wait_ready(client)`` ...
``await client.close()``.  ``patched()`` sets ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and always restores them.

``FakeDiscord(...)`` keyword options
------------------------------------
token, application_id (= bot user id), bot_name, owner_id,
heartbeat_interval_ms (41250), ack_deadline (3.0 s), token_lifetime (900 s),
quiet_period (0.3 s), response_timeout (5 s), attachment_size_limit (10 MiB),
shards (1: the shard count ``/gateway/bot`` recommends).
All are also plain attributes and may be changed mid-test (e.g. ``fake.ack_deadline = 0.3``).

Shards
------
Several gateway sessions may be live at once (one process serving shards 0-1, another 2-3,
or all of them in one ``AutoShardedClient``), each IDENTIFYing with ``[shard_id,
shard_count]`` (none: ``[0, 1]``). Guild events go only to the sessions whose shard is
``(guild_id >> 22) % shard_count`` (Discord's formula): READY's guild list, GUILD_CREATE,
channel/thread/message events and INTERACTION_CREATE (to the newest such session); DMs go to
shard 0. An IDENTIFY whose id is not below its count, or whose count disagrees with the
live sessions', is closed with 4010 (recorded in ``shard_rejections``). An interaction whose
shard no session serves reaches nobody: its ``InteractionResult.shard`` is None and it times
out unanswered (Discord: "The application did not respond"); otherwise ``shard`` and
``session_id`` say where it went. ``guild_id_on_shard(shard, count)`` gives an unused guild id
on that shard, ``shard_of(guild_id, count)`` the formula, ``live_shards`` the live sessions'
``(id, count)``, ``session_for(guild_id)`` the session that would get it.
Another process can be pointed at the fake with ``point_discord_at(fake.api_base,
fake.gateway_url)`` (what ``patched()`` does); ``python -m tools.loopback.bot_process`` runs the
real bot that way (see that module).

World
-----
``add_user(id, name=None, *, dm_closed=False, bot=False, global_name=None) -> FakeUser``
``add_guild(id, name, *, channels=[ids|dicts], members=[ids|dicts], roles=[dicts], locale,
owner_id, everyone_permissions, app_permissions) -> FakeGuild`` (a text channel ``id+1``
if ``channels`` is omitted; the bot and the app owner are always members; the
@everyone role has the guild's id).  ``add_member(guild_id, user_id, *, roles, nick,
permissions)``, ``await add_channel(guild_id, channel_id, name, *, type, parent_id)``
(dispatches CHANNEL_CREATE/THREAD_CREATE), ``set_dm_closed(user_id, closed=True)``,
``await delete_channel(channel_id)`` (CHANNEL_DELETE / THREAD_DELETE; later requests get 404
10003; a channel's threads go with it), ``await deny_bot(channel_id, *permission_names)`` (a
member overwrite for the bot, sent as CHANNEL_UPDATE; posts needing a denied permission get 403
50001/50013, reading the history without View Channel 403 50001 and without Read Message
History no messages; no names lifts it).
Forums: a channel of ``type=FORUM`` (15) in ``add_guild`` (``available_tags``: dicts {id?, name,
moderated, emoji_name}; ``flags=REQUIRE_TAG``), changed later by ``await set_forum(forum_id, *,
tags=None, flags=None)`` (CHANNEL_UPDATE). ``POST /channels/{forum}/threads`` makes a post (a public
thread whose parent is the forum) and its starter message (the post's id) and refuses what Discord
refuses: no message (50035), more than 5 or unknown ``applied_tags`` (50035), no tag in a
REQUIRE_TAG forum (40067; 40066 when every tag is moderated), a moderated tag without Manage
Threads or no Send Messages in the forum (403 50013). A forum takes no message (40058).
``PATCH`` of a post: its tags by its creator or with Manage Threads (a moderated one only
with it; locked posts too), an archived post only while unarchiving it (50083). ``PATCH`` of a
forum needs Manage Channels (403 50013; the guild's ``app_permissions`` and the bot's
overwrite decide): at most 20 tags (50035), names unique (40061); tags left out are deleted
and taken off the posts. No command runs in a forum itself (ValueError: it has no message box).
State: ``users``, ``guilds``, ``channels`` (incl. threads and DMs), ``bot_user``, ``owner``.

Installs and places (Discord's developer docs: application-commands "Contexts", receiving-and-
responding "Interaction Context Types" and "Authorizing Integration Owners")
``add_user(..., installed=True)`` / ``install_app(user_id, installed=True)``: the app installed
to a person (USER_INSTALL). ``add_guild(..., installed=False)``: a server the app is not
installed to (no bot member, no GUILD_CREATE, no events). ``add_group_dm(id, [user ids],
name=, owner_id=)``: a group DM (channel type 3; the bot is never in one). Every interaction
carries ``context`` (GUILD 0 / BOT_DM 1 / PRIVATE_CHANNEL 2), ``authorizing_integration_owners``
("0": the server, or "0" in the DM with the bot, when installed there; "1": the user whose own
install it used; a component: those of the interaction its message answered) and
``app_permissions`` (in a group DM: attach files, embed links, mention everyone; the DM with
the bot adds external emojis). ``slash``/``autocomplete`` raise ``CommandUnavailable`` (recorded
in ``refused_commands``, never sent to the bot) for a command Discord would not offer there: its
registered ``contexts`` lack the place, or no install reaches the user there by its
``integration_types`` (unset: ``[0]``, and contexts GUILD and BOT_DM, BOT_DM not with
``dm_permission`` false; see discord-api-docs issue 7108). ``command_refusal(...)`` says why.
Where the bot is not a member (a group DM, a server not installed to) its own requests about
the channel (post, read, edit, delete, typing, reactions, threads, GET channel) are refused 403
50001 and recorded as violations (``not_a_member``): it may only answer interactions. An
interaction authorized by a user install alone takes 5 follow-ups; the sixth is refused 400
40094 (``followup_limit``).
GUILD_CREATE includes all members only if the client's intents have GUILD_MEMBERS
(like Discord); otherwise just the bot (interaction payloads always carry the member).

Driving the bot
---------------
``await slash(guild_id, channel_id, user_id, command, options=None, *, locale="en-US",
permissions=None, require_synced=True, wait=True, timeout=None, quiet=None) -> InteractionResult``
    ``command`` "game" / "game new"; options dict, or nested ``[("new", {...})]``.
    The synced command payloads give option types, choices, min/max, required
    options and the command id / guild_id; an unsynced command raises LookupError
    (``require_synced=False`` infers types).  USER/CHANNEL/ROLE options get ``resolved``.
    ``guild_id=None`` = in the user's DM.  Slash in an archived thread raises ValueError.
``await autocomplete(..., command, options, *, focused, value) -> list[dict]`` choices.
``await click(message, custom_id, user_id, *, label=None, ...) -> InteractionResult``
``await select(message, custom_id, values, user_id, ...) -> InteractionResult``
    ``message`` is a FakeMessage, a discord.Message or an id; the component must
    exist on it, be enabled, and an ephemeral message is clickable only by its user.
``await submit_modal(result, {custom_id: text}, user_id=None)`` answers a type-9 modal.
``await user_message(channel_id, user_id, content) -> FakeMessage`` (MESSAGE_CREATE).
``await settle(quiet=None, timeout=None)`` waits until the bot is quiet.
``await disconnect_gateway(code=4000, shard=None)`` drops the newest socket, or the one
serving ``shard`` (the client RESUMEs).
``advance_time(seconds)`` moves the fake clock (token expiry, ack deadline).

``InteractionResult`` (live; it keeps updating): ``callback`` (CallbackRecord: type,
data, files, latency, status), ``callback_type``, ``answer_latency`` (until the answer was
shown: the callback, or after a defer the first edit / follow-up), ``rejected_callbacks``, ``original``
(FakeMessage made by type 4/5, or the component message for 6/7), ``followups``,
``edits`` (payloads), ``messages``, ``attachments``, ``ephemeral``, ``content``,
``deferred``, ``choices``, ``ack_latency``, ``channel_messages`` (messages posted
through channel routes while waiting), ``payload`` (the INTERACTION_CREATE sent), ``shard`` /
``session_id`` / ``delivered`` (which gateway session got it, see Shards).
Collection: wait for the callback (up to ack_deadline + 0.5 s), after a type-5
defer wait for the edit/first follow-up, then until no request for ``quiet_period``.
Like Discord, the first follow-up after a type-5 defer EDITS the loading message (it
keeps the defer's ephemeral flag and is listed in ``edits``, not ``followups``).

Inspecting
----------
``requests`` (RecordedRequest: method, path, route template, query, json (payload_json
for multipart), files (UploadedFile with bytes), status, response), ``requests_to(method, route)``,
``unexpected_requests`` (routes the fake doesn't model; answered 404 with a clear message),
``violations`` (Violation: rule, message, method, path), ``interactions``,
``last_interaction``, ``interaction_responses`` (every callback incl. rejected),
``messages(channel_id=None, *, ephemeral=None, include_deleted=False)``, ``message(id)``,
``dm_messages(user_id)``, ``message_payloads`` / ``public_payloads()`` / ``ephemeral_payloads()``
(every create/edit body tagged with the target message's ephemeral state),
``commands`` ({None: global, guild_id: [...]} last accepted sync), ``command_syncs``
(every PUT, accepted or not), ``gateway_events`` (sent (event, data)), ``gateway_received``,
``identify_payloads``, ``injected`` (requests answered by fail_next), ``mass_mention_risks()``
(creates whose allowed_mentions allow @everyone/roles; a missing allowed_mentions counts),
``assert_no_violations()``, ``assert_no_unexpected_requests()``, ``assert_clean()``.

Failure injection
-----------------
``fail_next(method, route, status=500, *, times=1, retry_after=0.05, code=None,
message=None, is_global=False, body=None, after=False, match=None)``; route is concrete or
a ``{...}`` template; ``match(RecordedRequest) -> bool`` narrows it to some requests.
``after=True`` is a lost response: the request is carried out, then answered with the
failure (a retry is then a real duplicate).
``stall(method, route, *, times=1, match=None) -> Stall`` holds back the answers of the next
matching successful requests (carried out first: the message exists) until
``stall.release()``; ``await stall.reached(timeout)`` returns the first held request, and
``stall.requests`` lists them. The sender just waits, so a test can kill a bot process
mid-delivery at a moment it picked. Held answers do not count as activity for ``settle``.
Nonces: a channel post with ``nonce`` + ``enforce_nonce`` that repeats one of the bot's
posts in that channel within ``nonce_window`` (300 s) gets the earlier message back and
creates nothing (recorded in ``nonce_repeats``), as Discord does. As on Discord, a nonce is
not kept with the message: only the answer to the post and the MESSAGE_CREATE event carry
it, never a message fetched later (GET, history); ``FakeMessage.nonce`` keeps it for tests.
429s carry ``retry_after`` + ``Via``/``X-RateLimit-*`` headers so discord.py sleeps and
retries.  Note: discord.py retries 500/502/504/524 itself (sleeping 1, 3, 5, 7 s), other
5xx (e.g. 503) raise DiscordServerError at once; ``with fast_http_retries():`` caps those
sleeps (patches ``asyncio`` inside discord.http and discord.webhook.async_, restored on exit).

What is enforced (400 code 50035 + one ``Violation`` per problem unless noted)
------------------------------------------------------------------------------
Messages (channel posts, callbacks 4/7, follow-ups, edits): content > 2000; > 10 embeds;
title 256, description 4096, 25 fields, field name 256 / value 1024, footer 2048,
author 256, 6000 total; > 5 action rows; > 5 buttons per row; a select not alone in
its row; non-row top level without IS_COMPONENTS_V2; button/select shape; custom_id
empty, > 100 or duplicated in a message; select options 1..25, min/max_values <= 25,
option label/value/description <= 100; V2: <= 40 components and no content/embeds;
empty message; > 10 files; an attachment description (alt text) > 1024 characters; a file >
attachment_size_limit (413 code 40005).
Interactions: callback later than ``ack_deadline`` (404 10062, rule late_ack); a second
callback (400 40060, double_ack); a callback type invalid for the interaction
(callback_type); defer data other than flags=64; autocomplete > 25 choices or a choice
name/value > 100; modal title/custom_id; follow-up/edit before the ack (404 10015,
followup_before_ack) or after ``token_lifetime`` (401 50027, expired_token).
Commands (PUT sync): names vs ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` +
lowercase (approximated with unicodedata if the ``regex`` module is missing) also in
name_localizations; descriptions 1..100 (also localized); unknown locales; > 25
options/choices; choice name/value; mixing subcommands and options; nesting;
required-after-optional; autocomplete with choices; > 8000 characters; > 100 chat
commands; duplicates; > 200 creates per scope (400 30034).
Threads: name 1..100, auto_archive_duration in {60,1440,4320,10080}, private threads
only in text channels; in an archived thread a new message unarchives it (400 50083 if
it is locked) but an edit or deletion of a message is refused (400 50083).  Posting to a closed DM: 403 code 50007 (not a violation).
"""

from .limits import Problem, permission_value
from .models import (
    CallbackRecord,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    InteractionResult,
    MessagePayloadRecord,
    RecordedRequest,
    UploadedFile,
    Violation,
)
from .server import (
    CLOSE_INVALID_SHARD,
    CommandUnavailable,
    DEFAULT_APPLICATION_ID,
    DEFAULT_TOKEN,
    FakeDiscord,
    GatewaySession,
    Stall,
    fast_http_retries,
    point_discord_at,
    shard_for_guild,
)

__all__ = [
    "CLOSE_INVALID_SHARD",
    "CallbackRecord",
    "CommandUnavailable",
    "DEFAULT_APPLICATION_ID",
    "DEFAULT_TOKEN",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "GatewaySession",
    "InteractionResult",
    "MessagePayloadRecord",
    "Problem",
    "RecordedRequest",
    "Stall",
    "UploadedFile",
    "Violation",
    "fast_http_retries",
    "permission_value",
    "point_discord_at",
    "shard_for_guild",
]
