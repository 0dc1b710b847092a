"""What the sessions service asks to be posted, as typed models: the outbox payloads.

Every committed change that others should see becomes one outbox row in the change's own
transaction; its payload is one of these models as JSON. The same `GamePost` is in the
`Outcome` the caller gets back, so the immediate reply and the post that follows tell the
same story. The Discord adapter reads rows back with `load_post`: a payload that does not
validate is a post that cannot be built (the dispatcher gives it up and tells the host).
"""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.sessions.models import LocalClock, PublicMenu, SeatPace
from games.core import Event, Result


class PostBase(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game_id: int
    channel_id: str
    guild_id: str | None = None
    game: str
    version: int
    locale: str = "en"
    names: list[str] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)  # public events only
    mention_user_ids: list[str] = Field(default_factory=list)  # people the game waits on
    # GameSettings.delivery: "replies" when nothing may be posted in the channel unprompted
    # (the board went out as an interaction's answer; reminders and the result go by DM)
    delivery: Literal["channel", "replies"] = "channel"


class GamePost(PostBase):
    """A change to a running game (start, move, undo, kick): the board after it."""

    kind: Literal["start", "move", "undo", "kick"]
    seat: int | None = None
    notation: str | None = None  # public notation: secret details left out
    auto: str | None = None
    waiting: list[int] = Field(default_factory=list)
    view: dict[str, Any] | None = None  # the spectator view
    menu: PublicMenu | None = None
    finished: bool = False
    result: Result | None = None
    pace: list[SeatPace] = Field(default_factory=list)  # time banks, away players
    clocks: list[LocalClock] = Field(default_factory=list)  # waited-on people's time of day
    # a game in a server's channel or thread (not a forum post, not living by its answers) may
    # have its rematch in a new thread of the channel too: its final post offers both
    rematch_thread: bool = False
    # the host opened the game's web table to spectators (GameSettings.public_table): its board
    # posts link to it, its final post to its replay, where the bot serves the web table
    public_table: bool = False
    # the players told of it by DM: in a game that lives by its answers, its end (its result)
    dm_user_ids: list[str] = Field(default_factory=list)


class AbandonedPost(PostBase):
    kind: Literal["abandoned"] = "abandoned"


class Asked(BaseModel):
    """What the game asks of one seat it waits on (Game.prompt: words the rules address to
    that seat, from public facts), and who plays it."""

    seat: int
    user_id: str
    prompt: Event | None = None


class ReminderPost(PostBase):
    """Whoever the game waits on is reminded: by DM for those who asked, else in the channel.
    A DM is in its reader's own language (`dm_locales`, where known); the channel's words are
    in the game's. Rows written before `asked` existed have it empty (and `hours` None): their
    words fall back to the game's plain "your turn"."""

    kind: Literal["reminder"] = "reminder"
    dm_user_ids: list[str] = Field(default_factory=list)
    attempt: int = 1
    hours: int | None = None  # since the last move, whole hours
    asked: list[Asked] = Field(default_factory=list)  # every human seat the game waits on
    dm_locales: dict[str, str] = Field(default_factory=dict)  # user id -> catalog language


POSTS: dict[str, type[PostBase]] = {
    **{kind: GamePost for kind in ("start", "move", "undo", "kick")},
    "abandoned": AbandonedPost,
    "reminder": ReminderPost,
}


def load_post(kind: str, payload: Any) -> PostBase:
    """The typed post of an outbox row (raises pydantic.ValidationError on a junk payload,
    KeyError for a kind that is not a game's post)."""
    return POSTS[kind].model_validate(payload)
