"""Trading (CE-B5): with the bank at 4:1 or a harbour's ratio, and offers to the other players,
who answer all at once and in secret; the offerer picks a partner among those who accepted
(as soon as one has), or withdraws."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.catan_express import economy
from games.catan_express.components import RESOURCES, components
from games.catan_express.economy import Hand, covers, hand_of
from games.catan_express.models import (MAX_OFFERS, Answer, BankTrade, CatanState, Menu, Offer, Partner, Propose,
                                        made, shallow)
from games.catan_express.phases.facts import (LEAST_RATIO, elsewhere, ev, harbours, holdings, is_main, one, ratios,
                                              store)
from games.catan_express.phases.moves import ANSWERS, OFFER_SET, REFUSAL, WITHDRAW, bank_trade, offers_for, partner


def bank_trades(state: CatanState, seat: int) -> list[BankTrade]:
    hand = state.players[seat].hand
    bank = state.bank
    found = None
    out = []
    for i in range(len(RESOURCES)):
        if hand[i] < LEAST_RATIO:
            continue
        if found is None:
            found = ratios(harbours(state, seat))
        ratio = found[i]
        if hand[i] < ratio:
            continue
        for j in range(len(RESOURCES)):
            if j != i and bank[j]:
                out.append(bank_trade(i, ratio, j))
    return out


def offers(state: CatanState, seat: int) -> list[Propose]:
    """The offers the rules' list suggests now (moves.offers_for); any terms `offer_problem`
    finds nothing wrong with are legal too (CE-B5)."""
    if state.offers_made >= MAX_OFFERS:
        return []
    return list(offers_for(tuple(state.players[seat].hand)))


def offer_ask_most(state: CatanState) -> int:
    """The most cards of one resource an offer may ask for: all there are in the game
    (CE-B1's bank). CE-B5 allows any terms both players accept, so this is the only bound
    on what is asked; it keeps the menu finite and refuses nothing a player could get."""
    return components().bank_size(state.n)


def offer_problem(state: CatanState, seat: int, give: Any, get: Any) -> IllegalAction | None:
    """Why an offer's terms are not allowed (None: they are; CE-B5): something each way,
    never one resource on both sides (that would be a gift of the difference), only cards
    one holds, and of each resource no more than there are in the game."""
    if min(give) < 0 or min(get) < 0 or not any(give) or not any(get):
        return IllegalAction("catan_express.trade_gift")
    both = [r for r, g, w in zip(RESOURCES, give, get) if g and w]
    if both:
        return IllegalAction("catan_express.trade_same_resource", resources=[economy.resource_param(r) for r in both])
    hand = state.players[seat].hand
    if not covers(hand, give):
        return IllegalAction("catan_express.not_held", short=economy.cards_param([max(0, g - h) for g, h in zip(give, hand)]))
    most = offer_ask_most(state)
    for i, w in enumerate(get):
        if w > most:
            return IllegalAction("catan_express.offer_more_than_exist", cards=economy.cards_param(one(i, most)))
    return None


def acceptors(state: CatanState) -> list[int]:
    return sorted(s for s, yes in state.offer.answers.items() if yes) if state.offer else []


def answer_menu(state: CatanState, seat: int) -> Menu:
    """The answer phase: the others answer; the offerer, once someone accepted, may pick."""
    if seat != state.current:
        return Menu.of("answer", ANSWERS if covers(state.players[seat].hand, state.offer.get) else REFUSAL)
    return pick_menu(state, seat)


def pick_menu(state: CatanState, seat: int) -> Menu:
    return Menu.of("partner", [WITHDRAW] + [partner(s) for s in acceptors(state)])


def bank_refusal(state: CatanState, seat: int, a: BankTrade) -> IllegalAction | None:
    """economy.bank_trade's rule (the trade itself is made through it): several lots at once
    too, which the menus do not list."""
    if not is_main(state):
        return elsewhere(state)
    return economy.bank_trade_refusal(seat, hand_of(tuple(state.players[seat].hand)), hand_of(tuple(state.bank)),
                                      Hand(a.give), Hand(a.get), harbours(state, seat))


def offer_refusal(state: CatanState, seat: int, a: Propose) -> IllegalAction | None:
    if not is_main(state):
        return elsewhere(state)
    if state.offers_made >= MAX_OFFERS:
        return IllegalAction("catan_express.offer_limit", count=MAX_OFFERS)
    return offer_problem(state, seat, a.give, a.get)


def answer_refusal(state: CatanState, seat: int, a: Answer) -> IllegalAction | None:
    if state.phase != "answer" or seat == state.current:
        return elsewhere(state)
    if not a.accept or covers(state.players[seat].hand, state.offer.get):
        return None
    return IllegalAction("catan_express.cannot_accept", cards=Hand(tuple(state.offer.get)).param())


def partner_refusal(state: CatanState, seat: int, a: Partner) -> IllegalAction | None:
    if state.phase not in ("pick", "answer") or seat != state.current:
        return elsewhere(state)
    if a.seat is None or a.seat in acceptors(state):
        return None
    return IllegalAction("catan_express.not_an_acceptor", partner_seat=a.seat)


def trade_with_bank(game: Any, s: CatanState, seat: int, a: BankTrade, events: list[Event]) -> bool:
    out = economy.bank_trade(holdings(s), seat, Hand(a.give), Hand(a.get), harbours(s, seat))
    store(s, out.holdings)
    events += out.events
    return True


def offer(game: Any, s: CatanState, seat: int, a: Propose, events: list[Event]) -> bool:
    f = s.__dict__  # plain fields, written straight (see models._Stored)
    f["offer"] = made(Offer, {"give": list(a.give), "get": list(a.get), "answers": {}}, OFFER_SET)
    f["offers_made"] += 1
    f["phase"] = "answer"
    events.append(ev("offered", seat=seat, gave=economy.cards_param(a.give), got=economy.cards_param(a.get)))
    return False


def answer(game: Any, s: CatanState, seat: int, a: Answer, events: list[Event]) -> bool:
    f = s.__dict__  # plain fields, written straight (see models._Stored); every offer has n - 1 answers
    offered = shallow(f["offer"])
    answers = offered.__dict__["answers"] = {**f["offer"].answers, seat: a.accept}
    f["offer"] = offered
    events.append(ev("answered", seat=seat))
    if len(answers) < f["n"] - 1:
        return False
    yes = sorted([x for x, v in answers.items() if v])
    no = sorted([x for x, v in answers.items() if not v])
    events.append(ev("answers", accepted_seats=yes, refused_seats=no, accepted_count=len(yes),
                     refused_count=len(no)))
    if yes:
        f["phase"] = "pick"
    else:
        f["offer"] = None
        f["phase"] = "main"
    return False


def pick(game: Any, s: CatanState, seat: int, a: Partner, events: list[Event]) -> bool:
    offered = s.offer
    if s.phase == "answer":
        # Picked before everyone answered: the answers given are told, as when all are in,
        # and the ones still to come are closed (CE-B5: the offer never holds the game).
        answers = offered.answers
        yes = sorted([x for x, v in answers.items() if v])
        no = sorted([x for x, v in answers.items() if not v])
        events.append(ev("answers_closed", accepted_seats=yes, refused_seats=no, refused_count=len(no),
                         open_seats=[x for x in range(s.n) if x != seat and x not in answers]))
    s.offer = None
    s.phase = "main"
    if a.seat is None:
        events.append(ev("offer_withdrawn", seat=seat))
        return False
    out = economy.player_trade(holdings(s), seat, Hand(tuple(offered.give)), a.seat, Hand(tuple(offered.get)))
    store(s, out.holdings)
    events += out.events
    return False
