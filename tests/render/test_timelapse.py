"""The timelapse: frames drawn one at a time into an animated WebP within a size budget
(render/kit/animate.py), and a recorded game replayed into one (render/timelapse.py)."""
from __future__ import annotations

import io
import random
import re

from PIL import Image

from games import registry
from games.replay import GameRecord
from render.kit.animate import FRAME_MS_MIN, HOLD_LAST_MS, MAX_FRAMES, MAX_WIDTH, PLAY_SECONDS, animate, scaled, spread, thinned
from render.timelapse import timelapse, turn_ends

COLOURS = [(200, 30, 30), (30, 160, 60), (40, 60, 200), (240, 200, 0), (20, 20, 20), (150, 60, 170)]


def _solid(i: int, size=(300, 200)) -> Image.Image:
    return Image.new("RGB", size, COLOURS[i % len(COLOURS)])


def _frames(data: bytes) -> list[tuple[tuple[int, int, int], int]]:
    """Each frame's centre colour and how long it is shown."""
    out = []
    with Image.open(io.BytesIO(data)) as image:
        for i in range(image.n_frames):
            image.seek(i)
            out.append((image.convert("RGB").getpixel((image.width // 2, image.height // 2)),
                        image.info["duration"]))
    return out


def _close(a, b, tolerance=24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_every_frame_in_order_and_the_last_one_held():
    drawn: list[int] = []

    def frame(i: int) -> Image.Image:
        drawn.append(i)
        return _solid(i)

    made = animate(6, frame)
    assert drawn == list(range(6))  # each frame drawn once, in order (a game replays forwards)
    frames = _frames(made.data)
    assert made.frames == len(frames) == 6
    for i, (colour, _) in enumerate(frames):
        assert _close(colour, COLOURS[i]), (i, colour)
    durations = [d for _, d in frames]
    assert durations[-1] == HOLD_LAST_MS and all(d < HOLD_LAST_MS for d in durations[:-1])


def test_over_budget_it_drops_frames_but_keeps_the_first_and_the_last():
    noisy = random.Random(3)

    def frame(i: int) -> Image.Image:  # noise does not compress: every frame costs its size
        return Image.frombytes("RGB", (320, 240), bytes(noisy.getrandbits(8) for _ in range(320 * 240 * 3)))

    full = animate(9, frame, budget=10**9)
    small = animate(9, frame, budget=len(full.data) // 3)
    assert full.frames == 9 and small.frames < 9
    assert len(small.data) < len(full.data)
    assert thinned(list(range(9))) == [0, 2, 4, 6, 8] and thinned(list(range(8))) == [0, 2, 4, 6, 7]


def test_a_very_long_game_shows_evenly_spread_turns_each_drawn_once():
    drawn: list[int] = []

    def frame(i: int) -> Image.Image:
        drawn.append(i)
        return _solid(i, (64, 48))

    count = 2 * MAX_FRAMES + 37
    made = animate(count, frame)
    assert made.frames == MAX_FRAMES and len(_frames(made.data)) == MAX_FRAMES
    assert drawn == sorted(set(drawn)) and drawn[0] == 0 and drawn[-1] == count - 1
    gaps = {b - a for a, b in zip(drawn, drawn[1:])}
    assert gaps <= {2, 3}  # evenly spread: no run of turns left out
    durations = [d for _, d in _frames(made.data)][:-1]
    assert set(durations) == {FRAME_MS_MIN} and sum(durations) <= PLAY_SECONDS * 1000
    assert spread(5, MAX_FRAMES) == [0, 1, 2, 3, 4] and spread(10, 4) == [0, 3, 6, 9]


def test_wide_boards_are_brought_down_to_a_legible_width():
    assert scaled(Image.new("RGB", (1800, 1000))).size == (900, 500)  # a whole-number reduction
    assert scaled(Image.new("RGB", (1270, 1350))).size == (MAX_WIDTH, 1020)
    assert scaled(Image.new("RGB", (640, 480))).size == (640, 480)
    # frames of another size are fitted to the first, so the animation never jumps
    made = animate(3, lambda i: _solid(i, (300, 200) if i == 0 else (320, 210)))
    assert made.size == (300, 200) and made.frames == 3


def test_a_turn_is_a_run_of_moves_by_one_seat():
    moves = [(0, "a"), (0, "b"), (1, "c"), (0, "d"), (2, "e"), (2, "f")]
    assert turn_ends(moves) == [2, 3, 4, 6]
    assert turn_ends([]) == []


def _played(game_name: str, players: int, seed: int) -> GameRecord:
    game = registry.get(game_name)
    bot = next(iter(game.bots().values()))
    state, rng, moves = game.setup(players, {}, seed), random.Random(seed), []
    while game.result(state) is None:
        seat = min(game.active_players(state))
        action = bot.choose(game, state, seat, rng)
        moves.append((seat, game.format_action(action)))
        state = game.apply(state, seat, action).state
    return GameRecord(game=game_name, players=players, seed=seed, moves=moves)


def test_a_whole_game_becomes_one_animation_with_its_alt_text():
    record = _played("ginga", 4, 11)
    names = ["Alice", "Bob", "Carol", "Dave"]
    made = timelapse(record, names, "en")
    assert made.filename == "timelapse.webp" and made.turns == len(turn_ends(record.moves))
    with Image.open(io.BytesIO(made.data)) as image:
        assert image.format == "WEBP" and image.is_animated
        assert image.n_frames == made.frames == made.turns + 1
        first = image.convert("RGB").tobytes()
        image.seek(image.n_frames - 1)
        assert image.convert("RGB").tobytes() != first  # the board filled up
    assert len(made.data) < 8_000_000
    assert str(made.frames) in made.description and made.description.strip()

    japanese = timelapse(record, names, "ja")
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese.description)
    assert japanese.frames == made.frames
