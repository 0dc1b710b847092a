"""Checks every game must pass, written once and called from each game's property tests."""
from __future__ import annotations

import random
import re
import sys
from contextlib import contextmanager
from typing import Any, Iterator

import games.core.rng
from games.core.choices import Decision, Group, TooManyMoves
from games.core.errors import IllegalAction
from games.core.events import Event

GROUP_LISTED_AT_MOST = 2000  # a group with more picks is held to the rules by its edges and samples
GROUP_CHECKED = 24           # picks of a group not listed by legal_actions that the rules must accept


def walk_checking_round_trips(game: Any, seed: int, n: int, steps: int, options: Any = None) -> None:
    """Play up to `steps` random legal moves. At every step: each legal move survives its
    notation, `apply` leaves its input unchanged, the state round-trips through JSON; every
    SECRETS_EVERY steps and at the end, no view of any seat or of a spectator shows the seed or
    anything drawn from it (`Secrets`; walk_checking_secrets looks at every step)."""
    rng = random.Random(seed)
    with watching_randomness(seed) as secrets:
        state = game.setup(n, options, seed)
        for step in range(steps):
            if step % SECRETS_EVERY == 0:
                check_views_keep_secrets(game, state, secrets)
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
        check_views_keep_secrets(game, state, secrets)
    # The stored JSON is the whole state: reloading it gives an equal state.
    assert game.load_state(game.dump_state(state)) == state


# --- the seed and what is drawn from it never reach a view ------------------------------------
SECRETS_EVERY = 20  # views cost more than moves: the round-trip walk looks at every 20th position
SMALLEST_SECRET = 10**6  # a smaller number cannot be told from a count or a price in a view
_DECIMAL = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9a-f]+")


class Secrets:
    """The numbers a view must never show: the game's seed, every number games.core.rng.derive
    made from it (the seeds of each shuffle, roll and layout, however salted) and the first words
    of the generator each of those seeds (its state), in decimal and in hex. Numbers below
    SMALLEST_SECRET are left out: a walk with a small seed checks the numbers drawn from it."""

    def __init__(self) -> None:
        self.decimal: dict[str, str] = {}
        self.hex: dict[str, str] = {}

    def add(self, value: int, what: str) -> None:
        if value < SMALLEST_SECRET:
            return
        self.decimal.setdefault(str(value), what)
        if value >= 1 << 32:  # shorter hex runs are everyday words ("face", "added")
            self.hex.setdefault(format(value, "x"), what)
            self.hex.setdefault(format(value, "016x"), what)

    def add_drawn(self, value: int, what: str) -> None:
        self.add(value, what)
        for i, word in enumerate(random.Random(value).getstate()[1][1:4], 1):
            self.add(word, f"word {i} of the generator seeded by {what}")

    def found_in(self, text: str) -> list[str]:
        text = text.lower()
        return sorted({self.decimal[r] for r in _DECIMAL.findall(text) if r in self.decimal}
                      | {self.hex[r] for r in _HEX.findall(text) if r in self.hex})


@contextmanager
def watching_randomness(seed: int) -> Iterator[Secrets]:
    """Secrets of a game set up with `seed`, growing with every number derived while inside.
    Every module that holds games.core.rng.derive under its own name is watched too."""
    secrets = Secrets()
    secrets.add(seed, "the seed")
    original = games.core.rng.derive

    def derive(seed: int, counter: int, salt: str = "") -> int:
        value = original(seed, counter, salt)
        secrets.add_drawn(value, f"derive({seed}, {counter}, {salt!r})")
        return value

    holders = [m for m in list(sys.modules.values()) if m is not None and vars(m).get("derive") is original]
    for module in holders:
        module.derive = derive
    try:
        yield secrets
    finally:
        for module in holders:
            module.derive = original


def check_views_keep_secrets(game: Any, state: Any, secrets: Secrets) -> None:
    """No view (every seat's and a spectator's) shows a secret, in any field or text."""
    for seat in [None, *range(state.n)]:
        found = secrets.found_in(game.view(state, seat).model_dump_json())
        assert not found, f"{game.name}: the view of seat {seat} shows {found}"


def check_decisions(game: Any, state: Any) -> None:
    """The menus every seat is offered (games/core/choices.py) say exactly what the rules
    allow: every legal move reachable once, nothing else; each path walks to its move; the
    options of a step are distinct; a seat that is not active is offered nothing; the menu's
    head (Game.menu_head) shows the same first step.

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
        # the public post's buttons, from the menu's head (Game.menu_head): the same first step
        head = game.menu_head(state, seat)
        assert head.first_step() == decision.first_step()
        assert (head.key, head.secret, head.prompt, head.groups, head.amounts) == \
            (decision.key, decision.secret, decision.prompt, decision.groups, decision.amounts)
        assert {c.notation for c in head.choices} <= {c.notation for c in decision.choices}
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


def walk_checking_secrets(game: Any, seed: int, n: int, options: Any = None, bot: str | None = None,
                          max_steps: int = 5000) -> int:
    """A whole game played by the game's bot `bot` (its first one by default), every view of every
    seat and of a spectator checked at every step, the last position included; the moves made."""
    chooser = game.bots()[bot or next(iter(game.bots()))]
    rng = random.Random(seed)
    steps = 0
    with watching_randomness(seed) as secrets:
        state = game.setup(n, options, seed)
        while game.result(state) is None:
            assert steps < max_steps, f"{game.name}: no end after {max_steps} moves"
            check_views_keep_secrets(game, state, secrets)
            seat = min(game.active_players(state))
            state = game.apply(state, seat, chooser.choose(game, state, seat, rng)).state
            steps += 1
        check_views_keep_secrets(game, state, secrets)
    return steps
