"""What a game's render package hands to render.registry: its three image functions."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from PIL import Image

ImageFn = Callable[[Any, Sequence[str], str], Image.Image]


class GameImages:
    """board_image, hand_image and final_image as given (view, names, lang) -> PIL image."""

    def __init__(self, board: ImageFn, hand: ImageFn, final: ImageFn, palette_png: bool = False) -> None:
        self.board_image = board
        self.hand_image = hand
        self.final_image = final
        self.palette_png = palette_png  # flat colours: a 256-colour PNG looks the same, encodes faster
