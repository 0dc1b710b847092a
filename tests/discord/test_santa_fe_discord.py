"""A whole short Santa Fe game between two users and a bot, played only through Discord:
the secret card choice on each player's own page, track laying with "Place a tile…" →
railroad → placement, draws and exchanges with buttons and selects, some moves with /move.

Santa Fe is not registered yet (its renderer and UI are finished separately), so the
`santa_fe` fixture registers the game, its Discord UI and a renderer for this test only
and takes them away afterwards. The game is the real one on the real map, with fewer track
tiles per railroad (8 instead of 17–32) so that it ends ("all track placed") in about six
rounds. When render/santa_fe does not exist yet, a stand-in renderer draws small PNGs.
"""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, find_id
from tests.discord.test_full_game import payload_text

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


async def open_game(h: Harness) -> int:
    opened = await h.slash(ALICE, "game new", {"game": "santa_fe"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    return await h.game_id()


def options_of(message: Any, custom_id: str) -> list[dict]:
    return message.component(custom_id)["options"]


def select_with(message: Any, verb: str, value: str) -> str | None:
    for cid in message.custom_ids:
        if f":{verb}" in cid and value in [o["value"] for o in message.component(cid).get("options") or []]:
            return cid
    return None


async def test_santa_fe_whole_game_through_discord(harness: Harness, fake, santa_fe) -> None:
    h = harness
    bot = h.bot
    game = santa_fe
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
    used = {"choose": 0, "claim_flow": 0, "page_flow": 0, "move": 0, "draw_button": 0, "draw_private": 0,
            "exchange": 0, "double": 0, "spur_draw": 0, "spur_place": 0, "errors": 0, "simultaneous": 0,
            "second_from_reply": 0}
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
        text = result.content or fake.message(result.original.id).content
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
            # every waiting player opens their own page first, then both choose: the second
            # select was drawn before the first choice changed the board, and still works
            pages = {}
            for user in humans:
                hand_id = find_id(post, rf"ry:{game_id}:\d+:hand")
                assert hand_id and post.component(hand_id)["label"] == label("discord.sf.button.choose")
                page = await h.click(post, hand_id, user)
                collect(page)
                assert page.ephemeral and any(a.filename == "hand.png" for a in page.attachments)
                pages[user] = page.original
            if len(humans) == 2:
                used["simultaneous"] += 1
            for user in humans:
                seat = seat_of[user]
                page = pages[user]
                pick_id = find_id(page, rf"ry:{game_id}:\d+:pick:choose\.{round_no}")
                assert pick_id, page.custom_ids
                offered = options_of(page, pick_id)
                legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
                assert sorted(o["value"] for o in offered) == sorted(legal)
                action = planned(state, seat)
                me = state.players[seat]
                if round_no >= 2 and used["double"] == 0 and me.doubles:
                    action = next(a for a in game.legal_actions(state, seat) if a.card < 0)  # a double turn
                    used["double"] += 1
                notation = game.format_action(action)
                chosen = next(o for o in offered if o["value"] == notation)
                record[seat] = chosen["label"]
                assert chosen["label"] == UI.choice_text(action.card, action.spur, me.spur if action.spur else -1,
                                                         "en")
                done = await h.select(page, pick_id, [notation], user)
                collect(done)
                text = fake.message(page.id).content
                assert text.startswith("✅"), text
                assert f"🔒 You chose {chosen['label']}." in text
                used["choose"] += 1
            continue

        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]

        # ---------------------------------------------------------------- double-turn exchange
        if phase == "exchange":
            page = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), user)
            collect(page)
            pick_id = find_id(page.original, rf"ry:{game_id}:\d+:pick:exchange\.{state.round}")
            assert pick_id, page.original.custom_ids
            values = [o["value"] for o in options_of(page.original, pick_id)]
            assert values[0] == "keep"
            if used["exchange"] == 0:
                # "keep my hand" and cards at once is refused, privately
                await refused(await h.select(page.original, pick_id, values[:2], user),
                              label("discord.sf.error.keep_and_exchange"))
                page = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), user)
                done = await h.select(page.original, pick_id, values[1:2], user)
                assert "🔒 You gave up" in fake.message(page.original.id).content
            else:
                done = await h.select(page.original, pick_id, ["keep"], user)
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
            if previous is not None and find_id(previous, rf"ry:{game_id}:{status.version}:act:{re.escape(notation)}"):
                # the second draw, right from the private reply to the first
                done = await h.click(previous, find_id(previous, rf"ry:{game_id}:\d+:act:{re.escape(notation)}"),
                                     user)
                used["draw_private"] += 1
            else:
                button_id = find_id(post, rf"ry:{game_id}:{status.version}:act:{re.escape(notation)}")
                assert button_id, (notation, post.custom_ids)
                done = await h.click(post, button_id, user)
                used["draw_button"] += 1
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
        code = game.board.railroads[action.rr].code
        target = code + ("+spur" if action.spur else "")
        other = BOB if user == ALICE else ALICE
        if used["errors"] < 3 and step % 5 == 0:
            # not your turn / not in the game: answered privately, nothing changes
            await refused(await h.click(post, find_id(post, rf"ry:{game_id}:\d+:claim"), other), "waiting on")
            await refused(await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), CAROL))
        kind = step % 3
        previous = last_done.get(user)
        if previous is not None and state.left == 1 and state.placed_now == 1 \
                and select_with(previous, "route", target):
            # the second placement of a double turn, from the private reply to the first
            kind = 3
        if kind == 0:
            # /move, found among the autocomplete choices first
            offered = await h.autocomplete(user, "move", focused="move", value=notation)
            assert notation in [c["value"] for c in offered], (notation, offered)
            assert all(len(c["name"]) <= 100 for c in offered)
            done = await h.slash(user, "move", {"move": notation})
            used["move"] += 1
        else:
            if kind == 1:
                opened = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:claim"), user)
                assert opened.ephemeral
                targets = opened.original
                used["claim_flow"] += 1
            elif kind == 2:
                page = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:hand"), user)
                collect(page)
                targets = page.original
                used["page_flow"] += 1
            else:
                targets = previous
                used["second_from_reply"] += 1
            route_id = select_with(targets, "route", target)
            assert route_id, (target, targets.custom_ids)
            await h.select(targets, route_id, [target], user)
            placements = fake.message(targets.id)  # updated in place
            pay_id = select_with(placements, "pay", notation)
            assert pay_id, (notation, placements.custom_ids)
            shown = next(o for o in options_of(placements, pay_id) if o["value"] == notation)
            section = game.board.sections[action.section]
            a, b = game.board.ends[action.section]
            start, far = (a, b) if action.end == 0 else (b, a)
            assert shown["label"].startswith(f"{game.board.railroads[action.rr].name['en']}: "
                                             f"{game.board.cities[start].name} → {game.board.cities[far].name}")
            assert f"(space {state.sec_built[action.section] + 1}/{section.spaces})" in shown["label"]
            assert all(len(placements.component(c)["options"]) <= 25 for c in placements.custom_ids
                       if ":pay:" in c)
            done = await h.select(placements, pay_id, [notation], user)
        collect(done)
        message = fake.message(done.original.id)  # the private reply (or the select's message, updated)
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
    reveals: dict[int, int] = {}
    current = 1
    for i, text in enumerate(texts):
        match = re.search(r"Round (\d+): .+ is first player", text)
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
    assert final.components == [] and "final scores" in final.embeds[0]["title"].lower()
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
    """The secret choice of round 2 with a select drawn before the other player chose; a
    select drawn for an earlier round is stale; illegal moves are refused privately."""
    h = harness
    bot = h.bot
    game = santa_fe
    game_id = await open_game(h)

    # round 1: an illegal /move (no double turn in the first round) is refused privately
    refused = await h.slash(ALICE, "move", {"move": "play double"})
    assert refused.ephemeral and refused.content.startswith("⚠️")
    assert label("error.sf.first_round_city") in refused.content

    # both open their pages; Alice keeps a second one for later
    post = h.last_post()
    hand_id = find_id(post, rf"ry:{game_id}:\d+:hand")
    alice = (await h.click(post, hand_id, ALICE)).original
    bob = (await h.click(post, hand_id, BOB)).original
    spare = (await h.click(post, hand_id, ALICE)).original
    for page in (alice, bob):
        assert "Your city cards:" in page.content and ":pick:choose.1" in " ".join(page.custom_ids)
    pick_a = find_id(alice, rf"ry:{game_id}:\d+:pick:choose\.1")
    pick_b = find_id(bob, rf"ry:{game_id}:\d+:pick:choose\.1")
    first_a = options_of(alice, pick_a)[0]
    first_b = options_of(bob, pick_b)[0]
    before = len(fake.message_payloads)
    await h.select(alice, pick_a, [first_a["value"]], ALICE)
    # Alice chose: the public post says so, without what
    chose_post = h.last_post()
    assert "Alice has chosen a card." in chose_post.content
    assert first_a["label"] not in payload_text({"content": chose_post.content, "embeds": chose_post.embeds})
    # Bob's select was drawn before Alice chose; it still works (not version-checked)
    done = await h.select(bob, pick_b, [first_b["value"]], BOB)
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

    # the page in Japanese for a Japanese client
    ja = (await h.click(post, hand_id, BOB, locale="ja")).original
    assert "あなたの都市カード" in ja.content and "💵 $" in ja.content

    # Alice's spare page (round 1) is no longer hers to use: she already chose
    again = await h.select(spare, find_id(spare, rf"ry:{game_id}:\d+:pick:choose\.1"),
                           [options_of(spare, find_id(spare, r".*:pick:.*"))[0]["value"]], ALICE)
    assert again.ephemeral and (again.content or "").startswith(("⚠️", "🔄")), again.content

    # play on to round 2 with /move (the bot plays itself), then a round-1 select is stale
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
    stale = await h.select(spare, find_id(spare, r".*:pick:.*"),
                           [options_of(spare, find_id(spare, r".*:pick:.*"))[0]["value"]], ALICE)
    assert stale.ephemeral and "board changed" in (stale.content or fake.message(stale.original.id).content or "")
    assert (await bot.service.rebuild(game_id)).players[0].choice is None  # nothing was played
    fake.assert_clean()



async def test_advanced_game_engineer_pass_and_buying_track(harness: Harness, fake, santa_fe) -> None:
    """The advanced game with the optional rule: engineers before round 1, terrain costs in
    the placement labels, Pass, and buying a tile, all with the buttons of the public post."""
    h = harness
    bot = h.bot
    game = santa_fe
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

    for _ in range(120):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active" or all(done.values()):
            break
        state = await bot.service.rebuild(game_id)
        post = h.last_post()
        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]
        version = status.version

        def button_for(notation: str) -> str | None:
            return find_id(post, rf"ry:{game_id}:{version}:act:{re.escape(notation)}")

        if state.phase == "engineer":
            assert button_for("engineer no")
            choice = "engineer yes" if not done["engineer"] else "engineer no"
            result = await h.click(post, button_for(choice), user)
            assert result.ephemeral and "✅" in result.content, result.content
            done["engineer"] += choice == "engineer yes"
            if choice == "engineer yes":
                after = h.last_post().embeds[0]
                assert "👷 Engineers left: 4" in after["description"]
                assert any("👷 engineer" in f["value"] for f in after["fields"])
            continue
        if state.phase == "track":
            assert button_for("pass"), post.custom_ids
            if not done["paid_label"]:
                # the placements name their terrain cost (or that they are free)
                opened = await h.click(post, find_id(post, rf"ry:{game_id}:\d+:claim"), user)
                targets = opened.original
                route_id = next(c for c in targets.custom_ids if ":route:" in c)
                await h.select(targets, route_id, [options_of(targets, route_id)[0]["value"]], user)
                placements = fake.message(targets.id)
                shown = [o["label"] for c in placements.custom_ids if ":pay:" in c for o in options_of(placements, c)]
                assert shown and all(re.search(r"\) (\$\d+ |free)", text) for text in shown), shown
                done["paid_label"] += 1
            if not done["pass"]:
                result = await h.click(post, button_for("pass"), user)
                assert result.ephemeral and "✅" in result.content, result.content
                assert "passed." in h.last_post().content
                done["pass"] += 1
                continue
        if state.phase == "buy":
            legal = [game.format_action(a) for a in game.legal_actions(state, seat)]
            buys = [n for n in legal if n != "buy none"]
            assert button_for("buy none")
            if buys and not done["buy"]:
                result = await h.click(post, button_for(buys[0]), user)
                assert result.ephemeral and "✅" in result.content, result.content
                fields = h.last_post().embeds[0]["fields"]
                assert any("🧱 Bought tiles:" in f["value"] for f in fields), fields
                done["buy"] += 1
                continue
        action = game.timeout_action(state, seat)
        result = await h.slash(user, "move", {"move": game.format_action(action)})
        assert result.ephemeral and "✅" in result.content, result.content
    assert all(done.values()), done
    fake.assert_clean()
