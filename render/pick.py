"""A step's place options as a pick picture (render.kit.picking), for any game whose renderer
says where its places are (`GameImages.places`).

    marks = locate("steam", view, places)              # where each place is (None: not drawn)
    groups = plan("steam", marks)                       # regions of at most 25, in reading order
    data, alt = draw("steam", view, names, "en", places, numbers)

`draw` is a module-level function of plain arguments so the render pool can run it in a
worker (render/pool.py, `call`), beside the boards.
"""
from __future__ import annotations

from typing import Any, Sequence

from PIL import Image

from games.core.choices import Place
from games.core.i18n import translate
from render import registry
from render.kit import picking
from render.kit.images import Places
from render.kit.picking import Mark, Picture
from render.pool import received


def warm(games: Sequence[str] | None = None) -> None:
    """Import each game's renderer and its places' layout now (a few hundred ms each the first
    time), so the first turn post or pick that locates places does not pay for it on the bot's
    event loop."""
    for game in registry.names() if games is None else games:
        try:
            registry.get(game).places  # imports the renderer and the layout its module loads
        except Exception:  # noqa: BLE001 - a renderer that cannot load says so where it is used
            continue


def _places(game: str) -> Places:
    """The game's Places; only games whose steps name places get here."""
    found = registry.get(game).places
    assert found is not None, f"{game} locates no places"
    return found


def locate(game: str, view: Any, places: Sequence[Place]) -> list[Mark | None]:
    """Where each place is in the game's board image; None for all when the game's renderer
    locates nothing."""
    found = registry.get(game).places
    if found is None:
        return [None] * len(places)
    return [found.locate(view, place) for place in places]


def plan(game: str, marks: Sequence[Mark], beside: int = 0) -> list[list[int]]:
    """The marks (indexes) grouped into regions for legible pictures, each region in reading
    order: its k-th option is numbered k + 1 (render.kit.picking.numbered). A region holds at
    most 25 options less the `beside` options without a place shown with it (a step offers
    at most 25 in all)."""
    found = _places(game)
    return picking.numbered(marks, floor=found.floor, margin=found.margin,
                            at_most=max(picking.OPTIONS_AT_MOST // 2, picking.OPTIONS_AT_MOST - beside))


def board_size(game: str, view: Any) -> tuple[int, int]:
    return _places(game).size(view)


def picture(game: str, view: Any, names: Sequence[str], lang: str, places: Sequence[Place],
            numbers: Sequence[int]) -> Picture:
    """The pick picture of `places` numbered `numbers`: options at one place that differ by
    what they show, side by side from the renderer's previews; any others on one crop."""
    renderer = registry.get(game)
    found = _places(game)
    marks = [found.locate(view, p) for p in places]
    kept = [(m, p, n) for m, p, n in zip(marks, places, numbers) if m is not None]
    if not kept:
        raise ValueError("no place of this step is on the board")
    marks_, places_, numbers_ = (list(x) for x in zip(*kept))
    one_place = len({p.at for p in places_}) == 1 and all(p.show for p in places_)
    # Routes that show what they score are drawn one to a board: on one crop their lines
    # would cover each other and leave no room for their points.
    routes = all(p.kind == "route" and p.show for p in places_)
    if (one_place or routes) and found.preview is not None and len(places_) > 1:
        plain: list[Image.Image] = []  # the board as it is, drawn once for the options with no preview

        def board_of(p: Place) -> Image.Image:
            drawn = found.preview(view, list(names), lang, p)  # type: ignore[misc]
            if drawn is None and not plain:
                plain.append(renderer.board_image(view, list(names), lang))
            return drawn if drawn is not None else plain[0]

        boards = [board_of(p) for p in places_]
        captions = [found.caption(view, list(names), lang, p) for p in places_] if found.caption else None
        return picking.sheet_picture(boards, marks_, numbers_, margin=found.margin, captions=captions, lang=lang,
                                     dark=found.dark_badges)
    board = (found.board or renderer.board_image)(view, list(names), lang)
    return picking.pick_picture(board, marks_, numbers_, margin=found.margin, dark=found.dark_badges)


def alt_text(lang: str, numbers: Sequence[int]) -> str:
    return translate(lang, "render.pick.alt", {"low": min(numbers), "high": max(numbers), "count": len(numbers)})


def draw(game: str, sent_view: Any, names: Sequence[str], lang: str, places: Sequence[Place],
         numbers: Sequence[int]) -> tuple[bytes, str, list[tuple[int, float, float]]]:
    """(PNG bytes, alt text, badges as (number, x, y)) of the pick picture; `sent_view` as
    render.pool.sendable made it."""
    view = received(sent_view)
    made = picture(game, view, names, lang, places, numbers)
    data = registry.get(game).encode(made.image)
    return data, alt_text(lang, numbers), [(b.number, b.centre[0], b.centre[1]) for b in made.badges]


def draw_overview(game: str, sent_view: Any, names: Sequence[str], lang: str,
                  groups: Sequence[Sequence[Place]], labels: Sequence[str]) -> tuple[bytes, str]:
    """(PNG bytes, alt text) of the whole board with each region of a step's place options
    framed and named as its button is."""
    view = received(sent_view)
    renderer = registry.get(game)
    found = _places(game)
    marks = [[m for m in (found.locate(view, p) for p in group) if m is not None] for group in groups]
    made = picking.overview_picture((found.board or renderer.board_image)(view, list(names), lang), marks, labels)
    return renderer.encode(made.image), translate(lang, "render.pick.overview", {"regions": ", ".join(labels)})

