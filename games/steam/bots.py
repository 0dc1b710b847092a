"""Steam bots: a builder that links cities whose cubes want each other and keeps its money
healthy, and a random one that fuzzes every kind of move while staying solvent enough to finish.

Why they propose their own builds
    Listing every legal build (`GAME.placements`) tries every face and rotation on every hex
    where track could go and costs a few hundred milliseconds on a busy board. A bot needs one
    build, so both bots propose a handful — the builder the next tile of its best planned link,
    the random bot a few random faces where track could go — and let the rules' own judgement
    (`building.build_cost_if_legal`, as the legal build listing makes it) accept or refuse each.
    Whatever a bot returns is therefore legal, and a decision stays within a few milliseconds.

How the builder plans a link
    A link is worth the cubes it lets someone carry: for a new link from city A to city B, the
    cubes on A of B's colour and on B of A's colour, and at half weight those one completed link
    further on (they need locomotive 2). A cheapest path of empty buildable hexes (at most four,
    towns allowed: a town tile with two exits) joins them; its cost is $2 a hex plus terrain.
    The builder first carries on its own incomplete links — an incomplete link not extended next
    turn is lost (ST-4) — then starts the link with the most value per dollar it can pay for in
    full. Everything in Steam is public (ST-15), so the bots read the state itself.

Money
    Basic game: paying beyond cash lowers income one space per $5 (ST-10), and negative income
    is owed every turn, so the builder spends only down to an income floor (−3 early, 0 in the
    last turns). Standard game: it raises capital in phase 1 for the track it means to build
    and keeps cash for the locomotive's maintenance.
"""
from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.core.hexgrid import Hex, opposite
from games.steam import delivery
from games.steam.derived import board_map, city_colours, cubes_by_city, rails_of, runs, stock_of
from games.steam.building import Build, BuildTurn, Kind, build_cost_if_legal
from games.steam.components import components
from games.steam.legality import buildable, open_sides, placements, upgrades_on
from games.steam.models import (COLOURS, Bid, Capital, Deliver, Done, Grow, Pass, Place, Score, SteamState, Take,
                                Upgrade, Urbanize)
from games.steam.product import Chain
from games.steam.tiles import tileset

MAX_PATH = 4          # hexes of new track the builder plans for one link
RAISE_STEP = 5        # dollars per income space given up (ST-10, ST-12)


# ---------------------------------------------------------------------------------- board facts
class Facts:
    """One position as the bots read it: the map, track, cities with colours and cubes, and which
    places completed links join."""

    def __init__(self, state: SteamState) -> None:
        self.state = state
        self.m = board_map(state)
        self.rails = rails_of(state)
        self.runs = runs(state)
        self.stock = stock_of(state)
        self.colour = city_colours(state)                       # city hex -> Colour
        self.cubes: dict[Hex, list[int]] = {self.m.hex_at(k): v for k, v in state.cubes.items()}
        self.adj: dict[Hex, set[Hex]] = {}
        self._demand: dict[tuple[Hex, Hex], float] = {}
        self._ends: dict[int, tuple[list[tuple[Hex, int]], list[tuple[Hex, int]]]] = {}
        self._placements: dict[Hex, list] = {}
        self.cities = list(self.colour)
        self.k = {h: COLOURS.index(c.value) for h, c in self.colour.items()}  # city hex -> colour index
        for run in self.runs.values():
            if run.complete:
                a, b = run.ends
                self.adj.setdefault(a, set()).add(b)
                self.adj.setdefault(b, set()).add(a)

    def open_ends(self, seat: int) -> tuple[list[tuple[Hex, int]], list[tuple[Hex, int]]]:
        """The open ends of `seat`'s incomplete links and of every incomplete link, in link order."""
        known = self._ends.get(seat)
        if known is None:
            own_ends: list[tuple[Hex, int]] = []
            ends: list[tuple[Hex, int]] = []
            record = self.rails.record
            for lid, run in self.runs.items():
                if run.complete:
                    continue
                for e in run.open_ends:
                    ends.append(e)
                    if record[lid].owner == seat:
                        own_ends.append(e)
            known = self._ends[seat] = (own_ends, ends)
        return known

    def placements(self, h: Hex) -> list:
        """`legality.placements` on the empty hex `h` with this position's stock. Do not modify."""
        found = self._placements.get(h)
        if found is None:
            found = self._placements[h] = placements(self.m, h, tileset(), self.stock)
        return found

    def near(self, a: Hex, reach: int) -> tuple[Hex, ...]:
        """The other cities within `reach` hexes of city `a`."""
        key = (self.m.id, a, reach, self.rails.new_cities)
        out = _NEAR.get(key)
        if out is None:
            out = _NEAR[key] = tuple(b for b in self.colour if b != a and a.distance(b) <= reach)
        return out

    def is_city(self, h: Hex) -> bool:
        return h in self.colour

    def empty(self, h: Hex) -> bool:
        """A hex a new tile may go on: buildable, no tile, not a new city."""
        return buildable(self.m.space(h)) and h not in self.rails.tile_at and h not in self.colour

    def cubes_of(self, h: Hex, k: int) -> int:
        c = self.cubes.get(h)
        return c[k] if c else 0

    def demand(self, a: Hex, b: Hex) -> float:
        """What a link from place `a` to city `b` would let be carried (see the module notes)."""
        key = (a, b)
        if key not in self._demand:
            self._demand[key] = self._demand_of(a, b)
        return self._demand[key]

    def _demand_of(self, a: Hex, b: Hex) -> float:
        k, cubes, adj = self.k, self.cubes, self.adj
        kb = k[b]
        value = 0.0
        if a in k:
            ka = k[a]
            value += cubes[a][kb] if a in cubes else 0
            value += cubes[b][ka] if b in cubes else 0
            for x in adj.get(a, ()):
                if x in cubes and x != b and k.get(x, kb) != kb:
                    value += 0.5 * cubes[x][kb]
            for y in adj.get(b, ()):
                if y in cubes and y != a and k.get(y, ka) != ka:
                    value += 0.5 * cubes[y][ka]
        else:  # a town: the cities beyond it count
            for x in adj.get(a, ()):
                if x in k and x != b:
                    if x in cubes and k[x] != kb:
                        value += 0.7 * cubes[x][kb]
                    if b in cubes:
                        value += 0.7 * cubes[b][k[x]]
        if b in adj.get(a, ()):
            value *= 0.5  # a second link between the same places adds less
        return value


Step = tuple[Hex, int, int]  # a hex, the side track enters by, the side it leaves by


class Plan(NamedTuple):
    origin: Hex | None      # the place the link leaves from
    target: Hex             # the city it will reach
    steps: tuple[Step, ...]
    cost: int
    value: float
    extend: bool            # carries on one of the seat's own incomplete links


@dataclass(frozen=True)
class Ground:
    """The static map as the path search wants it: each buildable hex's cost for a two-exit
    tile and its open sides with the hex across each (and, for the search, that hex's cost if
    it is buildable and the side track enters it by)."""

    cost: dict[Hex, int]
    exits: dict[Hex, tuple[tuple[int, Hex], ...]]
    steps: dict[Hex, tuple[tuple[int, Hex, int | None, int], ...]]
    regions: dict[Any, frozenset[Hex]]
    starts_of: dict[Hex, tuple[tuple[Hex, int], ...]]

    def starts(self, a: Hex) -> tuple[tuple[Hex, int], ...]:
        """The buildable hexes beside the place `a` that track may enter from `a`, each with the
        side it enters by, in side order (whether they are empty is the board's business)."""
        out = self.starts_of.get(a)
        if out is None:
            found = []
            for side in range(6):
                h = a.neighbor(side)
                back = opposite(side)
                if h in self.exits and any(x == back for x, _ in self.exits[h]):
                    found.append((h, back))
            out = self.starts_of[a] = tuple(found)
        return out

    def region(self, starts: tuple[tuple[Hex, int], ...], limit: int) -> frozenset[Hex]:
        """Every hex a search from `starts` may look at: within `limit` steps of a start."""
        key = (starts, limit)
        r = self.regions.get(key)
        if r is None:
            r = frozenset().union(*(self._around(h, limit) for h, _ in starts))
            self.regions[key] = r
        return r

    def _around(self, h: Hex, limit: int) -> frozenset[Hex]:
        key = (h, limit)
        r = self.regions.get(key)
        if r is None:
            r = self.regions[key] = frozenset(x for x in self.cost if x.distance(h) <= limit)
        return r


_GROUND: dict[str, Ground] = {}
_NEAR: dict[Any, tuple[Hex, ...]] = {}
_PATHS: dict[Any, dict[Hex, tuple[int, tuple[Step, ...]]]] = {}


def ground(f: Facts) -> Ground:
    g = _GROUND.get(f.m.id)
    if g is None:
        c = components().build_costs
        cost, exits = {}, {}
        for h, space in f.m.spaces.items():
            if not buildable(space):
                continue
            cost[h] = 2 * c.exit + (c.town if space.town else 0) + (c.river if space.river else 0) \
                + (c.hills if space.terrain.value == "hills" else 0)
            exits[h] = tuple((x, h.neighbor(x)) for x in sorted(open_sides(f.m, h)))
        steps = {h: tuple((x, n, cost.get(n), opposite(x)) for x, n in out) for h, out in exits.items()}
        g = _GROUND[f.m.id] = Ground(cost, exits, steps, {}, {})
    return g


def paths(f: Facts, starts: tuple[tuple[Hex, int], ...], origin: Hex | None, limit: int = MAX_PATH
          ) -> dict[Hex, tuple[int, tuple[Step, ...]]]:
    """Cheapest lines of new two-exit tiles from the empty hexes `starts` (each with the side
    track enters it by) to every city they can reach within `limit` hexes, never back into
    `origin`: city -> (cost, steps). Kept on the track it was asked of (the same question comes
    back for every seat and phase until somebody builds)."""
    g = ground(f)
    # The answer depends only on the track on the hexes the search may enter (at most
    # `limit` - 1 steps from a start) and the new cities it may reach (`limit` steps), so it is
    # kept under those: a build elsewhere on the board leaves it valid.
    key = (f.m.id, starts, origin, limit, g.region(starts, limit - 1).intersection(f.rails.tile_at),
           g.region(starts, limit).intersection(f.rails.new_cities))
    found = _PATHS.get(key)
    if found is not None:
        return found
    found = {}
    heap: list[tuple[int, int, int, Hex, int, tuple[Step, ...]]] = []
    n = 0
    for h, entry in starts:
        heap.append((g.cost[h], 1, n, h, entry, ()))
        n += 1
    heapq.heapify(heap)
    done: set[Hex] = set()
    colour, tile_at, steps = f.colour, f.rails.tile_at, g.steps
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, length, _, h, entry, path = pop(heap)
        if h in done:
            continue
        done.add(h)
        for x, nxt, step_cost, back in steps[h]:
            if x == entry:
                continue
            if nxt in colour:
                if nxt != origin:
                    known = found.get(nxt)
                    if known is None or known[0] > cost:
                        found[nxt] = (cost, path + ((h, entry, x),))
            elif length < limit and step_cost is not None and nxt not in done and nxt not in tile_at:
                n += 1
                push(heap, (cost + step_cost, length + 1, n, nxt, back, path + ((h, entry, x),)))
    if len(_PATHS) > 20000:
        _PATHS.clear()
    _PATHS[key] = found
    return found


def faces_for(f: Facts, h: Hex, entry: int, exit_: int) -> list[tuple[str, int, int]]:
    """(face, rotation, cost) of the tiles joining exactly these two sides: one plain track, or
    a town tile with these two exits."""
    want = frozenset((entry, exit_))
    ts = tileset()
    return [(p.face, p.rotation, p.cost) for p in f.placements(h)
            if p.exits == want and (ts.faces[p.face].town or len(ts.faces[p.face].tracks) == 1)]


def build_turn(state: SteamState, seat: int) -> BuildTurn:
    per = components().placements_per_turn
    limit = per["engineer"] if state.players[seat].action == "engineer" else per["default"]
    return BuildTurn(seat=seat, turn=state.turn, limit=limit, placed=state.placed)


def try_build(f: Facts, bt: BuildTurn, build: Build) -> int | None:
    """The build's cost if the rules accept it now, else None."""
    return build_cost_if_legal(f.m, f.rails, f.stock, bt, build, tileset())


def turns_left(state: SteamState) -> int:
    """Game turns after this one (0 in the last turn)."""
    return state.turns - state.turn


def income_floor(state: SteamState) -> int:
    """The lowest income the builder lets raising cash take it to (basic game)."""
    left = turns_left(state)
    if state.turn <= 2:
        return -3
    if left >= state.turns // 2:
        return -2
    return -1 if left >= 2 else 0


def budget(state: SteamState, seat: int, floor: int | None = None) -> int:
    """Dollars the seat means to spend on track now."""
    p = state.players[seat]
    if state.options.standard:
        # Keep a little for the maintenance (ST-12), never so much that nothing gets built: with
        # income below the upkeep only new deliveries get a seat out of the shortfall.
        return p.cash - max(0, min(2, p.locomotive - p.income))
    floor = income_floor(state) if floor is None else floor
    owed = max(0, -p.income)  # negative income is paid at the end of the turn (ST-10)
    return p.cash + RAISE_STEP * max(0, p.income - floor) - owed


# ---------------------------------------------------------------------------------- the builder
class BuilderBot:
    name = "builder"

    def choose(self, game: Any, state: SteamState, seat: int, rng: random.Random) -> Any:
        phase = state.phase
        if phase in ("first_auction", "auction"):
            return self._bid(game, state, seat, rng)
        if phase == "capital":
            return self._capital(game, state, seat)
        if phase == "actions":
            return self._action(game, state, seat, rng)
        if phase == "build":
            return self._build(game, state, seat, rng)
        if phase == "deliver":
            return self._deliver(game, state, seat)
        raise ValueError(f"no move for seat {seat} in phase {phase}")

    # --- turn order
    def _bid(self, game, state: SteamState, seat: int, rng: random.Random) -> Any:
        low, high = game.bid_range(state, seat)
        if low > high:
            return Pass()
        if state.phase == "first_auction":
            # Paid by raising cash, so by income: worth little.
            return Bid(amount=low) if low <= 1 and rng.random() < 0.3 else Pass()
        p = state.players[seat]
        if low <= 3 and p.cash - low >= 8 and rng.random() < 0.35:
            return Bid(amount=low)
        return Pass()

    # --- standard game capital
    def _capital(self, game, state: SteamState, seat: int) -> Capital:
        """Raise what the links it plans will cost, and this turn's maintenance."""
        p = state.players[seat]
        left = turns_left(state)
        f = Facts(state)
        plans = self._plans(f, state, seat)
        extend = sum(min(pl.cost for pl in plans if pl.extend and pl.origin == o)
                     for o in {pl.origin for pl in plans if pl.extend})
        fresh = [pl.cost for pl in plans if not pl.extend and (left > 0 or len(pl.steps) <= 3)]
        want = min(15, extend + (min(fresh, default=0) if fresh else 0) + (3 if state.turn == 1 else 0))
        want += max(0, p.locomotive - p.income)
        steps = max(0, -(-(want - p.cash) // RAISE_STEP))
        floor = -3 if state.turn <= 2 else (-2 if left >= state.turns // 2 else 0)
        steps = min(steps, max(0, p.income - floor), game.capital_max(state, seat))
        return Capital(steps=steps)

    # --- action tiles
    def _action(self, game, state: SteamState, seat: int, rng: random.Random) -> Take:
        choices = game.action_choices(state, seat)
        taken = [c for c in choices if not c.decline]
        if not taken:
            return choices[0]
        f = Facts(state)
        p = state.players[seat]
        plans = self._plans(f, state, seat)
        best_plan = max((pl.value for pl in plans), default=0.0)
        money = budget(state, seat)
        left = turns_left(state)
        scores: dict[str, float] = {}
        for c in taken:
            cost = 0 if state.options.standard else _action_cost(c.tile, p.locomotive)
            if cost > money:
                continue
            s = 0.3
            if c.tile == "locomotive":
                reach = _reach_gain(game, f, state, seat)
                s = {1: 1.8, 2: 1.3}.get(p.locomotive, 0.4) + reach
                if state.options.standard and p.income <= p.locomotive and reach <= 0:
                    s -= 1.5  # one more dollar of maintenance every turn (ST-12)
                if left == 0:
                    s = 0.1
            elif c.tile == "first_build":
                s = 0.8 + min(best_plan, 6) / 4
            elif c.tile == "engineer":
                s = 0.7 + min(best_plan, 6) / 5
            elif c.tile == "city_growth":
                s = 0.4 + _best_growth(game, f, state, seat)[1] / 2
            elif c.tile == "urbanize":
                s = 0.3 + _best_urbanize(game, f, state, seat, free=True)[1] / 2
            elif c.tile == "first_deliver":
                s = 0.9
            elif c.tile == "turn_order":
                s = 0.6
            if cost:
                s -= cost / 5
            scores[c.tile] = s + rng.random() * 0.6
        if not scores:
            return next((c for c in choices if c.decline), choices[0])
        tile = max(scores, key=scores.__getitem__)
        return Take(tile=tile)

    # --- building
    def _plans(self, f: Facts, state: SteamState, seat: int) -> list[Plan]:
        out: list[Plan] = []
        for lid, run in f.runs.items():
            rec = f.rails.record[lid]
            if rec.owner != seat or run.complete:
                continue
            origin = run.places[0] if run.places else None
            for h, side in run.open_ends:
                nxt = h.neighbors()[side]
                if not f.empty(nxt):
                    continue
                for city, (cost, steps) in paths(f, ((nxt, opposite(side)),), origin).items():
                    value = (f.demand(origin, city) if origin is not None else 0.0) + 1.0
                    out.append(Plan(origin, city, steps, cost, value, True))
        g = ground(f)
        reach = MAX_PATH + 1
        for a in f.colour:
            # Only cities with something to carry to or from a city in reach start a link.
            if not any(f.demand(a, b) >= 1 for b in f.near(a, reach)):
                continue
            tile_at, colour = f.rails.tile_at, f.colour
            starts = [(h, back) for h, back in g.starts(a) if h not in tile_at and h not in colour]
            if not starts:
                continue
            for city, (cost, steps) in paths(f, tuple(starts), a).items():
                value = f.demand(a, city)
                if value >= 1:
                    out.append(Plan(a, city, steps, cost, value, False))
        return out

    def _build(self, game, state: SteamState, seat: int, rng: random.Random) -> Any:
        f = Facts(state)
        p = state.players[seat]
        pending = p.action in ("urbanize", "city_growth") and not p.declined and not p.action_done
        if pending:
            if p.action == "urbanize":
                move, worth = _best_urbanize(game, f, state, seat)
            else:
                move, worth = _best_growth(game, f, state, seat)
            if move is not None and (worth > 0 or not state.options.standard):
                return move
        bt = build_turn(state, seat)
        if bt.placed < bt.limit:
            place = self._place(f, state, seat, bt)
            if place is not None:
                return place
        if not game.may_finish_building(state, seat):  # an action that must still be carried out
            return (game.urbanizations(state, seat) or game.growths(state, seat))[0]
        return Done()

    def _place(self, f: Facts, state: SteamState, seat: int, bt: BuildTurn) -> Place | None:
        money = budget(state, seat)
        # Losing a half-built link wastes all it cost (ST-4): extending one may dig deeper.
        rescue = budget(state, seat, floor=-5) if not state.options.standard else state.players[seat].cash
        left_here = bt.limit - bt.placed
        last_turn = turns_left(state) == 0

        def rank(pl: Plan) -> float:
            eff = pl.value / (pl.cost + 2)
            if len(pl.steps) > left_here:
                eff *= 0.6
            if pl.extend:
                eff = eff * 2 + 1
            return eff

        plans = []
        for pl in self._plans(f, state, seat):
            if last_turn and len(pl.steps) > left_here:
                continue  # an incomplete link scores nothing at the end (ST-14)
            if not pl.extend and pl.cost > money:
                continue
            plans.append(pl)
        plans.sort(key=rank, reverse=True)
        for pl in plans[:8]:
            h, entry, exit_ = pl.steps[0]
            for face, rotation, cost in faces_for(f, h, entry, exit_):
                if cost > (rescue if pl.extend else money):
                    continue
                build = Build(Kind.BUILD, h, face, rotation)
                if try_build(f, bt, build) is not None:
                    return Place(how="build", hex=f.m.label(h), face=face, rotation=rotation)
        return None

    # --- delivering
    def _deliver(self, game, state: SteamState, seat: int) -> Any:
        if state.pending:
            return Score(into=score_choice(state, seat))
        p = state.players[seat]
        found = game.deliveries(state, seat)
        best = max(found, key=lambda d: _delivery_worth(d, seat), default=None)
        now = best.points_of(seat) if best is not None else 0
        if not p.loco_upgraded and p.locomotive < components().locomotive["max"]:
            if self._upgrade_pays(game, state, seat, now):
                return Upgrade()
        if best is not None:
            return Deliver(colour=best.colour.value, route=game._route_text(state, best))
        return Pass()

    def _upgrade_pays(self, game, state: SteamState, seat: int, now: int) -> bool:
        p = state.players[seat]
        left = turns_left(state)
        if now and left == 0:
            return False
        f = Facts(state)
        after = _best_points(game, f, state, seat, p.locomotive + 1)
        if state.options.standard and p.income < p.locomotive and not (now == 0 and after >= 2):
            return False  # a level is $1 a turn of maintenance (ST-12)
        if now == 0:
            return after > 0 or (p.locomotive < 3 and left >= 2)
        return after >= now + 2 and left >= 2 and state.deliver_round == 1


def _action_cost(tile: str, locomotive: int) -> int:
    from games.steam.economy import action_cost
    return action_cost(tile, locomotive)


def _delivery_worth(d: delivery.Delivery, seat: int) -> float:
    mine = d.points_of(seat)
    others = max((pts for s, pts in d.points if s != seat), default=0)
    return mine - 0.4 * others - 0.01 * len(d.links)


def _best_points(game, f: Facts, state: SteamState, seat: int, level: int) -> int:
    found = delivery.deliveries(game._network(state), f.colour, cubes_by_city(state), seat, level)
    return max((d.points_of(seat) for d in found), default=0)


def _reach_gain(game, f: Facts, state: SteamState, seat: int) -> float:
    """How much one more locomotive level adds to the seat's best delivery now."""
    p = state.players[seat]
    if p.locomotive >= components().locomotive["max"]:
        return -5.0
    now = _best_points(game, f, state, seat, p.locomotive)
    more = _best_points(game, f, state, seat, p.locomotive + 1)
    return min(2.0, (more - now) / 2)


def score_choice(state: SteamState, seat: int) -> str:
    """Income while more than a third of the game is left, points after; income whenever it is
    negative (it is owed every turn) or would barely pay the locomotive's maintenance."""
    p = state.players[seat]
    left = turns_left(state)
    if left == 0:
        return "points"
    if p.income < 0:
        return "income"
    if state.options.standard and p.income < p.locomotive + 2 and left >= 2:
        return "income"
    return "income" if left > state.turns / 3 else "points"


def _wanted_colours(f: Facts, h: Hex) -> set[int]:
    """Colours a cube on `h` could be carried to soon: cities one or two links away, or within
    four hexes."""
    out: set[int] = set()
    near = set(f.adj.get(h, ()))
    for x in list(near):
        near |= f.adj.get(x, set())
    for c, colour in f.colour.items():
        if c != h and (c in near or c.distance(h) <= 4):
            out.add(COLOURS.index(colour.value))
    if h in f.colour:
        out.discard(COLOURS.index(f.colour[h].value))
    return out


def _on_network(f: Facts, state: SteamState, seat: int) -> set[Hex]:
    """Places at an end of one of the seat's links."""
    out: set[Hex] = set()
    for lid, run in f.runs.items():
        if f.rails.record[lid].owner == seat:
            out.update(run.places)
    return out


def _best_growth(game, f: Facts, state: SteamState, seat: int) -> tuple[Grow | None, float]:
    """The City Growth that brings the most cubes a city on the seat's network can ship."""
    if state.growth_left <= 0:
        return None, 0.0
    mine = _on_network(f, state, seat)
    spaces = [i + 1 for i, s in enumerate(state.supply) if any(s)]
    best, worth = None, -1.0
    for label in game.growable(state):
        h = f.m.hex_at(label)
        wanted = _wanted_colours(f, h)
        bonus = 1.0 if h in mine else 0.3
        for sp in spaces:
            good = sum(n for k, n in enumerate(state.supply[sp - 1]) if k in wanted)
            w = good * bonus
            if w > worth:
                best, worth = Grow(hex=label, space=sp), w
    return best, max(worth, 0.0)


def _best_urbanize(game, f: Facts, state: SteamState, seat: int, free: bool = False
                   ) -> tuple[Urbanize | None, float]:
    """The town, colour and supply space whose new city most cubes nearby want. With `free`
    the question is asked before the tile is taken (no listing from the rules yet)."""
    towns = [h for h in f.m.towns if h not in f.colour]
    colours = [c for c in COLOURS if state.new_city_tiles.get(c, 0) > 0]
    if not towns or not colours:
        return None, 0.0
    spaces = [i + 1 for i, s in enumerate(state.supply) if any(s)] or [0]
    mine = _on_network(f, state, seat)
    best, worth = None, -1.0
    for t in towns:
        near = [c for c in f.colour if c.distance(t) <= 3] + [c for c in f.adj.get(t, ()) if c in f.colour]
        if not near:
            continue
        touch = 1.0 if t in mine else (0.6 if any(n in mine for n in near) else 0.2)
        for colour in colours:
            k = COLOURS.index(colour)
            want = sum(f.cubes_of(c, k) for c in set(near))
            for sp in spaces:
                ship = sum(n for j, n in enumerate(state.supply[sp - 1]) if j != k) if sp else 0
                w = touch * (want + 0.3 * ship)
                if w > worth:
                    best, worth = Urbanize(hex=f.m.label(t), colour=colour, space=sp), w
    return best, max(worth, 0.0)


# ---------------------------------------------------------------------------------- the random bot
class RandomSteamBot:
    """Random legal moves, kept from ruin: it mostly passes auctions, builds only with money its
    income can bear (half of its tiles are the builder's next tile, so links get finished),
    delivers whenever it can and mostly takes income while income is low. Every kind
    of move turns up — bids, capital, action tiles taken and declined, builds, upgrades,
    redirects, urbanizing, city growth, deliveries, locomotive upgrades, both scoring answers."""

    name = "random"

    def choose(self, game: Any, state: SteamState, seat: int, rng: random.Random) -> Any:
        phase = state.phase
        p = state.players[seat]
        if phase in ("first_auction", "auction"):
            low, high = game.bid_range(state, seat)
            if low <= high and rng.random() < 0.25:
                cap = high if phase == "auction" else min(high, p.cash + 5)
                if low <= cap:
                    return Bid(amount=rng.randint(low, min(cap, low + 2)))
            return Pass()
        if phase == "capital":
            room = min(game.capital_max(state, seat), max(0, p.income + 3))
            return Capital(steps=rng.randint(0, min(4, room)))
        if phase == "actions":
            choices = game.action_choices(state, seat)
            money = budget(state, seat, floor=-2)
            fine = [c for c in choices if c.decline or state.options.standard
                    or _action_cost(c.tile, p.locomotive) <= max(money, p.cash)]
            return rng.choice(fine or choices)
        if phase == "build":
            return self._build(game, state, seat, rng)
        if phase == "deliver":
            if state.pending:
                pending_seat = state.pending[0][0]
                if state.players[pending_seat].income < 2 and turns_left(state) > 0 and rng.random() < 0.5:
                    return Score(into="income")
                return Score(into=rng.choice(("income", "points")))
            found = game.deliveries(state, seat)
            may_upgrade = not p.loco_upgraded and p.locomotive < components().locomotive["max"]
            if found and rng.random() < 0.85:
                d = rng.choice(found)
                return Deliver(colour=d.colour.value, route=game._route_text(state, d))
            if may_upgrade and rng.random() < 0.5 and not (state.options.standard and p.income < p.locomotive):
                return Upgrade()
            return Pass()
        raise ValueError(f"no move for seat {seat} in phase {phase}")

    def _build(self, game, state: SteamState, seat: int, rng: random.Random) -> Any:
        must = not game.may_finish_building(state, seat)
        # Every urbanization and growth, made only for the one picked (there can be hundreds).
        special = Chain(game.urbanization_moves(state, seat), game.growth_moves(state, seat))
        if special and (must or rng.random() < 0.6):
            return rng.choice(special)
        bt = build_turn(state, seat)
        if bt.placed < bt.limit and rng.random() < 0.8:
            f = Facts(state)
            if rng.random() < 0.5:
                # Half the time the builder's next tile, so that links get finished and goods move.
                planned = _BUILDER._place(f, state, seat, bt)
                if planned is not None:
                    return planned
            money = budget(state, seat, floor=-2)
            for _ in range(30):
                build = _random_build(f, seat, rng)
                if build is None:
                    continue
                cost = try_build(f, bt, build)
                if cost is not None and cost <= money:
                    return Place(how=build.kind.value, hex=f.m.label(build.hex), face=build.face,
                                 rotation=build.rotation)
        if must:
            return special[0]
        return Done()


def _random_build(f: Facts, seat: int, rng: random.Random) -> Build | None:
    """One random build the map allows on a hex where track could go: a new tile next to a city
    or an open end (own open ends more often), an upgrade of any tile, or a redirect of the last
    tile of an incomplete link. The rules judge it afterwards."""
    ts = tileset()
    own_ends, ends = f.open_ends(seat)
    roll = rng.random()
    if roll < 0.1 and f.rails.tiles:
        h, t = rng.choice(f.rails.tiles)
        ups = upgrades_on(f.m, h, ts, t.face, t.rotation, f.stock.give_back(t.pairing))
        if ups:
            u = rng.choice(ups)
            return Build(Kind.UPGRADE, h, u.face, u.rotation)
    if roll < 0.2 and ends:
        h, _ = rng.choice(ends)
        t = f.rails.tile_at.get(h)
        if t is not None and not ts.faces[t.face].town:
            opts = placements(f.m, h, ts, f.stock.give_back(t.pairing))
            if opts:
                u = rng.choice(opts)
                return Build(Kind.REDIRECT, h, u.face, u.rotation)
    if own_ends and rng.random() < 0.6:
        h, side = rng.choice(own_ends)
        target = h.neighbors()[side]
    else:
        c = rng.choice(f.cities)
        target = c.neighbors()[rng.randrange(6)]
    if not f.empty(target):
        return None
    opts = f.placements(target)
    if not opts:
        return None
    u = rng.choice(opts)
    return Build(Kind.BUILD, target, u.face, u.rotation)


_BUILDER = BuilderBot()
BOTS = {"builder": _BUILDER, "random": RandomSteamBot()}
