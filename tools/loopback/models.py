"""Plain data objects the fake keeps and hands to tests.

Everything here is inspectable state; the JSON shapes Discord would send are
produced by the ``payload()`` methods.
"""

from __future__ import annotations

import datetime as _dt
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from . import limits

DISCORD_EPOCH_MS = 1420070400000


class SnowflakeFactory:
    """Monotonic, time-based snowflakes (so ``created_at`` looks sane)."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            self._last = max(value, self._last + 1)
            return self._last


def iso(ts: Optional[float] = None) -> str:
    when = _dt.datetime.fromtimestamp(time.time() if ts is None else ts, tz=_dt.timezone.utc)
    return when.isoformat()


# --------------------------------------------------------------------------- world
@dataclass
class FakeUser:
    id: int
    name: str
    global_name: Optional[str] = None
    bot: bool = False
    dm_closed: bool = False
    #: the app is installed to this user's account (USER_INSTALL): its commands are theirs everywhere
    installed: bool = False

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    mentionable: bool = False

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": self.mentionable,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass
class FakeMember:
    user: FakeUser
    guild_id: int
    roles: List[int] = field(default_factory=list)
    nick: Optional[str] = None
    #: Explicit permission bitfield for interactions; ``None`` = computed from roles.
    permissions: Optional[int] = None
    joined_at: str = field(default_factory=iso)

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self, *, with_user: bool = True) -> dict:
        data = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        return data


TEXT, DM, VOICE, GROUP_DM, CATEGORY, NEWS, PUBLIC_THREAD, PRIVATE_THREAD, FORUM = 0, 1, 2, 3, 4, 5, 11, 12, 15
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)
# channel flags (resources/channel, "Channel Flags"): a forum whose posts must carry a tag
REQUIRE_TAG = 1 << 4


@dataclass
class FakeTag:
    """A forum's tag (resources/channel, "Forum Tag Object"): a moderated tag is added to or
    removed from posts only by members with Manage Threads."""

    id: int
    name: str
    moderated: bool = False
    emoji_id: Optional[int] = None
    emoji_name: Optional[str] = None

    def payload(self) -> dict:
        return {"id": str(self.id), "name": self.name, "moderated": self.moderated,
                "emoji_id": str(self.emoji_id) if self.emoji_id else None, "emoji_name": self.emoji_name}


@dataclass
class FakeChannel:
    id: int
    name: str
    type: int = TEXT
    guild_id: Optional[int] = None
    parent_id: Optional[int] = None
    position: int = 0
    topic: Optional[str] = None
    # threads
    owner_id: Optional[int] = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    member_ids: List[int] = field(default_factory=list)
    created_at: str = field(default_factory=iso)
    # DM (its one recipient besides the bot); a group DM's people (the bot is never one)
    recipient: Optional[FakeUser] = None
    recipients: List[FakeUser] = field(default_factory=list)
    last_message_id: Optional[int] = None
    message_count: int = 0
    #: permission overwrites (Discord's shape: id, type 0 role / 1 member, allow, deny)
    overwrites: List[dict] = field(default_factory=list)
    #: a channel of a server the app is not installed to (only its users installed it)
    outside: bool = False
    #: channel flags (REQUIRE_TAG on a forum)
    flags: int = 0
    #: a forum's tags (at most 20), and the ids of the tags applied to a forum post (at most 5)
    available_tags: List[FakeTag] = field(default_factory=list)
    applied_tags: List[int] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def bot_is_member(self) -> bool:
        """Whether the bot may see and post in the channel: never in a group DM (bots cannot
        join one), nor in a server the app is not installed to (see FakeGuild.installed)."""
        return self.type != GROUP_DM and not self.outside

    def payload(self) -> dict:
        if self.type == GROUP_DM:
            return {
                "id": str(self.id),
                "type": GROUP_DM,
                "name": self.name or None,
                "icon": None,
                "owner_id": str(self.owner_id) if self.owner_id else None,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "recipients": [u.payload() for u in self.recipients],
                "flags": 0,
            }
        if self.type == DM:
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "flags": 0,
            }
        data: Dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": self.flags,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=len(self.member_ids),
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
                applied_tags=[str(t) for t in self.applied_tags],
            )
        else:
            data.update(position=self.position, topic=self.topic, permission_overwrites=list(self.overwrites))
            if self.type == VOICE:
                data.update(bitrate=64000, user_limit=0, rtc_region=None)
            if self.type == FORUM:
                data.update(available_tags=[t.payload() for t in self.available_tags], default_reaction_emoji=None,
                            default_sort_order=None, default_forum_layout=0, default_thread_rate_limit_per_user=0,
                            default_auto_archive_duration=self.auto_archive_duration)
        return data

    def tag(self, tag_id: int) -> Optional[FakeTag]:
        return next((t for t in self.available_tags if t.id == tag_id), None)


@dataclass
class FakeGuild:
    id: int
    name: str
    locale: str = "en-US"
    owner_id: Optional[int] = None
    roles: Dict[int, FakeRole] = field(default_factory=dict)
    channels: Dict[int, FakeChannel] = field(default_factory=dict)
    members: Dict[int, FakeMember] = field(default_factory=dict)
    app_permissions: int = limits.DEFAULT_APP_PERMISSIONS
    #: the app is installed to this server (GUILD_INSTALL): the bot is a member; otherwise its
    #: members reach the app only through their own installs, and the bot sees nothing here
    installed: bool = True

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def member_permissions(self, member: FakeMember) -> int:
        if member.permissions is not None:
            return member.permissions
        if member.id == self.owner_id:
            return (1 << 53) - 1
        value = self.everyone.permissions
        for role_id in member.roles:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & limits.PERMISSIONS["administrator"]:
            return (1 << 53) - 1
        return value

    def payload(self, *, include_members: bool, joined_at: str) -> dict:
        members = list(self.members.values())
        shown = members if include_members else [m for m in members if m.user.bot]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id) if self.owner_id else None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "preferred_locale": self.locale,
            "features": [],
            "application_id": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": joined_at,
            "large": len(members) >= 250,
            "unavailable": False,
            "member_count": len(members),
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
            "members": [m.payload() for m in shown],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# --------------------------------------------------------------------------- traffic
@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    content_type: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def index(self) -> Optional[int]:
        if self.field.startswith("files[") and self.field.endswith("]"):
            try:
                return int(self.field[6:-1])
            except ValueError:
                return None
        return None

    def __repr__(self) -> str:
        return f"<UploadedFile {self.field} {self.filename!r} {self.size} bytes>"


@dataclass
class RecordedRequest:
    method: str
    path: str  # below /api/v10, e.g. "/channels/123/messages"
    route: Optional[str]  # template, e.g. "/channels/{channel_id}/messages"; None if unknown
    query: Dict[str, str]
    json: Any
    files: List[UploadedFile]
    headers: Dict[str, str]
    at: float  # fake clock (seconds)
    status: Optional[int] = None
    response: Any = None
    #: for ``fail_next(after=True)``: what the request really got before the answer was lost
    handled_status: Optional[int] = None

    @property
    def nonce(self) -> Optional[str]:
        body = self.json if isinstance(self.json, dict) else {}
        return None if body.get("nonce") is None else str(body["nonce"])

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class Violation:
    """Something the bot did that real Discord would reject."""

    rule: str
    message: str
    method: str = ""
    path: str = ""
    detail: Any = None

    def __str__(self) -> str:
        return f"[{self.rule}] {self.method} {self.path}: {self.message}"


@dataclass
class FakeAttachment:
    id: int
    filename: str
    size: int
    content_type: str
    data: bytes
    url: str
    description: Optional[str] = None

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.content_type.startswith("image/png") and len(self.data) >= 24 and self.data[:8] == b"\x89PNG\r\n\x1a\n":
            data["width"] = int.from_bytes(self.data[16:20], "big")
            data["height"] = int.from_bytes(self.data[20:24], "big")
        return data


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    guild_id: Optional[int]
    author: FakeUser
    content: str = ""
    embeds: List[dict] = field(default_factory=list)
    components: List[dict] = field(default_factory=list)
    attachments: List[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=iso)
    edited_timestamp: Optional[str] = None
    allowed_mentions: Optional[dict] = None
    mentions: List[FakeUser] = field(default_factory=list)
    webhook_id: Optional[int] = None
    application_id: Optional[int] = None
    interaction_id: Optional[int] = None
    interaction_type: Optional[int] = None
    interaction_user: Optional[FakeUser] = None
    #: the authorizing_integration_owners of the interaction this message answers: a
    #: component on it is authorized by the same installs
    integration_owners: Dict[str, str] = field(default_factory=dict)
    deleted: bool = False
    #: Earlier versions (payload dicts) of this message, oldest first.
    history: List[dict] = field(default_factory=list)
    created_mono: float = 0.0
    #: the nonce it was created with (for tests; Discord does not store it: see payload)
    nonce: Optional[str] = None

    # ---- convenience for tests
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & limits.FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & limits.FLAG_LOADING)

    @property
    def files(self) -> List[FakeAttachment]:
        return self.attachments

    def iter_components(self):
        def walk(items):
            for comp in items or []:
                yield comp
                yield from walk(comp.get("components"))
                if comp.get("accessory"):
                    yield comp["accessory"]

        yield from walk(self.components)

    @property
    def custom_ids(self) -> List[str]:
        return [c["custom_id"] for c in self.iter_components() if c.get("custom_id")]

    def component(self, custom_id: Optional[str] = None, *, label: Optional[str] = None) -> Optional[dict]:
        """Find a component by custom_id or (button) label / (select) placeholder."""
        for comp in self.iter_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and (comp.get("label") == label or comp.get("placeholder") == label):
                return comp
        return None

    def payload(self, *, with_nonce: bool = False) -> dict:
        """The message as Discord shows it. Discord keeps no nonce with a message: only the
        answer to the post that created it and its MESSAGE_CREATE event carry it
        (`with_nonce`); a message fetched later (GET, history) has none."""
        data: Dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": list(self.embeds),
            "components": list(self.components),
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if with_nonce and self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": dict(self.integration_owners),
            }
        return data

    def __repr__(self) -> str:
        kind = "ephemeral " if self.ephemeral else ""
        return f"<FakeMessage {kind}id={self.id} channel={self.channel_id} content={self.content[:40]!r} files={len(self.attachments)}>"


@dataclass
class MessagePayloadRecord:
    """A message body the bot sent (create or edit), tagged public/ephemeral."""

    kind: str  # "create" | "edit"
    method: str
    path: str
    message_id: Optional[int]
    payload: dict
    files: List[UploadedFile]
    ephemeral: bool
    interaction_id: Optional[int] = None


@dataclass
class CallbackRecord:
    """One POST /interactions/{id}/{token}/callback."""

    interaction_id: int
    type: int
    data: Optional[dict]
    files: List[UploadedFile]
    latency: float  # seconds after dispatch (fake clock)
    status: int = 0
    error: Optional[dict] = None

    @property
    def accepted(self) -> bool:
        return 200 <= self.status < 300

    @property
    def ephemeral(self) -> bool:
        return bool(((self.data or {}).get("flags") or 0) & limits.FLAG_EPHEMERAL)


@dataclass
class InteractionResult:
    """Everything the user saw for one interaction.

    Returned by ``FakeDiscord.slash/click/select``; it keeps updating if the bot
    does more later (call ``await fake.settle()`` then look again).
    """

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete, 5 modal submit
    payload: dict
    guild_id: Optional[int]
    channel_id: int
    user_id: int
    dispatched_at: float  # fake clock
    dispatched_mono: float
    callback: Optional[CallbackRecord] = None
    rejected_callbacks: List[CallbackRecord] = field(default_factory=list)
    original: Optional[FakeMessage] = None
    followups: List[FakeMessage] = field(default_factory=list)
    edits: List[dict] = field(default_factory=list)
    deleted_original: bool = False
    #: Channel messages (not via this interaction's token) created while waiting.
    channel_messages: List[FakeMessage] = field(default_factory=list)
    component_message: Optional[FakeMessage] = None
    #: When the user first saw the bot's answer (monotonic, like ``dispatched_mono``): the
    #: accepted callback if it carried the message (types 4, 7, 8, 9), else the first
    #: edit / follow-up after a defer (5, 6). None while the user still waits.
    answered_mono: Optional[float] = None
    #: The shard of the gateway session the INTERACTION_CREATE went to (the session serving
    #: the guild's shard; DMs go to shard 0), and that session's id. None when no connected
    #: session serves that shard: nobody got it, and Discord would show the user "The
    #: application did not respond" once the acknowledgement deadline passed.
    shard: Optional[int] = None
    session_id: Optional[str] = None

    @property
    def integration_owners(self) -> Dict[str, str]:
        """The interaction's authorizing_integration_owners: "0" the server (or "0" in the DM
        with the bot) when the app is installed there, "1" the user whose install it used."""
        return dict(self.payload.get("authorizing_integration_owners") or {})

    @property
    def context(self) -> Optional[int]:
        return self.payload.get("context")

    @property
    def user_install_only(self) -> bool:
        """Authorized by a user install alone (the app is not installed where it came from):
        then Discord takes at most 5 follow-ups."""
        owners = self.integration_owners
        return "1" in owners and "0" not in owners

    @property
    def callback_type(self) -> Optional[int]:
        return self.callback.type if self.callback else None

    @property
    def responded(self) -> bool:
        return self.callback is not None

    @property
    def delivered(self) -> bool:
        """Whether a connected session (a bot process) was sent this interaction."""
        return self.shard is not None

    @property
    def deferred(self) -> bool:
        return self.callback_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is ephemeral (only the invoker sees it)."""
        if self.original is not None and self.callback_type in (4, 5):
            return self.original.ephemeral
        return bool(self.callback and self.callback.ephemeral)

    @property
    def content(self) -> Optional[str]:
        return self.original.content if self.original is not None else None

    @property
    def messages(self) -> List[FakeMessage]:
        out = []
        if self.original is not None and not self.deleted_original:
            out.append(self.original)
        out.extend(m for m in self.followups if not m.deleted)
        return out

    @property
    def attachments(self) -> List[FakeAttachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def choices(self) -> Optional[List[dict]]:
        if self.callback is None or self.callback.type != 8:
            return None
        return list((self.callback.data or {}).get("choices") or [])

    @property
    def ack_latency(self) -> Optional[float]:
        return self.callback.latency if self.callback else None

    @property
    def answer_latency(self) -> Optional[float]:
        """Seconds from dispatch until the answer was shown (a defer is not an answer)."""
        return None if self.answered_mono is None else self.answered_mono - self.dispatched_mono

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.type} callback={self.callback_type} "
            f"ephemeral={self.ephemeral} followups={len(self.followups)} rejected={len(self.rejected_callbacks)} "
            f"shard={self.shard}>"
        )
