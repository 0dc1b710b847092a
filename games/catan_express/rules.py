"""Catan Express: the railway variant of Catan for 3–6 players, with its race (rulebook;
rulings CE-B1 … CE-B7, CE-M1 … CE-M3, CE-1 … CE-12).

The engine strings together the pure modules beside it — economy.py (resource cards and the
bank), cards.py (the development deck), geo.py / rail.py (the rail graph), race.py (stops and
locomotives) — over the stored state of models.py. `apply` clones the state, changes the clone
and returns it with the move's events.

Phases
    setup    snake order (CE-B6, CE-3): a settlement; in the second round also the start cards
             and the free rail from it, where the locomotive stands
    roll     the player to move rolls (or plays a Knight first)
    gold     gold river owners choose their cards, in turn order from the roller (CE-B1)
    discard  a 7: everyone over 7 cards discards half, all at once and in secret (CE-B4)
    robber   the roller moves the robber and robs
    main     trade, build, buy and play cards, then (in the race) move the locomotive, end
    answer   the other players answer an offer, all at once and in secret (CE-B5)
    pick     the offerer picks one of those who accepted, or withdraws
    special  5–6 players: the others build in turn after each turn (CE-B7)
    stops    the race begins: stops are named in turn from the starter (CE-6, CE-7)
    over
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.protocol import ApplyResult, Game, PlayerResult, Result, ScoreLine
from games.core.rng import SeededRng
from games.core.vocabulary import Vocabulary
from games.catan_express import cards as deckmod
from games.catan_express import decisions, economy, notation, race
from games.catan_express.benchmarks import benchmark_lines
from games.catan_express.bots import BOTS
from games.catan_express.cards import KINDS, PlayerCards
from games.catan_express.components import RESOURCES, DevCard, Resource, components
from games.catan_express.economy import Hand, Holdings
from games.catan_express.geo import Geo, board_for, geo_for, harbour_kinds
from games.catan_express.maps import Board, Terrain
from games.catan_express.models import (MAX_OFFERS, OFFER_GET_MAX, OFFER_GIVE_MAX, Answer, BankTrade, Build,
                                        Building, Buy, CatanAction, CatanOptions, CatanState, CatanView, Discard, End,
                                        Gold, Leg, Monopoly, NameStop, Offer, Partner, Plenty, PlayerState, Propose,
                                        Ride, Roads, Robber, Roll, SeatSummary, shallow)

# The moves that can change someone's victory points (buildings, a revealed card, Largest Army,
# chips, towers): only after these can the race's starter appear (CE-6).
SCORING_KINDS = frozenset({"build", "buy", "robber", "ride"})
CATEGORIES = ["settlements", "cities", "vp_cards", "chips", "largest_army", "towers", "fastest_driver"]


def _ev(key: str, to: tuple[int, ...] | None = None, **params: Any) -> Event:
    return Event(key=f"ce.ev.{key}", params=params, to=to)


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


@lru_cache(maxsize=4096)
def offers_for(hand: tuple[int, ...]) -> tuple["Propose", ...]:
    """Every offer a hand can make within the menus' bounds: 1 to OFFER_GIVE_MAX of its cards
    for 1 to OFFER_GET_MAX cards of resources it does not give (no gifts, no like for like).
    The moves are frozen values, so one hand's list is built once and shared."""
    out = []
    for k in range(1, OFFER_GIVE_MAX + 1):
        for give in _multisets(hand, k):
            free = tuple(0 if g else OFFER_GET_MAX for g in give)
            for m in range(1, OFFER_GET_MAX + 1):
                out += [Propose(give=give, get=get) for get in _multisets(free, m)]
    return tuple(out)


class CatanExpress(Game[CatanState, Any, CatanView]):
    name = "catan_express"
    min_players = 3
    max_players = 6
    options_model = CatanOptions
    state_model = CatanState
    action_model = CatanAction
    view_model = CatanView

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
            return frozenset((state.gold_owed[0][0],))
        if phase == "discard":
            return frozenset(state.discards)
        if phase == "answer":
            return frozenset(s for s in range(state.n) if s != state.current and s not in state.offer.answers)
        if phase == "special":
            return frozenset((state.special_queue[0],))
        if phase == "stops":
            return frozenset((state.stop_queue[0],))
        return frozenset((state.current,))

    # ------------------------------------------------------------------ facts
    def holdings(self, state: CatanState) -> Holdings:
        return Holdings(Hand(tuple(state.bank)), tuple(Hand(tuple(p.hand)) for p in state.players))

    @staticmethod
    def _store(state: CatanState, h: Holdings) -> None:
        """Write the cards back: the bank, and the hands that changed (a new list each, as
        `CatanState.fork` expects). Plain fields, written without pydantic's attribute hook,
        which costs more than the copying here and checks nothing these fields need."""
        state.__dict__["bank"] = list(h.bank.counts)
        for p, hand in zip(state.players, h.hands):
            if tuple(p.hand) != hand.counts:
                d = p.__dict__
                d["hand"] = list(hand.counts)
                d["cards"] = hand.total

    def pieces_left(self, state: CatanState, seat: int, what: str) -> int:
        c = components().pieces_per_player
        if what in ("rail", "ferry"):
            geo = self.geo(state)
            used = sum(1 for piece, owners in state.pieces.items() if seat in owners and geo.kind[piece] == what)
        else:
            used = sum(1 for b in state.buildings.values() if b.seat == seat and b.kind == what)
        return c[what] - used

    def city_cap(self, state: CatanState) -> int:
        c = components()
        return c.cities_before_race + (c.cities_added_at_race if state.race else 0)

    def touched(self, state: CatanState, geo: Geo, point: int) -> bool:
        """Whether any rail or ferry ends at this intersection (CE-4)."""
        return any(state.pieces.get(piece) for piece in geo.at.get(str(point), ()))

    def harbours(self, state: CatanState, seat: int) -> set[str]:
        kinds = harbour_kinds(state.map_id, state.options.layout, state.seed)
        return {kinds[pt] for pt, b in state.buildings.items() if b.seat == seat and pt in kinds}

    def points_by_seat(self, state: CatanState) -> list[dict[str, int]]:
        """Every seat's victory points by category (CATEGORIES), in one pass over the board:
        the one place the points are counted, for the result, the view and the race's start."""
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
        return sum(self.points(state, seat).values())

    def totals(self, state: CatanState) -> list[int]:
        return [sum(p.values()) for p in self.points_by_seat(state)]

    # ------------------------------------------------------------------ legal moves
    def settlement_spots(self, state: CatanState, geo: Geo) -> list[int]:
        """Free intersections no building neighbours and no rail or ferry touches (CE-4, CE-B6)."""
        return [pt for pt in geo.intersections if self._settlement_spot(state, geo, pt)]

    def piece_spots(self, state: CatanState, geo: Geo, seat: int, what: str) -> list[str]:
        """Spokes (rails) or coast edges (ferries) sharing a point with the seat's network and
        not already holding one of the seat's pieces (CE-2)."""
        net = race.network_points(state, geo, seat)
        out = []
        seen = set()
        for point in sorted(net, key=_point_key):
            for piece in geo.at.get(point, ()):
                if piece in seen or geo.kind[piece] != what:
                    continue
                seen.add(piece)
                if seat not in state.pieces.get(piece, ()):
                    out.append(piece)
        return out

    def _price(self, state: CatanState, seat: int, what: str, at: str, free: bool) -> Hand:
        owners = sorted(set(state.pieces.get(at, ()))) if what in ("rail", "ferry") else []
        return economy.build_price(what, owners, free=free)  # type: ignore[arg-type]

    def builds(self, state: CatanState, seat: int, *, free_only: bool = False) -> list[Build]:
        geo = self.geo(state)
        hand = Hand(tuple(state.players[seat].hand))
        out: list[Build] = []
        free = state.free_pieces > 0 and seat == state.current and state.phase == "main"
        if not free_only:
            if self.pieces_left(state, seat, "settlement") > 0 and hand.covers(economy.cost("settlement")):
                out += [_build("settlement", str(pt)) for pt in self.settlement_spots(state, geo)]
            cities = sum(1 for b in state.buildings.values() if b.seat == seat and b.kind == "city")
            if (cities < self.city_cap(state) and self.pieces_left(state, seat, "city") > 0
                    and hand.covers(economy.cost("city"))):
                out += [_build("city", str(pt)) for pt, b in sorted(state.buildings.items())
                        if b.seat == seat and b.kind == "settlement" and self.touched(state, geo, pt)]
        for what in ("rail", "ferry"):
            if self.pieces_left(state, seat, what) <= 0:
                continue
            for piece in self.piece_spots(state, geo, seat, what):
                if hand.covers(self._price(state, seat, what, piece, free)):
                    out.append(_build(what, piece))
        return out

    def robber_moves(self, state: CatanState, seat: int, knight: bool) -> list[Robber]:
        board = self.board(state)
        h = self.holdings(state)
        by_hex = self._buildings_by_hex(state)
        out: list[Robber] = []
        for land in board.land:
            lab = board.label(land.hex)
            if lab == state.robber:
                continue
            victims = economy.robbable(h, seat, lab, by_hex)
            if victims:
                out += [_robber(lab, v, knight) for v in victims]
            else:
                out.append(_robber(lab, None, knight))
        return out

    def _buildings_by_hex(self, state: CatanState, only: Any = None) -> dict[str, list[tuple[int, str]]]:
        """Hex label -> the (seat, kind) of each building on its corners; with `only`, just
        for those hexes (a roll needs the few that produce)."""
        geo = self.geo(state)
        out: dict[str, list[tuple[int, str]]] = {}
        for pt, b in state.buildings.items():
            for lab in geo.land_of[pt]:
                if only is None or lab in only:
                    out.setdefault(lab, []).append((b.seat, b.kind))
        return out

    def can_play(self, state: CatanState, seat: int, card: DevCard) -> bool:
        p = state.players[seat]
        return not p.played_card and p.dev[KINDS.index(card)] > 0

    def card_plays(self, state: CatanState, seat: int) -> list[Any]:
        out: list[Any] = []
        if self.can_play(state, seat, DevCard.MONOPOLY):
            out += [Monopoly(resource=r.value) for r in RESOURCES]
        if self.can_play(state, seat, DevCard.YEAR_OF_PLENTY):
            due = min(components().year_of_plenty_cards, sum(state.bank))
            if due:
                out += _card_moves("plenty", tuple(state.bank), due)
        if self.can_play(state, seat, DevCard.ROAD_BUILDING) and state.free_pieces == 0:
            if self.pieces_left(state, seat, "rail") + self.pieces_left(state, seat, "ferry") > 0:
                out.append(Roads())
        if self.can_play(state, seat, DevCard.KNIGHT):
            out += self.robber_moves(state, seat, knight=True)
        return out

    def bank_trades(self, state: CatanState, seat: int) -> list[BankTrade]:
        hand = state.players[seat].hand
        ports = self.harbours(state, seat)
        out = []
        for i, r in enumerate(RESOURCES):
            ratio = economy.trade_ratio(r, ports)
            if hand[i] < ratio:
                continue
            for j in range(len(RESOURCES)):
                if j != i and state.bank[j]:
                    out.append(BankTrade(give=_one(i, ratio), get=_one(j, 1)))
        return out

    def offers(self, state: CatanState, seat: int) -> list[Propose]:
        if state.offers_made >= MAX_OFFERS:
            return []
        return list(offers_for(tuple(state.players[seat].hand)))

    def ride_legs(self, state: CatanState, seat: int) -> list[Ride]:
        p = state.players[seat]
        if not self.may_ride(state, seat):
            return []
        geo = self.geo(state)
        return [Ride(legs=(o.leg,)) for o in race.legs_from(state, geo, seat, str(p.loco), p.hand)]

    def ride_routes(self, state: CatanState, seat: int) -> list[Ride]:
        if not self.may_ride(state, seat):
            return []
        found = race.routes(state, self.geo(state), seat, self.transfer_stop(state))
        return [Ride(legs=legs) for legs in found if len(legs) > 1]

    def may_ride(self, state: CatanState, seat: int) -> bool:
        return (state.race and state.phase == "main" and seat == state.current and state.move_left > 0
                and state.players[seat].loco is not None)

    def transfer_stop(self, state: CatanState) -> bool:
        return state.options.map == "islands" and state.options.transfer_stop

    def legal_actions(self, state: CatanState, seat: int) -> list[Any]:
        return self._legal(state, seat, None)

    def _legal(self, state: CatanState, seat: int, want: str | None) -> list[Any]:
        """The legal moves of `seat`, or only those of kind `want` (what `apply` checks a move
        against: an offer's hundreds of variants need not be listed to check a build)."""
        if seat not in self.active_players(state):
            return []

        def wants(kind: str) -> bool:
            return want is None or want == kind

        phase = state.phase
        p = state.players[seat]
        out: list[Any] = []
        if phase == "setup":
            geo = self.geo(state)
            if state.setup_rail:
                return [Build(what="rail", at=piece) for piece in geo.at[str(p.start)] if geo.kind[piece] == "rail"]
            return [Build(what="settlement", at=str(pt)) for pt in self.settlement_spots(state, geo)]
        if phase == "roll":
            out.append(_ROLL)
            if wants("robber") and self.can_play(state, seat, DevCard.KNIGHT):
                out += self.robber_moves(state, seat, knight=True)
            return out
        if phase == "gold":
            owed = min(state.gold_owed[0][1], sum(state.bank))
            return list(_card_moves("gold", tuple(state.bank), owed))
        if phase == "discard":
            return list(_card_moves("discard", tuple(p.hand), state.discards[seat]))
        if phase == "robber":
            return self.robber_moves(state, seat, knight=False)
        if phase == "answer":
            out = [Answer(accept=False)]
            if Hand(tuple(p.hand)).covers(Hand(tuple(state.offer.get))):
                out.insert(0, Answer(accept=True))
            return out
        if phase == "pick":
            return [Partner()] + [Partner(seat=s) for s in self.acceptors(state)]
        if phase == "stops":
            return [NameStop(at=pt) for pt in race.nameable_stops(state, self.geo(state), seat)]
        out.append(_END)
        if phase == "main" and state.moving:
            if wants("ride"):
                out += self.ride_legs(state, seat) + self.ride_routes(state, seat)
            return out
        if wants("build"):
            out += self.builds(state, seat)
        if wants("buy") and self.can_buy(state, seat):
            out.append(_BUY)
        if phase == "special":
            return out
        if want is None or want in ("monopoly", "plenty", "roads", "robber"):
            out += self.card_plays(state, seat)
        if wants("bank"):
            out += self.bank_trades(state, seat)
        if wants("offer"):
            out += self.offers(state, seat)
        if wants("ride"):
            out += self.ride_legs(state, seat) + self.ride_routes(state, seat)
        return out

    def can_buy(self, state: CatanState, seat: int) -> bool:
        return bool(state.deck) and Hand(tuple(state.players[seat].hand)).covers(economy.cost("development_card"))

    def acceptors(self, state: CatanState) -> list[int]:
        return sorted(s for s, yes in state.offer.answers.items() if yes) if state.offer else []

    # ------------------------------------------------------------------ applying
    def apply(self, state: CatanState, seat: int, action: Any) -> ApplyResult:
        if seat not in self.active_players(state):
            raise IllegalAction("not_active", waiting=sorted(self.active_players(state)))
        if not self.allows(state, seat, action):
            raise self._refusal(state, seat, action)
        s = state.fork()
        s.last = []
        events: list[Event] = []
        undoable = False
        kind = action.kind
        handler = getattr(self, f"_do_{kind}")
        out = handler(s, seat, action, events)
        if out is True:
            undoable = True
        # The public counts (CE-12) follow the cards: `_store` counts a hand it writes, and the
        # moves that change development cards count those.
        s.deck_left = len(s.deck)
        if kind in SCORING_KINDS:
            self._check_starter(s, events)
        s.last = events
        return ApplyResult(state=s, events=events, undoable=undoable)

    def allows(self, state: CatanState, seat: int, action: Any) -> bool:
        """Whether the rules allow `action` by `seat` now (the seat is active). The same answer
        as membership in `legal_actions`, asked of the rule directly for the kinds with many
        variants; and wider in two ways the menus are not: a bank trade of several lots at once,
        and a ride along any legal path (the menus list single legs and one route per stop)."""
        kind = action.kind
        phase = state.phase
        main = phase == "main" and not state.moving
        p = state.players[seat]
        if kind == "build":
            return self._build_allowed(state, seat, action)
        if kind == "robber":
            if action.knight:
                if not ((phase == "roll" or main) and self.can_play(state, seat, DevCard.KNIGHT)):
                    return False
            elif phase != "robber":
                return False
            return self._robber_allowed(state, seat, action)
        if kind in ("discard", "gold", "plenty"):
            cards = Hand(action.cards)
            if kind == "discard":
                return phase == "discard" and cards.total == state.discards[seat] and Hand(tuple(p.hand)).covers(cards)
            if kind == "gold":
                due = min(state.gold_owed[0][1], sum(state.bank)) if phase == "gold" else -1
            else:
                due = (min(components().year_of_plenty_cards, sum(state.bank))
                       if main and self.can_play(state, seat, DevCard.YEAR_OF_PLENTY) else -1)
            return cards.total == due and due > 0 and Hand(tuple(state.bank)).covers(cards)
        if kind == "monopoly":
            return main and self.can_play(state, seat, DevCard.MONOPOLY)
        if kind == "bank":
            if not main:
                return False
            try:
                economy.bank_trade(self.holdings(state), seat, Hand(action.give), Hand(action.get),
                                   self.harbours(state, seat))
            except IllegalAction:
                return False
            return True
        if kind == "offer":
            give, get = action.give, action.get
            return (main and state.offers_made < MAX_OFFERS and 1 <= sum(give) <= OFFER_GIVE_MAX
                    and 1 <= sum(get) <= OFFER_GET_MAX and not any(g and w for g, w in zip(give, get))
                    and Hand(tuple(p.hand)).covers(Hand(give)))
        if kind == "answer":
            return phase == "answer" and (not action.accept or Hand(tuple(p.hand)).covers(Hand(tuple(state.offer.get))))
        if kind == "ride":
            if not self.may_ride(state, seat):
                return False
            if len(action.legs) == 1:
                return action in self.ride_legs(state, seat)
            return self._walk(state.fork(), seat, action, [], dry=True)
        return action in self._legal(state, seat, kind)

    def _build_allowed(self, state: CatanState, seat: int, a: Build) -> bool:
        geo = self.geo(state)
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
        hand = Hand(tuple(p.hand))
        if a.what in ("settlement", "city"):
            if not a.at.isdigit() or not hand.covers(economy.cost(a.what)):
                return False
            pt = int(a.at)
            if a.what == "settlement":
                return self._settlement_spot(state, geo, pt)
            b = state.buildings.get(pt)
            cities = sum(1 for x in state.buildings.values() if x.seat == seat and x.kind == "city")
            return (b is not None and b.seat == seat and b.kind == "settlement" and self.touched(state, geo, pt)
                    and cities < self.city_cap(state))
        if geo.kind.get(a.at) != a.what or seat in state.pieces.get(a.at, ()):
            return False
        if not any(seat in state.pieces.get(x, ()) for pt in geo.ends[a.at] for x in geo.at.get(pt, ())):
            return False
        free = state.free_pieces > 0 and phase == "main"
        return hand.covers(self._price(state, seat, a.what, a.at, free))

    def _settlement_spot(self, state: CatanState, geo: Geo, pt: int) -> bool:
        taken = state.buildings
        return (pt in geo.neighbours and pt not in taken and not any(n in taken for n in geo.neighbours[pt])
                and not self.touched(state, geo, pt))

    def _robber_allowed(self, state: CatanState, seat: int, a: Robber) -> bool:
        board = self.board(state)
        try:
            h = board.hex_at(a.hex)
        except ValueError:
            return False
        if not board.is_land(h) or a.hex == state.robber:
            return False
        victims = economy.robbable(self.holdings(state), seat, a.hex, self._buildings_by_hex(state))
        return a.victim in victims if victims else a.victim is None

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
        if kind == "plenty" and phase == "main" and self.can_play(state, seat, DevCard.YEAR_OF_PLENTY):
            due = min(components().year_of_plenty_cards, sum(state.bank))
            if Hand(action.cards).total != due:
                return IllegalAction("ce.plenty_count", count=due)
            return IllegalAction("ce.bank_short", resources=economy.lacking(Hand(tuple(state.bank)), Hand(action.cards)))
        if kind == "bank" and phase == "main" and not state.moving:
            try:
                economy.bank_trade(self.holdings(state), seat, Hand(action.give), Hand(action.get),
                                   self.harbours(state, seat))
            except IllegalAction as exc:
                return exc
        if kind == "offer" and phase == "main":
            if state.offers_made >= MAX_OFFERS:
                return IllegalAction("ce.offer_limit", count=MAX_OFFERS)
            return IllegalAction("ce.offer_terms", give=OFFER_GIVE_MAX, get=OFFER_GET_MAX)
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
            board = self.board(state)
            try:
                on_land = board.is_land(board.hex_at(action.hex))
            except ValueError:
                on_land = False
            if not on_land:
                return IllegalAction("ce.robber_on_land", hex=action.hex)
            if action.hex == state.robber:
                return IllegalAction("ce.robber_must_move")
            victims = economy.robbable(self.holdings(state), seat, action.hex, self._buildings_by_hex(state))
            if action.victim is None:
                return IllegalAction("ce.robber_must_rob", seats=list(victims))
            if victims:
                return IllegalAction("ce.cannot_rob", victim_seat=action.victim)
            return IllegalAction("ce.nobody_to_rob", hex=action.hex)
        if kind == "answer" and phase == "answer" and action.accept:
            return IllegalAction("ce.cannot_accept", cards=Hand(tuple(state.offer.get)).param())
        if kind == "partner" and phase == "pick" and action.seat is not None:
            return IllegalAction("ce.not_an_acceptor", partner_seat=action.seat)
        if kind == "ride":
            if not state.race:
                return IllegalAction("ce.race_not_started")
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
        geo = self.geo(s)
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
        if a.what == "settlement":
            s.buildings[int(a.at)] = Building(seat=seat, kind="settlement")
        elif a.what == "city":
            s.buildings[int(a.at)] = Building(seat=seat, kind="city")
        else:
            parallel = bool(s.pieces.get(a.at))
            s.pieces[a.at] = s.pieces.get(a.at, []) + [seat]
            self._chips(s, seat, a.at, events, geo)
            if parallel:
                events.append(_ev("built_parallel", seat=seat, what={"key": f"ce.piece.{a.what}"}, at=a.at))
        events.insert(0, _ev("built", seat=seat, what={"key": f"ce.piece.{a.what}"}, at=a.at))
        s.last_build = [a.at]

    def _chips(self, s: CatanState, seat: int, piece: str, events: list[Event], geo: Geo) -> None:
        """CE-5: a chip for each other player's building the network comes to touch (once per
        building), and for each other player's network it comes to join (once per pair)."""
        p = s.players[seat]
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
        p = s.players[seat]
        if a.what == "settlement":
            pt = int(a.at)
            s.buildings[pt] = Building(seat=seat, kind="settlement")
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
        s.pieces[a.at] = s.pieces.get(a.at, []) + [seat]
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
        s.current = seat
        s.turn += 1
        s.phase = "roll"
        s.dice = []
        s.free_pieces = 0
        s.moving = False
        s.move_left = 0
        s.moved_on = None
        s.offer = None
        s.offers_made = 0
        p = s.players[seat]
        # Cards bought in an earlier turn (a special building turn too) become playable now.
        p.dev = [a + b for a, b in zip(p.dev, p.dev_new)]
        p.dev_new = [0] * len(KINDS)
        p.played_card = False

    def _do_roll(self, s: CatanState, seat: int, a: Roll, events: list[Event]) -> bool:
        rng = SeededRng(s.seed, s.draws, "ce.dice")
        s.draws += 1
        s.dice = [rng.randint(1, 6), rng.randint(1, 6)]
        roll = sum(s.dice)
        events.append(_ev("rolled", seat=seat, dice=list(s.dice), total=roll))
        if s.race:
            s.move_left = max(s.dice)
        s.history = s.history + [{"turn": s.turn, "seat": seat, "roll": roll, "points": self.totals(s)}]
        if roll == components().robber_roll:
            s.discards = economy.discards_due(self.holdings(s))
            if s.discards:
                events.append(_ev("must_discard", seats=sorted(s.discards)))
                s.phase = "discard"
            else:
                s.phase = "robber"
            return False
        tokens, terrains = _yields(s.map_id, s.options.layout, s.seed)
        rolling = tokens.get(roll, {})
        prod = economy.production(roll, rolling, terrains, s.robber, self._buildings_by_hex(s, rolling))
        out = economy.distribute(self.holdings(s), prod.owed)
        self._store(s, out.holdings)
        events += out.events
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
            p = s.players[seat]
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
        p = s.players[seat]
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
        p = s.players[seat]
        bought = deckmod.buy(self.holdings(s), PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card,
                                                           p.knights, p.vp_cards),
                             tuple(DevCard(k) for k in s.deck))
        self._store(s, bought.holdings)
        p.dev, p.dev_new, p.vp_cards = list(bought.cards.held), list(bought.cards.new), bought.cards.points
        p.dev_cards = sum(p.dev) + sum(p.dev_new)
        s.deck = [k.value for k in bought.deck]
        events += bought.events
        return False

    # --- trading
    def _do_bank(self, s: CatanState, seat: int, a: BankTrade, events: list[Event]) -> bool:
        out = economy.bank_trade(self.holdings(s), seat, Hand(a.give), Hand(a.get), self.harbours(s, seat))
        self._store(s, out.holdings)
        events += out.events
        return True

    def _do_offer(self, s: CatanState, seat: int, a: Propose, events: list[Event]) -> bool:
        s.offer = Offer(give=list(a.give), get=list(a.get))
        s.offers_made += 1
        s.phase = "answer"
        events.append(_ev("offered", seat=seat, gave=Hand(a.give).param(), got=Hand(a.get).param()))
        return False

    def _do_answer(self, s: CatanState, seat: int, a: Answer, events: list[Event]) -> bool:
        offer = shallow(s.offer)
        offer.__dict__["answers"] = {**s.offer.answers, seat: a.accept}
        s.offer = offer
        events.append(_ev("answered", seat=seat))
        if len(s.offer.answers) < s.n - 1:
            return False
        yes = self.acceptors(s)
        no = sorted(x for x, v in s.offer.answers.items() if not v)
        events.append(_ev("answers", accepted=yes, refused=no))
        if yes:
            s.phase = "pick"
        else:
            s.offer = None
            s.phase = "main"
        return False

    def _do_partner(self, s: CatanState, seat: int, a: Partner, events: list[Event]) -> bool:
        offer = s.offer
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
        geo = self.geo(s)
        p = s.players[seat]
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
            kind = geo.kind[piece]
            changed = s.moved_on is not None and kind != s.moved_on
            s.moved_on = kind
            p.loco = leg.to
            s.move_left -= 1
            s.last_ride = s.last_ride + [leg.to]
            if race.ends_move_at(s, seat, leg.to):
                p.towers = p.towers + [int(leg.to)]
                s.move_left = 0
                if not dry:
                    events.append(_ev("tower", seat=seat, at=leg.to, count=len(p.towers), of=len(s.stops)))
            elif changed and self.transfer_stop(s):
                s.move_left = 0
                if not dry:
                    events.append(_ev("transfer_stop", seat=seat, at=leg.to))
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
        s.free_pieces = 0
        s.moving = False
        s.move_left = 0
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
        geo = self.geo(s)
        for seat in range(s.n):
            for what in ("rail", "ferry"):
                if self.pieces_left(s, seat, what) > 0 and self.piece_spots(s, geo, seat, what):
                    return False
        for p in s.players:
            missing = {str(x) for x in s.stops if x not in p.towers}
            if p.loco is None or missing <= race.reachable(s, geo, p.loco):
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
        shown.seed = 0
        shown.deck = []
        for i, p in enumerate(shown.players):
            if i != seat:
                p.hand = None
                p.dev = None
                p.dev_new = None
        if shown.offer is not None and state.phase == "answer":
            shown.offer.answers = {s: v for s, v in shown.offer.answers.items() if s == seat}
        shown.last = [e for e in shown.last if e.to is None or (seat is not None and seat in e.to)]
        legal = [self.format_action(a) for a in self.legal_actions(state, seat)] if seat is not None else []
        return CatanView(viewer=seat, state=shown, board_seed=state.seed, seats=self.summaries(state),
                         active=sorted(self.active_players(state)), legal=legal, result=self.result(state),
                         accepted=self.acceptors(state) if state.phase == "pick" else [])

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
                                   largest_army=state.largest_army == i, fastest=p.fastest))
        return out

    def ranking(self, state: CatanState) -> list[int]:
        """CE-10: most points; ties to the race winner, then the starter, then the nearest to
        the starter clockwise."""
        starter = state.starter if state.starter is not None else 0
        totals = self.totals(state)

        def key(seat: int) -> tuple:
            return (-totals[seat], seat != state.race_winner, (seat - starter) % state.n)

        return sorted(range(state.n), key=key)

    def result(self, state: CatanState) -> Result | None:
        if state.phase != "over":
            return None
        players = []
        by_seat = self.points_by_seat(state)
        for rank, seat in enumerate(self.ranking(state), start=1):
            pts = by_seat[seat]
            lines = [ScoreLine(category=c, points=pts[c]) for c in CATEGORIES]
            p = state.players[seat]
            players.append(PlayerResult(seat=seat, rank=rank, total=sum(pts.values()), lines=lines,
                                        stats={"towers": len(p.towers), "knights": p.knights,
                                               "chips": len(p.chips), "starter": state.starter == seat,
                                               "race_winner": state.race_winner == seat}))
        reason = "race" if state.race_winner is not None else ("no_stops" if not state.stops else "race_stuck")
        return Result(players=players, categories=CATEGORIES, label_prefix="ce", reason=reason)

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

    def public_notation(self, action: Any) -> str:
        # A discard and an answer name cards or choices the others may not see (CE-12): the
        # log says only what kind of move it was. (A gold river's cards are told to all, as
        # production is.)
        if action.kind in ("discard", "answer"):
            return action.kind
        return self.format_action(action)

    def vocabulary(self) -> Vocabulary:
        return Vocabulary()

    def timeout_action(self, state: CatanState, seat: int) -> Any:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("no_legal_action")
        if state.phase == "answer":
            return Answer(accept=False)
        if state.phase == "pick":
            return Partner()
        return legal[0]

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


@lru_cache(maxsize=4096)
def _card_moves(kind: str, limits: tuple[int, ...], size: int) -> tuple[Any, ...]:
    """Every discard, gold choice or Year of Plenty of `size` cards from `limits` (the hand or
    the bank), made once per hand: a big hand has hundreds."""
    model = {"discard": Discard, "gold": Gold, "plenty": Plenty}[kind]
    return tuple(model(cards=m) for m in _multisets(limits, size))


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


def _bumped(counts: list[int], i: int) -> list[int]:
    """A new list of counts with one more at `i` (states share lists; see CatanState.fork)."""
    out = list(counts)
    out[i] += 1
    return out


def _one(i: int, n: int) -> tuple[int, int, int, int, int]:
    counts = [0] * len(RESOURCES)
    counts[i] = n
    return tuple(counts)  # type: ignore[return-value]


def _point_key(name: str) -> tuple[int, int, str]:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


GAME = CatanExpress()

__all__ = ["GAME", "CatanExpress", "Resource", "Terrain", "Leg"]
