"""Typed moves (issue #8, item 9): a person who types is understood against their own legal
moves — any case, either city order, any dash, English or Japanese names; what has only one
legal value is filled in; otherwise the closest legal moves of that seat are suggested."""
from __future__ import annotations

import random
import re

import pytest

from games import registry
from games.core.errors import IllegalAction
from games.core.i18n import translate
from games.core.typed import normalize, resolve
from games.core.vocabulary import Vocabulary
from games.ginga.models import Place as GingaPlace
import tests.games.ginga.helpers as gt
import tests.games.santa_fe.helpers as sf
from tests.games.ticket_to_ride.helpers import GAME as TTR
from tests.games.ticket_to_ride.helpers import claim_for, started, with_hand
from tests.support.toy_game import GAME as TOY


def refused(game, state, seat, text) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        resolve(game, state, seat, text)
    return err.value


def listed(err: IllegalAction) -> list[str]:
    """The notations an ambiguity or a suggestion lists (without a trailing '… N more')."""
    lines = err.params.get("moves_lines") or err.params.get("suggestions_lines") or []
    return [line["params"]["notation"] for line in lines if line["key"] == "move.choice"]


def notations(game, state, seat) -> list[str]:
    return [game.format_action(a) for a in game.legal_actions(state, seat)]


# --- the core ---------------------------------------------------------------------------
def test_normalize_folds_case_width_accents_and_dashes_but_keeps_kana():
    assert normalize("  CLAIM  Ｌｏｓ Angeles–El Paso ") == "claim los angeles-el paso"
    assert normalize("Montréal — Toronto") == "montreal - toronto"
    assert normalize("ロサンゼルス〜エルパソ、デンバー") == "ロサンゼルス-エルパソ,デンバー"
    assert normalize("バンクーバー") == "バンクーバー"  # voiced kana keep their marks


def test_a_game_without_a_vocabulary_reads_its_notation_only():
    assert TOY.vocabulary() == Vocabulary()
    state = TOY.setup(2, None, 1)
    assert resolve(TOY, state, 0, "  OPEN  red ").color == "red"


def test_list_params_ending_in_lines_are_one_item_per_line():
    lines = [{"key": "move.choice", "params": {"notation": "draw deck", "label": {"key": "ticket_to_ride.act.draw_deck"}}},
             {"key": "move.more", "params": {"count": 3}}]
    en = translate("en", "error.ambiguous_move", {"text": "draw", "moves_lines": lines})
    assert en.endswith(":\n• `draw deck` — Draw a card from the deck\n• … and 3 more (see /move)")
    ja = translate("ja", "error.ambiguous_move", {"text": "draw", "moves_lines": lines})
    assert "\n• `draw deck` — 山札から1枚引く\n• ほか3件" in ja


# --- Ticket to Ride ---------------------------------------------------------------------
def ttr_position(n: int = 2, **cards: int):
    s = started(n)
    seat = s.current
    return with_hand(s, seat, **cards), seat


def test_claim_with_a_space_in_a_city_name_and_the_payment_left_out():
    s, seat = ttr_position(black=5, locomotive=1, red=2)  # El Paso-Los Angeles: 6 black
    want = TTR.parse_action("claim El Paso-Los Angeles black+1")
    for text in ("claim Los Angeles-El Paso", "claim El Paso-Los Angeles", "CLAIM los angeles-EL PASO",
                 "claim Los Angeles - El Paso", "claim los angeles el paso"):
        assert resolve(TTR, s, seat, text) == want, text
    # A payment that is written out is read as written ("black" is six black, no locomotive):
    # the rules then say what is missing rather than a locomotive being spent unasked.
    assert resolve(TTR, s, seat, "claim Los Angeles-El Paso black") == TTR.parse_action("claim El Paso-Los Angeles black")


@pytest.mark.parametrize("dash", ["–", "—", "−", "－", "〜", " – "])
def test_any_dash_between_the_cities(dash):
    s, seat = ttr_position(black=6)
    assert resolve(TTR, s, seat, f"claim Los Angeles{dash}El Paso black") == \
        TTR.parse_action("claim El Paso-Los Angeles black")


def test_japanese_city_and_colour_names():
    s, seat = ttr_position(black=6, red=1)
    want = TTR.parse_action("claim El Paso-Los Angeles black")
    for text in ("claim ロサンゼルス-エルパソ", "claim ロサンゼルス–エルパソ 黒", "エルパソ〜ロサンゼルス 黒",
                 "ロサンゼルスからエルパソまで 黒で敷設"):
        assert resolve(TTR, s, seat, text) == want, text


def test_the_free_half_of_a_double_route_is_filled_in():
    s, seat = ttr_position(n=4, red=1)
    s = claim_for(s, (seat + 1) % 4, "Portland-Seattle/1")
    want = TTR.parse_action("claim Portland-Seattle/2 red")
    assert resolve(TTR, s, seat, "claim Seattle-Portland") == want
    assert resolve(TTR, s, seat, "claim シアトル－ポートランド 赤") == want
    # A gray double with both halves free is a real choice: both are listed.
    free, _ = ttr_position(n=4, red=1)
    err = refused(TTR, free, seat, "claim Seattle-Portland red")
    assert err.code == "ambiguous_move"
    assert listed(err) == ["claim Portland-Seattle/1 red", "claim Portland-Seattle/2 red"]


def test_several_payments_are_an_ambiguity_listing_the_seats_claims_on_that_route():
    s, seat = ttr_position(n=4, red=1, black=1, locomotive=1)
    s = claim_for(s, (seat + 1) % 4, "Portland-Seattle/1")
    err = refused(TTR, s, seat, "claim Seattle-Portland")
    assert err.code == "ambiguous_move" and err.params["text"] == "claim Seattle-Portland"
    on_route = [n for n in notations(TTR, s, seat) if n.startswith("claim Portland-Seattle")]
    assert listed(err) == on_route == ["claim Portland-Seattle/2 red", "claim Portland-Seattle/2 black",
                                      "claim Portland-Seattle/2 locomotive"]
    text = translate("ja", err.message_key, err.params)
    assert "複数" in text and "ポートランド–シアトル" in text and "`claim Portland-Seattle/2 black`" in text
    assert "{" not in translate("en", err.message_key, err.params)


def test_a_route_named_by_one_city_only_is_never_guessed():
    s, seat = ttr_position(black=6)
    err = refused(TTR, s, seat, "claim Los Angeles")
    assert err.code == "did_you_mean"
    assert "claim El Paso-Los Angeles black" in listed(err)


def test_a_wrong_text_gets_the_closest_legal_moves_of_that_seat():
    s, seat = ttr_position(n=4, red=1, black=1)
    err = refused(TTR, s, seat, "claim Seatle-Portlnd")
    assert err.code == "did_you_mean"
    suggestions = listed(err)
    assert 1 <= len(suggestions) <= 5 and set(suggestions) <= set(notations(TTR, s, seat))
    assert suggestions[0].startswith("claim Portland-Seattle")
    ja = translate("ja", err.message_key, err.params)
    assert "もしかして" in ja and "シアトル" in ja
    assert "Did you mean" in translate("en", err.message_key, err.params)


def test_text_like_no_legal_move_keeps_the_notations_own_error():
    s, seat = ttr_position(black=6)
    assert refused(TTR, s, seat, "fly to the moon").params == {"text": "fly to the moon"}
    assert refused(TTR, s, seat, "claim Nowhere-Elsewhere red").code == "ticket_to_ride.unknown_route"
    # Unreadable as typed, readable once the names are rewritten: the rewritten text's error,
    # quoting the words typed, not their rewriting.
    broke, seat = ttr_position()  # no cards: no claim to suggest
    err = refused(TTR, broke, seat, "claim シアトル-ニューヨーク 赤")
    assert err.code == "ticket_to_ride.unknown_route" and err.params["route"] == "シアトル-ニューヨーク"
    assert translate("ja", err.message_key, err.params) == "「シアトル-ニューヨーク」という路線はありません。"


def test_suggestions_never_show_another_seats_secret_tickets():
    s = TTR.setup(2, None, 11)  # both seats choose their tickets at once, in secret
    mine = set(s.players[0].offered)
    theirs = set(s.players[1].offered) - mine
    assert theirs and TTR.active_players(s) == {0, 1}
    for text in ("keep", "kep"):
        err = refused(TTR, s, 0, text)
        assert err.code == ("ambiguous_move" if text == "keep" else "did_you_mean")
        shown = listed(err)
        assert shown and set(shown) <= set(notations(TTR, s, 0))
        ids = {int(i) for n in shown for i in re.findall(r"\d+", n)}
        assert ids <= mine and not ids & theirs


def test_exact_notation_still_reads_the_same_and_the_rules_keep_their_refusals():
    s, seat = ttr_position(black=6)
    for action in TTR.legal_actions(s, seat):
        assert resolve(TTR, s, seat, TTR.format_action(action)) == action
    # Readable but not affordable: the move is returned, and `apply` says why it is refused.
    assert resolve(TTR, s, seat, "claim Los Angeles–El Paso blue").color == "blue"


# --- Santa Fe ---------------------------------------------------------------------------
def test_sf_sections_by_city_names_either_way_any_dash_either_language():
    s = sf.to_track(sf.started(3), 0)
    legal = notations(sf.GAME, s, 0)
    assert "place SF Chicago>Milwaukee" in legal and "place SF Milwaukee>Chicago" not in legal
    want = sf.GAME.parse_action("place SF Chicago>Milwaukee")
    for text in ("place SF Milwaukee-Chicago", "place sf chicago–milwaukee", "place Santa Fe Railroad Chicago → Milwaukee",
                 "place サンタフェ鉄道 シカゴ→ミルウォーキー", "サンタフェ鉄道 ミルウォーキー〜シカゴ"):
        assert resolve(sf.GAME, s, 0, text) == want, text


def test_sf_double_line_and_missing_railroad_are_not_guessed():
    s = sf.to_track(sf.started(3), 0)
    err = refused(sf.GAME, s, 0, "place UP Chicago-Omaha")
    assert err.code == "ambiguous_move"
    assert listed(err) == ["place UP Chicago>Omaha", "place UP Chicago>Omaha/2"]
    assert "1本目" in translate("ja", err.message_key, err.params)
    err = refused(sf.GAME, s, 0, "place Chicago-Milwaukee")  # which railroad? never guessed
    assert err.code == "did_you_mean"
    assert {"place SF Chicago>Milwaukee", "place GN Milwaukee>Chicago"} <= set(listed(err))


def test_sf_cards_by_name_in_either_language():
    s = sf.started(3)
    hand = s.players[0].hand
    name = sf.BOARD.cities[hand[0]]
    assert resolve(sf.GAME, s, 0, f"play {name.name_ja}") == sf.GAME.parse_action(f"play {name.name}")
    assert resolve(sf.GAME, s, 0, f"PLAY {name.name.upper()}") == sf.GAME.parse_action(f"play {name.name}")


def test_sf_suggestions_come_from_the_seats_own_secret_hand():
    s = sf.started(3)
    mine = {sf.BOARD.cities[c].name for c in s.players[0].hand}
    theirs = {sf.BOARD.cities[c].name for p in s.players[1:] for c in p.hand} - mine
    assert theirs
    err = refused(sf.GAME, s, 0, "plya")
    assert err.code == "did_you_mean"
    shown = listed(err)
    assert shown and set(shown) <= set(notations(sf.GAME, s, 0))
    text = "\n".join(translate(lang, err.message_key, err.params) for lang in ("en", "ja"))
    assert not any(city in text for city in theirs)
    assert not any(sf.BOARD.cities[sf.city(c)].name_ja in text for c in theirs)


# --- Galactic Railway ---------------------------------------------------------------------
def gt_position_with_groups():
    """A position where some tile on some cell has exactly one legal direction, and another
    has several (found by replaying seeded random moves)."""
    rng = random.Random(5)
    state = gt.GAME.setup(2, None, 5)
    for _ in range(40):
        seat = min(gt.GAME.active_players(state))
        groups: dict[tuple[int, int, int], list[GingaPlace]] = {}
        for a in gt.GAME.legal_actions(state, seat):
            if isinstance(a, GingaPlace):
                groups.setdefault((a.tile, a.x, a.y), []).append(a)
        one = [g for g in groups.values() if len(g) == 1]
        many = [g for g in groups.values() if len(g) > 1]
        if one and many:
            return state, seat, one[0][0], many[0]
        state = gt.GAME.apply(state, seat, rng.choice(gt.GAME.legal_actions(state, seat))).state
    raise AssertionError("no such position")


def test_gt_direction_filled_in_when_only_one_fits():
    from games.ginga.board import cell_name

    state, seat, only, several = gt_position_with_groups()
    cell = cell_name(only.x, only.y)
    for text in (f"T{only.tile + 1} {cell}", f"place t{only.tile + 1} on {cell.lower()}", f"{only.tile + 1}を{cell}に"):
        assert resolve(gt.GAME, state, seat, text) == only, text
    first = several[0]
    err = refused(gt.GAME, state, seat, f"T{first.tile + 1} at {cell_name(first.x, first.y)}")
    assert err.code == "ambiguous_move"
    assert listed(err) == [gt.GAME.format_action(a) for a in several]


def test_gt_japanese_and_full_width():
    state = gt.GAME.setup(2, None, 1)
    seat = min(gt.GAME.active_players(state))
    tile = state.hands[seat][0] + 1
    assert resolve(gt.GAME, state, seat, f"{tile} h8 右") == gt.GAME.parse_action(f"place T{tile} at H8 right")
    assert resolve(gt.GAME, state, seat, f"Ｔ{tile}　Ｈ８　下向き") == gt.GAME.parse_action(f"place T{tile} at H8 down")
    assert resolve(gt.GAME, state, seat, "place T{} at H8 ↑".format(tile)) == gt.GAME.parse_action(f"place T{tile} at H8 up")


def test_gt_wrong_text_suggests_the_seats_placements():
    state = gt.GAME.setup(2, None, 1)
    seat = min(gt.GAME.active_players(state))
    tile = state.hands[seat][0] + 1
    err = refused(gt.GAME, state, seat, f"place T{tile} at H8 rigth")
    assert err.code == "did_you_mean"
    shown = listed(err)
    assert shown[0] == f"place T{tile} at H8 right" and set(shown) <= set(notations(gt.GAME, state, seat))
    assert "もしかして" in translate("ja", err.message_key, err.params)


# --- a refusal quotes what was typed ---------------------------------------------------
@pytest.mark.parametrize("name", registry.names())
def test_a_refusal_quotes_only_what_was_typed_never_the_rewritten_text(name):
    """Text of the game's own synonyms (Japanese names, colours, verbs), alone and among other
    words, is rewritten before it is read; a refusal still quotes the person's own words."""
    game = registry.get(name)
    state = game.setup(game.min_players + 1, None, 3)
    seat = min(game.active_players(state))
    vocabulary = game.vocabulary()
    synonyms = sorted(k for k, v in {**vocabulary.words, **vocabulary.names}.items() if normalize(k) != normalize(v))
    rng = random.Random(name)
    for _ in range(150):
        words = rng.sample(synonyms, rng.randint(0, min(3, len(synonyms)))) + [rng.choice(["で行こう!!", "xyz", "7"])]
        typed = " ".join(rng.sample(words, len(words)))
        try:
            resolve(game, state, seat, typed)
        except IllegalAction as err:
            quoted = [v for v in err.params.values() if isinstance(v, str)]
            assert all(normalize(v) in normalize(typed) for v in quoted), (typed, err.code, err.params)
            if "text" in err.params:
                assert err.params["text"] == typed[:len(err.params["text"])], (typed, err.params)
