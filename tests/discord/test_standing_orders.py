"""Standing orders end to end through Discord, on the bid game (tests/support/bid_game.py):
/orders shows a player's own orders and the menu of orders; an order set there moves for
them after another player's move and is announced as an order; their own move cancels
their orders; orders survive a restart; an order the rules refuse is dropped; strangers,
garbage, ended games and games without orders get clear private answers (en and ja)."""
from __future__ import annotations

import re

import pytest

from games import registry
from games.core.i18n import translate
from tests.support.registered import registered_games
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, DANA, KEN, Harness, _label, find_id
from tests.support import dump_db
from tests.support.bid_game import words


@pytest.fixture
def bid_game():
    with registered_games(bid="tests.support.bid_game:GAME", bid_hasty="tests.support.bid_game:HASTY",
                          bid_keeping="tests.support.bid_game:KEEPING"), words():
        yield registry.get("bid")


def en(key: str, **params) -> str:
    return translate("en", key, params)


def ja(key: str, **params) -> str:
    return translate("ja", key, params)


async def start_bid(h: Harness, game: str = "bid", players=(ALICE, BOB, CAROL), locale: str = "en-US") -> list[int]:
    """A started bid game; the users by seat."""
    options = {"game": game}
    if locale.startswith("ja"):
        options["language"] = "ja"
    await h.slash(players[0], "game new", options, locale=locale)
    for user in players[1:]:
        await h.click(h.lobby(), None, user, label=_label("discord.lobby.join", locale), locale=locale)
    await h.click(h.lobby(), None, players[0], label=_label("discord.lobby.start", locale), locale=locale)
    status = await h.bot.service.status(str(CHANNEL))
    return [int(s.user_id) for s in status.info.seats]


def _inputs(result) -> list[str]:
    return [comp["custom_id"] for row in (result.callback.data or {}).get("components") or []
            for comp in row.get("components") or []]


async def set_by_modal(h: Harness, fake, panel, user: int, label: str, amount: int, locale: str = "en-US"):
    """Open the amount of the orders menu labelled `label` and submit `amount`."""
    cid = next(c for c in panel.custom_ids if re.fullmatch(r"ry:\d+:\d+:oa:.*", c)
               and panel.component(c)["label"] == label)
    opened = await h.click(panel, cid, user, locale=locale)
    assert opened.callback_type == 9, opened  # a modal
    done = await fake.submit_modal(opened, {_inputs(opened)[0]: str(amount)}, user)
    await h.idle()
    return done


async def test_an_order_set_in_orders_moves_and_is_announced(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h)
    game_id = await h.game_id()
    panel = await h.slash(seats[1], "orders")
    assert panel.ephemeral
    assert en("discord.orders.title") in panel.content and en("discord.orders.none") in panel.content
    message = panel.original
    labels = [message.component(c)["label"] for c in message.custom_ids]
    assert "Pass when my turn comes" in labels and "Bid up to…" in labels

    done = await set_by_modal(h, fake, message, seats[1], "Bid up to…", 3)
    assert done.ephemeral and "✅" in done.content, done.content
    assert "1. Bid up to 3, then pass" in done.content
    assert await h.bot.store.standing_orders(game_id) == {1: ["bid up to 3"]}

    before = len(h.posts())
    await h.slash(seats[0], "move", {"move": "bid 1"})
    log = await h.bot.store.actions(game_id)
    assert [(a.seat, a.notation, a.auto) for a in log] == [(0, "bid 1", None), (1, "bid 2", "order")]
    new_posts = h.posts()[before:]
    words_posted = "\n".join(p.content for p in fake.messages(CHANNEL, ephemeral=False)
                             if p.author.id == fake.application_id)
    assert "Bob's standing order made their move: bid 2." in words_posted \
        or f"{_name(h, seats[1])}'s standing order made their move: bid 2." in words_posted
    # nobody pinged seat 1 (their order answered); seat 2 is pinged now
    mentioned = {m.id for p in new_posts for m in p.mentions}
    assert seats[1] not in mentioned and seats[2] in mentioned
    # the game log marks the move as an order's
    shown = await h.slash(seats[2], "game log")
    assert "📋" in shown.original.embeds[0]["description"]


def _name(h: Harness, user: int) -> str:
    return {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", KEN: "健"}.get(user, str(user))


async def test_own_move_cancels_orders_and_buttons_cancel(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h)
    game_id = await h.game_id()
    panel = (await h.slash(seats[1], "orders")).original
    await set_by_modal(h, fake, panel, seats[1], "Pass at…", 9)
    panel = fake.message((await h.slash(seats[1], "orders")).original.id)
    done = await set_by_modal(h, fake, panel, seats[1], "Pass at…", 11)
    assert "1. Pass once the bid reaches 9" in done.content and "2. Pass once the bid reaches 11" in done.content

    # ✖️ the first one
    panel = done.original
    cancel_one = next(c for c in panel.custom_ids if re.fullmatch(r"ry:\d+:0:ox:0:[0-9a-f]{8}", c))
    after = await h.click(panel, cancel_one, seats[1])
    assert "🗑️" in after.content and "1. Pass once the bid reaches 11" in after.content
    assert await h.bot.store.standing_orders(game_id) == {1: ["pass at 11"]}
    # the same button again names an order that is gone: nothing changes, the list is shown
    stale = await h.click_as_drawn(panel, cancel_one, seats[1])
    assert "🔄" in stale.content and await h.bot.store.standing_orders(game_id) == {1: ["pass at 11"]}

    # "pass at 11" waits while the bid is lower: Bob is asked, and his own move cancels it
    await h.slash(seats[0], "move", {"move": "bid 1"})
    status = await h.bot.service.status(str(CHANNEL))
    assert status.waiting_user_ids == [str(seats[1])]
    moved = await h.slash(seats[1], "move", {"move": "bid 2"})
    assert moved.ephemeral and en("discord.orders.cancelled_by_move") in moved.content
    assert en("discord.orders.how") in panel.content and en("discord.orders.how_standing") not in panel.content
    assert await h.bot.store.standing_orders(game_id) == {}

    # 🗑️ all
    await h.slash(seats[0], "orders", {"order": "pass at 12"})
    await h.slash(seats[0], "orders", {"order": "bid up to 10"})
    panel = (await h.slash(seats[0], "orders")).original
    cleared = await h.click(panel, find_id(panel, r"ry:\d+:0:ox:all"), seats[0])
    assert en("discord.orders.cancelled_all") in cleared.content and en("discord.orders.none") in cleared.content
    assert await h.bot.store.standing_orders(game_id) == {}


@pytest.mark.parametrize("locale, lang", [("en-US", "en"), ("ja", "ja")])
async def test_a_game_that_keeps_orders_says_which_went(harness: Harness, fake, bid_game, locale, lang) -> None:
    """A game whose orders stand across one's own moves (Game.orders_after_own_move) says so in
    /orders, and a move of one's own that cancels only some of them says how many stand."""
    h = harness
    seats = await start_bid(h, "bid_keeping", locale=locale)
    panel = await h.slash(seats[0], "orders", locale=locale)
    assert translate(lang, "discord.orders.how_standing") in panel.content
    assert translate(lang, "discord.orders.how") not in panel.content
    for limit in (9, 11):
        await h.slash(seats[0], "orders", {"order": f"pass at {limit}"}, locale=locale)
    moved = await h.slash(seats[0], "move", {"move": "bid 10"}, locale=locale)
    assert translate(lang, "discord.orders.some_cancelled_by_move", {"kept": 1}) in moved.content, moved.content
    assert translate(lang, "discord.orders.cancelled_by_move") not in moved.content
    assert await h.bot.store.standing_orders(await h.game_id()) == {0: ["pass at 11"]}


async def test_orders_survive_a_restart(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h)
    game_id = await h.game_id()
    await h.slash(seats[2], "orders", {"order": "bid up to 7"})
    await h.restart()
    panel = await h.slash(seats[2], "orders")
    assert "1. Bid up to 7, then pass" in panel.content
    await h.slash(seats[0], "move", {"move": "bid 1"})
    await h.slash(seats[1], "move", {"move": "bid 2"})
    log = await h.bot.store.actions(game_id)
    assert (log[-1].seat, log[-1].notation, log[-1].auto) == (2, "bid 3", "order")


async def test_an_order_the_rules_refuse_is_dropped(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h, "bid_hasty")
    game_id = await h.game_id()
    await h.slash(seats[1], "orders", {"order": "bid up to 2"})
    await h.slash(seats[0], "move", {"move": "bid 5"})  # "bid 2" outright is refused now
    log = await h.bot.store.actions(game_id)
    assert [a.notation for a in log] == ["bid 5"]
    assert await h.bot.store.standing_orders(game_id) == {}
    # the game waits on the person, pinged as usual, and plays on
    status = await h.bot.service.status(str(CHANNEL))
    assert status.waiting_user_ids == [str(seats[1])]
    assert seats[1] in {m.id for m in h.posts()[-1].mentions}
    done = await h.slash(seats[1], "move", {"move": "bid 6"})
    assert done.ephemeral and done.content.startswith("✅")
    fake.assert_clean()


async def test_refusals_are_private_and_clear(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h, players=(ALICE, BOB))
    before = dump_db(h.db_path)
    # a stranger
    refused = await h.slash(CAROL, "orders")
    assert refused.ephemeral and refused.content == "⚠️ " + en("error.not_in_game")
    refused = await h.slash(CAROL, "orders", {"order": "pass"})
    assert refused.content == "⚠️ " + en("error.not_in_game")
    # a stranger sending the id of a player's menu button (only a forged client can: the
    # panel is ephemeral) sets nothing
    panel = (await h.slash(seats[1], "orders")).original
    pass_id = next(c for c in panel.custom_ids if re.fullmatch(r"ry:\d+:\d+:ob:.*", c))
    forged = await h.click_as_drawn(h.posts()[-1], pass_id, DANA)
    assert forged.ephemeral and en("error.not_in_game") in forged.content
    # garbage, in English and in Japanese
    garbage = await h.slash(seats[1], "orders", {"order": "fly to the moon"})
    assert garbage.ephemeral
    assert garbage.content == "⚠️ " + en("error.order_unparsable", text="fly to the moon")
    garbage = await h.slash(seats[1], "orders", {"order": "fly to the moon"}, locale="ja")
    assert garbage.content == "⚠️ " + ja("error.order_unparsable", text="fly to the moon")
    assert "理解できません" in garbage.content
    # an order the menu does not offer now
    late = await h.slash(seats[1], "orders", {"order": "bid up to 99"})
    assert late.content == "⚠️ " + en("error.order_not_offered", order="bid up to 99")
    assert dump_db(h.db_path) == before

    # a picked menu button sets the order; the reply is the panel in the picker's language
    picked = await h.click(panel, pass_id, seats[1], locale="ja")
    assert "予約行動を設定しました：手番が来たらパス" in picked.content
    # the game ends (the first player bids, the order passes for the other): /orders says it is over
    await h.slash(seats[0], "move", {"move": "bid 1"})
    ended = await h.slash(seats[1], "orders")
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"
    assert ended.ephemeral and ended.content == "⚠️ " + en("error.no_game_here.finished")
    fake.assert_clean()


async def test_a_game_without_orders_says_so(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    refused = await h.slash(BOB, "orders")
    assert refused.ephemeral and refused.content == "⚠️ " + en("error.orders_unsupported")
    refused = await h.slash(BOB, "orders", locale="ja")
    assert refused.content == "⚠️ " + ja("error.orders_unsupported")


async def test_japanese_game_announces_orders_in_japanese(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h, players=(KEN, ALICE, BOB), locale="ja")
    # the command is localized
    commands = {c["name"]: c for c in fake.commands[next(iter(fake.commands))]}
    assert commands["orders"]["name_localizations"] == {"ja": "予約"}
    panel = await h.slash(seats[1], "orders", locale="ja")
    assert ja("discord.orders.title") in panel.content and ja("discord.orders.none") in panel.content
    await h.slash(seats[1], "orders", {"order": "bid up to 4"}, locale="ja")
    await h.slash(seats[0], "move", {"move": "bid 1"}, locale="ja")
    posted = "\n".join(p.content for p in fake.messages(CHANNEL, ephemeral=False)
                       if p.author.id == fake.application_id)
    assert f"{_name(h, seats[1])}の予約行動により自動で行動しました：bid 2" in posted


async def test_an_order_of_the_player_to_move_moves_at_once(harness: Harness, fake, bid_game) -> None:
    h = harness
    seats = await start_bid(h)
    game_id = await h.game_id()
    done = await h.slash(seats[0], "orders", {"order": "bid up to 5"})
    assert done.ephemeral and "✅" in done.content
    log = await h.bot.store.actions(game_id)
    assert [(a.seat, a.notation, a.auto) for a in log] == [(0, "bid 1", "order")]
    status = await h.bot.service.status(str(CHANNEL))
    assert status.waiting_user_ids == [str(seats[1])]


async def test_an_amount_order_set_by_a_quick_button(harness: Harness, fake, bid_game) -> None:
    """The menu of orders offers "Bid up to" (its first amount) the minimum, +1, +2, +5 as buttons:
    one tap sets it, in the panel it was tapped in."""
    h = harness
    seats = await start_bid(h)
    game_id = await h.game_id()
    panel = (await h.slash(seats[1], "orders")).original
    quick = {panel.component(c)["label"]: c for c in panel.custom_ids
             if re.fullmatch(r"ry:\d+:\d+:oq:[^:]*::0:\d+", c)}
    assert len(quick) == 4, panel.custom_ids
    value = sorted(quick, key=int)[2]
    done = await h.click(panel, quick[value], seats[1])
    assert f"✅ Standing order set: Bid up to {value}, then pass" in done.content, done.content
    assert await h.bot.store.standing_orders(game_id) == {1: [f"bid up to {value}"]}
