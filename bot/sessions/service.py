"""The sessions service: lobby, moves, undo, bots, timers — everything but Discord.

One object for the callers (the Discord adapter, the CLI, the bench), assembled from parts
that each do one job: bot/sessions/core.py (loading, the one commit of a change),
lobby.py, moves.py (moves, bots, undo), host_tools.py, looking.py (status, private views,
history), orders.py (standing orders, and the loop of automatic moves), timers.py
(reminders, deadlines) and retention.py (idle lobbies closed, closed games' leftovers dropped).
"""
from __future__ import annotations

from bot.sessions.host_tools import HostTools
from bot.sessions.lobby import LobbyService
from bot.sessions.looking import LookingService
from bot.sessions.retention import RetentionService
from bot.sessions.timers import TimerService


class SessionService(LobbyService, TimerService, HostTools, LookingService, RetentionService):
    """Railyard's application core (see the parts for what each method does)."""


__all__ = ["SessionService"]
