"""Places picked on the map, through the real discord.py client against the loopback Discord,
for Galactic Railway (a tile's placements), Santa Fe (a railroad's sections) and Ticket to
Ride (claimable routes, pictured when more than 10): a person's place step arrives privately
with a pick.png, the numbers before its buttons and select options ("7 · …") are exactly the
badge numbers render.pick.draw gives those places (the very picture sent), in English and in
Japanese; a forged part of the map or option is refused with the usual message and changes
nothing. Galactic Railway's hand image numbers the same places with the same numbers.

The games are driven with /move (each game's own bot choosing; Ticket to Ride's players draw
cards until many routes are claimable) until a person faces such a step.
"""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.discord.chooser import on_board
from games import registry
from games.core.i18n import translate
from render import pick
from render import pool as render_pool
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id
from tests.support.chooser_walk import offered, text_of

NUMBERED = re.compile(r"(\d+) · (.+)")
BOTS = {"ginga": "scorer", "santa_fe": "builder", "ticket_to_ride": "planner"}


async def start(h: Harness, game: str, locale: str) -> int:
    lang = "ja" if locale == "ja" else "en"
    options = {"game": game, **({"language": "ja"} if lang == "ja" else {})}
    if game == "ginga":
        options["options"] = "start_player=1"
    opened = await h.slash(ALICE, "game new", options, locale=locale)
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate(lang, "discord.lobby.join"), locale=locale)
    await h.click(lobby, None, ALICE, label=translate(lang, "discord.lobby.start"), locale=locale)
    return await h.game_id()


def place_entry(decision: Any) -> tuple[int, Any] | None:
    """A first-step option (its index) leading to a step picked on the map, and that step."""
    for index, option in enumerate(decision.first_step()):
        if decision.entry_group(option.value) is not None:
            continue
        stop = decision.walk([option.value])
        if stop.move is None and on_board(stop.options):
            return index, stop
    return None


async def drive(h: Harness, game_name: str, game_id: int) -> tuple[int, int, Any]:
    """Play with /move until a person is waited on with a step picked on the map: (user,
    first-step index that leads there, the step)."""
    game = registry.get(game_name)
    bot = game.bots()[BOTS[game_name]]
    rng = random.Random(3)
    for _ in range(300):
        status = await h.bot.service.status(str(CHANNEL))
        assert status.info.status == "active"
        for user_id in status.waiting_user_ids:
            user = int(user_id)
            seat = next(s.seat for s in status.info.seats if s.user_id == user_id)
            state = await h.bot.service.rebuild(game_id)
            found = place_entry(game.decision(state, seat))
            if found is not None:
                return user, found[0], found[1]
            legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
            # Ticket to Ride: gather cards, so that many routes become claimable
            notation = "draw deck" if "draw deck" in legal else game.format_action(bot.choose(game, state, seat, rng))
            done = await h.slash(user, "move", {"move": notation})
            assert "✅" in done.content, done.content
            break
    raise AssertionError(f"{game_name}: no person faced a step picked on the map")


async def open_place_step(h: Harness, user: int, index: int, locale: str) -> Any:
    """Click the turn post's first-step button that leads to the place step: the private reply."""
    post = h.last_post()
    cid = find_id(post, rf"ry:\d+:\d+:cb:[vk][0-9a-f]*::{index}")
    assert cid, post.custom_ids
    result = await h.click(post, cid, user, locale=locale)
    assert result.ephemeral
    return h.fake.message(result.original.id)


def numbers_shown(message: Any, stop: Any) -> dict[int, Any]:
    """The number before each option the message shows -> that option's place."""
    out = {}
    for entry in offered(message):
        match = NUMBERED.fullmatch(entry["label"])
        assert match, entry["label"]
        option = stop.options[entry["index"]]
        assert match.group(2) == text_label(option, message), (match.group(2), option.label)
        out[int(match.group(1))] = option.place
    return out


def text_label(option: Any, message: Any) -> str:
    lang = "ja" if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", message.content or "") else "en"
    from bot.discord.text import event_text

    return event_text(lang, option.label, None)


@pytest.mark.parametrize("game_name", ["ginga", "santa_fe", "ticket_to_ride"])
@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_place_step_comes_with_its_picture_and_the_same_numbers(harness: Harness, fake, game_name,
                                                                          locale) -> None:
    h = harness
    lang = "ja" if locale == "ja" else "en"
    game_id = await start(h, game_name, locale)
    user, index, stop = await drive(h, game_name, game_id)
    message = await open_place_step(h, user, index, locale)
    parts = h.region_buttons(message, str(index))
    if parts:  # the parts of the map first, then the first part's picture
        assert offered(message) == [] and [a.filename for a in message.attachments] == ["regions.png"]
        opened = await h.click(message, parts[0], user, locale=locale)
        message = fake.message(opened.original.id)
    assert [a.filename for a in message.attachments] == ["pick.png"]
    assert "🔢 " + translate(lang, "discord.pick.numbers") in message.content
    shown = numbers_shown(message, stop)
    assert sorted(shown) == list(range(1, len(shown) + 1))

    # the picture sent is the one render.pick.draw makes for those places with those numbers
    pv = await h.bot.service.private_view(str(CHANNEL), str(user))
    numbers = sorted(shown)
    data, alt, badges = pick.draw(game_name, render_pool.sendable(pv.view), pv.names, lang,
                                  [shown[n] for n in numbers], numbers)
    assert sorted(b[0] for b in badges) == numbers
    attachment = message.attachments[0]
    assert attachment.data == data and attachment.description == alt

    if game_name == "ginga":  # the hand image numbers the tile's places the same way
        from games.ginga.decisions import where
        from render.ginga.places import menu_numbers

        tile = stop.picks[0]
        mine = [o for o in pv.view.options if o.tile == tile]
        hand = dict(zip((where(o.cells) for o in mine), menu_numbers(pv.view, mine)))
        assert {n: p for n, p in shown.items()} == {n: p for p, n in hand.items() if n in shown}

    # forged: an option beyond the step's, a part of the map that is not there
    before = (await h.bot.service.status(str(CHANNEL))).version
    some = next(c for c in message.custom_ids if re.fullmatch(rf"ry:\d+:\d+:c[bs]:[vk][0-9a-f]*:{index}:\d+", c))
    head = some.rsplit(":", 4)[0]  # ry:<game>:<version>
    check = some.split(":")[4]
    for forged in (f"{head}:cb:{check}:{index}:{len(stop.options) + 7}", f"{head}:cr:{check}:{index}:{len(parts) + 5}"):
        refused = await h.click_as_drawn(message, forged, user, locale=locale)
        assert refused.ephemeral and translate(lang, "choice.error.not_offered") in text_of(h, refused), \
            text_of(h, refused)
        assert (await h.bot.service.status(str(CHANNEL))).version == before
    fake.assert_clean()
