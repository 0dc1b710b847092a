"""Catan Express's final scores: every seat's points by category and the CE-10 ranking.

The points themselves are counted once per position with the rest of the board's facts
(phases/facts.points_by_seat); this module lines them up as a result.
"""
from __future__ import annotations

from games.core.protocol import PlayerResult, Result, ScoreLine, Tie
from games.core.ranking import TieBreak, rank
from games.catan_express.models import CatanState
from games.catan_express.phases.facts import points_by_seat

CATEGORIES = ["settlements", "cities", "vp_cards", "chips", "largest_army", "towers", "fastest_driver"]


def ranked(state: CatanState) -> tuple[list[PlayerResult], list[Tie]]:
    """CE-10: most points; ties to the race winner, then the starter, then the nearest to the
    starter clockwise (from the first seat while nobody has started the race)."""
    starter = state.starter if state.starter is not None else 0
    by_seat = points_by_seat(state)
    rows = []
    for seat, p in enumerate(state.players):
        pts = by_seat[seat]
        rows.append(PlayerResult(seat=seat, rank=0, total=sum(pts.values()),
                                 lines=[ScoreLine(category=c, points=pts[c]) for c in CATEGORIES],
                                 stats={"towers": len(p.towers), "knights": p.knights,
                                        "chips": len(p.chips), "starter": state.starter == seat,
                                        "race_winner": state.race_winner == seat,
                                        "after_starter": (seat - starter) % state.n}))
    clockwise = (TieBreak("after_starter", "catan_express.tie.clockwise", lower=True, params={"from_seat": starter})
                 if state.starter is not None else TieBreak("after_starter", "catan_express.tie.seat_order", lower=True))
    breaks = (TieBreak("race_winner", "catan_express.tie.race_winner"), TieBreak("starter", "catan_express.tie.starter"),
              clockwise)
    ties = rank(rows, breaks, "catan_express.tie.shared")
    return rows, ties


def ranking(state: CatanState) -> list[int]:
    """The seats in CE-10 order, the game over or not."""
    return [row.seat for row in ranked(state)[0]]


def final_result(state: CatanState) -> Result:
    players, ties = ranked(state)
    reason = "race" if state.race_winner is not None else ("no_stops" if not state.stops else "race_stuck")
    return Result(players=players, categories=CATEGORIES, label_prefix="catan_express", reason=reason, ties=ties)
