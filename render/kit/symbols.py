"""What each shape means on a board: one meaning per shape.

A reader who cannot tell the colours apart reads the shapes, so a shape that marks a seat must
mark nothing else on that board: a square that is both the second player and a red cube, or a
diamond that is both a seat and the Fastest Driver, leaves them guessing. Each game declares its
board's symbols once (`Symbols`: the seats' shapes, in seat order, and every other kind of thing
it marks by shape: goods, card colours, awards, markers), its drawing code takes the shapes from
there, and `clashes` lists every shape given two meanings (a test holds every game to none).

Shapes are named as render.kit.chart.draw_marker draws them (SHAPES), plus the few marks boards
draw their own way ("ring", "bar", "flag", "arrow", "plus"). Hollow and filled outlines of one
shape are one symbol; a ring (a disc's outline) is not a disc.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from render.kit.chart import MARKERS, SHAPES

# Marks that are not drawn by draw_marker but still tell a thing by their shape.
OTHER_SHAPES = ("ring", "bar", "flag", "arrow", "plus")
# Shapes written as text, where a sentence or a table cell shows the mark (the text font has them
# all but the flag, which comes from the emoji font).
GLYPHS = {"star": "★", "flag": "🏁", "circle": "●", "square": "■", "triangle": "▲", "triangle_down": "▼",
          "diamond": "◆", "heart": "♥", "plus": "✚"}


@dataclass(frozen=True)
class Symbols:
    """A board's symbols: `seats`, one shape per seat in seat order; `marks`, kind -> thing ->
    shape for everything else the board tells apart by shape."""

    seats: tuple[str, ...] = MARKERS
    marks: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def seat(self, seat: int) -> str:
        return self.seats[seat % len(self.seats)]

    def of(self, kind: str, thing: str) -> str:
        return self.marks[kind][thing]

    def meanings(self, players: int | None = None) -> dict[str, list[str]]:
        """shape -> everything it stands for on the board (with `players` seats: the first ones)."""
        out: dict[str, list[str]] = {}
        for i, shape in enumerate(self.seats[:players]):
            out.setdefault(shape, []).append(f"seat {i + 1}")
        for kind, things in self.marks.items():
            for thing, shape in things.items():
                out.setdefault(shape, []).append(f"{kind} {thing}")
        return out

    def clashes(self, players: int | None = None) -> list[str]:
        """One line per shape that means more than one thing, or that no board can draw."""
        out = [f"{shape!r}: {', '.join(what)}" for shape, what in self.meanings(players).items() if len(what) > 1]
        known = set(SHAPES) | set(OTHER_SHAPES)
        out += [f"{shape!r}: not a shape the kit knows" for shape in self.meanings(players) if shape not in known]
        return out


def glyph(shape: str) -> str:
    """The shape as a character for text."""
    return GLYPHS[shape]
