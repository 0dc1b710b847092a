"""Host and manager tools: abandon, kick (a bot takes the seat), settings."""
from __future__ import annotations

import json

import pytest

from bot.sessions import Actor, GameSettings, SessionError, SessionService
from tests.support import ALICE, BOB, CAROL, actor_for, open_all

MOD = Actor("u-mod", "Moderator", is_manager=True)


async def _error(call) -> SessionError:
    with pytest.raises(SessionError) as e:
        await call
    return e.value


async def test_abandon_by_host_or_manager_only(service: SessionService, start_game, store) -> None:
    start = await start_game()
    assert (await _error(service.abandon("chan-1", BOB))).code == "not_host"
    assert (await _error(service.abandon("chan-1", CAROL))).code == "not_host"
    info = await service.abandon("chan-1", MOD)
    assert info.status == "abandoned" and info.version == start.version + 1
    row = (await store.outbox_rows(start.game_id))[-1]
    payload = json.loads(row.payload_json)
    assert row.kind == "abandoned" and payload["events"][0]["key"] == "session.abandoned"
    assert (await _error(service.act("chan-1", ALICE, "open red"))).code == "no_game_here"
    status = await service.status("chan-1")
    assert status.info.status == "abandoned" and status.waiting == []


async def test_abandon_a_lobby(service: SessionService) -> None:
    await service.create("toy", "c1", "g", ALICE)
    assert (await service.abandon("c1", ALICE)).status == "abandoned"
    await service.create("toy", "c1", "g", BOB)


async def test_kick_replaces_the_player_with_a_bot(service: SessionService, start_game) -> None:
    start = await start_game(players=3)
    out = await open_all(service, "chan-1", start)
    victim_seat = out.waiting[0]
    victim = actor_for(out, victim_seat)
    assert (await _error(service.kick("chan-1", BOB if victim != BOB else CAROL, ALICE.user_id))).code \
        == "not_host"
    assert (await _error(service.kick("chan-1", ALICE, "u-nobody"))).code == "player_not_found"
    assert (await _error(service.kick("chan-1", ALICE, 7))).code == "no_such_seat"
    assert (await _error(service.kick("chan-1", ALICE, victim.user_id, "grandmaster"))).code \
        == "unknown_bot"

    kicked = await service.kick("chan-1", MOD, victim.user_id, replace_with_bot="first")
    assert kicked.kind == "kick" and kicked.seat == victim_seat
    assert kicked.public_events[0].key == "session.kicked"
    assert kicked.seat_user_ids[victim_seat] is None and kicked.names[victim_seat] == victim.name
    assert kicked.bots_next is True and kicked.mention_user_ids == []
    assert (await _error(service.act("chan-1", victim, "pass"))).code == "not_in_game"
    assert (await _error(service.kick("chan-1", MOD, victim_seat))).code == "already_a_bot"
    (bot_move,) = await service.run_bots(start.game_id)
    assert bot_move.seat == victim_seat and bot_move.notation == "pass"  # the 'first' bot
    state = await service.rebuild(start.game_id)
    assert state.turn == (victim_seat + 1) % 3


async def test_kicking_the_host_passes_the_host_role(service: SessionService, start_game) -> None:
    await start_game(players=3)
    await service.kick("chan-1", MOD, ALICE.user_id)
    info = (await service.status("chan-1")).info
    assert info.host_user_id == BOB.user_id
    assert next(s for s in info.seats if s.name == "Alice").bot == "random"
    assert (await service.settings("chan-1", BOB, reminder_minutes=60)).reminder_minutes == 60


async def test_kick_in_the_lobby_frees_the_seat(service: SessionService) -> None:
    await service.create("toy", "c1", "g", ALICE)
    await service.join("c1", BOB)
    await service.join("c1", CAROL)
    out = await service.kick("c1", ALICE, 1)
    assert out.status == "lobby" and out.names == ["Alice", "Carol"] and out.view is None
    assert (await _error(service.kick("c1", BOB, 0))).code == "not_host"


async def test_settings_validation(service: SessionService, start_game, backend) -> None:
    await start_game()
    before = await backend.dump()
    bad = [
        {"reminder_minutes": 5},
        {"reminder_backoff": 0.5},
        {"deadline_hours": 0.5},
        {"deadline_action": "explode"},
        {"quiet_hours": (3, 3, "UTC")},
        {"quiet_hours": (22, 7, "Mars/Olympus_Mons")},
        {"quiet_hours": (25, 7)},
        {"colour": "blue"},
    ]
    for change in bad:
        err = await _error(service.settings("chan-1", ALICE, **change))
        assert err.code == "bad_setting" and err.params["setting"] == next(iter(change)), change
    assert (await _error(service.settings("chan-1", BOB, reminder_minutes=60))).code == "not_host"
    assert await backend.dump() == before

    new = await service.settings("chan-1", MOD, reminder_minutes=60, deadline_hours=48,
                                 deadline_action="bot", quiet_hours=[23, 7, "Europe/Paris"])
    assert isinstance(new, GameSettings) and new.quiet_hours.tz == "Europe/Paris"
    assert (await service.status("chan-1")).info.settings == new
    cleared = await service.settings("chan-1", ALICE, deadline_hours=None, quiet_hours=None)
    assert cleared.deadline_hours is None and cleared.reminder_minutes == 60
