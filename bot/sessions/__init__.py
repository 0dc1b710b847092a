"""The sessions service: Railyard's application core, free of Discord."""
from bot.sessions.errors import CODES, NO_GAME_REASONS, NOT_ACTIVE_REASONS, UNDO_REASONS, SessionError
from bot.sessions.models import (
    Actor,
    ClickResult,
    GameInfo,
    HistoryEntry,
    LegalMove,
    MenuMove,
    MenuWalk,
    OrdersInfo,
    Outcome,
    PrivateView,
    PublicMenu,
    Reminder,
    SeatInfo,
    StandingOrder,
    StatusInfo,
    WaitingGame,
)
from bot.sessions.service import SessionService
from bot.sessions.settings import REMINDER_CAP_SECONDS, GameSettings, QuietHours

__all__ = [
    "Actor", "CODES", "ClickResult", "GameInfo", "GameSettings", "HistoryEntry", "LegalMove", "MenuMove",
    "MenuWalk", "NO_GAME_REASONS", "NOT_ACTIVE_REASONS", "OrdersInfo", "Outcome",
    "PrivateView", "PublicMenu", "QuietHours", "REMINDER_CAP_SECONDS", "Reminder", "SeatInfo",
    "SessionError", "SessionService", "StandingOrder", "StatusInfo", "UNDO_REASONS", "WaitingGame",
]
