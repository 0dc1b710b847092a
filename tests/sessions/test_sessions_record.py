"""Who goes first is said at the start, and a game's record (for its timelapse) replays to it."""
from __future__ import annotations

import pytest

from bot.sessions import SessionError, SessionService
from games import registry
from games.core.i18n import translate
from games.replay import replay
from tests.support import PLAYERS, actor_for, open_all


@pytest.mark.parametrize("game_name", ["ginga", "ticket_to_ride"])
async def test_the_start_post_says_who_takes_the_first_turn(service: SessionService, game_name: str) -> None:
    # Galactic Railway waits on one seat at once; Ticket to Ride first lets every seat choose
    # tickets at the same time, and only then does the first turn begin.
    channel = f"chan-{game_name}"
    await service.create(game_name, channel, "guild-1", PLAYERS[0])
    for actor in PLAYERS[1:3]:
        await service.join(channel, actor)
    start = await service.start(channel, PLAYERS[0])
    assert [e.key for e in start.public_events] == ["session.started", "session.first_player"]
    first = start.public_events[1].params["seat"]
    assert start.names[first] in translate("en", "session.first_player", {"seat": first}, start.names)

    game = registry.get(game_name)
    outcome = start
    if len(start.waiting) > 1:  # the simultaneous opening choice, each seat its first legal move
        for seat in start.waiting:
            state = await service.current_state(start.game_id)
            move = game.format_action(game.legal_actions(state, seat)[0])
            outcome = await service.act(channel, actor_for(start, seat), move)
    assert outcome.waiting == [first]


async def test_the_record_leaves_out_undone_moves_and_replays_to_the_game(
        service: SessionService, start_game) -> None:
    out = await open_all(service, "chan-1", await start_game())
    mover = actor_for(out, 0)
    hand = (await service.private_view("chan-1", mover.user_id)).view.hand
    await service.act("chan-1", mover, f"play {hand[0]}")
    await service.undo("chan-1", mover)
    await service.act("chan-1", mover, f"play {hand[1]}")
    other = actor_for(out, 1)
    await service.act("chan-1", other, "pass")

    record = await service.record(out.game_id)
    assert record.game == "toy" and record.players == 2
    assert [notation for _, notation in record.moves] == ["open red", "open red", f"play {hand[1]}", "pass"]
    state, _ = replay(record)
    game = registry.get("toy")
    assert game.dump_state(state) == game.dump_state(await service.current_state(out.game_id))


async def test_a_lobby_has_no_record(service: SessionService) -> None:
    await service.create("toy", "chan-1", "guild-1", PLAYERS[0])
    info = await service.lobby("chan-1")
    with pytest.raises(SessionError) as error:
        await service.record(info.game_id)
    assert error.value.code == "not_active_game"
