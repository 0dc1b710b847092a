"""Whole games played by a game's own bot, for tests that need real positions (a board late in
the game, a two-tile turn, a final result) rather than hand-built states.

Deterministic: the rules get `seed`, the bot draws from random.Random(seed), and when several
seats may act (simultaneous choices) the lowest seat moves first.

`count_waits` measures standing orders: how often a game waits on the seats played as
people, with and without the orders they would set.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Collection, NamedTuple, Sequence

from games.core import IllegalAction


class Step(NamedTuple):
    state: Any  # before the move
    seat: int
    action: Any
    after: Any  # the state the move left


def bot_steps(game: Any, players: int, seed: int, bot: str, options: dict | None = None) -> list[Step]:
    """Every move of a whole game played by `game.bots()[bot]` in every seat."""
    chooser = game.bots()[bot]
    rng = random.Random(seed)
    state = game.setup(players, options or {}, seed)
    steps: list[Step] = []
    while not game.is_over(state):
        seat = min(game.active_players(state))
        action = chooser.choose(game, state, seat, rng)
        after = game.apply(state, seat, action).state
        steps.append(Step(state, seat, action, after))
        state = after
    return steps


def bot_states(game: Any, players: int, seed: int, bot: str, options: dict | None = None) -> list[Any]:
    """The states of such a game, from the setup to the end."""
    steps = bot_steps(game, players, seed, bot, options)
    return [steps[0].state, *(s.after for s in steps)] if steps else [game.setup(players, options or {}, seed)]


class Waits(NamedTuple):
    """How a game went for the seats played as people (see `count_waits`)."""

    waits: int  # times the game stopped until one of them answered
    order_moves: int  # moves their standing orders made instead
    moves: int  # all moves of the game
    sittings: int = 0  # waits on a person who did not make the move just before (a new hand-off)
    forced_moves: int = 0  # moves the rules forced on them, made without asking (Game.forced_action)
    turns: int = 0  # the game's turns (its state's `turn` at the end, where it has one)

    @property
    def per_turn(self) -> float:
        """Waits a turn: orders that change how people play change the game's length too."""
        return self.waits / self.turns if self.turns else float(self.waits)


OrderPolicy = Callable[[Any, int], Sequence[str]]


def count_waits(game: Any, players: int, seed: int, people: Collection[int], bot: str,
                order_policy: OrderPolicy | None = None, options: dict | None = None,
                max_moves: int = 100_000) -> Waits:
    """Play a whole game with `game.bots()[bot]` choosing for every seat, and count how often
    it waited on the `people` seats, as the sessions service would run it.

    Other seats are bots and move at once. When only people are waited on, a move the rules
    force on one of them is made without asking (`forced_action`); then their standing
    orders go first (`follow_orders`; a move the rules refuse drops that seat's orders);
    when no order moves, the lowest waited-on person is asked — one wait — and answers with
    the bot's choice. Answering cancels the orders the game says a move of one's own cancels
    (`orders_after_own_move`: by default all); then, with `order_policy(state, seat)`, they
    add the orders it gives for the state their move left, keeping only those `order_choices`
    offers, as /orders would. Without a policy nobody has orders, so comparing the two counts
    measures what orders save."""
    chooser = game.bots()[bot]
    rng = random.Random(seed)
    state = game.setup(players, options or {}, seed)
    persons = set(people)
    orders: dict[int, list[str]] = {}
    waits = order_moves = moves = sittings = forced_moves = 0
    last_mover: int | None = None
    while not game.is_over(state) and moves < max_moves:
        active = sorted(game.active_players(state))
        bots = [s for s in active if s not in persons]
        if bots:
            state = game.apply(state, bots[0], chooser.choose(game, state, bots[0], rng)).state
            moves += 1
            last_mover = bots[0]
            continue
        forced = next(((s, a) for s in active if (a := game.forced_action(state, s)) is not None), None)
        if forced is not None:
            state = game.apply(state, forced[0], forced[1]).state
            forced_moves += 1
            moves += 1
            last_mover = forced[0]
            continue
        moved = False
        for seat in active:
            if not orders.get(seat):
                continue
            try:
                action, remaining = game.follow_orders(state, seat, list(orders[seat]))
                if action is None:
                    orders[seat] = list(remaining)
                    continue
                state = game.apply(state, seat, action).state
            except IllegalAction:
                orders[seat] = []
                continue
            orders[seat] = list(remaining)
            order_moves += 1
            moves += 1
            moved = True
            last_mover = seat
            break
        if moved:
            continue
        seat = active[0]
        waits += 1
        sittings += seat != last_mover
        last_mover = seat
        action = chooser.choose(game, state, seat, rng)
        kept = set(game.orders_after_own_move(state, seat, orders.get(seat, []), action)) if orders.get(seat) else set()
        orders[seat] = [o for o in orders.get(seat, []) if o in kept]
        state = game.apply(state, seat, action).state
        moves += 1
        if order_policy is not None and not game.is_over(state):
            offered = game.order_choices(state, seat)
            orders[seat] += [o for o in order_policy(state, seat) if o not in orders[seat] and offered.holds(o)]
    return Waits(waits=waits, order_moves=order_moves, moves=moves, sittings=sittings, forced_moves=forced_moves,
                 turns=int(getattr(state, "turn", 0) or 0))
