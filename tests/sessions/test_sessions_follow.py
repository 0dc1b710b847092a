"""Following a game one does not play in (/game follow): a DM row at the game's end and every
N moves for those who asked, carrying only the public post; players and lobbies refused. Both
backends."""
from __future__ import annotations

import random

import pytest

from bot.sessions import SessionError, SessionService
from bot.store import StoreBackend
from tests.support import ALICE, BOB, CAROL, DAVE, actor_for, open_all


async def test_a_follower_hears_every_few_moves_and_at_the_end_with_public_posts_only(
        service: SessionService, store: StoreBackend) -> None:
    await service.create("toy", "f", "guild-1", ALICE, {"rounds": 3})
    await service.join("f", BOB)
    with pytest.raises(SessionError) as lobby:
        await service.follow("f", CAROL)
    assert lobby.value.code == "not_active_game"
    out = await open_all(service, "f", await service.start("f", ALICE))
    with pytest.raises(SessionError) as own:
        await service.follow("f", ALICE)
    assert own.value.code == "follow_own_game"
    with pytest.raises(SessionError) as nobody:
        await service.unfollow("f", DAVE)
    assert nobody.value.code == "not_following"
    await service.follow("f", CAROL, every=3)
    await service.follow("f", DAVE)
    rng = random.Random(4)
    moves = 2  # the two openings before Carol followed
    while (status := await service.status("f")).info.status == "active":
        seat = status.waiting[0]
        legal = (await service.private_view("f", out.seat_user_ids[seat])).legal
        await service.act("f", actor_for(out, seat), rng.choice(legal).notation)
        moves += 1
    rows = [r for r in await store.outbox_rows() if r.kind == "followed"]
    carol = [r for r in rows if r.payload["user_id"] == CAROL.user_id]
    dave = [r for r in rows if r.payload["user_id"] == DAVE.user_id]
    assert len(dave) == 1 and dave[0].payload["post"]["finished"]
    assert len(carol) == (moves // 3) - (2 // 3) + (moves % 3 != 0)  # every third move, and the end
    assert all(r.game_id is None for r in rows)
    for row in rows:  # the public post: no hand, no private event
        text = str(row.payload)
        assert "hands" not in text and "private" not in text
