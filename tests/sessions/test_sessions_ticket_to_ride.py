"""Ticket to Ride through the sessions service on a real database (SQLite and PostgreSQL): a whole game with two
people and a bot, undo within the rules, snapshots equal to replays, nothing private in the
outbox."""
import json
import random
import re

from bot.sessions import Actor, SessionError, SessionService
from games import registry

GAME = registry.get("ticket_to_ride")
PEOPLE = [Actor(user_id="u1", name="Alice"), Actor(user_id="u2", name="山田太郎")]


async def _start(store, clock, seed=3):
    service = SessionService(store, clock, new_seed=lambda: seed)
    await service.create("ticket_to_ride", "chan", "guild", PEOPLE[0])
    await service.join("chan", PEOPLE[1])
    await service.add_bot("chan", PEOPLE[0], "planner")
    outcome = await service.start("chan", PEOPLE[0])
    return service, outcome


async def test_whole_game_with_undo_and_private_information_kept_private(backend, clock):
    planner = GAME.bots()["planner"]
    rng = random.Random(1)
    secrets: set[str] = set()
    undos = refused = 0
    async with await backend.open() as store:
        service, outcome = await _start(store, clock)
        by_user = {p.user_id: p for p in PEOPLE}
        while outcome.status == "active":
            for o in await service.run_bots(outcome.game_id):
                outcome = o
            if outcome.status != "active":
                break
            seat = min(s for s in outcome.waiting)
            person = by_user[outcome.seat_user_ids[seat]]
            private = await service.private_view("chan", person.user_id)
            for ticket in private.view.players[seat].tickets or []:
                secrets.add(f"{ticket.a}–{ticket.b} ({ticket.points})")
            state = await service.current_state(outcome.game_id)
            action = planner.choose(GAME, state, seat, rng)
            outcome = await service.act("chan", person, GAME.format_action(action))
            clock.advance(60)
            if outcome.notation and outcome.notation.startswith("claim") and undos < 3 and outcome.status == "active":
                before = outcome.version
                undone = await service.undo("chan", person)
                assert undone.version == before + 1
                undos += 1
                outcome = await service.act("chan", person, GAME.format_action(action))  # play it again
            elif outcome.notation and outcome.notation.startswith("draw") and refused < 3 and outcome.status == "active":
                try:
                    await service.undo("chan", person)
                except SessionError as err:
                    assert err.code == "undo_not_allowed"
                    refused += 1
        assert outcome.status == "finished" and outcome.result is not None
        assert undos == 3 and refused >= 1
        # The stored snapshot is exactly the replay of seed + log (undos included).
        rebuilt = await service.rebuild(outcome.game_id)
        status = await service.status("chan")
        assert GAME.view(rebuilt, None) == status.view
        async with store.read() as tx:
            rows = await tx.outbox_rows(outcome.game_id)
        history = await service.history("chan")
    keeps = [e.notation for e in history if e.notation.startswith("keep")]
    assert keeps and all(re.fullmatch(r"keep \(\d\)", k) for k in keeps), keeps
    assert len(rows) > 50
    payloads = "\n".join(r.payload_json for r in rows)
    # Private cards and tickets never reach the outbox: no hand, no ticket text; the final
    # result (which reveals tickets by rule) comes only in the last post.
    assert '"hand":{' not in payloads and '"offered":[{' not in payloads
    assert '"notation": "keep (' in payloads or '"notation":"keep (' in payloads
    assert not re.search(r'"notation": ?"keep \d', payloads), "kept ticket ids are secret"
    before_end = "\n".join(r.payload_json for r in rows[:-1])
    leaked = [s for s in secrets if json.dumps(s, ensure_ascii=False)[1:-1] in before_end]
    assert not leaked, leaked


async def test_not_your_turn_names_who_is_waited_on(backend, clock):
    from games.core.errors import IllegalAction

    async with await backend.open() as store:
        service, outcome = await _start(store, clock)
        await service.run_bots(outcome.game_id)  # the bot chooses its tickets
        private = await service.private_view("chan", "u1")
        await service.act("chan", PEOPLE[0], private.legal[0].notation)  # Alice chooses hers
        status = await service.status("chan")
        yamada = status.info.seats[[s.user_id for s in status.info.seats].index("u2")].seat
        assert status.waiting == [yamada]  # only 山田太郎 is still choosing
        try:
            await service.act("chan", PEOPLE[0], "draw deck")
        except IllegalAction as err:
            assert err.code == "not_active" and err.params["waiting"] == [yamada]
        else:
            raise AssertionError("a move out of turn was accepted")
        assert (await service.status("chan")).version == status.version
