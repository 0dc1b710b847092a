"""Is the text in an image readable where players see it?

Discord shows a posted image about 550 px wide on a desktop and 400 px inside an embed,
where the live board sits; a phone shows it narrower still. Text drawn `size` px tall on
an image `width` px wide is size * 400 / width px tall at 400 px; below about 7 px, Latin
letters smear and kanji become blots. So every text a renderer draws must be at least
MIN_TEXT_PX_AT_400 there, i.e. drawn at least min_font_px(width) tall.

`recording_text_sizes()` collects the size of every text render.kit.text.draw_text draws
while it is open (per thread and task, through a context variable), so a test can render
an image and ask for its smallest text; outside it, draw_text pays one variable lookup.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Iterator

MIN_TEXT_PX_AT_400 = 7
SHOWN_AT = 400

_recorder: ContextVar["TextSizes | None"] = ContextVar("railyard_text_sizes", default=None)


@dataclass
class TextSizes:
    """Font sizes (px) and the texts drawn at each, in drawing order."""
    drawn: list[tuple[int, str]] = field(default_factory=list)

    @property
    def sizes(self) -> list[int]:
        return [size for size, _ in self.drawn]

    def smallest(self) -> tuple[int, str] | None:
        """(size, text) of the smallest text drawn, None if nothing was drawn."""
        visible = [(size, text) for size, text in self.drawn if text.strip()]
        return min(visible, key=lambda item: item[0], default=None)

    def smallest_at(self, width_px: int, shown_at: int = SHOWN_AT) -> float | None:
        """How tall the smallest text is when an image `width_px` wide is shown `shown_at` wide."""
        small = self.smallest()
        return None if small is None else smallest_at(small[0], width_px, shown_at)

    def clear(self) -> None:
        self.drawn.clear()


@contextmanager
def recording_text_sizes() -> Iterator[TextSizes]:
    """Collect the size of every text drawn through render.kit.text while open."""
    sizes = TextSizes()
    token = _recorder.set(sizes)
    try:
        yield sizes
    finally:
        _recorder.reset(token)


def recording() -> bool:
    """Whether text sizes are being recorded (render.kit.regions then draws every part afresh,
    so that each text is drawn and noted)."""
    return _recorder.get() is not None


def note_text(size: int, text: str) -> None:
    """Called by render.kit.text.draw_text for every text it draws."""
    sizes = _recorder.get()
    if sizes is not None:
        sizes.drawn.append((int(size), text))


def smallest_at(size_px: float, width_px: int, shown_at: int = SHOWN_AT) -> float:
    """Height of text drawn `size_px` tall on an image `width_px` wide, shown `shown_at` wide."""
    return size_px * shown_at / width_px


def min_font_px(width_px: int, shown_at: int = SHOWN_AT) -> int:
    """The smallest font size that stays legible on an image `width_px` wide."""
    return math.ceil(MIN_TEXT_PX_AT_400 * width_px / shown_at - 1e-9)
