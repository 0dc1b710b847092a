"""What a game's render package hands to render.registry: its images, their alt text and the
colours it draws players with.

Every image Railyard posts carries alt text (Discord's attachment description) so a player
with a screen reader hears what a sighted player sees: whose turn, the scores, the last move.
A game therefore gives a `describe_*` twin for each image function. `palette` lists the
colours the game draws players with, the surfaces they are drawn on and the other colours that
carry meaning, so the kit's colour-vision check (render/kit/vision.py) can hold every game to
the same bar; `symbols` says which shape means what (render/kit/symbols.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from PIL import Image

from games.core.choices import Place
from render.kit.picking import Mark
from render.kit.symbols import Symbols

ImageFn = Callable[[Any, Sequence[str], str], Image.Image]
DescribeFn = Callable[[Any, Sequence[str], str], str]
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Places:
    """How a game's board shows places, for pick pictures (render.kit.picking).

    locate: (view, place) -> Mark | None, where a place is in the board image.
    size: view -> (width, height) of the board image, without drawing it.
    preview: (view, names, lang, place) -> the board with `place.show` drawn in place, for
        options that share a place and differ by what they put there (a tile's rotations), and
        for routes that show what they score (each route on its own board).
    caption: (view, names, lang, place) -> a line written under that option's own board
        ("You +2 · Bob +1"), or None.
    margin: board px kept around the options (about a hex or a city and its name).
    floor: the narrowest crop (board px) a picture shows, however close the options are.
    board: (view, names, lang) -> the image pictures are cropped from, in the board image's
        pixels from its top left (None: the board image): a board that prints numbers of its
        own where the badges go (a game's point numbers) gives one without them, so a number
        in a picture means one thing.
    dark_badges: the board's own markers are numbers on white discs (Santa Fe's cities), so
        pick numbers are drawn on dark badges instead (render.kit.picking).
    """

    locate: Callable[[Any, Place], Mark | None]
    size: Callable[[Any], tuple[int, int]]
    margin: float
    floor: float
    preview: Callable[[Any, Sequence[str], str, Place], Image.Image | None] | None = None
    board: ImageFn | None = None
    caption: Callable[[Any, Sequence[str], str, Place], str | None] | None = None
    dark_badges: bool = False


@dataclass(frozen=True)
class Marks:
    """One kind of thing a board tells apart by colour besides the seats: goods, railroads,
    terrains, card colours, a marker's ring. `colours`: name -> colour.

    apart: how far two of them must be (render.kit.vision: MIN_MARK by default, for things
        that also carry their own shape or sign; MIN_PLAYER_VS_PLAYER for things told apart by
        colour at a glance on small pieces, as seats are).
    of_players: the seats' own colours are among these by the rules (Ticket to Ride's trains
        are card colours), so they are not held apart from the seats.
    """

    colours: dict[str, RGB]
    apart: float | None = None
    of_players: bool = False


@dataclass(frozen=True)
class Palette:
    """The colours a game's images must keep apart for every reader.

    players: one colour per seat, in seat order (as many as the game's maximum player count).
    surfaces: name -> colour of what player pieces are drawn on (map, panels, tiles); each
        player colour must stand out from each surface.
    categories: colours of score-chart categories; each must differ from every player colour,
        so a bar segment is never mistaken for a player.
    marks: kind -> the colours that carry meaning on the board besides the seats (Marks):
        each kind's colours must differ from each other and from every player colour.
    """

    players: Sequence[RGB]
    surfaces: dict[str, RGB] = field(default_factory=dict)
    categories: Sequence[RGB] = ()
    marks: dict[str, Marks] = field(default_factory=dict)


class GameImages:
    """board_image, hand_image and final_image as given (view, names, lang) -> PIL image, with
    describe_board / describe_hand / describe_final (view, names, lang) -> alt text."""

    def __init__(self, board: ImageFn, hand: ImageFn, final: ImageFn, *,
                 describe_board: DescribeFn, describe_hand: DescribeFn, describe_final: DescribeFn,
                 palette: Palette, symbols: Symbols, palette_png: bool = False,
                 keep_colours: Sequence[tuple[int, int, int]] = (), places: Places | None = None,
                 scores: Callable[[Any], list[list[int]]] | None = None) -> None:
        self.board_image = board
        self.hand_image = hand
        self.final_image = final
        self.describe_board = describe_board
        self.describe_hand = describe_hand
        self.describe_final = describe_final
        self.palette = palette
        self.symbols = symbols  # which shape means what on the board (render.kit.symbols)
        self.palette_png = palette_png  # flat colours: a 256-colour PNG looks the same, encodes faster
        # With palette_png: colours that must come through exactly (render.kit.encode.quantize_keeping),
        # which also lets the palette be chosen from a sample of the image (faster).
        self.keep_colours = tuple(keep_colours)
        self.places = places  # where places are on the board, for pick pictures (None: the game names none)
        # view -> each seat's score after each turn so far, as the final image charts it (the
        # web table's replay draws its chart from it); None: the game keeps no such history
        self.scores = scores
