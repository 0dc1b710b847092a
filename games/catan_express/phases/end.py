"""Ending a turn: with 5–6 players the others build in turn first (CE-B7); then the race
begins if it has a starter (CE-6), the game ends if the race can no longer end, or the next
player's turn begins."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import race
from games.catan_express.models import CatanState, End
from games.catan_express.phases import stops
from games.catan_express.phases.facts import dv, elsewhere, ev, pieces_left
from games.catan_express.phases.turn import begin_turn, finish


def refusal(state: CatanState, seat: int, a: End) -> IllegalAction | None:
    return None if state.phase in ("main", "special") else elsewhere(state)


def end(game: Any, s: CatanState, seat: int, a: End, events: list[Event]) -> bool:
    end_turn(s, seat, events)
    return False


def end_special(game: Any, s: CatanState, seat: int, a: End, events: list[Event]) -> bool:
    s.special_queue = s.special_queue[1:]
    events.append(ev("special_done", seat=seat))
    if not s.special_queue:
        _after_turn(s, events)
    return False


def end_turn(s: CatanState, seat: int, events: list[Event]) -> None:
    events.append(ev("turn_ended", seat=seat))
    f = s.__dict__  # plain fields, written straight (see models._Stored)
    f["free_pieces"] = 0
    f["moving"] = False
    f["move_left"] = 0
    if s.n >= 5:
        # CE-B7: the others build in turn before the next player's turn.
        s.special_queue = [(seat + k) % s.n for k in range(1, s.n)]
        s.phase = "special"
        return
    _after_turn(s, events)


def _after_turn(s: CatanState, events: list[Event]) -> None:
    if s.race and race_stuck(s):
        events.append(ev("race_stuck"))
        finish(s, events)
        return
    if s.starter is not None and not s.race:
        stops.begin_race(s, events)
        return
    begin_turn(s, (s.current + 1) % s.n)


def race_stuck(s: CatanState) -> bool:
    """Whether the race can no longer end (a case the rulebook does not foresee): nobody can
    build another rail or ferry (none left, or only ferries with no coast beside their own
    network, which only their own pieces could extend), and no locomotive can reach every
    stop it still needs over the pieces on the board. The game then ends on points, like a
    race without stops."""
    d = dv(s)
    geo = d.geo
    memo = d.memo  # both questions are about the pieces alone
    if "can_build" not in memo:
        memo["can_build"] = any(pieces_left(s, seat, what) > 0 and d.spots(seat, what)
                                for seat in range(s.n) for what in ("rail", "ferry"))
    if memo["can_build"]:
        return False
    for p in s.players:
        if p.loco is None:
            return False
        reach = memo.get(("reachable", p.loco))
        if reach is None:
            reach = memo["reachable", p.loco] = race.reachable(s, geo, p.loco)
        if {str(x) for x in s.stops if x not in p.towers} <= reach:
            return False
    return True
