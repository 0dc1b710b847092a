"""A move typed through the sessions service (a real database, SQLite and PostgreSQL): a lenient text is read
against the mover's legal moves and applied; a wrong one changes nothing and answers with
suggestions from that player's own moves."""
from __future__ import annotations

import random

import pytest

from bot.sessions import Actor, SessionService
from bot.store import StoreBackend
from games import registry
from games.core import IllegalAction
from games.core.i18n import catalog, translate
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


STEAM = registry.get("steam")
STEAM_PEOPLE = [Actor(user_id="s1", name="Alice"), Actor(user_id="s2", name="Bob"), Actor(user_id="s3", name="Carol")]


async def _steam_game(store: StoreBackend, clock, until):
    """A Steam game of three people, played through the service by the rules' own bot until
    `until(state)`: the service and the person it waits on."""
    service = SessionService(store, clock, new_seed=lambda: 7)
    await service.create("steam", "steam-chan", "guild", STEAM_PEOPLE[0])
    for person in STEAM_PEOPLE[1:]:
        await service.join("steam-chan", person)
    outcome = await service.start("steam-chan", STEAM_PEOPLE[0])
    bot = STEAM.bots()["builder"]
    rng = random.Random(7)
    while True:
        state = await service.current_state(outcome.game_id)
        seat = outcome.waiting[0]
        person = next(p for p in STEAM_PEOPLE if p.user_id == outcome.seat_user_ids[seat])
        if until(state):
            return service, person
        outcome = await service.act("steam-chan", person, STEAM.format_action(bot.choose(STEAM, state, seat, rng)))


async def test_steam_income_typed_when_nobody_is_owed_a_choice_is_refused_in_words(backend, clock):
    async with await backend.open() as store:
        service, mover = await _steam_game(store, clock, lambda s: s.phase == "deliver" and not s.pending)
        before = await backend.dump()
        for typed in ("income", "points", "/move income", "収入"):
            with pytest.raises(IllegalAction) as err:
                await service.act("steam-chan", mover, typed)
            assert err.value.code in ("steam.nothing_to_score", "did_you_mean", "unparsable"), (typed, err.value)
            for lang in ("en", "ja"):
                assert err.value.message_key in catalog(lang)
        with pytest.raises(IllegalAction) as err:
            await service.act("steam-chan", mover, "income")
        assert err.value.code == "steam.nothing_to_score"
        assert "収入" in translate("ja", err.value.message_key, err.value.params)
        assert await backend.dump() == before


async def test_a_refused_typed_move_quotes_what_was_typed_not_its_rewriting(backend, clock):
    async with await backend.open() as store:
        # In the first auction no move is like it: the answer is the reader's own refusal
        service, mover = await _steam_game(store, clock, lambda s: True)
        before = await backend.dump()
        typed = "蒸気機関車で行こう!!"  # 機関車 is the notation's "locomotive" to the reader
        with pytest.raises(IllegalAction) as err:
            await service.act("steam-chan", mover, typed)
        assert err.value.params["text"] == typed
        ja = translate("ja", err.value.message_key, err.value.params)
        assert f"「{typed}」" in ja and "蒸気 locomotive" not in ja
        assert await backend.dump() == before
