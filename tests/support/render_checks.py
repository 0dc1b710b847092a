"""Checks every game's pictures must pass, written once and called from each game's render
tests, with the module fixtures they draw from: one whole game, and its start, middle and end."""
from __future__ import annotations

import io
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence

import pytest
from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def game_stage_fixtures(play: Callable[[], Sequence[tuple]], mid_phase: str) -> tuple:
    """Module fixtures over one whole game played by `play()` ([(state, seat, action, next_state),
    ...]): `game` (its steps and every state, the last one after the end), `start`, `mid` (the
    first state in `mid_phase` from half-way on) and `end`. A render test module takes them as
    `game, start, mid, end = game_stage_fixtures(...)`."""

    @pytest.fixture(scope="module")
    def game():
        steps = play()
        return steps, [s for s, *_ in steps] + [steps[-1][3]]

    @pytest.fixture(scope="module")
    def start(game):
        return game[1][0]

    @pytest.fixture(scope="module")
    def mid(game):
        states = game[1]
        return next(s for s in states[len(states) // 2:] if s.phase == mid_phase)

    @pytest.fixture(scope="module")
    def end(game):
        return game[1][-1]

    return game, start, mid, end


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def close(a, b, tol: int = 40) -> bool:
    """Two colours within `tol` in each of red, green and blue (alpha left out)."""
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3]))


def assert_pngs(pictures: Iterable[tuple[bytes, tuple[int, int] | None]], limit: int) -> None:
    """Each (data, size): a PNG under `limit` bytes, of that size where one is given."""
    for data, size in pictures:
        assert data[:8] == PNG_SIGNATURE
        assert len(data) < limit
        img = Image.open(io.BytesIO(data))
        if size:
            assert img.size == size


def assert_hand_refuses_a_spectator_view(game: Any, render_hand: Callable, state: Any, names: Sequence[str]) -> None:
    """No hand is drawn from a spectator's view, nor from a seat's view whose hand is missing."""
    with pytest.raises(ValueError):
        render_hand(game.view(state, None), names, "en")
    view = game.view(state, 2)
    players = list(view.players)
    players[2] = players[2].model_copy(update={"hand": None})
    with pytest.raises(ValueError):
        render_hand(view.model_copy(update={"players": players}), names, "en")


def assert_static_layer_built_once_per_language(board: ModuleType, game: Any, state: Any,
                                                names: Sequence[str]) -> None:
    """`board.static_map(lang)` is drawn once per language and kept; a render never draws on it."""
    view = game.view(state, None)
    board.render_board(view, names, "en")
    first = board.static_map("en")
    board.render_board(view, names, "en")
    assert board.static_map("en") is first
    assert board.static_map("ja") is not first
    snapshot = first.image.tobytes()
    board.render_board(game.view(state, None), names, "en")
    assert first.image.tobytes() == snapshot  # the cached layer is never drawn on
