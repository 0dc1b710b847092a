"""The setup, in snake order (CE-B6, CE-3): a settlement each; in the second round also the
start cards from the second settlement's land and the free rail from it, where the
locomotive stands. (Where a settlement or rail may stand is build.refusal's.)"""
from __future__ import annotations

from typing import Any

from games.core.events import Event
from games.catan_express import economy
from games.catan_express.components import components
from games.catan_express.economy import Hand
from games.catan_express.models import Build, CatanState, Menu
from games.catan_express.phases import gold
from games.catan_express.phases.facts import board, dv, ev, holdings, store
from games.catan_express.phases.moves import build, building
from games.catan_express.phases.turn import begin_turn
from games.catan_express.phases.build import chips


def order(state: CatanState) -> list[int]:
    seats = list(range(state.n))
    return seats + seats[::-1]


def menu(state: CatanState, seat: int) -> Menu:
    d = dv(state)
    if state.setup_rail:
        g = d.geo
        return Menu.of("build", [build("rail", piece) for piece in g.at[str(state.players[seat].start)]
                                 if g.kind[piece] == "rail"])
    return Menu.of("build", [build("settlement", str(pt)) for pt in d.settlement_spots()])


def place(game: Any, s: CatanState, seat: int, a: Build, events: list[Event]) -> bool:
    geo = dv(s).geo
    p = s.own(seat)
    if a.what == "settlement":
        pt = int(a.at)
        s.buildings = {**s.buildings, pt: building(seat, "settlement")}
        events.append(ev("built", seat=seat, what={"key": "catan_express.piece.settlement"}, at=a.at))
        s.last_build = [a.at]
        if s.setup_pos < s.n:
            _next(s)
            return True
        # The second settlement: its start cards (CE-B6), its locomotive and free rail (CE-3).
        p.start, p.loco = pt, str(pt)
        b = board(s)
        owed = Hand()
        golds = 0
        for lab in geo.land_of[pt]:
            land = b.at(b.hex_at(lab))
            yields = components().yields(land.terrain.value)
            if yields == "choice":
                golds += 1
            elif yields is not None:
                owed = owed + Hand.of({yields: 1})
        out = economy.distribute(holdings(s), {seat: owed} if owed else {})
        store(s, out.holdings)
        events += out.events
        s.setup_rail = True
        if golds:
            s.gold_owed = [[seat, golds]]
            s.gold_then = "setup"
            s.phase = "gold"
            gold.advance(s, events)
        return False
    p_events = len(events)
    s.pieces = {**s.pieces, a.at: s.pieces.get(a.at, []) + [seat]}
    chips(s, seat, a.at, events, geo)
    events.insert(p_events, ev("built_free", seat=seat, what={"key": "catan_express.piece.rail"}, at=a.at))
    s.last_build = s.last_build + [a.at]
    s.setup_rail = False
    _next(s)
    return False


def _next(s: CatanState) -> None:
    s.setup_pos += 1
    seats = order(s)
    if s.setup_pos < len(seats):
        s.current = seats[s.setup_pos]
        return
    begin_turn(s, 0)
