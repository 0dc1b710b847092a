"""Pictures for the test-only games (the toy and bid games): real Pillow images of a view's
public fields as text, so the Discord tests post boards, hands and finals as they do for the
real games instead of logging a missing renderer at every post."""
from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from render.kit.images import GameImages, Palette
from render.kit.symbols import Symbols

_PLAYERS = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167), (86, 180, 233))


def _lines(view: Any, names: Sequence[str]) -> list[str]:
    fields = view.model_dump(mode="json") if hasattr(view, "model_dump") else dict(view)
    return [", ".join(names)] + [f"{key}: {value}"[:90] for key, value in fields.items()]


def _picture(title: str, view: Any, names: Sequence[str]) -> Image.Image:
    lines = [title, *_lines(view, names)]
    img = Image.new("RGB", (640, 24 + 16 * len(lines)), (250, 248, 240))
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((12, 12 + 16 * i), line, fill=(20, 20, 20))
    return img


def _describe(title: str):
    def describe(view: Any, names: Sequence[str], lang: str) -> str:
        return f"{title}: " + "; ".join(_lines(view, names))[:300]
    return describe


IMAGES = GameImages(
    lambda view, names, lang: _picture("board", view, names),
    lambda view, names, lang: _picture("hand", view, names),
    lambda view, names, lang: _picture("final", view, names),
    describe_board=_describe("board"), describe_hand=_describe("hand"), describe_final=_describe("final"),
    palette=Palette(players=_PLAYERS, surfaces={"paper": (250, 248, 240)}),
    symbols=Symbols(),  # text only: no shape means anything
)
