"""Every registered game, checked the same way: it has each part a game needs (rules,
renderer, Discord look, catalog words in English and Japanese), and a random game of it is
played on the loopback Discord by people who click through the one chooser only — never
typed notation, never a game-specific custom id."""
from __future__ import annotations

import random
import re
import sys

import pytest

from bot.discord import chooser
from bot.discord.ui import base as ui_base
from bot.sessions import SessionError
from games import registry
from games.catalog import entries
from games.core.choices import Decision, TooManyMoves
from games.core.i18n import DATA_DIR, LANGUAGES, has_key, translate
from render import registry as renderers
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, _label, find_id
from tests.support import dump_db

GAMES = registry.names()
HUMAN_MOVES = 40  # enough to pass through every kind of decision early in each game


def test_the_one_registration_lists_every_game_with_all_its_parts() -> None:
    listed = entries()
    assert list(listed) == [n for n in GAMES if n in listed] and set(listed) <= set(GAMES)
    for name, entry in listed.items():
        # A game's data is one folder: its rules words there, its pictures' and its Discord
        # look's words in render/ and discord/ beside them; no other folder of data/ is a game's.
        for lang in LANGUAGES:
            assert (DATA_DIR / name / f"messages.{lang}.json").is_file(), (name, lang)
        assert entry.look in sys.modules, f"{name}'s look was not loaded at start"
    shared = {"discord", "fonts", "messages", "render", "web"}
    assert {p.name for p in DATA_DIR.iterdir() if p.is_dir()} == set(listed) | shared


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_every_part(name: str) -> None:
    game = registry.get(name)
    assert renderers.get(name) is not None
    ui = ui_base.get(name)
    assert type(ui) is not ui_base.GameUI, f"{name} has no Discord look of its own"
    for lang in LANGUAGES:
        for key in (f"{name}.title", f"{name}.discord.rules"):
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


async def open_game(h: Harness, name: str) -> None:
    """A lobby of `name` with Alice and Bob (and a bot where the game takes more), started."""
    opened = await h.slash(ALICE, "game new", {"game": name})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=_label("discord.lobby.join", "en-US"))
    if registry.get(name).max_players > 2:
        await h.click(lobby, None, ALICE, label=_label("discord.lobby.add_bot", "en-US"))
    await h.click(lobby, None, ALICE, label=_label("discord.lobby.start", "en-US"))


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("name", GAMES)
async def test_a_random_game_through_the_chooser(name: str, harness: Harness) -> None:
    h = harness
    await open_game(h, name)
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


# ---------------------------------------------------------------------------- a player's own part
def test_every_game_says_whether_anything_in_it_is_private() -> None:
    """The rules say it, each game for itself (from its rulebook), as a plain bool."""
    for name in GAMES:
        game = registry.get(name)
        assert isinstance(type(game).__dict__.get("private_information"), bool), name


@pytest.mark.parametrize("name", GAMES)
async def test_show_my_hand_only_where_something_is_private(name: str, harness: Harness) -> None:
    """"Show my hand" under the turn posts of a game with private information; in a game
    where everything is public, no such button or one named for what it shows, and /game hand
    says that nothing is hidden before the player's own part — in English and Japanese."""
    h = harness
    game = registry.get(name)
    ui = ui_base.get(name)
    await open_game(h, name)
    post = h.last_post()
    hand = find_id(post, r"ry:\d+:\d+:hand")
    if game.private_information:
        assert hand and post.component(hand)["label"] == _label("discord.button.hand", "en-US")
    elif ui.public_own_button is None:
        assert hand is None, post.custom_ids
    else:
        words = post.component(hand)["label"]
        assert words == _label(ui.public_own_button[0], "en-US") and words != _label("discord.button.hand", "en-US")
    for user in (ALICE, BOB):
        for locale in ("en-US", "ja"):
            lang = "ja" if locale == "ja" else "en"
            shown = await h.slash(user, "game hand", locale=locale)
            assert shown.ephemeral and "hand.png" in [a.filename for a in shown.attachments], shown.content
            note = "ℹ️ " + translate(lang, "discord.hand.all_public", {"game": ui.title(lang)})
            assert shown.content.startswith(note) != game.private_information, shown.content
            assert shown.content.strip() != note  # and then the player's own part
    h.fake.assert_clean()


# ---------------------------------------------------------------------------- stale clicks
STALE_TRIES = 14  # moves of the people in each game, each followed by a click on a menu it made stale


def _stale_for(custom_id: str, pv) -> bool:
    """Whether the menu a chooser id was drawn from is gone for this person now: a
    version-checked one once anything moved, a keyed one once its decision went."""
    check = custom_id.split(":")[4]
    return check == "v" or pv is None or not pv.active or chooser.check_of(pv.decision) != check


async def _private_view(h: Harness, user: int):
    try:
        return await h.bot.service.private_view(str(CHANNEL), str(user))
    except SessionError:
        return None


@pytest.mark.parametrize("name", GAMES)
async def test_a_stale_click_says_only_that_the_board_changed(name: str, harness: Harness) -> None:
    """A person opens their menu (/game hand) and the turn post shows its buttons; the board
    then moves on (their own move). A click or select on either, as drawn, answers privately
    and briefly that the board changed, in the person's language — no board image, no embed,
    no long menu, never "not your turn" — and at most a small fresh menu when the game still
    waits on them; nothing is written. Then that fresh menu works."""
    h = harness
    await open_game(h, name)
    rng = random.Random(f"stale {name}")
    seen = {"still waited on": 0, "not waited on": 0, "select": 0, "public button": 0}
    for attempt in range(STALE_TRIES):
        status = await h.bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        user = int(status.waiting_user_ids[0])
        locale = "ja" if attempt % 2 else "en-US"
        lang = "ja" if locale == "ja" else "en"
        menu = (await h.slash(user, "game hand", locale=locale)).original
        drawn = [cid for cid in menu.custom_ids if re.fullmatch(r"ry:\d+:\d+:c[bsg]:[vk][0-9a-f]*:.*", cid)]
        post = h.last_post()
        public = [cid for cid in post.custom_ids if re.fullmatch(r"ry:\d+:\d+:cb:[vk][0-9a-f]*:.*", cid)]
        pv = await _private_view(h, user)
        moved = await h.slash(user, "move", {"move": rng.choice(some_moves(pv.decision, rng))})
        assert moved.content.startswith("✅"), moved.content
        now = await h.bot.service.status(str(CHANNEL))
        if now.info.status != "active":
            break
        after = await _private_view(h, user)
        private = [(menu, cid) for cid in drawn if _stale_for(cid, after)]
        rng.shuffle(private)
        private = sorted(private, key=lambda c: ":cb:" in c[1])[:1]  # a select, where there is one
        clicks = [(post, cid) for cid in public if _stale_for(cid, after)][:1] + private
        for message, cid in clicks:
            before = dump_db(h.db_path)
            component = message.component(cid)
            if component is not None and component["type"] == 3:
                values = [o["value"] for o in component["options"]][:max(1, component.get("min_values", 1))]
                result = await h.select(message, cid, values, user, locale=locale)
                seen["select"] += 1
            elif message is post:
                result = await h.click_as_drawn(post, cid, user, locale=locale)
                seen["public button"] += 1
            else:
                result = await h.click(message, cid, user, locale=locale)
            text = result.content or ""
            assert result.ephemeral and dump_db(h.db_path) == before, text
            assert text.startswith("🔄 " + translate(lang, "discord.stale.changed")), (cid, text)
            assert translate(lang, "error.not_active").split("{")[0] not in text, text
            assert not result.attachments and not result.original.embeds, cid
            fresh = [c for c in result.original.iter_components() if c.get("custom_id")]
            assert all(c["type"] == 2 for c in fresh) and len(fresh) <= 5, fresh
            assert all(f":{now.version}:" in c["custom_id"] for c in fresh), fresh
            if after is not None and after.active:
                seen["still waited on"] += 1
                assert fresh, text  # a way back into their own menu
                again = await h.click(result.original, fresh[0]["custom_id"], user, locale=locale)
                assert not (again.content or "").startswith(("🔄", "⚠️")), again.content
                break  # that click may have moved: look at the game afresh
            seen["not waited on"] += 1
            assert not fresh and translate(lang, "discord.status.waiting", {"seats": now.waiting}, now.names) in text
    assert seen["not waited on"] and seen["public button"], seen
    h.fake.assert_clean()
