"""A player's table: their options at each step, the places on the board they are at, and a
move made there through the sessions service (the version guard, the one transaction with the
outbox a Discord click has)."""
from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest

from bot.sessions.looking import seat_view
from render import pick as pick_render
from tests.web.conftest import GAMES, PEOPLE

ALICE, BOB = PEOPLE[:2]


async def _placed_step(web, game_id: int, tries: int = 80) -> tuple[Any, str, dict]:
    """Advance the game until a person's menu offers places on the board; (actor, token, table)."""
    for _ in range(tries):
        ld, _ = await web.service.core.read_id(game_id)
        assert ld.row.status == "active"
        for seat in sorted(ld.game.active_players(ld.state)):
            user = ld.seats[seat].user_id
            if user is None:
                continue
            actor = next(a for a in PEOPLE if a.user_id == user)
            token = await web.player_token(game_id, actor)
            queue: list[list[str]] = [[]]
            asked = 0
            while queue and asked < 20:  # the steps a few picks deep, breadth first
                picks = queue.pop(0)
                asked += 1
                status, data = await web.get_json(f"/g/{game_id}/play/table.json?" + urlencode([("p", p) for p in picks]),
                                                  token=token)
                assert status == 200, data
                step = data["step"]
                if step is None or step["move"] or not step["options"]:
                    continue
                if any("place" in o for o in step["options"]):
                    return actor, token, data
                queue += [[*picks, o["value"]] for o in step["options"][:8]]
        await web.advance(game_id, 1)
    raise AssertionError("no step with places came up")


@pytest.mark.parametrize("game", GAMES)
async def test_a_player_clicks_a_place_and_the_move_goes_through_the_service(web, game):
    game_id = await web.start_game(game)
    actor, token, data = await _placed_step(web, game_id)
    ld, _ = await web.service.core.read_id(game_id)
    seat = ld.seat_of(actor.user_id)
    step = data["step"]
    width, height = data["size"]
    from render import registry as renderers

    assert data["dark"] == renderers.get(game).places.dark_badges  # badges unlike the board's own numbers
    placed = [o for o in step["options"] if "place" in o]
    # every place is on the board, where the renderer says it is (the pick pictures' own marks)
    pv = seat_view(ld, seat, legal=False)
    stop_options = pv.decision.walk(step["picks"]).options if step["picks"] else pv.decision.first_step()
    marks = pick_render.locate(game, pv.view, [o.place for o in stop_options if o.place is not None])
    assert [o["place"]["spot"] for o in placed] == [[round(m.spot[0], 1), round(m.spot[1], 1)] for m in marks]
    for option in placed:
        x, y = option["place"]["spot"]
        assert 0 <= x <= width and 0 <= y <= height
    # the board the page lays the places on is that size
    from PIL import Image
    import io

    status, png, _ = await web.get(f"/g/{game_id}/play/board.png", token=token)
    assert Image.open(io.BytesIO(png)).size == (width, height)

    # click the first place, then whatever follows it, to the move
    picks = list(step["picks"]) + [placed[0]["value"]]
    for _ in range(8):
        status, data = await web.get_json(f"/g/{game_id}/play/table.json?" + urlencode([("p", p) for p in picks]),
                                          token=token)
        assert status == 200, data
        if data["step"]["move"]:
            break
        picks = [*data["step"]["picks"], data["step"]["options"][0]["value"]]  # with the steps taken without asking
    move = data["step"]["move"]
    assert move
    outbox_before = len(await web.service.store.outbox_rows(game_id))
    status, answer = await web.post_move(game_id, token, {"picks": picks, "version": ld.row.version})
    assert status == 200, answer
    after, actions = await web.service.core.read_id(game_id, with_actions=True)
    assert after.row.version > ld.row.version
    mine = [a for a in actions if a.seat == seat and a.kind == "move"]
    assert mine[-1].notation == move and mine[-1].actor_user_id == actor.user_id
    assert len(await web.service.store.outbox_rows(game_id)) > outbox_before  # the channel is told


async def test_a_stale_or_refused_move_says_so_and_changes_nothing(web):
    game_id = await web.start_game("ticket_to_ride")
    ld, _ = await web.service.core.read_id(game_id)
    token = await web.player_token(game_id, ALICE)
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=token)
    group = data["step"]["groups"][0]
    good = {"group": {"index": group["index"], "counts": [1] * len(group["items"])}}
    status, answer = await web.post_move(game_id, token, {**good, "version": ld.row.version - 1})
    assert status == 409 and "changed" in answer["error"].lower()
    status, answer = await web.post_move(game_id, token, {"group": {"index": group["index"], "counts": [0] * len(group["items"])},
                                                          "version": ld.row.version})
    assert status == 400 and answer["error"]
    status, answer = await web.post_move(game_id, token, {"picks": ["nowhere"], "version": ld.row.version})
    assert status == 400 and answer["code"] == "choice.not_offered"
    status, answer = await web.get_json(f"/g/{game_id}/play/table.json?p=nowhere", token=token)
    assert status == 400 and answer["code"] == "choice.not_offered"
    status, answer = await web.post_move(game_id, token, {**good, "version": ld.row.version}, origin=None)
    assert status == 200
    assert (await web.service.core.read_id(game_id))[0].row.version == ld.row.version + 1
    status, answer = await web.post_move(game_id, token, {**good, "version": ld.row.version + 1})
    assert status == 400  # Alice has kept her tickets: nothing to do until the game comes back to her
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=token)
    assert data["step"] is None and not data["active"]


async def test_a_players_table_follows_the_game_live(web):
    import asyncio

    game_id = await web.start_game("ticket_to_ride")
    token = await web.player_token(game_id, ALICE)
    assert web.http is not None
    async with web.http.get(f"{web.url}/g/{game_id}/play/events", headers={"Authorization": f"Bearer {token}"}) as s:
        first = await asyncio.wait_for(s.content.readuntil(b"\n\n"), 5)
        assert first.startswith(b"event: version")
        bob = await web.player_token(game_id, BOB)
        _, data = await web.get_json(f"/g/{game_id}/play/table.json", token=bob)
        group = data["step"]["groups"][0]
        await web.post_move(game_id, bob, {"group": {"index": group["index"], "counts": [1] * len(group["items"])},
                                           "version": data["version"]})
        second = await asyncio.wait_for(s.content.readuntil(b"\n\n"), 5)
        assert second == f"event: version\ndata: {data['version'] + 1}\n\n".encode()
