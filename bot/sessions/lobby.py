"""The lobby: open a game, join, leave, seat bots, start (by the host, or by itself at its size)."""
from __future__ import annotations

import random
from typing import Any, Awaitable, Callable

from pydantic import ValidationError

from bot.sessions.commit import Commit, post_forum_status
from bot.sessions.core import Core, Loaded, log
from bot.sessions.errors import SessionError
from bot.sessions.models import (
    Actor,
    GameInfo,
    Outcome,
)
from bot.sessions.settings import CHANNEL, GameSettings
from bot.store import ChannelBusy, GameRow, Tx, retries_conflicts
from games import registry
from games.core import Event
from games.core.i18n import language_for
from games.core.rng import derive


async def remember_language(tx: Tx, actor: Actor) -> None:
    """Keep the language a person's Discord speaks as theirs (user_prefs.locale), for what the
    bot sends them alone later, outside any interaction: reminders by DM, notices to a host.
    Taken when they open or join a game, which everyone who plays does, rather than on every
    click (a write each)."""
    if actor.locale:
        await tx.set_prefs(actor.user_id, locale=language_for(actor.locale))


class Lobby:
    """Open a game, join, leave, seat bots, start."""

    def __init__(self, core: Core, commit: Commit) -> None:
        self.core = core
        self.commit = commit

    # ==================================================================================
    # lobby
    # ==================================================================================
    @retries_conflicts
    async def create(
        self,
        game_name: str,
        channel_id: str,
        guild_id: str | None,
        host: Actor,
        options: dict[str, Any] | None = None,
        locale: str | None = "en",
        autostart_players: int | None = None,
        delivery: str = CHANNEL,
        forum_id: str | None = None,
    ) -> GameInfo:
        """Open a lobby in the channel; the host takes the first seat. With
        `autostart_players` the lobby has that many seats and the game is to start as soon as
        they are taken (`autostart` starts it on the host's behalf). `delivery` says how its
        posts reach the players (GameSettings.delivery), as the caller knows the channel;
        `forum_id`: the channel is a post opened for the game in that forum
        (GameSettings.forum_id)."""
        try:
            game = registry.get(game_name)
        except registry.UnknownGame:
            raise SessionError("unknown_game", game=game_name, available=registry.names()) from None
        except Exception:  # noqa: BLE001 - a game that cannot be imported is not offered
            log.exception("game %s cannot be loaded", game_name)
            raise SessionError("unknown_game", game=game_name, available=registry.names()) from None
        try:
            opts = game.options_model.model_validate(options or {}).model_dump(mode="json")
        except ValidationError as exc:
            err = exc.errors()[0]
            name = ".".join(str(p) for p in err.get("loc", ())) or "options"
            raise SessionError("bad_option", option=name, value=str(err.get("input"))) from None
        if autostart_players is not None and not game.min_players <= autostart_players <= game.max_players:
            raise SessionError("bad_option", option="players", value=str(autostart_players))
        settings = GameSettings(autostart_players=autostart_players, delivery=delivery, forum_id=forum_id)
        now = self.core.clock()
        async with self.core.store.write() as tx:
            if await tx.open_game(channel_id) is not None:
                raise SessionError("game_already_here")
            try:
                game_id = await tx.insert_game(
                    game=game_name, guild_id=guild_id, channel_id=channel_id,
                    host_user_id=host.user_id, locale=language_for(locale), options=opts,
                    settings=settings.model_dump(mode="json"), seed=self.core.new_seed(), now=now,
                )
            except ChannelBusy:
                raise SessionError("game_already_here") from None
            await tx.add_seat(game_id, 0, user_id=host.user_id, bot=None, display_name=host.name)
            await remember_language(tx, host)
            return await self.core.info_in_tx(tx, game_id)

    async def rematch(self, game_id: int, actor: Actor,
                      new_post: Callable[[GameInfo], Awaitable[str]] | None = None, *,
                      elsewhere: bool = False) -> tuple[GameInfo, bool]:
        """The rematch of a finished game, asked for by one of its players: the first to ask
        opens its lobby (the same game and options, its host's settings, a new seed, the
        seats rotated), the next ones join it, wherever it was opened. Returns (the lobby,
        whether this call opened it).

        A game in a channel or thread has its rematch there, or, asked `elsewhere`, in a new
        thread of the channel. A game in a forum post has it in a new post of the same forum.
        For a new thread or post, `new_post(finished)` (the finished game, whose settings name
        any forum) opens it (outside any transaction: it asks Discord) and returns its channel
        id. The finished game keeps the rematch's id (GameSettings.rematch_id), under its
        version guard, so that of two players pressing at once one opens it and the other
        joins. The loser's thread or post is the caller's to clear away (the lobby returned is
        elsewhere). A rematch played or closed leaves room for another."""
        async with self.core.store.read() as tx:
            ld, opened = await self._finished_and_rematch(tx, game_id, actor)
            finished = self.core.info(ld)
        if opened is not None:  # in this channel, a thread or a post: joined wherever it is
            return await self._join_rematch(opened, actor)
        if (elsewhere or finished.settings.forum_id is not None) and new_post is not None:
            return await self._open_or_join_rematch(game_id, actor, await new_post(finished))
        return await self._open_or_join_rematch(game_id, actor, ld.row.channel_id)

    async def _finished_and_rematch(self, tx: Tx, game_id: int, actor: Actor) -> tuple[Loaded, GameRow | None]:
        """The finished game `actor` played in (refused otherwise) and its rematch while that is
        still open (one played or closed leaves room for another)."""
        row = await tx.get_game(game_id)
        if row is None or row.status != "finished":
            raise SessionError("rematch_not_finished")
        ld = self.core.load(row, await tx.seats(game_id), with_state=False)
        if ld.seat_of(actor.user_id) is None:
            raise SessionError("not_in_game")
        opened = await tx.get_game(ld.settings.rematch_id) if ld.settings.rematch_id is not None else None
        return ld, opened if opened is not None and opened.is_open else None

    async def _open_or_join_rematch(self, game_id: int, actor: Actor, channel_id: str) -> tuple[GameInfo, bool]:
        """Open the rematch in `channel_id`; when another player's press opened it first, join
        that one, wherever it is."""
        try:
            return await self._open_rematch(game_id, actor, channel_id), True
        except SessionError as exc:
            if exc.code != "game_already_here":
                raise
        async with self.core.store.read() as tx:
            ld, opened = await self._finished_and_rematch(tx, game_id, actor)
            if opened is None:  # a rematch in the game's own channel opened before games named theirs
                here = await tx.open_game(ld.row.channel_id)
                if here is not None and GameSettings.model_validate_json(here.settings_json).rematch_of == game_id:
                    opened = here
        return await self._join_rematch(opened, actor)

    async def _join_rematch(self, opened: GameRow | None, actor: Actor) -> tuple[GameInfo, bool]:
        if opened is None or opened.status != "lobby":
            raise SessionError("game_already_here")
        return await self.join(opened.channel_id, actor), False

    @retries_conflicts
    async def _open_rematch(self, game_id: int, actor: Actor, channel_id: str) -> GameInfo:
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld, earlier = await self._finished_and_rematch(tx, game_id, actor)
            row = ld.row
            if earlier is not None or await tx.open_game(channel_id) is not None:
                raise SessionError("game_already_here")
            people = [str(s.user_id) for s in ld.seats if s.user_id]
            settings = ld.settings.model_copy(update={
                "autostart_players": None, "rematch_of": game_id, "seat_order": people[1:] + people[:1],
                "rematch_id": None})
            try:
                new_id = await tx.insert_game(
                    game=row.game, guild_id=row.guild_id, channel_id=channel_id, host_user_id=actor.user_id,
                    locale=row.locale, options=ld.options, settings=settings.model_dump(mode="json"),
                    seed=self.core.new_seed(), now=now)
            except ChannelBusy:
                raise SessionError("game_already_here") from None
            # the finished game says where its rematch is, for those who press after
            await tx.update_game(row.id, row.version, now, settings_json=ld.settings.model_copy(
                update={"rematch_id": new_id}).model_dump(mode="json"))
            await tx.add_seat(new_id, 0, user_id=actor.user_id, bot=None, display_name=actor.name)
            await remember_language(tx, actor)
            return await self.core.info_in_tx(tx, new_id)

    @retries_conflicts
    async def join(self, channel_id: str, actor: Actor) -> GameInfo:
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            if ld.seat_of(actor.user_id) is not None:
                raise SessionError("already_joined")
            self._require_free_seat(ld)
            await tx.add_seat(ld.row.id, len(ld.seats), user_id=actor.user_id, bot=None,
                              display_name=actor.name)
            await remember_language(tx, actor)
            await tx.update_game(ld.row.id, ld.row.version, now)
            return await self.core.info_in_tx(tx, ld.row.id)

    @retries_conflicts
    async def leave(self, channel_id: str, actor: Actor) -> GameInfo:
        """Leave a lobby. If the host leaves, the earliest other human becomes host; with no
        human left the lobby is closed (status 'abandoned')."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
            if ld.row.status != "lobby":
                raise SessionError("not_lobby")
            seat = ld.seat_of(actor.user_id)
            if seat is None:
                raise SessionError("not_in_game")
            await self.remove_from_lobby(tx, ld, seat, now)
            return await self.core.info_in_tx(tx, ld.row.id)

    async def remove_from_lobby(self, tx: Tx, ld: Loaded, seat: int, now: float) -> None:
        leaving = ld.seats[seat]
        rest = self.core.renumber([s for s in ld.seats if s.seat != seat])
        await tx.replace_seats(ld.row.id, rest)
        fields: dict[str, Any] = {}
        if leaving.user_id is not None and leaving.user_id == ld.row.host_user_id:
            humans = sorted((s for s in rest if s.user_id), key=lambda s: s.joined)
            if humans:
                fields["host_user_id"] = humans[0].user_id
            else:
                fields["status"] = "abandoned"
        await tx.update_game(ld.row.id, ld.row.version, now, **fields)
        if fields.get("status") == "abandoned":
            await post_forum_status(tx, ld.row, "finished", now, settings=ld.settings)

    async def _open_lobby_as_host(self, tx, channel_id: str, actor: Actor):
        """The channel's game, for a change only its host may make and only in the lobby."""
        ld = await self.core.open_in_tx(tx, channel_id)
        self.core.require_host(ld, actor)
        if ld.row.status != "lobby":
            raise SessionError("not_lobby")
        return ld

    @retries_conflicts
    async def add_bot(self, channel_id: str, actor: Actor, bot_name: str | None = None) -> GameInfo:
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self._open_lobby_as_host(tx, channel_id, actor)
            available = self.core.bot_names(ld.game)
            name = bot_name or (available[0] if available else None)
            if name is None or name not in available:
                raise SessionError("unknown_bot", bot=bot_name or "", available=available)
            self._require_free_seat(ld)
            taken = {s.display_name for s in ld.seats}
            number = 1
            while f"Bot {number}" in taken:
                number += 1
            await tx.add_seat(ld.row.id, len(ld.seats), user_id=None, bot=name,
                              display_name=f"Bot {number}")
            await tx.update_game(ld.row.id, ld.row.version, now)
            return await self.core.info_in_tx(tx, ld.row.id)

    @retries_conflicts
    async def remove_bot(self, channel_id: str, actor: Actor, seat: int) -> GameInfo:
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self._open_lobby_as_host(tx, channel_id, actor)
            if not 0 <= seat < len(ld.seats):
                raise SessionError("no_such_seat", number=seat + 1)
            if not ld.seats[seat].bot:
                raise SessionError("not_a_bot_seat", seat=seat)
            await self.remove_from_lobby(tx, ld, seat, now)
            return await self.core.info_in_tx(tx, ld.row.id)

    @retries_conflicts
    async def start(self, channel_id: str, actor: Actor) -> Outcome:
        """Shuffle the seats with the game's seed, set the game up and post the first turn."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            ld = await self._open_lobby_as_host(tx, channel_id, actor)
            return await self.start_seated(tx, ld, now)

    @retries_conflicts
    async def autostart(self, channel_id: str) -> Outcome | None:
        """Start the channel's lobby on its host's behalf when it was opened for a number of
        seats (`create(autostart_players=...)`) and they are all taken; else None. The count
        is the one stored with the lobby, never one a caller passes in."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            row = await tx.open_game(channel_id)
            if row is None or row.status != "lobby":
                return None
            ld = self.core.load(row, await tx.seats(row.id), with_state=False)
            target = ld.settings.autostart_players
            if target is None or len(ld.seats) < target:
                return None
            return await self.start_seated(tx, ld, now)

    async def start_seated(self, tx: Tx, ld: Loaded, now: float) -> Outcome:
        """Start a game whose seats are taken (a lobby, or a league's table) in the caller's
        transaction."""
        n = len(ld.seats)
        if n < ld.game.min_players:
            raise SessionError("not_enough_players", min=ld.game.min_players, have=n)
        order = list(ld.seats)
        random.Random(derive(ld.row.seed, 0, "seats")).shuffle(order)
        if ld.settings.seat_order:  # a rematch: the earlier game's order, rotated; newcomers after
            rank = {user: i for i, user in enumerate(ld.settings.seat_order)}
            order.sort(key=lambda s: rank.get(str(s.user_id), len(rank)))
        seats = [s.model_copy(update={"seat": i}) for i, s in enumerate(order)]
        await tx.replace_seats(ld.row.id, seats)
        state = ld.game.setup(n, ld.options, ld.row.seed)
        ld.seats = seats
        events = [Event(key="session.started", params={"seats": list(range(n))})]
        first = _first_player(ld.game, state)
        if first is not None:  # the seats were just shuffled: nobody can guess who begins
            events.append(Event(key="session.first_player", params={"seat": first}))
        return await self.commit.commit(tx, ld, state, kind="start", now=now, events=events,
                                  seats=seats)

    def _require_free_seat(self, ld: Loaded) -> None:
        seats = self.core.lobby_seats(ld)
        if len(ld.seats) >= seats:
            raise SessionError("lobby_full", max=seats)


def _first_player(game: Any, state: Any) -> int | None:
    """The seat that takes the first turn: the one seat the game waits on, or, when every seat
    chooses at once before play begins (starting tickets, a first card), the seat whose turn
    the public view names as current. None when the game does not say."""
    active = game.active_players(state)
    if len(active) == 1:
        return next(iter(active))
    current = getattr(game.view(state, None), "current", None)
    return current if isinstance(current, int) and not isinstance(current, bool) else None
