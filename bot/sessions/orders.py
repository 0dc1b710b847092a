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
  transaction (Moves in bot/sessions/moves.py; `Outcome.orders_cancelled` says whether any
  went, `Outcome.orders_kept` how many stand).
* After every committed change the commit asks `Movers.order_movers` (bot/sessions/movers.py)
  which waited-on seats their orders will move: those are not pinged, and `bots_next` asks
  the caller to `run_bots`, which covers orders too (`step_order`: one order move, announced
  with the event `session.order_move` and logged with auto="order", the orders still standing
  written in the same transaction). Like a bot's move, such a move is due work with a 'bots'
  timer (`Commit.schedule_bots`), written by the change that makes it due (a commit, or an
  order set on one's own turn), so any live process makes it if the one that should dies first.
* An order the rules refuse (or a game bug while following it) drops that seat's whole list:
  the game then waits on the person as if they had set none. Nothing stalls or crashes.
"""
from __future__ import annotations

from typing import Any, Sequence

from bot.sessions.commit import Commit
from bot.sessions.core import RETRIES, Core, Loaded, move_words, not_running
from bot.sessions.errors import SessionError
from bot.sessions.models import Actor, OrdersInfo, Outcome, StandingOrder
from bot.sessions.movers import Movers, offers_orders
from bot.store import StaleVersion, retries_conflicts
from games.core import Event, Game, IllegalAction

MAX_ORDERS = 20  # per seat: plenty for any plan, and a bound on what one player can store


class Orders:
    """A player's own list of standing orders, and the moves the lists make."""

    def __init__(self, core: Core, commit: Commit, movers: Movers) -> None:
        self.core = core
        self.commit = commit
        self.movers = movers

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
        for _ in range(RETRIES):
            ld, seat, _stored = await self._orders_read(channel_id, actor)
            self._check_new_order(ld, seat, order)
            try:
                async with self.core.store.write() as tx:
                    # the order was checked against this version of the game
                    await tx.require_version(ld.row.id, ld.row.version)
                    current = (await tx.standing_orders(ld.row.id)).get(seat, [])
                    orders = current if order in current else [*current, order]
                    if len(orders) > MAX_ORDERS:
                        raise SessionError("too_many_orders", max=MAX_ORDERS)
                    await tx.set_standing_orders(ld.row.id, seat, orders, self.core.clock())
                    moves_now = seat in ld.game.active_players(ld.state) and \
                        self.movers.follow(ld, seat, orders, quiet=True).action is not None
                    if moves_now:  # the order's move is due, as a bot's would be
                        await self.commit.schedule_bots(tx, ld.row.id, True, self.core.clock())
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
        async with self.core.store.write() as tx:
            current = (await tx.standing_orders(ld.row.id)).get(seat, [])
            if order not in current:
                raise SessionError("no_such_order", order=order[:80])
            current.remove(order)
            await tx.set_standing_orders(ld.row.id, seat, current, self.core.clock())
        return self._orders_info(ld, seat, current)

    @retries_conflicts
    async def clear_orders(self, channel_id: str, actor: Actor) -> OrdersInfo:
        """Withdraw all of the actor's standing orders."""
        ld, seat, _stored = await self._orders_read(channel_id, actor)
        async with self.core.store.write() as tx:
            await tx.clear_standing_orders(ld.row.id, seat)
        return self._orders_info(ld, seat, [])

    async def _orders_read(self, channel_id: str, actor: Actor) -> tuple[Loaded, int, list[str]]:
        """The channel's running game, the actor's seat in it and their orders (one read)."""
        async with self.core.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.latest_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(row.id)
            stored = await tx.standing_orders(row.id)
        if row.status != "active":
            raise not_running(row)
        ld = self.core.load(row, seats)
        seat = ld.seat_of(actor.user_id)
        if seat is None:
            raise SessionError("not_in_game")
        if not offers_orders(ld.game):
            raise SessionError("orders_unsupported")
        return ld, seat, stored.get(seat, [])

    def _check_new_order(self, ld: Loaded, seat: int, order: str) -> None:
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

    def _orders_info(self, ld: Loaded, seat: int, orders: Sequence[str]) -> OrdersInfo:
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

    @retries_conflicts
    async def step_order(self, game_id: int) -> Outcome | None:
        """If a waited-on person's standing orders move now, make that move (the lowest such
        seat) and return it; else None. Orders that no longer apply are tidied on the way."""
        for _ in range(RETRIES):
            async with self.core.store.read() as tx:
                row = await tx.get_game(game_id)
                if row is None or row.status != "active":
                    return None
                seats = await tx.seats(game_id)
                stored = await tx.standing_orders(game_id)
            if not stored:
                return None
            ld = self.core.load(row, seats)
            changed: dict[int, list[str]] = {}
            mover: tuple[int, Followed] | None = None
            for seat in sorted(ld.game.active_players(ld.state)):
                if seat not in stored or seat >= len(ld.seats) or not ld.seats[seat].user_id:
                    continue
                followed = self.movers.follow(ld, seat, stored[seat])
                if followed.action is not None:
                    mover = (seat, followed)
                    break
                if followed.remaining != stored[seat]:
                    changed[seat] = followed.remaining
            now = self.core.clock()
            try:
                async with self.core.store.write() as tx:
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
                    return await self.commit.commit(
                        tx, ld, followed.applied.state, kind="move", now=now, seat=seat,
                        notation=ld.game.format_action(followed.action),
                        events=[Event(key="session.order_move",
                                      params={"seat": seat, "move": move_words(ld, seat, followed.action)}),
                                *followed.applied.events],
                        undoable=False, actor_user_id=None, auto="order",
                    )
            except StaleVersion:
                continue  # someone moved meanwhile: look again
        return None
