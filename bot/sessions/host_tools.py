"""What a game's host or a channel manager may do: abandon, kick or replace, settings; and a user's preferences."""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.sessions.commit import Commit, post_forum_status
from bot.sessions.pace import bank_due, read_clocks
from bot.sessions.core import Core, Loaded, no_open_game
from bot.sessions.lobby import Lobby
from bot.sessions.errors import SessionError
from bot.sessions.models import (
    Actor,
    GameInfo,
    Outcome,
    SeatInfo,
)
from bot.sessions.settings import GameSettings
from bot.store import Tx, retries_conflicts
from bot.store.models import UserPrefs
from games.core import Event
from games.core.i18n import language_for


class HostTools:
    """Abandon, kick or replace, settings; and a user's preferences."""

    def __init__(self, core: Core, commit: Commit, lobby: Lobby) -> None:
        self.core = core
        self.commit = commit
        self.lobby = lobby

    # ==================================================================================
    # host / manager tools
    # ==================================================================================
    @retries_conflicts
    async def abandon(self, channel_id: str, actor: Actor) -> GameInfo:
        """End the channel's game without a result. Works on a corrupt game too (it only
        needs the game's row), so a damaged game can always be cleared away."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise await no_open_game(tx, channel_id)
            if actor.user_id != row.host_user_id and not actor.is_manager:
                raise SessionError("not_host")
            seats = await tx.seats(row.id)
            version = await tx.update_game(row.id, row.version, now, status="abandoned")
            await tx.delete_timers(row.id)
            await tx.clear_standing_orders(row.id)
            if row.status == "active":
                await self.commit.post_abandoned(tx, row, seats, version, Event(key="session.abandoned",
                                                                          params={"by": actor.name}), now)
            else:  # a lobby: its own message says it closed (the adapter's); a forum post's tag too
                await post_forum_status(tx, row, "finished", now)
            new = await tx.get_game(row.id)
            assert new is not None
            try:
                return self.core.info(self.core.load(new, seats, with_state=False))
            except SessionError:
                # corrupt options/settings: still report the abandonment
                return GameInfo(
                    game_id=new.id, channel_id=new.channel_id, guild_id=new.guild_id,
                    game=new.game, status=new.status, host_user_id=new.host_user_id,
                    locale=new.locale, version=new.version,
                    seats=[SeatInfo(seat=s.seat, user_id=s.user_id, bot=s.bot,
                                    name=s.display_name) for s in seats],
                    min_players=0, max_players=0, options={}, settings=GameSettings(),
                )

    @retries_conflicts
    async def kick(
        self,
        channel_id: str,
        actor: Actor,
        seat_or_user: int | str,
        replace_with_bot: str | None = None,
    ) -> Outcome:
        """Host or manager: remove a player. In a lobby the seat is freed; in a running game
        a bot (`replace_with_bot`, default the game's first bot) takes the seat over."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None:
                raise await no_open_game(tx, channel_id)
            ld = self.core.load(row, await tx.seats(row.id))
            self.core.require_host(ld, actor)
            if isinstance(seat_or_user, int):
                if not 0 <= seat_or_user < len(ld.seats):
                    raise SessionError("no_such_seat", number=seat_or_user + 1)
                seat = seat_or_user
            else:
                found = ld.seat_of(str(seat_or_user))
                if found is None:
                    raise SessionError("player_not_found")
                seat = found
            target = ld.seats[seat]
            event = Event(key="session.kicked", params={"seat": seat})
            if row.status == "lobby":
                await self.lobby.remove_from_lobby(tx, ld, seat, now)
                new = await tx.get_game(row.id)
                seats = await tx.seats(row.id)
                assert new is not None
                return Outcome(
                    game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id,
                    game=row.game, version=new.version, status=new.status, locale=row.locale,
                    names=[s.display_name for s in seats], seat_user_ids=[s.user_id for s in seats],
                    kind="kick", seat=seat,
                    public_events=[Event(key="session.kicked",
                                         params={"seat": seat, "name": target.display_name})],
                )
            if target.bot:
                raise SessionError("already_a_bot", seat=seat)
            available = self.core.bot_names(ld.game)
            bot = replace_with_bot or (available[0] if available else None)
            if bot is None or bot not in available:
                raise SessionError("unknown_bot", bot=replace_with_bot or "", available=available)
            await tx.update_seat(row.id, seat, user_id=None, bot=bot,
                                 display_name=target.display_name)
            # The bot plays the seat now; the person's standing orders leave with them.
            await tx.clear_standing_orders(row.id, seat)
            seats = await tx.seats(row.id)
            host = None
            if target.user_id == row.host_user_id:
                humans = sorted((s for s in seats if s.user_id), key=lambda s: s.joined)
                if humans:
                    host = humans[0].user_id
            return await self.commit.commit(tx, ld, ld.state, kind="kick", now=now, seat=seat,
                                      events=[event], seats=seats, host_user_id=host)

    @retries_conflicts
    async def settings(self, channel_id: str, actor: Actor, **changes: Any) -> GameSettings:
        """Change reminder / deadline / quiet-hour settings (host or manager)."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
            self.core.require_host(ld, actor)
            known = GameSettings.model_fields
            for name, value in changes.items():
                # the auto-start size is the lobby's promise to whoever joined: not changed later;
                # where the posts go follows from where the game lives, not from a wish
                if name not in known or name in ("autostart_players", "delivery"):
                    raise SessionError("bad_setting", setting=name, value=str(value))
            try:
                new = GameSettings.model_validate({**ld.settings.model_dump(), **changes})
            except ValidationError as exc:
                err = exc.errors()[0]
                loc = err.get("loc") or ("settings",)
                name = str(loc[0])
                raise SessionError("bad_setting", setting=name,
                                   value=str(changes.get(name, err.get("input")))) from None
            if new.deadline_action == "bot" and not self.core.bot_names(ld.game):
                raise SessionError("bad_setting", setting="deadline_action", value="bot")
            if new.away_bot and not self.core.bot_names(ld.game):
                raise SessionError("bad_setting", setting="away_bot", value="on")
            if new.time_bank != ld.settings.time_bank and ld.row.status != "lobby":
                # everyone planned their days around the banks the game started with
                raise SessionError("time_bank_fixed")
            await tx.update_game(ld.row.id, ld.row.version, now,
                                 settings_json=new.model_dump(mode="json"))
            if ld.row.status == "active":
                await self.commit.reset_timers(tx, ld.row.id, new, now, bank_runs_out=await self._bank_due(tx, ld))
            return new

    async def _bank_due(self, tx: Tx, ld: Loaded) -> float | None:
        """When the first running time bank of the game runs out (None without banks)."""
        clocks = await read_clocks(tx, ld)
        if clocks is None:
            return None
        running = [s for s, c in clocks.seats.items() if c.since is not None and s < len(ld.seats)
                   and ld.seats[s].user_id]
        prefs = await tx.prefs_for(str(ld.seats[s].user_id) for s in running)
        return bank_due(clocks, running, {s: prefs.get(str(ld.seats[s].user_id)) for s in running})

    async def user_prefs(self, user_id: str) -> UserPrefs:
        return await self.core.store.get_prefs(user_id)

    async def set_user_prefs(self, user_id: str, *, dm_reminders: bool | None = None,
                             locale: str | None = None) -> UserPrefs:
        return await self.core.store.set_prefs(
            user_id, dm_reminders=dm_reminders,
            locale=language_for(locale) if locale is not None else None,
        )
