"""The web table's security: a player's link (signed, expiring, bound to the player, their seat
and the game; refused once the seat is no longer theirs), the page-bound token a move needs,
the rate limit per link, no token in any log, and nothing answered beyond the defined routes."""
from __future__ import annotations

import json
import logging

import pytest
import yarl

from bot.web.server import RateLimits
from render import registry as renderers
from tests.web.conftest import PEOPLE

ALICE, BOB, CAROL = PEOPLE[:3]


async def _ttr(web, **kw):
    return await web.start_game("ticket_to_ride", **kw)


async def test_a_forged_or_missing_link_is_refused(web):
    game_id = await _ttr(web)
    token = await web.player_token(game_id, ALICE)
    assert (await web.get_json(f"/g/{game_id}/play/table.json", token=token))[0] == 200
    body, mac = token.split(".")
    forged = [f"{body}.{mac[:-2]}{'AA' if mac[-2:] != 'AA' else 'BB'}", "nonsense", f"{body}x.{mac}", "a.b.c", ""]
    for bad in forged:
        status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=bad or None)
        assert status == 401, bad
        assert "Discord" in data["error"]
    # a link for one game opens no other
    other = await _ttr(web)
    status, data = await web.get_json(f"/g/{other}/play/table.json", token=token)
    assert status == 401 and data["code"] == "web.error.link_forged"


async def test_a_link_signed_with_another_key_is_forged(web):
    from bot.web import PlayerLink, Signer

    game_id = await _ttr(web)
    seat = await web.seat_of(game_id, ALICE)
    token = Signer(b"another key" * 4).sign(PlayerLink(game_id, ALICE.user_id, seat, int(web.clock()) + 3600))
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=token)
    assert status == 401 and data["code"] == "web.error.link_forged"


async def test_an_expired_link_is_refused_in_the_readers_language(web):
    game_id = await _ttr(web)
    token = await web.player_token(game_id, ALICE)
    web.clock.advance(11 * 3600)
    assert (await web.get_json(f"/g/{game_id}/play/table.json", token=token))[0] == 200
    web.clock.advance(2 * 3600)
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=token)
    assert status == 401 and data["code"] == "web.error.link_expired" and "expired" in data["error"]
    status, data = await web.get_json(f"/g/{game_id}/play/table.json?lang=ja", token=token)
    assert "期限切れ" in data["error"]


async def test_a_link_is_refused_once_its_player_was_kicked(web):
    game_id = await _ttr(web, humans=3)
    token = await web.player_token(game_id, BOB)
    assert (await web.get_json(f"/g/{game_id}/play/table.json", token=token))[0] == 200
    await web.service.kick(await web.channel_of(game_id), ALICE, BOB.user_id)
    for path in ("/play/table.json", "/play/hand.png", "/play/board.png", "/play/events"):
        status, body, _ = await web.get(f"/g/{game_id}{path}", token=token)
        assert status == 403, path
        assert json.loads(body)["code"] == "web.error.not_your_seat"
    status, data = await web.post_move(game_id, await web.player_token(game_id, ALICE), {"picks": []})
    assert status != 403  # the others' links still work
    ld, _ = await web.service.core.read_id(game_id)
    version = ld.row.version
    status, data = await web.post_move(game_id, token, {"picks": [], "version": version}, csrf="x")
    assert status == 403
    assert (await web.service.core.read_id(game_id))[0].row.version == version


async def test_a_players_link_shows_their_own_hand_and_menu_and_never_anothers(web):
    game_id = await _ttr(web)
    ld, _ = await web.service.core.read_id(game_id)
    renderer = renderers.get("ticket_to_ride")
    hands, menus = {}, {}
    for actor in (ALICE, BOB):
        seat = ld.seat_of(actor.user_id)
        token = await web.player_token(game_id, actor)
        status, png, _ = await web.get(f"/g/{game_id}/play/hand.png", token=token)
        assert status == 200
        assert png == renderer.hand(ld.game.view(ld.state, seat), ld.names, "en")
        hands[actor.user_id] = png
        status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=token)
        assert data["seat"] == seat and data["active"]
        menus[actor.user_id] = json.dumps(data, ensure_ascii=False)
        # the tickets each is offered, by their words
        labels = [item["label"] for group in data["step"]["groups"] for item in group["items"]]
        assert labels, data["step"]
        menus[actor.user_id + ":labels"] = labels
    assert hands[ALICE.user_id] != hands[BOB.user_id]
    # and the public table shows neither
    status, public, _ = await web.get(f"/g/{game_id}/table.json")
    assert status == 200
    for label in menus[ALICE.user_id + ":labels"] + menus[BOB.user_id + ":labels"]:
        assert label not in public.decode()
    for label in menus[ALICE.user_id + ":labels"]:
        assert label in menus[ALICE.user_id]
        assert label not in menus[BOB.user_id]
    for label in menus[BOB.user_id + ":labels"]:
        assert label not in menus[ALICE.user_id]


async def test_a_move_needs_the_pages_token_json_and_the_tables_own_origin(web):
    game_id = await _ttr(web)
    ld, _ = await web.service.core.read_id(game_id)
    alice, bob = await web.player_token(game_id, ALICE), await web.player_token(game_id, BOB)
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=alice)
    group = data["step"]["groups"][0]
    body = {"group": {"index": group["index"], "counts": [1] * len(group["items"])}, "version": ld.row.version}
    refusals = [
        dict(csrf=""),                                              # no token
        dict(csrf=await web.page_csrf(game_id, alice, "other page")),  # another page's
        dict(csrf=await web.page_csrf(game_id, bob)),               # another link's
        dict(origin="https://elsewhere.example"),                   # posted from another site
    ]
    for kw in refusals:
        status, data = await web.post_move(game_id, alice, body, **kw)
        assert status == 403, kw
        assert "reload" in data["error"]
    csrf = await web.page_csrf(game_id, alice)
    status, raw, _ = await web.get(f"/g/{game_id}/play/move", token=alice, method="POST", data="x=1",
                                   headers={"X-Railyard-Page": "page-nonce", "X-Railyard-CSRF": csrf,
                                            "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 400
    assert (await web.service.core.read_id(game_id))[0].row.version == ld.row.version  # nothing changed
    status, data = await web.post_move(game_id, alice, body)
    assert status == 200 and data["version"] == ld.row.version + 1


async def test_requests_are_rate_limited_per_link(web):
    game_id = await _ttr(web)
    web.table.limits = RateLimits(rate=0.0001, burst=3)
    alice, bob = await web.player_token(game_id, ALICE), await web.player_token(game_id, BOB)
    statuses = [(await web.get(f"/g/{game_id}/play/table.json", token=alice))[0] for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    status, data = await web.get_json(f"/g/{game_id}/play/table.json", token=alice)
    assert status == 429 and "Too many requests" in data["error"]
    assert (await web.get(f"/g/{game_id}/play/table.json", token=bob))[0] == 200  # another link is not held up


async def test_spectators_are_rate_limited_per_address(web):
    game_id = await _ttr(web)
    web.table.public_limits = RateLimits(rate=0.0001, burst=2)
    statuses = [(await web.get(f"/g/{game_id}/table.json"))[0] for _ in range(3)]
    assert statuses == [200, 200, 429]


async def test_no_token_reaches_a_log(web, caplog):
    game_id = await _ttr(web)
    token = await web.player_token(game_id, ALICE)
    caplog.set_level(logging.DEBUG)
    await web.get(f"/g/{game_id}/play/table.json", token=token)
    await web.get(f"/g/{game_id}/play/hand.png", token=token)
    await web.get(f"/g/{game_id}/play/table.json?t={token}", token=token + "x")  # a token in a query, too
    await web.post_move(game_id, token, {"picks": ["nothing"], "version": 0})
    web.clock.advance(24 * 3600)
    await web.get(f"/g/{game_id}/play/table.json", token=token)
    logged = "\n".join(f"{r.name} {r.getMessage()} {r.args}" for r in caplog.records)
    assert "/play/table.json" in logged  # the requests were logged, by their route
    assert token not in logged and token.split(".")[1] not in logged


@pytest.mark.parametrize("method,path,status", [
    ("GET", "/", 404), ("GET", "/g", 404), ("GET", "/g/", 404), ("GET", "/g/abc", 404),
    ("GET", "/g/1/anything", 404), ("GET", "/g/1/play/secret", 404), ("GET", "/static/", 404),
    ("GET", "/static/other.js", 404), ("GET", "/static/table.js.map", 404),
    ("GET", "/static/..%2Fserver.py", 404), ("GET", "/static/%2e%2e/server.py", 404),
    ("GET", "/bot/web/server.py", 404), ("GET", "/.env", 404), ("GET", "/g/1/replay/-1.png", 404),
    ("POST", "/g/1", 405), ("GET", "/g/1/play/move", 405), ("PUT", "/g/1/play/move", 405),
    ("DELETE", "/g/1", 405), ("HEAD", "/g/1", 405), ("OPTIONS", "/g/1/play/move", 405),
])
async def test_nothing_is_answered_but_the_defined_routes(web, method, path, status):
    assert web.http is not None
    async with web.http.request(method, yarl.URL(web.url + path, encoded=True)) as response:
        assert response.status == status
        body = await response.read()
        assert b"Traceback" not in body and b"railyard" not in body.lower()
        assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_a_link_holds_few_live_streams_at_once(web):
    import asyncio

    from bot.web.server import STREAMS_PER_LINK

    game_id = await _ttr(web)
    token = await web.player_token(game_id, ALICE)
    assert web.http is not None
    opened = []
    try:
        for _ in range(STREAMS_PER_LINK):
            stream = await web.http.get(f"{web.url}/g/{game_id}/play/events", headers={"Authorization": f"Bearer {token}"})
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            opened.append(stream)
        status, data = await web.get_json(f"/g/{game_id}/play/events", token=token)
        assert status == 429 and data["code"] == "web.error.slow_down"
        bob = await web.player_token(game_id, BOB)
        async with web.http.get(f"{web.url}/g/{game_id}/play/events", headers={"Authorization": f"Bearer {bob}"}) as s:
            assert s.status == 200
    finally:
        for stream in opened:
            stream.close()
