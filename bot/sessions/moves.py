"""Moves: a person's click or move, the bots' and forced moves, undo within the rules of
fairness, replay."""
from __future__ import annotations

import random
from typing import Any

from bot.sessions.commit import Commit
from bot.sessions.core import (
    RETRIES, Core, Loaded, corrupt, forced_moves, log, move_words, not_running, public_notation,
)
from bot.sessions.errors import SessionError
from bot.sessions.looking import seat_view
from bot.sessions.models import Actor, ClickResult, MenuWalk, Outcome
from bot.sessions.movers import Movers
from bot.store import ActionRow, StaleVersion, retries_conflicts
from games.core import Event, IllegalAction
from games.replay import GameRecord, scores
from games.core.rng import derive


class Moves:
    """A person's move, the bots' and forced moves, undo, and the game's record."""

    def __init__(self, core: Core, commit: Commit, movers: Movers) -> None:
        self.core = core
        self.commit = commit
        self.movers = movers

    # ==================================================================================
    # moves
    # ==================================================================================
    @retries_conflicts
    async def click(
        self,
        channel_id: str,
        actor: Actor,
        *,
        game_id: int | None = None,
        menu: MenuWalk | None = None,
        move: Any = None,
        expected_version: int | None = None,
        show_after: bool = True,
    ) -> ClickResult:
        """One interaction of a player with the channel's game, in one read of the game and at
        most one write: a pick in their menu (`menu` reads it against the menu as it is now),
        a move given by its notation (`move`: typed, or a number asked for), or neither (their
        view, to show their hand).

        `game_id`: the game the clicked component was drawn for; when the channel's open game
        is another one (or none), the click belongs to a game that is over: no_game_here.
        With `expected_version` (a component that carries the version it was drawn for) a
        changed board gives stale_version, as does a race lost at the commit by a move the
        menu made `bound`; otherwise a lost race is tried again on the new board, with the
        same move. The move is committed with the changes it causes (standing orders it
        cancels, state, log, timers, outbox) in one transaction guarded by the version read;
        `show_after` adds the clicker's next view, from the state committed."""
        attempt, notation, bound, walked = 0, move, expected_version is not None, None
        while True:
            ld, _ = await self.core.read_channel(channel_id)
            if game_id is not None and ld.row.id != game_id:
                raise SessionError("no_game_here")
            if ld.row.status != "active":
                raise not_running(ld.row)
            seat = ld.seat_of(actor.user_id)
            if seat is None:
                raise SessionError("not_in_game")
            if notation is None:
                walked = seat_view(ld, seat, legal=False)
                picked = menu(walked) if menu is not None else None
                if picked is None:
                    return ClickResult(view=walked)
                # a race lost below is tried again with this move, which the rules check again
                notation, bound = picked.notation, picked.bound
            if expected_version is not None and expected_version != ld.row.version:
                raise SessionError("stale_version", version=ld.row.version)
            try:
                outcome, state = await self._move(ld, seat, actor, notation)
            except StaleVersion as exc:
                attempt += 1
                if bound or attempt >= RETRIES:
                    raise SessionError("stale_version", version=exc.current) from None
                continue
            after = None
            if show_after and outcome.status == "active" and seat in outcome.waiting:
                row = ld.row.model_copy(update={"version": outcome.version, "status": outcome.status})
                moved = Loaded(row=row, seats=ld.seats, game=ld.game, settings=ld.settings, options=ld.options,
                               state=state)
                after = seat_view(moved, seat, legal=False)
            return ClickResult(view=walked, outcome=outcome, after=after)

    async def act(
        self,
        channel_id: str,
        actor: Actor,
        notation_or_action: Any,
        expected_version: int | None = None,
    ) -> Outcome:
        """Play one action for the actor's seat (`click` with a move, for callers that show
        nothing after it: the CLI, the bench, bots acting for a person)."""
        if notation_or_action is None:
            raise IllegalAction("unparsable", text=str(notation_or_action))
        result = await self.click(channel_id, actor, move=notation_or_action, expected_version=expected_version,
                                  show_after=False)
        assert result.outcome is not None
        return result.outcome

    async def _move(self, ld: Loaded, seat: int, actor: Actor, notation_or_action: Any) -> tuple[Outcome, Any]:
        """Apply the seat's move to the loaded game and commit it (StaleVersion if the game
        moved on since it was read): the outcome and the state it committed."""
        game, state = ld.game, ld.state
        active = game.active_players(state)
        if seat not in active:
            raise IllegalAction("not_active", waiting=sorted(active))
        action = self.core.parse(game, notation_or_action, state, seat)
        applied = game.apply(state, seat, action)
        notation = game.format_action(action)
        now = self.core.clock()
        async with self.core.store.write() as tx:
            # a move of one's own cancels the orders the game says it replaces
            orders = (await tx.standing_orders(ld.row.id)).get(seat, [])
            kept = self._orders_kept(ld, seat, orders, action) if orders else []
            if kept != orders:
                await tx.set_standing_orders(ld.row.id, seat, kept, now)
            outcome = await self.commit.commit(
                tx, ld, applied.state, kind="move", now=now, seat=seat, notation=notation,
                events=applied.events, undoable=applied.undoable,
                actor_user_id=actor.user_id,
            )
        outcome.orders_cancelled = len(kept) < len(orders)
        outcome.orders_kept = len(kept)
        return outcome, applied.state

    @staticmethod
    def _orders_kept(ld: Loaded, seat: int, orders: list[str], action: Any) -> list[str]:
        """The seat's standing orders that stand after its own `action` (Game.orders_after_own_move):
        only orders it had, in their order. A failure in the game's code cancels them all, as a
        move of one's own did before games could keep any."""
        try:
            kept = set(ld.game.orders_after_own_move(ld.state, seat, list(orders), action))
        except Exception:  # noqa: BLE001 - a game bug must not refuse the player's move
            log.exception("game %s: orders_after_own_move failed for seat %s; its orders are cancelled",
                          ld.row.id, seat)
            return []
        return [o for o in orders if o in kept]

    @retries_conflicts
    async def step_bot(self, game_id: int) -> Outcome | None:
        """If a bot seat is active, let it move (the lowest such seat); else None."""
        for _ in range(RETRIES):
            ld, _ = await self.core.read_id(game_id)
            if ld.row.status != "active":
                return None
            active = ld.game.active_players(ld.state)
            bot_seats = [s for s in sorted(active) if s < len(ld.seats) and ld.seats[s].bot]
            if not bot_seats:
                return None
            seat = bot_seats[0]
            action, applied = self.bot_move(ld, seat, ld.seats[seat].bot, salt="bot")
            now = self.core.clock()
            try:
                async with self.core.store.write() as tx:
                    return await self.commit.commit(
                        tx, ld, applied.state, kind="move", now=now, seat=seat,
                        notation=ld.game.format_action(action), events=applied.events,
                        undoable=applied.undoable, actor_user_id=None, auto="bot",
                    )
            except StaleVersion:
                continue  # someone else moved: look again
        return None

    def bot_move(self, ld: Loaded, seat: int, bot_name: str | None, salt: str) -> tuple[Any, Any]:
        """A bot's choice for `seat`, falling back to the game's timeout action if the bot
        picks something the rules refuse (a bot bug must not stall the game)."""
        game, state, row = ld.game, ld.state, ld.row
        bot = self.core.bot(ld, bot_name)
        rng = random.Random(derive(row.seed, row.version, f"{salt}:{seat}"))
        try:
            action = bot.choose(game, state, seat, rng)
            return action, game.apply(state, seat, action)
        except IllegalAction as exc:
            log.warning("game %s: bot %s chose an illegal action (%s); using the timeout action",
                        row.id, bot_name, exc)
            action = game.timeout_action(state, seat)
            return action, game.apply(state, seat, action)

    @retries_conflicts
    async def step_away(self, game_id: int) -> Outcome | None:
        """If the game waits on a person who is away and its host lets a bot play for the away
        (settings.away_bot), the game's first bot makes their move (the lowest such seat),
        announced with `session.away_move` and logged with auto="away"; else None."""
        for _ in range(RETRIES):
            ld, _ = await self.core.read_id(game_id)
            if ld.row.status != "active":
                return None
            waiting = sorted(ld.game.active_players(ld.state))
            async with self.core.store.read() as tx:
                away = sorted(await self.movers.away_movers(tx, ld, waiting, ld.seats))
            if not away:
                return None
            seat = away[0]
            bot_names = self.core.bot_names(ld.game)
            action, applied = self.bot_move(ld, seat, bot_names[0] if bot_names else None, salt="away")
            try:
                return await self._commit_announced(ld, seat, action, applied, "session.away_move", "away")
            except StaleVersion:
                continue  # someone moved meanwhile: look again
        return None

    @retries_conflicts
    async def step_forced(self, game_id: int) -> Outcome | None:
        """If a waited-on person's move is forced (Game.forced_action), make it (the lowest such
        seat), announced with `session.forced_move` and logged with auto="forced"; else None."""
        for _ in range(RETRIES):
            ld, _ = await self.core.read_id(game_id)
            if ld.row.status != "active":
                return None
            forced = forced_moves(ld.game, ld.state, sorted(ld.game.active_players(ld.state)), ld.seats)
            if not forced:
                return None
            seat, action = next(iter(forced.items()))
            applied = ld.game.apply(ld.state, seat, action)
            try:
                return await self._commit_announced(ld, seat, action, applied, "session.forced_move", "forced")
            except StaleVersion:
                continue  # someone moved meanwhile: look again
        return None

    async def _commit_announced(self, ld: Loaded, seat: int, action: Any, applied: Any, key: str,
                                auto: str) -> Outcome:
        """Commit a move made for a person without asking them, its line (`key`: who and what)
        first among its events, logged with `auto`; StaleVersion if the game moved meanwhile."""
        event = Event(key=key, params={"seat": seat, "move": move_words(ld, seat, action)})
        async with self.core.store.write() as tx:
            return await self.commit.commit(
                tx, ld, applied.state, kind="move", now=self.core.clock(), seat=seat,
                notation=ld.game.format_action(action), events=[event, *applied.events],
                undoable=False, actor_user_id=None, auto=auto,
            )

    # ==================================================================================
    # undo and replay
    # ==================================================================================
    def in_force(self, ld: Loaded, actions: list[ActionRow]) -> list[ActionRow]:
        """The moves of the log still in force, in order (what a replay steps through)."""
        return self._effective(ld, actions)

    @staticmethod
    def _effective(ld: Loaded, actions: list[ActionRow]) -> list[ActionRow]:
        """The moves still in force: every undo takes back the move it names, which must be
        the last one in force."""
        stack: list[ActionRow] = []
        for a in actions:
            if a.kind == "move":
                stack.append(a)
            elif stack and a.undoes_seq == stack[-1].seq:
                stack.pop()
            else:
                raise corrupt(ld.row, f"undo #{a.seq} does not take back the last move")
        return stack

    def _replay(self, ld: Loaded, moves: list[ActionRow]) -> Any:
        game = ld.game
        try:
            state = game.setup(len(ld.seats), ld.options, ld.row.seed)
            for move in moves:
                state = game.apply(state, move.seat, game.parse_action(move.notation)).state
        except Exception as exc:  # noqa: BLE001 - any failure means the log is unusable
            raise corrupt(ld.row, "the action log does not replay", exc) from None
        return state

    @retries_conflicts
    async def undo(self, channel_id: str, actor: Actor) -> Outcome:
        """Take back the actor's own last move, if nothing happened since and it revealed
        nothing hidden. The state is rebuilt from the seed and the remaining log."""
        ld, actions = await self.core.read_channel(channel_id, with_actions=True)
        if ld.row.status != "active":
            raise not_running(ld.row)
        seat = ld.seat_of(actor.user_id)
        if seat is None:
            raise SessionError("not_in_game")
        moves = self._effective(ld, actions)
        if not moves:
            raise SessionError("nothing_to_undo")
        last = moves[-1]
        if last.seat != seat or last.actor_user_id != actor.user_id:
            if last.seat == seat:  # a bot or the deadline moved for this seat
                raise SessionError("undo_not_allowed", reason="not_your_action")
            # Once the game waits on this player again, their earlier moves belong to past
            # turns: they have not moved yet in this one, and that is what to tell them.
            waited_on = seat in ld.game.active_players(ld.state)
            if not waited_on and any(m.actor_user_id == actor.user_id for m in moves):
                raise SessionError("undo_not_allowed", reason="someone_moved_since")
            raise SessionError("nothing_of_yours_to_undo")
        if not last.undoable:
            raise SessionError("undo_not_allowed", reason="hidden_info_revealed")
        state = self._replay(ld, moves[:-1])
        now = self.core.clock()
        words = public_notation(ld.game, last.notation)
        events = [Event(key="session.undone", params={"seat": seat, "notation": words})]
        try:
            async with self.core.store.write() as tx:
                return await self.commit.commit(
                    tx, ld, state, kind="undo", now=now, seat=seat, notation=last.notation,
                    events=events, undoable=False, actor_user_id=actor.user_id,
                    undoes_seq=last.seq,
                )
        except StaleVersion as exc:
            raise SessionError("stale_version", version=exc.current) from None

    async def current_state(self, game_id: int) -> Any:
        """The stored snapshot as a state (for a bot or tool acting on a person's behalf)."""
        ld, _ = await self.core.read_id(game_id)
        if ld.state is None:
            raise SessionError("not_active_game")
        return ld.state

    async def rebuild(self, game_id: int) -> Any:
        """The state replayed from the seed and the moves in force (not the snapshot)."""
        ld, actions = await self.core.read_id(game_id, with_actions=True)
        if ld.state is None:
            raise SessionError("not_active_game")
        return self._replay(ld, self._effective(ld, actions))

    async def record(self, game_id: int) -> GameRecord:
        """The game as a replayable record (games/replay.py): its seed, options, seat
        count and the moves in force, undone ones left out (a timelapse is drawn from it)."""
        ld, actions = await self.core.read_id(game_id, with_actions=True)
        if ld.state is None:
            raise SessionError("not_active_game")
        moves = self._effective(ld, actions)
        return GameRecord(game=ld.row.game, players=len(ld.seats), options=dict(ld.options),
                          seed=ld.row.seed, moves=[(m.seat, m.notation) for m in moves])

    async def export(self, channel_id: str, actor: Actor) -> tuple[int, GameRecord]:
        """The channel's last game as a record a player may keep and replay (`railyard
        replay`): its id and record, with the seats' names and, if it was played out, the
        result. Only once the game is over: the seed and the moves of a running game would
        tell a player the deck's order and the others' hands."""
        ld, actions = await self.core.read_channel(channel_id, include_closed=True, with_actions=True)
        if ld.row.status in ("lobby", "active"):
            raise SessionError("export_not_over")
        if ld.state is None:  # a lobby closed before it started: there are no moves
            raise not_running(ld.row)
        if ld.seat_of(actor.user_id) is None:
            raise SessionError("export_not_player")
        record = GameRecord(game=ld.row.game, players=len(ld.seats), options=dict(ld.options), seed=ld.row.seed,
                            moves=[(m.seat, m.notation) for m in self._effective(ld, actions)], names=ld.names)
        result = ld.game.result(ld.state)
        if result is not None:
            record.result = scores(result)
        return ld.row.id, record
