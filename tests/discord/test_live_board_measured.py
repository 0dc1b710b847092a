"""The live board on the loopback Discord, measured: a 4-player Ticket to Ride game with two
people and two bots, played through the chooser, makes at most one new message per
person-turn plus the lobby, start and final posts, and sends at most a quarter of the picture
bytes of a post per move (each board encoded as before: zlib level 1)."""
from __future__ import annotations

import io

from PIL import Image

import pytest

from bot.sessions.live import GAME_POST_KINDS
from games import registry
from render import registry as renderers
from tests.discord.conftest import ALICE, BOB, CHANNEL, Harness

pytestmark = pytest.mark.slow  # a whole game through the real client


async def test_four_players_two_people_one_live_board(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB], bots=2)
    game_id = await h.game_id()
    for _ in range(2000):
        status = await h.bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        user = int(status.waiting_user_ids[0])
        seat = next(s for s in status.waiting if status.info.seats[s].user_id == str(user))
        notation = h.planned(await h.bot.service.rebuild(game_id), seat)
        await h.choose(user, notation, start="hand" if notation.startswith("keep") else "post")
    else:
        raise AssertionError("the game did not finish")

    rows = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind in GAME_POST_KINDS]
    people = {str(ALICE), str(BOB)}
    person_turns, before = 0, set()
    for row in rows:
        waiting = set(row.payload.get("mention_user_ids") or []) & people
        person_turns += bool(waiting - before)
        before = waiting
    records = fake.public_payloads()  # everything the channel got: creations and edits
    created = [r for r in records if r.kind == "create"]
    # the boards' pictures (the final post's timelapse is a picture of another kind)
    sent = sum(len(f.data) for r in records for f in r.files if f.filename.endswith(".png"))
    # lobby, start and final are among the created messages
    assert len(created) <= person_turns + 3, (len(created), person_turns)

    renderer = renderers.get("ticket_to_ride")
    game = registry.get("ticket_to_ride")
    before_bytes = 0
    for row in rows:
        view = game.view_model.model_validate(row.payload["view"])
        buffer = io.BytesIO()
        Image.open(io.BytesIO(renderer.board(view, row.payload["names"], "en"))).save(
            buffer, "PNG", compress_level=1)
        before_bytes += len(buffer.getvalue())
    assert sent <= before_bytes / 4, (sent / 1e6, before_bytes / 1e6)
    print(f"loopback: {len(created)} new messages for {person_turns} person-turns; "
          f"{sent / 1e6:.1f} MB of pictures against {before_bytes / 1e6:.1f} MB with a post per move")
