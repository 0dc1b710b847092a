"""A whole short Steam game between two users and a bot, played only through Discord: bids
typed into the amount's modal, action tiles as buttons on the turn post, builds clicked as
hex → tile in place (picked by the numbers on pictures of the map), deliveries as cube → route
(each route's picture with its points), and the income-or-points buttons — for the mover and
for a player whose link the mover used; errors read in Japanese by a Japanese user.

The game is the real one on the real map, shortened to a few turns (the length is the only
thing changed) so that it ends inside a test.
"""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.core.i18n import translate
from games.steam import decisions as steps
from games.steam.tiles import tileset
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id
from tests.support import dump_db
from tests.support.chooser_walk import offered, press, text_of, walk_chooser

TURNS = 5


@pytest.fixture
def steam(monkeypatch):
    from games.steam import economy
    from games.steam.rules import GAME

    monkeypatch.setattr(economy, "game_turns", lambda players: TURNS)
    yield GAME


def label(key: str, lang: str = "en", **params: Any) -> str:
    return translate(lang, key, params)


async def open_game(h: Harness) -> int:
    opened = await h.slash(ALICE, "game new", {"game": "steam"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    return await h.game_id()


async def click_through(h: Harness, message: Any, user: int, notation: str, *,
                        locale: str = "en-US") -> tuple[Any, list[dict]]:
    """From `message` (a turn post, a private reply), click the chooser's options one step after
    another, as a person would, until `notation` is played: where a step's places are left to
    the private menu or split into regions of the map, through "Choose…" and the region buttons
    (Harness.show_option). Returns the last interaction and, per step, what was shown there
    (`options`, the message with its `picture` when it has one) and what was clicked (`picked`)."""

    async def show(message: Any, stop: Any, index: int, here: str, pv: Any) -> tuple[Any, dict, dict]:
        message = await h.show_option(message, here, index, user, locale=locale)
        options = [e for e in offered(message) if e["path"] == here]
        shown = sorted(e["index"] for e in options)
        regions = [c for c in message.custom_ids if re.fullmatch(rf"ry:\d+:\d+:cr:[^:]+:{re.escape(here)}:\d+", c)]
        # every option of a step is on the message, but places picked on a picture: those are
        # in the private menu (the turn post says "Choose…"), a region of them at a time
        missing = set(range(len(stop.options))) - set(shown)
        assert all(stop.options[i].place is not None for i in missing), (stop.step, shown)
        assert not missing or regions or not message.ephemeral, (stop.step, shown)
        entry = next(e for e in options if e["index"] == index)
        picture = next((a for a in message.attachments if a.filename == "pick.png"), None)
        return message, entry, {"step": stop.step, "options": options, "picked": entry, "message": message,
                                "public": not message.ephemeral, "picture": picture, "regions": len(regions)}

    return await walk_chooser(h, message, user, notation, show, locale=locale)


def _sharing(game: Any, state: Any, seat: int, humans: set[int]) -> Any:
    """A delivery that gives points to another human player, if the mover has one."""
    for found in game.deliveries(state, seat):
        if any(s != seat and s in humans for s, _ in found.points):
            return found
    return None


@pytest.mark.slow  # a whole game
async def test_steam_whole_game_through_discord(harness: Harness, fake, steam) -> None:
    h = harness
    bot = h.bot
    game = steam
    game_id = await open_game(h)
    status = await bot.service.status(str(CHANNEL))
    assert status.info.game == "steam" and len(status.names) == 3
    seat_of = {int(s.user_id): s.seat for s in status.info.seats if s.user_id and not s.is_bot}
    assert set(seat_of) == {ALICE, BOB}
    humans = set(seat_of.values())
    builder = game.bots()["builder"]
    rng = random.Random(5)
    used = {"bid_modal": 0, "action_button": 0, "tile_in_place": 0, "three_step_build": 0, "build": 0, "done": 0,
            "delivery": 0, "route_step": 0, "score_mover": 0, "score_other": 0, "japanese_error": 0, "pass": 0}

    for _ in range(600):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        assert status.waiting_user_ids, "the game waits on nobody but the bot after idle()"
        state = await bot.service.rebuild(game_id)
        post = h.last_post()
        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]
        assert seat in game.active_players(state)
        action = builder.choose(game, state, seat, rng)
        phase = state.phase

        if phase == "deliver" and not state.pending:
            shared = _sharing(game, state, seat, humans)
            if shared is not None:
                action = game.parse_action(f"deliver {shared.colour.value} {game._route_text(state, shared)}")
        notation = game.format_action(action)

        if phase in ("first_auction", "auction"):
            low, high = game.bid_range(state, seat)
            if not used["bid_modal"] and low <= high:
                notation = f"bid {low + (1 if low < high else 0)}"
            # the amount opens a modal; the number typed is the bid
            done = await h.choose(user, notation, start="hand" if used["bid_modal"] % 2 else "post")
            assert text_of(h, done).startswith("✅"), text_of(h, done)
            used["bid_modal" if notation.startswith("bid") else "pass"] += 1
            continue

        if phase == "build" and used["japanese_error"] == 0 and user == BOB:
            refused = await h.slash(BOB, "move", {"move": "build Z99 21 r0"}, locale="ja")
            assert refused.ephemeral
            # a hex beyond the map's edge is named as such, in the player's language
            assert label("steam.error.unknown_hex", "ja", hex="Z99") in refused.content, refused.content
            used["japanese_error"] += 1

        done, shown = await click_through(h, post, user, notation)
        assert text_of(h, done).startswith("✅"), (notation, text_of(h, done))
        asked = [s["step"] for s in shown]
        if phase == "actions":
            assert asked == [steps.ACTION] and shown[0]["picked"]["kind"] == "button"
            tile = notation.split()[1]
            assert label(f"steam.tile.{tile}") in shown[0]["picked"]["label"]
            used["action_button"] += 1
        elif phase == "build" and notation != "done" and notation.split()[0] in ("build", "upgrade", "redirect"):
            how, hex_label, face, rotation = notation.split()
            assert asked[0] == steps.BUILD and hex_label in shown[0]["picked"]["label"]
            # the hexes are picked on the map, by the numbers on its picture
            assert shown[0]["picture"] is not None and shown[0]["public"] is False
            assert shown[0]["picked"]["label"].split(" · ")[0].isdigit(), shown[0]["picked"]["label"]
            sides = tileset().faces[face].exits_at(int(rotation[1:]))
            if asked == [steps.BUILD, steps.TILE]:
                tile = shown[1]["picked"]["label"]  # the tile, where its track goes, and its price
                assert face in tile and "$" in tile and all(label(f"steam.side.{side}") in tile for side in sides), tile
                assert shown[1]["picture"] is not None
                used["tile_in_place"] += 1
            if asked == [steps.BUILD, steps.FACE, steps.ROTATION]:
                assert face in shown[1]["picked"]["label"]
                rot = shown[2]["picked"]["label"]  # the rotation says where its track goes, and its price
                assert all(label(f"steam.side.{side}") in rot for side in sides) and "$" in rot, rot
                used["three_step_build"] += 1
            used["build"] += 1
        elif phase == "build":
            used["done" if notation == "done" else "build"] += 1
        elif phase == "deliver" and state.pending:
            mover = state.step_order[state.step_pos]
            points = state.pending[0][1]
            assert asked == [steps.SCORE]
            labels = sorted(e["label"] for e in shown[0]["options"])
            p = state.players[seat]
            assert labels == sorted([
                label("steam.choice.score_income", points=points, before=p.income, after=p.income + points),
                label("steam.choice.score_points", points=points, before=p.points, after=p.points + points)])
            used["score_mover" if mover == seat else "score_other"] += 1
        elif phase == "deliver" and notation.startswith("deliver"):
            assert asked[0] == steps.CUBE
            if len(asked) == 2:
                assert asked[1] == steps.ROUTE
                route = shown[1]["picked"]["label"]
                assert "→" in route and label("steam.choice.you_points", points=1)[:3] in route, route
                assert shown[1]["picture"] is not None  # each route drawn with its points
                used["route_step"] += 1
            used["delivery"] += 1
    else:
        pytest.fail("the game did not end")

    status = await bot.service.status(str(CHANNEL))
    assert status.info.status == "finished"
    final = h.last_post()
    assert final.embeds, final.content
    assert used["bid_modal"] and used["action_button"] and used["tile_in_place"] and used["done"], used
    assert used["delivery"] and used["score_mover"] and used["japanese_error"], used
    assert used["score_other"], used  # a human answered for points another player's delivery gave them
    h.fake.assert_clean()


async def test_the_status_embed_and_the_hand_speak_steam(harness: Harness, fake, steam) -> None:
    h = harness
    await open_game(h)
    post = h.last_post()
    embed = post.embeds[0]
    text = embed.get("description") or ""
    assert label("steam.discord.mode.basic") in text, text
    fields = embed.get("fields") or []
    assert len(fields) == 3 and all("$" in f["value"] for f in fields), fields
    # nothing in Steam is private (ST-15): no "Show my hand" on the post; /game hand says so
    # before the player's own numbers
    assert find_id(post, r"ry:\d+:\d+:hand") is None, post.custom_ids
    hand = await h.slash(BOB, "game hand", locale="ja")
    assert hand.ephemeral
    assert hand.content.startswith("ℹ️ " + label("discord.hand.all_public", "ja", game=label("steam.title", "ja")))
    assert "機関車" in hand.content, hand.content
    rules = await h.slash(BOB, "game rules", {"game": "steam"}, locale="ja")
    text = rules.original.embeds[0]["description"]
    assert "map=rhine_ruhr" in text and "標準ゲーム" in text, text
    h.fake.assert_clean()


async def test_a_steam_game_takes_its_options(harness: Harness, fake, steam) -> None:
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "steam", "options": "map=rhine_ruhr, standard=true"})
    assert opened.ephemeral and opened.content.startswith("✅"), opened.content
    refused = await h.slash(BOB, "game new", {"game": "steam", "options": "map=atlantis"}, channel=502)
    assert refused.ephemeral and not refused.content.startswith("✅"), refused.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    state = await h.bot.service.rebuild(await h.game_id())
    assert state.options.map == "rhine_ruhr" and state.options.standard and state.phase == "capital"
    status = await h.bot.service.status(str(CHANNEL))
    user = int(status.waiting_user_ids[0])
    pv = await h.bot.service.private_view(str(CHANNEL), str(user))
    assert [a.template for a in pv.decision.amounts] == ["capital {}"]
    done = await h.choose(user, "capital 1")
    assert text_of(h, done).startswith("✅"), text_of(h, done)
    h.fake.assert_clean()


async def test_a_refused_typed_move_quotes_the_players_own_words(harness: Harness) -> None:
    """機関車 is "locomotive" to the move reader; the answer still quotes what was typed."""
    h = harness
    await open_game(h)
    status = await h.bot.service.status(str(CHANNEL))
    user = int(status.waiting_user_ids[0])
    typed = "蒸気機関車で行こう!!"
    before = dump_db(h.db_path)
    refused = await h.slash(user, "move", {"move": typed}, locale="ja")
    assert refused.ephemeral
    assert f"「{typed}」" in refused.content and "locomotive" not in refused.content, refused.content
    assert dump_db(h.db_path) == before
    h.fake.assert_clean()


# ---------------------------------------------------------------------------- picked on the map
NUMBERED = re.compile(r"(\d+) · ")


async def _to_a_build(h: Harness, game: Any) -> tuple[int, Any]:
    """Play the builder bot's moves for everyone through Discord until a person is asked where
    to build: (that user, the state)."""
    builder = game.bots()["builder"]
    rng = random.Random(3)
    game_id = await open_game(h)
    for _ in range(200):
        status = await h.bot.service.status(str(CHANNEL))
        state = await h.bot.service.rebuild(game_id)
        user = int(status.waiting_user_ids[0])
        seat = next(s.seat for s in status.info.seats if s.user_id == str(user))
        if state.phase == "build" and game.placements(state, seat):
            return user, state
        done = await h.choose(user, game.format_action(builder.choose(game, state, seat, rng)))
        assert text_of(h, done).startswith("✅"), text_of(h, done)
    raise AssertionError("nobody was asked to build")


async def _numbered(h: Harness, message: Any, user: int, here: str, options: list, locale: str) -> list[dict]:
    """The options of the stop `here` on `message` that carry a number, checked against the pick
    picture attached: the numbers are the badges render.pick draws for those places, each badge
    on its own place, and the picture is the very one drawn for them."""
    from render import pick
    from render.pool import sendable

    lang = "ja" if locale == "ja" else "en"
    pv = await h.bot.service.private_view(str(CHANNEL), str(user))
    entries = [e for e in offered(message) if e["path"] == here]
    numbered = [e for e in entries if NUMBERED.match(e["label"])]
    assert numbered, [e["label"] for e in entries]
    for e in entries:  # a number on every place, on nothing else
        assert (options[e["index"]].place is not None) == (e in numbered), e["label"]
    numbers = [int(NUMBERED.match(e["label"]).group(1)) for e in numbered]
    places = [options[e["index"]].place for e in numbered]
    data, alt, badges = pick.draw("steam", sendable(pv.view), pv.names, lang, places, numbers)
    assert sorted(b[0] for b in badges) == sorted(numbers) == list(range(1, len(numbers) + 1))
    (picture,) = [a for a in message.attachments if a.filename == "pick.png"]
    assert picture.data == data and picture.description == alt
    drawn = pick.picture("steam", pv.view, pv.names, lang, places, numbers)
    marks = pick.locate("steam", pv.view, places)
    if len({p.at for p in places}) > 1 and not all(p.show for p in places):  # one crop: each badge on its place
        x0, y0, x1, _ = drawn.box
        scale = drawn.image.width / (x1 - x0)
        at = {n: ((m.spot[0] - x0) * scale, (m.spot[1] - y0) * scale) for n, m in zip(numbers, marks)}
        for badge in drawn.badges:
            assert abs(badge.spot[0] - at[badge.number][0]) < 1 and abs(badge.spot[1] - at[badge.number][1]) < 1
    return numbered


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_places_are_picked_by_the_numbers_on_their_picture(harness: Harness, fake, steam, locale: str) -> None:
    """Where to build comes with a picture of the map: its numbers are on the buttons and select
    options, region by region when the hexes are many; the tile step shows each way to lay a tile
    on that hex, numbered the same; a forged region or option is refused and changes nothing."""
    h = harness
    game = steam
    lang = "ja" if locale == "ja" else "en"
    user, state = await _to_a_build(h, game)
    pv = await h.bot.service.private_view(str(CHANNEL), str(user))
    first = pv.decision.first_step()
    post = h.last_post()
    # the turn post leaves the hexes to their pictures: a button per part of the map (one when
    # a picture holds them all); its other options stay quick taps
    assert all(first[e["index"]].place is None for e in offered(post))
    regions = sorted((c for c in post.custom_ids if re.fullmatch(r"ry:\d+:\d+:cr:[^:]+::\d+", c)),
                     key=lambda c: int(c.rsplit(":", 1)[1]))
    hexes = [o for o in first if o.place is not None]
    assert regions
    if len(hexes) > 25:
        assert len(regions) >= 2  # first a part of the map
        counts = [int(re.findall(r"\d+", post.component(c)["label"])[-1]) for c in regions]
        assert sum(counts) == len(hexes) and max(counts) <= 25
    menu = h.fake.message((await h.click(post, regions[0], user, locale=locale)).original.id)
    if len(regions) > 1:
        assert menu.component(regions[0]).get("disabled")
    numbered = await _numbered(h, menu, user, "", first, locale)
    assert translate(lang, "discord.pick.numbers") in menu.content

    # a forged region, a forged option: refused with the usual words, and nothing changes
    before = dump_db(h.db_path)
    real = next(c for c in regions + menu.custom_ids if re.fullmatch(r"ry:\d+:\d+:c[rb]:.*", c)
                and not menu.component(c).get("disabled"))
    head = real.split(":cr:")[0] if ":cr:" in real else real.split(":cb:")[0]
    check = real.split(":")[4]
    for forged in (f"{head}:cr:{check}::99", f"{head}:cb:{check}::{len(first) + 5}"):
        refused = await click_forged(h, menu, real, forged, user, locale)
        assert refused.ephemeral and label("choice.error.not_offered", lang) in text_of(h, refused), \
            text_of(h, refused)
    assert dump_db(h.db_path) == before

    # the tile step: every way to lay a tile on the hex, each drawn in place, numbered alike
    hex_entry, stop = next((e, s) for e in numbered if (s := pv.decision.walk([first[e["index"]].value])).options)
    shown = await press(h, menu, hex_entry, user, locale=locale)
    step = h.fake.message(shown.original.id)
    assert all(o.place is not None and o.place.show for o in stop.options)
    await _numbered(h, step, user, str(hex_entry["index"]), stop.options, locale)
    assert dump_db(h.db_path) == before  # nothing is made until the last pick
    h.fake.assert_clean()


async def click_forged(h: Harness, message: Any, real: str, forged: str, user: int, locale: str) -> Any:
    """Click the button `real` of `message` as a tampered client would, sending `forged` as its id."""
    live = h.fake.message(message.id)
    button = live.component(real)
    button["custom_id"] = forged
    try:
        return await h.click(live, forged, user, locale=locale)
    finally:
        button["custom_id"] = real
