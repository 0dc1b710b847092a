"""Lobby: create, join, leave, bots, start — and the errors a confused user can hit there."""
from __future__ import annotations

import pytest

from bot.sessions import Actor, SessionError, SessionService
from tests.support import ALICE, BOB, CAROL, DAVE, ERIN


async def test_create_seats_the_host_and_normalises_locale(service: SessionService) -> None:
    info = await service.create("toy", "c1", "g1", ALICE, {"rounds": 5}, "ja-JP")
    assert info.status == "lobby" and info.host_user_id == ALICE.user_id
    assert [(s.seat, s.user_id, s.name) for s in info.seats] == [(0, ALICE.user_id, "Alice")]
    assert info.locale == "ja" and info.options["rounds"] == 5
    assert info.min_players == 2 and info.max_players == 4
    assert info.settings.reminder_minutes == 720


async def test_create_errors(service: SessionService) -> None:
    with pytest.raises(SessionError) as e:
        await service.create("no_such_game", "c1", "g1", ALICE)
    assert e.value.code == "unknown_game" and "toy" in e.value.params["available"]
    with pytest.raises(SessionError) as e:
        await service.create("toy", "c1", "g1", ALICE, {"rounds": 0})
    assert e.value.code == "bad_option" and e.value.params["option"] == "rounds"
    await service.create("toy", "c1", "g1", ALICE)
    with pytest.raises(SessionError) as e:
        await service.create("toy", "c1", "g1", BOB)
    assert e.value.code == "game_already_here"
    await service.create("toy", "c2", "g1", BOB)  # another channel is fine


async def test_no_game_here_everywhere(service: SessionService) -> None:
    for call in (
        service.join("nowhere", BOB), service.leave("nowhere", BOB),
        service.add_bot("nowhere", ALICE), service.remove_bot("nowhere", ALICE, 1),
        service.start("nowhere", ALICE), service.act("nowhere", ALICE, "pass"),
        service.undo("nowhere", ALICE), service.abandon("nowhere", ALICE),
        service.kick("nowhere", ALICE, 1), service.settings("nowhere", ALICE, reminder_minutes=60),
        service.status("nowhere"), service.private_view("nowhere", "u"), service.history("nowhere"),
        service.lobby("nowhere"),
    ):
        with pytest.raises(SessionError) as e:
            await call
        assert e.value.code == "no_game_here"


async def test_join_and_its_errors(service: SessionService) -> None:
    await service.create("toy", "c1", "g1", ALICE)
    info = await service.join("c1", BOB)
    assert [s.name for s in info.seats] == ["Alice", "Bob"] and info.version == 1
    with pytest.raises(SessionError) as e:
        await service.join("c1", BOB)
    assert e.value.code == "already_joined"
    await service.join("c1", CAROL)
    await service.join("c1", DAVE)
    with pytest.raises(SessionError) as e:
        await service.join("c1", ERIN)
    assert e.value.code == "lobby_full" and e.value.params == {"max": 4}


async def test_leave_passes_host_then_closes_lobby(service: SessionService) -> None:
    await service.create("toy", "c1", "g1", ALICE)
    await service.add_bot("c1", ALICE, "first")
    await service.join("c1", BOB)
    with pytest.raises(SessionError) as e:
        await service.leave("c1", CAROL)
    assert e.value.code == "not_in_game"
    info = await service.leave("c1", ALICE)
    assert info.host_user_id == BOB.user_id and info.status == "lobby"
    assert [(s.seat, s.name) for s in info.seats] == [(0, "Bot 1"), (1, "Bob")]
    info = await service.leave("c1", BOB)  # only a bot left: the lobby closes
    assert info.status == "abandoned"
    with pytest.raises(SessionError) as e:
        await service.join("c1", CAROL)
    assert e.value.code == "no_game_here"
    await service.create("toy", "c1", "g1", CAROL)  # the channel is free again


async def test_bots_in_the_lobby(service: SessionService) -> None:
    await service.create("toy", "c1", "g1", ALICE)
    await service.join("c1", BOB)
    with pytest.raises(SessionError) as e:
        await service.add_bot("c1", BOB)
    assert e.value.code == "not_host"
    with pytest.raises(SessionError) as e:
        await service.add_bot("c1", ALICE, "grandmaster")
    assert e.value.code == "unknown_bot" and e.value.params["available"] == ["random", "first"]
    info = await service.add_bot("c1", ALICE)  # default: the game's first bot
    assert info.seats[2].bot == "random" and info.seats[2].name == "Bot 1"
    info = await service.add_bot("c1", Actor("u-mod", "Mod", is_manager=True), "first")
    assert info.seats[3].bot == "first" and info.seats[3].name == "Bot 2"
    with pytest.raises(SessionError) as e:
        await service.add_bot("c1", ALICE)
    assert e.value.code == "lobby_full"
    with pytest.raises(SessionError) as e:
        await service.remove_bot("c1", ALICE, 1)
    assert e.value.code == "not_a_bot_seat" and e.value.params == {"seat": 1}
    with pytest.raises(SessionError) as e:
        await service.remove_bot("c1", ALICE, 9)
    assert e.value.code == "no_such_seat" and e.value.params == {"number": 10}
    with pytest.raises(SessionError) as e:
        await service.remove_bot("c1", BOB, 2)
    assert e.value.code == "not_host"
    info = await service.remove_bot("c1", ALICE, 2)
    assert [s.name for s in info.seats] == ["Alice", "Bob", "Bot 2"]


async def test_start_rules(service: SessionService) -> None:
    await service.create("toy", "c1", "g1", ALICE)
    with pytest.raises(SessionError) as e:
        await service.start("c1", ALICE)
    assert e.value.code == "not_enough_players" and e.value.params == {"min": 2, "have": 1}
    await service.join("c1", BOB)
    with pytest.raises(SessionError) as e:
        await service.start("c1", BOB)
    assert e.value.code == "not_host"
    with pytest.raises(SessionError) as e:
        await service.act("c1", ALICE, "open red")
    assert e.value.code == "not_active_game"
    outcome = await service.start("c1", ALICE)
    assert outcome.kind == "start" and outcome.status == "active" and outcome.version == 2
    assert sorted(outcome.names) == ["Alice", "Bob"]
    assert outcome.waiting == [0, 1] and sorted(outcome.mention_user_ids) == [ALICE.user_id, BOB.user_id]
    assert outcome.public_events[0].key == "session.started"
    assert outcome.view is not None and outcome.view.hand is None
    for call in (service.join("c1", CAROL), service.leave("c1", BOB), service.add_bot("c1", ALICE),
                 service.remove_bot("c1", ALICE, 0), service.start("c1", ALICE)):
        with pytest.raises(SessionError) as e:
            await call
        assert e.value.code == "not_lobby"


async def test_seat_order_is_shuffled_deterministically_from_the_seed(
        backend, toy_game, clock) -> None:
    orders = []
    for run in range(2):
        async with await (await backend.fresh()).open() as store:
            service = SessionService(store, clock=clock, new_seed=lambda: 424242)
            await service.create("toy", "c1", "g1", ALICE)
            for actor in (BOB, CAROL, DAVE):
                await service.join("c1", actor)
            outcome = await service.start("c1", ALICE)
            orders.append(outcome.names)
            state = await service.rebuild(outcome.game_id)
            assert state.seed == 424242
    assert orders[0] == orders[1]
    # and different seeds give different orders at least sometimes
    seen = set()
    for seed in range(12):
        async with await (await backend.fresh()).open() as store:
            service = SessionService(store, clock=clock, new_seed=lambda: seed)
            await service.create("toy", "c1", "g1", ALICE)
            for actor in (BOB, CAROL, DAVE):
                await service.join("c1", actor)
            seen.add(tuple((await service.start("c1", ALICE)).names))
    assert len(seen) > 1


async def test_refused_lobby_requests_change_nothing(service: SessionService, backend) -> None:
    await service.create("toy", "c1", "g1", ALICE)
    await service.join("c1", BOB)
    before = await backend.dump()
    for call in (service.join("c1", BOB), service.add_bot("c1", BOB), service.start("c1", BOB),
                 service.remove_bot("c1", ALICE, 1), service.leave("c1", CAROL),
                 service.create("toy", "c1", "g1", CAROL), service.kick("c1", BOB, 0),
                 service.settings("c1", ALICE, reminder_minutes=1)):
        with pytest.raises(SessionError):
            await call
    assert await backend.dump() == before


async def test_a_lobby_opened_for_n_seats_starts_at_its_stored_n(service: SessionService, backend) -> None:
    for bad in (1, 5):  # the toy game takes 2–4
        with pytest.raises(SessionError) as e:
            await service.create("toy", "c1", "g1", ALICE, autostart_players=bad)
        assert (e.value.code, e.value.params) == ("bad_option", {"option": "players", "value": str(bad)})
    info = await service.create("toy", "c1", "g1", ALICE, autostart_players=3)
    assert info.settings.autostart_players == 3
    assert await service.autostart("c1") is None  # one seat of three
    await service.join("c1", BOB)
    assert await service.autostart("c1") is None
    # the size is the lobby's: not a setting to change afterwards
    before = await backend.dump()
    with pytest.raises(SessionError) as e:
        await service.settings("c1", ALICE, autostart_players=2)
    assert e.value.code == "bad_setting" and await backend.dump() == before
    await service.add_bot("c1", ALICE)
    started = await service.autostart("c1")
    assert started is not None and started.kind == "start" and len(started.names) == 3
    assert await service.autostart("c1") is None  # already running: nothing more to start


async def test_a_lobby_opened_for_n_seats_has_n_seats(service: SessionService) -> None:
    await service.create("toy", "c1", "g1", ALICE, autostart_players=2)
    await service.add_bot("c1", ALICE)
    for extra in (service.join("c1", BOB), service.add_bot("c1", ALICE)):
        with pytest.raises(SessionError) as e:
            await extra
        assert (e.value.code, e.value.params) == ("lobby_full", {"max": 2})
    # without a size the host starts it, at any count the game takes
    await service.create("toy", "c2", "g1", CAROL)
    await service.join("c2", DAVE)
    assert await service.autostart("c2") is None
    assert (await service.start("c2", CAROL)).kind == "start"
