"""Every label the images draw from the catalogs fits where it is drawn, in English and
Japanese: a term as the rulebook says it (勝利ポイント・チップ, 目的地カード, 技術者カード) is
never cut short with "…". Boards, hands and final images of whole bot games of every title.
(Labels are the catalog strings without params: legends, headings, columns, colour names.
Lines made of events or long names may be clipped by design, and are not judged here.)"""
from __future__ import annotations

import pytest

from games import registry
from games.core.i18n import LANGUAGES, catalog
from render import registry as renderers
from render.kit.legibility import recording_text_sizes
from tests.support.bot_games import bot_states

NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Flo"]
TABLES = [("ticket_to_ride", 4, {}), ("ginga", 4, {}), ("santa_fe", 5, {"advanced": True, "buy_track": True}),
          ("steam", 4, {}), ("steam", 5, {"map": "rhine_ruhr", "standard": True}), ("catan_express", 4, {}),
          ("catan_express", 6, {})]


@pytest.mark.parametrize("name, players, options", TABLES, ids=[f"{g}-{n}" for g, n, _ in TABLES])
def test_no_catalog_word_is_cut_short_on_any_image(name, players, options) -> None:
    game, drawer = registry.get(name), renderers.get(name)
    states = bot_states(game, players, 5, next(iter(game.bots())), options)
    picked = [states[len(states) * k // 6] for k in range(6)] + [states[-1]]
    names = NAMES[:players]
    cut = set()
    for lang in LANGUAGES:
        with recording_text_sizes() as sizes:
            for state in picked:
                drawer.board_image(game.view(state, None), names, lang)
                for seat in range(players):
                    drawer.hand_image(game.view(state, seat), names, lang)
            drawer.final_image(game.view(states[-1], None), names, lang)
        labels = [text for text in catalog(lang).values() if "{" not in text]
        cut |= {(lang, text) for _, text in sizes.drawn if text.endswith("…") and len(text) > 1
                and any(label.startswith(text[:-1]) and label != text for label in labels)}
    assert cut == set()
