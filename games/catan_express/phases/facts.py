"""What a Catan Express position says, asked by every phase: the board facts derived from
the pieces and buildings (derived.py), the cards in hands and the bank, pieces left, points;
the rulebook's price and points tables as counts; and the reason a move made at the wrong
time is refused."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy
from games.catan_express.cards import KINDS, PlayerCards
from games.catan_express.components import RESOURCES, DevCard, components
from games.catan_express.derived import Derived, derived
from games.catan_express.economy import Hand, Holdings, hand_of
from games.catan_express.geo import Geo, board_for, geo_for, harbour_kinds
from games.catan_express.map import Board
from games.catan_express.models import CatanState, event


def ev(key: str, to: tuple[int, ...] | None = None, **params: Any) -> Event:
    return event(f"catan_express.ev.{key}", params, to)


def board(state: CatanState) -> Board:
    return board_for(state.map_id, state.options.layout, state.seed)


def geo(state: CatanState) -> Geo:
    return geo_for(state.map_id, state.options.layout, state.seed)


def dv(state: CatanState) -> Derived:
    """The facts derived from the state's pieces and buildings (derived.py)."""
    return derived(state, geo)


def holdings(state: CatanState) -> Holdings:
    return Holdings(hand_of(tuple(state.bank)), tuple([hand_of(tuple(p.hand)) for p in state.players]))


def add_cards(state: CatanState, seat: int, counts: Any) -> None:
    """Add `counts` (none negative) to the seat's hand (the bank is the caller's)."""
    d = state.own(seat).__dict__
    a0, a1, a2, a3, a4 = d["hand"]
    b0, b1, b2, b3, b4 = counts
    d["hand"] = [a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4]
    d["cards"] = a0 + b0 + a1 + b1 + a2 + b2 + a3 + b3 + a4 + b4


def store(state: CatanState, h: Holdings) -> None:
    """Write the cards back: the bank, and the hands that changed (a new list each, in the
    state's own copy of the player, as `CatanState.fork` expects). Plain fields, written
    without pydantic's attribute hook, which costs more than the copying here and checks
    nothing these fields need."""
    state.__dict__["bank"] = list(h.bank.counts)
    for seat, (p, hand) in enumerate(zip(state.players, h.hands)):
        counts = hand.counts
        if tuple(p.hand) != counts:
            d = state.own(seat).__dict__
            d["hand"] = list(counts)
            d["cards"] = sum(counts)


def pieces_left(state: CatanState, seat: int, what: str) -> int:
    return components().pieces_per_player[what] - dv(state).used(seat)[what]


def city_cap(state: CatanState) -> int:
    c = components()
    return c.cities_before_race + (c.cities_added_at_race if state.race else 0)


def touched(state: CatanState, point: int) -> bool:
    """Whether any rail or ferry ends at this intersection (CE-4)."""
    return str(point) in dv(state).touched()


def harbours(state: CatanState, seat: int) -> frozenset[str]:
    memo = dv(state).memo
    out = memo.get(("harbours", seat))
    if out is None:
        kinds = harbour_kinds(state.map_id, state.options.layout, state.seed)
        out = memo["harbours", seat] = frozenset(kinds[pt] for pt, b in state.buildings.items()
                                                 if b.seat == seat and pt in kinds)
    return out


def clockwise(state: CatanState, start: int) -> list[int]:
    return [(start + k) % state.n for k in range(state.n)]


def points_by_seat(state: CatanState) -> list[dict[str, int]]:
    """Every seat's victory points by category (scoring.CATEGORIES), in one pass over the board:
    the one place the points are counted by category, for the result, the view and the final
    post (`totals` adds the same numbers up without naming them)."""
    c = components()
    out = [{"settlements": 0, "cities": 0,
            "vp_cards": p.vp_cards * c.points.victory_point_card,
            "chips": len(p.chips) * c.points.victory_point_chip,
            "largest_army": c.largest_army.points if state.largest_army == seat else 0,
            "towers": len(p.towers) * c.points.water_tower,
            "fastest_driver": c.points.fastest_driver if p.fastest else 0}
           for seat, p in enumerate(state.players)]
    for b in state.buildings.values():
        if b.kind == "city":
            out[b.seat]["cities"] += c.points.city
        else:
            out[b.seat]["settlements"] += c.points.settlement
    return out


def totals(state: CatanState) -> list[int]:
    """Every seat's victory points: the sums of `points_by_seat`, with the buildings' share
    kept with the board's derived facts (every roll records them for the final post)."""
    vp_card, chip, tower, army_points, fastest, settlement, city = POINTS
    army = state.largest_army
    built = dv(state).building_points(settlement, city)
    out = []
    for seat, p in enumerate(state.players):
        t = p.vp_cards * vp_card + len(p.chips) * chip + len(p.towers) * tower
        if seat < len(built):
            t += built[seat]
        if army == seat:
            t += army_points
        if p.fastest:
            t += fastest
        out.append(t)
    return out


def is_main(state: CatanState) -> bool:
    """The main part of one's turn, the locomotive not moving: when trades and builds are made."""
    return state.phase == "main" and not state.moving


def elsewhere(state: CatanState) -> IllegalAction:
    """The reason for a move the phase has no place for."""
    return IllegalAction("catan_express.roll_first" if state.phase == "roll" else "catan_express.not_now")


def short(state: CatanState, seat: int, price: Hand) -> IllegalAction:
    """A refusal that names the price and the cards missing from the seat's hand."""
    hand = Hand(tuple(state.players[seat].hand))
    lacking = Hand(tuple(max(0, a - b) for a, b in zip(price.counts, hand.counts)))
    return IllegalAction("catan_express.cannot_afford", cost=price.param(), short=lacking.param())


def one(i: int, n: int) -> tuple[int, int, int, int, int]:
    counts = [0] * len(RESOURCES)
    counts[i] = n
    return tuple(counts)  # type: ignore[return-value]


# Facts of the rulebook's tables, looked up on every move: costs as counts, the points
# (a card, a chip, a tower, Largest Army, Fastest Driver, a settlement, a city), indexes.
COST = {k: economy.cost(k).counts for k in ("settlement", "city", "development_card", "rail", "ferry")}
CHEAPEST = min(sum(cost) for cost in COST.values())  # cards the cheapest build or purchase takes
NOTHING = (0,) * len(RESOURCES)
_P = components().points
POINTS = (_P.victory_point_card, _P.victory_point_chip, _P.water_tower, components().largest_army.points,
          _P.fastest_driver, _P.settlement, _P.city)
KIND_AT = {k: i for i, k in enumerate(KINDS)}
CARD_OF = {k.value: k for k in DevCard}
RESOURCE_AT = {r.value: i for i, r in enumerate(RESOURCES)}
LEAST_RATIO = min(economy.trade_ratio(r, kinds) for r in RESOURCES
                  for kinds in ((), (economy.GENERIC_HARBOUR,), (r.value,)))


@lru_cache(maxsize=256)
def with_fees(base: tuple[int, ...], owners: int) -> tuple[int, ...]:
    """A piece's price: `base` plus the parallel fee for each of `owners` (economy.build_price)."""
    return tuple(b + owners * f for b, f in zip(base, economy.parallel_fee().counts))


@lru_cache(maxsize=256)
def ratios(kinds: frozenset[str]) -> tuple[int, ...]:
    """Each resource's bank trade ratio for a seat with buildings on these harbours."""
    return tuple(economy.trade_ratio(r, kinds) for r in RESOURCES)


def can_play(state: CatanState, seat: int, card: DevCard) -> bool:
    """Whether the seat may play a card of this kind now (CE-B3: one a turn, held since before
    this turn); when, is the phase's question."""
    p = state.players[seat]
    return not p.played_card and p.dev[KIND_AT[card]] > 0


def card_refusal(state: CatanState, seat: int, card: DevCard) -> IllegalAction | None:
    """Why the seat may not play this card at all (cards.PlayerCards.play's reason), or None."""
    p = state.players[seat]
    try:
        PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card).play(card)
    except IllegalAction as exc:
        return exc
    return None


def card_time(state: CatanState) -> bool:
    """Whether it is a time a development card may be played (CE-B3): before the roll, or in
    the main part of one's turn, the locomotive not moving."""
    return state.phase == "roll" or is_main(state)
