"""A move typed through the sessions service (a real database, SQLite and PostgreSQL): a lenient text is read
against the mover's legal moves and applied; a wrong one changes nothing and answers with
suggestions from that player's own moves."""
from __future__ import annotations

import pytest

from bot.sessions import Actor, SessionService
from bot.store import StoreBackend
from games import registry
from games.core import IllegalAction
from games.core.i18n import translate
from games.ticket_to_ride.models import Claim

GAME = registry.get("ticket_to_ride")
PEOPLE = [Actor(user_id="u1", name="Alice"), Actor(user_id="u2", name="山田太郎")]


def _unique_claim(state, seat):
    """A legal claim that is the only legal claim between its two cities, if any."""
    claims = [a for a in GAME.legal_actions(state, seat) if isinstance(a, Claim)]
    by_ends: dict[frozenset[str], list[Claim]] = {}
    for c in claims:
        r = GAME.board.routes[c.route]
        by_ends.setdefault(frozenset((r.a, r.b)), []).append(c)
    for ends, found in by_ends.items():
        if len(found) == 1:
            return found[0]
    return None


async def _started(store: StoreBackend, clock, seed: int):
    service = SessionService(store, clock, new_seed=lambda: seed)
    await service.create("ticket_to_ride", "chan", "guild", PEOPLE[0])
    await service.join("chan", PEOPLE[1])
    outcome = await service.start("chan", PEOPLE[0])
    for seat in list(outcome.waiting):  # the opening ticket choice, typed as notation
        state = await service.current_state(outcome.game_id)
        person = next(p for p in PEOPLE if p.user_id == outcome.seat_user_ids[seat])
        outcome = await service.act("chan", person, GAME.format_action(GAME.legal_actions(state, seat)[0]))
    return service, outcome


async def test_a_typed_lenient_claim_is_applied_and_a_wrong_one_changes_nothing(backend, clock):
    async with await backend.open() as store:
        for seed in range(1, 40):  # the first deal where the mover can claim some route one way only
            service, outcome = await _started(store, clock, seed)
            seat = outcome.waiting[0]
            state = await service.current_state(outcome.game_id)
            claim = _unique_claim(state, seat)
            if claim is not None:
                break
            await service.abandon("chan", PEOPLE[0])
        else:
            pytest.fail("no deal with a single way to claim a route")
        mover = next(p for p in PEOPLE if p.user_id == outcome.seat_user_ids[seat])
        route = GAME.board.routes[claim.route]
        legal = {GAME.format_action(a) for a in GAME.legal_actions(state, seat)}

        # A wrong text: refused with suggestions from the mover's own moves; nothing written.
        before = await backend.dump()
        typo = f"clam {route.b[:-1]}-{route.a}"
        with pytest.raises(IllegalAction) as err:
            await service.act("chan", mover, typo)
        assert err.value.code == "did_you_mean"
        shown = [line["params"]["notation"] for line in err.value.params["suggestions_lines"]]
        assert shown and set(shown) <= legal and GAME.format_action(claim) in shown
        assert "もしかして" in translate("ja", err.value.message_key, err.value.params)
        assert await backend.dump() == before

        # The same claim typed loosely: cities reversed, in Japanese, an en dash, no payment.
        ja = {c.name: c.name_ja for c in GAME.board.cities}
        moved = await service.act("chan", mover, f"claim {ja[route.b]} – {ja[route.a]}")
        assert moved.seat == seat and moved.notation == GAME.format_action(claim)
        assert (await service.current_state(outcome.game_id)).owners[claim.route] == seat
        history = await service.history("chan")
        assert history[-1].notation == GAME.format_action(claim)
