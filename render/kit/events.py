"""The "last events" box of a board's sidebar: public events, translated and wrapped."""
from __future__ import annotations

from typing import Iterable, Sequence

from PIL import Image

from games.core.i18n import translate
from render.kit.text import draw_text, wrap

RGB = tuple[int, int, int]


def public_event_lines(events: Iterable, names: Sequence[str], lang: str, size: int, width: int,
                       room: int) -> list[str]:
    """The public events' text wrapped to `width`, at most `room` lines; "—" when there is
    nothing to tell.

    When they do not fit, what matters is kept: the start of the first event (the turn's
    main move, naming its player) and the last events whole (bonuses, the end of the game),
    with a "…" line for what is left out between them.
    """
    blocks: list[list[str]] = []
    for event in events:
        if event.to is not None:  # the board is public: private notes never appear on it
            continue
        block = wrap(translate(lang, event.key, event.params, names), size, width, lang)
        if block:
            blocks.append(block)
    if not blocks:
        return ["—"]
    return fit_blocks(blocks, room)


def fit_blocks(blocks: Sequence[Sequence[str]], room: int) -> list[str]:
    """At most `room` lines from blocks of lines (one block per event), keeping the first
    block's start and the last blocks whole, "…" marking what was dropped."""
    lines = [line for block in blocks for line in block]
    if len(lines) <= room:
        return lines
    if room <= 0:
        return []
    if room == 1:
        return [lines[0] + " …"]
    if len(blocks) == 1:  # one long event: its start, then where it was cut
        return lines[:room - 1] + [lines[room - 1] + " …"]
    head = list(blocks[0][:max(1, (room - 1) // 2)])
    space = room - len(head) - 1
    tail: list[str] = []
    for block in reversed(blocks[1:]):
        if len(tail) + len(block) > space:
            break
        tail = list(block) + tail
    if not tail:  # even the last event is too long for the space left: its end
        tail = list(blocks[-1][-space:]) if space > 0 else []
    if space <= 0 or not tail:
        return head[:room - 1] + ["… " + blocks[-1][-1]]
    # Give lines the tail could not use back to the first event.
    extra = space - len(tail)
    head = list(blocks[0][:len(head) + extra])
    if len(head) + len(tail) >= len(lines):
        return lines[:room]
    return head + ["…"] + tail


def draw_events(img: Image.Image, events: Iterable, names: Sequence[str], lang: str, *, title: str,
                left: int, top: int, width: int, room: int, line_h: int, title_size: int, size: int,
                title_colour: RGB, colour: RGB) -> None:
    """A bold title at (left, top) and below it the public events, one line every `line_h`."""
    draw_text(img, (left, top), title, title_size, title_colour, bold=True)
    y = top + 28 + line_h // 2
    for line in public_event_lines(events, names, lang, size, width, room):
        draw_text(img, (left, y), line, size, colour, anchor="lm", max_width=width)
        y += line_h
