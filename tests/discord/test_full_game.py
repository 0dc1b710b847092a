"""A whole Ticket to Ride game between two users and a bot, played only through Discord:
slash commands, autocomplete, buttons and select menus on the loopback fake.

The users pick their moves with the game's planner (it sees the state the way a player
sitting at the table would plan; the move itself always goes through Discord), and every
move they make is first found among the /move autocomplete choices.
"""
from __future__ import annotations

import re
import threading

import pytest

from games import registry
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness, final_buttons, find_id

DAY = 24 * 3600.0
MENTION = re.compile(r"<@(\d+)>")


def payload_text(payload: dict) -> str:
    """Everything a user reads in a message body: content, embeds, component labels."""
    parts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or "",
                  (embed.get("footer") or {}).get("text") or ""]
        for f in embed.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
    for row in payload.get("components") or []:
        for comp in row.get("components") or []:
            parts += [comp.get("label") or "", comp.get("placeholder") or ""]
            parts += [o.get("label", "") + " " + (o.get("description") or "") for o in comp.get("options") or []]
    return "\n".join(parts)


@pytest.mark.slow  # a whole game
async def test_full_game_two_users_and_a_bot(harness: Harness, fake, clock, monkeypatch) -> None:
    h = harness
    # every image is drawn off the event loop's thread
    from render.registry import GameRenderer

    drawn: list[tuple[str, bool]] = []
    for kind in ("board", "hand", "final"):
        original = getattr(GameRenderer, kind)

        def recording(self, view, names, lang="en", _original=original, _kind=kind):
            drawn.append((_kind, threading.current_thread() is threading.main_thread()))
            return _original(self, view, names, lang)

        monkeypatch.setattr(GameRenderer, kind, recording)
    bot = h.bot
    game = registry.get("ticket_to_ride")
    await h.new_game(ALICE, [BOB], bots=1)
    game_id = await h.game_id()

    private_lines: set[str] = set()  # what only one player was shown (🔒 lines)
    ticket_texts: set[str] = set()  # every ticket a user held or was offered
    used = {"button": 0, "claim_flow": 0, "move": 0, "keep": 0}
    claims = 0

    def collect(result) -> None:
        for message in result.messages:
            assert message.ephemeral, message.content
            for line in message.content.splitlines():
                if line.startswith("🔒"):
                    private_lines.add(line[1:].strip())
                for mark in ("🎫 ", "✅ ", "▫️ "):
                    if line.startswith(mark) and re.search(r"\(\d+\)$", line):
                        ticket_texts.add(line[len(mark):].strip())

    for step in range(1000):
        turn = await h.waited_on(game_id)
        if turn is None:
            break
        _, user, seat, state = turn
        notation = h.planned(state, seat)
        assert find_id(h.last_post(), r"ry:\d+:\d+:hand"), "the live board offers \"Show my hand\""

        # the move is offered by /move's autocomplete (typed in full, so it is in the first 25)
        offered = await h.autocomplete(user, "move", focused="move", value=notation)
        assert notation in [c["value"] for c in offered], (notation, offered)
        assert 1 <= len(offered) <= 25 and all(len(c["name"]) <= 100 for c in offered)

        if notation.startswith("keep "):
            post = h.last_post()
            hand = await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), user)
            collect(hand)
            assert any(a.filename == "hand.png" for a in hand.attachments)
            done = await h.choose(user, notation, start="hand")  # the private multi-select
            used["keep"] += 1
        elif notation.startswith("claim ") and claims % 2 == 0:
            claims += 1
            done = await h.choose(user, notation)  # "Claim a route…" → route → payment
            used["claim_flow"] += 1
        elif notation.startswith("claim ") or notation == "pass":
            claims += notation.startswith("claim ")
            done = await h.slash(user, "move", {"move": notation})
            used["move"] += 1
        else:
            done = await h.choose(user, notation)  # a button on the turn post
            used["button"] += 1
        collect(done)
        assert "✅" in (done.content or fake.message(done.original.id).content), done.content
    else:
        raise AssertionError("the game did not finish")

    status = await bot.service.status(str(CHANNEL))
    assert status.info.status == "finished" and status.result is not None
    assert all(count > 0 for count in used.values()), used

    # --- the final post: ranking + breakdown embed, final board and chart, nobody pinged
    final = h.last_post()
    assert {a.filename for a in final.attachments} == {"board.png", "final.png", "timelapse.webp"}
    assert final_buttons(final) == ["rematch", "rematch:thread"] and final.mentions == []  # only Rematch
    ranking = final.embeds[0]
    assert "final scores" in ranking["title"].lower()
    assert ranking["image"]["url"] == "attachment://final.png"
    assert final.embeds[1]["image"]["url"] == "attachment://board.png"
    winner = status.result.players[0]
    assert status.names[winner.seat] in ranking["description"].splitlines()[0]
    assert len(ranking["fields"]) == 3 and all("Routes" in f["value"] for f in ranking["fields"])

    # --- one live board: every outbox row delivered (none given up); a new message only when a
    # person is newly waited on, plus the start and the end; most steps edit the live one
    rows = await bot.store.outbox_rows(game_id)
    assert rows and all(r.delivered_at is not None and not r.dead for r in rows)
    posts = h.game_posts()
    newly_waited, before = 0, set()
    for row in rows:
        waiting = set(row.payload.get("mention_user_ids") or [])
        newly_waited += bool(waiting - before)
        before = waiting
    assert 2 < len(posts) <= newly_waited + 2, (len(posts), newly_waited)
    assert len(posts) < len(rows) / 2, "steps inside a turn and bot moves edit the live board"
    footers = [p.embeds[-1]["footer"]["text"] if "footer" in p.embeds[-1] else "" for p in posts[:-1]]
    shown = [int(re.search(r"board (\d+)", f).group(1)) for f in footers]
    assert shown == sorted(shown) and len(set(shown)) == len(shown)
    # only the live message has buttons: every earlier one lost them when the next was posted
    assert all(p.components == [] for p in posts[:-1])

    # --- each new message notifies only people (never a bot, nobody outside the game)
    for message in posts:
        assert {u.id for u in message.mentions} <= {ALICE, BOB}
    assert fake.mass_mention_risks() == []

    # --- hands only ever in ephemeral payloads
    assert len(ticket_texts) >= 4 and private_lines
    final_index = next(i for i, p in enumerate(fake.message_payloads) if p.message_id == final.id)
    for i, record in enumerate(fake.message_payloads):
        if record.ephemeral:
            continue
        text = payload_text(record.payload)
        for line in private_lines:
            assert line not in text, (line, text)
        if i < final_index:  # the final breakdown reveals every ticket, by the rules
            for ticket in ticket_texts:
                assert ticket not in text, (ticket, text)
        assert all(f.filename != "hand.png" for f in record.files)
    hand_images = {f.data for r in fake.ephemeral_payloads() for f in r.files if f.filename == "hand.png"}
    public_images = {f.data for r in fake.public_payloads() for f in r.files}
    assert hand_images and not hand_images & public_images

    assert {kind for kind, _ in drawn} == {"board", "hand", "final"}
    assert not any(on_loop for _, on_loop in drawn)

    # --- /game status after the end shows the result privately
    final_status = await h.slash(ALICE, "game status")
    assert final_status.ephemeral and "This game is over." in final_status.content
    assert {a.filename for a in final_status.attachments} == {"board.png", "final.png"}

    # --- the move log, in words, paginated inside Discord's limits
    log = await h.slash(BOB, "game log")
    embed = log.original.embeds[0]
    page, pages = map(int, re.search(r"Page (\d+)/(\d+)", embed["footer"]["text"]).groups())
    assert page == pages > 1 and len(embed["description"]) <= 4096
    assert "claimed" in embed["description"] or "drew" in embed["description"]
    previous = await h.click(log.original, find_id(log.original, r"ry:\d+:0:log:\d+"), BOB)
    assert previous.callback_type == 7
    assert f"Page {pages - 1}/{pages}" in fake.message(log.original.id).embeds[0]["footer"]["text"]

    # --- no reminder for a finished game, however long we wait
    timers = bot.get_cog("Timers")
    count = len(h.posts())
    clock.advance(30 * DAY)
    await timers.tick.coro(timers)
    await h.idle()
    assert len(h.posts()) == count and fake.dm_messages(ALICE) == [] == fake.dm_messages(BOB)
    fake.assert_clean()
