"""A whole Galactic Railway game between two users and a bot, played only through Discord on
the loopback fake: the lobby, "Place a tile…" (the player's page with one select per tile of
only its legal placements), the Stop button, /move with autocomplete, /game rules, a stale
select refused, and the final post.

The users pick their moves with the game's scorer bot (the move itself always goes through
Discord), and every move is first found among the /move autocomplete choices.
"""
from __future__ import annotations

import random
import re

from games import registry
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, find_id

PAY = r"ry:\d+:\d+:pay:\d+"


def _options(message) -> dict[str, dict]:
    """Every option of every placement select of a message, by value (the move notation)."""
    out = {}
    for cid in message.custom_ids:
        if re.fullmatch(PAY, cid):
            comp = message.component(cid)
            assert 1 <= len(comp["options"]) <= 25 and len(comp.get("placeholder", "")) <= 150
            for o in comp["options"]:
                assert len(o["label"]) <= 100 and len(o["value"]) <= 100
                out[o["value"]] = {**o, "custom_id": cid}
    return out


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

    used = {"select": 0, "move": 0, "stop_button": 0, "second_select": 0}
    for step in range(300):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        assert status.waiting_user_ids, "the game waits on nobody but bots after idle()"
        user = int(status.waiting_user_ids[0])
        seat = next(s for s in status.waiting if status.info.seats[s].user_id == str(user))
        state = await bot.service.rebuild(game_id)
        notation = game.format_action(scorer.choose(game, state, seat, random.Random(step)))

        # /move's autocomplete offers it (typed in full, so it is among the first 25)
        offered = await h.autocomplete(user, "move", focused="move", value=notation)
        assert notation in [c["value"] for c in offered], (notation, offered)
        assert all(len(c["name"]) <= 100 for c in offered)
        post = h.last_post()
        assert "board.png" in [a.filename for a in post.attachments]
        if notation == "stop":
            stop_id = find_id(post, rf"ry:{game_id}:{status.version}:act:stop")
            assert stop_id, post.custom_ids
            done = await h.click(post, stop_id, user)
            used["stop_button"] += 1
        elif step % 3 == 2:
            done = await h.slash(user, "move", {"move": notation})
            used["move"] += 1
        else:
            page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), user)
            assert page.ephemeral and any(a.filename == "hand.png" for a in page.attachments)
            message = page.original
            options = _options(message)
            pv = await bot.service.private_view(str(CHANNEL), str(user))
            legal = {m.notation for m in pv.legal if m.notation != "stop"}
            assert set(options) <= legal  # only legal placements are listed ...
            if len(legal) <= 100:
                assert set(options) == legal  # ... and all of them when they fit
            assert notation in options
            if state.step == "second":
                used["second_select"] += 1
                assert find_id(message, r"ry:\d+:\d+:act:stop")
            done = await h.select(message, options[notation]["custom_id"], [notation], user)
            used["select"] += 1
        text = done.content or fake.message(done.original.id).content
        assert "✅" in text, text
    else:
        raise AssertionError("the game did not finish")

    assert all(count > 0 for count in used.values()), used
    status = await bot.service.status(str(CHANNEL))
    assert status.info.status == "finished" and status.result is not None

    # --- the final post: ranking with stations and loops, final board and chart
    final = h.last_post()
    assert {a.filename for a in final.attachments} == {"board.png", "final.png"}
    assert final.components == [] and final.mentions == []
    ranking = final.embeds[0]
    assert "Galactic Railway" in ranking["title"]
    assert all("Stations" in f["value"] and "Loops" in f["value"] for f in ranking["fields"])

    # --- every turn post offers "Place a tile…"; nothing private was ever public
    posts = h.game_posts()
    for message in posts[:-1]:
        hand_id = find_id(message, r"ry:\d+:\d+:hand")
        assert hand_id and message.component(hand_id)["label"] == "Place a tile…"
    for record in fake.message_payloads:
        if not record.ephemeral:
            assert all(f.filename != "hand.png" for f in record.files)
    fake.assert_clean()


async def test_stale_select_undo_and_a_page_out_of_turn(harness: Harness, fake) -> None:
    h = harness
    bot = h.bot
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate("en", "discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
    post = h.last_post()
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    old = page.original
    options = _options(old)
    first = next(iter(options))
    # Alice plays through /move instead; the page she opened before is now out of date
    await h.slash(ALICE, "move", {"move": first})
    before = (await bot.service.status(str(CHANNEL))).version
    refused = await h.select(old, options[first]["custom_id"], [first], ALICE)
    assert refused.ephemeral and "board changed" in (refused.content or "")
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

    # Now it is Bob's turn; Alice's page shows her tiles and no selects
    post = h.last_post()
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE)
    assert page.ephemeral and not _options(page.original) and "not your turn" in page.content.lower()


async def test_japanese_page_and_labels(harness: Harness, fake) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"}, locale="ja")
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=translate("ja", "discord.lobby.join"), locale="ja")
    await h.click(lobby, None, ALICE, label=translate("ja", "discord.lobby.start"), locale="ja")
    post = h.last_post()
    assert post.component(find_id(post, r"ry:\d+:\d+:hand"))["label"] == "タイルを配置…"
    assert "銀河鉄道" in post.embeds[0]["title"]
    page = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE, locale="ja")
    assert "あなたの手札" in page.content
    selects = [page.original.component(c) for c in page.original.custom_ids if re.fullmatch(PAY, c)]
    assert selects and all("どこに置く" in s["placeholder"] for s in selects)
    choices = await h.autocomplete(ALICE, "move", focused="move", value="", locale="ja")
    assert choices and all("を配置" in c["name"] for c in choices)
    rules = await h.slash(ALICE, "game rules", {"game": "ginga"}, locale="ja")
    assert "環状線" in rules.original.embeds[0]["description"]


def _page_with(n_first: int, n_second: int, step: str = "place"):
    """A PrivateView of the player to move whose two tiles have these many placements."""
    from bot.discord.ui.base import get
    from bot.sessions import PrivateView
    from games.ginga.models import Option

    game = registry.get("ginga")
    state = game.setup(2, {"start_player": 1}, 3)
    view = game.view(state, 0)
    a, b = view.players[0].hand
    options = [Option(notation=f"place {a} at A{k % 15 + 1} right", tile=a, cells=[(0, k % 15), (1, k % 15)],
                      orient=0, stations=0, loop=2 * (k % 5)) for k in range(n_first)]
    options += [Option(notation=f"place {b} at B{k % 15 + 1} down", tile=b, cells=[(1, k % 15), (1, k % 15 + 1)],
                       orient=1, stations=k % 3, loop=0) for k in range(n_second)]
    view = view.model_copy(update={"options": options, "step": step})
    pv = PrivateView(game_id=7, channel_id="1", game="ginga", seat=0, version=12, names=["A", "B"], active=True,
                     view=view, legal=[])
    return get("ginga"), pv


def test_placements_are_split_into_selects_of_25_per_tile_best_first():
    ui, pv = _page_with(40, 10)
    rows = ui.private_rows(pv, "en")
    selects = [row[0].item for row in rows]
    assert [len(s.options) for s in selects] == [25, 15, 10]
    assert len({s.custom_id for s in selects}) == 3 and all(":pay:" in s.custom_id for s in selects)
    assert "(1/2)" in selects[0].placeholder and "(2/2)" in selects[1].placeholder
    first_points = [o.label for o in selects[0].options]
    assert "+8" in first_points[0]  # best first
    assert "did not fit" not in ui.hand_text(pv, "en")


def test_too_many_placements_are_packed_by_score_and_the_rest_left_to_move():
    ui, pv = _page_with(90, 60)
    rows = ui.private_rows(pv, "en")
    assert len(rows) == 5 and all(len(row[0].item.options) == 25 for row in rows)
    labels = [o.label for row in rows for o in row[0].item.options]
    assert any(label.startswith("T") for label in labels)  # mixed selects name the tile
    assert "25 more placement(s)" in ui.hand_text(pv, "en")
    ui, pv = _page_with(80, 0, step="second")
    rows = ui.private_rows(pv, "en")
    assert len(rows) == 5 and ":act:stop" in rows[-1][0].custom_id  # four selects and Stop
