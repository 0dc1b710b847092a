"""Galactic Railway's decisions as menus (games/core/choices.py).

A turn is two steps: which tile (the tile pick names it, draws its two halves in box-drawing
characters and says how many places it has and the best score there), then where: one pick
per placement, cell and direction together ("→ H8–I8 · +6 (loop 4, stations 2)"), listed
best-scoring first (then by notation). A placement names its two cells as a place (`where`),
so the step is picked on a picture of the table whose numbers the menu repeats
(render.kit.picking); the hand image numbers its tables with those same numbers. After a
first tile, "stop" sits beside the other tile at the first step.

Nothing here is secret or simultaneous: hands and the top of the pile are public (GT-7) and
one player moves at a time, so a decision has no key of its own (any move makes it stale).
"""
from __future__ import annotations

from typing import Any

from games.core.choices import Choice, Decision, Pick
from games.core.choices import Place as BoardPlace
from games.core.events import Event
from games.ginga import notation, scoring
from games.ginga.board import cell_name, second_cell
from games.ginga.models import GingaState, Place, Stop
from games.ginga.tiles import EDGE_GEOMETRY, L, R, Tile, tileset

TILE = "ginga.step.tile"
SECOND = "ginga.step.second"
PLACEMENT = "ginga.step.placement"
STEPS = (TILE, SECOND, PLACEMENT)

# A half's track as one box-drawing character: bit 1 north, 2 east, 4 south, 8 west.
BOX = ("·", "╵", "╶", "└", "╷", "│", "┌", "├", "╴", "┘", "─", "┴", "┐", "┤", "┬", "┼")


def decision(game: Any, state: GingaState, seat: int) -> Decision:
    prompt = game.prompt(state, seat)
    if seat not in game.active_players(state):
        return Decision(seat=seat, prompt=prompt)
    legal = game.legal_actions(state, seat)
    first_step = SECOND if state.step == "second" else TILE
    key = scoring.placed_key(state)
    per_tile: dict[int, list[tuple[Place, int, int]]] = {}
    for action in legal:
        if isinstance(action, Place):
            score = scoring.evaluate(key, action.tile, action.x, action.y, action.orient)
            per_tile.setdefault(action.tile, []).append((action, score.stations, score.loop))
    choices: list[Choice] = []
    for tile, options in per_tile.items():
        options.sort(key=lambda o: placement_order(o[1] + o[2], game.format_action(o[0])))
        best = options[0][1] + options[0][2]
        spec = tileset().tiles[tile]
        detail_key = "ginga.choice.tile_detail_best" if best else "ginga.choice.tile_detail"
        tile_pick = Pick(
            step=first_step, value=notation.tile_name(tile),
            label=Event(key="ginga.choice.tile", params={"tile": notation.tile_name(tile), "shape": shape(spec),
                                                       "kind": _kind(spec)}),
            detail=Event(key=detail_key, params={"count": len(options), "points": best}),
            icon=notation.tile_name(tile),
        )
        for action, stations, loop in options:
            choices.append(Choice(notation=game.format_action(action), path=(tile_pick, _placement(
                action, stations, loop))))
    for action in legal:
        if isinstance(action, Stop):
            choices.append(Choice(notation=game.format_action(action), path=(Pick(
                step=first_step, value="stop", label=game.describe_action(state, seat, action), icon="stop"),)))
    return Decision(seat=seat, prompt=prompt, choices=choices)


def placement_order(points: int, notation_text: str) -> tuple[int, str]:
    """The menu's order of one tile's placements: best-scoring first, then by notation. The
    view lists its options in it too, so the hand image numbers the same options in the same
    order as the menu's picture does."""
    return -points, notation_text


def where(cells: Any) -> BoardPlace:
    """A placement's place: its two cells, half L's first (the direction is from L to R)."""
    (lx, ly), (rx, ry) = cells
    return BoardPlace(kind="cell", at=(cell_name(lx, ly), cell_name(rx, ry)))


def _placement(action: Place, stations: int, loop: int) -> Pick:
    cells = ((action.x, action.y), second_cell(action.x, action.y, action.orient))
    place = where(cells)
    a, b = place.at
    label = Event(key="ginga.choice.placement", params={
        "arrow": notation.ARROWS[action.orient], "a": a, "b": b, "score": notation.score_words(stations, loop)})
    icon = "loop" if loop else "stations" if stations else "place"
    return Pick(step=PLACEMENT, value=f"{a} {notation.ORIENTATIONS[action.orient]}", label=label,
                detail=Event(**notation.place_words(action)), icon=icon, place=place)


def _kind(tile: Tile) -> dict[str, Any]:
    if tile.station:
        return {"key": "ginga.choice.kind_station", "params": {"exits": tile.kind}}
    return {"key": "ginga.choice.kind_exits", "params": {"exits": tile.kind}}


def shape(tile: Tile) -> str:
    """The tile lying right (half L left, half R right) as two box-drawing characters: each
    half's track, joined across the middle when both halves have exits (GT-1, GT-2)."""
    masks = [0, 0]
    for edge in tile.exits:
        half, direction = EDGE_GEOMETRY[edge]
        masks[half] |= 1 << direction
    if tile.halves_joined:
        masks[L] |= 2  # east, towards R
        masks[R] |= 8  # west, towards L
    return BOX[masks[L]] + BOX[masks[R]]
