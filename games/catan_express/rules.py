"""Catan Express: the railway variant of Catan for 3–6 players, with its race (rulebook;
rulings CE-B1 … CE-B7, CE-M1 … CE-M3, CE-1 … CE-12).

The engine strings together the pure modules beside it — economy.py (resource cards and the
bank), cards.py (the development deck), geo.py / rail.py (the rail graph), race.py (stops and
locomotives) — over the stored state of models.py. `apply` forks the state (copied on write,
CatanState.fork), changes the fork and returns it with the move's events.

Speed
    Random players play whole games here (the benchmarks, the fuzzers), at more moves a second
    than catanatron's engine (versus.py measures both). So `apply` asks the rule for the one
    move it is given (`allows`) instead of listing the menu; board facts that change only with
    the pieces and buildings are derived once per position (derived.py); the moves a menu lists
    again and again are made once and shared (frozen values), and events and results are made
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

import random
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.protocol import ApplyResult, Game, PlayerResult, Result, ScoreLine, Tie
from games.core.ranking import TieBreak, rank
from games.core.rng import SeededRng, derive
from games.core.vocabulary import Vocabulary
from games.catan_express import cards as deckmod
from games.catan_express import decisions, economy, notation, orders, race
from games.catan_express.benchmarks import benchmark_lines
from games.catan_express.bots import BOTS
from games.catan_express.cards import KINDS, PlayerCards
from games.catan_express.components import RESOURCES, DevCard, Resource, components
from games.catan_express.derived import Derived, derived
from games.catan_express.economy import Hand, Holdings, covers, hand_of
from games.catan_express.geo import Geo, board_for, geo_for, harbour_kinds, layout_for
from games.catan_express.maps import Board, Terrain
from games.catan_express.models import (MAX_OFFERS, OFFER_GET_MAX, OFFER_GIVE_MAX, Answer, BankTrade, Build,
                                        Building, Buy, CatanAction, CatanOptions, CatanState, CatanView, Discard, End,
                                        Gold, Leg, Monopoly, NameStop, Offer, Partner, Plenty, PlayerState, Propose,
                                        Menu, Ride, Roads, Robber, Roll, SeatSummary, event, made, shallow)

# The moves that can change someone's victory points (buildings, a revealed card, Largest Army,
# chips, towers): only after these can the race's starter appear (CE-6).
SCORING_KINDS = frozenset({"build", "buy", "robber", "ride"})
CATEGORIES = ["settlements", "cities", "vp_cards", "chips", "largest_army", "towers", "fastest_driver"]


def _ev(key: str, to: tuple[int, ...] | None = None, **params: Any) -> Event:
    return event(f"ce.ev.{key}", params, to)


def _map_id(n: int, options: CatanOptions) -> str:
    small = n <= 4
    if options.map == "islands":
        return "islands" if small else "islands_large"
    return "standard" if small else "large"


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


def offers_for(hand: tuple[int, ...]) -> tuple["Propose", ...]:
    """The offers the rules' list suggests (models.OFFER_GIVE_MAX): 1 to OFFER_GIVE_MAX of the
    hand's cards for 1 to OFFER_GET_MAX cards of resources it does not give (no gifts, no like
    for like); any terms are legal (CE-B5, `CatanExpress.offer_problem`). The moves are frozen
    values, so the list is built once per hand and shared; and since no offer gives more than
    OFFER_GIVE_MAX of a resource, hands alike up to that many of each share one list (a
    thousand lists at most)."""
    return _offers(tuple([n if n < OFFER_GIVE_MAX else OFFER_GIVE_MAX for n in hand]))


@lru_cache(maxsize=2048)
def _offers(hand: tuple[int, ...]) -> tuple["Propose", ...]:
    out: list[Propose] = []
    for k in range(1, OFFER_GIVE_MAX + 1):
        for give in _multisets(hand, k):
            out += _offers_giving(give)
    return tuple(out)


@lru_cache(maxsize=256)
def _offers_giving(give: tuple[int, ...]) -> tuple["Propose", ...]:
    """The offers giving exactly `give`, in the menus' order."""
    free = tuple(0 if g else OFFER_GET_MAX for g in give)
    return tuple(Propose(give=give, get=get) for m in range(1, OFFER_GET_MAX + 1) for get in _multisets(free, m))


class CatanExpress(Game[CatanState, Any, CatanView]):
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
            raise IllegalAction("ce.bad_player_count", count=n_players, min=self.min_players, max=self.max_players)
        try:
            raw = options.model_dump() if isinstance(options, BaseModel) else (options or {})
            opts = CatanOptions.model_validate(raw)
        except ValidationError as exc:
            raise IllegalAction("ce.bad_options", detail=str(exc.errors()[0]["loc"])) from None
        map_id = _map_id(n_players, opts)
        board = board_for(map_id, opts.layout, seed)
        deck = deckmod.shuffled_deck(n_players, seed, 0)
        state = CatanState(n=n_players, seed=seed, draws=1, options=opts, map_id=map_id,
                           players=[PlayerState() for _ in range(n_players)],
                           bank=[c.bank_size(n_players)] * len(RESOURCES), deck=[k.value for k in deck],
                           deck_left=len(deck), robber=board.label(board.deserts[0]))
        return state

    def board(self, state: CatanState) -> Board:
        return board_for(state.map_id, state.options.layout, state.seed)

    def geo(self, state: CatanState) -> Geo:
        return geo_for(state.map_id, state.options.layout, state.seed)

    def setup_order(self, state: CatanState) -> list[int]:
        seats = list(range(state.n))
        return seats + seats[::-1]

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: CatanState) -> frozenset[int]:
        phase = state.phase
        if phase == "over":
            return frozenset()
        if phase == "gold":
            return _SEAT[state.gold_owed[0][0]]
        if phase == "discard":
            return frozenset(state.discards)
        if phase == "answer":
            answered = state.offer.answers
            current = state.current
            return frozenset([s for s in range(state.n) if (s not in answered and s != current)
                              or (s == current and True in answered.values())])
        if phase == "special":
            return _SEAT[state.special_queue[0]]
        if phase == "stops":
            return _SEAT[state.stop_queue[0]]
        return _SEAT[state.current]

    # ------------------------------------------------------------------ facts
    def _dv(self, state: CatanState) -> Derived:
        """The facts derived from the state's pieces and buildings (derived.py)."""
        return derived(state, self.geo)

    def holdings(self, state: CatanState) -> Holdings:
        return Holdings(hand_of(tuple(state.bank)), tuple([hand_of(tuple(p.hand)) for p in state.players]))

    @staticmethod
    def _add_cards(state: CatanState, seat: int, counts: Any) -> None:
        """Add `counts` (none negative) to the seat's hand (the bank is the caller's)."""
        d = state.own(seat).__dict__
        a0, a1, a2, a3, a4 = d["hand"]
        b0, b1, b2, b3, b4 = counts
        d["hand"] = [a0 + b0, a1 + b1, a2 + b2, a3 + b3, a4 + b4]
        d["cards"] = a0 + b0 + a1 + b1 + a2 + b2 + a3 + b3 + a4 + b4

    @staticmethod
    def _store(state: CatanState, h: Holdings) -> None:
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

    def pieces_left(self, state: CatanState, seat: int, what: str) -> int:
        return components().pieces_per_player[what] - self._dv(state).used(seat)[what]

    def city_cap(self, state: CatanState) -> int:
        c = components()
        return c.cities_before_race + (c.cities_added_at_race if state.race else 0)

    def touched(self, state: CatanState, geo: Geo, point: int) -> bool:
        """Whether any rail or ferry ends at this intersection (CE-4)."""
        return str(point) in self._dv(state).touched()

    def harbours(self, state: CatanState, seat: int) -> set[str]:
        return set(self._harbours(state, seat))

    def _harbours(self, state: CatanState, seat: int) -> frozenset[str]:
        memo = self._dv(state).memo
        out = memo.get(("harbours", seat))
        if out is None:
            kinds = harbour_kinds(state.map_id, state.options.layout, state.seed)
            out = memo["harbours", seat] = frozenset(kinds[pt] for pt, b in state.buildings.items()
                                                     if b.seat == seat and pt in kinds)
        return out

    def points_by_seat(self, state: CatanState) -> list[dict[str, int]]:
        """Every seat's victory points by category (CATEGORIES), in one pass over the board:
        the one place the points are counted by category, for the result, the view and the
        final post (`totals` adds the same numbers up without naming them)."""
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

    def points(self, state: CatanState, seat: int) -> dict[str, int]:
        return self.points_by_seat(state)[seat]

    def total(self, state: CatanState, seat: int) -> int:
        return self.totals(state)[seat]

    def totals(self, state: CatanState) -> list[int]:
        """Every seat's victory points: the sums of `points_by_seat`, with the buildings' share
        kept with the board's derived facts (every roll records them for the final post)."""
        vp_card, chip, tower, army_points, fastest, settlement, city = _POINTS
        army = state.largest_army
        built = self._dv(state).building_points(settlement, city)
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

    # ------------------------------------------------------------------ legal moves
    def settlement_spots(self, state: CatanState, geo: Geo) -> list[int]:
        """Free intersections no building neighbours and no rail or ferry touches (CE-4, CE-B6)."""
        return list(self._dv(state).settlement_spots())

    def piece_spots(self, state: CatanState, geo: Geo, seat: int, what: str) -> list[str]:
        """Spokes (rails) or coast edges (ferries) sharing a point with the seat's network and
        not already holding one of the seat's pieces (CE-2)."""
        return list(self._dv(state).spots(seat, what))

    def _price(self, state: CatanState, seat: int, what: str, at: str, free: bool) -> Hand:
        owners = sorted(set(state.pieces.get(at, ()))) if what in ("rail", "ferry") else []
        return economy.build_price(what, owners, free=free)  # type: ignore[arg-type]

    def builds(self, state: CatanState, seat: int, *, free_only: bool = False) -> list[Build]:
        dv = self._dv(state)
        memo = dv.memo
        hand = state.players[seat].hand
        out: list[Build] = []
        used = dv.used(seat)
        stock = components().pieces_per_player
        if not free_only:
            if stock["settlement"] > used["settlement"] and covers(hand, _COST["settlement"]):
                moves = memo.get("settlements")
                if moves is None:
                    moves = memo["settlements"] = tuple(_build("settlement", str(pt)) for pt in dv.settlement_spots())
                out += moves
            if (used["city"] < self.city_cap(state) and stock["city"] > used["city"]
                    and covers(hand, _COST["city"])):
                moves = memo.get(("cities", seat))
                if moves is None:
                    touched = dv.touched()
                    moves = memo["cities", seat] = tuple(
                        _build("city", str(pt)) for pt, b in sorted(state.buildings.items())
                        if b.seat == seat and b.kind == "settlement" and str(pt) in touched)
                out += moves
        free = state.free_pieces > 0 and seat == state.current and state.phase == "main"
        for what in ("rail", "ferry"):
            # The price (CE-2, economy.build_price): the cost (none with Road Building) and
            # one parallel fee per owner already there, by the number of owners; a hand short
            # of the cost alone can pay for no spot.
            base = _NOTHING if free else _COST[what]
            if stock[what] <= used[what] or not covers(hand, base):
                continue
            spots = memo.get(("spots", seat, what))
            if spots is None:
                pieces = state.pieces
                spots = memo["spots", seat, what] = tuple((len(set(pieces.get(piece) or ())), _build(what, piece))
                                                          for piece in dv.spots(seat, what))
            out += [move for owners, move in spots if not owners or covers(hand, _with_fees(base, owners))]
        return out

    def robber_moves(self, state: CatanState, seat: int, knight: bool) -> list[Robber]:
        dv = self._dv(state)
        players = state.players
        # Each hex's moves follow from the buildings and who holds cards: made once for those,
        # the robber's own hex left out as it moves.
        key = ("robber", seat, knight, tuple([any(p.hand) for p in players]))
        by_label = dv.memo.get(key)
        if by_label is None:
            by_hex = dv.by_hex()
            by_label = []
            for lab in _land_labels(state.map_id, state.options.layout, state.seed):
                victims = _victims(players, seat, by_hex.get(lab, ()))
                by_label.append((lab, [_robber(lab, v, knight) for v in victims] if victims
                                 else [_robber(lab, None, knight)]))
            dv.memo[key] = by_label
        robber = state.robber
        out: list[Robber] = []
        for lab, moves in by_label:
            if lab != robber:
                out += moves
        return out

    def _buildings_by_hex(self, state: CatanState, only: Any = None) -> dict[str, list[tuple[int, str]]]:
        """Hex label -> the (seat, kind) of each building on its corners; with `only`, just
        for those hexes."""
        by_hex = self._dv(state).by_hex()
        if only is None:
            return by_hex
        return {lab: v for lab, v in by_hex.items() if lab in only}

    def can_play(self, state: CatanState, seat: int, card: DevCard) -> bool:
        p = state.players[seat]
        return not p.played_card and p.dev[_KIND_AT[card]] > 0

    def card_plays(self, state: CatanState, seat: int) -> list[Any]:
        out: list[Any] = []
        p = state.players[seat]
        if p.played_card:
            return out
        dev = p.dev
        if dev[_KIND_AT[DevCard.MONOPOLY]] > 0:
            out += _MONOPOLIES
        if dev[_KIND_AT[DevCard.YEAR_OF_PLENTY]] > 0:
            due = min(components().year_of_plenty_cards, sum(state.bank))
            if due:
                out += _card_moves("plenty", tuple(state.bank), due)
        if dev[_KIND_AT[DevCard.ROAD_BUILDING]] > 0 and state.free_pieces == 0:
            if self.pieces_left(state, seat, "rail") + self.pieces_left(state, seat, "ferry") > 0:
                out.append(_ROADS)
        if dev[_KIND_AT[DevCard.KNIGHT]] > 0:
            out += self.robber_moves(state, seat, knight=True)
        return out

    def bank_trades(self, state: CatanState, seat: int) -> list[BankTrade]:
        hand = state.players[seat].hand
        bank = state.bank
        ratios = None
        out = []
        for i in range(len(RESOURCES)):
            if hand[i] < _LEAST_RATIO:
                continue
            if ratios is None:
                ratios = _ratios(self._harbours(state, seat))
            ratio = ratios[i]
            if hand[i] < ratio:
                continue
            for j in range(len(RESOURCES)):
                if j != i and bank[j]:
                    out.append(_bank_trade(i, ratio, j))
        return out

    def offers(self, state: CatanState, seat: int) -> list[Propose]:
        """The offers the rules' list suggests now (`offers_for`); any terms `offer_problem`
        finds nothing wrong with are legal too (CE-B5)."""
        if state.offers_made >= MAX_OFFERS:
            return []
        return list(offers_for(tuple(state.players[seat].hand)))

    def offer_ask_most(self, state: CatanState) -> int:
        """The most cards of one resource an offer may ask for: all there are in the game
        (CE-B1's bank). CE-B5 allows any terms both players accept, so this is the only bound
        on what is asked; it keeps the menu finite and refuses nothing a player could get."""
        return components().bank_size(state.n)

    def offer_problem(self, state: CatanState, seat: int, give: Any, get: Any) -> IllegalAction | None:
        """Why an offer's terms are not allowed (None: they are; CE-B5): something each way,
        never one resource on both sides (that would be a gift of the difference), only cards
        one holds, and of each resource no more than there are in the game."""
        if min(give) < 0 or min(get) < 0 or not any(give) or not any(get):
            return IllegalAction("ce.trade_gift")
        both = [r for r, g, w in zip(RESOURCES, give, get) if g and w]
        if both:
            return IllegalAction("ce.trade_same_resource", resources=[economy.resource_param(r) for r in both])
        hand = state.players[seat].hand
        if not covers(hand, give):
            return IllegalAction("ce.not_held", short=economy.cards_param([max(0, g - h) for g, h in zip(give, hand)]))
        most = self.offer_ask_most(state)
        for i, w in enumerate(get):
            if w > most:
                return IllegalAction("ce.offer_more_than_exist", cards=economy.cards_param(_one(i, most)))
        return None

    def ride_legs(self, state: CatanState, seat: int) -> list[Ride]:
        p = state.players[seat]
        if not self.may_ride(state, seat):
            return []
        dv = self._dv(state)
        keep = race.kind_kept(state, self.transfer_stop(state))  # CE-11
        # The legs follow from the pieces, the point, which resources the seat holds and the
        # kind of piece the move must keep to.
        key = ("legs", seat, p.loco, tuple([n > 0 for n in p.hand]), keep)
        rides = dv.memo.get(key)
        if rides is None:
            rides = dv.memo[key] = tuple(_ride(o.leg) for o in race.legs_from(state, dv.geo, seat, str(p.loco),
                                                                               p.hand, keep))
        return list(rides)

    def ride_routes(self, state: CatanState, seat: int) -> list[Ride]:
        if not self.may_ride(state, seat):
            return []
        dv = self._dv(state)
        p = state.players[seat]
        # The search reads the pieces and these alone (race.routes); a turn lists it again and again.
        key = ("routes", seat, p.loco, state.move_left, race.kind_kept(state, self.transfer_stop(state)),
               tuple(p.hand or ()), tuple(p.towers), tuple(state.stops), self.transfer_stop(state))
        rides = dv.memo.get(key)
        if rides is None:
            found = race.routes(state, dv.geo, seat, self.transfer_stop(state))
            rides = dv.memo[key] = tuple(made(Ride, {"kind": "ride", "legs": legs}, _LEGS_SET)
                                         for legs in found if len(legs) > 1)
        return list(rides)

    def may_ride(self, state: CatanState, seat: int) -> bool:
        return (state.race and state.phase == "main" and seat == state.current and state.move_left > 0
                and state.players[seat].loco is not None)

    def transfer_stop(self, state: CatanState) -> bool:
        return state.options.map == "islands" and state.options.transfer_stop

    def legal_actions(self, state: CatanState, seat: int) -> list[Any]:
        return self._legal(state, seat, None)

    def _is_active(self, state: CatanState, seat: int) -> bool:
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

    def _legal(self, state: CatanState, seat: int, want: str | None) -> list[Any]:
        """The legal moves of `seat`, or only those of kind `want` (what `apply` checks a move
        against: an offer's hundreds of variants need not be listed to check a build)."""
        if not self._is_active(state, seat):
            return Menu.empty()

        def wants(kind: str) -> bool:
            return want is None or want == kind

        phase = state.phase
        p = state.players[seat]
        if phase == "answer" and seat != state.current:
            return Menu.of("answer", _ANSWERS if covers(p.hand, state.offer.get) else _REFUSAL)
        if phase == "setup":
            geo = self._dv(state).geo
            if state.setup_rail:
                return Menu.of("build", [_build("rail", piece) for piece in geo.at[str(p.start)]
                                         if geo.kind[piece] == "rail"])
            return Menu.of("build", [_build("settlement", str(pt)) for pt in self._dv(state).settlement_spots()])
        if phase == "gold":
            owed = min(state.gold_owed[0][1], sum(state.bank))
            return Menu.of("gold", _card_moves("gold", tuple(state.bank), owed))
        if phase == "discard":
            return Menu.of("discard", _card_moves("discard", tuple(p.hand), state.discards[seat]))
        if phase == "robber":
            return Menu.of("robber", self.robber_moves(state, seat, knight=False))
        if phase == "pick" or phase == "answer":  # answer: the offerer, once someone accepted
            return Menu.of("partner", [_WITHDRAW] + [_partner(s) for s in self.acceptors(state)])
        if phase == "stops":
            return Menu.of("stop", [_stop(pt) for pt in race.nameable_stops(state, self._dv(state).geo, seat)])
        if phase == "roll":
            # CE-B3: a development card may be played at any time of one's turn, before the
            # roll too (still one a turn, never one bought this turn).
            out = Menu.of("roll", _ROLLS)
            if want is None or want in _CARD_KINDS:
                out.add_kinds(self.card_plays(state, seat))
            return out
        out = Menu.of("end", _ENDS)
        if phase == "main" and state.moving:
            if wants("ride"):
                out.add("ride", self.ride_legs(state, seat) + self.ride_routes(state, seat))
            return out
        if wants("build"):
            out.add("build", self.builds(state, seat))
        if wants("buy") and self.can_buy(state, seat):
            out.add("buy", _BUYS)
        if phase == "special":
            return out
        if want is None or want in _CARD_KINDS:
            out.add_kinds(self.card_plays(state, seat))
        if wants("bank"):
            out.add("bank", self.bank_trades(state, seat))
        if wants("offer") and state.offers_made < MAX_OFFERS:
            out.add("offer", offers_for(tuple(p.hand)))
        if wants("ride"):
            out.add("ride", self.ride_legs(state, seat) + self.ride_routes(state, seat))
        return out

    def can_buy(self, state: CatanState, seat: int) -> bool:
        return bool(state.deck) and covers(state.players[seat].hand, _COST["development_card"])

    def acceptors(self, state: CatanState) -> list[int]:
        return sorted(s for s, yes in state.offer.answers.items() if yes) if state.offer else []

    # ------------------------------------------------------------------ applying
    def apply(self, state: CatanState, seat: int, action: Any) -> ApplyResult:
        if not self._is_active(state, seat):
            raise IllegalAction("not_active", waiting=sorted(self.active_players(state)))
        if not self.allows(state, seat, action):
            raise self._refusal(state, seat, action)
        s = state.fork()
        events: list[Event] = []
        kind = action.kind
        undoable = _HANDLERS[kind](self, s, seat, action, events) is True
        # The public counts (CE-12) follow the cards: `_store` counts a hand it writes, and the
        # moves that change development cards count those.
        f = s.__dict__
        f["deck_left"] = len(f["deck"])
        if kind in SCORING_KINDS:
            self._check_starter(s, events)
        f["last"] = events
        return made(ApplyResult, {"state": s, "events": list(events), "undoable": undoable}, _RESULT_SET)

    def allows(self, state: CatanState, seat: int, action: Any) -> bool:
        """Whether the rules allow `action` by `seat` now (the seat is active). The same answer
        as membership in `legal_actions`, asked of the rule directly (the menus need not be
        listed to check one move); and wider in two ways the menus are not: a bank trade of
        several lots at once, and a ride along any legal path (the menus list single legs and
        one route per stop)."""
        kind = action.kind
        phase = state.phase
        if kind == "answer":
            return (phase == "answer" and seat != state.current
                    and (not action.accept or covers(state.players[seat].hand, state.offer.get)))
        if kind == "end":
            return phase == "main" or phase == "special"
        if kind == "roll":
            return phase == "roll"
        main = phase == "main" and not state.moving
        cards = main or phase == "roll"  # when a development card may be played (CE-B3)
        p = state.players[seat]
        if kind == "offer":
            return (main and state.offers_made < MAX_OFFERS
                    and self.offer_problem(state, seat, action.give, action.get) is None)
        if kind == "partner":
            return ((phase == "pick" or phase == "answer") and seat == state.current
                    and (action.seat is None or action.seat in self.acceptors(state)))
        if kind == "build":
            return self._build_allowed(state, seat, action)
        if kind == "robber":
            if action.knight:
                if not (cards and self.can_play(state, seat, DevCard.KNIGHT)):
                    return False
            elif phase != "robber":
                return False
            return self._robber_allowed(state, seat, action)
        if kind in ("discard", "gold", "plenty"):
            cards = Hand(action.cards)
            if kind == "discard":
                return phase == "discard" and cards.total == state.discards[seat] and covers(p.hand, cards.counts)
            if kind == "gold":
                due = min(state.gold_owed[0][1], sum(state.bank)) if phase == "gold" else -1
            else:
                due = (min(components().year_of_plenty_cards, sum(state.bank))
                       if cards and self.can_play(state, seat, DevCard.YEAR_OF_PLENTY) else -1)
            return cards.total == due and due > 0 and covers(state.bank, cards.counts)
        if kind == "buy":
            return (phase == "special" or main) and self.can_buy(state, seat)
        if kind == "monopoly":
            return cards and self.can_play(state, seat, DevCard.MONOPOLY)
        if kind == "roads":
            return (cards and self.can_play(state, seat, DevCard.ROAD_BUILDING) and state.free_pieces == 0
                    and self.pieces_left(state, seat, "rail") + self.pieces_left(state, seat, "ferry") > 0)
        if kind == "bank":
            # Whether economy.bank_trade would take it (`_do_bank` makes the trade through it).
            give, get = Hand(action.give).counts, Hand(action.get).counts
            if not main or not any(give) or not any(get) or any(g and w for g, w in zip(give, get)):
                return False
            lots = 0
            for n, ratio in zip(give, _ratios(self._harbours(state, seat))):
                if n:
                    if n % ratio:
                        return False
                    lots += n // ratio
            return lots == sum(get) and covers(p.hand, give) and covers(state.bank, get)
        if kind == "ride":
            if not self.may_ride(state, seat):
                return False
            if len(action.legs) == 1:
                return self._leg_allowed(state, seat, action.legs[0])
            return self._walk(state.fork(), seat, action, [], dry=True)
        if kind == "stop":
            return phase == "stops" and action.at in race.nameable_stops(state, self._dv(state).geo, seat)
        return action in self._legal(state, seat, kind)

    def _leg_allowed(self, state: CatanState, seat: int, leg: Leg) -> bool:
        """Whether one leg from the locomotive is on the menu (`ride_legs`, race.legs_from):
        along a built piece to `leg.to`; free on one the seat owns, else paid with a card the
        seat holds to one of the piece's owners."""
        geo = self._dv(state).geo
        p = state.players[seat]
        at = str(p.loco)
        keep = race.kind_kept(state, self.transfer_stop(state))  # CE-11
        for piece in geo.at.get(at, ()):
            owners = state.pieces.get(piece)
            if not owners or geo.other_end(piece, at) != leg.to or (keep is not None and geo.kind[piece] != keep):
                continue
            if seat in owners:
                if leg.payee is None and leg.resource is None:
                    return True
            elif leg.payee in owners and leg.resource in _RESOURCE_AT and p.hand[_RESOURCE_AT[leg.resource]]:
                return True
        return False

    def _build_allowed(self, state: CatanState, seat: int, a: Build) -> bool:
        dv = self._dv(state)
        geo = dv.geo
        phase = state.phase
        p = state.players[seat]
        if phase == "setup":
            if state.setup_rail:
                return a.what == "rail" and a.at in geo.at.get(str(p.start), ()) and geo.kind[a.at] == "rail"
            return a.what == "settlement" and a.at.isdigit() and self._settlement_spot(state, geo, int(a.at))
        if not (phase == "special" or (phase == "main" and not state.moving)):
            return False
        if self.pieces_left(state, seat, a.what) <= 0:
            return False
        hand = p.hand
        if a.what in ("settlement", "city"):
            if not a.at.isdigit() or not covers(hand, _COST[a.what]):
                return False
            pt = int(a.at)
            if a.what == "settlement":
                return self._settlement_spot(state, geo, pt)
            b = state.buildings.get(pt)
            return (b is not None and b.seat == seat and b.kind == "settlement" and self.touched(state, geo, pt)
                    and dv.used(seat)["city"] < self.city_cap(state))
        if geo.kind.get(a.at) != a.what or seat in state.pieces.get(a.at, ()):
            return False
        net = dv.network(seat)
        if not any(pt in net for pt in geo.ends[a.at]):
            return False
        free = state.free_pieces > 0 and phase == "main"
        owners = state.pieces.get(a.at)
        return covers(hand, _with_fees(_NOTHING if free else _COST[a.what], len(set(owners)) if owners else 0))

    def _settlement_spot(self, state: CatanState, geo: Geo, pt: int) -> bool:
        taken = state.buildings
        return (pt in geo.neighbours and pt not in taken and not any(n in taken for n in geo.neighbours[pt])
                and not self.touched(state, geo, pt))

    def _robber_allowed(self, state: CatanState, seat: int, a: Robber) -> bool:
        if a.hex in _land_label_set(state.map_id, state.options.layout, state.seed):
            if a.hex == state.robber:
                return False
            victims = _victims(state.players, seat, self._dv(state).by_hex().get(a.hex, ()))
            return a.victim in victims if victims else a.victim is None
        # Only a land hex's label as printed: the notation writes those, and a label written
        # otherwise ("c3") would be stored as typed and then match no hex when it produces.
        return False

    def _refusal(self, state: CatanState, seat: int, action: Any) -> IllegalAction:
        """The most useful reason a move is not allowed now."""
        kind = action.kind
        phase = state.phase
        if kind == "build":
            return self._build_refusal(state, seat, action)
        if kind == "buy":
            if not state.deck:
                return IllegalAction("ce.deck_empty")
            if phase in ("main", "special"):
                return self._short(state, seat, economy.cost("development_card"))
        if kind == "discard" and phase == "discard":
            if Hand(action.cards).total != state.discards[seat]:
                return IllegalAction("ce.discard_count", count=state.discards[seat])
            return IllegalAction("ce.not_held")
        if kind == "gold" and phase == "gold":
            due = min(state.gold_owed[0][1], sum(state.bank))
            if Hand(action.cards).total != due:
                return IllegalAction("ce.gold_count", count=due)
            return IllegalAction("ce.bank_short", resources=economy.lacking(Hand(tuple(state.bank)), Hand(action.cards)))
        if kind == "plenty" and phase in ("main", "roll") and self.can_play(state, seat, DevCard.YEAR_OF_PLENTY):
            due = min(components().year_of_plenty_cards, sum(state.bank))
            if Hand(action.cards).total != due:
                return IllegalAction("ce.plenty_count", count=due)
            return IllegalAction("ce.bank_short", resources=economy.lacking(Hand(tuple(state.bank)), Hand(action.cards)))
        if kind == "bank" and phase == "main" and not state.moving:
            try:
                economy.bank_trade(self.holdings(state), seat, Hand(action.give), Hand(action.get),
                                   self._harbours(state, seat))
            except IllegalAction as exc:
                return exc
        if kind == "offer" and phase == "main" and not state.moving:
            if state.offers_made >= MAX_OFFERS:
                return IllegalAction("ce.offer_limit", count=MAX_OFFERS)
            problem = self.offer_problem(state, seat, action.give, action.get)
            if problem is not None:
                return problem
        if kind == "roll" and phase != "roll":
            rolled = state.dice and seat == state.current and phase in ("main", "gold", "discard", "robber")
            return IllegalAction("ce.already_rolled" if rolled else "ce.not_now")
        if kind in ("monopoly", "plenty", "roads") or (kind == "robber" and action.knight):
            card = {"monopoly": DevCard.MONOPOLY, "plenty": DevCard.YEAR_OF_PLENTY, "roads": DevCard.ROAD_BUILDING,
                    "robber": DevCard.KNIGHT}[kind]
            try:
                PlayerCards(seat, tuple(state.players[seat].dev), tuple(state.players[seat].dev_new),
                            state.players[seat].played_card).play(card)
            except IllegalAction as exc:
                return exc
        if kind == "robber" and (phase == "robber" or (action.knight and phase in ("roll", "main"))):
            if action.hex not in _land_label_set(state.map_id, state.options.layout, state.seed):
                return IllegalAction("ce.robber_on_land", hex=action.hex)
            if action.hex == state.robber:
                return IllegalAction("ce.robber_must_move")
            victims = economy.robbable(self.holdings(state), seat, action.hex, self._buildings_by_hex(state))
            if action.victim is None:
                return IllegalAction("ce.robber_must_rob", seats=list(victims))
            if victims:
                return IllegalAction("ce.cannot_rob", victim_seat=action.victim)
            return IllegalAction("ce.nobody_to_rob", hex=action.hex)
        if kind == "answer" and phase == "answer" and action.accept and seat != state.current:
            return IllegalAction("ce.cannot_accept", cards=Hand(tuple(state.offer.get)).param())
        if kind == "partner" and phase in ("pick", "answer") and seat == state.current and action.seat is not None:
            return IllegalAction("ce.not_an_acceptor", partner_seat=action.seat)
        if kind == "ride":
            if not state.race:
                return IllegalAction("ce.race_not_started")
            if self.may_ride(state, seat):
                # The first leg the rules stop at says why (a missing line, a toll, CE-11).
                try:
                    self._walk(state.fork(), seat, action, [], dry=False)
                except IllegalAction as exc:
                    return exc
            return IllegalAction("ce.ride_illegal")
        if phase == "roll":
            return IllegalAction("ce.roll_first")
        return IllegalAction("ce.not_now")

    def _build_refusal(self, state: CatanState, seat: int, action: Build) -> IllegalAction:
        geo = self.geo(state)
        what, at = action.what, action.at
        if state.phase not in ("main", "special", "setup"):
            return IllegalAction("ce.roll_first" if state.phase == "roll" else "ce.not_now")
        if state.moving:
            return IllegalAction("ce.moving_no_build")
        if what in ("settlement", "city"):
            if not at.isdigit() or int(at) not in geo.neighbours:
                return IllegalAction("ce.unknown_point", text=at)
            pt = int(at)
            if what == "city":
                b = state.buildings.get(pt)
                if b is None or b.seat != seat or b.kind != "settlement":
                    return IllegalAction("ce.city_needs_settlement")
                if not self.touched(state, geo, pt):
                    return IllegalAction("ce.city_needs_rail")
                if sum(1 for x in state.buildings.values() if x.seat == seat and x.kind == "city") >= self.city_cap(state):
                    return IllegalAction("ce.city_cap", count=self.city_cap(state))
            else:
                if pt in state.buildings:
                    return IllegalAction("ce.point_taken")
                if any(n in state.buildings for n in geo.neighbours[pt]):
                    return IllegalAction("ce.distance_rule")
                if self.touched(state, geo, pt):
                    return IllegalAction("ce.settlement_touched")
            if self.pieces_left(state, seat, what) <= 0:
                return IllegalAction("ce.no_pieces_left", what={"key": f"ce.piece.{what}"})
        else:
            if at not in geo.kind or geo.kind[at] != what:
                return IllegalAction("ce.unknown_piece", text=at)
            if state.phase == "setup":
                return IllegalAction("ce.setup_rail_from_second")
            if seat in state.pieces.get(at, ()):
                return IllegalAction("ce.piece_yours")
            net = race.network_points(state, geo, seat)
            if not set(geo.ends[at]) & net:
                return IllegalAction("ce.piece_not_connected")
            if self.pieces_left(state, seat, what) <= 0:
                return IllegalAction("ce.no_pieces_left", what={"key": f"ce.piece.{what}"})
            free = state.free_pieces > 0 and state.phase == "main"
            return self._short(state, seat, self._price(state, seat, what, at, free))
        if state.phase == "setup":
            return IllegalAction("ce.not_now")
        return self._short(state, seat, economy.cost(what))

    @staticmethod
    def _short(state: CatanState, seat: int, price: Hand) -> IllegalAction:
        """A refusal that names the price and the cards missing from the seat's hand."""
        hand = Hand(tuple(state.players[seat].hand))
        short = Hand(tuple(max(0, a - b) for a, b in zip(price.counts, hand.counts)))
        return IllegalAction("ce.cannot_afford", cost=price.param(), short=short.param())

    # --- setup and building
    def _do_build(self, s: CatanState, seat: int, a: Build, events: list[Event]) -> bool:
        geo = self._dv(s).geo
        if s.phase == "setup":
            return self._setup_build(s, seat, a, events, geo)
        free = a.what in ("rail", "ferry") and s.free_pieces > 0 and s.phase == "main"
        owners = sorted(set(s.pieces.get(a.at, ()))) if a.what in ("rail", "ferry") else []
        paid = economy.pay_build(self.holdings(s), seat, a.what, parallel_owners=owners, free=free)
        self._store(s, paid.holdings)
        events += paid.events
        if free:
            s.free_pieces -= 1
        self._place(s, seat, a, events, geo)
        return True

    def _place(self, s: CatanState, seat: int, a: Build, events: list[Event], geo: Geo) -> None:
        # A new dict, never a change in place: the parent state shares it (CatanState.fork).
        if a.what in ("settlement", "city"):
            s.buildings = {**s.buildings, int(a.at): _building(seat, a.what)}
        else:
            parallel = bool(s.pieces.get(a.at))
            s.pieces = {**s.pieces, a.at: s.pieces.get(a.at, []) + [seat]}
            self._chips(s, seat, a.at, events, geo)
            if parallel:
                events.append(_ev("built_parallel", seat=seat, what={"key": f"ce.piece.{a.what}"}, at=a.at))
        events.insert(0, _ev("built", seat=seat, what={"key": f"ce.piece.{a.what}"}, at=a.at))
        s.last_build = [a.at]

    def _chips(self, s: CatanState, seat: int, piece: str, events: list[Event], geo: Geo) -> None:
        """CE-5: a chip for each other player's building the network comes to touch (once per
        building), and for each other player's network it comes to join (once per pair)."""
        p = s.own(seat)
        ends = geo.ends[piece]
        for point in ends:
            if point.isdigit():
                b = s.buildings.get(int(point))
                if b is not None and b.seat != seat and f"touch:{point}" not in p.chips:
                    p.chips = p.chips + [f"touch:{point}"]
                    events.append(_ev("chip_touch", seat=seat, owner_seat=b.seat, at=point))
        paired = {tuple(j) for j in s.joined}
        for other in range(s.n):
            pair = (min(seat, other), max(seat, other))
            if other == seat or pair in paired:
                continue
            if any(other in s.pieces.get(x, ()) for pt in ends for x in geo.at.get(pt, ())):
                s.joined = s.joined + [list(pair)]
                p.chips = p.chips + [f"join:{other}"]
                events.append(_ev("chip_join", seat=seat, other_seat=other))

    def _setup_build(self, s: CatanState, seat: int, a: Build, events: list[Event], geo: Geo) -> bool:
        p = s.own(seat)
        if a.what == "settlement":
            pt = int(a.at)
            s.buildings = {**s.buildings, pt: _building(seat, "settlement")}
            events.append(_ev("built", seat=seat, what={"key": "ce.piece.settlement"}, at=a.at))
            s.last_build = [a.at]
            if s.setup_pos < s.n:
                self._next_setup(s)
                return True
            # The second settlement: its start cards (CE-B6), its locomotive and free rail (CE-3).
            p.start, p.loco = pt, str(pt)
            board = self.board(s)
            owed = Hand()
            gold = 0
            for lab in geo.land_of[pt]:
                land = board.at(board.hex_at(lab))
                yields = components().yields(land.terrain.value)
                if yields == "choice":
                    gold += 1
                elif yields is not None:
                    owed = owed + Hand.of({yields: 1})
            out = economy.distribute(self.holdings(s), {seat: owed} if owed else {})
            self._store(s, out.holdings)
            events += out.events
            s.setup_rail = True
            if gold:
                s.gold_owed = [[seat, gold]]
                s.gold_then = "setup"
                s.phase = "gold"
                self._advance_gold(s, events)
            return False
        p_events = len(events)
        s.pieces = {**s.pieces, a.at: s.pieces.get(a.at, []) + [seat]}
        self._chips(s, seat, a.at, events, geo)
        events.insert(p_events, _ev("built_free", seat=seat, what={"key": "ce.piece.rail"}, at=a.at))
        s.last_build = s.last_build + [a.at]
        s.setup_rail = False
        self._next_setup(s)
        return False

    def _next_setup(self, s: CatanState) -> None:
        s.setup_pos += 1
        order = self.setup_order(s)
        if s.setup_pos < len(order):
            s.current = order[s.setup_pos]
            return
        self._begin_turn(s, 0)

    # --- turns
    def _begin_turn(self, s: CatanState, seat: int) -> None:
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

    def _do_roll(self, s: CatanState, seat: int, a: Roll, events: list[Event]) -> bool:
        f = s.__dict__  # plain fields, written straight (see models._Stored)
        dice = f["dice"] = _dice(f["seed"], f["draws"])
        f["draws"] += 1
        roll = dice[0] + dice[1]
        events.append(_ev("rolled", seat=seat, dice=list(dice), total=roll))
        if f["race"]:
            f["move_left"] = max(dice)
        f["history"] = f["history"] + [{"turn": f["turn"], "seat": seat, "roll": roll, "points": self.totals(s)}]
        if roll == components().robber_roll:
            s.discards = economy.discards_due(self.holdings(s))
            if s.discards:
                events.append(_ev("must_discard", seats=sorted(s.discards)))
                s.phase = "discard"
            else:
                s.phase = "robber"
            return False
        # What a roll produces depends on the buildings, the robber and the number alone.
        memo = self._dv(s).memo
        known = memo.get(("production", s.robber, roll))
        if known is None:
            tokens, terrains = _yields(s.map_id, s.options.layout, s.seed)
            prod = economy.production(roll, tokens.get(roll, {}), terrains, s.robber, self._dv(s).by_hex())
            owed = {k: h.counts for k, h in prod.owed.items()}
            known = memo["production", s.robber, roll] = (prod, owed, tuple(map(sum, zip(_NOTHING, *owed.values()))))
        prod, owed, total = known
        if owed:
            bank = f["bank"]
            if covers(bank, total):
                # The bank covers everyone (economy.share_out's common case: no shortage).
                f["bank"] = [b - t for b, t in zip(bank, total)]
                for k, got in owed.items():
                    self._add_cards(s, k, got)
                    events.append(_ev("produced", seat=k, cards=economy.cards_param(got)))
            else:
                bank, paid, produced = economy.share_out(bank, owed)
                f["bank"] = bank
                for k, got in paid.items():
                    if any(got):
                        self._add_cards(s, k, got)
                events += produced
        if not prod.owed and not prod.gold:
            events.append(_ev("nothing_produced", total=roll))
        gold = [[g, prod.gold[g]] for g in self._clockwise(s, seat) if prod.gold.get(g)]
        s.phase = "main"
        if gold:
            s.gold_owed = gold
            s.gold_then = "main"
            s.phase = "gold"
            self._advance_gold(s, events)
        return False

    def _clockwise(self, s: CatanState, start: int) -> list[int]:
        return [(start + k) % s.n for k in range(s.n)]

    def _do_gold(self, s: CatanState, seat: int, a: Gold, events: list[Event]) -> bool:
        owed = s.gold_owed[0][1]
        out = economy.take_gold(self.holdings(s), seat, Hand(a.cards), owed)
        self._store(s, out.holdings)
        events += out.events
        s.gold_owed = s.gold_owed[1:]
        self._advance_gold(s, events)
        return False

    def _advance_gold(self, s: CatanState, events: list[Event]) -> None:
        """Skip owners the empty bank can give nothing (CE-B4: nobody takes what is not
        there); once nobody is owed, go on where the game was going."""
        while s.gold_owed and not sum(s.bank):
            events.append(_ev("gold_none", seat=s.gold_owed[0][0]))
            s.gold_owed = s.gold_owed[1:]
        if not s.gold_owed:
            s.phase = s.gold_then

    def _do_discard(self, s: CatanState, seat: int, a: Discard, events: list[Event]) -> bool:
        out = economy.discard(self.holdings(s), seat, Hand(a.cards), s.discards[seat])
        self._store(s, out.holdings)
        events += out.events
        s.discards = {k: v for k, v in s.discards.items() if k != seat}
        if not s.discards:
            s.phase = "robber"
        return False

    def _do_robber(self, s: CatanState, seat: int, a: Robber, events: list[Event]) -> bool:
        if a.knight:
            p = s.own(seat)
            cards, played = PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card, p.knights).play(
                DevCard.KNIGHT)
            p.dev, p.played_card, p.knights = list(cards.held), True, cards.knights
            p.dev_cards -= 1
            p.played = _bumped(p.played, KINDS.index(DevCard.KNIGHT))
            events += played
            holder, la = deckmod.largest_army(s.largest_army, {i: q.knights for i, q in enumerate(s.players)}, seat)
            s.largest_army = holder
            events += la
        s.robber = a.hex
        events.append(_ev("robber_moved", seat=seat, at=a.hex))
        if a.victim is not None:
            rng = SeededRng(s.seed, s.draws, "ce.rob")
            s.draws += 1
            out = economy.rob(self.holdings(s), seat, a.victim, a.hex, self._buildings_by_hex(s), rng)
            self._store(s, out.holdings)
            events += out.events
        if s.phase == "robber":
            s.phase = "main"
        return False

    def _play(self, s: CatanState, seat: int, card: DevCard, events: list[Event]) -> None:
        p = s.own(seat)
        cards, played = PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card).play(card)
        p.dev, p.played_card = list(cards.held), True
        p.dev_cards -= 1
        p.played = _bumped(p.played, KINDS.index(card))
        events += played

    def _do_monopoly(self, s: CatanState, seat: int, a: Monopoly, events: list[Event]) -> bool:
        self._play(s, seat, DevCard.MONOPOLY, events)
        out = deckmod.monopoly(self.holdings(s), seat, a.resource)
        self._store(s, out.holdings)
        events += out.events
        return False

    def _do_plenty(self, s: CatanState, seat: int, a: Plenty, events: list[Event]) -> bool:
        self._play(s, seat, DevCard.YEAR_OF_PLENTY, events)
        out = deckmod.year_of_plenty(self.holdings(s), seat, Hand(a.cards))
        self._store(s, out.holdings)
        events += out.events
        return False

    def _do_roads(self, s: CatanState, seat: int, a: Roads, events: list[Event]) -> bool:
        self._play(s, seat, DevCard.ROAD_BUILDING, events)
        s.free_pieces = deckmod.road_building_pieces(self.pieces_left(s, seat, "rail"),
                                                     self.pieces_left(s, seat, "ferry"))
        events.append(_ev("free_pieces", seat=seat, count=s.free_pieces))
        return False

    def _do_buy(self, s: CatanState, seat: int, a: Buy, events: list[Event]) -> bool:
        p = s.own(seat)
        bought = deckmod.buy(self.holdings(s), PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card,
                                                           p.knights, p.vp_cards),
                             tuple([_CARD_OF[k] for k in s.deck]))
        self._store(s, bought.holdings)
        p.dev, p.dev_new, p.vp_cards = list(bought.cards.held), list(bought.cards.new), bought.cards.points
        p.dev_cards = sum(p.dev) + sum(p.dev_new)
        s.deck = [k.value for k in bought.deck]
        events += bought.events
        return False

    # --- trading
    def _do_bank(self, s: CatanState, seat: int, a: BankTrade, events: list[Event]) -> bool:
        out = economy.bank_trade(self.holdings(s), seat, Hand(a.give), Hand(a.get), self._harbours(s, seat))
        self._store(s, out.holdings)
        events += out.events
        return True

    def _do_offer(self, s: CatanState, seat: int, a: Propose, events: list[Event]) -> bool:
        f = s.__dict__  # plain fields, written straight (see models._Stored)
        f["offer"] = made(Offer, {"give": list(a.give), "get": list(a.get), "answers": {}}, _OFFER_SET)
        f["offers_made"] += 1
        f["phase"] = "answer"
        events.append(_ev("offered", seat=seat, gave=economy.cards_param(a.give), got=economy.cards_param(a.get)))
        return False

    def _do_answer(self, s: CatanState, seat: int, a: Answer, events: list[Event]) -> bool:
        f = s.__dict__  # plain fields, written straight (see models._Stored); every offer has n - 1 answers
        offer = shallow(f["offer"])
        answers = offer.__dict__["answers"] = {**f["offer"].answers, seat: a.accept}
        f["offer"] = offer
        events.append(_ev("answered", seat=seat))
        if len(answers) < f["n"] - 1:
            return False
        yes = sorted([x for x, v in answers.items() if v])
        no = sorted([x for x, v in answers.items() if not v])
        events.append(_ev("answers", accepted_seats=yes, refused_seats=no, accepted_count=len(yes),
                          refused_count=len(no)))
        if yes:
            f["phase"] = "pick"
        else:
            f["offer"] = None
            f["phase"] = "main"
        return False

    def _do_partner(self, s: CatanState, seat: int, a: Partner, events: list[Event]) -> bool:
        offer = s.offer
        if s.phase == "answer":
            # Picked before everyone answered: the answers given are told, as when all are in,
            # and the ones still to come are closed (CE-B5: the offer never holds the game).
            answers = offer.answers
            yes = sorted([x for x, v in answers.items() if v])
            no = sorted([x for x, v in answers.items() if not v])
            events.append(_ev("answers_closed", accepted_seats=yes, refused_seats=no, refused_count=len(no),
                              open_seats=[x for x in range(s.n) if x != seat and x not in answers]))
        s.offer = None
        s.phase = "main"
        if a.seat is None:
            events.append(_ev("offer_withdrawn", seat=seat))
            return False
        out = economy.player_trade(self.holdings(s), seat, Hand(tuple(offer.give)), a.seat, Hand(tuple(offer.get)))
        self._store(s, out.holdings)
        events += out.events
        return False

    # --- the race
    def _do_ride(self, s: CatanState, seat: int, a: Ride, events: list[Event]) -> bool:
        self._walk(s, seat, a, events, dry=False)
        return False

    def _walk(self, s: CatanState, seat: int, a: Ride, events: list[Event], dry: bool) -> bool:
        """Carry out (or, `dry`, only check) a ride leg by leg. A dry walk answers whether it is
        legal; a real one raises on the first illegal leg (apply checked it already)."""
        geo = self._dv(s).geo
        p = s.own(seat)
        if not s.moving:
            s.moving = True
            s.last_ride = [p.loco]
        for i, leg in enumerate(a.legs):
            if s.move_left <= 0:
                return self._fail(dry, "ce.ride_ends_early")
            at = str(p.loco)
            pieces = [x for x in geo.between.get(frozenset((at, leg.to)), ()) if s.pieces.get(x)]
            if not pieces:
                return self._fail(dry, "ce.ride_no_line", at=at, to=leg.to)
            piece = pieces[0]
            kind = geo.kind[piece]
            if self.transfer_stop(s) and s.moved_on is not None and kind != s.moved_on:
                # CE-11: the locomotive would change between rail and ferry here: its move
                # ended on arriving (a move keeps to the kind it started on).
                return self._fail(dry, "ce.ride_transfer", at=at)
            owners = s.pieces[piece]
            if seat in owners:
                if leg.payee is not None:
                    return self._fail(dry, "ce.ride_own_line")
            else:
                if leg.payee is None or leg.payee not in owners or leg.resource is None:
                    return self._fail(dry, "ce.ride_toll_owner", to=leg.to)
                fare = Hand.of({leg.resource: 1})
                if not Hand(tuple(p.hand)).covers(fare):
                    return self._fail(dry, "ce.ride_cannot_pay")
                out = economy.give(self.holdings(s), seat, leg.payee, fare, reason="fare")
                self._store(s, out.holdings)
                if not dry:
                    events += out.events
            s.moved_on = kind
            p.loco = leg.to
            s.move_left -= 1
            s.last_ride = s.last_ride + [leg.to]
            if race.ends_move_at(s, seat, leg.to):
                p.towers = p.towers + [int(leg.to)]
                s.move_left = 0
                if not dry:
                    events.append(_ev("tower", seat=seat, at=leg.to, count=len(p.towers), of=len(s.stops)))
            if s.move_left <= 0 and i < len(a.legs) - 1:
                return self._fail(dry, "ce.ride_ends_early")
        if dry:
            return True
        events.insert(0, _ev("rode", seat=seat, route=list(s.last_ride)))
        if len(p.towers) == len(s.stops) and s.stops:
            p.fastest = True
            s.race_winner = seat
            events.append(_ev("race_won", seat=seat))
            self._finish(s, events)
            return True
        if s.move_left <= 0:
            self._end_turn(s, seat, events)
        return True

    @staticmethod
    def _fail(dry: bool, code: str, **params: Any) -> bool:
        if dry:
            return False
        raise IllegalAction(code, **params)

    def _do_stop(self, s: CatanState, seat: int, a: NameStop, events: list[Event]) -> bool:
        s.stops = s.stops + [a.at]
        s.stop_queue = s.stop_queue[1:]
        events.append(_ev("stop_named", seat=seat, at=str(a.at), number=len(s.stops)))
        self._advance_stops(s, events)
        return False

    def _advance_stops(self, s: CatanState, events: list[Event]) -> None:
        geo = self.geo(s)
        while s.stop_queue and not race.nameable_stops(s, geo, s.stop_queue[0]):
            events.append(_ev("no_stop", seat=s.stop_queue[0]))
            s.stop_queue = s.stop_queue[1:]
        if s.stop_queue:
            s.phase = "stops"
            return
        if not s.stops:
            # Nobody could name a stop: there is no race to run, so the game ends on points.
            events.append(_ev("no_stops"))
            self._finish(s, events)
            return
        events.append(_ev("race_on", stops=[str(x) for x in s.stops]))
        self._begin_turn(s, (s.current + 1) % s.n)

    def _check_starter(self, s: CatanState, events: list[Event]) -> None:
        if s.starter is not None or s.phase in ("setup", "over"):
            return
        goal = components().race_start_points
        totals = self.totals(s)
        for seat in self._clockwise(s, s.current):
            if totals[seat] >= goal:
                s.starter = seat
                events.append(_ev("starter", seat=seat, points=totals[seat]))
                return

    # --- ending turns
    def _do_end(self, s: CatanState, seat: int, a: End, events: list[Event]) -> bool:
        if s.phase == "special":
            s.special_queue = s.special_queue[1:]
            events.append(_ev("special_done", seat=seat))
            if not s.special_queue:
                self._after_turn(s, events)
            return False
        self._end_turn(s, seat, events)
        return False

    def _end_turn(self, s: CatanState, seat: int, events: list[Event]) -> None:
        events.append(_ev("turn_ended", seat=seat))
        f = s.__dict__  # plain fields, written straight (see models._Stored)
        f["free_pieces"] = 0
        f["moving"] = False
        f["move_left"] = 0
        if s.n >= 5:
            # CE-B7: the others build in turn before the next player's turn.
            s.special_queue = [(seat + k) % s.n for k in range(1, s.n)]
            s.phase = "special"
            return
        self._after_turn(s, events)

    def _after_turn(self, s: CatanState, events: list[Event]) -> None:
        if s.race and self.race_stuck(s):
            events.append(_ev("race_stuck"))
            self._finish(s, events)
            return
        if s.starter is not None and not s.race:
            # CE-6: the race begins at the end of the turn in which the starter reached 8.
            s.race = True
            events.append(_ev("race_begins", seat=s.starter))
            rounds = components().stop_rounds[s.n]
            s.stop_queue = [x for _ in range(rounds) for x in self._clockwise(s, s.starter)]
            self._advance_stops(s, events)
            return
        self._begin_turn(s, (s.current + 1) % s.n)

    def race_stuck(self, s: CatanState) -> bool:
        """Whether the race can no longer end (a case the rulebook does not foresee): nobody can
        build another rail or ferry (none left, or only ferries with no coast beside their own
        network, which only their own pieces could extend), and no locomotive can reach every
        stop it still needs over the pieces on the board. The game then ends on points, like a
        race without stops."""
        dv = self._dv(s)
        geo = dv.geo
        memo = dv.memo  # both questions are about the pieces alone
        if "can_build" not in memo:
            memo["can_build"] = any(self.pieces_left(s, seat, what) > 0 and dv.spots(seat, what)
                                    for seat in range(s.n) for what in ("rail", "ferry"))
        if memo["can_build"]:
            return False
        for p in s.players:
            if p.loco is None:
                return False
            reach = memo.get(("reachable", p.loco))
            if reach is None:
                reach = memo["reachable", p.loco] = race.reachable(s, geo, p.loco)
            if {str(x) for x in s.stops if x not in p.towers} <= reach:
                return False
        return True

    def _finish(self, s: CatanState, events: list[Event]) -> None:
        s.phase = "over"
        s.moving = False
        s.history = s.history + [{"turn": s.turn, "seat": s.current, "roll": None, "points": self.totals(s)}]
        events.append(_ev("game_over"))

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
                                   harbours=sorted(self._harbours(state, i))))
        return out

    def ranking(self, state: CatanState) -> list[int]:
        """The seats in CE-10 order (see `_ranked`), the game over or not."""
        return [row.seat for row in self._ranked(state)[0]]

    def _ranked(self, state: CatanState) -> tuple[list[PlayerResult], list[Tie]]:
        """CE-10: most points; ties to the race winner, then the starter, then the nearest to
        the starter clockwise (from the first seat while nobody has started the race)."""
        starter = state.starter if state.starter is not None else 0
        by_seat = self.points_by_seat(state)
        rows = []
        for seat, p in enumerate(state.players):
            pts = by_seat[seat]
            rows.append(PlayerResult(seat=seat, rank=0, total=sum(pts.values()),
                                     lines=[ScoreLine(category=c, points=pts[c]) for c in CATEGORIES],
                                     stats={"towers": len(p.towers), "knights": p.knights,
                                            "chips": len(p.chips), "starter": state.starter == seat,
                                            "race_winner": state.race_winner == seat,
                                            "after_starter": (seat - starter) % state.n}))
        clockwise = (TieBreak("after_starter", "ce.tie.clockwise", lower=True, params={"from_seat": starter})
                     if state.starter is not None else TieBreak("after_starter", "ce.tie.seat_order", lower=True))
        breaks = (TieBreak("race_winner", "ce.tie.race_winner"), TieBreak("starter", "ce.tie.starter"), clockwise)
        ties = rank(rows, breaks, "ce.tie.shared")
        return rows, ties

    def result(self, state: CatanState) -> Result | None:
        if state.phase != "over":
            return None
        players, ties = self._ranked(state)
        reason = "race" if state.race_winner is not None else ("no_stops" if not state.stops else "race_stuck")
        return Result(players=players, categories=CATEGORIES, label_prefix="ce", reason=reason, ties=ties)

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
        if not self._is_active(state, seat):
            return None
        held = sum(state.players[seat].hand)
        if state.phase == "answer" and seat != state.current and held < sum(state.offer.get):
            return _NO
        if state.phase == "special" and held < _CHEAPEST:
            return _END
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
            return event("ce.do.answer_public", {})
        if action.kind == "discard":
            return event("ce.do.discard_public", {"count": sum(action.cards)})
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
        if state.phase == "answer" and seat != state.current and self._is_active(state, seat):
            return _NO
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

    def benchmarks(self) -> list[str]:
        """Catan Express's own bench figures (railyard bench catan_express): random games per
        second, the builder's decision times, apply and view late in the game."""
        return benchmark_lines(self)


def _card_moves(kind: str, limits: tuple[int, ...], size: int) -> tuple[Any, ...]:
    """Every discard, gold choice or Year of Plenty of `size` cards from `limits` (the hand or
    the bank), made once per hand (a big hand has hundreds); counts above `size` allow no more
    than `size` itself, so hands alike up to that share the list."""
    return _card_moves_capped(kind, tuple([n if n < size else size for n in limits]), size)


@lru_cache(maxsize=4096)
def _card_moves_capped(kind: str, limits: tuple[int, ...], size: int) -> tuple[Any, ...]:
    return tuple(_card_move(kind, m) for m in _multisets(limits, size))


@lru_cache(maxsize=32768)
def _card_move(kind: str, cards: tuple[int, ...]) -> Any:
    return _CARD_MODELS[kind](cards=cards)


@lru_cache(maxsize=2048)
def _robber(hex_label: str, victim: int | None, knight: bool) -> Robber:
    return Robber(hex=hex_label, victim=victim, knight=knight)


@lru_cache(maxsize=1024)
def _build(what: str, at: str) -> Build:
    """The move, made once per place: the same builds are listed move after move."""
    return Build(what=what, at=at)


@lru_cache(maxsize=64)
def _yields(map_id: str, layout: str, seed: int) -> tuple[dict[int, dict[str, int]], dict[str, str]]:
    """A board's hexes by number token, and terrain per hex label (what production reads on
    every roll: only the hexes of the number rolled)."""
    board = board_for(map_id, layout, seed)
    by_number: dict[int, dict[str, int]] = {}
    for x in board.land:
        if x.token is not None:
            by_number.setdefault(x.token, {})[board.label(x.hex)] = x.token
    return by_number, {board.label(x.hex): x.terrain.value for x in board.land}


_END, _ROLL, _BUY = End(), Roll(), Buy()
_ENDS, _ROLLS, _BUYS = (_END,), (_ROLL,), (_BUY,)


def _bumped(counts: list[int], i: int) -> list[int]:
    """A new list of counts with one more at `i` (states share lists; see CatanState.fork)."""
    out = list(counts)
    out[i] += 1
    return out


def _one(i: int, n: int) -> tuple[int, int, int, int, int]:
    counts = [0] * len(RESOURCES)
    counts[i] = n
    return tuple(counts)  # type: ignore[return-value]


# Facts of the rulebook's tables, looked up on every move: costs as counts, the points
# (a card, a chip, a tower, Largest Army, Fastest Driver, a settlement, a city), indexes.
_COST = {k: economy.cost(k).counts for k in ("settlement", "city", "development_card", "rail", "ferry")}
_CHEAPEST = min(sum(cost) for cost in _COST.values())  # cards the cheapest build or purchase takes
_NOTHING = (0,) * len(RESOURCES)
_P = components().points
_POINTS = (_P.victory_point_card, _P.victory_point_chip, _P.water_tower, components().largest_army.points,
           _P.fastest_driver, _P.settlement, _P.city)
_KIND_AT = {k: i for i, k in enumerate(KINDS)}
_CARD_OF = {k.value: k for k in DevCard}
_RESOURCE_AT = {r.value: i for i, r in enumerate(RESOURCES)}

# Moves listed again and again, made once (they are frozen values, so states and menus share
# them), and the names pydantic records as set for the models made without validation
# (models.made).
_MONOPOLIES = tuple(Monopoly(resource=r.value) for r in RESOURCES)
_ROADS = Roads()
_YES, _NO = Answer(accept=True), Answer(accept=False)
_ANSWERS, _REFUSAL = (_YES, _NO), (_NO,)
_WITHDRAW = Partner()
_CARD_MODELS = {"discard": Discard, "gold": Gold, "plenty": Plenty}
_CARD_KINDS = frozenset({"monopoly", "plenty", "roads", "robber"})  # the kinds of a development card played
_LEGS_SET = {"legs"}
_OFFER_SET = {"give", "get"}
_RESULT_SET = {"state", "events", "undoable"}


class _Seats(dict):
    """seat -> frozenset((seat,)), made once per seat (who is to move, on every move)."""

    def __missing__(self, seat: int) -> frozenset[int]:
        out = self[seat] = frozenset((seat,))
        return out


_SEAT = _Seats()


@lru_cache(maxsize=256)
def _with_fees(base: tuple[int, ...], owners: int) -> tuple[int, ...]:
    """A piece's price: `base` plus the parallel fee for each of `owners` (economy.build_price)."""
    return tuple(b + owners * f for b, f in zip(base, economy.parallel_fee().counts))


@lru_cache(maxsize=64)
def _building(seat: int, kind: str) -> Building:
    """A building, made once per seat and kind (frozen, so states share it)."""
    return Building(seat=seat, kind=kind)


@lru_cache(maxsize=64)
def _partner(seat: int) -> Partner:
    return Partner(seat=seat)


@lru_cache(maxsize=1024)
def _stop(at: int) -> NameStop:
    return NameStop(at=at)


@lru_cache(maxsize=4096)
def _ride_of(to: str, payee: int | None, resource: str | None) -> Ride:
    return Ride(legs=(race.leg(to, payee, resource),))


def _ride(leg: Leg) -> Ride:
    """The one-leg ride, made once per leg: the same steps are listed turn after turn."""
    return _ride_of(leg.to, leg.payee, leg.resource)


@lru_cache(maxsize=64)
def _land_labels(map_id: str, layout: str, seed: int) -> tuple[str, ...]:
    """The land hexes' labels in the board's order (where the robber may go)."""
    board = board_for(map_id, layout, seed)
    return tuple(board.label(x.hex) for x in board.land)


@lru_cache(maxsize=64)
def _land_label_set(map_id: str, layout: str, seed: int) -> frozenset[str]:
    return frozenset(_land_labels(map_id, layout, seed))


def _victims(players: list[PlayerState], thief: int, on_hex: Any) -> tuple[int, ...]:
    """economy.robbable from the stored hands: others on the hex holding a card."""
    return tuple(sorted({s for s, _ in on_hex if s != thief and any(players[s].hand)}))


_LEAST_RATIO = min(economy.trade_ratio(r, kinds) for r in RESOURCES
                   for kinds in ((), (economy.GENERIC_HARBOUR,), (r.value,)))


@lru_cache(maxsize=256)
def _ratios(harbours: frozenset[str]) -> tuple[int, ...]:
    """Each resource's bank trade ratio for a seat with buildings on these harbours."""
    return tuple(economy.trade_ratio(r, harbours) for r in RESOURCES)


@lru_cache(maxsize=1024)
def _bank_trade(give: int, ratio: int, get: int) -> BankTrade:
    return BankTrade(give=_one(give, ratio), get=_one(get, 1))


def _dice(seed: int, draws: int) -> list[int]:
    """Two dice from (seed, draws): SeededRng(seed, draws, "ce.dice").randint(1, 6) twice, its
    draws spelled out (randint(1, 6) is 1 + randbelow(6)) as a roll happens every turn."""
    bits = random.Random(derive(seed, draws, "ce.dice")).getrandbits
    out = []
    for _ in range(2):
        r = bits(3)
        while r >= 6:
            r = bits(3)
        out.append(1 + r)
    return out


# Each kind of move's handler (CatanExpress._do_<kind>), looked up once.
_HANDLERS = {name[len("_do_"):]: fn for name, fn in vars(CatanExpress).items() if name.startswith("_do_")}

GAME = CatanExpress()

__all__ = ["GAME", "CatanExpress", "Resource", "Terrain", "Leg"]
