"""Catan Express images, drawn from positions of real games (random legal play, fixed seeds) on
the 3–4 and 5–6 player boards and both island maps: sizes, legible text, colours every reader
can tell apart, pieces and the last move drawn where they are, hands that never reach the public
board, and alt text in both languages.

The random player prefers building, buying and riding, so boards fill up quickly; it is only
here to reach early, busy and finished positions, not to play well.
"""
from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from games.catan_express.components import components
from games.catan_express.models import Building, CatanState
from games.catan_express.rules import GAME
from games.core.i18n import translate
from render.catan_express import PALETTE, RENDERER, style
from render.catan_express import board as board_mod
from render.catan_express.alt import describe_board, describe_final, describe_hand
from render.catan_express.board import places_of, render_board
from render.catan_express.final import render_final
from render.catan_express.hand import WIDTH as HAND_W, render_hand
from render.catan_express.layout import map_layout
from render.catan_express.sizes import BOARD_W
from render.kit.encode import quantize_keeping, to_png
from render.kit.highlight import HALO_LIGHT
from render.kit.legibility import MIN_TEXT_PX_AT_400, recording_text_sizes, smallest_at
from render.kit.vision import problems

NAMES = ["Alexandra", "山田太郎", "Bob", "佐々木 みなみ", "Christopher", "Eve"]
ROOT = Path(__file__).resolve().parents[3]
MAX_MOVES = 8000


@lru_cache(maxsize=None)
def played(n: int, map_: str, layout: str, seed: int) -> tuple[CatanState, ...]:
    state = GAME.setup(n, {"map": map_, "layout": layout}, seed)
    rng = random.Random(seed)
    states = [state]
    for _ in range(MAX_MOVES):
        if state.phase == "over":
            break
        seat = min(GAME.active_players(state))
        legal = GAME.legal_actions(state, seat)
        busy = [a for a in legal if a.kind in ("build", "buy", "ride", "stop")]
        action = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)
        state = GAME.apply(state, seat, action).state
        states.append(state)
    return tuple(states)


def early(states) -> CatanState:
    """The first position after setup (everyone has placed, nobody has rolled)."""
    return next(s for s in states if s.phase == "roll")


def late(states) -> CatanState:
    """The busiest position before the end: most pieces, then most stops."""
    return max((s for s in states if s.phase != "over"), key=lambda s: (len(s.pieces), len(s.stops), s.turn))


GAMES = [(3, "main", "beginner", 4), (4, "main", "random", 1), (5, "main", "random", 7), (6, "main", "random", 2),
         (4, "islands", "random", 3), (6, "islands", "random", 5)]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}p-{g[1]}-{g[2]}")
def game(request):
    return played(*request.param)


@pytest.fixture(scope="module")
def four():
    return played(4, "main", "random", 1)


def _changed(a: Image.Image, b: Image.Image) -> int:
    """How many pixels differ between two images of one size."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return diff.point(lambda v: 255 if v else 0).histogram()[255]


def _near(px, colour, tol: int = 14) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px[:3], colour[:3]))


# --- every map, count and stage ------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_boards_hands_and_final_render_for_every_map_and_count(game, lang):
    n = game[0].n
    names = NAMES[:n]
    ml = map_layout(game[0].map_id)
    first, busy = early(game), late(game)
    for state in (first, busy):
        img = render_board(GAME.view(state, None), names, lang)
        assert img.size[0] == BOARD_W and img.height > ml.size[1] + 300 and img.mode == "RGB"
        for seat in range(n):
            hand = render_hand(GAME.view(state, seat), names, lang)
            assert hand.width == HAND_W and hand.height > 400
    a = render_board(GAME.view(first, None), names, lang).crop((0, 0, *ml.size))
    b = render_board(GAME.view(busy, None), names, lang).crop((0, 0, *ml.size))
    assert _changed(a, b) > 0.01 * ml.size[0] * ml.size[1]  # the pieces built since setup show
    if game[-1].phase == "over":
        final = render_final(GAME.view(game[-1], None), names, lang)
        assert final.width == 1100 and final.height > 500


def test_the_three_maps_have_their_own_shapes():
    sizes = {m: map_layout(m).size for m in ("standard", "large", "islands", "islands_large")}
    assert all(w == BOARD_W for w, _ in sizes.values())
    # the 5-6 player board has more rows than the 3-4 player board in the same width
    assert sizes["large"][1] > sizes["standard"][1]
    assert sizes["islands"] != sizes["standard"] and sizes["islands_large"] != sizes["large"]


def test_the_png_twins_encode(four):
    img = render_board(GAME.view(late(four), None), NAMES[:4], "en")
    png = to_png(quantize_keeping(img, RENDERER.keep_colours))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and 20_000 < len(png) < 600_000
    assert RENDERER.palette_png


# --- legibility ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("kind", ["board", "hand", "final"])
def test_every_text_is_legible_at_400px(kind, lang):
    states = played(6, "islands", "random", 5) if kind != "final" else played(4, "main", "random", 1)
    busy = late(states)
    with recording_text_sizes() as sizes:
        if kind == "board":
            img = render_board(GAME.view(busy, None), NAMES, lang)
        elif kind == "hand":
            img = render_hand(GAME.view(busy, busy.current), NAMES, lang)
        else:
            img = render_final(GAME.view(states[-1], None), NAMES[:4], lang)
    size, text = sizes.smallest()
    assert smallest_at(size, img.width) >= MIN_TEXT_PX_AT_400, f"{kind} {lang}: {text!r} is {size} px"


HAND_NAMES = ["Christopher Montgomery", "佐々木 みなみ", "Bob", "山田太郎"]


def _busy_hand(hand=(3, 11, 5, 2, 7), dev=(2, 1, 1, 1, 1), dev_new=(1, 0, 1, 0, 0)) -> CatanState:
    """A late position of a real game with the viewer (seat 0) holding all five resources and
    every kind of development card, some bought this turn."""
    s = late(played(4, "main", "random", 1)).clone()
    p = s.players[0]
    p.hand, p.dev, p.dev_new = list(hand), list(dev), list(dev_new)
    return s


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_busy_hand_reads_comfortably_on_a_phone(lang):
    """Shown 400 px wide (Discord on a phone) the smallest text of a busy hand is at least 9 px,
    the name and the card counts larger; nothing is cut short with "…" nor drawn into the margin."""
    s = _busy_hand()
    for seat, names in ((0, HAND_NAMES), (0, HAND_NAMES[1:] + HAND_NAMES[:1])):  # a long Latin and a Japanese name
        with recording_text_sizes() as sizes:
            img = render_hand(GAME.view(s, seat), names, lang)
        size, text = sizes.smallest()
        assert smallest_at(size, img.width) >= 9, f"{lang}: {text!r} is {size} px on {img.width} px"
        cut = [t for _, t in sizes.drawn if t.endswith("…")]
        assert cut == [], cut
        drawn = dict((t, sz) for sz, t in sizes.drawn)
        assert smallest_at(drawn[names[seat]], img.width) >= 15
        for count in s.players[seat].hand:
            assert smallest_at(drawn[str(count)], img.width) >= 12
        # The margins stay empty: no card badge, chip or word runs over the image's edge.
        margin = 14
        for box in ((img.width - margin, 0, img.width, img.height), (0, img.height - margin, img.width, img.height),
                    (0, 0, margin, img.height), (0, 0, img.width, margin)):
            colours = img.crop(box).getcolors(1 << 16)
            assert colours is not None and [c for _, c in colours] == [style.PANEL_BG], box


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hand_shows_all_it_knows_in_words(lang):
    """Name, points, the five resources, each development card held (playable and bought this
    turn), each build with its pieces left and every resource of its cost written on its chip
    (so no cost is told by colour alone), and the knights, VP cards, chips and towers."""
    s = _busy_hand(dev=(2, 0, 1, 0, 3), dev_new=(0, 1, 1, 0, 0))
    p = s.players[0]
    p.knights, p.vp_cards = 4, 1
    with recording_text_sizes() as sizes:
        render_hand(GAME.view(s, 0), HAND_NAMES, lang)
    drawn = {t for _, t in sizes.drawn}
    view = GAME.view(s, 0)
    wanted = {HAND_NAMES[0], translate(lang, "catan_express.render.hand.points", {"points": view.seats[0].points}),
              translate(lang, "catan_express.render.hand.resources", {"count": sum(p.hand)}),
              translate(lang, "catan_express.render.hand.development", {"count": 8}),
              translate(lang, "catan_express.render.hand.dev_note"), "4", "1"}
    wanted |= {translate(lang, f"catan_express.resource.{r}") for r in ("lumber", "brick", "wool", "grain", "ore")}
    for kind, playable, new in (("knight", 2, 0), ("victory_point", 0, 1), ("road_building", 1, 1),
                                ("monopoly", 3, 0)):
        wanted |= {translate(lang, f"catan_express.card.{kind}"), translate(lang, "catan_express.render.hand.dev_playable",
                                                                 {"playable": playable})}
        if new:
            wanted.add(translate(lang, "catan_express.render.hand.dev_bought", {"new": new}))
    assert translate(lang, "catan_express.card.year_of_plenty") not in drawn  # none held: no row
    per = components().pieces_per_player
    built = {"settlement": view.seats[0].settlements, "city": view.seats[0].cities, "rail": view.seats[0].rails,
             "ferry": view.seats[0].ferries}
    for item in ("settlement", "city", "rail", "ferry"):
        wanted.add(translate(lang, f"catan_express.render.hand.left.{item}", {"left": per[item] - built[item]}))
    wanted.add(translate(lang, "catan_express.render.item.development_card"))
    for item in ("settlement", "city", "rail", "ferry", "development_card"):
        wanted |= {translate(lang, f"catan_express.cards.{r.value}", {"count": n}) for r, n in components().cost(item).items()}
    assert wanted - drawn == set()
    # a stat's label is drawn whole, on one line or (a long term) two
    for key in ("knights", "vp_cards", "chips", "towers"):
        label = translate(lang, f"catan_express.render.hand.stat.{key}")
        assert label in drawn or any(a + b == label for a in drawn for b in drawn), label


def test_a_tick_disc_marks_each_build_the_hand_can_pay_for():
    """Five filled discs for a hand that pays for everything, none for a hand that pays for
    nothing, one for a hand that pays only for a rail (1 lumber + 1 ore)."""
    from render.catan_express.hand import CAN_PAY

    def discs(hand) -> int:
        img = render_hand(GAME.view(_busy_hand(hand=hand), 0), HAND_NAMES, "en")
        return next((n for n, colour in img.getcolors(1 << 16) if colour == CAN_PAY), 0)

    rich, poor, rail = discs((4, 4, 4, 4, 4)), discs((0, 1, 0, 1, 0)), discs((1, 0, 0, 0, 1))
    assert poor == 0 and rich > 5 * 300
    assert abs(rail * 5 - rich) <= rich * 0.05


# --- colours -------------------------------------------------------------------------------------
def test_palette_passes_the_colour_vision_check():
    assert len(PALETTE.players) == GAME.max_players == 6
    assert {*style.TERRAIN.values(), style.SEA, style.PANEL_BG} <= set(PALETTE.surfaces.values())
    assert len(PALETTE.categories) >= len(GAME.result(played(4, "main", "random", 1)[-1]).categories)
    assert problems(PALETTE) == []


def test_each_seat_has_its_own_shape():
    assert len({style.player_marker(s) for s in range(6)}) == 6


# --- hidden information --------------------------------------------------------------------------
def test_a_hidden_hand_is_never_drawn_on_the_public_board(four):
    state = late(four)
    public = render_board(GAME.view(state, None), NAMES[:4], "en")
    for seat in range(4):  # a player's own view draws the same public board
        assert render_board(GAME.view(state, seat), NAMES[:4], "en").tobytes() == public.tobytes()
    other = state.clone()  # other cards held, same counts: nothing on the board may change
    for p in other.players:
        total = sum(p.hand)
        p.hand = [total, 0, 0, 0, 0]
        p.dev = [0, 0, 0, 0, p.dev_cards]
        p.dev_new = [0] * 5
    assert render_board(GAME.view(other, None), NAMES[:4], "en").tobytes() == public.tobytes()
    assert describe_board(GAME.view(other, 1), NAMES[:4], "en") == describe_board(GAME.view(state, 2), NAMES[:4], "en")


def test_a_hand_shows_only_its_own_cards_and_refuses_a_spectator(four):
    state = late(four).clone()
    seat = 1
    mine = render_hand(GAME.view(state, seat), NAMES[:4], "en")
    for i, p in enumerate(state.players):
        if i != seat:
            p.hand = [7, 0, 0, 0, 3]
    assert render_hand(GAME.view(state, seat), NAMES[:4], "en").tobytes() == mine.tobytes()
    state.players[seat].hand = [3, 2, 1, 0, 4]
    changed = render_hand(GAME.view(state, seat), NAMES[:4], "en")
    assert changed.tobytes() != mine.tobytes()
    with pytest.raises(ValueError):
        render_hand(GAME.view(state, None), NAMES[:4], "en")
    assert describe_hand(GAME.view(state, None), NAMES[:4], "en") == ""


# --- pieces where they are -----------------------------------------------------------------------
def _handmade(four) -> CatanState:
    """The first position of a real game with pieces, buildings and a race set by hand."""
    s = early(four).clone()
    s.pieces = {}
    s.buildings = {}
    s.last_build, s.last_ride, s.stops = [], [], []
    for p in s.players:
        p.loco = None
    return s


def test_parallel_rails_lie_side_by_side_in_their_owners_colours(four):
    s = _handmade(four)
    view = GAME.view(s, None)
    pl = places_of(view)
    spoke = next(name for name in pl.geo.pieces if pl.kind(name) == "rail")
    s.pieces = {spoke: [0, 1]}
    img = render_board(GAME.view(s, None), NAMES[:4], "en")
    (ax, ay), (bx, by) = pl.piece_ends(spoke)
    mx, my = ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3  # clear of the token at the centre
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length
    pitch = (board_mod.rail_width(pl.ml) + 4) * 0.92
    found = set()
    for sign, seat in ((-1, 0), (1, 1)):
        x, y = mx + sign * nx * pitch / 2, my + sign * ny * pitch / 2
        if _near(img.getpixel((round(x), round(y))), style.player_rgb(seat), 30):
            found.add(seat)
    assert found == {0, 1}


def test_buildings_carry_their_number_colour_and_the_last_build_is_ringed(four):
    s = _handmade(four)
    s.buildings = {12: Building(seat=2, kind="settlement"), 20: Building(seat=0, kind="city")}
    plain = render_board(GAME.view(s, None), NAMES[:4], "en")
    pl = places_of(GAME.view(s, None))
    x, y = pl.xy(12)
    r = board_mod.building_radius()
    colours = [plain.getpixel((round(x + dx), round(y + r * 0.55))) for dx in (-r * 0.6, r * 0.6)]
    assert all(_near(c, style.player_rgb(2), 30) for c in colours)
    s.last_build = ["12"]
    ringed = render_board(GAME.view(s, None), NAMES[:4], "en")
    ring = board_mod.POINT_R * 1.9
    box = (round(x - ring - 16), round(y - ring - 16), round(x + ring + 16), round(y + ring + 16))

    def whites(img: Image.Image) -> int:
        return _changed(img.crop(box), Image.new("RGB", (box[2] - box[0], box[3] - box[1]), HALO_LIGHT)) * -1 \
            + (box[2] - box[0]) * (box[3] - box[1])

    assert whites(ringed) > whites(plain) + 100


def test_stops_towers_locomotives_and_the_ride_are_drawn(four):
    s = _handmade(four)
    s.buildings = {12: Building(seat=2, kind="settlement")}
    s.race, s.starter, s.stops = True, 2, [12]
    s.players[0].towers = [12]
    view = GAME.view(s, None)
    pl = places_of(view)
    x, y = pl.xy(12)
    without = render_board(view, NAMES[:4], "en")
    r = board_mod.building_radius() + 8
    assert _near(without.getpixel((round(x + r - 2), round(y))), style.STOP, 40)
    # the towers still standing: seats 1, 2, 3 (seat 0 collected its own)
    assert board_mod.towers_left(s, 12) == [1, 2, 3]
    s.players[3].loco = "12"
    s.last_ride = ["12", str(next(iter(pl.geo.land_of[12])))]
    with_loco = render_board(GAME.view(s, None), NAMES[:4], "en")
    assert _changed(without, with_loco) > 400
    text = describe_board(GAME.view(s, None), NAMES[:4], "en")
    assert "12" in text and "Bob" in text and "Stop 1" in text


# --- the quick way draws what the plain way draws ------------------------------------------------
def _busy_by_hand(four) -> CatanState:
    """A late position with the last move at its busiest: three owners side by side on one spoke,
    a ferry, a settlement just built and ringed, a ride across the map."""
    s = late(four).clone()
    pl = places_of(GAME.view(s, None))
    spoke = next(name for name in pl.geo.pieces if pl.kind(name) == "rail" and name not in s.pieces)
    ferry = next((name for name in pl.geo.pieces if pl.kind(name) == "ferry"), None)
    s.pieces = {**s.pieces, spoke: [0, 1, 3]}
    if ferry is not None:
        s.pieces[ferry] = [2]
    free = next(n for n in pl.geo.intersections if n not in s.buildings)
    s.buildings = {**s.buildings, free: Building(seat=1, kind="settlement")}
    s.last_build = [spoke, str(free)] + ([ferry] if ferry else [])
    s.last_ride = [str(n) for n in sorted(pl.geo.intersections)[::7][:6]]
    return s


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_quick_board_has_the_plain_boards_pixels(lang):
    """Shrinking only the bands the track touches, the remembered text masks and the cached key
    give the same pixels as shrinking the whole map and drawing every word afresh."""
    cases = [(4, "main", "random", 1), (3, "main", "beginner", 4), (6, "islands", "random", 5)]
    for n, *rest in cases:
        states = played(n, *rest)
        for state in (early(states), states[len(states) // 2], late(states), states[-1]):
            view = GAME.view(state, None)
            plain = render_board(view, NAMES[:n], lang, quick=False)
            twice = [render_board(view, NAMES[:n], lang) for _ in range(2)]  # built, then from the caches
            assert plain.size == twice[0].size
            assert _changed(plain, twice[0]) == 0 and _changed(plain, twice[1]) == 0, (n, rest, state.turn)
    s = _busy_by_hand(played(4, "main", "random", 1))
    view = GAME.view(s, None)
    assert _changed(render_board(view, NAMES[:4], lang, quick=False), render_board(view, NAMES[:4], lang)) == 0
    map_only = board_mod.render_map(view, lang), board_mod.render_map(view, lang, quick=False)
    assert _changed(*map_only) == 0


def test_the_quick_board_still_shows_a_change():
    """The caches never hide a move: one rail more redraws its band, one chip more its count."""
    s = late(played(4, "main", "random", 1)).clone()
    before = render_board(GAME.view(s, None), NAMES[:4], "en")
    pl = places_of(GAME.view(s, None))
    spoke = next(name for name in pl.geo.pieces if pl.kind(name) == "rail" and name not in s.pieces)
    s.pieces = {**s.pieces, spoke: [3]}
    s.players[2].chips = [*s.players[2].chips, "join:0"]
    after = render_board(GAME.view(s, None), NAMES[:4], "en")
    assert _changed(after, render_board(GAME.view(s, None), NAMES[:4], "en", quick=False)) == 0
    (ax, ay), (bx, by) = pl.piece_ends(spoke)
    mid = (round(ax + (bx - ax) * 0.3), round(ay + (by - ay) * 0.3))
    assert _near(after.getpixel(mid), style.player_rgb(3), 30) and not _near(before.getpixel(mid), style.player_rgb(3))
    panel = (0, map_layout(s.map_id).size[1], BOARD_W, after.height)
    assert _changed(before.crop(panel), after.crop(panel)) > 0


@pytest.mark.parametrize("anchor", ["la", "mm", "lm", "rm", "ms"])
def test_stamped_text_matches_drawn_text(anchor):
    """Every sub-pixel offset, a cut to max_width, a halo, both scripts and the box returned."""
    from render.catan_express.stamps import stamp_text
    from render.kit.text import draw_text

    cases = [("Alexandra", 20, False, None, 0), ("山田太郎の番", 22, True, None, 0), ("P3 built 14-B", 21, True, 60, 0),
             ("Q", 21, True, None, 3), ("12", 21, False, None, 0), ("", 21, False, None, 0)]
    for text, size, bold, width, stroke in cases:
        for fx, fy in ((0, 0), (0.5, 0.5), (0.25, 0.7), (0.93, 0.125)):
            xy = (150 + fx, 40 + fy)
            drawn = Image.new("RGB", (300, 80), style.PANEL_BG)
            args = (text, size, style.TEXT, bold, anchor, width, stroke, style.LABEL_HALO if stroke else None)
            box = draw_text(drawn, xy, *args)
            for _ in range(2):  # from scratch, then from the remembered masks
                stamped = Image.new("RGB", (300, 80), style.PANEL_BG)
                assert stamp_text(stamped, xy, *args) == box
                assert _changed(drawn, stamped) == 0, (text, xy)
            assert text == "" or _changed(drawn, Image.new("RGB", (300, 80), style.PANEL_BG)) > 0
    # at the image's edge, text cut off alike
    drawn = Image.new("RGB", (120, 40), style.PANEL_BG)
    stamped = drawn.copy()
    assert draw_text(drawn, (3.5, 2.2), "Christopher", 21, style.TEXT, anchor="mm") == \
        stamp_text(stamped, (3.5, 2.2), "Christopher", 21, style.TEXT, anchor="mm")
    assert _changed(drawn, stamped) == 0


def test_stamps_note_their_text_for_the_legibility_check():
    from render.catan_express.stamps import stamp_text

    img = Image.new("RGB", (200, 60), style.PANEL_BG)
    for _ in range(2):
        with recording_text_sizes() as sizes:
            stamp_text(img, (4, 30), "A long name that is cut", 19, style.TEXT, anchor="lm", max_width=80)
        assert sizes.drawn == [(19, sizes.drawn[0][1])] and sizes.drawn[0][1].endswith("…")


# --- alt text ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_alt_text_says_what_the_images_show(four, lang):
    state = late(four)
    view = GAME.view(state, None)
    text = RENDERER.describe_board(view, NAMES[:4], lang)
    assert 0 < len(text) <= 1024
    for seat in range(4):
        assert NAMES[seat] in text
    summaries = view.seats
    assert translate(lang, "catan_express.render.alt.seat", {"seat": 0, "points": summaries[0].points,
                                                  "cards": summaries[0].cards, "dev": summaries[0].dev_cards,
                                                  "knights": summaries[0].knights,
                                                  "towers": summaries[0].towers}, NAMES[:4]) in text
    if state.dice:
        assert str(sum(state.dice)) in text
    for name in state.last_build:
        assert name in text
    assert ("盤面" in text) == (lang == "ja")

    seat = state.current
    hand_text = describe_hand(GAME.view(state, seat), NAMES[:4], lang)
    hand = state.players[seat].hand
    assert NAMES[seat] in hand_text and str(sum(hand)) in hand_text
    for i, res in enumerate(("lumber", "brick", "wool", "grain", "ore")):
        if hand[i]:
            assert translate(lang, f"catan_express.cards.{res}", {"count": hand[i]}) in hand_text

    final_view = GAME.view(four[-1], None)
    final_text = describe_final(final_view, NAMES[:4], lang)
    winner = final_view.result.players[0]
    assert NAMES[winner.seat] in final_text and str(winner.total) in final_text
    assert final_text.index(NAMES[winner.seat]) < min(final_text.index(NAMES[r.seat])
                                                      for r in final_view.result.players[1:])


def test_catalogs_have_the_same_keys_in_both_languages():
    folder = ROOT / "data" / "catan_express" / "render"
    en = json.loads((folder / "messages.en.json").read_text(encoding="utf-8"))
    ja = json.loads((folder / "messages.ja.json").read_text(encoding="utf-8"))
    assert set(en) == set(ja) and all(k.startswith("catan_express.render.") for k in en)
    phases = CatanState.model_fields["phase"].annotation.__args__
    assert {f"catan_express.render.phase.{p}" for p in phases} <= set(en)
    assert {f"catan_express.render.move.{p}" for p in phases} <= set(en)


# --- harbour labels: whole, in water, clear of every piece ---------------------------------------
from render.catan_express.harbours import CHIP, harbour_words, label_size  # noqa: E402
from render.catan_express.room import piece_room  # noqa: E402
from render.kit.geometry import boxes_meet  # noqa: E402

BOARDS = [(n, m, layout, seed) for m in ("main", "islands") for n in (3, 4, 5, 6)
          for layout, seed in (("beginner", 0), ("random", 11), ("random", 12))]


def _places(n: int, map_: str, layout: str, seed: int):
    state = GAME.setup(n, {"map": map_, "layout": layout}, seed)
    return state, places_of(GAME.view(state, None))


def _on_land(pl, pt) -> bool:
    return pl.ml.hexes.hex_at(pt) in pl.board.land_hexes


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b[0]}p-{b[1]}-{b[2]}{b[3]}")
def test_harbour_labels_lie_whole_in_open_water(board, lang):
    """Every label box lies inside the map area, on sea only (every pixel of it, found with the
    hex grid's own point lookup), off every land hex outline and every other label, clear of the
    room any piece may take (cities, locomotives, ferries of two owners, a locomotive at a hex
    centre); its piers reach their intersections over sea."""
    state, pl = _places(*board)
    labels = pl.harbour_labels(lang)
    assert [x.harbour for x in labels] == list(pl.board.harbours)
    w, h = pl.ml.size
    rooms = [r for r in piece_room(pl.ml.hexes, pl.geo) if not r.soft]
    hexes = [pl.ml.hexes.polygon(x) for x in pl.board.land_hexes]
    for i, label in enumerate(labels):
        x0, y0, x1, y1 = label.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, label
        lw, lh = label_size(label.ratio, label.what, label.form)
        assert (x1 - x0, y1 - y0) == pytest.approx((lw, lh))
        xs = [x0 + (x1 - x0) * k / 20 for k in range(21)]
        ys = [y0 + (y1 - y0) * k / 10 for k in range(11)]
        wet = [(x, y) for x in xs for y in ys if not _on_land(pl, (x, y))]
        assert len(wet) == len(xs) * len(ys), (pl.board.label(label.harbour.sea), label.what)
        for poly in hexes:  # no corner of a land hex pokes into the box either
            assert not any(x0 < px < x1 and y0 < py < y1 for px, py in poly)
        for other in labels[i + 1:]:
            assert not boxes_meet(label.box, other.box), (label.what, other.what)
        assert [r for r in rooms if r.hits(label.box)] == [], (pl.board.label(label.harbour.sea), label.what)
        for corner in label.harbour.edge.corners():
            ax, ay = pl.ml.hexes.corner_point(corner)
            cx, cy = label.centre
            steps = 40
            for k in range(steps + 1):
                px, py = ax + (cx - ax) * k / steps, ay + (cy - ay) * k / steps
                if math.dist((px, py), (ax, ay)) > board_mod.POINT_R + 2:
                    assert not _on_land(pl, (px, py)), (pl.board.label(label.harbour.sea), k)


def _crowded(state: CatanState, pl, locos: list[str]) -> CatanState:
    """Every intersection holds a city (seats in turn), every ferry edge carries two owners'
    ferries, and the seats' locomotives stand at `locos`; no dice, halo, stop or robber near."""
    s = state.clone()
    s.buildings = {n: Building(seat=n % s.n, kind="city") for n in pl.geo.intersections}
    s.pieces = {name: [0, 1 % s.n] for name in pl.geo.pieces if pl.kind(name) == "ferry"}
    s.last_build, s.last_ride, s.stops, s.dice = [], [], [], []
    for seat, p in enumerate(s.players):
        p.loco = locos[seat] if seat < len(locos) else None
    return s


@pytest.mark.parametrize("board", [pytest.param((4, "main", "random", 11), marks=pytest.mark.slow),  # random whole
                                   pytest.param((6, "main", "random", 12), marks=pytest.mark.slow),  # games
                                   pytest.param((4, "islands", "random", 11), marks=pytest.mark.slow),
                                   pytest.param((6, "islands", "random", 12), marks=pytest.mark.slow),
                                   (6, "islands", "beginner", 0)],
                         ids=lambda b: f"{b[0]}p-{b[1]}-{b[2]}")
def test_no_piece_covers_a_harbour_label(board):
    """The pixels of every label stay as on the empty map with a city on every intersection,
    two ferries on every ferry edge, and a locomotive at every place near a label (several
    boards, as many locomotives at once as there are seats), or every seat's locomotive at one
    intersection near a label."""
    state, pl = _places(*board)
    n = state.n
    empty = state.clone()
    empty.pieces, empty.buildings, empty.dice = {}, {}, []
    for p in empty.players:
        p.loco = None
    labels = pl.harbour_labels("en")
    boxes = [(math.floor(x.box[0]), math.floor(x.box[1]), math.ceil(x.box[2]), math.ceil(x.box[3])) for x in labels]
    near = []
    for name, xy in pl.points.items():
        if any(math.dist(xy, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)) < 2.5 * pl.ml.s for b in boxes):
            near.append(name)
    base = board_mod.render_map(GAME.view(empty, None), "en")
    assert len(near) > n
    for k in range(0, len(near), n):
        full = board_mod.render_map(GAME.view(_crowded(state, pl, near[k:k + n]), None), "en")
        assert _changed(base, full) > 0.02 * base.width * base.height  # the pieces are there
        for label, box in zip(labels, boxes):
            assert _changed(base.crop(box), full.crop(box)) == 0, (pl.board.label(label.harbour.sea), near[k:k + n])
    for name in (x for x in near if x.isdigit()):
        full = board_mod.render_map(GAME.view(_crowded(state, pl, [name] * n), None), "en")
        for label, box in zip(labels, boxes):
            assert _changed(base.crop(box), full.crop(box)) == 0, (pl.board.label(label.harbour.sea), name)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_harbour_labels_say_their_kind(lang):
    """Each label draws its ratio and, unless in the chip form, the resource's word (or "any");
    a chip shows the resource's own colour; every word at least MIN_TEXT, three-digit
    intersection numbers too."""
    found_chip = False
    for n, m, layout, seed in [(4, "islands", "random", 3), (6, "islands", "random", 5), (6, "islands", "beginner", 0),
                               (5, "main", "random", 7)]:
        state, pl = _places(n, m, layout, seed)
        key = board_mod.board_key(GAME.view(state, None))
        with recording_text_sizes() as sizes:
            _, names, flat = board_mod._build_static(key, lang)
        drawn = [t for _, t in sizes.drawn]
        assert min(sz for sz, _ in sizes.drawn) >= board_mod.MIN_TEXT
        if max(pl.geo.intersections) >= 100:
            assert "100" in drawn
        for label in pl.harbour_labels(lang):
            kind = label.harbour.kind
            ratio, what = harbour_words(kind, lang)
            assert (label.ratio, label.what) == (ratio, what)
            assert ratio == ("3:1" if kind == "generic" else "2:1") and drawn.count(ratio) >= 1
            if label.form != CHIP:
                assert what in drawn
            elif kind != "generic":
                found_chip = True
                colours = {c for _, c in flat.crop(tuple(round(v) for v in label.box)).getcolors(1 << 16)}
                assert any(_near(c, style.RESOURCE[kind], 8) for c in colours), kind
    assert found_chip  # the islands' narrow channels need chips on the 5-6 player map


def test_a_locomotive_stands_on_no_rail():
    """A locomotive beside an inland intersection stands along the edge between two hexes,
    where no rail runs: every rail out of that intersection keeps its colour along its length."""
    states = played(4, "main", "random", 1)
    s = _handmade(states)
    pl = places_of(GAME.view(s, None))
    n = next(x for x in pl.geo.intersections if len(pl.geo.land_of[x]) == 3)
    spokes = [p for p in pl.geo.at[str(n)] if pl.kind(p) == "rail"]
    s.pieces = {p: [0] for p in spokes}
    s.buildings = {n: Building(seat=0, kind="city")}
    before = render_board(GAME.view(s, None), NAMES[:4], "en")
    s.players[1].loco = str(n)
    after = render_board(GAME.view(s, None), NAMES[:4], "en")
    assert _changed(before, after) > 400  # the locomotive is drawn
    for p in spokes:
        (ax, ay), (bx, by) = pl.piece_ends(p)
        for t in (0.45, 0.6, 0.75):  # past the building, short of the token
            xy = (round(ax + (bx - ax) * t), round(ay + (by - ay) * t))
            assert after.getpixel(xy) == before.getpixel(xy), (p, t)
