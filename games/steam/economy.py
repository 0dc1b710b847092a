"""Steam's money: raising cash, action costs, income and expenses, the standard
game's capital and shortfalls, bankruptcy, game length and final scoring (rulebook "現金",
phases 1 and 4 of the basic game, phases 1 and 6 of the standard game, "勝利点計算"; ST-10 …
ST-14). Turn-order auctions are in games/steam/auction.py.

Why it is shaped so
    The rules engine owns the game state; this module only turns one player's money facts (a
    frozen `Purse`) and one money event of the rules into a new `Purse` plus what happened
    (`Money`): the dollars the bank paid out (`raised` as capital or change, `received` as
    income) and the dollars it took in (`paid`), so every dollar between players and bank can be
    accounted for, and the public events (catalog keys "steam.ev.…"). Refusals are
    IllegalAction with "steam.…" codes. No I/O beyond the bundled data files, read once:
    the income track's spaces and rates (games/steam/income.py) and the action tiles and game
    lengths (games/steam/components.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.protocol import PlayerResult, ScoreLine, Tie
from games.core.ranking import TieBreak, rank
from games.steam.components import components
from games.steam.income import IncomeTrack, income_track


# --- one player's money ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Purse:
    """One player's money facts: seat, cash on hand, income (a space of the income track),
    victory points and locomotive level."""

    seat: int
    cash: int = 0
    income: int = 0
    points: int = 0
    locomotive: int = 1


@dataclass(frozen=True, slots=True)
class Money:
    """What one money step did. `raised`: dollars the bank handed over for income or points
    (capital, and the change of a $5 step); `received`: income paid by the bank; `paid`: dollars
    the player handed to the bank. purse.cash == before.cash + raised + received - paid."""

    purse: Purse
    events: tuple[Event, ...] = ()
    raised: int = 0
    received: int = 0
    paid: int = 0
    bankrupt: bool = False


def _ev(key: str, **params) -> Event:
    return Event(key=f"steam.ev.{key}", params=params)


def _raise_steps(purse: Purse, steps: int, track: IncomeTrack) -> tuple[Purse, int, int]:
    """Take up to `steps` $5 steps: income spaces first, then points at the lowest space (ST-10).
    Returns the new purse, the income spaces given and the points given."""
    rule = track.raise_
    income, points, spaces, lost = purse.income, purse.points, 0, 0
    for _ in range(steps):
        back = track.spaces_back(income, rule.income_spaces_per_step)
        if back is not None:
            income, spaces = back, spaces + 1
        elif points >= rule.points_per_step_at_lowest:
            # A step at −10 needs the full 2 points; a last single point raises nothing.
            points, lost = points - rule.points_per_step_at_lowest, lost + 1
        else:
            break
    return replace(purse, income=income, points=points), spaces, lost


def raisable(purse: Purse, track: IncomeTrack | None = None) -> int:
    """Dollars the basic game can still raise: every income space, then 2 points per $5."""
    track = track or income_track()
    entry = _RAISABLE.get(id(track))
    if entry is None:
        entry = _RAISABLE[id(track)] = (track, {})
    known = entry[1]
    key = (purse.income, purse.points)
    if key not in known:
        after, spaces, lost = _raise_steps(purse, 10**6, track)
        known[key] = (spaces + lost) * track.raise_.dollars_per_step
    return known[key]


# Per income track (the entry holds the track, read once from its data file, so its id cannot be
# reused): (income, points) -> dollars raisable. Every legal-move question of the basic game asks
# it, and walking the track down step by step costs more than the rest of the question.
_RAISABLE: dict[int, tuple[IncomeTrack, dict[tuple[int, int], int]]] = {}


def available(purse: Purse, track: IncomeTrack | None = None) -> int:
    """Cash on hand plus everything the basic game lets the player raise."""
    return purse.cash + raisable(purse, track)


def pay(purse: Purse, amount: int, *, reason: str, track: IncomeTrack | None = None,
        announce: bool = True) -> Money:
    """Basic game payment (ST-10): cash on hand first, then only the $5 steps needed, the change
    (at most $4) staying with the player. Refused if even raising cannot cover it. Without
    `announce` no "paid" event is said: the event that caused the payment already states it."""
    track = track or income_track()
    if amount < 0:
        raise ValueError("a payment is never negative")
    if amount > available(purse, track):
        raise IllegalAction("steam.cannot_afford", cost=amount, money=available(purse, track))
    short = max(0, amount - purse.cash)
    step = track.raise_.dollars_per_step
    steps = -(-short // step)
    after, spaces, lost = _raise_steps(purse, steps, track)
    raised = steps * step
    events = []  # ST-10
    if spaces:
        events.append(_ev("raised", seat=purse.seat, steps=spaces, amount=spaces * step,
                          income=after.income))
    if lost:
        events.append(_ev("raised_points", seat=purse.seat, points=lost * track.raise_.points_per_step_at_lowest,
                          amount=lost * step))
    if amount and announce:
        events.append(_ev("paid", seat=purse.seat, amount=amount, reason={"key": f"steam.reason.{reason}"}))
    return Money(replace(after, cash=purse.cash + raised - amount), tuple(events), raised=raised, paid=amount)


def start_money(order: Sequence[int]) -> dict[int, int]:
    """ST-11 option: with a random first order, the 2nd player gets $1, the 3rd $2, …"""
    return {seat: position for position, seat in enumerate(order)}


# --- action tiles (basic game, ST-11) ----------------------------------------------------

DECLINABLE = ("city_growth", "urbanize")


def action_cost(tile_id: str, locomotive: int) -> int:
    """The basic game's price of an action tile for a player whose locomotive is `locomotive`."""
    tile = components().action(tile_id)
    return tile.cost + (locomotive + 1 if tile.cost_plus_new_level else 0)


def take_action(purse: Purse, tile_id: str, *, decline: bool = False, standard: bool = False,
                track: IncomeTrack | None = None) -> Money:
    """Taking an action tile. Basic game: City growth and Urbanize are paid now unless declined
    now (tile face down, nothing paid); Locomotive raises the level at once and costs $4 + the
    new level. Standard game (ST-12): nothing is paid. The tile's number still sets the order."""
    maximum = components().locomotive["max"]
    if decline and tile_id not in DECLINABLE:
        raise IllegalAction("steam.cannot_decline")
    if tile_id == "locomotive" and purse.locomotive >= maximum:
        raise IllegalAction("steam.locomotive_max", level=maximum)
    if decline:
        return Money(purse, (_ev("declined", seat=purse.seat, tile=components().action(tile_id).name),))
    events: list[Event] = []
    money = Money(purse)
    if not standard and action_cost(tile_id, purse.locomotive):
        money = pay(purse, action_cost(tile_id, purse.locomotive), reason=tile_id, track=track)
    new = money.purse
    if tile_id == "locomotive":
        new = replace(new, locomotive=new.locomotive + 1)
        events.append(_ev("locomotive", seat=purse.seat, level=new.locomotive))
    return replace(money, purse=new, events=money.events + tuple(events))


# --- income and expenses -----------------------------------------------------------------

def basic_income(purse: Purse, track: IncomeTrack | None = None) -> Money:
    """Basic game phase 4 (ST-10): positive income is paid by the bank; negative income is owed,
    the amount fixed by the marker at the start of the phase, raised as any payment; a player who
    cannot pay even with points is bankrupt (ST-13)."""
    track = track or income_track()
    if purse.income >= 0:
        return Money(replace(purse, cash=purse.cash + purse.income),
                     (_ev("income", seat=purse.seat, amount=purse.income),), received=purse.income)
    owed = -purse.income
    if owed <= available(purse, track):
        return pay(purse, owed, reason="expenses", track=track)
    return _bankrupt(purse, owed, track)


def _bankrupt(purse: Purse, owed: int, track: IncomeTrack) -> Money:
    """Everything is handed over and the player leaves the game (ST-13)."""
    after, spaces, lost = _raise_steps(purse, 10**6, track)
    raised = (spaces + lost) * track.raise_.dollars_per_step
    paid = purse.cash + raised
    return Money(replace(after, cash=0), (_ev("bankrupt", seat=purse.seat, owed=owed),),
                 raised=raised, paid=paid, bankrupt=True)


def capital_refusal(purse: Purse, steps: int, track: IncomeTrack | None = None) -> IllegalAction | None:
    """Why `raise_capital` may not give `steps` steps (none below 0, none past the track's
    lowest space), or None."""
    track = track or income_track()
    if steps < 0:
        return IllegalAction("steam.capital_negative")
    if track.spaces_back(purse.income, steps * track.raise_.income_spaces_per_step) is None:
        return IllegalAction("steam.income_floor", lowest=track.lowest)
    return None


def raise_capital(purse: Purse, steps: int, track: IncomeTrack | None = None) -> Money:
    """Standard game phase 1 (ST-12): $5 per income space given, never by points."""
    track = track or income_track()
    problem = capital_refusal(purse, steps, track)
    if problem is not None:
        raise problem
    after = track.spaces_back(purse.income, steps * track.raise_.income_spaces_per_step)
    raised = steps * track.raise_.dollars_per_step
    events = (_ev("capital", seat=purse.seat, steps=steps, amount=raised, income=after),) if steps else ()
    return Money(replace(purse, cash=purse.cash + raised, income=after), events, raised=raised)


def pay_cash(purse: Purse, amount: int, *, reason: str, announce: bool = True) -> Money:
    """Standard game payment (ST-12): from cash on hand only (`announce` as for `pay`)."""
    if amount > purse.cash:
        raise IllegalAction("steam.cannot_afford", cost=amount, money=purse.cash)
    said = (_ev("paid", seat=purse.seat, amount=amount, reason={"key": f"steam.reason.{reason}"}),) if announce else ()
    return Money(replace(purse, cash=purse.cash - amount), said, paid=amount)


def standard_income(purse: Purse, track: IncomeTrack | None = None) -> Money:
    """Standard game phase 6 (ST-12): income less maintenance ($1 per locomotive level). A net
    gain is paid by the bank; a net cost comes from cash, then 1 point per $2 short, then at 0
    points one income space per $2 short, an odd $1 coming back from the bank; a player with no
    cash, no points and income at −10 who still owes is bankrupt (ST-13)."""
    track = track or income_track()
    rule = track.standard_shortfall
    upkeep = purse.locomotive * track.maintenance_per_locomotive_level
    # Income and upkeep are netted: the rulebook's phases 4–5 note says income is collected in
    # phase 6 only "if income exceeds expenses".
    net = purse.income - upkeep
    events = [_ev("maintenance", seat=purse.seat, level=purse.locomotive, amount=upkeep)]
    if net >= 0:
        events.append(_ev("income", seat=purse.seat, amount=net))
        return Money(replace(purse, cash=purse.cash + net), tuple(events), received=net)
    owed = -net
    from_cash = min(purse.cash, owed)
    short = owed - from_cash
    points_used = min(purse.points, -(-short // rule.dollars_per_point))
    covered = points_used * rule.dollars_per_point
    spaces_wanted = -(-max(0, short - covered) // rule.dollars_per_income_space)
    income, spaces = purse.income, 0
    while spaces < spaces_wanted and (back := track.previous_space(income)) is not None:
        income, spaces = back, spaces + 1
    covered += spaces * rule.dollars_per_income_space
    after = replace(purse, cash=0 if short else purse.cash - owed,
                    points=purse.points - points_used, income=income)
    if covered < short:
        events.append(_ev("bankrupt", seat=purse.seat, owed=owed))
        return Money(after, tuple(events), paid=from_cash, bankrupt=True)
    change = covered - short  # the odd $1 of a $2 rate comes back from the bank
    if from_cash:
        events.append(_ev("paid", seat=purse.seat, amount=from_cash, reason={"key": "steam.reason.expenses"}))
    if points_used:
        events.append(_ev("shortfall_points", seat=purse.seat, points=points_used))
    if spaces:
        events.append(_ev("shortfall_income", seat=purse.seat, steps=spaces, income=income))
    if change:
        events.append(_ev("change", seat=purse.seat, amount=change))
    return Money(replace(after, cash=after.cash + change), tuple(events), raised=change, paid=from_cash)


# --- the end (ST-14) ---------------------------------------------------------------------

def game_turns(players: int) -> int:
    """Turns in a game: 10 with 3 players, 8 with 4, 7 with 5 (and 6)."""
    try:
        return components().game_turns[players]
    except KeyError:
        raise IllegalAction("steam.bad_player_count", count=players) from None


def is_last_turn(turn: int, players: int) -> bool:
    """The last turn (turns counted from 1) ends after the income phase: no turn-order phase and
    no new turn follow it (ST-14)."""
    return turn >= game_turns(players)


@dataclass(frozen=True, slots=True)
class FinalFacts:
    """What final scoring needs of one player still in the game: points from deliveries, income,
    completed links owned, and the number of the action tile taken in the last turn."""

    seat: int
    points: int
    income: int
    completed_links: int
    last_tile: int


def income_points(income: int, track: IncomeTrack | None = None) -> int:
    rule = (track or income_track()).final_scoring
    if income >= 0:
        return income // rule.income_dollars_per_point
    return income * rule.points_lost_per_dollar_below_zero


# ST-14: on equal scores the higher income wins, then the lower action tile of the last turn.
TIE_BREAKS = (TieBreak("income", "steam.tie.income"), TieBreak("last_tile", "steam.tie.last_tile", lower=True))


def final_results(players: Sequence[FinalFacts], track: IncomeTrack | None = None
                  ) -> tuple[list[PlayerResult], list[Tie]]:
    """Final scores in rank order: points + income points + 1 per completed link; ties go to the
    higher income, then to the lower action tile taken in the last turn (TIE_BREAKS). With them,
    the ties between neighbours on the same total and what decided each."""
    scored = []
    for f in players:
        lines = [ScoreLine(category="deliveries", points=f.points),
                 ScoreLine(category="income", points=income_points(f.income, track), params={"income": f.income}),
                 ScoreLine(category="links", points=f.completed_links, params={"links": f.completed_links})]
        scored.append(PlayerResult(seat=f.seat, rank=0, total=sum(line.points for line in lines), lines=lines,
                                   stats={"income": f.income, "last_tile": f.last_tile}))
    ties = rank(scored, TIE_BREAKS, "steam.tie.shared")
    return scored, ties
