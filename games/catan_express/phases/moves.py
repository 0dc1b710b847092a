"""The moves Catan Express's menus list again and again, made once: they are frozen values,
so states and menus share them, and a menu of hundreds (offers, discards) is built from cached
tuples. Also the names pydantic records as set for models made without validation
(models.made)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.catan_express import race
from games.catan_express.geo import board_for
from games.catan_express.models import (OFFER_GET_MAX, OFFER_GIVE_MAX, Answer, BankTrade, Build, Building, Buy,
                                        Discard, End, Gold, Leg, Monopoly, NameStop, Partner, Plenty, Propose, Ride,
                                        Roads, Robber, Roll)
from games.catan_express.components import RESOURCES
from games.catan_express.phases.facts import one


def multisets(limits: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """Every way to take `size` cards from counts `limits` (a hand, the bank), as counts, the
    most of the first resource first. Cached: hands repeat all game long."""
    return _multisets(tuple(limits), size)


@lru_cache(maxsize=8192)
def _multisets(limits: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    if len(limits) == 5:
        return _multisets5(limits, size)
    return multisets_by_recursion(limits, size)


def multisets_by_recursion(limits: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """The plain definition of `multisets`, for any number of counts (uncached); the five-count
    shortcut below must list exactly these, in this order."""
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: tuple[int, ...]) -> None:
        if i == len(limits) - 1:
            if left <= limits[i]:
                out.append(acc + (left,))
            return
        for k in range(min(left, limits[i]), -1, -1):
            rec(i + 1, left - k, acc + (k,))

    if size <= sum(limits):
        rec(0, size, ())
    return tuple(out)


def _multisets5(limits: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """_multisets of five counts, the recursion unrolled (a discard from a big hand lists a
    thousand), in the same order."""
    if size > sum(limits):
        return ()
    l0, l1, l2, l3, l4 = limits
    out = []
    for a in range(min(size, l0), -1, -1):
        r1 = size - a
        for b in range(min(r1, l1), -1, -1):
            r2 = r1 - b
            for c in range(min(r2, l2), -1, -1):
                r3 = r2 - c
                for d in range(min(r3, l3), max(r3 - l4, 0) - 1, -1):
                    out.append((a, b, c, d, r3 - d))
    return tuple(out)


def offers_for(hand: tuple[int, ...]) -> tuple[Propose, ...]:
    """The offers the rules' list suggests (models.OFFER_GIVE_MAX): 1 to OFFER_GIVE_MAX of the
    hand's cards for 1 to OFFER_GET_MAX cards of resources it does not give (no gifts, no like
    for like); any terms are legal (CE-B5, trade.offer_problem). The moves are frozen values,
    so the list is built once per hand and shared; and since no offer gives more than
    OFFER_GIVE_MAX of a resource, hands alike up to that many of each share one list (a
    thousand lists at most)."""
    return _offers(tuple([n if n < OFFER_GIVE_MAX else OFFER_GIVE_MAX for n in hand]))


@lru_cache(maxsize=2048)
def _offers(hand: tuple[int, ...]) -> tuple[Propose, ...]:
    out: list[Propose] = []
    for k in range(1, OFFER_GIVE_MAX + 1):
        for give in _multisets(hand, k):
            out += _offers_giving(give)
    return tuple(out)


@lru_cache(maxsize=256)
def _offers_giving(give: tuple[int, ...]) -> tuple[Propose, ...]:
    """The offers giving exactly `give`, in the menus' order."""
    free = tuple(0 if g else OFFER_GET_MAX for g in give)
    return tuple(Propose(give=give, get=get) for m in range(1, OFFER_GET_MAX + 1) for get in _multisets(free, m))


def card_moves(kind: str, limits: tuple[int, ...], size: int) -> tuple[Any, ...]:
    """Every discard, gold choice or Year of Plenty of `size` cards from `limits` (the hand or
    the bank), made once per hand (a big hand has hundreds); counts above `size` allow no more
    than `size` itself, so hands alike up to that share the list."""
    return _card_moves_capped(kind, tuple([n if n < size else size for n in limits]), size)


@lru_cache(maxsize=4096)
def _card_moves_capped(kind: str, limits: tuple[int, ...], size: int) -> tuple[Any, ...]:
    return tuple(_card_move(kind, m) for m in _multisets(limits, size))


@lru_cache(maxsize=32768)
def _card_move(kind: str, cards: tuple[int, ...]) -> Any:
    return CARD_MODELS[kind](cards=cards)


@lru_cache(maxsize=2048)
def robber(hex_label: str, victim: int | None, knight: bool) -> Robber:
    return Robber(hex=hex_label, victim=victim, knight=knight)


@lru_cache(maxsize=1024)
def build(what: str, at: str) -> Build:
    """The move, made once per place: the same builds are listed move after move."""
    return Build(what=what, at=at)


@lru_cache(maxsize=64)
def building(seat: int, kind: str) -> Building:
    """A building, made once per seat and kind (frozen, so states share it)."""
    return Building(seat=seat, kind=kind)


@lru_cache(maxsize=64)
def partner(seat: int) -> Partner:
    return Partner(seat=seat)


@lru_cache(maxsize=1024)
def stop(at: int) -> NameStop:
    return NameStop(at=at)


@lru_cache(maxsize=4096)
def _ride_of(to: str, payee: int | None, resource: str | None) -> Ride:
    return Ride(legs=(race.leg(to, payee, resource),))


def ride(leg: Leg) -> Ride:
    """The one-leg ride, made once per leg: the same steps are listed turn after turn."""
    return _ride_of(leg.to, leg.payee, leg.resource)


@lru_cache(maxsize=1024)
def bank_trade(give: int, ratio: int, get: int) -> BankTrade:
    return BankTrade(give=one(give, ratio), get=one(get, 1))


@lru_cache(maxsize=64)
def land_labels(map_id: str, layout: str, seed: int) -> tuple[str, ...]:
    """The land hexes' labels in the board's order (where the robber may go)."""
    b = board_for(map_id, layout, seed)
    return tuple(b.label(x.hex) for x in b.land)


@lru_cache(maxsize=64)
def land_label_set(map_id: str, layout: str, seed: int) -> frozenset[str]:
    return frozenset(land_labels(map_id, layout, seed))


class _Seats(dict):
    """seat -> frozenset((seat,)), made once per seat (who is to move, on every move)."""

    def __missing__(self, seat: int) -> frozenset[int]:
        out = self[seat] = frozenset((seat,))
        return out


SEAT = _Seats()
END, ROLL, BUY = End(), Roll(), Buy()
ENDS, ROLLS, BUYS = (END,), (ROLL,), (BUY,)
MONOPOLIES = tuple(Monopoly(resource=r.value) for r in RESOURCES)
ROADS = Roads()
YES, NO = Answer(accept=True), Answer(accept=False)
ANSWERS, REFUSAL = (YES, NO), (NO,)
WITHDRAW = Partner()
CARD_MODELS = {"discard": Discard, "gold": Gold, "plenty": Plenty}
LEGS_SET = {"legs"}
OFFER_SET = {"give", "get"}
