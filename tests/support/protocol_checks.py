"""Checks every game must pass, written once and called from each game's property tests."""
from __future__ import annotations

import random
from typing import Any

from games.core.choices import Decision, Group, TooManyMoves
from games.core.errors import IllegalAction
from games.core.events import Event

GROUP_LISTED_AT_MOST = 2000  # a group with more picks is held to the rules by its edges and samples
GROUP_CHECKED = 24           # picks of a group not listed by legal_actions that the rules must accept


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
    options of a step are distinct; a seat that is not active is offered nothing.

    A group may hold more moves than `legal_actions` lists (any offer a big hand can make):
    the moves it shares with `legal_actions` are reached through it alone, and the rest are
    held to the rules (`apply`) without listing a group blindly — every pick of a small group,
    a sample of a big one, its picks at each bound accepted and those just beyond refused."""
    active = game.active_players(state)
    for seat in range(state.n):
        decision = game.decision(state, seat)
        legal = sorted(game.format_action(a) for a in game.legal_actions(state, seat))
        in_groups = {n: [g for g in decision.groups if g.counts_of(n) is not None] for n in legal}
        assert all(len(held) <= 1 for held in in_groups.values()), "a move is reached through two groups"
        listed = sorted([c.notation for c in decision.choices] +
                        [n for a in decision.amounts for n in a.all_notations()])
        assert listed == sorted(n for n in legal if not in_groups[n]), (seat, set(listed) ^ set(legal))
        for choice in decision.choices:
            assert not any(g.counts_of(choice.notation) is not None for g in decision.groups), choice.notation
        for group in decision.groups:
            check_group(game, state, seat, group, set(legal))
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
        for n, group in enumerate(decision.groups):
            if group.entry is not None:
                assert decision.walk([group.entry.value]).group == n


def check_group(game: Any, state: Any, seat: int, group: Group, legal: set[str], seed: int = 0) -> None:
    """One group against the rules: every pick it lists is a legal move (those `legal_actions`
    does not list are played, and must be accepted), and at each bound the group is as wide as
    the rules: its picks there are accepted, the picks just beyond refused."""
    rng = random.Random(seed)
    try:
        picks = group.all_notations(GROUP_LISTED_AT_MOST)
    except TooManyMoves:
        drawn = [group.sample(rng) for _ in range(GROUP_CHECKED)]
        assert all(d is not None for d in drawn), "a big group from which no pick can be drawn"
        picks = [group.write(d) for d in drawn if d is not None]
    inside, outside = group.edges()
    unlisted = [n for n in picks if n not in legal]
    if len(unlisted) > GROUP_CHECKED:
        unlisted = rng.sample(unlisted, GROUP_CHECKED)
    for notation in dict.fromkeys(unlisted + [group.write(c) for c in inside]):
        assert group.counts_of(notation) is not None, notation
        if notation not in legal:
            game.apply(state, seat, game.parse_action(notation))  # raises if the rules refuse it
    for counts in outside:
        notation = group.write(counts)
        assert notation not in legal, notation
        try:
            game.apply(state, seat, game.parse_action(notation))
        except IllegalAction:
            continue
        raise AssertionError(f"the rules allow {notation!r}, beyond the menu's bounds")


def moves_of(decision: Decision) -> tuple:
    """What a decision lets a seat do, without listing its groups: the choices' and amounts'
    moves and each group's shape (items, how often each, sides, template)."""
    groups = sorted(repr((g.template, g.sep, g.counted, g.exclusive, g.min, g.max, [i.value for i in g.items],
                          g.limits(), [(p.size, p.min, p.max) for p, _, _ in g.sides()])) for g in decision.groups)
    return (sorted(c.notation for c in decision.choices),
            sorted(n for a in decision.amounts for n in a.all_notations()), groups)


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
                assert moves_of(new) == moves_of(old), (other, old.key)


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
