"""Steam through the checks every game passes (tests/support/protocol_checks.py): moves survive
their notation and states their JSON, and every seat's menu offers exactly the legal moves,
each once — on positions of whole bot games in every phase, on both maps, basic and standard."""
from __future__ import annotations

from functools import lru_cache

import pytest

from games.core.i18n import translate
from games.steam.derived import board_map
from games.steam.rules import GAME
from tests.support.bot_games import bot_steps
from tests.support.protocol_checks import check_decisions, walk_checking_decisions, walk_checking_round_trips

CONFIGS = [
    ("northeast", False, 3, 11), ("northeast", True, 4, 12), ("rhine_ruhr", False, 5, 13), ("rhine_ruhr", True, 4, 14),
]


def _kind(state) -> str:
    """What kind of menu a position asks for (urbanizing and growing menus are their own)."""
    if state.phase == "deliver" and state.pending:
        return "score"
    if state.phase == "build":
        seat = GAME.current(state)
        if GAME.urbanizations(state, seat):
            return "urbanize"
        if GAME.growths(state, seat):
            return "grow"
    return state.phase


@lru_cache(maxsize=None)
def _positions(map_id: str, standard: bool, players: int, seed: int) -> dict[str, list]:
    """Positions of a whole game played by the builder bot, by kind of menu, in game order."""
    out: dict[str, list] = {}
    for step in bot_steps(GAME, players, seed, "builder", {"map": map_id, "standard": standard}):
        out.setdefault(_kind(step.state), []).append(step.state)
    return out


@pytest.mark.parametrize("map_id, standard, players, seed", CONFIGS)
def test_moves_and_states_round_trip(map_id: str, standard: bool, players: int, seed: int) -> None:
    walk_checking_round_trips(GAME, seed, players, 120, {"map": map_id, "standard": standard})


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("map_id, standard, players, seed", CONFIGS)
def test_random_play_keeps_every_menu_exact(map_id: str, standard: bool, players: int, seed: int) -> None:
    walk_checking_decisions(GAME, seed, players, 40, {"map": map_id, "standard": standard})


@pytest.mark.parametrize("map_id, standard, players, seed", CONFIGS)
def test_every_kind_of_menu_offers_each_legal_move_once(map_id: str, standard: bool, players: int,
                                                        seed: int) -> None:
    positions = _positions(map_id, standard, players, seed)
    phases = {"actions", "build", "deliver", "score"} | ({"capital", "auction"} if standard else {"first_auction"})
    assert phases <= set(positions), sorted(positions)
    for kind, states in positions.items():
        # an early and a late position of each kind (a late board is the busiest); urbanizing
        # menus are large (towns × colours × supply spaces), one of them is enough
        chosen = states[:1] if kind == "urbanize" else [states[0], states[len(states) // 2], states[-1]]
        for state in chosen:
            check_decisions(GAME, state)


def test_the_bot_games_reach_urbanizing_and_growing_menus() -> None:
    kinds = set()
    for config in CONFIGS:
        kinds |= set(_positions(*config))
    assert {"urbanize", "grow"} <= kinds, sorted(kinds)


def test_the_log_names_the_places_of_deliveries_links_and_new_cities():
    """"…delivered a blue cube from Toronto (B5) to Buffalo (C7)", not "from B5 to C7": a log
    line names a city or town as the board does, in the reader's language, with its hex."""
    game = GAME
    named = {"steam.ev.delivered": ("source", "destination"), "steam.ev.link_completed": ("a", "b"),
             "steam.ev.new_city": ("hex",), "steam.ev.grew": ("hex",)}
    seen = set()
    for step in bot_steps(game, 4, 3, next(iter(game.bots()))):
        m = board_map(step.state)
        for event in game.apply(step.state, step.seat, step.action).events:
            for param in named.get(event.key, ()):
                where = event.params[param]
                label = where["params"]["hex"]
                place = m.places[m.hex_at(label)].name
                for lang in ("en", "ja"):
                    text = translate(lang, event.key, event.params, ["Ann", "Bob", "Cyd", "Dee"])
                    assert place[lang] in text and label in text, text
                seen.add(event.key)
    assert seen >= {"steam.ev.delivered", "steam.ev.link_completed"}
