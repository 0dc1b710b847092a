"""Rows of the store as pydantic models.

JSON columns are kept as raw text here (`*_json`, `snapshot`): decoding them is the caller's
business, so one game's damaged row can never stop a query that lists many games.
"""
from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

GameStatus = Literal["lobby", "active", "finished", "abandoned"]
OPEN_STATUSES: tuple[str, ...] = ("lobby", "active")


class GameRow(BaseModel):
    id: int
    game: str
    guild_id: str | None
    channel_id: str
    status: GameStatus
    host_user_id: str
    locale: str
    options_json: str
    settings_json: str
    seed: int
    version: int
    snapshot: str | None
    created_at: float
    updated_at: float
    last_move_at: float | None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class SeatRow(BaseModel):
    game_id: int
    seat: int
    user_id: str | None
    bot: str | None
    display_name: str
    joined: int

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class ActionRow(BaseModel):
    game_id: int
    seq: int
    seat: int
    kind: Literal["move", "undo"]
    notation: str
    events_json: str
    undoable: bool
    actor_user_id: str | None
    auto: str | None
    undoes_seq: int | None
    created_at: float

    def events(self) -> list[dict[str, Any]]:
        """The stored public events; [] if the column cannot be decoded."""
        try:
            data = json.loads(self.events_json)
        except ValueError:
            return []
        return data if isinstance(data, list) else []


class TimerRow(BaseModel):
    game_id: int
    kind: Literal["reminder", "deadline", "bots", "lapse"]
    due_at: float
    attempt: int
    payload_json: str
    # the process that is firing it now, and until when (see claim_timers in sql.py)
    claimed_by: str | None = None
    claimed_until: float | None = None
    # leases run out under its holders in a row since it was last rescheduled
    takeovers: int = 0


class OutboxRow(BaseModel):
    id: int
    game_id: int | None
    created_at: float
    kind: str
    payload_json: str
    attempts: int
    next_attempt_at: float
    delivered_at: float | None
    last_error: str | None
    dead: bool
    # the process delivering it now, and until when its lease runs (see claim_outbox)
    claimed_by: str | None = None
    claimed_until: float | None = None
    # lease run-outs in a row since a process last recorded an outcome (see claim_outbox)
    takeovers: int = 0

    @property
    def payload(self) -> dict[str, Any]:
        return json.loads(self.payload_json)


class OutboxPart(BaseModel):
    """One part of an outbox row that has gone out (see outbox_parts in 0002)."""
    part: str
    outcome: str
    message_id: str | None
    done_at: float


class DeliveryContact(BaseModel):
    """Where a game lives and who hosts it, for telling the host about delivery problems.
    `locale` is the host's own language if they set one, else the game's."""
    game_id: int
    game: str
    guild_id: str | None
    channel_id: str
    host_user_id: str
    locale: str
    settings_json: str = "{}"

    @property
    def delivery(self) -> str:
        """The game's settings' `delivery` ("channel" when unset or unreadable): "replies"
        when the bot may not post in the game's channel by itself, so a host is told by DM."""
        try:
            settings = json.loads(self.settings_json)
        except ValueError:
            return "channel"
        value = settings.get("delivery") if isinstance(settings, dict) else None
        return value if value in ("channel", "replies") else "channel"


class UserPrefs(BaseModel):
    user_id: str
    dm_reminders: bool = False
    locale: str | None = None
    # the person's own hours (bot/sessions/hours.py), None where not set
    tz: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    # away from all their games (bot/sessions/pace.py): kept after it ends, for the time banks
    away_from: float | None = None
    away_until: float | None = None
    away_told: bool = True  # the list of what waits on them was sent at their return
    # one DM a day at this local hour instead of reminders per game
    digest_hour: int | None = None
    digest_next_at: float | None = None


class ResultRow(BaseModel):
    """One seat of a finished game's result."""

    game_id: int
    seat: int
    user_id: str | None
    bot: str | None = None
    guild_id: str | None
    game: str
    place: int
    total: int
    stats_json: str = "{}"
    players: int
    finished_at: float
    forfeited: bool = False  # ran out of time where that forfeits (a league's game): placed last

    @property
    def stats(self) -> dict[str, Any]:
        try:
            value = json.loads(self.stats_json)
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}


class RatingRules(BaseModel):
    guild_id: str
    enabled: bool = True
    with_bots: bool = False


class RatingRow(BaseModel):
    guild_id: str
    game: str
    user_id: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The rating shown and ranked by: mu − 3σ, which a new player starts near 0 on."""
        return self.mu - 3 * self.sigma


class LeagueRow(BaseModel):
    """A league (bot/sessions/leagues.py): its game, rounds and what its games are given."""

    id: int
    guild_id: str
    channel_id: str
    name: str
    game: str
    options_json: str = "{}"
    table_size: int
    rounds: int
    round: int
    deadline_hours: float
    status: Literal["signup", "playing", "finished"]
    locale: str
    created_by: str
    created_at: float
    card_message_id: str | None = None

    @property
    def options(self) -> dict[str, Any]:
        value = json.loads(self.options_json)
        return value if isinstance(value, dict) else {}


class LeagueTable(BaseModel):
    """One table of a league's round: who was seated there and, once opened, its game."""

    league_id: int
    round: int
    table_no: int
    players_json: str
    game_id: int | None = None
    status: str | None = None  # its game's, when opened

    @property
    def players(self) -> list[str]:
        return [str(u) for u in json.loads(self.players_json)]
