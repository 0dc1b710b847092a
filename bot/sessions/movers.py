"""Who moves without being asked: a seat whose move the rules force (Game.forced_action), or
whose standing orders move now (bot/sessions/orders.py keeps the lists).

The commit asks this after every change, so that such a seat is not pinged and its move is
due work (`run_bots` makes it); the automatic moves, the reminders, the deadlines and the
lapses ask it too. Following a seat's orders is asking the rules what they do now
(`Game.follow_orders`) and checking the move they make: an order the rules refuse (or a game
bug while following it) gives no move and drops that seat's whole list, so the game waits on
the person as if they had set none. Nothing stalls or crashes.
"""
from __future__ import annotations

from typing import Any, Sequence

from bot.sessions.core import Core, Loaded, forced_moves, log
from bot.sessions.hours import away
from bot.store import SeatRow, Tx
from games.core import ApplyResult, Game, IllegalAction


def offers_orders(game: Game) -> bool:
    """Whether the game has standing orders at all (it overrides the protocol's default
    menu, which offers none)."""
    return type(game).order_choices is not Game.order_choices


class Followed:
    """What following a seat's orders gives now: the move (with the rules' result) or None,
    and the orders still standing afterwards."""

    __slots__ = ("action", "applied", "remaining")

    def __init__(self, action: Any, applied: ApplyResult | None, remaining: list[str]) -> None:
        self.action, self.applied, self.remaining = action, applied, remaining


class Movers:
    """The seats that move without being asked, and the moves their orders make."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def follow(self, ld: Loaded, seat: int, orders: Sequence[str], *, quiet: bool = False) -> Followed:
        """Ask the rules what the seat's orders do now, and check the move they make. An
        order the rules refuse (or a failure in the game's code) gives no move and no
        orders left: the game waits on the person."""
        game, state = ld.game, ld.state
        try:
            action, remaining = game.follow_orders(state, seat, list(orders))
            remaining = [o for o in remaining if isinstance(o, str)]
            if action is None:
                return Followed(None, None, remaining)
            action = self.core.parse(game, action, state, seat)
            return Followed(action, game.apply(state, seat, action), remaining)
        except IllegalAction as exc:
            if not quiet:
                log.warning("game %s: seat %s's standing orders %r were refused (%s); dropped",
                            ld.row.id, seat, list(orders), exc)
        except Exception:  # noqa: BLE001 - a game bug must not stall the game
            if not quiet:
                log.exception("game %s: following seat %s's standing orders %r failed; dropped",
                              ld.row.id, seat, list(orders))
        return Followed(None, None, [])

    async def automatic(self, tx: Tx, ld: Loaded, state: Any, waiting: list[int],
                        seats: list[SeatRow], *, tidy: bool = False) -> frozenset[int]:
        """The waited-on people's seats that move without being asked (`run_bots` makes their
        moves; nobody is pinged for them): a move the rules force (Game.forced_action), else
        their standing orders (`order_movers`; `tidy` as there)."""
        forced = forced_moves(ld.game, state, waiting, seats)
        rest = [s for s in waiting if s not in forced]
        ordered = await self.order_movers(tx, ld, state, rest, seats, tidy=tidy) if rest else frozenset()
        rest = [s for s in rest if s not in ordered]
        return frozenset(forced) | ordered | (await self.away_movers(tx, ld, rest, seats) if rest else frozenset())

    async def away_movers(self, tx: Tx, ld: Loaded, waiting: list[int], seats: list[SeatRow]) -> frozenset[int]:
        """The waited-on seats of people away (/away) whom a bot plays for, where the game's
        host allows it (settings.away_bot) and the game has a bot; else the game waits."""
        if not ld.settings.away_bot or not self.core.bot_names(ld.game):
            return frozenset()
        people = {s: str(seats[s].user_id) for s in waiting if s < len(seats) and seats[s].user_id}
        if not people:
            return frozenset()
        prefs = await tx.prefs_for(people.values())
        now = self.core.clock()
        return frozenset(s for s, u in people.items() if away(prefs[u], now))

    async def order_movers(self, tx: Tx, ld: Loaded, state: Any, waiting: list[int],
                           seats: list[SeatRow], *, tidy: bool = False) -> frozenset[int]:
        """The waited-on human seats whose standing orders will make a move in `state`. With
        `tidy` (the commit of that state) the orders of the others are brought up to date in
        the same transaction: one the rules refuse is gone before its owner is pinged."""
        if not offers_orders(ld.game):
            return frozenset()
        stored = await tx.standing_orders(ld.row.id)
        at = Loaded(row=ld.row, seats=seats, game=ld.game, settings=ld.settings, options=ld.options, state=state)
        movers: set[int] = set()
        for seat in waiting:
            if seat not in stored or seat >= len(seats) or not seats[seat].user_id:
                continue
            followed = self.follow(at, seat, stored[seat], quiet=not tidy)
            if followed.action is not None:
                movers.add(seat)
            elif tidy and followed.remaining != stored[seat]:
                await tx.set_standing_orders(ld.row.id, seat, followed.remaining, self.core.clock())
        return frozenset(movers)
