"""Per-game settings (reminders, deadlines, quiet hours, the lobby's auto-start size), stored as
JSON in games.settings."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.sessions.clocks import TimeBank

REMINDER_CAP_SECONDS = 4 * 24 * 3600.0  # back-off never waits longer than 4 days

# How a game's posts reach its players (GameSettings.delivery):
CHANNEL = "channel"  # the bot posts in the game's channel: the live board, pings, reminders
# The bot may not post in the game's channel by itself (a group DM, or a server channel where
# the app is installed only by its users): the board goes out as the answer to the
# interaction that changed it, and reminders and the result go to the players by DM.
REPLIES = "replies"


class QuietHours(BaseModel):
    """No reminders from start_hour:00 to end_hour:00 local time (may wrap midnight)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    start_hour: int = Field(ge=0, le=23)
    end_hour: int = Field(ge=0, le=23)
    tz: str = "UTC"

    @model_validator(mode="before")
    @classmethod
    def _from_tuple(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            if len(value) == 2:
                return {"start_hour": value[0], "end_hour": value[1]}
            if len(value) == 3:
                return {"start_hour": value[0], "end_hour": value[1], "tz": value[2]}
            raise ValueError("quiet hours are (start_hour, end_hour[, time zone])")
        return value

    @field_validator("tz")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    @model_validator(mode="after")
    def _not_empty(self) -> "QuietHours":
        if self.start_hour == self.end_hour:
            raise ValueError("quiet hours must start and end at different hours")
        return self

    def contains(self, when: float) -> bool:
        hour = datetime.fromtimestamp(when, ZoneInfo(self.tz)).hour
        if self.start_hour < self.end_hour:
            return self.start_hour <= hour < self.end_hour
        return hour >= self.start_hour or hour < self.end_hour

    def end_after(self, when: float) -> float:
        """The first end of the quiet window after `when` (a Unix time)."""
        local = datetime.fromtimestamp(when, ZoneInfo(self.tz))
        end = local.replace(hour=self.end_hour, minute=0, second=0, microsecond=0)
        if end <= local:
            end = (end + timedelta(days=1)).replace(hour=self.end_hour)
        return end.timestamp()


class GameSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reminder_minutes: int = Field(720, ge=10, le=4 * 24 * 60)
    reminder_backoff: float = Field(2.0, ge=1.0, le=10.0)
    deadline_hours: float | None = Field(None, ge=1, le=24 * 60)
    # what a deadline does: the rules' timeout move, a bot's move, or (a league's games) the
    # player forfeits: a bot plays their seat on and they are placed last
    deadline_action: Literal["pass", "bot", "forfeit"] = "pass"
    quiet_hours: QuietHours | None = None
    # A lobby opened for this many seats starts by itself when they are taken (None: the host
    # starts it). Fixed when the lobby opens, within the game's player range; the lobby's
    # buttons never carry it, so a forged click cannot start a game the host did not ask for.
    autostart_players: int | None = Field(None, ge=1)
    # Each player's own time bank (bot/sessions/clocks.py), chosen before the game starts:
    # changing it mid-game would change what every player has planned their days around.
    time_bank: TimeBank | None = None
    # While a player is away (/away), a bot plays their turns (logged as such) instead of the
    # game waiting for their return; the host's choice, for games that have bots.
    away_bot: bool = False
    # Anyone with the link may watch the game on the web table (bot/web): the public board, the
    # log and the replay, never a hand. The host's choice; off until they make it.
    public_table: bool = False
    # A rematch's lobby (Lobby.rematch): the finished game it replays, and the seat order it
    # starts in, the earlier game's rotated by one (who began now plays last); players who were
    # not in the earlier game sit after them.
    rematch_of: int | None = None
    seat_order: list[str] | None = None
    # Where the game's posts go (CHANNEL or REPLIES above): fixed when the lobby opens, from
    # where it was opened; a rematch keeps it, and no setting changes it.
    delivery: Literal["channel", "replies"] = CHANNEL
    # The game lives in a post the bot opened for it in this forum channel: the post's status
    # tag (lobby, playing, finished) follows the game, and its rematch opens as a new post of
    # the same forum. None for a game in a channel or a thread (a person's own forum post too).
    forum_id: str | None = None
    # A finished game in a forum post: its rematch, once a player opened it (in another post,
    # so the channel alone cannot say), for the next players pressing Rematch to join.
    rematch_id: int | None = None

    def reminder_interval(self, attempt: int) -> float:
        """Seconds until the reminder after `attempt` reminders were sent (0 = first one)."""
        base = self.reminder_minutes * 60.0
        try:
            value = base * (self.reminder_backoff ** attempt)
        except OverflowError:
            return REMINDER_CAP_SECONDS
        return min(value, REMINDER_CAP_SECONDS)
