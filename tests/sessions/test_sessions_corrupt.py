"""A game whose stored data cannot be loaded gives game_corrupt — and only that game."""
from __future__ import annotations

import pytest

from bot.sessions import SessionError, SessionService
from games import registry
from tests.support import ALICE, BOB, actor_for, open_all


async def _expect_corrupt(call, game_id: int) -> None:
    with pytest.raises(SessionError) as e:
        await call
    assert e.value.code == "game_corrupt" and e.value.params == {"game_id": game_id}


@pytest.mark.parametrize("junk", ["{not json", '{"n": "two"}', '[]', ""])
async def test_corrupt_snapshot_only_breaks_that_game(
        junk: str, service: SessionService, start_game, backend, clock, expect_error) -> None:
    expect_error('railyard.sessions', 'is corrupt')
    a = await open_all(service, "chan-a", await start_game("chan-a"))
    b = await open_all(service, "chan-b", await start_game("chan-b"))
    await backend.sql("UPDATE games SET snapshot = ? WHERE id = ?", junk, a.game_id)

    mover = actor_for(a, 0)
    for call in (service.act("chan-a", mover, "pass"), service.status("chan-a"),
                 service.private_view("chan-a", mover.user_id), service.undo("chan-a", mover),
                 service.kick("chan-a", ALICE, 1), service.step_bot(a.game_id)):
        await _expect_corrupt(call, a.game_id)

    # game B is untouched by all this
    out = await service.act("chan-b", actor_for(b, 0), "pass")
    assert out.version == b.version + 1
    assert [w.channel_id for w in await service.games_waiting_on(actor_for(b, 1).user_id)] == ["chan-b"]
    clock.advance(13 * 3600)
    reminders = await service.due_reminders()
    assert [r.channel_id for r in reminders] == ["chan-b"]
    # history still reads (it needs only the log), and the host can clear the broken game away
    assert [h.notation for h in await service.history("chan-a")] == ["open red", "open red"]
    info = await service.abandon("chan-a", ALICE)
    assert info.status == "abandoned"
    await service.create("toy", "chan-a", "guild-1", BOB)


async def test_unknown_game_name_in_the_database(service: SessionService, start_game, backend, expect_error) -> None:
    expect_error('railyard.sessions', 'is corrupt')
    a = await start_game("chan-a")
    b = await start_game("chan-b")
    await backend.sql("UPDATE games SET game = 'chess' WHERE id = ?", a.game_id)
    await _expect_corrupt(service.act("chan-a", actor_for(a, 0), "open red"), a.game_id)
    await _expect_corrupt(service.status("chan-a"), a.game_id)
    await _expect_corrupt(service.rebuild(a.game_id), a.game_id)
    await service.act("chan-b", actor_for(b, 0), "open red")
    assert (await service.abandon("chan-a", ALICE)).status == "abandoned"


async def test_game_module_that_cannot_be_imported(service: SessionService, start_game, backend, expect_error) -> None:
    expect_error('railyard.sessions', 'is corrupt')
    expect_error('railyard.sessions', 'game broken_game cannot be loaded')
    registry.register("broken_game", "tests.support.no_such_module:GAME")
    try:
        with pytest.raises(SessionError) as e:
            await service.create("broken_game", "chan-x", "g", ALICE)
        assert e.value.code == "unknown_game"
        await service.create("toy", "chan-x", "g", ALICE)
        info = await service.lobby("chan-x")
        await backend.sql("UPDATE games SET game = 'broken_game' WHERE id = ?", info.game_id)
        await _expect_corrupt(service.join("chan-x", BOB), info.game_id)
        await _expect_corrupt(service.start("chan-x", ALICE), info.game_id)
    finally:
        registry._GAMES.pop("broken_game", None)
        registry.get.cache_clear()


async def test_corrupt_settings_or_options(service: SessionService, start_game, backend, expect_error) -> None:
    expect_error('railyard.sessions', 'is corrupt')
    a = await start_game("chan-a")
    await backend.sql("UPDATE games SET settings = '{\"reminder_minutes\": -5}' WHERE id = ?", a.game_id)
    await _expect_corrupt(service.act("chan-a", actor_for(a, 0), "open red"), a.game_id)
    b = await start_game("chan-b")
    await backend.sql("UPDATE games SET options = 'nope' WHERE id = ?", b.game_id)
    await _expect_corrupt(service.status("chan-b"), b.game_id)


async def test_broken_action_log_cannot_be_replayed(service: SessionService, start_game, backend, expect_error) -> None:
    expect_error('railyard.sessions', 'is corrupt')
    a = await open_all(service, "chan-a", await start_game("chan-a"))
    await service.act("chan-a", actor_for(a, 0), "pass")
    await backend.sql("UPDATE actions SET notation = 'play 9999' WHERE game_id = ? AND seq = 1", a.game_id)
    await _expect_corrupt(service.rebuild(a.game_id), a.game_id)
    await _expect_corrupt(service.undo("chan-a", actor_for(a, 0)), a.game_id)
    # an undo row that does not take back the last move in force
    b = await open_all(service, "chan-b", await start_game("chan-b"))
    await backend.sql("INSERT INTO actions (game_id, seq, seat, kind, notation, undoable, undoes_seq,"
                      " created_at) VALUES (?, 99, 0, 'undo', 'x', 0, 1, 0)", b.game_id)
    await _expect_corrupt(service.rebuild(b.game_id), b.game_id)
