"""Catan Express standing orders through the real client on the loopback Discord, in English
and in Japanese: in a five-player game (two people, three builder bots) a player opens /orders
and sets "end my special building turns" and "refuse every offer" by clicking them; the game
then moves on through their special building turns (CE-B7) and an offer (CE-B5) without
pinging them, says in the channel that their order moved (never which answer it gave), marks
those moves 📋 in the game log, and keeps the orders across the player's own moves. And an
offer nobody answers closes by the timer loop once the reminder delay has passed."""
from __future__ import annotations

import random
from typing import Any

import pytest

from bot.sessions import Actor
from games.catan_express.rules import GAME
from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, KEN, Harness, _label

NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", KEN: "健"}
RESOURCES = ("lumber", "brick", "wool", "grain", "ore")


async def open_game(h: Harness, person: int, locale: str) -> dict[int, int]:
    """A five-player game in the locale's language: Alice hosts, `person` joins, three bots.
    The users by seat (bots left out)."""
    options = {"game": "catan_express"}
    if locale.startswith("ja"):
        options["language"] = "ja"
    opened = await h.slash(ALICE, "game new", options, locale=locale)
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, person, label=_label("discord.lobby.join", locale), locale=locale)
    for _ in range(3):
        await h.click(lobby, None, ALICE, label=_label("discord.lobby.add_bot", locale), locale=locale)
    await h.click(lobby, None, ALICE, label=_label("discord.lobby.start", locale), locale=locale)
    status = await h.bot.service.status(str(CHANNEL))
    assert status.info.game == "catan_express" and len(status.info.seats) == 5
    return {s.seat: int(s.user_id) for s in status.info.seats if s.user_id}


async def set_by_click(h: Harness, user: int, key: str, locale: str, lang: str) -> str:
    """Open /orders and click the order whose words are `key`'s; the panel's text after."""
    panel = await h.slash(user, "orders", locale=locale)
    assert panel.ephemeral
    message = panel.original
    assert translate(lang, "discord.orders.how_standing") in message.content, message.content
    words = translate(lang, key)
    cid = next((c for c in message.custom_ids if message.component(c).get("label") == words[:80]), None)
    assert cid is not None, [message.component(c).get("label") for c in message.custom_ids]
    done = await h.click(message, cid, user, locale=locale)
    assert done.content.startswith("✅"), done.content  # the private panel, updated in place
    return done.content


async def act(h: Harness, user: int, notation: str, locale: str) -> Any:
    outcome = await h.bot.service.act(str(CHANNEL), Actor(str(user), NAMES[user], locale=locale), notation)
    h.bot.after_commit(outcome)
    await h.idle()
    return outcome


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("locale, lang, person", [("en-US", "en", BOB), ("ja", "ja", KEN)])
async def test_a_player_sets_orders_and_the_game_moves_on_without_pinging_them(
        harness: Harness, fake, locale: str, lang: str, person: int) -> None:
    h = harness
    users = await open_game(h, person, locale)
    seat = next(s for s, u in users.items() if u == person)
    alice = next(s for s, u in users.items() if u == ALICE)
    game_id = await h.game_id()

    text = await set_by_click(h, person, "catan_express.order.end_special", locale, lang)
    assert "1. " + translate(lang, "catan_express.order.end_special") in text
    text = await set_by_click(h, person, "catan_express.order.refuse_all", locale, lang)
    assert "2. " + translate(lang, "catan_express.order.refuse_all") in text
    orders = ["end special", "refuse all"]
    assert await h.bot.store.standing_orders(game_id) == {seat: orders}

    rng = random.Random(5)
    builder = GAME.bots()["builder"]
    offered = False
    for _ in range(300):
        log = await h.bot.store.actions(game_id)
        by_order = [(a.notation, a.auto) for a in log if a.seat == seat and a.auto == "order"]
        if offered and by_order.count(("end", "order")) >= 2 and ("refuse", "order") in by_order:
            break
        status = await h.bot.service.status(str(CHANNEL))
        assert status.info.status == "active"
        state = await h.bot.service.current_state(game_id)
        # only people are left to wait on: the bots and the orders moved at once
        assert status.waiting and set(status.waiting) <= {seat, alice}, status.waiting
        mover = min(status.waiting)
        # the player with orders is never waited on for what they answer
        if mover == seat:
            assert state.phase not in ("special", "answer"), state.phase
        phase = state.phase
        if phase == "main" and mover == alice and not offered and not state.moving:
            hand = state.players[alice].hand
            give = next(i for i, n in enumerate(hand) if n) if any(hand) else None
            if give is not None:
                await act(h, ALICE, f"offer 1{RESOURCES[give]} 1{RESOURCES[(give + 1) % 5]}", locale)
                offered = True
                continue
        if phase in ("main", "special"):
            move = "end"
        elif phase == "answer":
            move = "refuse" if mover != state.current else "withdraw"
        else:
            move = GAME.format_action(builder.choose(GAME, state, mover, rng))
        outcome = await act(h, users[mover], move, locale)
        if mover == seat:  # a move of one's own leaves Catan Express orders standing
            assert not outcome.orders_cancelled
            assert await h.bot.store.standing_orders(game_id) == {seat: orders}
    else:
        raise AssertionError(f"the orders did not get to move: {by_order}")

    # the moves the orders made, as the log keeps them: made by nobody, for the seat
    log = await h.bot.store.actions(game_id)
    made = [a for a in log if a.seat == seat and a.auto == "order"]
    assert {a.notation for a in made} <= {"end", "refuse"} and all(a.actor_user_id is None for a in made)

    # nobody pinged the player for them: the post of the change that made the game wait on an
    # order's move mentions someone else or nobody, and no post mentions the player while the
    # game waits on their special building turn or their answer
    posts = {r.payload["version"]: r.payload for r in await h.bot.store.outbox_rows(game_id)
             if r.kind in ("move", "start")}
    ordered = [v for v, p in posts.items() if p.get("auto") == "order" and p.get("seat") == seat]
    assert len(ordered) == len(made)
    for version in ordered:
        assert str(person) not in posts[version - 1]["mention_user_ids"], version
    for payload in posts.values():
        if str(person) in payload["mention_user_ids"]:
            assert payload["view"]["state"]["phase"] not in ("special", "answer")
    # ...and no message on Discord mentioned them for those (the only pings are of their own turns)
    mentioned = sum(person in {m.id for m in p.mentions} for p in h.posts())
    own_turns = sum(str(person) in p["mention_user_ids"] for p in posts.values())
    assert mentioned <= own_turns

    # the channel says the orders moved, in the game's language, without the answer given
    names = list((await h.bot.service.status(str(CHANNEL))).names)
    said = "\n".join(p.content or "" for p in fake.messages(CHANNEL, ephemeral=False)
                     if p.author.id == fake.application_id)
    answer_line = translate(lang, "session.order_move", {"seat": seat, "move": {"key": "catan_express.do.answer_public"}}, names)
    end_line = translate(lang, "session.order_move", {"seat": seat, "move": {"key": "catan_express.do.end_special"}}, names)
    assert NAMES[person] in answer_line and answer_line in said and end_line in said, said[-3000:]
    if lang == "ja":
        assert "予約行動" in answer_line and "申し出に返事をする" in answer_line and "手番外建設を終える" in end_line
    entries = await h.bot.service.history(str(CHANNEL))
    logged = [" ".join(translate(lang, ev.key, ev.params, names) for ev in e.events) for e in entries
              if e.auto == "order"]
    assert any(answer_line in line for line in logged) and any(end_line in line for line in logged), logged
    for line in logged:  # which way the order answered is the player's own business
        for secret in (translate(lang, "catan_express.do.refuse"), translate(lang, "catan_express.do.accept")):
            assert secret not in line, line
    shown = await h.slash(person, "game log", locale=locale)
    assert "📋" in shown.original.embeds[0]["description"]
    fake.assert_clean()


async def test_an_offer_nobody_answers_lapses_by_the_timer_loop(harness: Harness, fake, clock) -> None:
    """Three people; the player to move offers a trade and nobody answers. When the reminder
    delay has passed, the timer loop closes both answers as refused: no reminder pings the two
    who did not answer, the channel says their answers lapsed, the offerer is waited on again,
    and the game log marks the lapsed answers ⌛."""
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "catan_express"})
    assert opened.ephemeral
    lobby = h.lobby()
    for user in (BOB, CAROL):
        await h.click(lobby, None, user, label=_label("discord.lobby.join", "en-US"))
    await h.click(lobby, None, ALICE, label=_label("discord.lobby.start", "en-US"))
    status = await h.bot.service.status(str(CHANNEL))
    users = {s.seat: int(s.user_id) for s in status.info.seats}
    game_id = status.info.game_id
    rng, builder = random.Random(2), GAME.bots()["builder"]
    for _ in range(200):
        state = await h.bot.service.current_state(game_id)
        mover = min(GAME.active_players(state))
        # an offer both others can answer (an empty hand's refusal would be forced)
        if state.phase == "main" and not state.moving and all(any(p.hand) for p in state.players):
            give = next(i for i, n in enumerate(state.players[mover].hand) if n)
            await act(h, users[mover], f"offer 1{RESOURCES[give]} 1{RESOURCES[(give + 1) % 5]}", "en-US")
            break
        move = GAME.format_action(builder.choose(GAME, state, mover, rng)) if state.phase != "main" else "end"
        await act(h, users[mover], move, "en-US")
    state = await h.bot.service.current_state(game_id)
    assert state.phase == "answer"
    offerer = state.current
    others = sorted(s for s in range(3) if s != offerer)
    assert sorted(GAME.active_players(state)) == others
    before = len(h.posts())

    timers = h.bot.get_cog("Timers")
    clock.advance(720 * 60.0 - 60)
    await timers.tick.coro(timers)
    await h.idle()
    assert (await h.bot.service.current_state(game_id)).phase == "answer"
    clock.advance(60)
    await timers.tick.coro(timers)
    await h.idle()
    after = await h.bot.service.current_state(game_id)
    assert after.phase == "main" and after.offer is None and after.current == offerer
    log = await h.bot.store.actions(game_id)
    assert [(a.seat, a.notation, a.auto) for a in log[-2:]] == [(s, "refuse", "lapsed") for s in others]
    new = h.posts()[before:]
    assert not any(p.content.startswith("⏰") for p in new)  # no reminder for the answers that lapsed
    mentioned = {m.id for p in new for m in p.mentions}
    assert users[offerer] in mentioned and not mentioned & {users[s] for s in others}
    names = list((await h.bot.service.status(str(CHANNEL))).names)
    said = "\n".join(p.content or "" for p in fake.messages(CHANNEL, ephemeral=False)
                     if p.author.id == fake.application_id)
    for s in others:
        line = translate("en", "session.lapsed_move", {"seat": s, "move": {"key": "catan_express.do.refuse"}}, names)
        assert line in said, said[-2000:]
    shown = await h.slash(users[offerer], "game log")
    assert shown.original.embeds[0]["description"].count("⌛") == 2
    fake.assert_clean()
