"""Every game's board, drawn from the last view of an abandoned game, says the game was
abandoned where it otherwise says whose turn it is."""
from __future__ import annotations

import random

import pytest

from games import registry as games
from games.core.i18n import translate
from render import registry as renderers
from render.kit import text as kit_text
from render.kit.ended import ABANDONED_KEY, ABANDONED_SUB_KEY, abandoned, is_abandoned

NAMES = ["Alice", "Bob", "Carol"]
# each game's header while one seat is to move (test knowledge, not shared code)
TURN_KEYS = {
    "ticket_to_ride": ("ticket_to_ride.render.turn_of",),
    "ginga": ("ginga.render.turn_of",),
    "santa_fe": ("santa_fe.render.track_of", "santa_fe.render.draw_of", "santa_fe.render.buy_of", "santa_fe.render.engineer_of"),
    "steam": ("steam.render.move.first_auction", "steam.render.move.actions"),
    "catan_express": ("catan_express.render.move.setup", "catan_express.render.move.roll", "catan_express.render.move.main"),
}


def one_seat_to_move(name: str, lang: str, monkeypatch):
    """A game of three played by its bots until its board names the one seat to move; returns
    (game, state, the texts of that board, its turn header)."""
    game = games.get(name)
    bot = next(iter(game.bots().values()))
    state = game.setup(3, {}, 7)
    rng = random.Random(7)
    for _ in range(60):
        active = sorted(game.active_players(state))
        if len(active) == 1:
            turn = {translate(lang, key, {"seat": active[0]}, NAMES) for key in TURN_KEYS[name]}
            texts = drawn(monkeypatch, lambda: renderers.get(name).board_image(game.view(state, None), NAMES, lang))
            if turn & set(texts):
                return game, state, texts, turn
        seat = active[0]
        state = game.apply(state, seat, bot.choose(game, state, seat, rng)).state
    raise AssertionError(f"{name}: the board never named a single seat to move")


def drawn(monkeypatch, draw) -> list[str]:
    seen: list[str] = []
    original = kit_text._clean

    def recording(text: str) -> str:
        seen.append(text)
        return original(text)

    with monkeypatch.context() as patch:
        patch.setattr(kit_text, "_clean", recording)
        draw()
    return seen


def test_every_renderer_is_covered() -> None:
    assert set(renderers.names()) <= set(TURN_KEYS)


@pytest.mark.parametrize("name", sorted(TURN_KEYS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_abandoned_board_says_so_instead_of_whose_turn(name: str, lang: str, monkeypatch) -> None:
    game, state, running, turn = one_seat_to_move(name, lang, monkeypatch)
    view = game.view(state, None)
    renderer = renderers.get(name)
    marks = {translate(lang, ABANDONED_KEY), translate(lang, ABANDONED_SUB_KEY)}
    assert not marks & set(running)
    stopped = drawn(monkeypatch, lambda: renderer.board_image(abandoned(view), NAMES, lang))
    assert marks <= set(stopped) and not turn & set(stopped)
    # the mark only wraps the view: the rules' view itself is unchanged and unmarked
    assert game.view(state, None) == view and not is_abandoned(view)
    assert renderer.board(abandoned(view), NAMES, lang) != renderer.board(view, NAMES, lang)
