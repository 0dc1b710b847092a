"""Every registered game, checked the same way: it has each part a game needs (rules,
renderer, Discord look, catalog words in English and Japanese), and a random game of it is
played on the loopback Discord by people who click through the one chooser only — never
typed notation, never a game-specific custom id."""
from __future__ import annotations

import random
import sys

import pytest

from bot.discord.ui import base as ui_base
from games import registry
from games.catalog import entries
from games.core.choices import Decision, TooManyMoves
from games.core.i18n import DATA_DIR, LANGUAGES, has_key
from render import registry as renderers
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, _label

GAMES = registry.names()
HUMAN_MOVES = 40  # enough to pass through every kind of decision early in each game


def test_the_one_registration_lists_every_game_with_all_its_parts() -> None:
    listed = entries()
    assert list(listed) == [n for n in GAMES if n in listed] and set(listed) <= set(GAMES)
    for name, entry in listed.items():
        for folder in entry.catalogs:
            for lang in LANGUAGES:
                assert (DATA_DIR / folder / f"messages.{lang}.json").is_file(), (name, folder, lang)
        assert entry.look in sys.modules, f"{name}'s look was not loaded at start"


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_every_part(name: str) -> None:
    game = registry.get(name)
    assert renderers.get(name) is not None
    ui = ui_base.get(name)
    assert type(ui) is not ui_base.GameUI, f"{name} has no Discord look of its own"
    for lang in LANGUAGES:
        for key in (f"game.{name}.title", f"discord.rules.{name}"):
            assert has_key(lang, key), (lang, key)
    # every word the game's menus and events use in a few random games, in both languages
    rng = random.Random(3)
    keys: set[str] = set()
    for seed in range(3):
        state = game.setup(game.min_players + seed % 2, None, seed)
        for _ in range(120):
            if game.result(state) is not None:
                break
            for seat in game.active_players(state):
                d = game.decision(state, seat)
                picks = [p for c in d.choices for p in c.path] + [p for g in d.groups for p in g.items]
                keys |= {p.step for p in picks} | {p.label.key for p in picks}
                keys |= {g.step for g in d.groups} | ({d.prompt.key} if d.prompt else set())
                keys |= {part.step for g in d.groups for part, _, _ in g.sides()}
            seat = rng.choice(sorted(game.active_players(state)))
            applied = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            keys |= {e.key for e in applied.events}
            state = applied.state
    missing = sorted((lang, k) for lang in LANGUAGES for k in keys if not has_key(lang, k))
    assert not missing, missing[:10]


def some_moves(decision: Decision, rng: random.Random) -> list[str]:
    """Moves of a decision to draw from: every choice and amount, and of each group its picks,
    or a few drawn at random when it holds too many to list (any offer a hand can make)."""
    out = [c.notation for c in decision.choices] + [n for a in decision.amounts for n in a.all_notations()]
    for group in decision.groups:
        try:
            out += group.all_notations()
        except TooManyMoves:
            out += [group.write(c) for c in (group.sample(rng) for _ in range(5)) if c is not None]
    return out


@pytest.mark.parametrize("name", GAMES)
async def test_a_random_game_through_the_chooser(name: str, harness: Harness) -> None:
    h = harness
    game = registry.get(name)
    opened = await h.slash(ALICE, "game new", {"game": name})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=_label("discord.lobby.join", "en-US"))
    if game.max_players > 2:
        await h.click(lobby, None, ALICE, label=_label("discord.lobby.add_bot", "en-US"))
    await h.click(lobby, None, ALICE, label=_label("discord.lobby.start", "en-US"))
    rng = random.Random(name)
    made = 0
    while made < HUMAN_MOVES:
        status = await h.bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        user = int(status.waiting_user_ids[0])
        pv = await h.bot.service.private_view(str(CHANNEL), str(user))
        notation = rng.choice(some_moves(pv.decision, rng))
        done = await h.choose(user, notation, start=rng.choice(["post", "hand"]))
        text = done.content or h.fake.message(done.original.id).content
        assert text.startswith("✅"), (notation, text)
        made += 1
    assert made > 5
    h.fake.assert_clean()
