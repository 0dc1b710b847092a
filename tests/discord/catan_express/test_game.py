"""Catan Express through the real client on the loopback Discord, with three people: the
roll button, the private hand, a settlement picked by its number on the pick picture, offers
composed with counts (the cards given ticked in a select of one's hand, two of a kind at once;
the cards asked with + and − buttons; Confirm) and answered by both other players at once
(each in their own private menu, in either order), the offerer picking a partner, a 7's
private discards by several players in any order (the cards ticked in one select), the robber
and a theft (the hex picked on its picture), a stale button, a stranger's click, Japanese.

The game is the real one on its real board. Moves that are not under test (setup, ending
turns, other players' rolls) are played straight through the session service, as a player
typing them would; the situations under test are clicked. At the end every public payload
the fake recorded (posts, edits, embeds, alt texts, public replies) and every log record is
searched for what only one player was shown (CE-12): hands, discards, the stolen card.
"""
from __future__ import annotations

import json
import logging
import random
import re
from typing import Any

import pytest

from bot.discord.ui.catan_express import cards_line
from bot.sessions import Actor
from games.catan_express.components import RESOURCES
from games.catan_express.notation import cards_text
from games.catan_express.rules import GAME
from games.core.i18n import translate
from games.catan_express.decisions import point_label
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, KEN, Harness, find_id
from tests.discord.catan_express.test_places import pick_through
from tests.discord.santa_fe.test_game import click_through, key_check
from tests.support.chooser_walk import offered, press, text_of

HUMANS = (ALICE, BOB, CAROL)
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


def label(key: str, lang: str = "en", names: Any = None, **params: Any) -> str:
    return translate(lang, key, params, names)


class Table:
    """The game as the test drives it: seats, users, the current state and the post."""

    def __init__(self, h: Harness, game_id: int, user_of: dict[int, int], names: list[str]) -> None:
        self.h = h
        self.game_id = game_id
        self.user_of = user_of
        self.seat_of = {u: s for s, u in user_of.items()}
        self.names = names
        self.rng = random.Random(11)
        self.private: list[str] = []     # texts only one player was shown
        self.hands: list[str] = []       # hand lines shown privately
        self.secret_moves: list[str] = []  # notations whose details are secret

    async def state(self) -> Any:
        return await self.h.bot.service.rebuild(self.game_id)

    async def version(self) -> int:
        return (await self.h.bot.service.status(str(CHANNEL))).version

    async def act(self, seat: int, notation: str) -> None:
        """A move typed by the seat's player (not under test): straight to the service."""
        user = self.user_of[seat]
        outcome = await self.h.bot.service.act(str(CHANNEL), Actor(str(user), NAMES[user]), notation)
        self.h.bot.after_commit(outcome)
        await self.h.idle()

    def hand_button(self, post: Any) -> str:
        cid = find_id(post, rf"ry:{self.game_id}:\d+:hand")
        assert cid, post.custom_ids
        return cid

    def open_button(self, post: Any) -> str:
        cid = find_id(post, rf"ry:{self.game_id}:\d+:cb:o:")
        assert cid, post.custom_ids
        return cid


async def open_game(h: Harness) -> Table:
    opened = await h.slash(ALICE, "game new", {"game": "catan_express"})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=label("discord.lobby.join"))
    await h.click(lobby, None, CAROL, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    status = await h.bot.service.status(str(CHANNEL))
    assert status.info.game == "catan_express" and status.info.status == "active"
    user_of = {s.seat: int(s.user_id) for s in status.info.seats}
    assert set(user_of.values()) == set(HUMANS)
    return Table(h, status.info.game_id, user_of, list(status.names))


def trade_plan(state: Any, seat: int, exclude: frozenset[int] = frozenset()) -> tuple[str, int, int, int] | None:
    """An offer of cards of one resource (two when the hand holds two) for one card of a
    resource both other players hold (so either may accept): (notation, given resource
    index, how many, wanted resource index)."""
    others = [s for s in range(state.n) if s != seat]
    hand = state.players[seat].hand
    for want in range(len(RESOURCES)):
        if want in exclude or not all(state.players[o].hand[want] for o in others):
            continue
        for give in sorted(range(len(RESOURCES)), key=lambda r: -hand[r]):
            if give != want and hand[give]:
                g = [0] * 5
                w = [0] * 5
                g[give], w[want] = min(2, hand[give]), 1
                return f"offer {cards_text(g)} {cards_text(w)}", give, g[give], want
    return None


def group_ids(message: Any, verb: str) -> list[str]:
    return [c for c in message.custom_ids if re.fullmatch(rf"ry:\d+:\d+:{verb}:.*", c)]


def button_labelled(message: Any, verb: str, text: str) -> str | None:
    return next((c for c in group_ids(message, verb) if message.component(c)["label"] == text), None)


async def click_forged(h: Harness, message: Any, real: str, forged: str, user: int) -> Any:
    """Click the button `real` of `message` as a tampered client would: sending `forged` as
    its id (the message is left as it was)."""
    live = h.fake.message(message.id)
    button = live.component(real)
    button["custom_id"] = forged
    try:
        return await h.click(live, forged, user)
    finally:
        button["custom_id"] = real


async def offer_by_chooser(tb: Table, plan: tuple[str, int, int, int]) -> Any:
    """Compose `plan`'s offer as a person does: "Offer a trade" on the turn post; in the
    private page, the cards to give ticked in the select of one's hand (one option per card);
    the card asked for with "+" (twice, then "−" once: counts go both ways); Confirm."""
    h = tb.h
    state = await tb.state()
    offerer = state.current
    user = tb.user_of[offerer]
    notation, give, count, want = plan
    gave, wanted = label(f"catan_express.resource.{RESOURCES[give].value}"), label(f"catan_express.resource.{RESOURCES[want].value}")
    post = h.last_post()
    entry = next(e for e in offered(post) if e["label"] == label("catan_express.menu.offer"))
    opened = await press(h, post, entry, user)
    page = h.fake.message(opened.original.id)
    assert page.ephemeral and label("catan_express.step.offer") in page.content, page.content
    assert page.content.count(label("discord.choose.nothing")) == 2  # nothing given, nothing asked yet
    confirm, = group_ids(page, "cd")
    assert page.component(confirm).get("disabled"), "Confirm waits until both sides are picked"
    # what is given: a select of the hand, one option a card, named by its resource
    select, = group_ids(page, "cg")
    options = page.component(select)["options"]
    hand = state.players[offerer].hand
    assert sorted(o["label"] for o in options) == sorted(label(f"catan_express.resource.{r.value}")
                                                         for r, n in zip(RESOURCES, hand) for _ in range(n))
    assert page.component(select)["min_values"] == 1
    ticks = [o["value"] for o in options if o["label"] == gave][:count]
    page = h.fake.message((await h.select(page, select, ticks, user)).original.id)
    shown = label("choice.counted", item={"key": f"catan_express.resource.{RESOURCES[give].value}"}, count=count)
    assert label("catan_express.step.give") + " **" + shown + "**" in page.content, page.content
    select, = group_ids(page, "cg")
    assert sum(1 for o in page.component(select)["options"] if o.get("default")) == count  # ticked stay ticked
    # what is asked: + / − buttons for the other resources (never the one given)
    assert button_labelled(page, "ct", label("discord.choose.add", item=gave)) is None
    assert page.component(confirm := group_ids(page, "cd")[0]).get("disabled")
    for _ in range(2):
        plus = button_labelled(page, "ct", label("discord.choose.add", item=wanted))
        page = h.fake.message((await h.click(page, plus, user)).original.id)
    two = label("choice.counted", item={"key": f"catan_express.resource.{RESOURCES[want].value}"}, count=2)
    assert label("catan_express.step.get") + " **" + two + "**" in page.content, page.content
    minus = button_labelled(page, "ct", label("discord.choose.remove", item=wanted))
    page = h.fake.message((await h.click(page, minus, user)).original.id)
    assert label("catan_express.step.get") + " **" + wanted + "**" in page.content, page.content
    assert await tb.state() == state, "composing an offer changes nothing until Confirm"
    confirm, = group_ids(page, "cd")
    assert not page.component(confirm).get("disabled")
    # a forged Confirm (more cards of a kind than the hand holds) or a greyed one clicked
    # anyway (nothing asked): refused privately, and nothing changes
    head, tally = confirm.rsplit(":", 1)
    refused = await click_forged(h, page, confirm, head + ":" + "z" + tally[1:], user)
    assert refused.ephemeral and label("choice.error.not_offered") in text_of(h, refused), text_of(h, refused)
    refused = await click_forged(h, page, confirm, head + ":" + tally[:len(tally) - 5] + "00000", user)
    assert refused.ephemeral and text_of(h, refused).startswith("⚠️"), text_of(h, refused)
    assert await tb.state() == state
    done = await h.click(page, confirm, user)
    asked = await tb.state()
    made = GAME.parse_action(notation)
    assert asked.phase == "answer" and (tuple(asked.offer.give), tuple(asked.offer.get)) == (made.give, made.get)
    return done


# ------------------------------------------------------------------------------ scenarios
async def roll_by_button(tb: Table) -> None:
    h = tb.h
    state = await tb.state()
    seat = state.current
    user = tb.user_of[seat]
    post = h.last_post()
    # the post says whose roll it is and how to roll, and its embed names the phase
    assert label("catan_express.discord.hint.roll") in post.content, post.content
    embed = post.embeds[0]
    assert label("catan_express.discord.status.roll", "en", tb.names, seat=seat, turn=state.turn) in embed["description"]
    roll = [e for e in offered(post) if e["label"] == label("catan_express.menu.roll")]
    assert len(roll) == 1 and roll[0]["kind"] == "button"
    assert post.component(roll[0]["custom_id"])["emoji"]["name"] == "🎲"
    version = await tb.version()

    # someone outside the game: refused, privately, in so many words
    stranger = await press(h, post, roll[0], KEN)
    assert stranger.ephemeral and label("error.not_in_game") in text_of(h, stranger), text_of(h, stranger)
    # a player whose turn it is not, in Japanese: refused, and told whom the game waits on
    other = next(u for u in HUMANS if u != user)
    early = await press(h, post, roll[0], other, locale="ja")
    waiting_ja = label("error.not_active", "ja", waiting=tb.names[seat])
    assert early.ephemeral and waiting_ja in text_of(h, early), text_of(h, early)
    assert await tb.version() == version and (await tb.state()).dice == []

    done, steps = await click_through(h, post, user, "roll")
    assert text_of(h, done).startswith("✅"), text_of(h, done)
    assert [s["step"] for s in steps] == ["catan_express.step.action"] and steps[0]["public"]
    rolled = await tb.state()
    assert len(rolled.dice) == 2 and rolled.phase != "roll"
    dice = label("catan_express.discord.status.dice", dice=" + ".join(map(str, rolled.dice)), total=sum(rolled.dice))
    assert dice in h.last_post().embeds[0]["description"]

    # the same button again, as the old message still shows it: the board moved on
    stale = await h.click_as_drawn(post, roll[0]["custom_id"], user)
    assert stale.ephemeral and label("discord.stale.changed") in text_of(h, stale), text_of(h, stale)
    assert (await tb.state()) == rolled
    # take the old button off again: it was put back on the live message only to be clicked
    live = h.fake.message(post.id)
    live.components = [row for row in live.components
                       if not any(c.get("custom_id") == roll[0]["custom_id"] for c in row.get("components", []))]


async def hands_are_private(tb: Table) -> None:
    """Each player's hand, shown only to them: their own cards, nobody else's."""
    h = tb.h
    state = await tb.state()
    post = h.last_post()
    lines = {s: cards_line(state.players[s].hand, "en") for s in range(state.n)}
    for seat, user in tb.user_of.items():
        lang, locale = ("ja", "ja") if user == BOB else ("en", "en-US")
        shown = await h.click(post, tb.hand_button(post), user, locale=locale)
        assert shown.ephemeral and any(a.filename == "hand.png" for a in shown.attachments)
        text = text_of(h, shown)
        me = state.players[seat]
        assert label("catan_express.discord.hand.resources", lang, count=sum(me.hand)) in text, text
        mine = cards_line(me.hand, lang)
        assert mine and mine in text, (mine, text)
        for other, line in lines.items():
            if other != seat and line != lines[seat]:
                assert line not in text
        if lang == "ja":
            assert "あなたの資源" in text and "銀行との交易レート" in text, text
        tb.hands.append(mine)


async def trade(tb: Table, plan: tuple[str, int, int, int], order: tuple[int, int], answers: tuple[bool, bool],
                partner: int | None) -> None:
    """`order`: the two answering seats, first to answer first; both open their menus before
    either answers. `partner`: whom the offerer picks (None: nobody accepted)."""
    h = tb.h
    before = await tb.state()
    offerer = before.current
    notation, give, count, want = plan
    done = await offer_by_chooser(tb, plan)
    assert text_of(h, done).startswith("✅"), text_of(h, done)
    asked = await tb.state()
    assert asked.phase == "answer" and sorted(GAME.active_players(asked)) == sorted(order)

    post = h.last_post()
    # answering is secret: the post offers no answer, only a way into one's own menu
    assert offered(post) == [], post.custom_ids
    assert label("catan_express.discord.hint.answer") in post.content
    first, second = order
    menus = {}
    for i, seat in enumerate(order):
        user = tb.user_of[seat]
        locale = "ja" if user == BOB else "en-US"
        button = tb.hand_button(post) if i == 0 else tb.open_button(post)
        page = await h.click(post, button, user, locale=locale)
        assert page.ephemeral
        menus[seat] = page.original
    for seat, menu in menus.items():
        lang = "ja" if tb.user_of[seat] == BOB else "en"
        entries = offered(menu)
        # both see their own accept / refuse at once, each menu keyed to its seat
        assert sorted(e["label"] for e in entries) == sorted([label("catan_express.menu.accept", lang),
                                                              label("catan_express.menu.refuse", lang)])
        assert {e["check"] for e in entries} == {key_check(f"catan_express.answer.{asked.turn}.{asked.offers_made}.{seat}")}
        assert all(e["kind"] == "button" for e in entries)

    async def answer(seat: int, accept: bool) -> None:
        lang = "ja" if tb.user_of[seat] == BOB else "en"
        word = label("catan_express.menu.accept" if accept else "catan_express.menu.refuse", lang)
        entry = next(e for e in offered(menus[seat]) if e["label"] == word)
        result = await press(h, menus[seat], entry, tb.user_of[seat], locale="ja" if lang == "ja" else "en-US")
        assert text_of(h, result).startswith("✅"), text_of(h, result)

    await answer(first, answers[0])
    middle = await tb.state()
    assert middle.phase == "answer" and middle.offer.answers == {first: answers[0]}
    # the public post says that the first has answered, not what
    field = next(f for f in h.last_post().embeds[0]["fields"] if f["name"].endswith(tb.names[first]))
    assert label("catan_express.discord.seat.answered") in field["value"]
    assert label("catan_express.discord.seat.accepted") not in field["value"]
    assert label("catan_express.discord.seat.refused") not in field["value"]
    # the second's menu was drawn before the first answered, and still works (its key holds)
    assert max(e["version"] for e in offered(menus[second])) < await tb.version()
    await answer(second, answers[1])

    after = await tb.state()
    if partner is None:
        assert after.phase == "main" and after.offer is None
        return
    assert after.phase == "pick" and partner in GAME.acceptors(after)
    done, steps = await click_through(h, h.last_post(), tb.user_of[offerer], f"trade @{partner + 1}")
    assert text_of(h, done).startswith("✅") and [s["step"] for s in steps] == ["catan_express.step.partner"]
    traded = await tb.state()
    assert traded.phase == "main"
    for seat, sign in ((offerer, 1), (partner, -1)):
        change = [a - b for a, b in zip(traded.players[seat].hand, before.players[seat].hand)]
        expected = [0] * 5
        expected[want] += sign
        expected[give] -= sign * count
        assert change == expected, (seat, change)


async def discards_and_theft(tb: Table) -> None:
    """A 7: everyone over seven cards discards privately, all at once, in any order; then the
    roller moves the robber and robs."""
    h = tb.h
    state = await tb.state()
    due = dict(state.discards)
    seats = sorted(due)
    assert len(seats) >= 2
    post = h.last_post()
    assert offered(post) == [] and label("catan_express.discord.hint.discard") in post.content
    # everyone opens their menu first, then they discard in the reverse order
    menus = {}
    for i, seat in enumerate(seats):
        page = await h.click(post, tb.hand_button(post) if i % 2 else tb.open_button(post), tb.user_of[seat])
        assert page.ephemeral
        menus[seat] = page.original
        # the cards to give up: one select of the hand, a card an option (no more of a kind than
        # are due), exactly half of them
        select, = group_ids(page.original, "cg")
        check = key_check(f"catan_express.discard.{state.turn}.{seat}")
        assert select.split(":")[4] == check, select
        component = page.original.component(select)
        assert len(component["options"]) == sum(min(n, due[seat]) for n in state.players[seat].hand)
        assert component["min_values"] == component["max_values"] == due[seat]
        assert component["placeholder"].startswith(label("catan_express.step.discard")), component["placeholder"]
    for n, seat in enumerate(reversed(seats)):
        now = await tb.state()
        legal = GAME.legal_actions(now, seat)
        action = tb.rng.choice(legal)
        notation = GAME.format_action(action)
        group, = GAME.decision(now, seat).groups
        done = await h.pick_group(menus[seat], 0, group, group.counts_of(notation), tb.user_of[seat])
        mine = label("catan_express.ev.discarded_cards", "en", tb.names, seat=seat,
                     cards=[{"key": f"catan_express.cards.{r.value}", "params": {"count": k}}
                            for r, k in zip(RESOURCES, action.cards) if k])
        assert "🔒 " + mine in text_of(h, done), text_of(h, done)
        tb.private.append(mine)
        tb.secret_moves.append(notation)
        later = await tb.state()
        assert sum(later.players[seat].hand) == sum(now.players[seat].hand) - due[seat]
        if n < len(seats) - 1:
            # the others still owe theirs: the embed says who, not what anyone discarded
            fields = {f["name"].removeprefix("👉 "): f["value"] for f in h.last_post().embeds[0]["fields"]}
            for waiting in seats:
                owed = waiting in later.discards
                assert (label("catan_express.discord.seat.discarding", count=due[waiting]) in fields[tb.names[waiting]]) == owed
    robbing = await tb.state()
    assert robbing.phase == "robber"
    thief = robbing.current
    moves = [a for a in GAME.legal_actions(robbing, thief) if a.victim is not None]
    assert moves, "nobody to rob on this board"
    move = moves[0]
    victim_hand = list(robbing.players[move.victim].hand)
    done, steps = await pick_through(h, h.last_post(), tb.user_of[thief], GAME.format_action(move))
    # the hex on its picture, then whom to rob (asked only when there is a choice of victims there)
    asked = [s["step"] for s in steps]
    assert asked in (["catan_express.step.hex"], ["catan_express.step.hex", "catan_express.step.victim"]), asked
    assert steps[0]["pictured"]
    after = await tb.state()
    taken = [a - b for a, b in zip(victim_hand, after.players[move.victim].hand)]
    assert sum(taken) == 1
    resource = RESOURCES[taken.index(1)].value
    stolen = label("catan_express.ev.robbed_card", "en", tb.names, seat=thief, victim_seat=move.victim,
                   resource={"key": f"catan_express.resource.{resource}"})
    assert "🔒 " + stolen in text_of(h, done), text_of(h, done)  # the thief is told what they took
    tb.private.append(stolen)
    robbed = label("catan_express.ev.robbed", "en", tb.names, seat=thief, victim_seat=move.victim)
    assert robbed in h.last_post().content, h.last_post().content


async def build_by_point(tb: Table, point: str) -> None:
    h = tb.h
    state = await tb.state()
    seat = state.current
    post = h.last_post()
    assert label("catan_express.discord.hint.main") in post.content
    # the first step's "Build a settlement" carries the house emoji, as a button or an option
    entry = next(e for e in offered(post) if e["label"] == label("catan_express.menu.settlement"))
    component = post.component(entry["custom_id"])
    if entry["kind"] == "select":
        component = next(o for o in component["options"] if o["value"] == entry["value"])
    assert component["emoji"]["name"] == "🏠", component
    done, steps = await pick_through(h, post, tb.user_of[seat], f"build settlement {point}")
    assert text_of(h, done).startswith("✅"), text_of(h, done)
    assert [s["step"] for s in steps] == ["catan_express.step.action", "catan_express.step.point"]
    assert steps[0]["picked"]["label"] == label("catan_express.menu.settlement")
    # the point is picked by its number on the picture, and named by the land round it
    words = point_label(GAME, state, point)
    assert steps[1]["pictured"]
    assert re.fullmatch(r"\d+ · " + re.escape(label(words.key, "en", tb.names, **words.params)),
                        steps[1]["picked"]["label"]), steps[1]["picked"]["label"]
    built = await tb.state()
    assert built.buildings[int(point)].seat == seat and built.buildings[int(point)].kind == "settlement"


# ------------------------------------------------------------------------------ the game
def planned(tb: Table, state: Any, seat: int) -> str:
    """What a player not under test does: the builder bot in setup and on gold, ending the
    turn in the main phase (hands grow, so a 7 makes several discard), refusing offers."""
    phase = state.phase
    if phase in ("setup", "gold", "stops"):
        return GAME.format_action(GAME.bots()["builder"].choose(GAME, state, seat, tb.rng))
    if phase == "roll":
        return "roll"
    if phase == "discard":
        action = GAME.legal_actions(state, seat)[0]
        return GAME.format_action(action)
    if phase == "robber":
        return GAME.format_action(GAME.legal_actions(state, seat)[0])
    if phase == "answer":
        return "refuse"
    if phase == "pick":
        return "withdraw"
    return "end"


@pytest.mark.slow  # a whole game
async def test_catan_express_on_discord(harness: Harness, fake, caplog) -> None:
    caplog.set_level(logging.INFO)
    caplog.set_level(logging.DEBUG, logger="railyard")
    h = harness
    tb = await open_game(h)
    done: set[str] = set()
    for _ in range(600):
        state = await tb.state()
        if state.phase == "over" or done >= {"roll", "trade", "discard", "build"}:
            break
        seat = min(GAME.active_players(state))
        if state.phase == "roll" and "roll" not in done:
            await roll_by_button(tb)
            await hands_are_private(tb)
            done.add("roll")
            continue
        if state.phase == "main" and "trade" not in done and not state.moving:
            plan = trade_plan(state, seat)
            if plan is not None:
                first, second = [s for s in range(state.n) if s != seat]
                # refused by the one who answers first, accepted by the other
                await trade(tb, plan, (second, first), (False, True), partner=first)
                again = trade_plan(await tb.state(), seat)
                if again is not None:
                    # the other order, both accept: the offerer picks between them
                    await trade(tb, again, (first, second), (True, True), partner=second)
                    done.add("trade")
                    continue
        if state.phase == "main" and "build" not in done and not state.moving:
            spots = [a.at for a in GAME.legal_actions(state, seat) if a.kind == "build" and a.what == "settlement"]
            if spots:
                await build_by_point(tb, spots[0])
                done.add("build")
                continue
        if state.phase == "discard" and "discard" not in done and len(state.discards) >= 2:
            await discards_and_theft(tb)
            done.add("discard")
            continue
        notation = planned(tb, state, seat)
        if state.phase == "discard":
            tb.secret_moves.append(notation)
        await tb.act(seat, notation)
    assert done == {"roll", "trade", "discard", "build"}, done

    # ---------------------------------------------------------------- nothing secret leaked
    dms = {c.id for c in (fake.dm_channel(u) for u in HUMANS) if c is not None}
    public = [p for p in fake.public_payloads() if not any(f"/channels/{d}/" in p.path for d in dms)]
    public_text = "\n".join(json.dumps(p.payload, ensure_ascii=False) for p in public)
    private_text = "\n".join(json.dumps(p.payload, ensure_ascii=False) for p in fake.ephemeral_payloads())
    assert len(public) > 20
    for text in tb.private:
        assert text in private_text  # it was shown to its player…
        assert text not in public_text, text  # …and to nobody else
    for line in tb.hands:
        assert line in private_text and line not in public_text, line
    assert label("catan_express.discord.hand.resources", count=0).split("(")[0] not in public_text
    history = await h.slash(ALICE, "game log")
    logged = text_of(h, history) + json.dumps([m.embeds for m in history.messages], ensure_ascii=False)
    assert history.ephemeral or history.original is not None
    # the move log everyone may read (the service's history, which /game log pages through)
    # names a discard as such, never the cards
    entries = await h.bot.service.history(str(CHANNEL))
    logged += "\n".join(e.notation for e in entries)
    assert sum(e.notation == "discard" for e in entries) >= len(tb.secret_moves) >= 2
    records = "\n".join(r.getMessage() for r in caplog.records)
    for notation in tb.secret_moves:
        assert notation.startswith("discard ")
        assert notation not in public_text and notation not in logged and notation not in records, notation
    for text in tb.private:
        assert text not in records
    fake.assert_clean()


async def test_a_japanese_game_speaks_japanese_in_public(harness: Harness, fake) -> None:
    """A game opened in Japanese: the status embed, the hint under the ping and the menu."""
    h = harness
    opened = await h.slash(ALICE, "game new", {"game": "catan_express", "language": "ja"}, locale="ja")
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    for user in (BOB, CAROL):
        await h.click(lobby, None, user, label=label("discord.lobby.join", "ja"), locale="ja")
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start", "ja"), locale="ja")
    status = await h.bot.service.status(str(CHANNEL))
    state = await h.bot.service.rebuild(status.info.game_id)
    names = list(status.names)
    post = h.last_post()
    description = post.embeds[0]["description"]
    assert label("catan_express.discord.status.setup", "ja", names, seat=state.current, round=1,
                 what={"key": "catan_express.piece.settlement"}) in description, description
    assert label("catan_express.discord.race.not_yet", "ja", points=8) in description
    assert label("catan_express.discord.hint.setup", "ja") in post.content, post.content
    fields = post.embeds[0]["fields"]
    assert len(fields) == 3 and all("点" in f["value"] for f in fields), fields
    # the first settlement is picked on the map: the post offers no intersections, only the
    # map's parts; the hand shows them framed on the whole board, and a part's button its
    # numbered picture, all in Japanese
    assert not [e for e in offered(post) if e["kind"] == "select"]
    on_post = [c for c in post.custom_ids if re.fullmatch(r"ry:\d+:\d+:cr:v::\d+", c)]
    assert len(on_post) >= 2 and all("か所" in post.component(c)["label"] for c in on_post)
    user = int(status.waiting_user_ids[0])
    opened = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), user, locale="ja")
    page = h.fake.message(opened.original.id)
    placed = len(GAME.legal_actions(state, state.current))
    assert label("discord.pick.regions", "ja", count=placed) in page.content, page.content
    assert sorted(a.filename for a in page.attachments) == ["hand.png", "regions.png"]
    regions = [c for c in page.custom_ids if re.fullmatch(r"ry:\d+:\d+:cr:.*", c)]
    assert [page.component(c)["label"] for c in regions] == [post.component(c)["label"] for c in on_post]
    shown = await h.click(page, regions[0], user, locale="ja")
    page = h.fake.message(shown.original.id)
    assert label("discord.pick.numbers", "ja") in page.content
    (picture,) = [a for a in page.attachments if a.filename == "pick.png"]
    assert picture.description == translate("ja", "render.pick.alt", {"low": 1, "high": len(offered(page)),
                                                                       "count": len(offered(page))})
    points = [e for e in offered(page) if e["kind"] == "select"]
    assert points and all(e["placeholder"].startswith(label("catan_express.step.point", "ja")) for e in points)
    h.fake.assert_clean()
