"""`railyard doctor`: check a deployment before (or while) it runs and say what to fix.

It looks, it never changes anything: the settings are loaded as `railyard run` would load
them; the database is opened read-only (a SQLite file is not created, no migration is
applied); Discord is asked over HTTP only, with the bot's token, never through the gateway,
so a running bot is not disturbed. Each check prints one line, ✓ (fine), ! (works, but
worth knowing) or ✗ (to fix), and every ✗ says how to fix it. The exit code is 1 when
anything needs fixing, 0 otherwise, so a deployment script can gate on it.

What is checked:

* settings: every value valid (the same one-line messages `railyard run` gives);
* the database: reachable, and its schema version against the migrations this Railyard
  carries (pending ones are applied when `railyard run` starts; a newer schema means the
  code is older than the database);
* Discord: the token is accepted; the development server (if set) has the bot; the shard
  count against the one Discord recommends;
* every channel that has a game open (a lobby or a game in progress, the most recently
  moved first, `--channels` of them): the channel still exists, and the bot has the
  permissions a post needs there (`bot.discord.outbox.POST_PERMISSIONS`), computed the way
  Discord does from the server's roles and the channel's overwrites;
* for a game in a forum post, its forum: Send Messages there (Create Posts, in the client:
  new games and rematches open posts), and the status tags (bot/discord/forum.py): found,
  or Manage Channels to create them; Manage Threads where a status tag is moderated. A
  forum's tags are a nicety, so what they lack is a note, not a problem.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import discord

from bot.config import ConfigError, Settings, load_settings
from bot.discord.forum import STATUSES, find_tags
from bot.discord.outbox import POST_PERMISSIONS
from bot.store import MIGRATIONS_DIR, MIGRATIONS_PG_DIR, load_migrations, mask_url, parse_database_url

OK, WARN, FAIL = "ok", "warn", "fail"
MARKS = {OK: "✓", WARN: "!", FAIL: "✗"}
CHANNELS_CHECKED = 50  # REST calls per channel: a few; Discord's rate limits make thousands slow
CONNECT_TIMEOUT = 10.0
PERMISSION_NAMES = {
    "view_channel": "View Channel", "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads", "embed_links": "Embed Links",
    "attach_files": "Attach Files", "manage_channels": "Manage Channels", "manage_threads": "Manage Threads",
}
FORUM = 15
THREAD_TYPES = {10, 11, 12}  # announcement, public and private threads


@dataclass(frozen=True)
class Finding:
    level: str
    what: str
    fix: str | None = None

    def line(self) -> str:
        text = f"{MARKS[self.level]} {self.what}"
        return f"{text}\n    → {self.fix}" if self.fix else text


@dataclass(frozen=True)
class OpenChannel:
    game_id: int
    game: str
    guild_id: str | None
    channel_id: str


# ---------------------------------------------------------------------------- database
@dataclass(frozen=True)
class DatabaseLook:
    findings: list[Finding]
    channels: list[OpenChannel]
    open_games: int


_OPEN_CHANNELS = ("SELECT id, game, guild_id, channel_id, settings FROM games WHERE status IN ('lobby', 'active')"
                  " ORDER BY COALESCE(last_move_at, updated_at) DESC")


async def look_at_database(url: str, limit: int) -> DatabaseLook:
    """Reachability, schema version and the channels with open games, without writing."""
    kind, target = parse_database_url(url)
    if kind == "sqlite":
        return _look_at_sqlite(Path(target), limit)
    return await _look_at_postgres(target, limit)


def _schema_finding(current: int, latest: int, where: str) -> Finding:
    if current > latest:
        return Finding(FAIL, f"{where}: schema version {current}, newer than this Railyard knows ({latest})",
                       "upgrade Railyard to the version that wrote this database, or restore a backup made"
                       " for this version")
    if current < latest:
        return Finding(WARN, f"{where}: schema version {current}; {latest - current} migration(s) pending",
                       None if current else "a new database: `railyard run` creates the tables at start")
    return Finding(OK, f"{where}: schema up to date (version {latest})")


def _look_at_sqlite(path: Path, limit: int) -> DatabaseLook:
    latest = load_migrations(MIGRATIONS_DIR)[-1].version
    if not path.exists():
        folder = path.resolve().parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            return DatabaseLook([Finding(FAIL, f"SQLite file {path} does not exist and {folder} is not writable",
                                         "create the folder or point DATABASE_URL at a writable place")], [], 0)
        return DatabaseLook([Finding(WARN, f"SQLite file {path} does not exist yet",
                                     "`railyard run` creates it at start; if you expected your games there,"
                                     " check DATABASE_URL (a relative path is taken from the working folder)")], [], 0)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as exc:
        return DatabaseLook([Finding(FAIL, f"cannot open SQLite file {path}: {exc}",
                                     "check the file's permissions for the user the bot runs as")], [], 0)
    try:
        current = int(conn.execute("PRAGMA user_version").fetchone()[0])
        findings = [Finding(OK, f"SQLite file {path} opens"), _schema_finding(current, latest, "SQLite")]
        if current == 0:
            return DatabaseLook(findings, [], 0)
        rows = conn.execute(_OPEN_CHANNELS).fetchall()
    except sqlite3.Error as exc:
        return DatabaseLook([Finding(FAIL, f"SQLite file {path} cannot be read: {exc}",
                                     "is it a Railyard database? Restore it from a backup if it is damaged")], [], 0)
    finally:
        conn.close()
    return DatabaseLook(findings, _channels(rows, limit), len(rows))


async def _look_at_postgres(url: str, limit: int) -> DatabaseLook:
    import asyncpg

    latest = load_migrations(MIGRATIONS_PG_DIR)[-1].version
    shown = mask_url(url)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
    except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        return DatabaseLook([Finding(FAIL, f"cannot connect to PostgreSQL at {shown}: {type(exc).__name__}: {exc}",
                                     "check that the server runs and accepts connections from this host, and the"
                                     " user, password and database name in DATABASE_URL")], [], 0)
    try:
        findings = [Finding(OK, f"PostgreSQL at {shown} answers")]
        try:
            current = int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
        except asyncpg.UndefinedTableError:
            current = 0
        findings.append(_schema_finding(current, latest, "PostgreSQL"))
        if current == 0:
            return DatabaseLook(findings, [], 0)
        async with conn.transaction(readonly=True):
            rows = [tuple(r) for r in await conn.fetch(_OPEN_CHANNELS)]
    except asyncpg.PostgresError as exc:
        return DatabaseLook([Finding(FAIL, f"PostgreSQL at {shown} cannot be read: {exc}",
                                     "the user in DATABASE_URL needs to read Railyard's tables")], [], 0)
    finally:
        await conn.close()
    return DatabaseLook(findings, _channels(rows, limit), len(rows))


def _channels(rows: Iterable[Any], limit: int) -> list[OpenChannel]:
    seen: dict[str, OpenChannel] = {}
    for game_id, game, guild_id, channel_id, settings in rows:
        if _answers_only(settings):
            continue  # the bot is no member there and needs no permission: it only answers
        seen.setdefault(str(channel_id), OpenChannel(int(game_id), str(game), guild_id and str(guild_id),
                                                     str(channel_id)))
        if len(seen) >= limit:
            break
    return list(seen.values())


def _answers_only(settings: Any) -> bool:
    """A game that lives by its answers (GameSettings.delivery "replies": a group DM, a server
    only its members installed Railyard to)."""
    try:
        return json.loads(settings or "{}").get("delivery") == "replies"
    except (ValueError, AttributeError):
        return False


# ---------------------------------------------------------------------------- Discord
def permissions_in(guild: dict, member: dict, channel: dict, parent: dict | None = None) -> discord.Permissions:
    """The member's permissions in a channel from Discord's JSON (a thread's come from its
    parent): @everyone, the member's roles, then the channel's overwrites for @everyone,
    for the roles and for the member, in Discord's documented order."""
    source = parent if channel.get("type") in THREAD_TYPES and parent is not None else channel
    if str(guild.get("owner_id")) == str(member["user"]["id"]):
        return discord.Permissions.all()
    roles = {str(r["id"]): int(r.get("permissions", 0)) for r in guild.get("roles", [])}
    everyone = str(guild["id"])
    base = discord.Permissions(roles.get(everyone, 0))
    mine = [str(r) for r in member.get("roles", [])]
    for role in mine:
        base.value |= roles.get(role, 0)
    if base.administrator:
        return discord.Permissions.all()
    overwrites = {str(o["id"]): (int(o.get("allow", 0)), int(o.get("deny", 0)))
                  for o in source.get("permission_overwrites", [])}
    allow, deny = overwrites.get(everyone, (0, 0))
    base.handle_overwrite(allow, deny)
    role_allow = role_deny = 0
    for role in mine:
        allow, deny = overwrites.get(role, (0, 0))
        role_allow, role_deny = role_allow | allow, role_deny | deny
    base.handle_overwrite(role_allow, role_deny)
    allow, deny = overwrites.get(str(member["user"]["id"]), (0, 0))
    base.handle_overwrite(allow, deny)
    return base


def needed_permissions(channel: dict) -> list[str]:
    thread = channel.get("type") in THREAD_TYPES
    return [("send_messages_in_threads" if thread and p == "send_messages" else p) for p in POST_PERMISSIONS]


async def look_at_discord(settings: Settings, token: str, channels: list[OpenChannel]) -> list[Finding]:
    client = discord.Client(intents=discord.Intents.none())
    findings: list[Finding] = []
    try:
        try:
            await client.login(token)
        except discord.LoginFailure:
            return [Finding(FAIL, "Discord refused the token (401 Unauthorized)",
                            "copy DISCORD_TOKEN again from the developer portal (Bot → Reset Token)")]
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as exc:
            return [Finding(FAIL, f"cannot reach Discord: {exc}", "check this host's network access to discord.com")]
        me = client.user
        findings.append(Finding(OK, f"Discord accepts the token: the bot is {me} ({me.id})"))
        findings += await _shards(client, settings)
        if settings.dev_guild_id:
            findings.append(await _guild_has_bot(client, settings.dev_guild_id))
        guilds: dict[str, dict | None] = {}
        members: dict[str, dict | None] = {}
        for open_channel in channels:
            findings += await _channel(client, open_channel, guilds, members)
    finally:
        await client.close()
    return findings


async def _shards(client: discord.Client, settings: Settings) -> list[Finding]:
    try:
        data = await client.http.request(discord.http.Route("GET", "/gateway/bot"))
    except discord.HTTPException as exc:
        return [Finding(WARN, f"cannot ask Discord for the recommended shard count: {exc}")]
    recommended = int(data.get("shards", 1))
    configured = settings.shard_count
    if configured is None:
        return [Finding(OK, f"shards: Discord recommends {recommended}; one process serves all of them"
                        " (RAILYARD_SHARD_COUNT is not set)")]
    if configured < recommended:
        return [Finding(FAIL, f"shards: RAILYARD_SHARD_COUNT is {configured}, Discord requires at least {recommended}",
                        f"set RAILYARD_SHARD_COUNT={recommended} (or more) in every process and share the shard"
                        " ids out among them")]
    ids = settings.shard_ids
    served = "all of them" if ids is None else ", ".join(map(str, ids))
    return [Finding(OK, f"shards: {configured} (Discord recommends {recommended}); this process serves {served}")]


async def _guild_has_bot(client: discord.Client, guild_id: int) -> Finding:
    try:
        await client.http.get_guild(guild_id)
    except (discord.Forbidden, discord.NotFound):
        invite = discord.utils.oauth_url(client.application_id or client.user.id,
                                         scopes=("bot", "applications.commands"))
        return Finding(FAIL, f"the bot is not in the development server {guild_id} (RAILYARD_DEV_GUILD_ID)",
                       f"invite it: {invite}")
    return Finding(OK, f"the development server {guild_id} has the bot")


async def _channel(client: discord.Client, open_channel: OpenChannel, guilds: dict[str, dict | None],
                   members: dict[str, dict | None]) -> list[Finding]:
    finding, forum = await _channel_itself(client, open_channel, guilds, members)
    return [finding, *forum]


async def _channel_itself(client: discord.Client, open_channel: OpenChannel, guilds: dict[str, dict | None],
                          members: dict[str, dict | None]) -> tuple[Finding, list[Finding]]:
    where = f"channel {open_channel.channel_id} (game #{open_channel.game_id}, {open_channel.game})"
    try:
        channel = await client.http.get_channel(int(open_channel.channel_id))
    except discord.NotFound:
        return Finding(WARN, f"{where} no longer exists",
                       "its posts are given up after a few tries; nothing else is affected, and nothing to do"), []
    except discord.Forbidden:
        return Finding(FAIL, f"{where}: the bot cannot see it",
                       "give Railyard's role View Channel there (or re-invite the bot to the server)"), []
    guild_id = str(channel.get("guild_id") or open_channel.guild_id or "")
    if not guild_id:
        return Finding(OK, f"{where}: a direct message channel"), []
    try:
        if guild_id not in guilds:
            guilds[guild_id] = await client.http.get_guild(int(guild_id))
        if guild_id not in members:
            members[guild_id] = await client.http.get_member(int(guild_id), client.user.id)
        parent = None
        if channel.get("type") in THREAD_TYPES and channel.get("parent_id"):
            parent = await client.http.get_channel(int(channel["parent_id"]))
    except (discord.Forbidden, discord.NotFound):
        return Finding(FAIL, f"{where}: the bot is no longer in server {guild_id}",
                       "re-invite the bot to the server"), []
    guild, member = guilds[guild_id], members[guild_id]
    assert guild is not None and member is not None
    perms = permissions_in(guild, member, channel, parent)
    missing = [p for p in needed_permissions(channel) if not getattr(perms, p)]
    name = f"#{channel.get('name', open_channel.channel_id)}"
    forum = _forum(where, parent, permissions_in(guild, member, parent) if parent else perms) \
        if parent is not None and parent.get("type") == FORUM else []
    if missing:
        listed = ", ".join(PERMISSION_NAMES[p] for p in missing)
        return Finding(FAIL, f"{where} {name} in {guild.get('name', guild_id)}: the bot lacks {listed}",
                       f"in the channel's settings (Permissions), allow {listed} for Railyard's role"), forum
    return Finding(OK, f"{where} {name}: the bot can post there"), forum


def _forum(where: str, forum: dict, perms: discord.Permissions) -> list[Finding]:
    """What a game's forum needs beyond its post: Send Messages (Create Posts) for new games
    and rematches, and its status tags (found, or Manage Channels to make them; Manage
    Threads for a moderated one). Notes only: the game itself runs without them."""
    name = f"forum #{forum.get('name', forum.get('id'))}"
    notes = []
    if not perms.send_messages:
        notes.append(Finding(WARN, f"{where}: in its {name} the bot may not create posts (Send Messages)",
                             f"allow Send Messages in {name} for Railyard's role, or new games and rematches"
                             " cannot open posts there"))
    found = find_tags(list(forum.get("available_tags") or []))
    missing = [s for s in STATUSES if s not in found]
    if missing and not perms.manage_channels:
        listed = ", ".join(missing)
        notes.append(Finding(WARN, f"{where}: {name} has no status tags for {listed}, and the bot may not create them",
                             f"create tags named Lobby, Playing, Finished (or 募集中, プレイ中, 終了) in {name},"
                             " or allow Manage Channels there for Railyard's role"))
    moderated = [s for s, tag in found.items() if tag.get("moderated")]
    if moderated and not perms.manage_threads:
        notes.append(Finding(WARN, f"{where}: {name} has moderated status tags ({', '.join(moderated)}) and the bot"
                                   " lacks Manage Threads", f"allow Manage Threads in {name} for Railyard's role,"
                                                            " or make those tags unmoderated"))
    if not notes:
        notes.append(Finding(OK, f"{where}: its {name} takes new posts and has its status tags"
                                 + ("" if not missing else " (the bot creates them)")))
    return notes


# ---------------------------------------------------------------------------- the command
async def diagnose(env_file: Path, *, channels: int = CHANNELS_CHECKED, discord_checks: bool = True) -> list[Finding]:
    try:
        settings = load_settings(env_file)
    except ConfigError as exc:
        return [Finding(FAIL, f"settings ({env_file}): {line}") for line in str(exc).splitlines()] + [
            Finding(FAIL, "nothing else checked until the settings load", "see .env.example for every setting")]
    findings = [Finding(OK, f"settings load ({env_file if env_file.is_file() else 'environment only'});"
                            f" database {settings.database_url}")]
    db = await look_at_database(settings.database_url.get_secret_value(), channels)
    findings += db.findings
    if db.open_games:
        findings.append(Finding(OK, f"{db.open_games} open game(s); checking the {len(db.channels)} most recently"
                                    f" moved channel(s)"))
    if settings.render_workers:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        level = WARN if settings.render_workers >= cores else OK
        findings.append(Finding(level, f"{settings.render_workers} render worker process(es) on {cores} core(s)",
                                "leave a core for the bot itself: RAILYARD_RENDER_WORKERS below the core count"
                                if level == WARN else None))
    if not discord_checks:
        return findings
    try:
        token = settings.require_token()
    except ConfigError as exc:
        return findings + [Finding(FAIL, str(exc).split(":", 1)[0], str(exc).split(":", 1)[-1].strip())]
    return findings + await look_at_discord(settings, token, db.channels)


def main_doctor(args: argparse.Namespace) -> int:
    env = Path(getattr(args, "env", None) or ".env")
    findings = asyncio.run(diagnose(env, channels=args.channels, discord_checks=not args.offline))
    for finding in findings:
        print(finding.line())
    problems = sum(f.level == FAIL for f in findings)
    notes = sum(f.level == WARN for f in findings)
    print(f"\n{problems} to fix, {notes} to note." if problems or notes else "\nAll good.")
    return 1 if problems else 0
