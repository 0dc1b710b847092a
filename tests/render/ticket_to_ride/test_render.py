"""Ticket to Ride images, drawn from views of real games (random legal play, fixed seeds).

Every test looks at real pixels: what must show, what must change, and what must never leak.
"""
from __future__ import annotations

import random

import pytest

from games.ticket_to_ride.models import UNCLAIMED, Claim
from games.ticket_to_ride.rules import GAME
from render import registry
from render.ticket_to_ride import board as board_mod
from render.ticket_to_ride import style
from render.ticket_to_ride.board import render_board
from render.ticket_to_ride.final import render_final
from render.ticket_to_ride.hand import render_hand
from render.ticket_to_ride.layout import BOARD_H, BOARD_W, MAP_H, MAP_W, MAP_Y, TOP_H, board_layout
from tests.support.render_checks import (assert_hand_refuses_a_spectator_view, assert_pngs,
                                         assert_static_layer_built_once_per_language, close, game_stage_fixtures, png)

NAMES = ["Alice", "山田太郎", "🚂Choo", "Zoë"]
PNG_LIMIT = 2 * 1024 * 1024


def played(seed: int, n: int = 4) -> list[tuple]:
    """A whole random game: [(state, seat, action, next_state), ...]."""
    rng = random.Random(seed)
    state = GAME.setup(n, {}, seed)
    steps = []
    while state.phase != "over":
        seat = min(GAME.active_players(state))
        actions = GAME.legal_actions(state, seat)
        claims = [a for a in actions if isinstance(a, Claim)]
        action = rng.choice(claims) if claims and rng.random() < 0.6 else rng.choice(actions)
        nxt = GAME.apply(state, seat, action).state
        steps.append((state, seat, action, nxt))
        state = nxt
    return steps


game, start, mid, end = game_stage_fixtures(lambda: played(seed=11), mid_phase="play")
MAP_BOX = (0, MAP_Y, MAP_W, MAP_Y + MAP_H)
TOP_BOX = (0, 0, BOARD_W, TOP_H)
BOTTOM_BOX = (0, MAP_Y + MAP_H, BOARD_W, BOARD_H)


def _on_board(xy) -> tuple[int, int]:
    """A map point where it lands on the board image (the map sits below the players' strip)."""
    return round(xy[0]), round(xy[1]) + MAP_Y


# --- the board --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("when", ["start", "mid", "end"])
def test_board_renders_at_every_stage(request, when, lang):
    state = request.getfixturevalue(when)
    img = render_board(GAME.view(state, None), NAMES, lang)
    assert img.size == (BOARD_W, BOARD_H) == (1400, 1236)
    assert img.mode == "RGB"
    # the map is not blank: many colours (routes, cities, text)
    assert len(img.crop(MAP_BOX).getcolors(1 << 20)) > 50


def test_claimed_route_takes_the_owners_colour(game):
    steps, _ = game
    before, seat, action, after = next(
        (s, seat, a, n) for s, seat, a, n in steps if isinstance(a, Claim) and seat != 0
    )
    route = action.route
    assert before.owners[route] == UNCLAIMED and after.owners[route] == seat
    img_before = render_board(GAME.view(before, None), NAMES, "en")
    img_after = render_board(GAME.view(after, None), NAMES, "en")
    owner = style.player_rgb(seat)
    marked = board_mod.marked_car(route)
    for car in board_layout().routes[route].cars:
        xy = _on_board(car.center)
        assert img_before.getpixel(xy) != img_after.getpixel(xy)
        if car is marked:  # its middle carries the owner's shape, in white
            assert img_after.getpixel(xy) == (255, 255, 255)
            continue
        assert close(img_after.getpixel(xy), owner, 12), (xy, img_after.getpixel(xy), owner)
    # nothing else on the map changed colour to the owner's: only that route was added
    other = next(r for r in board_layout().routes if after.owners[r.route_id] == UNCLAIMED)
    xy = _on_board(other.cars[0].center)
    assert img_before.getpixel(xy) == img_after.getpixel(xy)


def test_claimed_and_unclaimed_cars_look_different(game):
    """A route claimed by a player whose colour equals the route's colour still reads as claimed."""
    _, states = game
    end = states[-1]
    layout = board_layout()
    img = render_board(GAME.view(end, None), NAMES, "en")
    claimed = next(r for r in layout.routes if end.owners[r.route_id] != UNCLAIMED)
    unclaimed = next(r for r in layout.routes if end.owners[r.route_id] == UNCLAIMED)

    def dark_ring(shape) -> int:
        """Dark outline pixels just inside the claimed footprint of the first car."""
        xs = [x for x, _ in shape.claimed[0]]
        ys = [y for _, y in shape.claimed[0]]
        box = (int(min(xs)), int(min(ys)) + MAP_Y, int(max(xs)) + 1, int(max(ys)) + 1 + MAP_Y)
        crop = img.crop(box)
        return sum(1 for px in crop.get_flattened_data() if max(px) < 60)

    assert dark_ring(claimed) > 2 * dark_ring(unclaimed) + 10


def _chip(view, seat: int) -> tuple[int, int, int, int]:
    w = BOARD_W / view.n
    return (round(seat * w) + 14, 10, round((seat + 1) * w) - 14, TOP_H - 14)


def test_players_strip_shows_whose_turn(mid):
    view = GAME.view(mid, None)
    other = (view.current + 1) % view.n
    a = render_board(view, NAMES, "en")
    b = render_board(view.model_copy(update={"current": other, "active": [other]}), NAMES, "en")
    assert a.crop(MAP_BOX).tobytes() == b.crop(MAP_BOX).tobytes()
    assert a.crop(TOP_BOX).tobytes() != b.crop(TOP_BOX).tobytes()

    def dark(img, box) -> int:  # the waited-on player's chip is ringed in near-black, with an arrow
        return sum(1 for px in img.crop(box).get_flattened_data() if max(px) < 50)

    assert dark(a, _chip(view, view.current)) > dark(b, _chip(view, view.current)) + 200
    assert dark(b, _chip(view, other)) > dark(a, _chip(view, other)) + 200


def test_final_round_banner(mid):
    view = GAME.view(mid, None)
    plain = render_board(view, NAMES, "en")
    final = render_board(view.model_copy(update={"final_round": True, "turns_left": 3}), NAMES, "en")
    side = BOTTOM_BOX
    assert plain.crop(side).tobytes() != final.crop(side).tobytes()
    red = style.FINAL_BG
    assert any(close(px, red, 6) for px in final.crop(side).get_flattened_data())
    assert not any(close(px, red, 6) for px in plain.crop(side).get_flattened_data())


def _swap_hidden_card(state, seat: int):
    """The same state except that one card in `seat`'s hand has another colour."""
    other = state.clone()
    hand = other.players[seat].hand
    src = next(i for i, k in enumerate(hand) if k > 0)
    dst = (src + 1) % len(hand)
    hand[src] -= 1
    hand[dst] += 1
    return other


def test_spectator_board_cannot_show_a_hand(mid):
    seat = 1
    other = _swap_hidden_card(mid, seat)
    public_a, public_b = GAME.view(mid, None), GAME.view(other, None)
    assert public_a.players[seat].hand is None
    assert png(render_board(public_a, NAMES, "en")) == png(render_board(public_b, NAMES, "en"))
    # the board uses only public fields: a player's own view draws exactly the public board
    private = GAME.view(mid, seat)
    assert private.players[seat].hand is not None
    assert png(render_board(private, NAMES, "en")) == png(render_board(public_a, NAMES, "en"))


def test_japanese_and_emoji_names(mid):
    view = GAME.view(mid, None)
    plain = ["Alice", "山田太郎", "XChoo", "Zoë"]
    img = render_board(view, NAMES, "ja")
    ref = render_board(view, plain, "ja")
    # compare only the players' strip, where names are written
    side = TOP_BOX
    a, b = img.crop(side), ref.crop(side)
    assert a.tobytes() != b.tobytes()
    changed = [pa for pa, pb in zip(a.get_flattened_data(), b.get_flattened_data()) if pa != pb]
    colourful = [p for p in changed if max(p) - min(p) > 90]
    assert len(colourful) > 20, "the emoji should be drawn in colour, not as a box or in black"
    # the Japanese name is drawn: the strip with 山田太郎 differs from one with another name
    other = render_board(view, ["Alice", "Yamada", "🚂Choo", "Zoë"], "ja")
    assert other.crop(side).tobytes() != a.tobytes()


# --- the hand -----------------------------------------------------------------------------------------------
def test_hand_image_changes_with_the_hand(mid):
    seat = 1
    other = _swap_hidden_card(mid, seat)
    a = render_hand(GAME.view(mid, seat), NAMES, "en")
    b = render_hand(GAME.view(other, seat), NAMES, "en")
    assert 900 <= a.width <= 1100
    assert a.tobytes() != b.tobytes()


def test_hand_refuses_a_spectator_view(mid):
    assert_hand_refuses_a_spectator_view(GAME, render_hand, mid, NAMES)


def test_hand_shows_offered_tickets(game):
    _, states = game
    state = next(s for s in states if s.phase == "play" and s.players[s.current].offered)
    seat = state.current
    view = GAME.view(state, seat)
    with_offer = render_hand(view, NAMES, "en")
    players = list(view.players)
    players[seat] = players[seat].model_copy(update={"offered": [], "keep_min": 0})
    without = render_hand(view.model_copy(update={"players": players}), NAMES, "en")
    assert with_offer.height > without.height

    def amber(img) -> int:  # the offer's title, frames and letter badges are amber
        return sum(1 for px in img.get_flattened_data() if close(px, style.CHOOSING_BG, 10))

    assert amber(with_offer) > amber(without) + 2000


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hand_at_the_start_and_the_end(start, end, lang):
    for state in (start, end):
        for seat in range(state.n):
            img = render_hand(GAME.view(state, seat), NAMES, lang)
            assert img.width == 1000 and img.height > 300


# --- the end ---------------------------------------------------------------------------------------------------
def test_final_image_with_negative_tickets(end):
    view = GAME.view(end, None)
    assert view.result is not None
    negative = [line for p in view.result.players for line in p.lines if line.points < 0]
    assert negative, "this seed should leave someone with a failed ticket"
    for lang in ("en", "ja"):
        img = render_final(view, NAMES, lang)
        assert img.width >= 800 and img.height >= 600
        colours = {px for px in img.get_flattened_data()}
        for p in view.result.players:  # every player appears in their colour
            assert any(close(c, style.player_rgb(p.seat), 6) for c in colours)


def test_final_refuses_a_running_game(mid):
    with pytest.raises(ValueError):
        render_final(GAME.view(mid, None), NAMES, "en")


# --- registry, caching, size ---------------------------------------------------------------------------------------
def test_registry_renders_png_under_2mb(mid, end):
    r = registry.get("ticket_to_ride")
    assert_pngs([
        (r.board(GAME.view(end, None), NAMES, "ja"), (BOARD_W, BOARD_H)),
        (r.hand(GAME.view(mid, 0), NAMES, "en"), None),
        (r.final(GAME.view(end, None), NAMES, "en"), None),
    ], PNG_LIMIT)
    assert r.board_image(GAME.view(mid, None), NAMES, "en").size == (BOARD_W, BOARD_H)
    with pytest.raises(registry.UnknownRenderer):
        registry.get("no_such_game")


def test_static_layer_is_built_once_per_language(mid):
    assert_static_layer_built_once_per_language(board_mod, GAME, mid, NAMES)


def test_two_player_game_closes_the_other_half_of_a_double():
    """With 2-3 players one half of a double route is all there is: the other one fades."""
    from games.ticket_to_ride.map import usa

    twin = usa().twin
    steps = played(seed=6, n=2)
    before, seat, action, after = next(
        (s, seat, a, n) for s, seat, a, n in steps if isinstance(a, Claim) and a.route in twin
    )
    other = twin[action.route]
    a = render_board(GAME.view(before, None), ["A", "B"], "en")
    # without the last-turn ring, whose halo would also cover the twin next to the claim
    b = render_board(GAME.view(after, None).model_copy(update={"turn_route": None}), ["A", "B"], "en")
    xy = _on_board(board_layout().routes[other].cars[0].center)

    def distance_to_map(px) -> int:
        return sum(abs(c - m) for c, m in zip(px, style.MAP_BG))

    assert distance_to_map(b.getpixel(xy)) < distance_to_map(a.getpixel(xy)) / 2
    # with four players the other half stays open
    four = next((s, a, n) for s, _, a, n in played(seed=11) if isinstance(a, Claim) and a.route in twin)
    c = render_board(GAME.view(four[0], None), NAMES, "en")
    d = render_board(GAME.view(four[2], None).model_copy(update={"turn_route": None}), NAMES, "en")
    xy = _on_board(board_layout().routes[twin[four[1].route]].cars[0].center)
    assert c.getpixel(xy) == d.getpixel(xy)


def test_card_colours_are_distinct_and_take_readable_text():
    from render.kit import palette
    from render.ticket_to_ride.style import CARD_COLORS

    assert {"red", "orange", "yellow", "green", "blue", "pink", "white", "black", "locomotive", "gray"} <= set(CARD_COLORS)
    assert len(set(CARD_COLORS.values())) == len(CARD_COLORS)
    for rgb in CARD_COLORS.values():
        assert palette.contrast_ratio(rgb, palette.contrast_text(rgb)) >= 3.5, rgb
