"""Catan Express: the railway variant of Catan for 3–6 players, with its race (rulebook;
rulings CE-B1 … CE-B7, CE-M1 … CE-M3, CE-1 … CE-12).

This module wires the game together: the setup, who is waited on, the views and the result,
and the table of moves. The rules themselves are in phases/, a module per job (see its
__init__), over the pure modules beside it — economy.py (resource cards and the bank),
cards.py (the development deck), geo.py / rail.py (the rail graph), race.py (stops and
locomotives) — and the stored state of models.py. `apply` is games/core/referee.py's: the
one refusal (`refusal`, each kind's module's) is checked, the state forked (copied on write,
CatanState.fork), the kind's handler makes the move on the fork.

Speed
    Random players play whole games here (the benchmarks, the fuzzers), at more moves a second
    than catanatron's engine (versus.py measures both). So `apply` asks the kind's rule about
    the one move it is given instead of listing the menu; board facts that change only with
    the pieces and buildings are derived once per position (derived.py); the moves a menu lists
    again and again are made once and shared (phases/moves.py), and events and results are made
    without pydantic's validation of values the engine made itself (models.made). A test
    (tests/games/catan_express/test_shortcuts.py) holds each shortcut to the plain rule it stands for.

Phases
    setup    snake order (CE-B6, CE-3): a settlement; in the second round also the start cards
             and the free rail from it, where the locomotive stands
    roll     the player to move rolls, or first plays a development card (CE-B3)
    gold     gold river owners choose their cards, in turn order from the roller (CE-B1)
    discard  a 7: everyone over 7 cards discards half, all at once and in secret (CE-B4)
    robber   the roller moves the robber and robs
    main     trade, build, buy and play cards, then (in the race) move the locomotive, end
    answer   the other players answer an offer, all at once and in secret (CE-B5); as soon as
             one has accepted, the offerer may pick a partner among those who have (or
             withdraw), which closes the answers still to come; an answer nobody gives
             lapses as a refusal once the game's reminder delay has passed (`lapse_action`),
             so an offer never holds the game
    pick     everyone answered and someone accepted: the offerer picks a partner, or withdraws
    special  5–6 players: the others build in turn after each turn (CE-B7)
    stops    the race begins: stops are named in turn from the starter (CE-6, CE-7)
    over
"""
from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.protocol import Result
from games.core.referee import ANY_PHASE, Handlers, Referee
from games.core.vocabulary import Vocabulary
from games.catan_express import cards as deckmod
from games.catan_express import decisions, notation, orders, scoring
from games.catan_express.bots import BOTS
from games.catan_express.components import RESOURCES, DevCard, Resource, components
from games.catan_express.economy import Holdings
from games.catan_express.geo import Geo, board_for, layout_for
from games.catan_express.map import Board, Terrain
from games.catan_express.models import (Answer, BankTrade, Build, CatanAction, CatanOptions, CatanState, CatanView,
                                        Leg, Menu, Partner, PlayerState, Propose, Ride, Robber, SeatSummary, event)
from games.catan_express.phases import (build, devcards, discard, end, facts, gold, menus, ride, robber, roll, setup,
                                        stops, trade)
from games.catan_express.phases.facts import CHEAPEST, dv, elsewhere
from games.catan_express.phases.moves import END, NO, SEAT

# The moves that can change someone's victory points (buildings, a revealed card, Largest Army,
# chips, towers): only after these can the race's starter appear (CE-6).
SCORING_KINDS = frozenset({"build", "buy", "robber", "ride"})


def _map_id(n: int, options: CatanOptions) -> str:
    small = n <= 4
    if options.map == "islands":
        return "islands" if small else "islands_large"
    return "standard" if small else "large"


class CatanExpress(Referee[CatanState, Any, CatanView]):
    name = "catan_express"
    min_players = 3
    max_players = 6
    options_model = CatanOptions
    state_model = CatanState
    action_model = CatanAction
    view_model = CatanView
    private_information = True  # CE-12: resource and development cards are secret

    # ------------------------------------------------------------------ setup
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> CatanState:
        c = components()
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalAction("catan_express.bad_player_count", count=n_players, min=self.min_players, max=self.max_players)
        try:
            raw = options.model_dump() if isinstance(options, BaseModel) else (options or {})
            opts = CatanOptions.model_validate(raw)
        except ValidationError as exc:
            raise IllegalAction("catan_express.bad_options", detail=str(exc.errors()[0]["loc"])) from None
        map_id = _map_id(n_players, opts)
        board = board_for(map_id, opts.layout, seed)
        deck = deckmod.shuffled_deck(n_players, seed, 0)
        return CatanState(n=n_players, seed=seed, draws=1, options=opts, map_id=map_id,
                          players=[PlayerState() for _ in range(n_players)],
                          bank=[c.bank_size(n_players)] * len(RESOURCES), deck=[k.value for k in deck],
                          deck_left=len(deck), robber=board.label(board.deserts[0]))

    def board(self, state: CatanState) -> Board:
        return facts.board(state)

    def geo(self, state: CatanState) -> Geo:
        return facts.geo(state)

    def setup_order(self, state: CatanState) -> list[int]:
        return setup.order(state)

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: CatanState) -> frozenset[int]:
        phase = state.phase
        if phase == "over":
            return frozenset()
        if phase == "gold":
            return SEAT[state.gold_owed[0][0]]
        if phase == "discard":
            return frozenset(state.discards)
        if phase == "answer":
            answered = state.offer.answers
            current = state.current
            return frozenset([s for s in range(state.n) if (s not in answered and s != current)
                              or (s == current and True in answered.values())])
        if phase == "special":
            return SEAT[state.special_queue[0]]
        if phase == "stops":
            return SEAT[state.stop_queue[0]]
        return SEAT[state.current]

    def is_active(self, state: CatanState, seat: int) -> bool:
        """`seat in active_players(state)`, without building the set."""
        phase = state.phase
        if phase == "answer":
            if seat == state.current:  # once someone accepted, the offerer may pick (CE-B5)
                return True in state.offer.answers.values()
            return 0 <= seat < state.n and seat not in state.offer.answers
        if phase == "over":
            return False
        if phase == "gold":
            return state.gold_owed[0][0] == seat
        if phase == "discard":
            return seat in state.discards
        if phase == "special":
            return state.special_queue[0] == seat
        if phase == "stops":
            return state.stop_queue[0] == seat
        return state.current == seat

    # ------------------------------------------------------------------ legal moves and making them
    def legal_actions(self, state: CatanState, seat: int) -> list[Any]:
        if not self.is_active(state, seat):
            return Menu.empty()
        return menus.BY_PHASE[state.phase](state, seat)

    def phase_of(self, state: CatanState) -> str:
        return state.phase

    def refusal(self, state: CatanState, seat: int, action: Any) -> IllegalAction | None:
        """The kind's rule (phases/): None when the move is allowed now, else the most useful
        reason. Wider than the menus in three ways: a bank trade of several lots at once, an
        offer on any terms (CE-B5), a ride along any legal path (the menus list single legs
        and one route per stop)."""
        rule = _REFUSALS.get(action.kind)
        return elsewhere(state) if rule is None else rule(state, seat, action)

    def fork(self, state: CatanState) -> CatanState:
        return state.fork()

    def after_move(self, before: CatanState, s: CatanState, seat: int, action: Any, events: list[Event]) -> None:
        # The public counts (CE-12) follow the cards: facts.store counts a hand it writes, and
        # the moves that change development cards count those.
        f = s.__dict__
        f["deck_left"] = len(f["deck"])
        if action.kind in SCORING_KINDS:
            stops.check_starter(s, events)
        f["last"] = events

    # ------------------------------------------------------------------ what bots, menus and views ask
    def holdings(self, state: CatanState) -> Holdings:
        return facts.holdings(state)

    def pieces_left(self, state: CatanState, seat: int, what: str) -> int:
        return facts.pieces_left(state, seat, what)

    def city_cap(self, state: CatanState) -> int:
        return facts.city_cap(state)

    def touched(self, state: CatanState, geo: Geo, point: int) -> bool:
        return facts.touched(state, point)

    def harbours(self, state: CatanState, seat: int) -> set[str]:
        return set(facts.harbours(state, seat))

    def points_by_seat(self, state: CatanState) -> list[dict[str, int]]:
        return facts.points_by_seat(state)

    def points(self, state: CatanState, seat: int) -> dict[str, int]:
        return facts.points_by_seat(state)[seat]

    def total(self, state: CatanState, seat: int) -> int:
        return facts.totals(state)[seat]

    def totals(self, state: CatanState) -> list[int]:
        return facts.totals(state)

    def settlement_spots(self, state: CatanState, geo: Geo) -> list[int]:
        """Free intersections no building neighbours and no rail or ferry touches (CE-4, CE-B6)."""
        return list(dv(state).settlement_spots())

    def piece_spots(self, state: CatanState, geo: Geo, seat: int, what: str) -> list[str]:
        """Spokes (rails) or coast edges (ferries) sharing a point with the seat's network and
        not already holding one of the seat's pieces (CE-2)."""
        return list(dv(state).spots(seat, what))

    def builds(self, state: CatanState, seat: int) -> list[Build]:
        return build.builds(state, seat)

    def robber_moves(self, state: CatanState, seat: int, knight: bool) -> list[Robber]:
        return robber.moves(state, seat, knight)

    def can_play(self, state: CatanState, seat: int, card: DevCard) -> bool:
        return facts.can_play(state, seat, card)

    def card_plays(self, state: CatanState, seat: int) -> list[Any]:
        return devcards.plays(state, seat)

    def can_buy(self, state: CatanState, seat: int) -> bool:
        return devcards.can_buy(state, seat)

    def bank_trades(self, state: CatanState, seat: int) -> list[BankTrade]:
        return trade.bank_trades(state, seat)

    def offers(self, state: CatanState, seat: int) -> list[Propose]:
        return trade.offers(state, seat)

    def offer_ask_most(self, state: CatanState) -> int:
        return trade.offer_ask_most(state)

    def offer_problem(self, state: CatanState, seat: int, give: Any, get: Any) -> IllegalAction | None:
        return trade.offer_problem(state, seat, give, get)

    def acceptors(self, state: CatanState) -> list[int]:
        return trade.acceptors(state)

    def ride_legs(self, state: CatanState, seat: int) -> list[Ride]:
        return ride.legs(state, seat)

    def ride_routes(self, state: CatanState, seat: int) -> list[Ride]:
        return ride.routes(state, seat)

    def may_ride(self, state: CatanState, seat: int) -> bool:
        return ride.may_ride(state, seat)

    def transfer_stop(self, state: CatanState) -> bool:
        return ride.transfer_stop(state)

    def race_stuck(self, state: CatanState) -> bool:
        return end.race_stuck(state)

    # ------------------------------------------------------------------ view and result
    def view(self, state: CatanState, seat: int | None) -> CatanView:
        shown = state.clone()
        shown.seed = 0  # it would tell the dice and the deck; the board goes by name (view.board)
        shown.deck = []
        for i, p in enumerate(shown.players):
            if i != seat:
                p.hand = None
                p.dev = None
                p.dev_new = None
        if shown.offer is not None and state.phase == "answer" and seat != state.current:
            # an answer is secret from the other answerers; the offerer sees them, to pick
            shown.offer.answers = {s: v for s, v in shown.offer.answers.items() if s == seat}
        shown.last = [e for e in shown.last if e.to is None or (seat is not None and seat in e.to)]
        legal = [self.format_action(a) for a in self.legal_actions(state, seat)] if seat is not None else []
        board = layout_for(state.map_id, state.options.layout, state.seed)
        return CatanView(viewer=seat, state=shown, board=board, seats=self.summaries(state),
                         active=sorted(self.active_players(state)), legal=legal, result=self.result(state),
                         accepted=self.acceptors(state) if state.phase == "pick" or (
                             state.phase == "answer" and seat == state.current) else [])

    def summaries(self, state: CatanState) -> list[SeatSummary]:
        geo = self.geo(state)
        totals = self.totals(state)
        out = []
        for i, p in enumerate(state.players):
            kinds = [b.kind for b in state.buildings.values() if b.seat == i]
            mine = [geo.kind[x] for x, owners in state.pieces.items() if i in owners]
            out.append(SeatSummary(points=totals[i], cards=p.cards, dev_cards=p.dev_cards,
                                   knights=p.knights, towers=len(p.towers), chips=len(p.chips),
                                   settlements=kinds.count("settlement"), cities=kinds.count("city"),
                                   rails=mine.count("rail"), ferries=mine.count("ferry"),
                                   largest_army=state.largest_army == i, fastest=p.fastest,
                                   harbours=sorted(facts.harbours(state, i)),
                                   ratios=list(facts.ratios(facts.harbours(state, i)))))
        return out

    def ranking(self, state: CatanState) -> list[int]:
        """The seats in CE-10 order, the game over or not."""
        return scoring.ranking(state)

    def result(self, state: CatanState) -> Result | None:
        return scoring.final_result(state) if state.phase == "over" else None

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    def describe_action(self, state: CatanState, seat: int, action: Any) -> Event:
        return decisions.describe(self, state, seat, action)

    def decision(self, state: CatanState, seat: int) -> Decision:
        return decisions.decision(self, state, seat)

    def prompt(self, state: CatanState, seat: int) -> Event | None:
        return decisions.prompt(self, state, seat)

    def forced_action(self, state: CatanState, seat: int) -> Any:
        """A move the platform makes for the seat at once, because the number of cards in its
        hand, which everyone sees (CE-12), leaves it no other: refusing an offer that asks for
        more cards than it holds, ending a special building turn (CE-B7) with fewer cards than
        the cheapest build costs. Which cards a hand holds stays secret: a hand big enough to
        pay is asked, even when its cards cannot."""
        if not self.is_active(state, seat):
            return None
        held = sum(state.players[seat].hand)
        if state.phase == "answer" and seat != state.current and held < sum(state.offer.get):
            return NO
        if state.phase == "special" and held < CHEAPEST:
            return END
        return None

    def public_notation(self, action: Any) -> str:
        # A discard and an answer name cards or choices the others may not see (CE-12): the
        # log says only what kind of move it was. (A gold river's cards are told to all, as
        # production is.)
        if action.kind in ("discard", "answer"):
            return action.kind
        return self.format_action(action)

    def describe_public(self, state: CatanState, seat: int, action: Any) -> Event | None:
        # What the others may know of a discard or an answer made for a seat: that it was made
        # (and a discard's size, which the counts show anyway), never the cards or the answer.
        if action.kind == "answer":
            return event("catan_express.do.answer_public", {})
        if action.kind == "discard":
            return event("catan_express.do.discard_public", {"count": sum(action.cards)})
        return None

    def vocabulary(self) -> Vocabulary:
        return Vocabulary()

    def timeout_action(self, state: CatanState, seat: int) -> Any:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("no_legal_action")
        if state.phase == "answer" and seat != state.current:
            return Answer(accept=False)
        if state.phase in ("answer", "pick"):
            return Partner()
        return legal[0]

    def lapse_action(self, state: CatanState, seat: int) -> Any:
        """An answer to an offer that nobody gave within the game's reminder delay is a
        refusal (CE-B5: the offerer trades with those who accept; one who does not answer
        has not accepted), so an offer never holds the game. It reveals nothing: the same
        move for every hand."""
        if state.phase == "answer" and seat != state.current and self.is_active(state, seat):
            return NO
        return None

    # --- standing orders (orders.py): answers set in advance, kept for the whole game
    def order_choices(self, state: CatanState, seat: int) -> Decision:
        return orders.choices(self, state, seat)

    def follow_orders(self, state: CatanState, seat: int, standing: Any) -> tuple[Any, list[str]]:
        return orders.follow(self, state, seat, standing)

    def describe_order(self, state: CatanState, seat: int, order: str) -> Event:
        return orders.describe(state, seat, order)

    def orders_after_own_move(self, state: CatanState, seat: int, standing: Any, action: Any) -> list[str]:
        return orders.kept_after_own_move(standing)

    def check_invariants(self, state: CatanState) -> None:
        c = components()
        size = c.bank_size(state.n)
        for i in range(len(RESOURCES)):
            total = state.bank[i] + sum(p.hand[i] for p in state.players)
            assert total == size, (RESOURCES[i], total, size)
        deck = c.deck(state.n).size
        held = sum(sum(p.dev) + sum(p.dev_new) + p.vp_cards + sum(p.played) for p in state.players)
        assert len(state.deck) + held == deck, (len(state.deck), held, deck)
        for seat, p in enumerate(state.players):  # the public counts follow the cards (CE-12)
            assert p.cards == sum(p.hand) and p.dev_cards == sum(p.dev) + sum(p.dev_new), seat
        for seat in range(state.n):
            for what in ("settlement", "city", "rail", "ferry"):
                assert self.pieces_left(state, seat, what) >= 0, (seat, what)

    def bots(self) -> dict[str, Any]:
        return BOTS




_REFUSALS: dict[str, Callable[[CatanState, int, Any], IllegalAction | None]] = {
    "build": build.refusal,
    "roll": roll.refusal,
    "gold": gold.refusal,
    "discard": discard.refusal,
    "robber": robber.refusal,
    "buy": devcards.buy_refusal,
    "monopoly": devcards.monopoly_refusal,
    "plenty": devcards.plenty_refusal,
    "roads": devcards.roads_refusal,
    "bank": trade.bank_refusal,
    "offer": trade.offer_refusal,
    "answer": trade.answer_refusal,
    "partner": trade.partner_refusal,
    "ride": ride.refusal,
    "stop": stops.refusal,
    "end": end.refusal,
}

CatanExpress.handlers = Handlers({
    ("setup", "build"): setup.place,
    (ANY_PHASE, "build"): build.make,
    ("roll", "roll"): roll.roll,
    ("gold", "gold"): gold.take,
    ("discard", "discard"): discard.discard,
    (ANY_PHASE, "robber"): robber.move,  # after a 7, or a knight before the roll or after it
    (ANY_PHASE, "buy"): devcards.buy,
    (ANY_PHASE, "monopoly"): devcards.monopoly,
    (ANY_PHASE, "plenty"): devcards.plenty,
    (ANY_PHASE, "roads"): devcards.roads,
    ("main", "bank"): trade.trade_with_bank,
    ("main", "offer"): trade.offer,
    ("answer", "answer"): trade.answer,
    (ANY_PHASE, "partner"): trade.pick,
    ("main", "ride"): ride.move,
    ("stops", "stop"): stops.name,
    ("main", "end"): end.end,
    ("special", "end"): end.end_special,
})

GAME = CatanExpress()

__all__ = ["GAME", "CatanExpress", "Resource", "Terrain", "Leg"]
