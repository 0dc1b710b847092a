"""A whole Galactic Railway game between two users and a bot, played only through Discord on
the loopback fake: the lobby, the one chooser (a tile from the turn post or from the
player's hand, then one of its placements picked by its number on a picture of the table, in
parts of the table when there are more than 25), the Stop button beside the other tile, /move
with autocomplete, /game rules, a stale menu refused, and the final post.

The users pick their moves with the game's scorer bot (the move itself always goes through
Discord), and every move is first found among the /move autocomplete choices.
"""
from __future__ import annotations

import random
import re

import pytest

from games import registry
from games.core.i18n import translate
from games.ginga.board import cell_name, second_cell
from games.ginga.notation import ARROWS
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, final_buttons, find_id
from tests.discord.santa_fe.test_game import click_through
from tests.support.chooser_walk import offered, press, text_of

PLACEMENT = re.compile(r"(?:(\d+) · )?(\S) ([A-O]\d+)–([A-O]\d+)(?: · \+(\d+) \(.+\))?")


def en(key: str, **params) -> str:
    return translate("en", key, params)


def placements_of(state, seat: int, tile: str) -> dict[tuple[str, str, str], str]:
    """The legal placements of a tile, as a person reads them (arrow, first cell, second
    cell), each with its notation."""
    game = registry.get("ginga")
    out = {}
    for action in game.legal_actions(state, seat):
        if getattr(action, "tile", None) is not None and f"T{action.tile + 1}" == tile:
            a = cell_name(action.x, action.y)
            b = cell_name(*second_cell(action.x, action.y, action.orient))
            out[(ARROWS[action.orient], a, b)] = game.format_action(action)
    return out


def check_placements(parts: list[list[dict]], expected: dict[tuple[str, str, str], str], *,
                     numbered: bool = True) -> dict[int, tuple[str, str, str]]:
    """The placement step shows every legal placement of the tile once, in one part of the
    table or several (`parts`: each part's options as `offered` lists them): numbered 1, 2, …
    within a part, in the order listed (the pick picture's numbers); unnumbered (a menu shown
    without its picture), best scoring first. Returns what each option (by its index in the
    step) places."""
    where: dict[int, tuple[str, str, str]] = {}
    for part in parts:
        points = []
        for number, entry in enumerate(part, start=1):
            match = PLACEMENT.fullmatch(entry["label"])
            assert match, entry["label"]
            assert (int(match.group(1)) if match.group(1) else None) == (number if numbered else None), part
            assert entry["index"] not in where
            where[entry["index"]] = match.group(2, 3, 4)
            points.append(int(match.group(5) or 0))
        if not numbered:
            assert points == sorted(points, reverse=True), points
    placed = list(where.values())
    assert sorted(placed) == sorted(expected) and len(set(placed)) == len(placed), (placed, expected)
    return where


@pytest.mark.slow  # a whole game
async def test_full_game_of_galactic_railway(harness: Harness, fake) -> None:
    h = harness
    bot = h.bot
    game = registry.get("ginga")
    scorer = game.bots()["scorer"]

    # --- the rules summary and the lobby
    rules = await h.slash(ALICE, "game rules", {"game": "ginga"})
    embed = rules.original.embeds[0]
    assert rules.ephemeral and "Galactic Railway" in embed["title"]
    assert "8×8" in embed["description"] and "loop" in embed["description"]
    opened = await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    assert "Galactic Railway" in lobby.embeds[0]["title"]
    await h.click(lobby, None, BOB, label=translate("en", "discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
    game_id = await h.game_id()

    used = {"from_post": 0, "from_hand": 0, "placement_select": 0, "placement_buttons": 0, "move": 0,
            "stop_button": 0, "second_step": 0}
    for step in range(300):
        turn = await h.waited_on(game_id)
        if turn is None:
            break
        status, user, seat, state = turn
        notation = game.format_action(scorer.choose(game, state, seat, random.Random(step)))

        # /move's autocomplete offers it (typed in full, so it is among the first 25)
        offered_moves = await h.autocomplete(user, "move", focused="move", value=notation)
        assert notation in [c["value"] for c in offered_moves], (notation, offered_moves)
        assert all(len(c["name"]) <= 100 for c in offered_moves)
        post = h.last_post()
        assert "board.png" in [a.filename for a in post.attachments]
        # the post offers the player's tiles (and Stop after a first tile) as buttons
        tiles = [e["label"] for e in offered(post)]
        hand = state.hands[seat]
        assert all(e["kind"] == "button" and e["check"] == "v" and e["version"] == status.version
                   for e in offered(post)), post.custom_ids
        if state.step == "second":
            assert len(tiles) == 2 and tiles[1].startswith("Stop here and keep"), tiles
        if notation == "stop":
            done, steps = await click_through(h, post, user, notation)
            assert len(steps) == 1 and steps[0]["public"] and steps[0]["picked"]["kind"] == "button"
            assert steps[0]["picked"]["label"] == en("ginga.act.stop", tiles=[f"T{t + 1}" for t in hand])
            used["stop_button"] += 1
        elif step % 3 == 2:
            done = await h.slash(user, "move", {"move": notation})
            used["move"] += 1
        else:
            if step % 3 == 0:
                page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), user)
                assert page.ephemeral and any(a.filename == "hand.png" for a in page.attachments)
                start = page.original
                used["from_hand"] += 1
            else:
                start = post
                used["from_post"] += 1
            done, steps = await click_through(h, start, user, notation)
            # a tile, then where: every legal placement of that tile, numbered best first (a
            # tile that fits in one place only is placed there by its first click)
            tile = notation.split()[1]
            expected = placements_of(state, seat, tile)
            assert [s["step"] for s in steps] == ["ginga.step.second" if state.step == "second" else "ginga.step.tile",
                                                  "ginga.step.placement"][:1 if len(expected) == 1 else 2], steps
            assert steps[0]["picked"]["label"].startswith(f"{tile} ")
            if state.step == "second":
                used["second_step"] += 1
                assert steps[0]["options"][-1]["label"].startswith("Stop here and keep")
            if len(expected) == 1:
                assert list(expected.values()) == [notation]
                text = text_of(h, done)
                assert "✅" in text and notation in text, text
                continue
            shown = steps[1]["options"]
            where = check_placements(steps[1]["parts"] or [shown], expected)
            assert expected[where[steps[1]["picked"]["index"]]] == notation
            assert not steps[1]["public"]  # the placements are the player's own menu
            assert steps[1]["picture"] is not None  # ... picked on a picture of the table
            if len(shown) > 5:
                assert {e["kind"] for e in shown} == {"select"}
                assert all(e["placeholder"].startswith(en("ginga.step.placement")) for e in shown)
                used["placement_select"] += 1
            else:
                assert {e["kind"] for e in shown} == {"button"}
                used["placement_buttons"] += 1
        text = text_of(h, done)
        assert "✅" in text and notation in text, text
    else:
        raise AssertionError("the game did not finish")

    assert all(count > 0 for count in used.values()), used
    status = await bot.service.status(str(CHANNEL))
    assert status.info.status == "finished" and status.result is not None

    # --- the final post: ranking with stations and loops, final board and chart
    final = h.last_post()
    assert {a.filename for a in final.attachments} == {"board.png", "final.png", "timelapse.webp"}
    assert final_buttons(final) == ["rematch", "rematch:thread"] and final.mentions == []  # only Rematch
    ranking = final.embeds[0]
    assert "Galactic Railway" in ranking["title"]
    assert all("Stations" in f["value"] and "Loops" in f["value"] for f in ranking["fields"])

    # --- one live board: earlier turn messages lost their buttons; nothing private was public
    posts = h.game_posts()
    assert all(message.components == [] for message in posts[:-1])
    for record in fake.message_payloads:
        if not record.ephemeral:
            assert all(f.filename != "hand.png" for f in record.files)
    fake.assert_clean()


async def test_stale_menu_undo_and_a_click_out_of_turn(harness: Harness, fake) -> None:
    h = harness
    bot = h.bot
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate("en", "discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
    post = h.last_post()
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    old = page.original
    # Alice picks her first tile in her hand: the hand turns into that tile's placements
    state = await bot.service.rebuild(await h.game_id())
    tile_entry = offered(old)[0]
    tile = tile_entry["label"].split()[0]
    await press(h, old, tile_entry, ALICE)
    old = fake.message(old.id)
    placements = offered(old)
    where = check_placements([placements], placements_of(state, 0, tile))
    first = placements_of(state, 0, tile)[where[placements[0]["index"]]]
    # Alice plays through /move instead; the menu she opened before is now out of date
    await h.slash(ALICE, "move", {"move": first})
    before = (await bot.service.status(str(CHANNEL))).version
    refused = await press(h, old, placements[0], ALICE)
    assert refused.ephemeral and "board changed" in text_of(h, refused)
    assert (await bot.service.status(str(CHANNEL))).version == before

    # a first tile revealed nothing: Alice may take it back, and the turn is hers again
    undone = await h.slash(ALICE, "game undo")
    assert undone.ephemeral and "⚠️" not in (undone.content or "")
    state = await bot.service.rebuild(await h.game_id())
    assert state.placed == [] and state.current == 0 and state.step == "place"
    await h.slash(ALICE, "move", {"move": first})
    # ... but once she stops, the refill shows a new top of the pile: no more undo
    await h.slash(ALICE, "move", {"move": "stop"})
    refused_undo = await h.slash(ALICE, "game undo")
    assert refused_undo.content.startswith("⚠️ ")

    # Now it is Bob's turn: Alice's hand shows her tiles and nothing to choose ...
    post = h.last_post()
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    assert page.ephemeral and offered(page.original) == [] and "not your turn" in page.content.lower()
    # ... and Bob's tiles on the post are Bob's: Alice's click is refused privately
    before = (await bot.service.status(str(CHANNEL))).version
    out_of_turn = await press(h, post, offered(post)[0], ALICE)
    assert out_of_turn.ephemeral and "waiting on Bob" in text_of(h, out_of_turn)
    assert (await bot.service.status(str(CHANNEL))).version == before
    fake.assert_clean()


async def test_japanese_menu_and_labels(harness: Harness, fake) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1", "language": "ja"}, locale="ja")
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate("ja", "discord.lobby.join"), locale="ja")
    await h.click(lobby, None, ALICE, label=translate("ja", "discord.lobby.start"), locale="ja")
    post = h.last_post()
    # hands are public (GT-7): the button is named for what it shows, not "show my hand"
    assert post.component(find_id(post, r"ry:\d+:\d+:hand"))["label"] == "手札と置ける場所"
    assert "銀河鉄道" in post.embeds[0]["title"]
    # the tiles on the post, in Japanese: "T11 ·├（駅・3分岐）"
    tiles = offered(post)
    assert tiles and all(re.fullmatch(r"T\d+ \S\S（(駅・)?\d分岐）", e["label"]) for e in tiles), tiles
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE, locale="ja")
    assert "あなたの手札" in page.content
    assert "あなたの手番です" in page.content and "配置してください" in page.content  # the prompt
    menu = page.original
    await press(h, menu, offered(menu)[0], ALICE, locale="ja")
    menu = fake.message(menu.id)
    assert "どこに置きますか？" in menu.content  # the step, in the reader's language
    # the picture's numbers before each place, the picture attached
    assert offered(menu) and all(re.match(r"\d+ · [→↓←↑] ", e["label"]) for e in offered(menu))
    assert [a.filename for a in menu.attachments] == ["pick.png"]
    choices = await h.autocomplete(ALICE, "move", focused="move", value="", locale="ja")
    assert choices and all("を配置" in c["name"] for c in choices)
    rules = await h.slash(ALICE, "game rules", {"game": "ginga"}, locale="ja")
    assert "環状線" in rules.original.embeds[0]["description"]


# ---------------------------------------------------------------------------- many placements
async def crowded_turn(h: Harness, at_least: int) -> tuple[int, int, str, int]:
    """Start a game of Alice and Bob and play, with /move, the moves that leave the player to
    move as many placements as possible, until a tile in the hand of the player to move has
    at least `at_least` of them. Returns that player's user and seat, the tile and its count."""
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate("en", "discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
    game = registry.get("ginga")
    game_id = await h.game_id()

    def most(state, seat) -> tuple[str, int]:
        counts = {f"T{t + 1}": 0 for t in state.hands[seat]}
        for action in game.legal_actions(state, seat):
            if getattr(action, "tile", None) is not None:
                counts[f"T{action.tile + 1}"] += 1
        return max(counts.items(), key=lambda kv: kv[1]) if counts else ("", 0)

    for _ in range(40):
        status = await h.bot.service.status(str(CHANNEL))
        assert status.info.status == "active"
        user = int(status.waiting_user_ids[0])
        seat = next(s for s in status.waiting if status.info.seats[s].user_id == str(user))
        state = await h.bot.service.rebuild(game_id)
        tile, count = most(state, seat)
        if count >= at_least:
            return user, seat, tile, count

        def after(action) -> int:
            nxt = game.apply(state, seat, action).state
            if game.is_over(nxt):
                return -1
            return most(nxt, sorted(game.active_players(nxt))[0])[1]

        best = max(game.legal_actions(state, seat), key=after)
        done = await h.slash(user, "move", {"move": game.format_action(best)})
        assert "✅" in done.content, done.content
    raise AssertionError(f"no turn with {at_least} placements for one tile")


async def test_many_placements_come_in_parts_of_the_table(harness: Harness, fake) -> None:
    """A tile with more than 50 placements: its placement step first shows the parts of the
    table (a button each, named by where it lies and how many places it holds), then a part's
    picture with its places numbered 1…, each placement in exactly one part; a forged part is
    refused; the last part's last place plays."""
    h = harness
    user, seat, tile, count = await crowded_turn(h, 51)
    state = await h.bot.service.rebuild(await h.game_id())
    post = h.last_post()
    tile_button = next(e for e in offered(post) if e["label"].startswith(f"{tile} "))
    assert tile_button["kind"] == "button"
    menu = (await press(h, post, tile_button, user)).original
    assert menu.ephemeral and f"👉 {en('gt.step.placement')}" in menu.content
    assert offered(menu) == [] and [a.filename for a in menu.attachments] == ["regions.png"]  # the parts first
    parts = h.region_buttons(menu, "0")
    assert len(parts) >= 3 and sum(int(menu.component(c)["label"].split(" · ")[-1]) for c in parts) == count
    assert all(re.fullmatch(r"[A-Z][a-z-]+(?: \d)? · \d+", menu.component(c)["label"]) for c in parts)
    shown = []
    for cid in parts:
        opened = await h.click(menu, cid, user)
        menu = fake.message(opened.original.id)
        part = offered(menu)  # checks that no select holds more than 25
        assert 1 <= len(part) <= 25 and [a.filename for a in menu.attachments] == ["pick.png"]
        assert menu.component(cid)["disabled"]  # the part shown is greyed among the others
        shown.append(part)
    expected = placements_of(state, seat, tile)
    where = check_placements(shown, expected)
    # a part that does not exist is refused, and the game does not move
    before = (await h.bot.service.status(str(CHANNEL))).version
    forged = re.sub(r":\d+$", ":99", parts[0])
    refused = await h.click_as_drawn(menu, forged, user)
    assert refused.ephemeral and translate("en", "choice.error.not_offered") in text_of(h, refused)
    assert (await h.bot.service.status(str(CHANNEL))).version == before
    # the last part's last place is as reachable as the first
    menu = fake.message(menu.id)
    done = await press(h, menu, shown[-1][-1], user)
    assert "✅" in text_of(h, done) and expected[where[shown[-1][-1]["index"]]] in text_of(h, done)
    fake.assert_clean()


async def test_more_placements_than_a_page_are_paged_and_all_reachable(harness: Harness, fake,
                                                                      monkeypatch) -> None:
    """A step with more options than a page holds (100 in four selects) is paged: ◀️/▶️
    buttons move between pages, every option is on exactly one page, and a pick on a later
    page plays. A Galactic Railway tile never has 100 placements (about 75 at most), so the
    page is made smaller here, 50 options in two selects, and the step is shown as a plain
    menu (as without its picture), to page a real placement menu; after the first tile, the
    private reply offers the other tile beside Stop."""
    from bot.discord import chooser

    monkeypatch.setattr(chooser, "OPTIONS_PER_PAGE", 50)
    monkeypatch.setattr(chooser, "on_board", lambda options: False)
    h = harness
    user, seat, tile, count = await crowded_turn(h, 51)
    state = await h.bot.service.rebuild(await h.game_id())
    post = h.last_post()
    tile_button = next(e for e in offered(post) if e["label"].startswith(f"{tile} "))
    menu = (await press(h, post, tile_button, user)).original

    def nav(message) -> dict[str, str]:
        return {message.component(c)["label"]: c for c in message.custom_ids if re.fullmatch(r"ry:\d+:\d+:cp:.*", c)}

    first_page = offered(menu)
    assert len(first_page) == 50 and len({e["custom_id"] for e in first_page}) == 2
    assert set(nav(menu)) == {translate("en", "discord.choose.next")}
    await h.click(menu, nav(menu)[translate("en", "discord.choose.next")], user)
    menu = fake.message(menu.id)  # the private menu turns the page in place
    second_page = offered(menu)
    assert len(second_page) == count - 50 and set(nav(menu)) == {translate("en", "discord.choose.previous")}
    shown = first_page + second_page
    assert [e["index"] for e in shown] == list(range(count))  # every placement on exactly one page
    expected = placements_of(state, seat, tile)
    where = check_placements([shown], expected, numbered=False)
    await h.click(menu, nav(menu)[translate("en", "discord.choose.previous")], user)
    assert [e["label"] for e in offered(fake.message(menu.id))] == [e["label"] for e in first_page]
    await h.click(menu, nav(fake.message(menu.id))[translate("en", "discord.choose.next")], user)
    menu = fake.message(menu.id)
    done = await press(h, menu, offered(menu)[-1], user)
    text = text_of(h, done)
    assert "✅" in text and expected[where[count - 1]] in text, text

    # the first tile is down: the reply offers the other tile, with Stop beside it
    reply = fake.message(done.original.id)
    state = await h.bot.service.rebuild(await h.game_id())
    assert state.step == "second" and state.current == seat
    labels = [e["label"] for e in offered(reply)]
    other = f"T{state.hands[seat][0] + 1}"
    assert len(labels) == 2 and labels[0].startswith(f"{other} ") and labels[1].startswith("Stop here"), labels
    stop = await press(h, reply, offered(reply)[1], user)
    assert "✅" in text_of(h, stop) and "`stop`" in text_of(h, stop)
    assert (await h.bot.service.rebuild(await h.game_id())).current != seat
    fake.assert_clean()
