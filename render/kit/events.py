"""The "last events" box of a board's sidebar: public events, translated and wrapped."""
from __future__ import annotations

from typing import Iterable, Sequence

from PIL import Image

from games.core.i18n import translate
from render.kit.text import draw_text, wrap

RGB = tuple[int, int, int]


def public_event_lines(events: Iterable, names: Sequence[str], lang: str, size: int, width: int,
                       room: int) -> list[str]:
    """The public events' text wrapped to `width`, at most `room` lines (the last one ends "…"
    when some did not fit); "—" when there is nothing to tell."""
    lines: list[str] = []
    for event in events:
        if event.to is not None:  # the board is public: private notes never appear on it
            continue
        lines.extend(wrap(translate(lang, event.key, event.params, names), size, width, lang))
    if not lines:
        lines = ["—"]
    if len(lines) > room:
        lines = lines[: room - 1] + [lines[room - 1] + " …"]
    return lines


def draw_events(img: Image.Image, events: Iterable, names: Sequence[str], lang: str, *, title: str,
                left: int, top: int, width: int, room: int, line_h: int, title_size: int, size: int,
                title_colour: RGB, colour: RGB) -> None:
    """A bold title at (left, top) and below it the public events, one line every `line_h`."""
    draw_text(img, (left, top), title, title_size, title_colour, bold=True)
    y = top + 28 + line_h // 2
    for line in public_event_lines(events, names, lang, size, width, room):
        draw_text(img, (left, y), line, size, colour, anchor="lm", max_width=width)
        y += line_h
