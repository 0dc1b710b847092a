"""Ticket to Ride pictures for players who see them small, or not in colour, or not at all:
the last turn on the map and in the strip, symbols besides colours, type that reads at
400 px, alt text, and a final image that tells the game's story."""
from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image

from games.core.i18n import translate
from games.ticket_to_ride.rules import GAME
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes
from render.kit.vision import problems
from render.ticket_to_ride import RENDERER, icons, style
from render.ticket_to_ride.board import render_board, static_map
from render.ticket_to_ride.final import render_final
from render.ticket_to_ride.hand import render_hand
from render.ticket_to_ride.layout import BOARD_H, BOARD_W, MAP_H, MAP_W, MAP_Y, board_layout
from tests.support.bot_games import bot_states

NAMES = ["Alice", "山田太郎", "Bob", "Zoë"]
MAP_BOX = (0, MAP_Y, MAP_W, MAP_Y + MAP_H)
BOTTOM_BOX = (0, MAP_Y + MAP_H, BOARD_W, BOARD_H)


def _play(seed: int, n: int = 4):
    return bot_states(GAME, n, seed, "planner")


@pytest.fixture(scope="module")
def states():
    return _play(21)


@pytest.fixture(scope="module")
def claimed(states):
    return next(s for s in states[len(states) // 3:] if s.turn_route is not None and s.phase == "play")


@pytest.fixture(scope="module")
def two_cards(states):
    return next(s for s in states if len(s.turn_cards) == 2 and "deck" in s.turn_cards)


# --- the last turn ------------------------------------------------------------------------------------------
def test_the_route_just_claimed_is_ringed(claimed):
    view = GAME.view(claimed, None)
    ringed = render_board(view, NAMES, "en")
    plain = render_board(view.model_copy(update={"turn_route": None}), NAMES, "en")
    shape = board_layout().routes[view.turn_route]
    xs = [x for poly in shape.claimed for x, _ in poly]
    ys = [y for poly in shape.claimed for _, y in poly]
    box = (int(min(xs)) - 20, int(min(ys)) - 20 + MAP_Y, int(max(xs)) + 20, int(max(ys)) + 20 + MAP_Y)
    a, b = ringed.crop(box).get_flattened_data(), plain.crop(box).get_flattened_data()
    changed = [pa for pa, pb in zip(a, b) if pa != pb]
    assert sum(1 for p in changed if min(p) > 245) > 150  # the white band
    assert sum(1 for p in changed if max(p) < 40) > 150  # and its dark edge
    # the ring is local: far from the route the map is untouched
    far = (0, MAP_Y, MAP_W, MAP_Y + MAP_H)
    diff = sum(1 for pa, pb in zip(ringed.crop(far).get_flattened_data(), plain.crop(far).get_flattened_data())
               if pa != pb)
    assert diff < 0.05 * MAP_W * MAP_H


def test_both_cards_of_a_draw_are_shown_and_told(two_cards):
    view = GAME.view(two_cards, None)
    with recording_text_sizes() as drawn:
        img = render_board(view, NAMES, "en")
    texts = " ".join(t for _, t in drawn.drawn)
    events = [translate("en", e.key, e.params, NAMES) for e in view.turn_log]
    assert len(events) >= 2
    for event in events[:2]:
        assert event.split()[-1].rstrip(".") in texts
    without = render_board(view.model_copy(update={"turn_cards": []}), NAMES, "en")
    assert img.crop(BOTTOM_BOX).tobytes() != without.crop(BOTTOM_BOX).tobytes()
    backs = sum(1 for p in img.crop(BOTTOM_BOX).get_flattened_data() if p == style.CARD_BACK)
    assert backs > 1000  # the card from the deck is shown face down


# --- not colour alone -----------------------------------------------------------------------------------------
COLOURS = ["red", "orange", "yellow", "green", "blue", "pink", "white", "black", "locomotive"]


def _ink_mask(colour: str, lang: str) -> bytes:
    """Where a card's letter and shape are (anything far from the card's own colour)."""
    img = Image.new("RGB", (90, 120), (255, 255, 255))
    icons.lettered_card(img, (0, 0, 89, 119), colour, lang, 34)
    base = style.card_rgb(colour)
    inner = img.crop((12, 20, 78, 100))
    return bytes(1 if sum(abs(a - b) for a, b in zip(p, base)) > 150 else 0 for p in inner.get_flattened_data())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_card_colour_has_its_own_letter_and_shape(lang):
    masks = {c: _ink_mask(c, lang) for c in COLOURS}
    for c, mask in masks.items():
        assert sum(mask) > 60, c
    for a, b in combinations(COLOURS, 2):
        assert masks[a] != masks[b], (a, b)


def test_coloured_route_spaces_carry_their_shape():
    from games.ticket_to_ride.map import usa

    img = static_map("en").image
    layout = board_layout()

    def ink(route) -> int:
        car = layout.routes[route.id].cars[0]
        x, y = car.center
        fill = style.route_rgb(route.color)[0]
        crop = img.crop((int(x) - 3, int(y) - 3, int(x) + 4, int(y) + 4))
        return sum(1 for p in crop.get_flattened_data() if sum(abs(a - b) for a, b in zip(p, fill)) > 120)

    routes = usa().routes
    assert all(ink(r) >= 2 for r in routes if r.color not in ("gray",)), "a coloured space without its shape"
    gray = [ink(r) for r in routes if r.color == "gray"]
    assert sum(1 for k in gray if k == 0) > 0.8 * len(gray)  # plain spaces are plain (bar a name's edge)


def test_palette_passes_the_colour_vision_check():
    assert len(RENDERER.palette.players) == GAME.max_players
    assert problems(RENDERER.palette) == []


# --- legible at 400 px --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_text_reads_at_400_px(states, claimed, lang):
    end = states[-1]
    images = {
        "board": lambda: render_board(GAME.view(claimed, None), NAMES, lang),
        "board-end": lambda: render_board(GAME.view(end, None), NAMES, lang),
        "hand": lambda: render_hand(GAME.view(claimed, 1), NAMES, lang),
        "final": lambda: render_final(GAME.view(end, None), NAMES, lang),
    }
    for name, draw in images.items():
        with recording_text_sizes() as drawn:
            img = draw()
        size, text = drawn.smallest()
        assert size * 400 / img.width >= MIN_TEXT_PX_AT_400, (name, size, text, img.width)


# --- alt text -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_board_alt_text_says_whose_turn_the_scores_and_the_last_turn(claimed, lang):
    view = GAME.view(claimed, None)
    text = RENDERER.describe_board(view, NAMES, lang)
    assert 0 < len(text) <= 1024
    assert NAMES[view.current] in text
    for p in view.players:
        assert f"{NAMES[p.seat]} {p.route_points}" in text
    claim = next(e for e in view.turn_log if e.key == "ticket_to_ride.ev.claimed")
    assert translate(lang, claim.key, claim.params, NAMES) in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hand_and_final_alt_text(states, claimed, lang):
    seat = 2
    view = GAME.view(claimed, seat)
    hand = RENDERER.describe_hand(view, NAMES, lang)
    assert 0 < len(hand) <= 1024 and NAMES[seat] in hand
    for colour, count in view.players[seat].hand.items():
        if count:
            assert translate(lang, f"ticket_to_ride.color.{colour}") in hand
    end = GAME.view(states[-1], None)
    final = RENDERER.describe_final(end, NAMES, lang)
    assert 0 < len(final) <= 1024
    order = [final.index(NAMES[row.seat]) for row in end.result.players]
    assert order == sorted(order)  # in ranking order
    for row in end.result.players:
        assert str(row.total) in final


def test_alt_text_stays_under_discords_limit_with_long_names(states):
    names = ["N" * 80 + str(i) for i in range(4)]
    for state in states[::25] + [states[-1]]:
        view = GAME.view(state, None)
        for lang in ("en", "ja"):
            assert len(RENDERER.describe_board(view, names, lang)) <= 1024
            if view.result:
                assert len(RENDERER.describe_final(view, names, lang)) <= 1024


# --- the final image ------------------------------------------------------------------------------------------------
def test_final_image_tells_the_story(states):
    view = GAME.view(states[-1], None)
    with recording_text_sizes() as drawn:
        img = render_final(view, NAMES, "en")
    texts = [t for _, t in drawn.drawn]
    tickets = [t for p in view.players for t in (p.tickets or [])]
    assert any(t.completed for t in tickets)
    for t in tickets:  # every ticket, ✓ or ×, with its points
        mark = "✓" if t.completed else "×"
        points = t.points if t.completed else -t.points
        assert any(x.startswith(mark) and x.endswith(style.signed(points)) for x in texts), t
    assert translate("en", "ticket_to_ride.render.score_over_time") in texts  # the chart
    # the longest path is ringed on the small map: without it the image differs
    players = [p.model_copy(update={"longest_routes": []}) for p in view.players]
    plain = render_final(view.model_copy(update={"players": players}), NAMES, "en")
    assert img.tobytes() != plain.tobytes()


def test_the_end_board_rings_the_longest_path(states):
    view = GAME.view(states[-1], None)
    players = [p.model_copy(update={"longest_routes": []}) for p in view.players]
    a = render_board(view, NAMES, "en")
    b = render_board(view.model_copy(update={"players": players}), NAMES, "en")
    assert a.crop(MAP_BOX).tobytes() != b.crop(MAP_BOX).tobytes()


def test_the_hands_map_names_still_read_once_shrunk():
    """The hand shows the board's map scaled down: its city names must survive the scaling."""
    from render.ticket_to_ride import hand
    from render.ticket_to_ride.board import LABEL_SIZE

    shown = LABEL_SIZE * hand.MAP_WIDTH / MAP_W
    assert shown * 400 / hand.WIDTH >= MIN_TEXT_PX_AT_400
