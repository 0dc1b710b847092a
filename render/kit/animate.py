"""Animated images (a game's timelapse) within a size budget.

`animate(count, frame, ...)` encodes `count` frames, drawn one at a time by `frame(i)`, into an
animated WebP. Frames are drawn while the encoder runs and dropped at once, so memory stays at
one frame whatever the game's length (a 200-frame board held in memory at 960 px would be about
300 MB). If the file comes out over `budget` bytes, it is encoded again at a lower quality,
then with every other frame dropped (the first and the last are always kept), until it fits.

At most MAX_FRAMES frames are shown, evenly spread with the first and the last kept: at the
shortest frame time that is the PLAY_SECONDS the whole game is meant to play in. Only the
longest games have more turns: a 6-player Catan Express game of 546 turns played 65 s, came
to 9 MB at quality 80 and so was drawn and encoded twice (55 s of CPU); at 251 frames it plays
in 30 s, fits at quality 80 and is drawn once.

Why WebP, lossy, without key frames: measured on a 5-player Ticket to Ride game (297 moves, 194
frames at 960x533, Pillow 13, one core; encoding only):

    lossy q80 method 0     4.9 MB   1.9 s
    lossy q70 method 4     3.3 MB   4.7 s
    lossless method 0     11.4 MB   2.8 s
    GIF (256 colours)     22.8 MB   2.1 s

and on 150 Santa Fe frames at 960x1020, lossy q70: 5.9 MB / 3.2 s with libwebp's default key
frames (every 3-5 frames), 2.8 MB / 2.4 s with none after the first (kmin = kmax = 0). Discord's
attachment limit (8-10 MB) rules out lossless and GIF for the longest games. With the settings
below the longest games come to: Ticket to Ride 5 players 194-196 frames 3.4 MB, Santa Fe 5
players 209 frames 4.8 MB, Galactic Railway 4 players 26 frames 0.8 MB; drawing and encoding the
Ticket to Ride one costs 6.6 s of CPU and 19 MiB of memory at its peak. Quality 80 keeps board
text and flat colours clean (mean error about 2/255 per channel). Discord plays animated WebP
inline.
"""
from __future__ import annotations

import io
import time
from dataclasses import dataclass
from typing import Callable

from PIL import Image

BUDGET_BYTES = 8 * 1000 * 1000  # under Discord's smallest attachment limit
MAX_WIDTH = 960  # legible when opened, small enough for the budget
MIN_WIDTH = 800
QUALITIES = (80, 60)  # tried in this order while the file is over budget; then frames are dropped
PLAY_SECONDS = 30.0  # the whole animation, before the last frame's hold
FRAME_MS_MIN, FRAME_MS_MAX = 120, 700
MAX_FRAMES = int(PLAY_SECONDS * 1000 / FRAME_MS_MIN) + 1  # more would play longer than PLAY_SECONDS
HOLD_LAST_MS = 4000  # the final position stays up long enough to be read


@dataclass(frozen=True)
class Animation:
    data: bytes
    frames: int  # frames in the file
    size: tuple[int, int]
    quality: int
    seconds: float  # time spent drawing and encoding
    extension: str = "webp"
    mime: str = "image/webp"


def frame_width(width: int) -> int:
    """The width a frame is shown at: an image wider than MAX_WIDTH is brought down to it."""
    return min(width, MAX_WIDTH)


def scaled(img: Image.Image) -> Image.Image:
    """`img` as an RGB frame no wider than MAX_WIDTH. A whole-number reduction is used when it
    keeps at least MIN_WIDTH pixels, else a box (area-average) resize: both average the pixels
    they merge, so thin lines and text stay smooth, at half the cost of a bicubic filter
    (13 against 27 ms for 1270x1350 -> 960x1020)."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    if img.width <= MAX_WIDTH:
        return img
    factor = img.width // MIN_WIDTH
    if factor >= 2 and img.width // factor <= MAX_WIDTH:
        return img.reduce(factor)
    height = max(1, round(img.height * MAX_WIDTH / img.width))
    return img.resize((MAX_WIDTH, height), Image.Resampling.BOX)


def frame_ms(count: int) -> int:
    """How long each frame is shown: the game plays in about PLAY_SECONDS."""
    if count <= 1:
        return FRAME_MS_MAX
    return int(min(FRAME_MS_MAX, max(FRAME_MS_MIN, PLAY_SECONDS * 1000 / (count - 1))))


def animate(count: int, frame: Callable[[int], Image.Image], *, budget: int = BUDGET_BYTES,
            hold_last_ms: int = HOLD_LAST_MS) -> Animation:
    """An animated WebP of frames 0..count-1 (`frame(i)` draws frame i; every frame is scaled
    to the first one's size), under `budget` bytes if at all possible."""
    if count < 1:
        raise ValueError("an animation needs at least one frame")
    started = time.perf_counter()
    picks = spread(count, MAX_FRAMES)
    while True:
        for quality in QUALITIES:
            data, size = _encode(picks, frame, quality, hold_last_ms)
            if len(data) <= budget:
                return Animation(data, len(picks), size, quality, time.perf_counter() - started)
        if len(picks) <= 2:  # nothing more to drop: the smallest we can make
            return Animation(data, len(picks), size, QUALITIES[-1], time.perf_counter() - started)
        picks = thinned(picks)


def spread(count: int, most: int) -> list[int]:
    """Frames 0..count-1, or `most` of them evenly spread when there are more (the first and the
    last always among them)."""
    if count <= most or most < 2:
        return list(range(count))
    return [round(i * (count - 1) / (most - 1)) for i in range(most)]


def thinned(picks: list[int]) -> list[int]:
    """Every other frame, always keeping the first and the last."""
    kept = picks[::2]
    if kept[-1] != picks[-1]:
        kept.append(picks[-1])
    return kept


class _Frames:
    """The frames after the first, drawn when the encoder asks for them.

    Pillow's save_all takes multi-frame images in `append_images`: it reads `n_frames`, calls
    `seek(i)` and converts the image it is on to RGB. This object answers those three, drawing
    frame i for `seek(i)`, so only one frame exists at a time. (Drawing the next frame in a
    helper thread while the encoder works was measured: no faster on two busy cores.)"""

    mode = "P"  # anything but RGB, so the encoder asks `convert` for the drawn frame
    has_transparency_data = False

    def __init__(self, picks: list[int], frame: Callable[[int], Image.Image], size: tuple[int, int]) -> None:
        self._picks = picks
        self._frame = frame
        self._size = size
        self._current: Image.Image | None = None
        self.n_frames = len(picks)

    def seek(self, index: int) -> None:
        img = scaled(self._frame(self._picks[index]))
        self._current = img if img.size == self._size else img.resize(self._size, Image.Resampling.BOX)

    def tell(self) -> int:
        return 0

    def convert(self, mode: str) -> Image.Image:
        assert self._current is not None, "convert before seek"
        return self._current if self._current.mode == mode else self._current.convert(mode)


def _encode(picks: list[int], frame: Callable[[int], Image.Image], quality: int,
            hold_last_ms: int) -> tuple[bytes, tuple[int, int]]:
    first = scaled(frame(picks[0]))
    step = frame_ms(len(picks))
    durations = [step] * (len(picks) - 1) + [hold_last_ms]
    out = io.BytesIO()
    rest = [_Frames(picks[1:], frame, first.size)] if len(picks) > 1 else []
    _save(first, out, rest, durations, quality)
    return out.getvalue(), first.size


def _save(first: Image.Image, out: io.BytesIO, rest: list, durations: list[int], quality: int) -> None:
    # kmin = kmax = 0: no key frames after the first. Every later frame is stored as what
    # changed since the one before (a board changes in a few places a turn), which halves the
    # file and a quarter of the time; a timelapse is played from the start, never seeked.
    first.save(out, "WEBP", save_all=True, append_images=rest, duration=durations, loop=0,
               lossless=False, quality=quality, method=0, kmin=0, kmax=0)
