"""Catan Express's development cards: the deck for the player count (seeded shuffle), buying and
drawing, the one-card-per-turn and not-bought-this-turn rules, victory point cards revealed at
once, Largest Army, and what Monopoly, Year of Plenty and Road Building do (CE-B3, CE-2, CE-5).

Why it is shaped so
    A player's cards are a small frozen value (`PlayerCards`): cards held from earlier turns,
    cards bought this turn (not yet playable), whether one was played this turn, knights played
    and victory point cards revealed. The engine keeps one per seat and the deck as a tuple;
    each function returns new values plus events. Which cards a player holds is private
    (CE-12): those events go to the holder only, while the count stays public. Resource moves go
    through games/catan_express/economy.py so the bank's conservation holds here too.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.rng import SeededRng
from games.catan_express.components import DevCard, Resource, components
from games.catan_express.economy import Hand, Holdings, Outcome, lacking, cost, pay, resource_param
from games.catan_express.models import event

KINDS: tuple[DevCard, ...] = tuple(DevCard)


def _ev(key: str, to: tuple[int, ...] | None = None, **params) -> Event:
    return event(f"catan_express.ev.{key}", params, to)


def card_param(card: DevCard) -> dict:
    return {"key": f"catan_express.card.{card.value}"}


# --- the deck -----------------------------------------------------------------------------

def deck_for(players: int) -> tuple[DevCard, ...]:
    """The unshuffled deck (CE-B3: 25 = 14/5/2/2/2, or 34 = 20/5/3/3/3 with 5–6 players)."""
    c = components()
    if not c.players.min <= players <= c.players.max:
        raise IllegalAction("catan_express.bad_player_count", count=players, min=c.players.min, max=c.players.max)
    counts = c.deck(players).cards
    return tuple(k for k in KINDS for _ in range(counts[k]))


def shuffled_deck(players: int, seed: int, counter: int) -> tuple[DevCard, ...]:
    cards = list(deck_for(players))
    SeededRng(seed, counter, "ce.deck").shuffle(cards)
    return tuple(cards)


def draw(deck: tuple[DevCard, ...]) -> tuple[DevCard, tuple[DevCard, ...]]:
    """The top card and the rest."""
    if not deck:
        raise IllegalAction("catan_express.deck_empty")
    return deck[0], deck[1:]


# --- one player's cards -------------------------------------------------------------------

def _counts(**n: int) -> tuple[int, ...]:
    return tuple(n.get(k.value, 0) for k in KINDS)


def _bump(counts: tuple[int, ...], card: DevCard, by: int) -> tuple[int, ...]:
    i = KINDS.index(card)
    return counts[:i] + (counts[i] + by,) + counts[i + 1:]


@dataclass(frozen=True, slots=True)
class PlayerCards:
    """One seat's development cards. `held` and `new` count cards by kind in KINDS order;
    `new` are those bought this turn, which may not be played until the next."""

    seat: int
    held: tuple[int, ...] = _counts()
    new: tuple[int, ...] = _counts()
    played_this_turn: bool = False
    knights: int = 0
    points: int = 0

    def count(self, card: DevCard) -> int:
        return self.held[KINDS.index(card)] + self.new[KINDS.index(card)]

    @property
    def in_hand(self) -> int:
        """The public count of unplayed cards (revealed victory points are not in the hand)."""
        return sum(self.held) + sum(self.new)

    def receive(self, card: DevCard) -> tuple["PlayerCards", tuple[Event, ...]]:
        """A card just drawn. A victory point card is revealed at once and counts from now
        (CE-5); any other card joins the hand, playable from the next turn."""
        if card is DevCard.VICTORY_POINT:
            return replace(self, points=self.points + 1), (
                _ev("vp_revealed", seat=self.seat, points=self.points + 1),)
        return replace(self, new=_bump(self.new, card, 1)), (
            _ev("bought_card", seat=self.seat),
            _ev("drew_card", to=(self.seat,), seat=self.seat, card=card_param(card)))

    def play(self, card: DevCard) -> tuple["PlayerCards", tuple[Event, ...]]:
        """Play one card (CE-B3): at most one a turn, never one bought this turn. What the card
        does is the caller's next step (`monopoly`, `year_of_plenty`, `road_building_pieces`,
        moving the robber)."""
        if card is DevCard.VICTORY_POINT:
            raise IllegalAction("catan_express.card_not_playable")
        if self.played_this_turn:
            raise IllegalAction("catan_express.card_already_played")
        i = KINDS.index(card)
        if not self.held[i]:
            if self.new[i]:
                raise IllegalAction("catan_express.card_bought_this_turn", card=card_param(card))
            raise IllegalAction("catan_express.card_not_held", card=card_param(card))
        after = replace(self, held=_bump(self.held, card, -1), played_this_turn=True,
                        knights=self.knights + (card is DevCard.KNIGHT))
        return after, (_ev("played_card", seat=self.seat, card=card_param(card)),)

    def end_turn(self) -> "PlayerCards":
        """At the end of the owner's turn this turn's purchases become playable."""
        return replace(self, held=tuple(a + b for a, b in zip(self.held, self.new)), new=_counts(),
                       played_this_turn=False)


@dataclass(frozen=True, slots=True)
class Purchase:
    holdings: Holdings
    cards: PlayerCards
    deck: tuple[DevCard, ...]
    events: tuple[Event, ...]


def buy(holdings: Holdings, cards: PlayerCards, deck: tuple[DevCard, ...]) -> Purchase:
    """Buy the top card: ore + wool + grain to the bank (CE-B2); refused on an empty deck
    before anything is paid."""
    card, rest = draw(deck)
    paid = pay(holdings, cards.seat, cost("development_card"), reason="development_card")
    after, events = cards.receive(card)
    return Purchase(paid.holdings, after, rest, paid.events + events)


# --- Largest Army -------------------------------------------------------------------------

def largest_army(holder: int | None, knights: Mapping[int, int], played_by: int) -> tuple[int | None, tuple[Event, ...]]:
    """Who holds Largest Army after `played_by` played a knight (CE-B3): the first to 3 knights
    takes it; it passes only to a player with strictly more knights than the holder."""
    rule = components().largest_army
    mine = knights.get(played_by, 0)
    if holder == played_by or mine < rule.knights:
        return holder, ()
    if holder is not None and mine <= knights.get(holder, 0):
        return holder, ()
    if holder is None:
        return played_by, (_ev("largest_army", seat=played_by, knights=mine, points=rule.points),)
    return played_by, (_ev("largest_army_passed", seat=played_by, from_seat=holder, knights=mine,
                           points=rule.points),)


# --- what the cards do --------------------------------------------------------------------

def monopoly(holdings: Holdings, seat: int, resource: Resource | str) -> Outcome:
    """Every other player hands over all their cards of one resource."""
    resource = Resource(resource)
    taken = {s: h.only(resource) for s, h in enumerate(holdings.hands) if s != seat and h[resource]}
    gained = Hand.of({resource: sum(h.total for h in taken.values())})
    changes = {s: holdings.hand(s) - h for s, h in taken.items()}
    changes[seat] = holdings.hand(seat) + gained
    return Outcome(holdings.with_hands(changes),
                   (_ev("monopoly", seat=seat, resource=resource_param(resource), count=gained.total),))


def year_of_plenty(holdings: Holdings, seat: int, picks: Hand) -> Outcome:
    """Two cards of the player's choice from the bank (the same twice allowed); only what the
    bank holds, so with fewer than two cards left in it the player takes what there is."""
    due = min(components().year_of_plenty_cards, holdings.bank.total)
    if picks.total != due:
        raise IllegalAction("catan_express.plenty_count", count=due)
    if not holdings.bank.covers(picks):
        raise IllegalAction("catan_express.bank_short", resources=lacking(holdings.bank, picks))
    new = holdings.with_hands({seat: holdings.hand(seat) + picks}, bank=holdings.bank - picks)
    return Outcome(new, (_ev("year_of_plenty", seat=seat, cards=picks.param()),))


def road_building_pieces(rails_left: int, ferries_left: int) -> int:
    """Free pieces Road Building gives (CE-2: two rails or ferries), fewer if the player has
    fewer pieces left in stock."""
    return min(components().road_building_pieces, rails_left + ferries_left)
