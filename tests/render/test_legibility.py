"""Every image Railyard posts stays readable where players see it: 400 px wide.

Each registered game is played by its own bot, with as many seats as it allows (the most
crowded sidebar), and its board (mid-game), hand and final images are drawn in English and
Japanese. Every text render.kit.text draws must be at least MIN_TEXT_PX_AT_400 tall once the
image is shrunk to 400 px wide.
"""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

from games import registry as games
from render import registry as renderers
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes, smallest_at

# Realistic names: a long Latin one and Japanese ones, so any shrink-to-fit shows up.
NAMES = ["Alexandra", "山田太郎", "Bob", "佐々木 みなみ", "Christopher", "Eve"]
MAX_MOVES = 4000


@lru_cache(maxsize=None)
def played(name: str):
    """(game, mid-game state, seat to move there, final state) of a seeded bot game."""
    game = games.get(name)
    bot = next(iter(game.bots().values()))
    state = game.setup(game.max_players, {}, 11)
    rng = random.Random(11)
    states = []
    for _ in range(MAX_MOVES):
        if game.is_over(state):
            break
        seat = min(game.active_players(state))
        states.append((state, seat))
        state = game.apply(state, seat, bot.choose(game, state, seat, rng)).state
    assert game.is_over(state), f"{name}: the bots did not finish in {MAX_MOVES} moves"
    mid, seat = states[len(states) // 2]
    return game, mid, seat, state


def image(name: str, kind: str, lang: str):
    game, mid, seat, final = played(name)
    names = NAMES[:game.max_players]
    renderer = renderers.get(name)
    if kind == "board":
        return renderer.board_image(game.view(mid, None), names, lang)
    if kind == "hand":
        return renderer.hand_image(game.view(mid, seat), names, lang)
    return renderer.final_image(game.view(final, None), names, lang)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", ["board", "hand", "final"])
@pytest.mark.parametrize("name", renderers.names())
def test_every_text_is_legible_at_400px(name: str, kind: str, lang: str) -> None:
    with recording_text_sizes() as sizes:
        img = image(name, kind, lang)
    assert sizes.drawn, f"{name} {kind} ({lang}) drew no text through render.kit.text"
    size, text = sizes.smallest()
    shown = smallest_at(size, img.width)
    too_small = sorted({(s, t) for s, t in sizes.drawn if t.strip() and smallest_at(s, img.width) < MIN_TEXT_PX_AT_400})
    assert shown >= MIN_TEXT_PX_AT_400, (
        f"{name} {kind} image ({lang}, {img.width}x{img.height}): text {text!r} drawn at {size} px is "
        f"{shown:.1f} px tall at 400 px wide (minimum {MIN_TEXT_PX_AT_400}); "
        f"needs >= {MIN_TEXT_PX_AT_400 * img.width / 400:.0f} px. {len(too_small)} texts too small, e.g. "
        f"{too_small[:6]}")


def test_the_recorder_sees_text_drawn_and_only_while_open() -> None:
    from PIL import Image

    from render.kit.text import draw_text
    img = Image.new("RGB", (800, 100))
    draw_text(img, (0, 0), "outside", 30, (255, 255, 255))
    with recording_text_sizes() as sizes:
        draw_text(img, (0, 0), "big", 30, (255, 255, 255))
        draw_text(img, (0, 50), "small", 12, (255, 255, 255))
    draw_text(img, (0, 0), "after", 9, (255, 255, 255))
    assert sizes.drawn == [(30, "big"), (12, "small")]
    assert sizes.smallest() == (12, "small")
    assert sizes.smallest_at(800) == pytest.approx(12 * 400 / 800)
    assert sizes.smallest_at(800) < MIN_TEXT_PX_AT_400  # 6 px at 400 wide: would fail the check
