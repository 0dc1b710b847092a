"""Standing orders: moves a player decides in advance, made for them when their turn comes.

A game whose turns pass through every player several times (bids, passes, an answer after
each delivery) would wait hours on each pass in an asynchronous game. The rules say which
orders a seat may set (`Game.order_choices`, a menu like any decision, whose moves are order
notations), what an order means (`describe_order`) and what it does now (`follow_orders`).
This part of the service keeps each seat's list and applies it:

* `set_order` / `cancel_order` / `clear_orders` / `orders_of` — a player's own list, in the
  table standing_orders, shown to nobody else. An order is set only if the rules can read it
  and offer it at that moment (else `order_unparsable` / `order_not_offered`).
* A move the player makes themselves cancels the orders the game says it replaces
  (`Game.orders_after_own_move`; by default all of them, as a move of this turn's replaces
  what one decided for it; Catan Express keeps its standing answers) in the move's own
  transaction (MoveService.act; `Outcome.orders_cancelled` says whether any went,
  `Outcome.orders_kept` how many stand).
* After every committed change the commit asks `_order_movers` which waited-on seats their
  orders will move: those are not pinged, and `bots_next` asks the caller to `run_bots`,
  which here covers orders too (`step_order`: one order move, announced with the event
  `session.order_move` and logged with auto="order", the orders still standing written in
  the same transaction). Like a bot's move, such a move is due work with a 'bots' timer
  (`_schedule_bots`), written by the change that makes it due (a commit, or an order set
  on one's own turn), so any live process makes it if the one that should dies first.
* An order the rules refuse (or a game bug while following it) drops that seat's whole list:
  the game then waits on the person as if they had set none. Nothing stalls or crashes.
"""
from __future__ import annotations

from typing import Any, Sequence

from bot.sessions.core import _Loaded, _RETRIES, _move_words, log, not_running
from bot.sessions.errors import SessionError
from bot.sessions.models import Actor, OrdersInfo, Outcome, StandingOrder
from bot.sessions.moves import MoveService
from bot.store import SeatRow, StaleVersion, Tx, retries_conflicts
from games.core import ApplyResult, Event, Game, IllegalAction

MAX_ORDERS = 20  # per seat: plenty for any plan, and a bound on what one player can store


def offers_orders(game: Game) -> bool:
    """Whether the game has standing orders at all (it overrides the protocol's default
    menu, which offers none)."""
    return type(game).order_choices is not Game.order_choices


class _Followed:
    """What following a seat's orders gives now: the move (with the rules' result) or None,
    and the orders still standing afterwards."""

    __slots__ = ("action", "applied", "remaining")

    def __init__(self, action: Any, applied: ApplyResult | None, remaining: list[str]) -> None:
        self.action, self.applied, self.remaining = action, applied, remaining


class OrderService(MoveService):
    # ==================================================================================
    # a player's own list
    # ==================================================================================
    async def orders_of(self, channel_id: str, actor: Actor) -> OrdersInfo:
        """The actor's standing orders in the channel's game and the orders they may set now."""
        ld, seat, orders = await self._orders_read(channel_id, actor)
        return self._orders_info(ld, seat, orders)

    @retries_conflicts
    async def set_order(self, channel_id: str, actor: Actor, order: str) -> OrdersInfo:
        """Add a standing order (its notation as the game's menu gives it). If the game waits
        on the actor and the order moves at once, `moves_now` asks the caller to run_bots."""
        order = order.strip()
        for _ in range(_RETRIES):
            ld, seat, _stored = await self._orders_read(channel_id, actor)
            self._check_new_order(ld, seat, order)
            try:
                async with self.store.write() as tx:
                    # the order was checked against this version of the game
                    await tx.require_version(ld.row.id, ld.row.version)
                    current = (await tx.standing_orders(ld.row.id)).get(seat, [])
                    orders = current if order in current else [*current, order]
                    if len(orders) > MAX_ORDERS:
                        raise SessionError("too_many_orders", max=MAX_ORDERS)
                    await tx.set_standing_orders(ld.row.id, seat, orders, self.clock())
                    moves_now = seat in ld.game.active_players(ld.state) and \
                        self._follow(ld, seat, orders, quiet=True).action is not None
                    if moves_now:  # the order's move is due, as a bot's would be
                        await self._schedule_bots(tx, ld.row.id, True, self.clock())
            except StaleVersion:
                continue  # the game moved meanwhile: check the order against it again
            info = self._orders_info(ld, seat, orders)
            info.moves_now = moves_now
            return info
        raise SessionError("stale_version", version=ld.row.version)

    @retries_conflicts
    async def cancel_order(self, channel_id: str, actor: Actor, order: str) -> OrdersInfo:
        """Withdraw one standing order (the first one with this notation)."""
        ld, seat, _stored = await self._orders_read(channel_id, actor)
        async with self.store.write() as tx:
            current = (await tx.standing_orders(ld.row.id)).get(seat, [])
            if order not in current:
                raise SessionError("no_such_order", order=order[:80])
            current.remove(order)
            await tx.set_standing_orders(ld.row.id, seat, current, self.clock())
        return self._orders_info(ld, seat, current)

    @retries_conflicts
    async def clear_orders(self, channel_id: str, actor: Actor) -> OrdersInfo:
        """Withdraw all of the actor's standing orders."""
        ld, seat, _stored = await self._orders_read(channel_id, actor)
        async with self.store.write() as tx:
            await tx.clear_standing_orders(ld.row.id, seat)
        return self._orders_info(ld, seat, [])

    async def _orders_read(self, channel_id: str, actor: Actor) -> tuple[_Loaded, int, list[str]]:
        """The channel's running game, the actor's seat in it and their orders (one read)."""
        async with self.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.latest_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(row.id)
            stored = await tx.standing_orders(row.id)
        if row.status != "active":
            raise not_running(row)
        ld = self._load(row, seats)
        seat = ld.seat_of(actor.user_id)
        if seat is None:
            raise SessionError("not_in_game")
        if not offers_orders(ld.game):
            raise SessionError("orders_unsupported")
        return ld, seat, stored.get(seat, [])

    def _check_new_order(self, ld: _Loaded, seat: int, order: str) -> None:
        game, state = ld.game, ld.state
        try:
            game.describe_order(state, seat, order)
        except IllegalAction as exc:
            if exc.code == "unparsable":
                raise SessionError("order_unparsable", text=order[:80]) from None
            raise
        choices = game.order_choices(state, seat)
        if choices.empty:
            raise SessionError("no_orders_now")
        if not choices.holds(order):
            raise SessionError("order_not_offered", order=order[:80])

    def _orders_info(self, ld: _Loaded, seat: int, orders: Sequence[str]) -> OrdersInfo:
        game, state = ld.game, ld.state
        return OrdersInfo(
            game_id=ld.row.id, channel_id=ld.row.channel_id, game=ld.row.game, seat=seat,
            version=ld.row.version, names=ld.names, active=seat in game.active_players(state),
            orders=[StandingOrder(notation=o, label=self._order_label(game, state, seat, o)) for o in orders],
            choices=game.order_choices(state, seat),
            kept_by_own_moves=type(game).orders_after_own_move is not Game.orders_after_own_move,
        )

    @staticmethod
    def _order_label(game: Game, state: Any, seat: int, order: str) -> Event:
        try:
            return game.describe_order(state, seat, order)
        except Exception:  # noqa: BLE001 - an order the game no longer reads is still listed
            return Event(key="session.order_text", params={"order": order})

    # ==================================================================================
    # following the orders
    # ==================================================================================
    def _follow(self, ld: _Loaded, seat: int, orders: Sequence[str], *, quiet: bool = False) -> _Followed:
        """Ask the rules what the seat's orders do now, and check the move they make. An
        order the rules refuse (or a failure in the game's code) gives no move and no
        orders left: the game waits on the person."""
        game, state = ld.game, ld.state
        try:
            action, remaining = game.follow_orders(state, seat, list(orders))
            remaining = [o for o in remaining if isinstance(o, str)]
            if action is None:
                return _Followed(None, None, remaining)
            action = self._parse(game, action, state, seat)
            return _Followed(action, game.apply(state, seat, action), remaining)
        except IllegalAction as exc:
            if not quiet:
                log.warning("game %s: seat %s's standing orders %r were refused (%s); dropped",
                            ld.row.id, seat, list(orders), exc)
        except Exception:  # noqa: BLE001 - a game bug must not stall the game
            if not quiet:
                log.exception("game %s: following seat %s's standing orders %r failed; dropped",
                              ld.row.id, seat, list(orders))
        return _Followed(None, None, [])

    async def _order_movers(self, tx: Tx, ld: _Loaded, state: Any, waiting: list[int],
                            seats: list[SeatRow], *, tidy: bool = False) -> frozenset[int]:
        """The waited-on human seats whose standing orders will make a move in `state`. With
        `tidy` (the commit of that state) the orders of the others are brought up to date in
        the same transaction: one the rules refuse is gone before its owner is pinged."""
        if not offers_orders(ld.game):
            return frozenset()
        stored = await tx.standing_orders(ld.row.id)
        at = _Loaded(row=ld.row, seats=seats, game=ld.game, settings=ld.settings, options=ld.options, state=state)
        movers: set[int] = set()
        for seat in waiting:
            if seat not in stored or seat >= len(seats) or not seats[seat].user_id:
                continue
            followed = self._follow(at, seat, stored[seat], quiet=not tidy)
            if followed.action is not None:
                movers.add(seat)
            elif tidy and followed.remaining != stored[seat]:
                await tx.set_standing_orders(ld.row.id, seat, followed.remaining, self.clock())
        return frozenset(movers)

    @retries_conflicts
    async def step_order(self, game_id: int) -> Outcome | None:
        """If a waited-on person's standing orders move now, make that move (the lowest such
        seat) and return it; else None. Orders that no longer apply are tidied on the way."""
        for _ in range(_RETRIES):
            async with self.store.read() as tx:
                row = await tx.get_game(game_id)
                if row is None or row.status != "active":
                    return None
                seats = await tx.seats(game_id)
                stored = await tx.standing_orders(game_id)
            if not stored:
                return None
            ld = self._load(row, seats)
            changed: dict[int, list[str]] = {}
            mover: tuple[int, _Followed] | None = None
            for seat in sorted(ld.game.active_players(ld.state)):
                if seat not in stored or seat >= len(ld.seats) or not ld.seats[seat].user_id:
                    continue
                followed = self._follow(ld, seat, stored[seat])
                if followed.action is not None:
                    mover = (seat, followed)
                    break
                if followed.remaining != stored[seat]:
                    changed[seat] = followed.remaining
            now = self.clock()
            try:
                async with self.store.write() as tx:
                    if mover is None:
                        if changed:
                            await tx.require_version(game_id, row.version)
                            for seat, orders in changed.items():
                                await tx.set_standing_orders(game_id, seat, orders, now)
                        return None
                    seat, followed = mover
                    for other, orders in changed.items():
                        await tx.set_standing_orders(game_id, other, orders, now)
                    await tx.set_standing_orders(game_id, seat, followed.remaining, now)
                    return await self._commit(
                        tx, ld, followed.applied.state, kind="move", now=now, seat=seat,
                        notation=ld.game.format_action(followed.action),
                        events=[Event(key="session.order_move",
                                      params={"seat": seat, "move": _move_words(ld, seat, followed.action)}),
                                *followed.applied.events],
                        undoable=False, actor_user_id=None, auto="order",
                    )
            except StaleVersion:
                continue  # someone moved meanwhile: look again
        return None

    # ==================================================================================
    # automatic moves: bots, then standing orders
    # ==================================================================================
    async def step_automatic(self, game_id: int) -> Outcome | None:
        """One automatic move: a bot's if a bot is waited on, else a forced move, else a standing
        order's."""
        return await self.step_bot(game_id) or await self.step_forced(game_id) or await self.step_order(game_id)
