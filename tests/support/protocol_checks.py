"""Checks every game must pass, written once and called from each game's property tests."""
from __future__ import annotations

import random
import re
import sys
from contextlib import contextmanager
from typing import Any, Iterator

import games.core.rng
from games.core.events import Event


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
