"""The menus and `apply` agree, in every game built on games/core/referee.py: over whole
seeded random games, every move `legal_actions` lists is taken by `apply`, and moves it does
not list (moves listed at an earlier step, a move by a seat not waited on, one after the game
ended) are refused with an IllegalAction whose code has words in both catalogs, never with
another exception, and the state is left as it was.

A few families are wider than their menus by design and may be taken though not listed:
Catan Express's bank trades of several lots, offers on any terms (CE-B5), rides along any
legal path, and Year of Plenty (taken whenever its player is waited on).
"""
from __future__ import annotations

import random

import pytest

from games import registry
from games.core.errors import IllegalAction
from games.core.i18n import has_key
from games.core.referee import Referee

CASES = [
    ("catan_express", 4, {"map": "main"}, 11, 5),
    ("catan_express", 5, {"map": "islands", "layout": "beginner"}, 12, 5),
    ("ticket_to_ride", 3, {}, 11, 1),
    ("santa_fe", 4, {"advanced": True, "buy_track": True}, 11, 1),
    ("santa_fe", 3, {}, 12, 1),
    ("ginga", 3, {}, 11, 1),
    ("steam", 4, {}, 11, 2),  # seed 11 tries a build on a new city (refused: a city now)
    ("steam", 3, {"standard": True, "map": "rhine_ruhr"}, 12, 2),
]
WIDER = {"catan_express": {"bank", "offer", "ride", "plenty"}}
# Games whose moves one of their bots picks: a uniformly random Steam walk bankrupts every seat
# within a few turns, before anybody delivers; the builder plays whole games of every kind.
PLAYED_BY = {"steam": "builder"}
MAX_STEPS = 1200


def _refused_with_words(game, state, seat, action) -> IllegalAction | None:
    """The refusal apply raises for the move, with words in both languages (None: taken)."""
    try:
        game.apply(state, seat, action)
    except IllegalAction as exc:
        for lang in ("en", "ja"):
            assert has_key(lang, exc.message_key), (game.name, exc.code, lang)
        return exc
    return None


@pytest.mark.slow  # whole games
@pytest.mark.parametrize("name,n,options,seed,every", CASES, ids=[f"{c[0]}-{c[1]}p-seed{c[3]}" for c in CASES])
def test_the_menus_and_apply_agree_over_whole_games(name, n, options, seed, every):
    game = registry.get(name)
    assert isinstance(game, Referee)
    rng = random.Random(seed)
    state = game.setup(n, options, seed)
    seen: dict[str, object] = {}
    wider = WIDER.get(name, set())
    player = game.bots()[PLAYED_BY[name]] if name in PLAYED_BY else None
    refused = 0
    for step in range(MAX_STEPS):
        if game.is_over(state):
            break
        active = sorted(game.active_players(state))
        seat = rng.choice(active)
        legal = game.legal_actions(state, seat)
        assert legal, (name, step)
        before = game.dump_state(state)
        if step % every == 0:
            for action in legal:
                assert game.allows(state, seat, action), (name, step, game.format_action(action))
                game.apply(state, seat, action)
            listed = {game.format_action(a) for a in legal}
            others = [a for text, a in seen.items() if text not in listed]
            for action in rng.sample(others, min(8, len(others))):
                exc = _refused_with_words(game, state, seat, action)
                assert exc is not None or action.kind in wider, (name, step, game.format_action(action))
                refused += exc is not None
                assert game.allows(state, seat, action) == (exc is None)
            waiting = [s for s in range(n) if s not in active]
            if waiting:
                exc = _refused_with_words(game, state, rng.choice(waiting), legal[0])
                assert exc is not None and exc.code == "not_active"
            assert game.dump_state(state) == before, (name, step)
        for action in legal[:200]:
            seen.setdefault(game.format_action(action), action)
        if player is not None:
            action = player.choose(game, state, seat, rng)
        else:
            kind = rng.choice(sorted({a.kind for a in legal}))
            action = rng.choice([a for a in legal if a.kind == kind])
        state = game.apply(state, seat, action).state
    assert refused > 20, refused
    if game.is_over(state):
        exc = _refused_with_words(game, state, 0, next(iter(seen.values())))
        assert exc is not None and exc.code == "game_over"
