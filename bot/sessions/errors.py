"""SessionError: a request the sessions service refuses, with a stable code.

Like games.core.IllegalAction, it carries no sentence: `message_key` names a message in
data/messages/<lang>.json (`error.<code>`, or `error.<code>.<reason>` when a reason is given
and has its own message) and `params` fill it.
"""
from __future__ import annotations

from games.core.errors import CodedError

# Every code the service raises; each has error.<code> in both core catalogs (a test checks).
CODES: tuple[str, ...] = (
    "no_game_here",
    "game_already_here",
    "unknown_game",
    "not_in_game",
    "already_joined",
    "lobby_full",
    "not_enough_players",
    "not_host",
    "not_lobby",
    "not_active_game",
    "stale_version",
    "game_corrupt",
    "nothing_to_undo",
    "nothing_of_yours_to_undo",
    "undo_not_allowed",
    "bad_setting",
    "bad_option",
    "unknown_bot",
    "not_a_bot_seat",
    "already_a_bot",
    "no_such_seat",
    "player_not_found",
    "orders_unsupported",
    "no_orders_now",
    "order_unparsable",
    "order_not_offered",
    "no_such_order",
    "too_many_orders",
    "league_bad_name",
    "league_bad_table",
    "league_exists",
    "no_league",
    "league_started",
    "league_already_in",
    "league_not_in",
    "league_over",
    "league_round_running",
    "league_too_few",
)
UNDO_REASONS: tuple[str, ...] = ("hidden_info_revealed", "not_your_action", "someone_moved_since")
# What became of the channel's last game when none is open (error.no_game_here.<reason>), and
# why the open one is not under way (error.not_active_game.<reason>): see core.not_running.
NO_GAME_REASONS: tuple[str, ...] = ("finished", "abandoned", "closed")
NOT_ACTIVE_REASONS: tuple[str, ...] = ("lobby",)


class SessionError(CodedError):
    """A request the sessions service refuses (no game here, not your game, ...)."""

    @property
    def message_key(self) -> str:
        reason = self.params.get("reason")
        if isinstance(reason, str) and reason:
            return f"error.{self.code}.{reason}"
        return f"error.{self.code}"
