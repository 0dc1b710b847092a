"""What a reminder says, as the sessions service knows it: which game, how long it has waited,
and what it asks of each person it waits on, in the words of the rules (Game.prompt).

The Discord adapter turns this into the channel's reminder (in the game's language) and the
DMs (each in its reader's own language, recorded from their interactions: Lobby) - see
bot/discord/reminders.py.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from bot.sessions.core import Loaded, log
from bot.sessions.posting import Asked, ReminderPost
from bot.store import UserPrefs
from games.core import Event
from games.core.i18n import language_for


def asked_of(ld: Loaded, seats: Sequence[int]) -> list[Asked]:
    """Each human seat of `seats` with what the rules ask of it now. A prompt the rules cannot
    give (a bug in one game) leaves that seat's words to the adapter's plain "your turn": a
    reminder still goes out."""
    asked = []
    for seat in seats:
        user_id = ld.seats[seat].user_id if seat < len(ld.seats) else None
        if not user_id:
            continue
        try:
            prompt = ld.game.prompt(ld.state, seat)
        except Exception:  # noqa: BLE001 - the words of a reminder are no reason to drop it
            log.warning("game %s: no prompt for seat %s", ld.row.id, seat, exc_info=True)
            prompt = None
        asked.append(Asked(seat=seat, user_id=str(user_id), prompt=prompt))
    return asked


def reminder_post(ld: Loaded, *, waiting: Sequence[int], ping: Sequence[str], dm: Sequence[str],
                  prefs: Mapping[str, UserPrefs], attempt: int, hours: int) -> ReminderPost:
    """The outbox payload of one reminder: the people to `ping` now (of them, `dm` by DM),
    with every human seat the game `waiting` on named and asked."""
    row = ld.row
    return ReminderPost(
        game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id, game=row.game,
        version=row.version, locale=row.locale, names=ld.names,
        mention_user_ids=list(ping), dm_user_ids=list(dm), attempt=attempt, hours=hours,
        asked=asked_of(ld, waiting),
        dm_locales={u: language_for(prefs[u].locale) for u in dm if u in prefs and prefs[u].locale},
        events=[Event(key="reminder.waiting", params={"seats": list(waiting), "hours": hours})],
        delivery=ld.settings.delivery,
    )
