"""The automatic moves: bots, forced moves and standing orders, one at a time until a person
is needed (`run_bots`), and the game's 'bots' timer dropped when nothing automatic is left."""
from __future__ import annotations

from bot.sessions.core import Core, bots_waited_on
from bot.sessions.models import Outcome
from bot.sessions.movers import Movers
from bot.sessions.moves import Moves
from bot.sessions.orders import Orders
from bot.store import retries_conflicts


class Automatic:
    """Moves the seats the game does not wait on a person for."""

    def __init__(self, core: Core, moves: Moves, orders: Orders, movers: Movers) -> None:
        self.core = core
        self.moves = moves
        self.orders = orders
        self.movers = movers

    async def step_automatic(self, game_id: int) -> Outcome | None:
        """One automatic move: a bot's if a bot is waited on, else a forced move, else a standing
        order's, else a bot's for a person away (where the host allows it)."""
        return (await self.moves.step_bot(game_id) or await self.moves.step_forced(game_id)
                or await self.orders.step_order(game_id) or await self.moves.step_away(game_id))

    async def run_bots(self, game_id: int, limit: int = 10_000) -> list[Outcome]:
        """Let bots and standing orders move until a person is needed, the game ends, or
        `limit` moves. Each move's commit keeps the game's 'bots' timer as it should be
        (`Commit.schedule_bots`); when nothing automatic is left to move, the timer goes."""
        outcomes: list[Outcome] = []
        while len(outcomes) < limit:
            outcome = await self.step_automatic(game_id)
            if outcome is None:
                await self._settle_bots(game_id)
                break
            outcomes.append(outcome)
        return outcomes

    @retries_conflicts
    async def _settle_bots(self, game_id: int) -> None:
        """Nothing automatic moved: drop the game's 'bots' timer, looking again in the same
        transaction. A change made since that has a bot or an order move next is left alone:
        it wrote its own timer, held by the process that made it, which moves them."""
        async with self.core.store.write() as tx:
            row = await tx.get_game(game_id)
            if row is not None and row.status == "active":
                ld = self.core.load(row, await tx.seats(game_id))
                waiting = sorted(ld.game.active_players(ld.state))
                if bots_waited_on(ld.seats, waiting) or await self.movers.automatic(tx, ld, ld.state, waiting,
                                                                                    ld.seats):
                    return
            await tx.delete_timers(game_id, "bots")
