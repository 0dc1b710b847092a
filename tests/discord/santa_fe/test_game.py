"""A whole short Santa Fe game between two users and a bot, played only through Discord:
the secret card choice in each player's own menu, track laying as railroad → placement
through the one chooser (from the turn post, from the player's hand or from the private
reply to a first tile), draws and exchanges with buttons and selects, some moves with /move.

The `santa_fe` fixture plays the real game on the real map with fewer track tiles per
railroad (8 instead of 17–32) so that it ends ("all track placed") in about six rounds.
"""
from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import pytest

from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, final_buttons, find_id
from tests.discord.test_full_game import payload_text
from tests.support.chooser_walk import offered, press, text_of, walk_chooser

SHORT_TILES = 8


@pytest.fixture
def santa_fe(monkeypatch):
    """Santa Fe on a short board (few tiles per railroad) so a whole game fits in a test."""
    from games.santa_fe.rules import GAME

    board = GAME.board
    short = board.model_copy(update={"railroads": [rr.model_copy(update={"tiles": SHORT_TILES})
                                                   for rr in board.railroads]})
    monkeypatch.setattr(GAME, "_board", short)
    yield GAME


def label(key: str, **params: Any) -> str:
    from games.core.i18n import translate

    return translate("en", key, params)


def round_pattern() -> re.Pattern[str]:
    """The public "Round N: X is the first player" line, built from the catalog's wording."""
    from games.core.i18n import translate

    text = translate("en", "santa_fe.ev.round", {"round": "ROUNDNO", "seat": 0}, ["SEATNAME"])
    head = text.split("SEATNAME")[0] + "SEATNAME" + text.split("SEATNAME")[1].split(".")[0]
    return re.compile(re.escape(head).replace("ROUNDNO", r"(\d+)").replace("SEATNAME", ".+"))


def key_check(key: str) -> str:
    """The check a keyed decision's components carry: `k` and 8 hex of the key's SHA-1."""
    return "k" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


async def open_game(h: Harness) -> int:
    opened = await h.slash(ALICE, "game new", {"game": "santa_fe"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    return await h.game_id()


# ---------------------------------------------------------------------------- the chooser, as seen
async def pick_label(h: Harness, message: Any, text: str, user: int, *, locale: str = "en-US") -> Any:
    """Click the option a person reads as `text`."""
    matches = [e for e in offered(message) if e["label"] == text]
    assert len(matches) == 1, (text, [e["label"] for e in offered(message)])
    return await press(h, message, matches[0], user, locale=locale)


async def click_through(h: Harness, message: Any, user: int, notation: str, *,
                        locale: str = "en-US") -> tuple[Any, list[dict]]:
    """From `message` (a turn post, a hand, a private reply), click the chooser's options one
    step after another, as a person would, until `notation` is played. The option to click at
    each step is the one the rules' menu leads through to that move. Returns the last
    interaction and, per step, what was shown there (`options`), what was clicked (`picked`),
    the step's `places` and, for a step picked on the map, its `picture` (the pick.png) and the
    `parts` of the map it came in (each part's options; none when it came whole)."""

    async def show(message: Any, stop: Any, index: int, here: str, pv: Any) -> tuple[Any, dict, dict]:
        options = [e for e in offered(message) if e["path"] == here]
        parts: list[list[dict]] = []
        if not options and h.region_buttons(message, here):
            # pictured in parts of the map: look at every part, then go back to the one
            # holding the option; every option is in exactly one part
            holder, last = None, None
            for n, cid in enumerate(h.region_buttons(message, here)):
                opened = await h.click(message, cid, user, locale=locale)
                message = h.fake.message(opened.original.id)
                parts.append([e for e in offered(message) if e["path"] == here])
                last = n
                if any(e["index"] == index for e in parts[-1]):
                    holder = n
            assert holder is not None and last is not None
            if holder != last:
                opened = await h.click(message, h.region_buttons(message, here)[holder], user, locale=locale)
                message = h.fake.message(opened.original.id)
            options = [e for e in offered(message) if e["path"] == here]
            assert sorted(e["index"] for part in parts for e in part) == list(range(len(stop.options))), \
                "every option of a step is in one part of the map"
        else:
            assert sorted(e["index"] for e in options) == list(range(len(stop.options))), \
                "every option of a step is on the message"
        entry = next(e for e in options if e["index"] == index)
        picture = next((a.data for a in message.attachments if a.filename == "pick.png"), None)
        return message, entry, {"step": stop.step, "options": options, "picked": entry, "message": message,
                                "public": not message.ephemeral, "parts": parts, "picture": picture,
                                "places": [o.place for o in stop.options]}

    return await walk_chooser(h, message, user, notation, show, locale=locale)


@pytest.mark.slow  # a whole game
async def test_santa_fe_whole_game_through_discord(harness: Harness, fake, santa_fe) -> None:
    h = harness
    bot = h.bot
    game = santa_fe
    board = game.board
    from bot.discord.ui.santa_fe import UI

    game_id = await open_game(h)
    status = await bot.service.status(str(CHANNEL))
    names = status.names
    assert status.info.game == "santa_fe" and len(names) == 3
    seat_of = {int(s.user_id): s.seat for s in status.info.seats if s.user_id and not s.is_bot}
    user_of = {seat: user for user, seat in seat_of.items()}
    assert set(seat_of) == {ALICE, BOB}
    builder = game.bots()["builder"]
    rng = random.Random(7)

    private_lines: set[str] = set()  # what only one player was shown (🔒 lines)
    choices_by_round: dict[int, dict[int, str]] = {}  # round -> seat -> the choice in words
    used = {"choose": 0, "choose_from_hand": 0, "choose_from_post": 0, "post_flow": 0, "page_flow": 0,
            "move": 0, "draw_button": 0, "draw_private": 0, "exchange": 0, "double": 0, "spur_draw": 0,
            "spur_place": 0, "errors": 0, "simultaneous": 0, "second_from_reply": 0, "placement_label": 0,
            "exchange_both": 0, "placement_pictured": 0}
    last_done: dict[int, Any] = {}  # user -> the latest private "done" message (with its next choice)

    def collect(result: Any) -> None:
        for message in result.messages:
            assert message.ephemeral, message.content
            for line in (message.content or "").splitlines():
                if line.startswith("🔒"):
                    private_lines.add(line[1:].strip())

    def planned(state: Any, seat: int) -> Any:
        return builder.choose(game, state, seat, rng)

    async def refused(result: Any, contains: str | None = None) -> None:
        assert result.ephemeral, result.content
        text = text_of(h, result)
        assert text.startswith(("⚠️", "🔄")), text
        if contains is not None:
            assert contains in text, text
        used["errors"] += 1

    for step in range(400):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        assert status.waiting_user_ids, "the game waits on nobody but the bot after idle()"
        state = await bot.service.rebuild(game_id)
        post = h.last_post()
        phase = state.phase

        # ---------------------------------------------------------------- secret card choice
        if phase == "choose":
            round_no = state.round
            humans = [int(u) for u in status.waiting_user_ids]
            # the bot chose first; what it chose is in the state only
            record = choices_by_round.setdefault(round_no, {})
            for seat, p in enumerate(state.players):
                if p.choice is not None and seat not in user_of:
                    spur_rr = p.spur if p.choice.spur else -1
                    record[seat] = UI.choice_text(p.choice.card, p.choice.spur, spur_rr, "en")
            # the post offers no card (choosing is secret), only a way into one's own menu
            open_id = find_id(post, rf"ry:{game_id}:\d+:cb:o:")
            assert open_id and post.component(open_id)["label"] == label("discord.choose.open")
            assert offered(post) == [], post.custom_ids
            # every waiting player opens their own menu first (one from "Show my hand", one
            # from "Choose…", taking turns by round), then both choose: the second menu was
            # drawn before the first choice changed the board, and still works (its key holds)
            menus = {}
            for i, user in enumerate(humans):
                if (i + round_no) % 2 == 0:
                    hand_id = find_id(post, rf"ry:{game_id}:\d+:hand")
                    assert hand_id and post.component(hand_id)["label"] == label("discord.button.hand")
                    page = await h.click(post, hand_id, user)
                    assert any(a.filename == "hand.png" for a in page.attachments)
                    assert "Your city cards:" in page.content
                    used["choose_from_hand"] += 1
                else:
                    page = await h.click(post, open_id, user)
                    used["choose_from_post"] += 1
                collect(page)
                assert page.ephemeral
                menus[user] = page.original
            if len(humans) == 2:
                used["simultaneous"] += 1
            for user in humans:
                seat = seat_of[user]
                menu = menus[user]
                entries = offered(menu)
                assert entries and {e["check"] for e in entries} == {key_check(f"choose.{round_no}")}
                me = state.players[seat]
                legal = game.legal_actions(state, seat)
                # one option per legal card, in words (a held spur goes with every card)
                words = [UI.choice_text(a.card, a.spur, me.spur if a.spur else -1, "en") for a in legal]
                assert sorted(e["label"] for e in entries) == sorted(words)
                action = planned(state, seat)
                if round_no >= 2 and used["double"] == 0 and me.doubles:
                    action = next(a for a in legal if a.card < 0)  # a double turn
                    used["double"] += 1
                chosen = UI.choice_text(action.card, action.spur, me.spur if action.spur else -1, "en")
                record[seat] = chosen
                if len(humans) == 2 and user == humans[-1]:
                    # drawn before the other player's choice moved the game on
                    assert max(e["version"] for e in entries) < (await bot.service.status(str(CHANNEL))).version
                done = await pick_label(h, menu, chosen, user)
                collect(done)
                text = fake.message(menu.id).content
                assert text.startswith("✅"), text
                assert f"🔒 You chose {chosen}." in text
                used["choose"] += 1
            continue

        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]

        # ---------------------------------------------------------------- double-turn exchange
        if phase == "exchange":
            # secret: the post only opens the player's own menu
            assert offered(post) == [] and find_id(post, rf"ry:{game_id}:\d+:cb:o:"), post.custom_ids
            page = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), user)
            collect(page)
            menu = page.original
            spare = (await h.click(post, find_id(post, rf"ry:{game_id}:\d+:cb:o:"), user)).original
            me = state.players[seat]
            limit = min(len(me.hand), len(state.deck))
            check = key_check(f"exchange.{state.round}.{limit}")
            # "keep my hand" is an option of its own; the cards to give up are one multi-select
            # of the hand's cards, one option a card (two Denver cards: two Denver options), at
            # least one: the two can never be sent together
            keep = [e for e in offered(menu) if e["label"] == label("santa_fe.act.exchange_none")]
            assert len(keep) == 1 and keep[0]["kind"] == "button" and keep[0]["check"] == check
            group_id = find_id(menu, rf"ry:{game_id}:\d+:cg:{check}::0")
            assert group_id, menu.custom_ids
            group = menu.component(group_id)
            cards = sorted(UI.city_value(c, "en") for c in me.hand)
            assert sorted(o["label"] for o in group["options"]) == cards
            assert group["min_values"] == 1 and group["max_values"] == min(limit, len(cards))
            if used["exchange"] == 0:
                # both cards of a city held twice (ticked as two options), else the first card
                twice = next((c for c in me.hand if me.hand.count(c) == 2), None)
                name = UI.city_value(twice if twice is not None else me.hand[0], "en")
                ticks = [o["value"] for o in group["options"] if o["label"] == name][:2]
                done = await h.select(menu, group_id, ticks, user)
                assert "🔒 You gave up" in fake.message(menu.id).content
                gone = [twice, twice] if twice is not None else [me.hand[0]]
                assert (await bot.service.rebuild(game_id)).removed[-len(gone):] == gone
                used["exchange_both"] += twice is not None
                # "keep my hand" on a second copy of the menu, after the exchange: refused
                # privately, and nothing changes
                after = await bot.service.rebuild(game_id)
                version = (await bot.service.status(str(CHANNEL))).version
                again = [e for e in offered(spare) if e["label"] == label("santa_fe.act.exchange_none")]
                await refused(await press(h, spare, again[0], user))
                assert (await bot.service.rebuild(game_id)).players[seat] == after.players[seat]
                assert (await bot.service.status(str(CHANNEL))).version == version
            else:
                done = await press(h, menu, keep[0], user)
                assert fake.message(menu.id).content.startswith("✅")
            collect(done)
            used["exchange"] += 1
            continue

        action = planned(state, seat)
        notation = game.format_action(action)

        # ---------------------------------------------------------------- drawing
        if phase == "draw":
            legal = game.legal_actions(state, seat)
            spurs = [a for a in legal if a.what == "spur"]
            if used["spur_draw"] == 0 and spurs:
                action = spurs[0]
                notation = game.format_action(action)
                used["spur_draw"] += 1
            previous = last_done.get(user)
            if previous is not None and any(e["version"] == status.version for e in offered(previous)):
                # the second draw, right from the private reply to the first
                done, steps = await click_through(h, previous, user, notation)
                used["draw_private"] += 1
            else:
                done, steps = await click_through(h, post, user, notation)
                assert steps[0]["public"] and steps[0]["picked"]["kind"] == "button"
                used["draw_button"] += 1
            shown = steps[-1]["picked"]["label"]
            if action.what == "city":
                assert shown == label("santa_fe.choice.draw_city", count=len(state.deck)), shown
            elif action.what == "spur":
                assert re.search(r"\(\$\d+\)$", shown), shown  # the price is on the button
            collect(done)
            last_done[user] = fake.message(done.original.id)
            continue

        # ---------------------------------------------------------------- track laying
        assert phase == "track", phase
        legal = game.legal_actions(state, seat)
        spur_places = [a for a in legal if getattr(a, "spur", False)]
        if spur_places and used["spur_place"] == 0:
            action = spur_places[0]
            notation = game.format_action(action)
            used["spur_place"] += 1
        other = BOB if user == ALICE else ALICE
        if used["errors"] < 3 and step % 5 == 0:
            # not your turn / not in the game: answered privately, nothing changes
            version = status.version
            first = offered(post)[0]
            await refused(await press(h, post, first, other), "waiting on")
            await refused(await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), CAROL))
            assert (await bot.service.status(str(CHANNEL))).version == version
        kind = step % 3
        previous = last_done.get(user)
        if previous is not None and state.left == 1 and state.placed_now == 1 \
                and any(e["version"] == status.version for e in offered(previous)):
            # the second placement of a double turn, from the private reply to the first
            kind = 3
        if kind == 0:
            # /move, found among the autocomplete choices first
            offered_moves = await h.autocomplete(user, "move", focused="move", value=notation)
            assert notation in [c["value"] for c in offered_moves], (notation, offered_moves)
            assert all(len(c["name"]) <= 100 for c in offered_moves)
            done = await h.slash(user, "move", {"move": notation})
            used["move"] += 1
        else:
            if kind == 1:
                start = post  # railroad buttons right on the turn post
                used["post_flow"] += 1
            elif kind == 2:
                page = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), user)
                collect(page)
                start = page.original
                used["page_flow"] += 1
            else:
                start = previous
                used["second_from_reply"] += 1
            done, steps = await click_through(h, start, user, notation)
            assert steps[0]["step"] == "santa_fe.step.railroad"
            code = board.railroads[action.rr].code
            railroad_label = steps[0]["picked"]["label"]
            # a railroad with a single placement makes it in one click: its label names it
            head, _, then = railroad_label.partition(" → ")
            assert head.endswith(f"({code})" if not action.spur else f"({code}) — new line with your spur")
            if len(steps) == 1:
                assert then and "(space " in railroad_label, railroad_label
            if steps[-1]["step"] in ("santa_fe.step.section", "santa_fe.step.end"):
                # the placement says where the tile goes and which space of the section it is
                shown = steps[-1]["picked"]["label"]
                if len(steps[-1]["places"]) > 1:  # picked on the map: the picture's number first
                    assert steps[-1]["picture"] is not None
                    number, _, shown = shown.partition(" · ")
                    assert number.isdigit(), shown
                    used["placement_pictured"] += 1
                a, b = board.ends[action.section]
                start_city, far = (a, b) if action.end == 0 else (b, a)
                assert shown.startswith(f"{board.cities[start_city].name} → {board.cities[far].name}"), shown
                section = board.sections[action.section]
                assert f"(space {state.sec_built[action.section] + 1}/{section.spaces})" in shown, shown
                used["placement_label"] += 1
        collect(done)
        message = fake.message(done.original.id)  # the private reply (or the menu, updated)
        assert message.ephemeral and "✅" in message.content, message.content
        last_done[user] = message
    else:
        raise AssertionError("the game did not finish")

    status = await bot.service.status(str(CHANNEL))
    assert status.info.status == "finished" and status.result is not None
    assert all(count > 0 for count in used.values()), used

    # --- the secret choice never shows publicly before the reveal; the reveal shows them all
    publics = [r for r in fake.message_payloads if not r.ephemeral]
    texts = [payload_text(r.payload) for r in publics]
    round_starts = {1: 0}
    round_start = round_pattern()
    reveals: dict[int, int] = {}
    current = 1
    for i, text in enumerate(texts):
        match = round_start.search(text)
        if match and int(match.group(1)) not in round_starts:
            current = int(match.group(1))
            round_starts[current] = i
        if "Everyone has chosen. Revealed:" in text and current not in reveals:
            reveals[current] = i
    assert set(choices_by_round) == set(reveals), (choices_by_round.keys(), reveals)
    for round_no, chosen in choices_by_round.items():
        assert len(chosen) == 3, chosen
        reveal_text = texts[reveals[round_no]]
        for seat, words in chosen.items():
            assert f"{names[seat]}: {words}" in reveal_text, (words, reveal_text)
        for text in texts[round_starts[round_no]:reveals[round_no]]:
            for seat, words in chosen.items():
                assert f"{names[seat]}: {words}" not in text and f"This round: {words}" not in text, text
                if words.endswith(")") and not words.startswith("a double"):  # a city card: "Denver (5)"
                    assert words.split(" + ")[0] not in text, (words, text)
            assert "You chose" not in text
    for text in texts:
        for line in private_lines:
            assert line not in text, (line, text)
        assert not re.search(r"`play (?!\(secret\))", text), text
    # the public data behind every post never holds a choice or a hand
    rows = await bot.store.outbox_rows(game_id)
    assert rows and all(r.delivered_at is not None and not r.dead for r in rows)
    for row in rows:
        for player in row.payload["view"]["players"]:
            assert player["choice"] is None and player["hand"] is None
        notation = row.payload.get("notation") or ""
        assert not notation.startswith("play ") or notation == "play (secret)", notation
    hand_images = {f.data for r in fake.ephemeral_payloads() for f in r.files if f.filename == "hand.png"}
    assert hand_images and all(f.filename != "hand.png" for r in publics for f in r.files)

    # --- the final post: ranking and the breakdown by money and city cards
    final = h.last_post()
    assert final_buttons(final) == ["rematch", "rematch:thread"] and "final scores" in final.embeds[0]["title"].lower()
    assert all("Money" in f["value"] for f in final.embeds[0]["fields"])

    # --- the status embed of a turn post: money, played cards, tiles left
    turn_posts = h.game_posts()[:-1]
    embed = turn_posts[-1].embeds[0]
    assert "Tiles left:" in embed["description"] and len(embed["fields"]) == 3
    assert all("💵 $" in f["value"] and "Played:" in f["value"] for f in embed["fields"])

    # --- the move log in words: the choices are secret, the reveal names them
    log = await h.slash(BOB, "game log")
    assert log.ephemeral
    fake.assert_clean()



async def test_simultaneous_choice_and_refusals(harness: Harness, fake, santa_fe) -> None:
    """The secret choice of round 1 with a menu drawn before the other player chose (its
    decision key holds, whatever the version); a menu drawn for an earlier round is stale;
    illegal moves and clicks out of turn are refused privately and change nothing."""
    h = harness
    bot = h.bot
    game = santa_fe
    game_id = await open_game(h)

    # round 1: an illegal /move (no double turn in the first round) is refused privately
    refused = await h.slash(ALICE, "move", {"move": "play double"})
    assert refused.ephemeral and refused.content.startswith("⚠️")
    assert label("santa_fe.error.first_round_city") in refused.content

    # both open their hands; Alice keeps a second one for later
    post = h.last_post()
    hand_id = find_id(post, rf"ry:{game_id}:\d+:hand")
    alice = (await h.click(post, hand_id, ALICE)).original
    bob = (await h.click(post, hand_id, BOB)).original
    spare = (await h.click(post, hand_id, ALICE)).original
    for page in (alice, bob, spare):
        assert "Your city cards:" in page.content
        entries = offered(page)
        # the secret choice is keyed by its round, not by the board's version
        assert entries and {e["check"] for e in entries} == {key_check("choose.1")}, page.custom_ids
    first_a = offered(alice)[0]
    first_b = offered(bob)[0]
    drawn_at = first_b["version"]
    before = len(fake.message_payloads)
    await press(h, alice, first_a, ALICE)
    # Alice chose: the public post says so, without what
    chose_post = h.last_post()
    assert "Alice has chosen a card." in chose_post.content
    assert first_a["label"] not in payload_text({"content": chose_post.content, "embeds": chose_post.embeds})
    assert offered(chose_post) == []  # still nobody's choice on the public post
    # Bob's menu was drawn before Alice chose; it still works (keyed, not version-checked)
    assert (await bot.service.status(str(CHANNEL))).version > drawn_at
    await press(h, bob, first_b, BOB)
    assert fake.message(bob.id).content.startswith("✅")
    # all have chosen: the reveal post names every choice
    reveal = next(m for m in reversed(h.posts()) if "Everyone has chosen." in (m.content or ""))
    assert f"Alice: {first_a['label']}" in reveal.content and f"Bob: {first_b['label']}" in reveal.content
    for record in fake.message_payloads[before:]:
        if record.ephemeral or record.message_id == reveal.id:
            continue
        text = payload_text(record.payload)
        assert first_a["label"] not in text and first_b["label"] not in text, text

    # /game rules: the short rules summary, in the reader's language
    rules = await h.slash(BOB, "game rules")
    assert rules.ephemeral and "Choose a card in secret" in rules.original.embeds[0]["description"]
    rules_ja = await h.slash(BOB, "game rules", locale="ja")
    assert "カードを秘密に選ぶ" in rules_ja.original.embeds[0]["description"]

    # the hand in Japanese for a Japanese client
    live = h.last_post()  # the live board, as it stands now
    ja = (await h.click(live, find_id(live, rf"ry:{game_id}:\d+:hand"), BOB, locale="ja")).original
    assert "あなたの都市カード" in ja.content and "💵 $" in ja.content

    # Alice's spare menu (round 1) is no longer hers to use: she already chose
    version = (await bot.service.status(str(CHANNEL))).version
    choice = (await bot.service.rebuild(game_id)).players[0].choice
    again = await press(h, spare, offered(spare)[-1], ALICE)
    assert again.ephemeral and text_of(h, again).startswith(("⚠️", "🔄")), text_of(h, again)
    assert (await bot.service.status(str(CHANNEL))).version == version
    assert (await bot.service.rebuild(game_id)).players[0].choice == choice

    # play on to round 2 with /move (the bot plays itself), then a round-1 menu is stale
    for _ in range(60):
        state = await bot.service.rebuild(game_id)
        if state.phase == "choose" and state.round == 2:
            break
        status = await bot.service.status(str(CHANNEL))
        user = int(status.waiting_user_ids[0])
        seat = next(s.seat for s in status.info.seats if s.user_id == str(user))
        action = game.timeout_action(state, seat)
        result = await h.slash(user, "move", {"move": game.format_action(action)})
        assert result.ephemeral and "✅" in result.content, result.content
    state = await bot.service.rebuild(game_id)
    assert state.phase == "choose" and state.round == 2
    version = (await bot.service.status(str(CHANNEL))).version
    stale = await press(h, spare, offered(spare)[0], ALICE)
    assert stale.ephemeral and "board changed" in text_of(h, stale)
    assert (await bot.service.rebuild(game_id)).players[0].choice is None  # nothing was played
    assert (await bot.service.status(str(CHANNEL))).version == version
    # the round-2 menu carries the round-2 key
    fresh = (await h.click(h.last_post(), find_id(h.last_post(), rf"ry:{game_id}:\d+:cb:o:"), ALICE)).original
    assert {e["check"] for e in offered(fresh)} == {key_check("choose.2")}
    fake.assert_clean()


@pytest.mark.slow  # a whole game
async def test_advanced_game_engineer_pass_and_buying_track(harness: Harness, fake, santa_fe) -> None:
    """The advanced game with the optional rule: engineers before round 1, terrain costs in
    the placement labels, Pass, and buying a tile, all with the buttons of the public post."""
    h = harness
    bot = h.bot
    game = santa_fe
    board = game.board
    opened = await h.slash(ALICE, "game new", {"game": "santa_fe", "options": "advanced=true, buy_track=true"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    game_id = await h.game_id()
    status = await bot.service.status(str(CHANNEL))
    seat_of = {int(s.user_id): s.seat for s in status.info.seats if s.user_id and not s.is_bot}
    done = {"engineer": 0, "pass": 0, "buy": 0, "paid_label": 0}

    async def tap(post: Any, notation: str, user: int) -> tuple[Any, str]:
        """Play a one-step move with its button on the public turn post."""
        result, steps = await click_through(h, post, user, notation)
        assert len(steps) == 1 and steps[0]["public"] and steps[0]["picked"]["kind"] == "button", steps
        assert steps[0]["picked"]["check"] == "v"  # the public menu goes stale with any move
        assert result.ephemeral and "✅" in result.content, result.content
        return result, steps[0]["picked"]["label"]

    for _ in range(120):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active" or all(done.values()):
            break
        state = await bot.service.rebuild(game_id)
        post = h.last_post()
        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]
        labels = [e["label"] for e in offered(post)]

        if state.phase == "engineer":
            assert label("santa_fe.act.engineer_no") in labels, labels
            # the price is on the button
            assert label("santa_fe.choice.engineer_yes", price=board.rules.engineer_price) in labels, labels
            choice = "engineer yes" if not done["engineer"] else "engineer no"
            await tap(post, choice, user)
            done["engineer"] += choice == "engineer yes"
            if choice == "engineer yes":
                after = h.last_post().embeds[0]
                assert "👷 Engineers left: 4" in after["description"]
                assert any("👷 engineer" in f["value"] for f in after["fields"])
            continue
        if state.phase == "track":
            assert label("santa_fe.act.pass") in labels, labels
            if not done["paid_label"]:
                # the placements name their terrain cost (or that they are free): open each
                # railroad that has several placements (one with a single placement would
                # place it) from the post, and read them
                pv = await bot.service.private_view(str(CHANNEL), str(user))
                first = pv.decision.walk([])
                shown: list[str] = []
                for index, pick in enumerate(first.options):
                    if pv.decision.walk([pick.value]).move is not None:
                        continue
                    entry = next(e for e in offered(post) if e["index"] == index)
                    opened = await press(h, post, entry, user)
                    assert opened.ephemeral
                    shown += [e["label"] for e in offered(opened.original) if "(space " in e["label"]]
                assert (await bot.service.status(str(CHANNEL))).version == status.version  # nothing placed
                assert all(re.search(r"\(space \d+/\d+\) · (\$\d+ \((mountain|river)|free)", text)
                           for text in shown), shown
                # read on, turn after turn, until a placement with a price was shown
                done["paid_label"] += any(re.search(r" · \$\d+ \((mountain|river)", text) for text in shown)
            if not done["pass"]:
                await tap(post, "pass", user)
                assert "passed." in h.last_post().content
                done["pass"] += 1
                continue
        if state.phase == "buy":
            legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
            buys = [n for n in legal if n != "buy none"]
            assert label("santa_fe.act.buy_none") in labels, labels
            if buys and not done["buy"]:
                _, shown_label = await tap(post, buys[0], user)
                assert re.search(rf"\(\${board.rules.track_price}\)$", shown_label), shown_label
                fields = h.last_post().embeds[0]["fields"]
                assert any("🧱 Bought tiles:" in f["value"] for f in fields), fields
                done["buy"] += 1
                continue
        action = game.timeout_action(state, seat)
        result = await h.slash(user, "move", {"move": game.format_action(action)})
        assert result.ephemeral and "✅" in result.content, result.content
    assert all(done.values()), done
    fake.assert_clean()
