"""A turn's start and the game's end, where every phase that hands the game on goes."""
from __future__ import annotations

from games.core.events import Event
from games.catan_express.cards import KINDS
from games.catan_express.models import CatanState
from games.catan_express.phases.facts import ev, totals


def begin_turn(s: CatanState, seat: int) -> None:
    f = s.__dict__  # plain fields, written straight (see models._Stored)
    f["current"] = seat
    f["turn"] += 1
    f["phase"] = "roll"
    f["dice"] = []
    f["free_pieces"] = 0
    f["moving"] = False
    f["move_left"] = 0
    f["moved_on"] = None
    f["offer"] = None
    f["offers_made"] = 0
    # Cards bought in an earlier turn (a special building turn too) become playable now.
    p = s.players[seat]
    if p.played_card or any(p.dev_new):
        p = s.own(seat)
        p.dev = [a + b for a, b in zip(p.dev, p.dev_new)]
        p.dev_new = [0] * len(KINDS)
        p.played_card = False


def finish(s: CatanState, events: list[Event]) -> None:
    s.phase = "over"
    s.moving = False
    s.history = s.history + [{"turn": s.turn, "seat": s.current, "roll": None, "points": totals(s)}]
    events.append(ev("game_over"))
