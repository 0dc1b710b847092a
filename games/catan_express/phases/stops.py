"""The race's beginning: the first player to reach the race's points is its starter (CE-6);
at the end of that turn the stops are named in turn from the starter (CE-7)."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import race
from games.catan_express.components import components
from games.catan_express.models import CatanState, Menu, NameStop
from games.catan_express.phases.facts import clockwise, dv, elsewhere, ev, geo, totals
from games.catan_express.phases.moves import stop
from games.catan_express.phases.turn import begin_turn, finish


def menu(state: CatanState, seat: int) -> Menu:
    return Menu.of("stop", [stop(pt) for pt in race.nameable_stops(state, dv(state).geo, seat)])


def refusal(state: CatanState, seat: int, a: NameStop) -> IllegalAction | None:
    if state.phase == "stops" and a.at in race.nameable_stops(state, dv(state).geo, seat):
        return None
    return elsewhere(state)


def name(game: Any, s: CatanState, seat: int, a: NameStop, events: list[Event]) -> bool:
    s.stops = s.stops + [a.at]
    s.stop_queue = s.stop_queue[1:]
    events.append(ev("stop_named", seat=seat, at=str(a.at), number=len(s.stops)))
    advance(s, events)
    return False


def begin_race(s: CatanState, events: list[Event]) -> None:
    """CE-6: the race begins at the end of the turn in which the starter reached the points."""
    s.race = True
    events.append(ev("race_begins", seat=s.starter))
    rounds = components().stop_rounds[s.n]
    s.stop_queue = [x for _ in range(rounds) for x in clockwise(s, s.starter)]
    advance(s, events)


def advance(s: CatanState, events: list[Event]) -> None:
    g = geo(s)
    while s.stop_queue and not race.nameable_stops(s, g, s.stop_queue[0]):
        events.append(ev("no_stop", seat=s.stop_queue[0]))
        s.stop_queue = s.stop_queue[1:]
    if s.stop_queue:
        s.phase = "stops"
        return
    if not s.stops:
        # Nobody could name a stop: there is no race to run, so the game ends on points.
        events.append(ev("no_stops"))
        finish(s, events)
        return
    events.append(ev("race_on", stops=[str(x) for x in s.stops]))
    begin_turn(s, (s.current + 1) % s.n)


def check_starter(s: CatanState, events: list[Event]) -> None:
    """After a move that can change someone's points: the first to reach the race's points,
    clockwise from the player to move, starts the race (CE-6)."""
    if s.starter is not None or s.phase in ("setup", "over"):
        return
    goal = components().race_start_points
    points = totals(s)
    for seat in clockwise(s, s.current):
        if points[seat] >= goal:
            s.starter = seat
            events.append(ev("starter", seat=seat, points=points[seat]))
            return
