"""The final image of every game tells one story: the score chart's last point is the score the
ranking shows, and a tie on points says in words which of the game's tie-breaks decided it.

Whole games played by each game's own bot (tests/support/bot_games.py), 4 players, fixed seeds.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from games import registry as games
from games.core.i18n import catalog, translate
from games.core.protocol import Tie
from render import registry as renderers
from render.kit.chart import end_label
from render.kit.legibility import recording_text_sizes
from tests.support.bot_games import bot_states

BOTS = {"ticket_to_ride": "planner", "ginga": "scorer", "santa_fe": "builder", "steam": "builder",
        "catan_express": "builder"}
NAMES = ["Ann", "山田", "Bob", "Cy"]


@lru_cache(maxsize=None)
def final_state(name: str, seed: int):
    return bot_states(games.get(name), len(NAMES), seed, BOTS[name])[-1]


def drawn(name: str, view, lang: str) -> list[str]:
    with recording_text_sizes() as texts:
        renderers.get(name).final_image(view, NAMES, lang)
    return [text for _, text in texts.drawn]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", list(BOTS))
def test_the_score_chart_ends_on_the_final_score(name, lang):
    game = games.get(name)
    for seed in (3, 4):
        view = game.view(final_state(name, seed), None)
        texts = drawn(name, view, lang)
        for row in view.result.players:  # each line's end carries its last point's score
            assert end_label(NAMES[row.seat], row.total) in texts, (name, seed, NAMES[row.seat], row.total)


def tie_keys(prefix: str) -> list[str]:
    keys = [k for k in catalog("en") if k.startswith(f"{prefix}.tie.")]
    assert keys and set(keys) <= set(catalog("ja"))
    return keys


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", list(BOTS))
def test_each_tie_of_the_result_is_said_in_words(name, lang):
    """Whatever the result says decided a tie is written under the ranking, in the game's words."""
    game = games.get(name)
    view = game.view(final_state(name, 3), None)
    first, second = view.result.players[0], view.result.players[1]
    keys = tie_keys(view.result.label_prefix)
    ties = [Tie(above=first.seat, below=second.seat, key=key, shared=key.endswith(".shared"),
                params={"points": first.total, "above": 5, "below": 4, "from_seat": first.seat}) for key in keys]
    tied = view.model_copy(update={"result": view.result.model_copy(update={"ties": ties})})
    texts = drawn(name, tied, lang)
    alt = renderers.get(name).describe("final", tied, NAMES, lang)
    for tie in ties:
        sentence = translate(lang, tie.key, tie.words(), NAMES)
        assert NAMES[first.seat] in sentence and NAMES[second.seat] in sentence
        assert "".join(texts).replace(" ", "").find(sentence.replace(" ", "")) >= 0, (name, tie.key)
        assert sentence in alt, (name, tie.key)  # a screen reader hears it too
    assert drawn(name, view, lang) != texts
