"""Seeded random games of Catan Express, Ticket to Ride, Santa Fe and Galactic Railway give
the same states, events, legal moves (in order) and refusals as the recorded run.

Each game is played by a seeded random player that picks a kind of move first, then a move
of that kind (so offers, hundreds to a menu, do not drown every other move). At every step
the digest takes in the seat to move, its legal moves in order, the code and parameters of
the refusals of a few moves that are not on its menu (moves legal at some earlier step, and
any move by a seat not waited on), the move made, the events, whether it may be undone, and
the new state's JSON. A running digest is written down every CHECKPOINT steps and at the
end, so a difference is found within a stretch of the game.

tests/fixtures/rules_golden.json was made once by running this file with RAILYARD_GOLDEN=write
on the rules as they were before they were reshaped into games/core/referee.py's scaffolding;
it is never rewritten to make a change pass (a change of behaviour is a bug here). It was
rewritten once, for a rules fix: Year of Plenty refused outside a card's time (CE-B3), checked
first to change nothing but the refusals of Year of Plenty moves; and once when every game's
message keys took the game's name as their prefix, checked first to be the old digests with
the old prefixes ("ce.", "gt.", "sf.", "ttr.") read as the new ones.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.core.errors import IllegalAction

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "rules_golden.json"
CHECKPOINT = 100
MAX_STEPS = 1500  # a random game of Catan Express can wander; the digest covers what was played
ATTEMPTS = 3  # refused moves tried at every step

GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("catan_express", 3, {"map": "main", "layout": "beginner"}, 1),
    ("catan_express", 4, {"map": "main", "layout": "random"}, 2),
    ("catan_express", 4, {"map": "islands", "layout": "beginner"}, 3),
    ("catan_express", 5, {"map": "islands", "layout": "random"}, 4),
    ("catan_express", 6, {"map": "main", "layout": "random"}, 5),
    ("catan_express", 6, {"map": "islands", "layout": "random", "transfer_stop": False}, 6),
    ("ticket_to_ride", 2, {}, 1),
    ("ticket_to_ride", 3, {}, 2),
    ("ticket_to_ride", 5, {}, 3),
    ("santa_fe", 3, {}, 1),
    ("santa_fe", 4, {"advanced": True}, 2),
    ("santa_fe", 5, {"buy_track": True}, 3),
    ("santa_fe", 2, {"advanced": True, "buy_track": True}, 4),
    ("ginga", 2, {}, 1),
    ("ginga", 3, {}, 2),
    ("ginga", 4, {}, 3),
    ("ginga", 2, {"start_player": 2}, 4),
    ("ginga", 3, {}, 5),
    ("santa_fe", 3, {"advanced": True}, 5),
    ("ticket_to_ride", 4, {}, 4),
]


def _case_id(case: tuple[str, int, dict[str, Any], int]) -> str:
    name, n, options, seed = case
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{name}-{n}p-{opts or 'default'}-seed{seed}"


def _refusal(game: Any, state: Any, seat: int, action: Any) -> str:
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        return json.dumps([exc.code, exc.params], sort_keys=True, default=str)
    return "allowed"


def _pick(rng: random.Random, legal: list[Any]) -> Any:
    kinds = sorted({a.kind for a in legal})
    kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a.kind == kind])


def play(case: tuple[str, int, dict[str, Any], int]) -> list[str]:
    """The running digest at every checkpoint of the case's game, and at its end."""
    name, n, options, seed = case
    game = registry.get(name)
    rng = random.Random(seed * 1000 + n)
    tries = random.Random(seed * 7919 + n)
    state = game.setup(n, options, seed)
    seen: dict[str, Any] = {}
    digest = hashlib.sha256()
    marks: list[str] = []
    for step in range(MAX_STEPS):
        if game.is_over(state):
            break
        active = sorted(game.active_players(state))
        seat = rng.choice(active)
        legal = game.legal_actions(state, seat)
        shown = [game.format_action(a) for a in legal]
        parts: list[str] = [str(seat), "|".join(shown)]
        waiting = [s for s in range(n) if s not in active]
        if waiting and legal:
            parts.append(_refusal(game, state, tries.choice(waiting), legal[0]))
        listed = set(shown)
        others = [text for text in seen if text not in listed]
        for text in tries.sample(others, min(ATTEMPTS, len(others))):
            parts.append(_refusal(game, state, seat, seen[text]))
        for text, action in zip(shown, legal):
            if len(seen) < 3000:
                seen.setdefault(text, action)
        action = _pick(rng, legal)
        out = game.apply(state, seat, action)
        parts.append(game.format_action(action))
        parts.append(json.dumps([e.model_dump(mode="json") for e in out.events], sort_keys=True))
        parts.append(str(out.undoable))
        state = out.state
        parts.append(game.dump_state(state))
        digest.update("\n".join(parts).encode())
        if (step + 1) % CHECKPOINT == 0:
            marks.append(f"{step + 1}:{digest.hexdigest()[:16]}")
    marks.append(f"end {game.is_over(state)}:{digest.hexdigest()[:16]}")
    return marks


def _expected() -> dict[str, list[str]]:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("case", GAMES, ids=_case_id)
def test_a_seeded_random_game_plays_as_recorded(case):
    marks = play(case)
    if os.environ.get("RAILYARD_GOLDEN") == "write":
        data = _expected() if FIXTURE.exists() else {}
        data[_case_id(case)] = marks
        FIXTURE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return
    expected = _expected()[_case_id(case)]
    for got, want in zip(marks, expected):
        assert got == want, f"the game differs from the recording before step {want.split(':')[0]}"
    assert marks == expected
