"""Ticket to Ride's decisions as menus (games/core/choices.py).

A turn is one step for the draws and the ticket draw, and three for a claim: "claim a
route", which route, how to pay (the payment is taken without asking when only one way
exists). A route is a place named as players know it (its two cities, and for a double
route which half), so the route step is shown on the map only when many routes are
claimable (bot/discord/chooser.on_board). A ticket choice is a group: keep between `keep_min` and all of the offered
tickets; it is secret, and its key names the offered tickets, so another player's move never
makes it stale (TTR-1: the opening choice is simultaneous).
"""
from __future__ import annotations

import threading
from typing import Any

from games.core.choices import Choice, Decision, Group, Pick, Place
from games.core.events import Event
from games.ticket_to_ride import notation
from games.ticket_to_ride.models import Claim, DrawCard, DrawTickets, TicketToRideState

ACTION, ROUTE, PAYMENT, KEEP = "ticket_to_ride.step.action", "ticket_to_ride.step.route", "ticket_to_ride.step.payment", "ticket_to_ride.step.keep"


def decision(game: Any, state: TicketToRideState, seat: int) -> Decision:
    board = game.board
    prompt = game.prompt(state, seat)
    if seat not in game.active_players(state):
        return Decision(seat=seat, prompt=prompt)
    player = state.players[seat]
    if player.offered:
        items = tuple(Pick(step=KEEP, value=str(t), label=Event(**notation.ticket_words(board, t)))
                      for t in sorted(player.offered))
        return Decision(
            seat=seat, key="keep:" + ",".join(str(t) for t in sorted(player.offered)), secret=True,
            prompt=prompt,
            groups=[Group(step=KEEP, items=items, min=player.keep_min, max=len(items), template="keep {}")],
        )
    choices: list[Choice] = []
    for action in game.legal_actions(state, seat):
        text = game.format_action(action)
        if isinstance(action, Claim):
            choices.append(_claim_choice(board, action, text))
            continue
        icon = action.source if isinstance(action, DrawCard) else "tickets" if isinstance(action, DrawTickets) else None
        label = game.describe_action(state, seat, action)
        choices.append(Choice(notation=text, path=(Pick(step=ACTION, value=text, label=label, icon=icon),)))
    return Decision(seat=seat, prompt=prompt, choices=choices)


# A claim's choice says only what the board and the claim's notation say, and choices are
# immutable: made once per claim and board, not for each of the hundreds of claims on every menu
# (a late menu cost 1-3 ms in them). By notation, with the board (so its id is never another's).
# The picks they share are made once too (the claim entry; a route's; a payment's, by its words
# and the route's length), so a kept choice costs little more than the Choice itself (a map has
# about a thousand claims).
_CLAIMS: dict[tuple[int, str], tuple[Any, Choice]] = {}
_ROUTE_PICKS: dict[tuple[int, int], tuple[Any, Pick]] = {}
_PAY_PICKS: dict[tuple[str, int], Pick] = {}
_CLAIMS_LOCK = threading.Lock()
CLAIMS_KEPT = 4096
_CLAIM_PICK = Pick(step=ACTION, value="claim", label=Event(key="ticket_to_ride.act.claim_menu"), icon="claim")


def _claim_choice(board: Any, action: Claim, text: str) -> Choice:
    kept = _CLAIMS.get((id(board), text))
    if kept is not None and kept[0] is board:
        return kept[1]
    route = board.routes[action.route]
    pay = text.rsplit(" ", 1)[1]  # "red", "red+2" or "locomotive": unique per route
    choice = Choice(notation=text, path=(_CLAIM_PICK, _route_pick(board, route), _pay_pick(action, pay, route.length)))
    with _CLAIMS_LOCK:
        if len(_CLAIMS) >= CLAIMS_KEPT:
            _CLAIMS.pop(next(iter(_CLAIMS)))
        _CLAIMS[(id(board), text)] = (board, choice)
    return choice


def _route_pick(board: Any, route: Any) -> Pick:
    kept = _ROUTE_PICKS.get((id(board), route.id))
    if kept is not None and kept[0] is board:
        return kept[1]
    pick = Pick(
        step=ROUTE, value=str(route.id), label=Event(**notation.route_words(board, route.id)),
        detail=Event(key="ticket_to_ride.choice.route_detail",
                     params={"points": board.rules.route_points[route.length], "length": route.length}),
        icon=route.color, place=route_place(board, route.id),
    )
    with _CLAIMS_LOCK:
        if len(_ROUTE_PICKS) >= CLAIMS_KEPT:
            _ROUTE_PICKS.pop(next(iter(_ROUTE_PICKS)))
        _ROUTE_PICKS[(id(board), route.id)] = (board, pick)
    return pick


def _pay_pick(action: Claim, pay: str, length: int) -> Pick:
    """The payment step; `pay` names the colour and the locomotives (payment_words reads no more)."""
    pick = _PAY_PICKS.get((pay, length))
    if pick is None:
        pick = Pick(step=PAYMENT, value=pay, label=Event(**notation.payment_words(action, length)), icon=action.color)
        with _CLAIMS_LOCK:
            if len(_PAY_PICKS) >= CLAIMS_KEPT:
                _PAY_PICKS.pop(next(iter(_PAY_PICKS)))
            _PAY_PICKS[(pay, length)] = pick
    return pick


def route_place(board: Any, route_id: int) -> Place:
    """A route as a place: its cities, and for a half of a double route what tells the halves
    apart in its code (its colour, or 1 and 2 for grey twins)."""
    route = board.routes[route_id]
    half = route.code.split("/", 1)[1:] if "/" in route.code else []
    return Place(kind="route", at=(route.a, route.b, *half), named=True)
