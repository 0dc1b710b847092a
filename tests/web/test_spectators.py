"""The public table of every game: its page, its data, its board (the spectator view's, as
Discord's posts draw it), its live updates through the database, and its replay."""
from __future__ import annotations

import asyncio
import json

import pytest

from render import registry as renderers
from tests.web.conftest import GAMES, PEOPLE, spectator_board

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("game", GAMES)
async def test_the_public_table_of_every_game_shows_the_spectator_board_scores_and_log(web, game):
    game_id = await web.start_game(game)
    await web.advance(game_id, 4)
    ld, actions = await web.service.core.read_id(game_id, with_actions=True)

    status, body, headers = await web.get(f"/g/{game_id}")
    assert status == 200 and b"railyard-data" in body and b"/static/table.js" in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]

    status, data = await web.get_json(f"/g/{game_id}/table.json")
    assert status == 200
    assert data["version"] == ld.row.version and data["names"] == ld.names
    assert data["log"] and len(data["log"]) == min(len(actions), 60)
    assert data["turn"] and data["title"] and data["last"]["text"]
    waiting = sorted(ld.game.active_players(ld.state))
    assert data["waiting"] == waiting

    status, board, headers = await web.get(f"/g/{game_id}/board.png")
    assert status == 200 and headers["Content-Type"] == "image/png" and board.startswith(PNG)
    assert board == spectator_board(game_id, ld)  # the spectator view, the one Discord's posts draw


@pytest.mark.parametrize("game", GAMES)
async def test_the_replay_steps_through_every_move_in_force(web, game):
    game_id = await web.start_game(game)
    await web.advance(game_id, 5)
    ld, actions = await web.service.core.read_id(game_id, with_actions=True)
    in_force = len(web.service.moves.in_force(ld, actions))

    status, body, _ = await web.get(f"/g/{game_id}/replay")
    assert status == 200
    status, data = await web.get_json(f"/g/{game_id}/replay.json")
    assert status == 200 and len(data["frames"]) == in_force + 1
    assert [f["played"] for f in data["frames"]] == list(range(in_force + 1))

    status, first, _ = await web.get(f"/g/{game_id}/replay/0.png")
    assert status == 200 and first.startswith(PNG)
    status, last, _ = await web.get(f"/g/{game_id}/replay/{in_force}.png")
    assert status == 200 and last == spectator_board(game_id, ld)  # the last frame is the board now
    assert first != last
    status, _, _ = await web.get(f"/g/{game_id}/replay/{in_force + 1}.png")
    assert status == 404


async def test_a_finished_game_replays_and_charts_its_scores(web):
    game_id = await web.start_game("ginga", humans=1, bots=1)
    await web.advance(game_id, 400)
    ld, _ = await web.service.core.read_id(game_id)
    assert ld.row.status == "finished"
    status, data = await web.get_json(f"/g/{game_id}/table.json")
    assert data["status"] == "finished" and [s["rank"] for s in data["scores"]][0] == 1
    status, chart, _ = await web.get(f"/g/{game_id}/chart.png")
    assert status == 200 and chart.startswith(PNG)
    status, data = await web.get_json(f"/g/{game_id}/replay.json")
    frames = data["frames"]
    for step in (0, len(frames) // 2, len(frames) - 1):
        status, png, _ = await web.get(f"/g/{game_id}/replay/{step}.png")
        assert status == 200 and png.startswith(PNG)


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_keeps_the_score_rows_its_chart_draws(web, game):
    game_id = await web.start_game(game)
    await web.advance(game_id, 12)
    ld, _ = await web.service.core.read_id(game_id)
    rows = renderers.get(game).score_rows(ld.game.view(ld.state, None))
    assert all(len(row) == len(ld.seats) for row in rows)


async def test_a_table_the_host_keeps_private_is_refused_in_the_readers_language(web):
    game_id = await web.start_game("ticket_to_ride", public=False)
    for path in ("", "/table.json", "/board.png", "/events", "/replay", "/replay.json", "/replay/0.png",
                 "/chart.png"):
        status, body, _ = await web.get(f"/g/{game_id}{path}")
        assert status == 403, path
        assert b"public_table" in body
    status, body, _ = await web.get(f"/g/{game_id}", headers={"Accept-Language": "ja,en;q=0.5"})
    assert status == 403 and "観戦公開" in body.decode()
    status, body, _ = await web.get("/g/999999/table.json")
    assert status == 404 and "no such game" in json.loads(body)["error"]


async def test_a_move_made_anywhere_reaches_the_open_stream_through_the_database(web):
    game_id = await web.start_game("ticket_to_ride")
    ld, _ = await web.service.core.read_id(game_id)
    assert web.http is not None
    async with web.http.get(f"{web.url}/g/{game_id}/events") as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        assert first == f"event: version\ndata: {ld.row.version}\n\n".encode()
        # a move committed by the service alone, as another process would: nothing tells this
        # server but the database
        polls = web.table.watcher.polls
        await web.advance(game_id, 1)
        after, _ = await web.service.core.read_id(game_id)
        second = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        assert second == f"event: version\ndata: {after.row.version}\n\n".encode()
        assert web.table.watcher.polls > polls


async def test_the_watcher_asks_nothing_while_nobody_watches(web):
    await web.start_game("ticket_to_ride")
    polls = web.table.watcher.polls
    await asyncio.sleep(0.3)
    assert web.table.watcher.polls == polls


async def test_the_page_is_small_and_loads_nothing_from_elsewhere(web):
    game_id = await web.start_game("steam", humans=3)
    _, page, _ = await web.get(f"/g/{game_id}")
    _, script, _ = await web.get("/static/table.js")
    _, style, _ = await web.get("/static/table.css")
    assert b"http://" not in page.replace(b"http://www.w3.org", b"") and b"https://" not in page
    assert b"https://" not in script and b"@import" not in style and b"url(" not in style
    assert len(page) + len(script) + len(style) < 40_000
    assert PEOPLE[0].name  # the page itself names nobody: the names come with the data


async def test_any_process_serves_any_game_and_sees_the_others_moves(web, tmp_path, clock):
    import aiohttp

    from bot.sessions import SessionService
    from bot.store import open_store
    from bot.web import Signer, WebTable
    from tests.web.conftest import SECRET

    # a second process: its own store on the same database, its own server, the same secret
    store = await open_store(f"sqlite:///{tmp_path / 'railyard.sqlite3'}", clock=clock)
    other = WebTable(SessionService(store, clock=clock), base_url="http://127.0.0.1", port=0,
                     signer=Signer(SECRET), clock=clock, poll=0.05)
    await other.start()
    try:
        game_id = await web.start_game("ticket_to_ride")
        token = await web.player_token(game_id, PEOPLE[0])  # a link given out by the first process
        url = f"http://127.0.0.1:{other.port}/g/{game_id}"
        async with aiohttp.ClientSession() as http:
            async with http.get(url + "/play/table.json", headers={"Authorization": f"Bearer {token}"}) as r:
                assert r.status == 200
                data = await r.json()
            async with http.get(url + "/events") as stream:
                first = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
                assert first == f"event: version\ndata: {data['version']}\n\n".encode()
                group = data["step"]["groups"][0]
                status, _ = await web.post_move(game_id, token, {  # made on the first process's table
                    "group": {"index": group["index"], "counts": [1] * len(group["items"])},
                    "version": data["version"]})
                assert status == 200
                second = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
                assert second == f"event: version\ndata: {data['version'] + 1}\n\n".encode()
    finally:
        await other.stop()
        await store.close()


async def test_the_table_speaks_the_readers_language_from_the_catalogs(web):
    game_id = await web.start_game("santa_fe")
    status, body, _ = await web.get(f"/g/{game_id}", headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"})
    page = body.decode()
    assert status == 200 and '<html lang="ja">' in page and "得点" in page and "卓" in page
    status, data = await web.get_json(f"/g/{game_id}/table.json?lang=ja")
    assert "手番を待っています" in data["turn"] and "サンタ" in data["title"]
    status, data = await web.get_json(f"/g/{game_id}/table.json", headers={"Accept-Language": "en-GB"})
    assert data["turn"].startswith("Waiting for")
