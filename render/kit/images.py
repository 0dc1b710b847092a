"""What a game's render package hands to render.registry: its images, their alt text and the
colours it draws players with.

Every image Railyard posts carries alt text (Discord's attachment description) so a player
with a screen reader hears what a sighted player sees: whose turn, the scores, the last move.
A game therefore gives a `describe_*` twin for each image function. `palette` lists the
colours the game draws players with and the surfaces they are drawn on, so the kit's
colour-vision check (render/kit/vision.py) can hold every game to the same bar.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from PIL import Image

ImageFn = Callable[[Any, Sequence[str], str], Image.Image]
DescribeFn = Callable[[Any, Sequence[str], str], str]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    """The colours a game's images must keep apart for every reader.

    players: one colour per seat, in seat order (as many as the game's maximum player count).
    surfaces: name -> colour of what player pieces are drawn on (map, panels, tiles); each
        player colour must stand out from each surface.
    categories: colours of score-chart categories; each must differ from every player colour,
        so a bar segment is never mistaken for a player.
    """

    players: Sequence[RGB]
    surfaces: dict[str, RGB] = field(default_factory=dict)
    categories: Sequence[RGB] = ()


class GameImages:
    """board_image, hand_image and final_image as given (view, names, lang) -> PIL image, with
    describe_board / describe_hand / describe_final (view, names, lang) -> alt text."""

    def __init__(self, board: ImageFn, hand: ImageFn, final: ImageFn, *,
                 describe_board: DescribeFn, describe_hand: DescribeFn, describe_final: DescribeFn,
                 palette: Palette, palette_png: bool = False,
                 keep_colours: Sequence[tuple[int, int, int]] = ()) -> None:
        self.board_image = board
        self.hand_image = hand
        self.final_image = final
        self.describe_board = describe_board
        self.describe_hand = describe_hand
        self.describe_final = describe_final
        self.palette = palette
        self.palette_png = palette_png  # flat colours: a 256-colour PNG looks the same, encodes faster
        # With palette_png: colours that must come through exactly (render.kit.encode.quantize_keeping),
        # which also lets the palette be chosen from a sample of the image (faster).
        self.keep_colours = tuple(keep_colours)
