"""Checks every game must pass, written once and called from each game's property tests."""
from __future__ import annotations

import random
from typing import Any

from games.core.events import Event


def walk_checking_round_trips(game: Any, seed: int, n: int, steps: int, options: Any = None) -> None:
    """Play up to `steps` random legal moves. At every step: each legal move survives its
    notation, `apply` leaves its input unchanged, and the state round-trips through JSON."""
    rng = random.Random(seed)
    state = game.setup(n, options, seed)
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = rng.choice(sorted(game.active_players(state)))
        legal = game.legal_actions(state, seat)
        for action in legal:
            assert game.parse_action(game.format_action(action)) == action
        action = rng.choice(legal)
        snapshot = state.model_dump_json()
        state = game.apply(state, seat, action).state
        assert game.load_state(snapshot).model_dump_json() == snapshot  # input unchanged, JSON round-trip
    # The stored JSON is the whole state: reloading it gives an equal state.
    assert game.load_state(game.dump_state(state)) == state


def check_decisions(game: Any, state: Any) -> None:
    """The menus every seat is offered (games/core/choices.py) say exactly what the rules
    allow: every legal move reachable once, nothing else; each path walks to its move; the
    options of a step are distinct; a seat that is not active is offered nothing."""
    active = game.active_players(state)
    for seat in range(state.n):
        decision = game.decision(state, seat)
        legal = sorted(game.format_action(a) for a in game.legal_actions(state, seat))
        offered = sorted(decision.all_notations())
        assert offered == legal, (seat, set(offered) ^ set(legal))
        if seat not in active:
            assert decision.empty
            continue
        checked: set[tuple[str, ...]] = set()  # choices share their first steps: check each once
        for choice in decision.choices:
            stop = decision.walk([p.value for p in choice.path])
            assert stop.move == choice.notation, (choice.notation, stop)
            for depth in range(1, len(choice.path)):
                prefix = tuple(p.value for p in choice.path[:depth])
                if prefix in checked:
                    continue
                checked.add(prefix)
                stop = decision.walk(list(prefix))
                values = [o.value for o in stop.options]
                assert len(values) == len(set(values))
                assert stop.move is not None or len(values) > 1, "a single option is taken without asking"
        first = [p.value for p in decision.first_step()]
        assert len(first) == len(set(first))


def walk_checking_decisions(game: Any, seed: int, n: int, steps: int, options: Any = None) -> None:
    """Play random legal moves, checking every seat's menu at every step, and that a menu
    with a key of its own (a simultaneous or private choice) is not changed by other seats'
    moves while its key stays the same."""
    rng = random.Random(seed)
    state = game.setup(n, options, seed)
    for _ in range(steps):
        if game.result(state) is not None:
            break
        check_decisions(game, state)
        before = {s: game.decision(state, s) for s in game.active_players(state)}
        seat = rng.choice(sorted(game.active_players(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        for other, old in before.items():
            if other == seat or old.key is None:
                continue
            new = game.decision(state, other)
            if new.key == old.key:
                assert sorted(new.all_notations()) == sorted(old.all_notations()), (other, old.key)


def catalog_keys(value: Any) -> set[str]:
    """Every catalog key in an event or a param, however deeply nested."""
    if isinstance(value, Event):
        return {value.key} | catalog_keys(value.params)
    if isinstance(value, dict):
        own = {value["key"]} if isinstance(value.get("key"), str) else set()
        return own | {k for v in value.values() for k in catalog_keys(v)}
    if isinstance(value, (list, tuple)):
        return {k for v in value for k in catalog_keys(v)}
    return set()
