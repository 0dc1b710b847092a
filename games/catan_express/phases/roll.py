"""The roll (CE-B1): the dice, what the number produces (the bank short of a resource gives
none of it), the gold owed; a 7 sends those over 7 cards to discard (CE-B4), then the robber."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.rng import derive
from games.catan_express import economy
from games.catan_express.components import components
from games.catan_express.economy import covers
from games.catan_express.geo import board_for
from games.catan_express.models import CatanState, Menu, Roll
from games.catan_express.phases import devcards, gold
from games.catan_express.phases.facts import NOTHING, add_cards, clockwise, dv, ev, holdings, totals
from games.catan_express.phases.moves import ROLLS


def menu(state: CatanState, seat: int) -> Menu:
    # CE-B3: a development card may be played at any time of one's turn, before the roll too
    # (still one a turn, never one bought this turn).
    out = Menu.of("roll", ROLLS)
    out.add_kinds(devcards.plays(state, seat))
    return out


def refusal(state: CatanState, seat: int, a: Roll) -> IllegalAction | None:
    if state.phase == "roll":
        return None
    rolled = state.dice and seat == state.current and state.phase in ("main", "gold", "discard", "robber")
    return IllegalAction("catan_express.already_rolled" if rolled else "catan_express.not_now")


def roll(game: Any, s: CatanState, seat: int, a: Roll, events: list[Event]) -> bool:
    f = s.__dict__  # plain fields, written straight (see models._Stored)
    dice = f["dice"] = _dice(f["seed"], f["draws"])
    f["draws"] += 1
    total = dice[0] + dice[1]
    events.append(ev("rolled", seat=seat, dice=list(dice), total=total))
    if f["race"]:
        f["move_left"] = max(dice)
    f["history"] = f["history"] + [{"turn": f["turn"], "seat": seat, "roll": total, "points": totals(s)}]
    if total == components().robber_roll:
        s.discards = economy.discards_due(holdings(s))
        if s.discards:
            events.append(ev("must_discard", seats=sorted(s.discards)))
            s.phase = "discard"
        else:
            s.phase = "robber"
        return False
    # What a roll produces depends on the buildings, the robber and the number alone.
    memo = dv(s).memo
    known = memo.get(("production", s.robber, total))
    if known is None:
        tokens, terrains = _yields(s.map_id, s.options.layout, s.seed)
        prod = economy.production(total, tokens.get(total, {}), terrains, s.robber, dv(s).by_hex())
        owed = {k: h.counts for k, h in prod.owed.items()}
        known = memo["production", s.robber, total] = (prod, owed, tuple(map(sum, zip(NOTHING, *owed.values()))))
    prod, owed, due = known
    if owed:
        bank = f["bank"]
        if covers(bank, due):
            # The bank covers everyone (economy.share_out's common case: no shortage).
            f["bank"] = [b - t for b, t in zip(bank, due)]
            for k, got in owed.items():
                add_cards(s, k, got)
                events.append(ev("produced", seat=k, cards=economy.cards_param(got)))
        else:
            bank, paid, produced = economy.share_out(bank, owed)
            f["bank"] = bank
            for k, got in paid.items():
                if any(got):
                    add_cards(s, k, got)
            events += produced
    if not prod.owed and not prod.gold:
        events.append(ev("nothing_produced", total=total))
    golds = [[g, prod.gold[g]] for g in clockwise(s, seat) if prod.gold.get(g)]
    s.phase = "main"
    if golds:
        s.gold_owed = golds
        s.gold_then = "main"
        s.phase = "gold"
        gold.advance(s, events)
    return False


@lru_cache(maxsize=64)
def _yields(map_id: str, layout: str, seed: int) -> tuple[dict[int, dict[str, int]], dict[str, str]]:
    """A board's hexes by number token, and terrain per hex label (what production reads on
    every roll: only the hexes of the number rolled)."""
    b = board_for(map_id, layout, seed)
    by_number: dict[int, dict[str, int]] = {}
    for x in b.land:
        if x.token is not None:
            by_number.setdefault(x.token, {})[b.label(x.hex)] = x.token
    return by_number, {b.label(x.hex): x.terrain.value for x in b.land}


def _dice(seed: int, draws: int) -> list[int]:
    """Two dice from (seed, draws): SeededRng(seed, draws, "ce.dice").randint(1, 6) twice, its
    draws spelled out (randint(1, 6) is 1 + randbelow(6)) as a roll happens every turn."""
    bits = random.Random(derive(seed, draws, "ce.dice")).getrandbits
    out = []
    for _ in range(2):
        r = bits(3)
        while r >= 6:
            r = bits(3)
        out.append(1 + r)
    return out
