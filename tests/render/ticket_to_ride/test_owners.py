"""A claimed route names its owner by shape as well as colour: the owner's seat shape (the
score chart's marker) sits on the route's middle car and on the seat's tile in the strip.

Every seat is given the same colour here (the route's own red), so only the shape can tell
two owners apart, as for a red player on a red route or a colour-blind reader."""
from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from games.ticket_to_ride.map import usa
from games.ticket_to_ride.models import UNCLAIMED
from games.ticket_to_ride.rules import GAME
from render.kit.chart import draw_marker
from render.ticket_to_ride import board as board_mod
from render.ticket_to_ride import style
from render.ticket_to_ride.icons import SYMBOLS

TTR_SEATS = SYMBOLS.seats
from render.ticket_to_ride.board import OWNER_EDGE, OWNER_R, marked_car, render_board
from render.ticket_to_ride.layout import MAP_Y, board_layout
from render.ticket_to_ride.strips import tile_box

NAMES = ["Alice", "山田太郎", "Bob", "Zoë", "Eve"]
SAME = style.card_rgb("red")
WHITE_MIN = 230  # every channel above this: the shape's white, not a car, window or the parchment


@pytest.fixture
def one_colour(monkeypatch):
    """Every seat in the same red; the cached claim patches are dropped before and after."""
    board_mod.claimed_patch.cache_clear()
    monkeypatch.setattr(style, "player_rgb", lambda seat: SAME)
    yield
    board_mod.claimed_patch.cache_clear()


@pytest.fixture(scope="module")
def five():
    """A five-player state in play, with a free red route whose middle car is far from every city."""
    rng = random.Random(4)
    state = GAME.setup(5, {}, 4)
    for _ in range(40):
        seat = min(GAME.active_players(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    assert state.phase == "play"
    layout = board_layout()
    routes = usa().routes

    def far_from_cities(route_id: int) -> bool:
        x, y = marked_car(route_id).center
        return all((x - cx) ** 2 + (y - cy) ** 2 > 45 ** 2 for cx, cy in layout.cities.values())

    route = next(r.id for r in routes
                 if r.color == "red" and state.owners[r.id] == UNCLAIMED and far_from_cities(r.id))
    return state, route


def _owned_by(state, route: int, seat: int):
    owners = list(state.owners)
    owners[route] = seat
    return GAME.view(state, None).model_copy(update={"owners": owners, "turn_route": None})


def _white(img: Image.Image, box) -> Image.Image:
    """255 where the crop is white (all channels above WHITE_MIN), else 0."""
    crop = img.crop(box)
    channels = [c.point(lambda v: 255 if v > WHITE_MIN else 0) for c in crop.split()]
    mask = ImageChops.multiply(ImageChops.multiply(channels[0], channels[1]), channels[2])
    return mask.point(lambda v: 255 if v else 0)


def _count(mask: Image.Image) -> int:
    return sum(mask.get_flattened_data()) // 255


def _reference(shape: str, size: tuple[int, int], centre, r: float, edge: int) -> Image.Image:
    """The kit's marker drawn alone: 255 inside its white fill, 0 elsewhere."""
    img = Image.new("L", size, 0)
    draw_marker(ImageDraw.Draw(img), shape, centre, r, fill=255, outline=0, width=edge)
    return img


def _overlap(a: Image.Image, b: Image.Image) -> float:
    both = _count(ImageChops.multiply(a, b))
    either = _count(ImageChops.lighter(a, b))
    return both / either if either else 0.0


def _closest_marker(mask: Image.Image, centre, r: float, edge: int) -> str:
    return max(TTR_SEATS, key=lambda shape: _overlap(mask, _reference(shape, mask.size, centre, r, edge)))


def test_the_middle_car_carries_the_owners_shape(one_colour, five):
    state, route = five
    cx, cy = marked_car(route).center
    half = round(OWNER_R * 1.6)
    box = (round(cx) - half, round(cy) - half + MAP_Y, round(cx) + half, round(cy) + half + MAP_Y)
    centre = (cx - box[0], cy + MAP_Y - box[1])
    masks = {}
    for seat in range(5):
        img = render_board(_owned_by(state, route, seat), NAMES, "en")
        masks[seat] = _white(img, box)
        # the claim's colour alone would not tell who owns it; the shape there does
        assert _count(masks[seat]) > OWNER_R ** 2 / 2, seat
        assert _closest_marker(masks[seat], centre, OWNER_R, OWNER_EDGE) == TTR_SEATS[seat], seat
    # and any two owners differ by more than a stray edge pixel (a circle and a square: the corners)
    for a in range(5):
        for b in range(a + 1, 5):
            assert _count(ImageChops.difference(masks[a], masks[b])) > 20, (a, b)


def test_an_unclaimed_route_carries_no_owner_shape(one_colour, five):
    state, route = five
    cx, cy = marked_car(route).center
    half = round(OWNER_R * 1.6)
    box = (round(cx) - half, round(cy) - half + MAP_Y, round(cx) + half, round(cy) + half + MAP_Y)
    view = GAME.view(state, None).model_copy(update={"turn_route": None})
    assert _count(_white(render_board(view, NAMES, "en"), box)) == 0


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_strip_shows_each_seats_shape(one_colour, five, lang):
    state, _ = five
    img = render_board(GAME.view(state, None), NAMES, lang)
    masks = []
    for i, player in enumerate(GAME.view(state, None).players):
        x0, y0, x1, y1 = tile_box(5, i)
        inset = 4  # inside the tile's rounded corners, where the white chip shows
        mask = _white(img, (x0 + inset, y0 + inset, x1 - inset, y1 - inset))
        centre = ((x1 - x0) / 2 - inset, (y1 - y0) / 2 - inset)
        r = min(x1 - x0, y1 - y0) * 0.33
        assert _count(mask) > r ** 2 / 2, i
        assert _closest_marker(mask, centre, r, max(2, round(r / 4))) == TTR_SEATS[player.seat], i
        masks.append(mask)
    # five seats, five different shapes beside the names
    assert len({m.tobytes() for m in masks}) == 5


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hand_header_shows_the_players_shape(one_colour, five, lang):
    from render.ticket_to_ride.hand import HEADER_H, MARK_R, MARK_X, PAD, render_hand

    state, _ = five
    half = round(MARK_R * 1.5)
    cy = PAD + HEADER_H / 2
    box = (round(MARK_X) - half, round(cy) - half, round(MARK_X) + half, round(cy) + half)
    for seat in (2, 4):
        img = render_hand(GAME.view(state, seat), NAMES, lang)
        mask = _white(img, box)
        assert _count(mask) > MARK_R ** 2 / 2
        assert _closest_marker(mask, (MARK_X - box[0], cy - box[1]), MARK_R, 3) == TTR_SEATS[seat]
