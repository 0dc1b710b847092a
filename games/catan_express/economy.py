"""Catan Express's resource cards: hands, the bank, paying for things (with the parallel fee),
production from a roll (with the bank shortage rule and the gold river's owed choices),
discarding on a 7, robbing, and trading with the bank and between players (CE-B1, CE-B2,
CE-B4, CE-B5, CE-2).

Why it is shaped so
    The rules engine will own the game state; this module only turns the card facts of a game
    (a frozen `Holdings`: the bank and every seat's `Hand`) and one step of the rules into new
    `Holdings` plus the public and private events (catalog keys "catan_express.ev.…"). Every function
    moves cards between the bank and the hands or between hands and never makes or loses one,
    so bank + hands stays the starting bank for each resource; the tests check that through
    random sequences. Board facts arrive as plain values (hex → number token, hex → terrain,
    hex → buildings as (seat, kind)), so nothing here depends on how the map is stored.
    Refusals are IllegalAction with "catan_express.…" codes.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Collection, Hashable, Mapping, Sequence

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.rng import SeededRng
from games.catan_express.components import GOLD, RESOURCES, Costed, Resource, components
from games.catan_express.models import event


# --- a hand of resource cards -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hand:
    """Counts of the five resources, in the order of RESOURCES. Used for a player's hand, the
    bank, a cost, an offer; never negative."""

    counts: tuple[int, ...] = (0, 0, 0, 0, 0)

    def __post_init__(self) -> None:
        if len(self.counts) != len(RESOURCES) or min(self.counts) < 0:
            raise ValueError(f"a hand is {len(RESOURCES)} counts, none negative: {self.counts}")

    @classmethod
    def of(cls, amounts: Mapping[Resource | str, int] | None = None, **more: int) -> "Hand":
        """Hand.of({"ore": 3}) or Hand.of(ore=3, grain=2)."""
        counts = [0] * len(RESOURCES)
        for k, v in {**(amounts or {}), **more}.items():
            counts[_index(k)] = v
        return cls(tuple(counts))

    @classmethod
    def each(cls, n: int) -> "Hand":
        return cls((n,) * len(RESOURCES))

    def __getitem__(self, resource: Resource | str) -> int:
        return self.counts[_index(resource)]

    # Hands are added and taken apart on every move, so the five counts are spelled out.
    def __add__(self, other: "Hand") -> "Hand":
        # Two valid hands add up to a valid one: no need to check again.
        a0, a1, a2, a3, a4 = self.counts
        b0, b1, b2, b3, b4 = other.counts
        return hand_of((a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4))

    def __sub__(self, other: "Hand") -> "Hand":
        a0, a1, a2, a3, a4 = self.counts
        b0, b1, b2, b3, b4 = other.counts
        counts = (a0 - b0, a1 - b1, a2 - b2, a3 - b3, a4 - b4)
        if min(counts) < 0:
            raise ValueError(f"a hand is {len(RESOURCES)} counts, none negative: {counts}")
        return hand_of(counts)

    def __bool__(self) -> bool:
        return any(self.counts)

    @property
    def total(self) -> int:
        return sum(self.counts)

    def covers(self, other: "Hand") -> bool:
        return covers(self.counts, other.counts)

    def only(self, resource: Resource | str) -> "Hand":
        return Hand.of({resource: self[resource]})

    def resources(self) -> tuple[Resource, ...]:
        """The resources with at least one card."""
        return tuple([r for r, n in zip(RESOURCES, self.counts) if n])

    def cards(self) -> tuple[Resource, ...]:
        """One entry per card, in resource order (what a blind draw picks from)."""
        return tuple(r for r, n in zip(RESOURCES, self.counts) for _ in range(n))

    def param(self) -> list[dict]:
        """The hand as an event parameter: one translatable "N lumber" per resource held."""
        return cards_param(self.counts)


_HAND_NEW = object.__new__
_HAND_SET = object.__setattr__


def hand_of(counts: tuple[int, ...]) -> Hand:
    """A Hand of counts the caller knows are five and none negative (a stored hand, the bank,
    a sum of hands), made without the check: the rules make several every move."""
    new = _HAND_NEW(Hand)
    _HAND_SET(new, "counts", counts)
    return new


def covers(have: tuple[int, ...] | list[int], need: tuple[int, ...] | list[int]) -> bool:
    """Whether counts `have` hold at least counts `need`, resource by resource."""
    a0, a1, a2, a3, a4 = have
    b0, b1, b2, b3, b4 = need
    return a0 >= b0 and a1 >= b1 and a2 >= b2 and a3 >= b3 and a4 >= b4


_CARD_KEYS = tuple(f"catan_express.cards.{r.value}" for r in RESOURCES)


def cards_param(counts: tuple[int, ...] | list[int]) -> list[dict]:
    """Counts as an event parameter (Hand.param)."""
    return [{"key": k, "params": {"count": n}} for k, n in zip(_CARD_KEYS, counts) if n]


_INDEX: dict[str, int] = {r.value: i for i, r in enumerate(RESOURCES)}  # a Resource is its own str


def _index(resource: Resource | str) -> int:
    """A resource's place in a hand; ValueError for a name that is not a resource."""
    try:
        return _INDEX[resource]
    except KeyError:
        raise ValueError(f"{resource!r} is not a resource") from None


def resource_param(resource: Resource | str) -> dict:
    return {"key": f"catan_express.resource.{Resource(resource).value}"}


def _ev(key: str, to: tuple[int, ...] | None = None, **params) -> Event:
    return event(f"catan_express.ev.{key}", params, to)


# --- the bank and the hands ---------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Holdings:
    """Where every resource card is: the bank and each seat's hand."""

    bank: Hand
    hands: tuple[Hand, ...]

    @classmethod
    def start(cls, players: int) -> "Holdings":
        """A full bank (CE-B1: 19 of each, 24 with 5–6 players) and empty hands."""
        c = components()
        if not c.players.min <= players <= c.players.max:
            raise IllegalAction("catan_express.bad_player_count", count=players, min=c.players.min, max=c.players.max)
        return cls(Hand.each(c.bank_size(players)), (Hand(),) * players)

    def hand(self, seat: int) -> Hand:
        return self.hands[seat]

    def with_hands(self, changes: Mapping[int, Hand], bank: Hand | None = None) -> "Holdings":
        hands = tuple([changes.get(s, h) for s, h in enumerate(self.hands)])
        return Holdings(self.bank if bank is None else bank, hands)

    def totals(self) -> Hand:
        """Bank plus every hand: the same for the whole game."""
        out = self.bank
        for h in self.hands:
            out = out + h
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """One step's result: the new holdings and what happened."""

    holdings: Holdings
    events: tuple[Event, ...] = ()


def _need(holdings: Holdings, seat: int, cost: Hand, code: str = "catan_express.cannot_afford", **params) -> None:
    hand = holdings.hand(seat)
    if not hand.covers(cost):
        short = Hand(tuple(max(0, c - h) for c, h in zip(cost.counts, hand.counts)))
        raise IllegalAction(code, seat=seat, cost=cost.param(), short=short.param(), **params)


def pay(holdings: Holdings, seat: int, cost: Hand, *, reason: str) -> Outcome:
    """Cards from a hand to the bank (a build, a development card)."""
    _need(holdings, seat, cost)
    new = holdings.with_hands({seat: holdings.hand(seat) - cost}, bank=holdings.bank + cost)
    return Outcome(new, (_ev("paid", seat=seat, cards=cost.param(), reason={"key": f"catan_express.reason.{reason}"}),))


def give(holdings: Holdings, seat: int, to: int, cards: Hand, *, reason: str) -> Outcome:
    """Cards from one hand to another (the parallel fee, a locomotive's fare, CE-2, CE-8)."""
    if seat == to:
        raise IllegalAction("catan_express.pay_self")
    _need(holdings, seat, cards)
    new = holdings.with_hands({seat: holdings.hand(seat) - cards, to: holdings.hand(to) + cards})
    return Outcome(new, (_ev("gave", seat=seat, to_seat=to, cards=cards.param(),
                             reason={"key": f"catan_express.reason.{reason}"}),))


def cost(item: Costed) -> Hand:
    """The printed price of a piece or a development card (CE-B2, CE-2)."""
    return _cost(item)


@lru_cache(maxsize=None)
def _cost(item: str) -> Hand:
    return Hand.of(components().cost(item))


@lru_cache(maxsize=None)
def parallel_fee() -> Hand:
    """What a builder pays each owner already on a spoke or coast edge (CE-2: 1 brick)."""
    return Hand.of(components().parallel_fee_per_owner)


def build_price(item: Costed, parallel_owners: Collection[int] = (), *, free: bool = False) -> Hand:
    """Everything a build takes from the builder's hand: the cost (nothing if free) and one
    parallel fee per owner already there."""
    base = Hand() if free else cost(item)
    for _ in parallel_owners:
        base = base + parallel_fee()
    return base


def pay_build(holdings: Holdings, seat: int, item: Costed, *, parallel_owners: Collection[int] = (),
              free: bool = False) -> Outcome:
    """Paying for a piece (CE-2). The cost goes to the bank and the fee (1 brick) to each other
    player who already has a piece on that spoke or edge; a builder who cannot pay every fee
    cannot build there. `free` (Road Building) waives the cost, not the fees: those are paid to
    players for sharing their line, not to the bank."""
    owners = sorted(set(parallel_owners))
    if owners and item not in ("rail", "ferry"):
        raise ValueError("only rails and ferries run beside other pieces")
    if seat in owners:
        raise IllegalAction("catan_express.parallel_own_piece")
    base = Hand() if free else cost(item)
    _need(holdings, seat, base)
    _need(holdings, seat, build_price(item, owners, free=free), "catan_express.parallel_fee_short", owners=len(owners))
    events: list[Event] = []
    if base:
        out = pay(holdings, seat, base, reason=item)
        holdings, events = out.holdings, list(out.events)
    for owner in owners:
        out = give(holdings, seat, owner, parallel_fee(), reason="parallel")
        holdings, events = out.holdings, events + list(out.events)
    return Outcome(holdings, tuple(events))


# --- production (CE-B1, CE-B4) ------------------------------------------------------------

BuildingsByHex = Mapping[Hashable, Sequence[tuple[int, str]]]


@dataclass(frozen=True, slots=True)
class Production:
    """What a roll owes: plain resources per seat, and per seat the number of gold-river
    resources still to be chosen (the engine asks the owner, then calls `take_gold`)."""

    owed: Mapping[int, Hand]
    gold: Mapping[int, int]


def production(roll: int, tokens: Mapping[Hashable, int], terrains: Mapping[Hashable, str],
               robber: Hashable | None, buildings: BuildingsByHex) -> Production:
    """Who is owed what for a roll: each hex showing the number, except the robber's, gives
    1 card per settlement and 2 per city on its corners; a gold river gives as many choices.
    A 7 produces nothing."""
    c = components()
    owed: dict[int, list[int]] = {}
    gold: dict[int, int] = {}
    if roll == c.robber_roll:
        return Production({}, gold)
    for hex_, number in tokens.items():
        if number != roll or hex_ == robber:
            continue
        yields = c.yields(terrains[hex_])
        if yields is None:
            continue
        for seat, kind in buildings.get(hex_, ()):
            n = c.production[kind]
            if yields == GOLD:
                gold[seat] = gold.get(seat, 0) + n
            else:
                counts = owed.get(seat)
                if counts is None:
                    counts = owed[seat] = [0] * len(RESOURCES)
                counts[_index(yields)] += n
    return Production({s: hand_of(tuple(owed[s])) for s in sorted(owed)}, dict(sorted(gold.items())))


def distribute(holdings: Holdings, owed: Mapping[int, Hand]) -> Outcome:
    """Pay what a roll owes, resource by resource (CE-B4): everyone if the bank can, nobody if
    it cannot cover every player owed that resource, except that a single player owed it takes
    what is left. Also used for the second settlement's start cards (one player owed)."""
    bank, paid, events = share_out(holdings.bank.counts, {s: h.counts for s, h in owed.items()})
    hands = {s: hand_of(tuple(a + b for a, b in zip(holdings.hands[s].counts, h))) for s, h in paid.items()}
    return Outcome(holdings.with_hands(hands, bank=hand_of(tuple(bank))), tuple(events))


def share_out(bank_counts: Sequence[int], owed: Mapping[int, Sequence[int]]) -> tuple[list[int], dict[int, list[int]], list[Event]]:
    """`distribute` on counts: the bank after paying, what each seat owed is paid, and the
    events (each seat's cards produced, then any shortage). The engine calls it on every roll."""
    paid: dict[int, list[int]] = {s: [0] * len(RESOURCES) for s in owed}
    bank = list(bank_counts)
    seats = sorted(owed)
    events: list[Event] = []
    for i, r in enumerate(RESOURCES):
        wanting = [s for s in seats if owed[s][i]]
        if not wanting:
            continue
        if len(wanting) == 1 and owed[wanting[0]][i] <= bank[i]:
            n = owed[wanting[0]][i]
            paid[wanting[0]][i] += n
            bank[i] -= n
            continue
        total = sum(owed[s][i] for s in wanting)
        if total <= bank[i]:
            gets = {s: owed[s][i] for s in wanting}
        elif len(wanting) == 1:
            gets = {wanting[0]: bank[i]}
            events.append(_ev("shortage_partial", seat=wanting[0], resource=resource_param(r),
                              owed=total, count=bank[i]))
        else:
            gets = {}
            events.append(_ev("shortage", resource=resource_param(r), owed=total, count=bank[i],
                              seats=wanting))
        for s, n in gets.items():
            paid[s][i] += n
            bank[i] -= n
    produced = [_ev("produced", seat=s, cards=cards_param(paid[s])) for s in seats if any(paid[s])]
    return bank, paid, produced + events


def take_gold(holdings: Holdings, seat: int, picks: Hand, owed: int) -> Outcome:
    """A gold river owner's choice (CE-B1): `owed` cards of any resources. Each pick comes from
    what the bank holds after the plain production; when the bank holds fewer cards than owed
    the owner takes all it has left."""
    due = min(owed, holdings.bank.total)
    if picks.total != due:
        raise IllegalAction("catan_express.gold_count", count=due)
    if not holdings.bank.covers(picks):
        raise IllegalAction("catan_express.bank_short", resources=lacking(holdings.bank, picks))
    new = holdings.with_hands({seat: holdings.hand(seat) + picks}, bank=holdings.bank - picks)
    return Outcome(new, (_ev("gold", seat=seat, cards=picks.param()),))


def lacking(bank: Hand, wanted: Hand) -> list[dict]:
    """The resources the bank holds too few of, as event parameters."""
    return [resource_param(r) for r in wanted.resources() if wanted[r] > bank[r]]


# --- a roll of 7 (CE-B4) ------------------------------------------------------------------

def discards_due(holdings: Holdings) -> dict[int, int]:
    """Who must discard how many: half, rounded down, of every hand with more than 7 cards."""
    limit = components().discard_over
    return {s: h.total // 2 for s, h in enumerate(holdings.hands) if h.total > limit}


def discard(holdings: Holdings, seat: int, cards: Hand, due: int) -> Outcome:
    """A player's chosen discard, back to the bank."""
    if cards.total != due:
        raise IllegalAction("catan_express.discard_count", count=due)
    _need(holdings, seat, cards, "catan_express.not_held")
    new = holdings.with_hands({seat: holdings.hand(seat) - cards}, bank=holdings.bank + cards)
    return Outcome(new, (_ev("discarded", seat=seat, count=due),
                         _ev("discarded_cards", to=(seat,), seat=seat, cards=cards.param())))


def robbable(holdings: Holdings, thief: int, robber: Hashable, buildings: BuildingsByHex) -> tuple[int, ...]:
    """The seats the robber's mover may rob: others with a building on the robber's hex and
    at least one card."""
    return tuple(sorted({s for s, _ in buildings.get(robber, ()) if s != thief and holdings.hand(s)}))


def rob(holdings: Holdings, thief: int, victim: int, robber: Hashable, buildings: BuildingsByHex,
        rng: SeededRng) -> Outcome:
    """Take one random card from the victim (CE-B4). The resource is told only to the two
    players; everyone sees that a card changed hands (CE-12)."""
    if victim not in robbable(holdings, thief, robber, buildings):
        raise IllegalAction("catan_express.cannot_rob", victim_seat=victim)
    card = rng.choice(holdings.hand(victim).cards())
    one = Hand.of({card: 1})
    new = holdings.with_hands({victim: holdings.hand(victim) - one, thief: holdings.hand(thief) + one})
    return Outcome(new, (_ev("robbed", seat=thief, victim_seat=victim),
                         _ev("robbed_card", to=tuple(sorted((thief, victim))), seat=thief, victim_seat=victim,
                             resource=resource_param(card))))


# --- trading (CE-B5) ----------------------------------------------------------------------

GENERIC_HARBOUR = "generic"


def trade_ratio(resource: Resource | str, harbours: Collection[str] = ()) -> int:
    """Cards of `resource` given to the bank for one card: 4, 3 with a generic harbour, 2 with
    that resource's harbour. `harbours` names the kinds the player has a building on."""
    ratios = components().bank_trade
    if (resource.value if isinstance(resource, Resource) else Resource(resource).value) in harbours:
        return ratios.resource_harbour
    if GENERIC_HARBOUR in harbours:
        return ratios.generic_harbour
    return ratios.plain


def _sides_refusal(give: Hand, get: Hand, empty_code: str) -> IllegalAction | None:
    """Something each way, never one resource on both sides (a gift of the difference)."""
    if not give or not get:
        return IllegalAction(empty_code)
    both = [r for r, g, w in zip(RESOURCES, give.counts, get.counts) if g and w]
    if both:
        return IllegalAction("catan_express.trade_same_resource", resources=[resource_param(r) for r in both])
    return None


def _check_sides(give: Hand, get: Hand, empty_code: str) -> None:
    problem = _sides_refusal(give, get, empty_code)
    if problem is not None:
        raise problem


def bank_trade_refusal(seat: int, hand: Hand, bank: Hand, give: Hand, get: Hand,
                       harbours: Collection[str] = ()) -> IllegalAction | None:
    """Why the seat (holding `hand`) may not make this bank trade (None: it may): something
    each way, never one resource on both sides, each resource given in whole lots of its
    ratio, one card taken a lot, from cards held and cards the bank has."""
    problem = _sides_refusal(give, get, "catan_express.trade_empty")
    if problem is not None:
        return problem
    lots = 0
    for r, n in zip(RESOURCES, give.counts):
        if not n:
            continue
        ratio = trade_ratio(r, harbours)
        if n % ratio:
            return IllegalAction("catan_express.trade_ratio", resource=resource_param(r), ratio=ratio)
        lots += n // ratio
    if lots != get.total:
        return IllegalAction("catan_express.trade_unbalanced", lots=lots, count=get.total)
    if not hand.covers(give):
        short = Hand(tuple(max(0, c - h) for c, h in zip(give.counts, hand.counts)))
        return IllegalAction("catan_express.cannot_afford", seat=seat, cost=give.param(), short=short.param())
    if not bank.covers(get):
        return IllegalAction("catan_express.bank_short", resources=lacking(bank, get))
    return None


def bank_trade(holdings: Holdings, seat: int, give: Hand, get: Hand, harbours: Collection[str] = ()) -> Outcome:
    """Trade with the bank at the player's ratios; several lots at once are allowed
    (8 lumber for 2 ore), each resource given in whole lots."""
    problem = bank_trade_refusal(seat, holdings.hand(seat), holdings.bank, give, get, harbours)
    if problem is not None:
        raise problem
    new = holdings.with_hands({seat: holdings.hand(seat) - give + get}, bank=holdings.bank + give - get)
    return Outcome(new, (_ev("bank_trade", seat=seat, gave=give.param(), got=get.param()),))


def player_trade(holdings: Holdings, seat: int, give: Hand, partner: int, get: Hand) -> Outcome:
    """A trade both players accepted: `seat` gives `give` to `partner` and receives `get`.
    No gifts (both give something), no like for like, and both must hold what they give."""
    if seat == partner:
        raise IllegalAction("catan_express.trade_self")
    _check_sides(give, get, "catan_express.trade_gift")
    _need(holdings, seat, give)
    _need(holdings, partner, get, "catan_express.partner_cannot_afford", partner_seat=partner)
    new = holdings.with_hands({seat: holdings.hand(seat) - give + get,
                               partner: holdings.hand(partner) - get + give})
    return Outcome(new, (_ev("traded", seat=seat, partner_seat=partner, gave=give.param(), got=get.param()),))

