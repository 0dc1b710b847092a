"""Steam: the basic game and the standard game on either map (rulebook; rulings ST-M1 … ST-15).

The engine strings together the pure modules beside it — building.py (track), delivery.py
(routes), economy.py (money), auction.py (turn order) — over the stored state of models.py.
`apply` is games/core/referee.py's: the one refusal (`refusal`, the checks of each kind in
`_REFUSALS`) judges the move, then its handler (`handlers`, by phase and kind) makes it on a
copy of the state.

A game turn, basic game: action tiles in turn order ("actions") → building, the First Build
holder first ("build") → two delivery rounds, the First Deliver holder first in both, each
delivery followed by every scoring seat's income-or-points answer ("deliver") → income and
expenses → turn order by action tile numbers. The first turn's order comes from an auction
("first_auction") or at random. Standard game: capital ("capital") → turn-order auction
("auction") → the same phases with free action tiles, maintenance and the standard shortfall.
Phases without a choice (income, turn order, a new turn) run inside the move that ends the
phase before them, so the state always waits on somebody until the game is over.
"""
from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, Sequence

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.judged import LastJudgement
from games.core.protocol import PlayerResult, Result, ScoreLine
from games.core.referee import Handlers, Referee
from games.core.rng import SeededRng
from games.core.unchecked import made
from games.core.vocabulary import Vocabulary
from games.steam import decisions, economy, notation, orders
from games.steam.bots import BOTS
from games.steam.auction import BasicAuction, StandardAuction, order_by_tiles
from games.steam.derived import (board_map, city_colours, complete_links, cubes_by_city, network, put_rails, rails_of,
                               stock_of)
from games.steam.building import Build, BuildTurn, Kind, judge_build, legal_builds, make_build
from games.steam.components import components
from games.steam.delivery import Network, awards, check_route, deliveries, parse_route
from games.steam.delivery import notation as route_notation
from games.steam.economy import Money, Purse
from games.steam.income import income_track
from games.steam.map import Colour
from games.steam.models import (ACTION_TILES, COLOURS, Bid, Capital, Deliver, Done, Grow, Pass, Place, PlayerState,
                                Score, SteamAction, SteamOptions, SteamState, SteamView, Take, Upgrade, Urbanize)
from games.steam.product import Product
from games.steam.tiles import tileset
from games.steam.track import lapse, unown_all

KINDS = {"build": Kind.BUILD, "upgrade": Kind.UPGRADE, "redirect": Kind.REDIRECT}


def _ev(key: str, **params: Any) -> Event:
    return Event(key=f"steam.ev.{key}", params=params)


def _urbanize(town: str, colour: str, space: int) -> Urbanize:
    return Urbanize(hex=town, colour=colour, space=space)


def _grow(city: str, space: int) -> Grow:
    return Grow(hex=city, space=space)


# The action tile moves, made once (frozen values): every player's every action phase lists them.
_TAKE = {tile: Take(tile=tile) for tile in ACTION_TILES}
_DECLINE = {tile: Take(tile=tile, decline=True) for tile in ACTION_TILES}
_UPGRADE = Upgrade()
_PLACE_GIVEN = {"how", "hex", "face", "rotation"}  # the fields a Place made from a listing names


def tile_number(tile: str) -> int:
    return components().action(tile).number


class Steam(Referee[SteamState, Any, SteamView]):
    name = "steam"
    min_players = 3
    max_players = 5
    options_model = SteamOptions
    state_model = SteamState
    action_model = SteamAction
    view_model = SteamView
    private_information = False  # ST-15: everything in Steam is public

    # ------------------------------------------------------------------ setup (ST-M4)
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> SteamState:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalAction("steam.bad_player_count", count=n_players)
        try:
            opts = SteamOptions.model_validate(options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        except ValidationError as exc:
            raise IllegalAction("steam.bad_options", detail=str(exc.errors()[0]["loc"])) from None
        comp = components()
        state = SteamState(n=n_players, seed=seed, options=opts, turns=economy.game_turns(n_players), order=[],
                           players=[PlayerState() for _ in range(n_players)])
        m = board_map(state)
        bag = [k for k, colour in enumerate(COLOURS) for _ in range(comp.cubes[Colour(colour)])]
        self._shuffle(state, bag, "bag")
        for h in sorted(m.cities):
            counts = [0] * len(COLOURS)
            for _ in range(m.starting_cubes(h, n_players)):
                counts[bag.pop()] += 1
            state.cubes[m.label(h)] = counts
        per_space = comp.supply_cubes(n_players)
        for _ in range(comp.supply_spaces):
            counts = [0] * len(COLOURS)
            for _ in range(per_space):
                counts[bag.pop()] += 1
            state.supply.append(counts)
        state.bag = [bag.count(k) for k in range(len(COLOURS))]
        state.stock = list(tileset().full_stock().counts)
        state.new_city_tiles = {c.value: k for c, k in comp.new_city_tiles.items()}
        state.growth_left = comp.growth_markers
        seats = list(range(n_players))
        if opts.standard or opts.first_order == "random":
            # A random action tile each; the lowest number goes first (rulebook, both games).
            self._shuffle(state, seats, "order")
            state.order = seats
            if opts.standard:
                self._start_capital(state)
            else:
                for seat, position in economy.start_money(seats).items():
                    purse = self._purse(state, seat)
                    self._money(state, seat, Money(replace(purse, cash=purse.cash + position), raised=position))
                self._start_actions(state)
        else:
            first = SeededRng(seed, state.draws, "steam-first-bidder").randint(0, n_players - 1)
            state.draws += 1
            state.phase = "first_auction"
            state.auction = _stored(BasicAuction.start(seats, first))
        state.scores = [[0] * n_players]
        return state

    @staticmethod
    def _shuffle(state: SteamState, items: list, salt: str) -> None:
        SeededRng(state.seed, state.draws, f"steam-{salt}").shuffle(items)
        state.draws += 1

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: SteamState) -> frozenset[int]:
        phase = state.phase
        if phase == "over":
            return frozenset()
        if phase in ("first_auction", "auction"):
            to_act = (state.auction or {}).get("to_act")
            return frozenset() if to_act is None else frozenset((to_act,))
        if phase == "deliver" and state.pending:
            return frozenset((state.pending[0][0],))
        if state.step_pos < len(state.step_order):
            return frozenset((state.step_order[state.step_pos],))
        return frozenset()

    def current(self, state: SteamState) -> int | None:
        active = self.active_players(state)
        return next(iter(active)) if active else None

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self, state: SteamState, seat: int) -> list[Any]:
        if seat not in self.active_players(state):
            return []
        phase = state.phase
        if phase in ("first_auction", "auction"):
            low, high = self.bid_range(state, seat)
            return [Bid(amount=a) for a in range(low, high + 1)] + [Pass()]
        if phase == "capital":
            return [Capital(steps=k) for k in range(self.capital_max(state, seat) + 1)]
        if phase == "actions":
            return self.action_choices(state, seat)
        if phase == "build":
            out: list[Any] = list(self.placements(state, seat))
            out += self.urbanizations(state, seat)
            out += self.growths(state, seat)
            if self.may_finish_building(state, seat):
                out.append(Done())
            return out
        if phase == "deliver":
            if state.pending:
                return [Score(into="income"), Score(into="points")]
            out = [Deliver(colour=d.colour.value, route=self._route_text(state, d)) for d in self.deliveries(state, seat)]
            if self._upgrade_refusal(state, seat, _UPGRADE) is None:
                out.append(_UPGRADE)
            out.append(Pass())
            return out
        return []

    # --- auctions
    def bid_range(self, state: SteamState, seat: int) -> tuple[int, int]:
        """The lowest and highest bid `seat` may make now (high < low: only a pass)."""
        a = state.auction or {}
        low = 0 if a.get("high") is None else a["high"] + 1
        p = state.players[seat]
        if state.phase == "auction":
            high = p.cash  # ST-12: never above cash on hand
        else:
            high = economy.available(self._purse(state, seat))
        return low, high

    # --- standard game capital
    def capital_max(self, state: SteamState, seat: int) -> int:
        return state.players[seat].income - income_track().lowest

    # --- action tiles
    def tiles_left(self, state: SteamState) -> list[str]:
        taken = {p.action for p in state.players if p.action}
        return [t for t in ACTION_TILES if t not in taken]

    def action_choices(self, state: SteamState, seat: int) -> list[Take]:
        p = state.players[seat]
        purse = self._purse(state, seat)
        out: list[Take] = []
        standard = state.options.standard
        money = economy.available(purse)
        for tile in self.tiles_left(state):
            if tile == "locomotive" and p.locomotive >= components().locomotive["max"]:
                continue
            if tile == "urbanize" and not self._urbanize_possible(state):
                continue
            cost = 0 if standard else economy.action_cost(tile, p.locomotive)
            if cost <= money:
                out.append(_TAKE[tile])
            if not standard and tile in economy.DECLINABLE:
                out.append(_DECLINE[tile])
        return out

    def _urbanize_possible(self, state: SteamState) -> bool:
        m = board_map(state)
        return any(state.new_city_tiles.values()) and any(m.label(h) not in state.new_cities for h in m.towns)

    # --- building
    def _build_turn(self, state: SteamState, seat: int) -> BuildTurn:
        p = state.players[seat]
        per = components().placements_per_turn
        limit = per["engineer"] if p.action == "engineer" else per["default"]
        return BuildTurn(seat=seat, turn=state.turn, limit=limit, placed=state.placed)

    def spendable(self, state: SteamState, seat: int) -> int:
        """What `seat` can pay for track now: cash (standard game) or cash plus what may be raised."""
        if state.options.standard:
            return state.players[seat].cash
        return economy.available(self._purse(state, seat))

    def affordable_builds(self, state: SteamState, seat: int) -> list[Build]:
        """The legal builds `seat` can pay for now, priced: the one listing the moves, the menu
        and the forced-move check read."""
        money = self.spendable(state, seat)
        return [b for b in legal_builds(board_map(state), rails_of(state), stock_of(state),
                                        self._build_turn(state, seat), tileset()) if b.cost <= money]

    def placements(self, state: SteamState, seat: int) -> list[Place]:
        return [place for place, _ in self.priced_placements(state, seat)]

    def priced_placements(self, state: SteamState, seat: int) -> list[tuple[Place, int]]:
        """Every placement `seat` can pay for now as its move, with its price (what `placements`
        lists, priced, from one search of the building module)."""
        m = board_map(state)
        # hundreds of moves a menu late in a game, from the listing's own checked values: made
        # without validation (games.core.unchecked)
        return [(made(Place, {"kind": "place", "how": b.kind.value, "hex": m.label(b.hex), "face": b.face,
                              "rotation": b.rotation}, _PLACE_GIVEN), b.cost)
                for b in self.affordable_builds(state, seat)]

    def _action_pending(self, state: SteamState, seat: int, tile: str) -> bool:
        p = state.players[seat]
        return p.action == tile and not p.declined and not p.action_done

    def supply_spaces(self, state: SteamState) -> list[int]:
        """Supply spaces (1–12) that still hold cubes; [0] when all are empty."""
        full = [i + 1 for i, s in enumerate(state.supply) if any(s)]
        return full or [0]

    def urbanizations(self, state: SteamState, seat: int) -> list[Urbanize]:
        return list(self.urbanization_moves(state, seat))

    def urbanization_moves(self, state: SteamState, seat: int) -> Product:
        """`urbanizations` as a sequence that makes a move only when it is looked at."""
        if not self._action_pending(state, seat, "urbanize"):
            return Product(_urbanize, ())
        m = board_map(state)
        colours = [c for c in COLOURS if state.new_city_tiles.get(c, 0) > 0]
        towns = sorted(m.label(h) for h in m.towns if m.label(h) not in state.new_cities)
        return Product(_urbanize, (towns, colours, self.supply_spaces(state)))

    def growable(self, state: SteamState) -> list[str]:
        """Cities that may grow: printed cities without a growth marker (new cities carry one)."""
        m = board_map(state)
        return sorted(m.label(h) for h in m.cities if m.label(h) not in state.grown)

    def growths(self, state: SteamState, seat: int) -> list[Grow]:
        return list(self.growth_moves(state, seat))

    def growth_moves(self, state: SteamState, seat: int) -> Product:
        """`growths` as a sequence that makes a move only when it is looked at."""
        if not self._action_pending(state, seat, "city_growth") or state.growth_left <= 0:
            return Product(_grow, ())
        spaces = [s for s in self.supply_spaces(state) if s]
        return Product(_grow, (self.growable(state), spaces))

    def may_finish_building(self, state: SteamState, seat: int) -> bool:
        """Basic game: a City Growth or Urbanize taken and not declined must be carried out if it
        can be (rulebook, building phase). Standard game: it may be forgone now (ST-12)."""
        if state.options.standard:
            return True
        return not (self._urbanization_owed(state, seat) or self._growth_owed(state, seat))

    def _urbanization_owed(self, state: SteamState, seat: int) -> bool:
        """Whether `urbanizations` lists anything (without making the list)."""
        if not self._action_pending(state, seat, "urbanize"):
            return False
        m = board_map(state)
        return any(state.new_city_tiles.get(c, 0) > 0 for c in COLOURS) \
            and any(m.label(h) not in state.new_cities for h in m.towns)

    def _growth_owed(self, state: SteamState, seat: int) -> bool:
        """Whether `growths` lists anything (without making the list)."""
        if not self._action_pending(state, seat, "city_growth") or state.growth_left <= 0:
            return False
        m = board_map(state)
        return any(any(sp) for sp in state.supply) and any(m.label(h) not in state.grown for h in m.cities)

    # --- delivering
    def deliveries(self, state: SteamState, seat: int) -> list:
        p = state.players[seat]
        return deliveries(self._network(state), city_colours(state), cubes_by_city(state), seat, p.locomotive)

    def _network(self, state: SteamState) -> Network:
        """The completed links as the route search wants them, built once per board."""
        return network(state)

    def _route_text(self, state: SteamState, d) -> str:
        m = board_map(state)
        return route_notation(self._network(state), d, m.label)

    # ------------------------------------------------------------------ judging a move
    def phase_of(self, state: SteamState) -> str:
        return state.phase

    def refusal(self, state: SteamState, seat: int, action: Any) -> IllegalAction | None:
        phase = state.phase
        kind = getattr(action, "kind", None)
        if kind is None or self.handlers.find(phase, kind) is None:
            return IllegalAction("steam.wrong_phase", phase={"key": f"steam.phase.{phase}"})
        if phase == "deliver":
            # ST-9: the points of a delivery are put into income or victory points, seat by
            # seat, before anybody delivers again; without such points owed there is nothing
            # to put anywhere.
            scoring = kind == "score"
            if state.pending and not scoring:
                return IllegalAction("steam.score_first", points=state.pending[0][1])
            if scoring and not state.pending:
                return IllegalAction("steam.nothing_to_score")
        judge = _REFUSALS.get(kind)
        return None if judge is None else judge(self, state, seat, action)

    def _bid_refusal(self, state: SteamState, seat: int, action: Bid) -> IllegalAction | None:
        low, high = self.bid_range(state, seat)
        if action.amount > high:
            return IllegalAction("steam.bid_too_high", limit=high)
        if action.amount < low:
            return IllegalAction("steam.bid_too_low", minimum=low)
        return None

    def _capital_refusal(self, state: SteamState, seat: int, action: Capital) -> IllegalAction | None:
        return economy.capital_refusal(self._purse(state, seat), action.steps)

    def _take_refusal(self, state: SteamState, seat: int, action: Take) -> IllegalAction | None:
        if action.tile not in ACTION_TILES:
            return IllegalAction("steam.unknown_tile_action", tile=action.tile)
        if action.tile not in self.tiles_left(state):
            return IllegalAction("steam.tile_taken", tile={"key": f"steam.tile.{action.tile}"})
        if action in self.action_choices(state, seat):
            return None
        if action.tile == "urbanize" and not self._urbanize_possible(state):
            return IllegalAction("steam.no_urbanize")
        if action.decline and (state.options.standard or action.tile not in economy.DECLINABLE):
            return IllegalAction("steam.cannot_decline")
        try:  # the precise refusal: the locomotive at its top, the price out of reach
            economy.take_action(self._purse(state, seat), action.tile, decline=action.decline,
                                standard=state.options.standard)
        except IllegalAction as exc:
            return exc
        return IllegalAction("steam.cannot_take", tile={"key": f"steam.tile.{action.tile}"})

    def _place_refusal(self, state: SteamState, seat: int, action: Place) -> IllegalAction | None:
        h = self._hex_at(state, action.hex)
        if isinstance(h, IllegalAction):
            return h
        build = Build(KINDS[action.how], h, action.face, action.rotation)
        done = judge_build(board_map(state), rails_of(state), stock_of(state), self._build_turn(state, seat), build,
                           tileset())
        if isinstance(done, IllegalAction):
            return done
        money = self.spendable(state, seat)
        if done.cost > money:
            return IllegalAction("steam.cannot_afford", cost=done.cost, money=money)
        return None

    def _urbanize_refusal(self, state: SteamState, seat: int, action: Urbanize) -> IllegalAction | None:
        if not self._action_pending(state, seat, "urbanize"):
            return IllegalAction("steam.no_urbanize_action")
        h = self._hex_at(state, action.hex)
        if isinstance(h, IllegalAction):
            return h
        if state.new_city_tiles.get(action.colour, 0) <= 0:
            return IllegalAction("steam.no_new_city", colour={"key": f"steam.colour.{action.colour}"})
        done = judge_build(board_map(state), rails_of(state), stock_of(state), self._build_turn(state, seat),
                           Build(Kind.URBANIZE, h), tileset())  # not a town, or a loop the new city would close
        if isinstance(done, IllegalAction):
            return done
        return self._supply_refusal(state, action.space)

    def _grow_refusal(self, state: SteamState, seat: int, action: Grow) -> IllegalAction | None:
        if not self._action_pending(state, seat, "city_growth"):
            return IllegalAction("steam.no_growth_action")
        if action.hex not in self.growable(state):
            return IllegalAction("steam.cannot_grow", hex=action.hex)
        if state.growth_left <= 0:
            return IllegalAction("steam.no_growth_marker")
        return self._supply_refusal(state, action.space)

    @staticmethod
    def _supply_refusal(state: SteamState, space: int) -> IllegalAction | None:
        """Cubes come from a supply space that holds some; space 0 (none) only once all are empty."""
        if space == 0:
            return IllegalAction("steam.supply_not_empty") if any(any(sp) for sp in state.supply) else None
        if not 1 <= space <= len(state.supply) or not any(state.supply[space - 1]):
            return IllegalAction("steam.supply_empty", space=space)
        return None

    def _done_refusal(self, state: SteamState, seat: int, action: Done) -> IllegalAction | None:
        if self.may_finish_building(state, seat):
            return None
        return IllegalAction("steam.action_not_done", tile={"key": f"steam.tile.{state.players[seat].action}"})

    def _deliver_refusal(self, state: SteamState, seat: int, action: Deliver) -> IllegalAction | None:
        try:
            d = self._delivery(state, seat, action)
        except IllegalAction as exc:
            return exc
        _JUDGED_DELIVERY.keep((rails_of(state), state.new_cities, state.cubes, seat, state.players[seat].locomotive,
                               action), d)
        return None

    def _judged_delivery(self, s: SteamState, seat: int, action: Deliver) -> Any:
        """`_delivery`: the one the refusal just checked if it was for this very board (the same
        rails, equal new cities and cubes, seat, locomotive and move), else checked anew."""
        return _JUDGED_DELIVERY.take(
            lambda kept: kept[0] is rails_of(s) and kept[3] == seat and kept[5] == action
            and kept[4] == s.players[seat].locomotive and kept[1] == s.new_cities and kept[2] == s.cubes,
            lambda: self._delivery(s, seat, action))

    def _delivery(self, state: SteamState, seat: int, action: Deliver) -> Any:
        """The delivery `action` names, checked (ST-8, ST-9); raises its refusal."""
        net = self._network(state)
        try:
            colour = Colour(action.colour)
        except ValueError:
            raise IllegalAction("steam.unknown_colour", colour=action.colour) from None
        places, route = parse_route(net, action.route, lambda text: self._hex(state, text))
        return check_route(net, city_colours(state), cubes_by_city(state), seat, state.players[seat].locomotive,
                           places[0], colour, route)

    def _upgrade_refusal(self, state: SteamState, seat: int, action: Upgrade) -> IllegalAction | None:
        p = state.players[seat]
        if p.loco_upgraded:
            return IllegalAction("steam.locomotive_once")
        if p.locomotive >= components().locomotive["max"]:
            return IllegalAction("steam.locomotive_max", level=p.locomotive)
        return None

    def after_move(self, before: SteamState, s: SteamState, seat: int, action: Any, events: list[Event]) -> None:
        """The last move's public lines, and the turn's: one seat's moves in one phase (and
        delivery round) of one game turn."""
        s.last = [e for e in events if e.public]
        phase = before.phase
        key: list[int | str] = [seat, before.turn, phase, before.deliver_round if phase == "deliver" else 0]
        if key != s.turn_key:
            s.turn_key = key
            s.turn_events = []
        s.turn_events.extend(s.last)

    # --- money
    @staticmethod
    def _purse(state: SteamState, seat: int) -> Purse:
        p = state.players[seat]
        return Purse(seat=seat, cash=p.cash, income=p.income, points=p.points, locomotive=p.locomotive)

    @staticmethod
    def _money(state: SteamState, seat: int, money: Money, events: list[Event] | None = None) -> None:
        p = state.players[seat]
        q = money.purse
        p.cash, p.income, p.points, p.locomotive = q.cash, q.income, q.points, q.locomotive
        state.bank_out += money.raised + money.received
        state.bank_in += money.paid
        if events is not None:
            events.extend(money.events)

    def _charge(self, s: SteamState, seat: int, amount: int, reason: str, events: list[Event],
                announce: bool = True) -> None:
        """Pay the bank: from cash only in the standard game, raising cash as needed in the basic.
        `announce=False` when the event before already states the price (a build, a position)."""
        if amount <= 0:
            return
        purse = self._purse(s, seat)
        if s.options.standard:
            self._money(s, seat, economy.pay_cash(purse, amount, reason=reason, announce=announce), events)
        else:
            self._money(s, seat, economy.pay(purse, amount, reason=reason, announce=announce), events)

    # --- auctions
    def _bid(self, s: SteamState, seat: int, action: Bid, events: list[Event]) -> None:
        if s.phase == "first_auction":
            step = BasicAuction(**_auction_fields(s.auction)).bid(seat, action.amount)
        else:
            step = StandardAuction(**_auction_fields(s.auction)).bid(seat, action.amount, s.players[seat].cash)
        self._after_auction_step(s, step, events)

    def _pass_bid(self, s: SteamState, seat: int, action: Pass, events: list[Event]) -> None:
        if s.phase == "first_auction":
            step = BasicAuction(**_auction_fields(s.auction)).pass_(seat)
        else:
            step = StandardAuction(**_auction_fields(s.auction)).pass_(seat)
        self._after_auction_step(s, step, events)

    def _after_auction_step(self, s: SteamState, step, events: list[Event]) -> None:
        events.extend(step.events)
        s.auction = _stored(step.auction)
        if s.phase == "first_auction":
            for award in step.awards:
                self._charge(s, award.seat, award.price, "turn_order", events, announce=False)
        if not step.auction.done:
            return
        if s.phase == "first_auction":
            s.order = list(step.auction.placed)
        else:
            s.order = list(step.auction.spaces)
            for award in step.auction.payments():
                self._charge(s, award.seat, award.price, "turn_order", events, announce=False)
        s.auction = None
        s.holder = None
        self._start_actions(s)

    # --- phases played seat by seat
    @staticmethod
    def _start(s: SteamState, phase: str, first_tile: str | None = None) -> None:
        """Begin a phase in turn order; the holder of `first_tile` (First Build, First Deliver)
        goes first."""
        s.phase = phase
        first = [i for i in s.order if first_tile is not None and s.players[i].action == first_tile]
        s.step_order = first + [i for i in s.order if i not in first]
        s.step_pos = 0

    # --- standard game: capital
    def _start_capital(self, s: SteamState) -> None:
        self._start(s, "capital")

    def _capital(self, s: SteamState, seat: int, action: Capital, events: list[Event]) -> None:
        self._money(s, seat, economy.raise_capital(self._purse(s, seat), action.steps), events)
        if not action.steps:
            events.append(_ev("no_capital", seat=seat))
        s.step_pos += 1
        if s.step_pos >= len(s.step_order):
            s.phase = "auction"
            s.auction = _stored(StandardAuction.start(s.order, s.holder if s.holder in s.order else None))
            if len(s.order) == 1:  # a lone player takes the first place for nothing
                s.auction = None
                self._start_actions(s)

    # --- action tiles
    def _start_actions(self, s: SteamState) -> None:
        self._start(s, "actions")

    def _take(self, s: SteamState, seat: int, action: Take, events: list[Event]) -> None:
        p = s.players[seat]
        money = economy.take_action(self._purse(s, seat), action.tile, decline=action.decline,
                                    standard=s.options.standard)
        events.append(_ev("took_tile", seat=seat, tile={"key": f"steam.tile.{action.tile}"}))
        self._money(s, seat, money, events)
        p.action, p.declined = action.tile, action.decline
        p.last_tile = tile_number(action.tile)
        s.step_pos += 1
        if s.step_pos >= len(s.step_order):
            self._start_build(s)

    # --- building
    def _start_build(self, s: SteamState) -> None:
        self._start(s, "build", "first_build")
        s.placed = 0
        s.built_hexes = []
        s.last_builds = []

    @staticmethod
    def _hex_at(s: SteamState, label: str) -> Any:
        """The map's hex for a label, or steam.unknown_hex for a label off the map or unreadable."""
        m = board_map(s)
        try:
            h = m.hex_at(label)
        except (ValueError, KeyError):
            return IllegalAction("steam.unknown_hex", hex=label)
        if m.space(h) is None:
            return IllegalAction("steam.unknown_hex", hex=label)
        return h

    def _hex(self, s: SteamState, label: str):
        """`_hex_at`, raising its refusal."""
        h = self._hex_at(s, label)
        if isinstance(h, IllegalAction):
            raise h
        return h

    def _place(self, s: SteamState, seat: int, action: Place, events: list[Event]) -> None:
        m = board_map(s)
        build = Build(KINDS[action.how], m.hex_at(action.hex), action.face, action.rotation)
        done = make_build(m, rails_of(s), stock_of(s), self._build_turn(s, seat), build, tileset())
        events.extend(done.events)
        self._charge(s, seat, done.cost, "build", events, announce=False)
        put_rails(s, done.rails)
        s.stock = list(done.stock.counts)
        s.placed = done.turn.placed
        self._mark_built(s, action.hex)

    def _mark_built(self, s: SteamState, label: str) -> None:
        if label not in s.built_hexes:
            s.built_hexes.append(label)
        s.last_builds = list(s.built_hexes)

    @staticmethod
    def _take_supply(s: SteamState, space: int) -> list[int]:
        if space == 0:
            return [0] * len(COLOURS)
        cubes, s.supply[space - 1] = s.supply[space - 1], [0] * len(COLOURS)
        return cubes

    def _urbanize(self, s: SteamState, seat: int, action: Urbanize, events: list[Event]) -> None:
        m = board_map(s)
        h = m.hex_at(action.hex)
        done = make_build(m, rails_of(s), stock_of(s), self._build_turn(s, seat), Build(Kind.URBANIZE, h), tileset())
        cubes = self._take_supply(s, action.space)
        events.append(_ev("new_city", seat=seat, hex=m.words(h, "steam.place"),
                          colour={"key": f"steam.colour.{action.colour}"}, cubes=sum(cubes)))
        events.extend(done.events)  # the links the new city completes
        put_rails(s, done.rails)
        s.stock = list(done.stock.counts)
        s.new_cities[action.hex] = action.colour
        s.new_city_tiles[action.colour] -= 1
        s.cubes[action.hex] = cubes
        s.players[seat].action_done = True
        self._mark_built(s, action.hex)

    def _grow(self, s: SteamState, seat: int, action: Grow, events: list[Event]) -> None:
        cubes = self._take_supply(s, action.space)
        current = s.cubes.setdefault(action.hex, [0] * len(COLOURS))
        s.cubes[action.hex] = [a + b for a, b in zip(current, cubes)]
        s.grown.append(action.hex)
        s.growth_left -= 1
        s.players[seat].action_done = True
        events.append(_ev("grew", seat=seat, hex=board_map(s).words(self._hex(s, action.hex), "steam.place"),
                          cubes=sum(cubes)))
        self._mark_built(s, action.hex)

    def _done(self, s: SteamState, seat: int, action: Done, events: list[Event]) -> None:
        p = s.players[seat]
        if p.action in economy.DECLINABLE and not p.declined and not p.action_done:
            events.append(_ev("forwent", seat=seat, tile={"key": f"steam.tile.{p.action}"}))
        events.append(_ev("built_done", seat=seat, placed=s.placed))
        s.step_pos += 1
        s.placed = 0
        s.built_hexes = []
        if s.step_pos < len(s.step_order):
            return
        m = board_map(s)
        rails, lost = lapse(m, rails_of(s), s.turn, tileset())  # ST-4
        for rec in lost:
            events.append(_ev("link_lapsed", seat=rec.owner))
        put_rails(s, rails)
        self._start_delivery(s)

    # --- delivering
    def _start_delivery(self, s: SteamState) -> None:
        self._start(s, "deliver", "first_deliver")
        s.deliver_round = 1
        s.pending = []

    def _deliver(self, s: SteamState, seat: int, action: Deliver, events: list[Event]) -> None:
        m = board_map(s)
        d = self._judged_delivery(s, seat, action)
        colour = d.colour
        source = m.label(d.source)
        k = COLOURS.index(colour.value)
        left = list(s.cubes[source])  # a new row: the state's rows are shared with the one before
        left[k] -= 1
        s.cubes[source] = left
        s.delivered[k] += 1
        s.players[seat].delivered += 1
        s.last_route = list(d.links)
        s.last_route_places = [m.label(h) for h in d.places]
        events.append(_ev("delivered", seat=seat, colour={"key": f"steam.colour.{colour.value}"},
                          source=m.words(d.source, "steam.place"), destination=m.words(d.destination, "steam.place"),
                          links=len(d.links),
                          route=self._route_text(s, d), points=d.points_of(seat)))
        s.pending = [(a.seat, a.points) for a in awards(d, seat, s.order) if not s.players[a.seat].bankrupt]
        if not s.pending:
            self._next_deliverer(s, events)

    def _score(self, s: SteamState, seat: int, action: Score, events: list[Event]) -> None:
        _, points = s.pending.pop(0)
        p = s.players[seat]
        if action.into == "income":
            p.income += points
        else:
            p.points += points
        events.append(_ev(f"scored_{action.into}", seat=seat, points=points, income=p.income, total=p.points))
        if not s.pending:
            self._next_deliverer(s, events)

    def _upgrade(self, s: SteamState, seat: int, action: Upgrade, events: list[Event]) -> None:
        p = s.players[seat]
        p.locomotive += 1
        p.loco_upgraded = True
        events.append(_ev("locomotive", seat=seat, level=p.locomotive))
        self._next_deliverer(s, events)

    def _pass_delivery(self, s: SteamState, seat: int, action: Pass, events: list[Event]) -> None:
        events.append(_ev("passed_delivery", seat=seat))
        self._next_deliverer(s, events)

    def _next_deliverer(self, s: SteamState, events: list[Event]) -> None:
        s.step_pos += 1
        if s.step_pos < len(s.step_order):
            return
        if s.deliver_round == 1:
            s.deliver_round = 2
            s.step_order = [i for i in s.step_order if not s.players[i].bankrupt]
            s.step_pos = 0
            return
        self._end_turn(s, events)

    # --- income, turn order, a new turn, the end
    def _end_turn(self, s: SteamState, events: list[Event]) -> None:
        for seat in list(s.order):
            purse = self._purse(s, seat)
            money = economy.standard_income(purse) if s.options.standard else economy.basic_income(purse)
            self._money(s, seat, money, events)
            if money.bankrupt:
                self._bankrupt(s, seat)
        s.history.append({"turn": s.turn, "points": [p.points for p in s.players],
                          "income": [p.income for p in s.players], "cash": [p.cash for p in s.players],
                          "links": self._links_owned(s), "delivered": list(s.delivered)})
        s.scores.append([p.points for p in s.players])
        if s.turn >= s.turns or not s.order:
            self._finish(s, events)
            return
        taken = {seat: tile_number(s.players[seat].action) for seat in s.order if s.players[seat].action}
        s.holder = next((seat for seat in s.order if s.players[seat].action == "turn_order"), None)
        if not s.options.standard:
            s.order = list(order_by_tiles(taken))
        for p in s.players:
            p.action, p.declined, p.action_done, p.loco_upgraded = None, False, False, False
        s.turn += 1
        s.step_order, s.step_pos, s.pending = [], 0, []
        events.append(_ev("new_turn", turn=s.turn, first_seat=s.order[0]))
        if s.options.standard:
            self._start_capital(s)
        else:
            self._start_actions(s)

    def _bankrupt(self, s: SteamState, seat: int) -> None:
        """ST-13: the player leaves; their links stay, owned by nobody."""
        s.players[seat].bankrupt = True
        s.order = [i for i in s.order if i != seat]
        put_rails(s, unown_all(rails_of(s), seat, board_map(s), tiles=tileset()))

    def _links_owned(self, s: SteamState) -> list[int]:
        counts = [0] * s.n
        for link in complete_links(s):
            if link.owner is not None:
                counts[link.owner] += 1
        return counts

    def _finish(self, s: SteamState, events: list[Event]) -> None:
        m = board_map(s)
        rails = rails_of(s)
        for seat in range(s.n):  # ST-14: incomplete links lose their owners
            rails = unown_all(rails, seat, m, incomplete_only=True, tiles=tileset())
        put_rails(s, rails)
        s.phase = "over"
        s.step_order, s.step_pos = [], 0
        events.append(_ev("game_over"))

    # ------------------------------------------------------------------ result (ST-14)
    def result(self, state: SteamState) -> Result | None:
        if state.phase != "over":
            return None
        links = self._links_owned(state)
        facts = [economy.FinalFacts(seat=i, points=p.points, income=p.income, completed_links=links[i],
                                    last_tile=p.last_tile)
                 for i, p in enumerate(state.players) if not p.bankrupt]
        ranked, ties = economy.final_results(facts)
        for r in ranked:
            r.stats["locomotive"] = state.players[r.seat].locomotive
            r.stats["delivered"] = state.players[r.seat].delivered
        gone = [i for i, p in enumerate(state.players) if p.bankrupt]
        for i in gone:
            ranked.append(PlayerResult(seat=i, rank=len(facts) + 1, total=0,
                                       lines=[ScoreLine(category="bankrupt", points=0)],
                                       stats={"bankrupt": True, "income": state.players[i].income,
                                              "last_tile": state.players[i].last_tile}))
        return Result(players=ranked, categories=["deliveries", "income", "links"], label_prefix="steam", ties=ties)

    # ------------------------------------------------------------------ view
    def view(self, state: SteamState, seat: int | None, with_legal: bool = True) -> SteamView:
        active = sorted(self.active_players(state))
        legal: list[str] = []
        if with_legal and seat is not None and seat in active:
            legal = [self.format_action(a) for a in self.legal_actions(state, seat)]
        shown = state.model_copy(update={"seed": 0})  # all is public but the seed: every random draw comes from it
        return SteamView(viewer=seat, state=shown, active=active, legal=legal,
                         result=self.result(state) if state.phase == "over" else None)

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    def describe_action(self, state: SteamState, seat: int, action: Any) -> Event:
        return notation.describe(self, state, seat, action)

    def vocabulary(self) -> Vocabulary:
        return notation.vocabulary()

    def forced_action(self, state: SteamState, seat: int) -> Any:
        """A seat's only legal move is made for it (ST-15: everything in Steam is public, so it
        reveals nothing): a build phase with no tile the player can pay for ends at once."""
        if state.phase == "build" and seat in self.active_players(state):
            # counted before the moves are made: a late build phase lists a thousand tiles
            affordable = len(self.affordable_builds(state, seat))
            if affordable > 1 or (affordable and self.may_finish_building(state, seat)):
                return None
        return self.sole_legal_action(state, seat)

    def prompt(self, state: SteamState, seat: int) -> Event | None:
        if seat not in self.active_players(state):
            return None
        phase = state.phase
        if phase == "deliver" and state.pending:
            return Event(key="steam.prompt.score", params={"points": state.pending[0][1]})
        if phase == "build":
            bt = self._build_turn(state, seat)
            return Event(key="steam.prompt.build", params={"left": bt.limit - bt.placed})
        if phase == "deliver":
            return Event(key="steam.prompt.deliver", params={"round": state.deliver_round})
        if phase in ("first_auction", "auction"):
            return Event(key="steam.prompt.auction", params={"minimum": self.bid_range(state, seat)[0]})
        return Event(key=f"steam.prompt.{phase}")

    def decision(self, state: SteamState, seat: int) -> Decision:
        return decisions.decision(self, state, seat)

    def menu_head(self, state: SteamState, seat: int) -> Decision:
        return decisions.decision(self, state, seat, head=True)

    def timeout_action(self, state: SteamState, seat: int) -> Any:
        """The mildest move: pass, build nothing more, take income, no capital, the first action
        tile (Turn Order and the other free ones come first), an owed City Growth or Urbanize."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("no_legal_action")
        for mild in (Pass(), Done(), Score(into="income"), Capital(steps=0)):
            if mild in legal:
                return mild
        # An owed City Growth or Urbanize (basic game) is carried out rather than track bought.
        owed = [a for a in legal if isinstance(a, (Urbanize, Grow))]
        return owed[0] if owed else legal[0]

    # --- standing orders (games/steam/orders.py)
    def order_choices(self, state: SteamState, seat: int) -> Decision:
        return orders.choices(self, state, seat)

    def follow_orders(self, state: SteamState, seat: int, standing: Sequence[str]) -> tuple[Any | None, list[str]]:
        return orders.follow(self, state, seat, standing)

    def describe_order(self, state: SteamState, seat: int, order: str) -> Event:
        return orders.describe(state, seat, order)

    def bots(self) -> dict[str, Any]:
        return BOTS


    # ------------------------------------------------------------------ conservation
    def check_invariants(self, state: SteamState) -> None:
        """Cubes by colour, tiles per pairing and face, money between players and bank, new city
        tiles and growth markers are all conserved."""
        comp = components()
        for k, colour in enumerate(COLOURS):
            total = state.bag[k] + state.delivered[k] + sum(c[k] for c in state.cubes.values())
            total += sum(sp[k] for sp in state.supply)
            assert total == comp.cubes[Colour(colour)], f"{colour} cubes not conserved: {total}"
        assert all(x >= 0 for c in state.cubes.values() for x in c), "negative cubes"
        ts = tileset()
        on_board = [0] * len(ts.pairings)
        for t in state.tiles:
            on_board[t.pairing] += 1
            assert t.face in ts.pairings[t.pairing].faces, "a placed face is not on its tile"
        for i, pairing in enumerate(ts.pairings):
            assert state.stock[i] >= 0 and state.stock[i] + on_board[i] == pairing.count, f"tiles {pairing.faces}"
        cash = sum(p.cash for p in state.players)
        assert cash == state.bank_out - state.bank_in, f"money: players hold {cash}, bank paid out net " \
                                                       f"{state.bank_out - state.bank_in}"
        assert all(p.cash >= 0 for p in state.players), "negative cash"
        lowest = income_track().lowest
        assert all(p.income >= lowest for p in state.players), "income below the track"
        used = {c: sum(1 for v in state.new_cities.values() if v == c) for c in COLOURS}
        for c in COLOURS:
            assert used[c] + state.new_city_tiles.get(c, 0) == comp.new_city_tiles[Colour(c)], f"new {c} cities"
        assert state.growth_left + len(state.grown) == comp.growth_markers, "growth markers"
        assert all(1 <= p.locomotive <= comp.locomotive["max"] for p in state.players)
        assert {t.hex for t in state.tiles}.isdisjoint(state.new_cities), "track left under a new city"



Steam.handlers = Handlers({
    ("first_auction", "bid"): Steam._bid, ("first_auction", "pass"): Steam._pass_bid,
    ("auction", "bid"): Steam._bid, ("auction", "pass"): Steam._pass_bid,
    ("capital", "capital"): Steam._capital,
    ("actions", "take"): Steam._take,
    ("build", "place"): Steam._place, ("build", "urbanize"): Steam._urbanize, ("build", "grow"): Steam._grow,
    ("build", "done"): Steam._done,
    ("deliver", "deliver"): Steam._deliver, ("deliver", "locomotive"): Steam._upgrade,
    ("deliver", "pass"): Steam._pass_delivery, ("deliver", "score"): Steam._score,
})
# The checks of the kinds that have any (a pass and an income-or-points answer have none
# beyond whose move it is and the delivery step).
_REFUSALS = {
    "bid": Steam._bid_refusal,
    "capital": Steam._capital_refusal,
    "take": Steam._take_refusal,
    "place": Steam._place_refusal,
    "urbanize": Steam._urbanize_refusal,
    "grow": Steam._grow_refusal,
    "done": Steam._done_refusal,
    "deliver": Steam._deliver_refusal,
    "locomotive": Steam._upgrade_refusal,
}


# The last delivery the refusal accepted, with what it was checked on (the route check is a
# pure function of the board, the cubes, the mover and the move), taken once by `_deliver`.
_JUDGED_DELIVERY: LastJudgement[tuple, Any] = LastJudgement()


def _stored(auction: BasicAuction | StandardAuction) -> dict[str, Any]:
    """An auction's fields as JSON stores them (lists for tuples), so a fresh state and a
    reloaded one are equal."""
    def plain(v: Any) -> Any:
        return [plain(x) for x in v] if isinstance(v, (tuple, list)) else v
    return {k: plain(v) for k, v in asdict(auction).items()}


def _auction_fields(data: dict[str, Any] | None) -> dict[str, Any]:
    """An auction's fields as stored (JSON turns tuples into lists) back into tuples."""
    assert data is not None
    return {k: (tuple(tuple(x) if isinstance(x, list) else x for x in v) if isinstance(v, list) else v)
            for k, v in data.items()}


GAME = Steam()
