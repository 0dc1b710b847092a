"""Catan Express's places picked on the map, through the real client on the loopback Discord.

A step whose options are places on the board (an intersection, a rail's spoke, a ferry's edge,
the robber's hex, the locomotive's way) is shown privately with a pick picture (`pick.png`):
the part of the map where the options are, each marked with a numbered badge, and the buttons
or select options say the same numbers ("7 · forest 8, hills 5"). Too many places for one
picture (the first settlement of six players on the islands: about a hundred intersections)
come as region buttons first ("North-west · 21"), each showing its part of the map.

`pick_through` clicks a move through the menus as a person does, opening "Choose…" or a
region when the option to click is not on the message, and on every picture holds the numbers
on the buttons to the badges `render.pick.draw` puts on those very places (the picture sent is
byte for byte the one drawn there). The islands game with six seats (three people, one of
them Japanese, and three bots) runs its setup that way; forged region numbers and options are
refused and change nothing.
"""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.catan_express.rules import GAME
from games.core.i18n import translate
from render import pick as pick_render
from render import pool as render_pool
from render.catan_express.picks import locate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, find_id
from tests.support.chooser_walk import offered, text_of, walk_chooser

NUMBERED = re.compile(r"(\d+) · (.+)", re.S)
REGION = r"ry:\d+:\d+:cr:[vk][0-9a-f]*:{here}:(\d+)"


def label(key: str, lang: str = "en", names: Any = None, **params: Any) -> str:
    return translate(lang, key, params, names)


def lang_of(locale: str) -> str:
    return "ja" if locale.startswith("ja") else "en"


def pictures(message: Any) -> list[Any]:
    return [a for a in message.attachments if a.filename == "pick.png"]


def region_ids(message: Any, here: str) -> list[str]:
    pattern = REGION.format(here=re.escape(here))
    return sorted((c for c in message.custom_ids if re.fullmatch(pattern, c)),
                  key=lambda c: int(re.fullmatch(pattern, c).group(1)))


def check_picture(message: Any, entries: list[dict], options: list[Any], view: Any, names: list[str],
                  lang: str) -> dict[int, int]:
    """The message's pick picture against its options: every option with a place is numbered
    on its button or select option ("7 · …"), the numbers run 1… and are exactly the badges
    render.pick.draw puts on those places, each badge on its own place, and the picture sent is
    the one drawn. Returns option index -> number."""
    numbers: dict[int, int] = {}
    for e in entries:
        m = NUMBERED.fullmatch(e["label"])
        if options[e["index"]].place is not None:
            assert m, (e["label"], "a place option carries its number")
            numbers[e["index"]] = int(m.group(1))
            words = translate(lang, options[e["index"]].label.key, options[e["index"]].label.params, names)
            said = m.group(2).removesuffix("…")  # clipped at most
            assert words.startswith(said) and (said == words or said != m.group(2)), (m.group(2), words)
        else:
            assert m is None or options[e["index"]].place is not None, e["label"]
    assert sorted(numbers.values()) == list(range(1, len(numbers) + 1)), numbers
    order = sorted(numbers)
    places = [options[i].place for i in order]
    wanted = [numbers[i] for i in order]
    sent, = pictures(message)
    data, alt, badges = pick_render.draw("catan_express", render_pool.sendable(view), names, lang, places, wanted)
    assert sorted(b[0] for b in badges) == sorted(wanted)
    assert sent.data == data, "the picture sent is the one whose badges are checked"
    assert sent.description == alt and str(min(wanted)) in alt and str(max(wanted)) in alt
    # each badge is on its own place: its spot is the place's mark, cropped and scaled
    made = pick_render.picture("catan_express", view, names, lang, places, wanted)
    x0, y0, x1, _ = made.box
    scale = made.image.width / (x1 - x0)
    spot_of = {n: locate(view, p).spot for n, p in zip(wanted, places)}
    for badge in made.badges:
        sx, sy = spot_of[badge.number]
        assert abs(badge.spot[0] - (sx - x0) * scale) < 2 and abs(badge.spot[1] - (sy - y0) * scale) < 2
    return numbers


async def pick_through(h: Harness, message: Any, user: int, notation: str, *,
                       locale: str = "en-US") -> tuple[Any, list[dict]]:
    """Make `notation` from `message` (a turn post or a private message) as a person does,
    checking every pick picture on the way (`check_picture`). Per step: its key, the options on
    the message, the one clicked, whether it came with a picture, how many regions it had."""
    lang = lang_of(locale)

    async def show(message: Any, stop: Any, index: int, here: str, pv: Any) -> tuple[Any, dict, dict]:
        placed = [o for o in stop.options if o.place is not None]

        def entries_now() -> list[dict]:
            return [e for e in offered(message) if e["path"] == here]

        if (not message.ephemeral and index not in [e["index"] for e in entries_now()]
                and not region_ids(message, here)):
            # places are never listed on the public post: its parts of the map, or "Choose…",
            # show them privately
            assert all(stop.options[e["index"]].place is None for e in entries_now())
            opened = await h.click(message, find_id(message, r"ry:\d+:\d+:cb:o:"), user, locale=locale)
            message = h.fake.message(opened.original.id)
        regions = region_ids(message, here)
        if regions and message.ephemeral and not pictures(message):
            # first the parts of the map, each with how many places it holds, framed and
            # named on the whole board
            counts = [int(re.findall(r"\d+", message.component(c)["label"])[-1]) for c in regions]
            assert sum(counts) == len(placed) and all(1 <= n <= 25 for n in counts), counts
            assert label("discord.pick.regions", lang, count=len(placed)) in message.content
            assert [a.filename for a in message.attachments] == ["regions.png"]
        shown = entries_now()
        numbers: dict[int, int] = {}
        if pictures(message):
            numbers = check_picture(message, shown, stop.options, pv.view, pv.names, lang)
        for cid in regions:
            if index in [e["index"] for e in shown]:
                break
            if message.component(cid).get("disabled"):
                continue
            clicked = await h.click(message, cid, user, locale=locale)
            message = h.fake.message(clicked.original.id)
            shown = entries_now()
            assert len(pictures(message)) == 1, "a region shows its picture"
            assert label("discord.pick.numbers", lang) in message.content
            numbers = check_picture(message, shown, stop.options, pv.view, pv.names, lang)
            regions = region_ids(message, here)
        if len(placed) >= 2:
            assert numbers, (stop.step, "a step of places comes with its picture")
            assert all(1 <= n <= 25 for n in numbers.values()) and len(shown) <= 25 + len(stop.options) - len(placed)
        entry = next(e for e in shown if e["index"] == index)
        return message, entry, {"step": stop.step, "options": shown, "picked": entry, "pictured": bool(numbers),
                                "regions": len(region_ids(message, here)) or 1, "message": message}

    return await walk_chooser(h, message, user, notation, show, locale=locale)


async def refused_and_unchanged(h: Harness, click: Any, lang: str) -> None:
    """A tampered click (`click()` sends it) is refused privately with the usual words, and
    the game is as it was."""
    before = await h.bot.service.status(str(CHANNEL))
    refused = await click()
    assert refused.ephemeral and label("choice.error.not_offered", lang) in text_of(h, refused), text_of(h, refused)
    after = await h.bot.service.status(str(CHANNEL))
    assert after.version == before.version


async def forged_button(h: Harness, message: Any, real: str, forged: str, user: int, locale: str) -> None:
    """Click the button `real` as a tampered client would: sending `forged` as its id."""
    live = h.fake.message(message.id)
    component = live.component(real)
    component["custom_id"] = forged

    async def click() -> Any:
        try:
            return await h.click(live, forged, user, locale=locale)
        finally:
            component["custom_id"] = real
    await refused_and_unchanged(h, click, lang_of(locale))


async def forged_option(h: Harness, message: Any, select: str, value: str, user: int, locale: str) -> None:
    """Pick `value` in the select `select` as a tampered client would: a value it never offered."""
    live = h.fake.message(message.id)
    options = live.component(select)["options"]
    options.append({"label": "forged", "value": value})

    async def click() -> Any:
        try:
            return await h.select(live, select, [value], user, locale=locale)
        finally:
            options.pop()
    await refused_and_unchanged(h, click, lang_of(locale))


async def forgeries_refused(h: Harness, user: int, locale: str) -> int:
    """On the first settlement's turn post, whose buttons are the parts of the map: a region
    that does not exist and, in a real region's picture, an option beyond the step's. Returns
    how many regions there were."""
    post = h.last_post()
    regions = region_ids(post, "")
    assert len(regions) > 1 and not pictures(post)
    await forged_button(h, post, regions[0], regions[0].rsplit(":", 1)[0] + ":99", user, locale)
    shown = await h.click(post, regions[-1], user, locale=locale)
    page = h.fake.message(shown.original.id)
    assert pictures(page)
    entry = offered(page)[0]
    if entry["kind"] == "button":
        await forged_button(h, page, entry["custom_id"], entry["custom_id"].rsplit(":", 1)[0] + ":999", user, locale)
    else:
        await forged_option(h, page, entry["custom_id"], "999", user, locale)
    return len(regions)


@pytest.mark.slow  # a whole game
async def test_six_on_the_islands_place_by_region_and_number(harness: Harness) -> None:
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "catan_express", "options": "map=islands"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"), locale="ja")
    await h.click(lobby, None, CAROL, label=label("discord.lobby.join"))
    for _ in range(3):
        await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    status = await h.bot.service.status(str(CHANNEL))
    game_id = status.info.game_id
    state = await h.bot.service.rebuild(game_id)
    assert state.map_id == "islands_large" and state.n == 6
    seat_of = {int(s.user_id): s.seat for s in status.info.seats if s.user_id is not None and s.user_id.isdigit()}
    assert set(seat_of) == {ALICE, BOB, CAROL}
    locales = {ALICE: "en-US", BOB: "ja", CAROL: "en-US"}
    rng = random.Random(5)
    most_regions = 0
    pictured: set[str] = set()
    forged = 0
    start: dict[int, Any] = {}  # a player's reply that already offers their next step
    rails_in_reply = rails_asked = 0
    langs_seen: set[str] = set()
    for _ in range(40):
        status = await h.bot.service.status(str(CHANNEL))
        state = await h.bot.service.rebuild(game_id)
        if state.phase != "setup":
            break
        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]
        if not forged and not state.setup_rail:
            forged = await forgeries_refused(h, user, locales[user])
        notation = GAME.format_action(GAME.bots()["builder"].choose(GAME, state, seat, rng))
        message = start.pop(user, None)
        if message is not None:
            rails_in_reply += 1
            assert label("catan_express.ask.setup_rail", lang_of(locales[user]), round=2) in message.content, message.content
        done, steps = await pick_through(h, message or h.last_post(), user, notation, locale=locales[user])
        assert text_of(h, done).startswith("✅"), text_of(h, done)
        most_regions = max([most_regions] + [s["regions"] for s in steps])
        pictured |= {s["step"] for s in steps if s["pictured"]}
        langs_seen.add(lang_of(locales[user]))
        after = await h.bot.service.rebuild(game_id)
        if after.phase == "setup" and after.setup_rail and GAME.active_players(after) == {seat} \
                and len(GAME.legal_actions(after, seat)) >= 2:
            # the second settlement's reply asks for the free rail at once, with its picture
            reply = h.fake.message(done.original.id)
            assert reply.ephemeral and pictures(reply), reply.content
            start[user] = reply
            rails_asked += 1
    else:
        raise AssertionError("the setup did not end")
    assert pictured == {"catan_express.step.point", "catan_express.step.centre"}, pictured
    assert langs_seen == {"en", "ja"}
    # the first settlements of six players: far more places than one picture holds
    assert forged >= 4 and most_regions >= 4, (forged, most_regions)
    assert rails_in_reply == rails_asked >= 1
