"""Catan Express bots: a builder that plays the game sensibly, and a random one that fuzzes
every kind of move and still finishes games.

What the builder reads
    Bots are server code and receive the full state, but the builder plays fair: of the other
    seats it reads only what CE-12 makes public — buildings, pieces, chips, towers, card counts
    (`players[i].cards`), development card counts and knights — and of its own seat its hand.

How the builder plays
    Setup: the intersections with the most pips (dots under the number tokens), a bonus for
    resources it does not produce yet and, now and then, a harbour; the free rail goes to the
    centre of the hex whose corners hold its other settlement (a city needs a touched settlement,
    CE-4) or others' buildings (chips, CE-5).
    Its turn: it aims at one thing — a city, else a settlement, else a development card — and
    builds it when affordable, trades surplus to the bank toward it, offers a surplus card (two
    when it has plenty) for its last missing one now and then, and spends true surplus on rails
    and ferries. A piece is worth the targets it brings nearer: its own untouched settlements
    (cities), others' buildings and networks not yet touched (victory point chips) and, in the
    race, its uncollected stops; a target's worth halves with every piece still between.
    Pieces never end on a free intersection worth settling (a touched intersection can no
    longer be settled, CE-4).
    Robber and Knight: the hex where the leaders lose most and it loses nothing; a Knight also
    frees one of its own hexes. Offers it answers by what the cards are worth to its aim.
    The race: stops close to its locomotive and far from the others'; each turn, after building,
    a whole route to a tower when one is in reach, otherwise one leg at a time that comes nearer
    to the nearest tower over the pieces on the board, tolls paid with its most plentiful card.

The random bot
    Picks a kind of move uniformly, then a move of that kind, so the many possible offers do
    not crowd out the rest (its own offers are drawn on any terms the rules allow, CE-B5); it
    ends its turn only 30% of the time when it could do something else. Every turn still ends
    (offers are capped, trades and builds spend cards, a ride spends points), and random
    players reach 8 points and race like anyone else.
"""
from __future__ import annotations

import random
from collections import Counter, deque
from functools import lru_cache
from operator import attrgetter
from typing import Any

from games.catan_express import economy, race
from games.catan_express.components import RESOURCES, DevCard, components
from games.catan_express.geo import Geo
from games.catan_express.map import Board
from games.catan_express.models import (MAX_OFFERS, Answer, BankTrade, Build, Buy, CatanState, Discard, End, Gold,
                                        Menu, Monopoly, NameStop, Partner, Plenty, Propose, Ride, Roads, Robber, Roll)

PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
GOLD = -1                 # a gold river's "resource": whichever the owner picks
N_RES = len(RESOURCES)
END_CHANCE = 0.3          # the random bot ends its turn this often when it could do more


def _cost(item: str) -> tuple[int, ...]:
    return economy.cost(item).counts  # type: ignore[arg-type]


COST = {k: _cost(k) for k in ("settlement", "city", "development_card", "rail", "ferry")}


def _one(i: int, n: int = 1) -> tuple[int, int, int, int, int]:
    out = [0] * N_RES
    out[i] = n
    return tuple(out)  # type: ignore[return-value]


# ---------------------------------------------------------------------------------- board facts
class Facts:
    """What a board yields where, computed once per laid-out board: each intersection's
    producing hexes as (resource index or GOLD, pips, hex label), and its harbour."""

    def __init__(self, board: Board, geo: Geo) -> None:
        c = components()
        hexes: dict[str, tuple[int, int]] = {}
        for land in board.land:
            y = c.yields(land.terrain.value)
            if y is None or land.token is None:
                continue
            res = GOLD if y == "choice" else RESOURCES.index(y)
            hexes[board.label(land.hex)] = (res, PIPS[land.token])
        self.hexes = hexes
        self.spot: dict[int, tuple[tuple[int, int, str], ...]] = {
            pt: tuple((hexes[lab][0], hexes[lab][1], lab) for lab in labs if lab in hexes)
            for pt, labs in geo.land_of.items()}
        self.pips: dict[int, int] = {pt: sum(p for _, p, _ in v) for pt, v in self.spot.items()}
        self.harbour: dict[int, str] = {geo.graph.number(corner): hb.kind for hb in board.harbours
                                        for corner in hb.corners}
        # Every point's neighbours along any piece (rail or ferry), for distances on the board.
        self.adj: dict[str, tuple[str, ...]] = {
            pt: tuple(sorted({geo.other_end(piece, pt) for piece in pieces})) for pt, pieces in geo.at.items()}


@lru_cache(maxsize=32)
def _facts(board: Board, geo_key: int) -> Facts:
    return Facts(board, _GEOS[geo_key])


_GEOS: dict[int, Geo] = {}


def facts(game: Any, state: CatanState) -> tuple[Board, Geo, Facts]:
    board = game.board(state)
    geo = game.geo(state)
    _GEOS[id(geo)] = geo
    return board, geo, _facts(board, id(geo))


def distances(adj: dict[str, tuple[str, ...]], sources: list[str], limit: int,
              allowed: set[str] | None = None) -> dict[str, int]:
    """Breadth-first distances (in pieces) from the nearest source, up to `limit`; with
    `allowed`, only along edges whose both ends the caller allows (pieces that are built)."""
    dist = {s: 0 for s in sources}
    todo = deque(sources)
    while todo:
        at = todo.popleft()
        d = dist[at]
        if d >= limit:
            continue
        for nxt in adj.get(at, ()):
            if nxt in dist:
                continue
            if allowed is not None and (at, nxt) not in allowed:
                continue
            dist[nxt] = d + 1
            todo.append(nxt)
    return dist


def _link_cost(adj: dict[str, tuple[str, ...]], built: set[tuple[str, str]], targets: list[str]) -> dict[str, int]:
    """For every point, the fewest new pieces that join it to one of `targets`, riding free
    over the pieces already built (a 0-1 breadth-first search)."""
    cost = {t: 0 for t in targets}
    todo = deque(targets)
    while todo:
        at = todo.popleft()
        d = cost[at]
        for nxt in adj.get(at, ()):
            step = 0 if (at, nxt) in built else 1
            if d + step < cost.get(nxt, 1 << 30):
                cost[nxt] = d + step
                if step:
                    todo.append(nxt)
                else:
                    todo.appendleft(nxt)
    return cost


def built_edges(state: CatanState, geo: Geo) -> set[tuple[str, str]]:
    """Both directions of every piece someone owns: where a locomotive can go."""
    out = set()
    for piece, owners in state.pieces.items():
        if owners:
            a, b = geo.ends[piece]
            out.add((a, b))
            out.add((b, a))
    return out


# ---------------------------------------------------------------------------------- the builder
class BuilderBot:
    """Settles well, builds what it can afford, trades toward it, races (module docstring)."""

    name = "builder"

    def choose(self, game: Any, state: CatanState, seat: int, rng: random.Random) -> Any:
        phase = state.phase
        if phase == "setup":
            return self._setup(game, state, seat, rng)
        if phase == "roll":
            knight = self._knight(game, state, seat, must=False)
            return knight or Roll()
        if phase == "gold":
            return self._gold(game, state, seat)
        if phase == "discard":
            return self._discard(game, state, seat)
        if phase == "robber":
            return self._robber(game, state, seat, knight=False)
        if phase == "answer" and seat != state.current:
            return self._answer(game, state, seat)
        if phase == "answer":  # someone accepted while others still answer: pick now
            return self._pick(game, state, seat)
        if phase == "pick":
            return self._pick(game, state, seat)
        if phase == "stops":
            return self._stop(game, state, seat)
        if phase == "special":
            return self._build_step(game, state, seat, rng, special=True) or End()
        if state.moving:
            return self._ride(game, state, seat) or End()
        return (self._build_step(game, state, seat, rng, special=False)
                or self._ride(game, state, seat) or End())

    # --- values
    def _spot_value(self, f: Facts, state: CatanState, seat: int, pt: int, produced: set[int]) -> float:
        value = 0.0
        fresh = set()
        for res, pips, lab in f.spot[pt]:
            blocked = lab == state.robber
            value += pips * (1.2 if res == GOLD else 1.0) * (0.5 if blocked else 1.0)
            if res != GOLD and res not in produced:
                fresh.add(res)
        value += 1.5 * len(fresh)
        kind = f.harbour.get(pt)
        if kind is not None:
            # A resource harbour is worth having for a resource one produces plenty of.
            value += 1.0 if kind == "generic" else (2.0 if RESOURCES.index(kind) in produced else 0.5)
        return value

    def _produced(self, f: Facts, state: CatanState, seat: int) -> set[int]:
        return {res for pt, b in state.buildings.items() if b.seat == seat for res, _, _ in f.spot[pt] if res != GOLD}

    def _aim(self, game: Any, state: CatanState, seat: int, geo: Geo) -> tuple[int, ...]:
        """The cost of what to build next: a city, a settlement, or a development card."""
        hand = state.players[seat].hand
        mine = [(pt, b) for pt, b in state.buildings.items() if b.seat == seat]
        cities = sum(1 for _, b in mine if b.kind == "city")
        options = []
        if (cities < game.city_cap(state) and game.pieces_left(state, seat, "city") > 0
                and any(b.kind == "settlement" for _, b in mine)):
            options.append(COST["city"])
        if game.pieces_left(state, seat, "settlement") > 0 and game.settlement_spots(state, geo):
            options.append(COST["settlement"])
        if not options:
            return COST["development_card"] if state.deck else COST["rail"]
        # The aim with fewest cards missing; a city wins ties (two points for one piece).
        return min(options, key=lambda c: sum(max(0, a - b) for a, b in zip(c, hand)))

    @staticmethod
    def _need(hand: list[int], aim: tuple[int, ...]) -> list[int]:
        return [max(0, a - h) for a, h in zip(aim, hand)]

    @staticmethod
    def _worth(hand: list[int], aim: tuple[int, ...]) -> list[float]:
        """What one more card of each resource is worth toward the aim."""
        return [2.0 if h < a else (1.0 if h < a + 2 else 0.4) for h, a in zip(hand, aim)]

    # --- setup
    def _setup(self, game: Any, state: CatanState, seat: int, rng: random.Random) -> Any:
        board, geo, f = facts(game, state)
        legal = game.legal_actions(state, seat)
        p = state.players[seat]
        if state.setup_rail:
            mine = {pt for pt, b in state.buildings.items() if b.seat == seat and pt != p.start}

            def rail_score(a: Build) -> float:
                centre = geo.other_end(a.at, str(p.start))
                corners = geo.corners_of.get(centre, ())
                score = f.hexes.get(centre, (0, 0))[1] * 0.3
                score += sum(5.0 for c in corners if c in mine)
                score += sum(3.0 for c in corners if c in state.buildings and state.buildings[c].seat != seat)
                return score + rng.random() * 0.1
            return max(legal, key=rail_score)
        produced = self._produced(f, state, seat)
        return max(legal, key=lambda a: self._spot_value(f, state, seat, int(a.at), produced) + rng.random() * 0.5)

    # --- cards from the bank
    def _gold(self, game: Any, state: CatanState, seat: int) -> Gold:
        _, geo, _ = facts(game, state)
        owed = min(state.gold_owed[0][1], sum(state.bank))
        hand = list(state.players[seat].hand)
        aim = self._aim(game, state, seat, geo)
        bank = list(state.bank)
        picks = [0] * N_RES
        for _ in range(owed):
            worth = self._worth(hand, aim)
            i = max((k for k in range(N_RES) if bank[k] > 0), key=lambda k: (worth[k], -hand[k], -k))
            picks[i] += 1
            hand[i] += 1
            bank[i] -= 1
        return Gold(cards=tuple(picks))  # type: ignore[arg-type]

    def _discard(self, game: Any, state: CatanState, seat: int) -> Discard:
        _, geo, _ = facts(game, state)
        due = state.discards[seat]
        hand = list(state.players[seat].hand)
        aim = self._aim(game, state, seat, geo)
        out = [0] * N_RES
        for _ in range(due):
            # Give up first what lies beyond the aim, the largest pile first.
            i = max((k for k in range(N_RES) if hand[k] > 0), key=lambda k: (hand[k] - aim[k], hand[k], -k))
            out[i] += 1
            hand[i] -= 1
        return Discard(cards=tuple(out))  # type: ignore[arg-type]

    # --- the robber
    def _robber(self, game: Any, state: CatanState, seat: int, knight: bool) -> Robber | None:
        _, geo, f = facts(game, state)
        moves = game.robber_moves(state, seat, knight=knight)
        if not moves:
            return None
        totals = [game.total(state, s) for s in range(state.n)]

        def hex_score(lab: str) -> float:
            pips = f.hexes.get(lab, (0, 0))[1]
            score = 0.0
            for pt in geo.corners_of.get(lab, ()):
                b = state.buildings.get(pt)
                if b is None:
                    continue
                weight = 2 if b.kind == "city" else 1
                if b.seat == seat:
                    score -= 4 * pips * weight
                else:
                    score += pips * weight * (1 + totals[b.seat] / 4)
            return score

        def key(m: Robber) -> tuple:
            victim = (totals[m.victim], state.players[m.victim].cards) if m.victim is not None else (-1, -1)
            return (hex_score(m.hex), victim)
        return max(moves, key=key)

    def _knight(self, game: Any, state: CatanState, seat: int, must: bool) -> Robber | None:
        """A Knight when the robber sits on one of its own producing hexes (or to take or keep
        Largest Army when `must`)."""
        if not game.can_play(state, seat, DevCard.KNIGHT):
            return None
        _, geo, _ = facts(game, state)
        blocked = any(b.seat == seat and state.robber in geo.land_of[pt] for pt, b in state.buildings.items())
        if not blocked and not must:
            return None
        move = self._robber(game, state, seat, knight=True)
        return move

    # --- trading with players
    def _answer(self, game: Any, state: CatanState, seat: int) -> Answer:
        _, geo, _ = facts(game, state)
        offer = state.offer
        hand = state.players[seat].hand
        if not all(h >= g for h, g in zip(hand, offer.get)):
            return Answer(accept=False)
        if game.total(state, state.current) >= 7 and not state.race:
            return Answer(accept=False)  # no help toward starting the race
        aim = self._aim(game, state, seat, geo)
        worth = self._worth(hand, aim)
        after = [h - g for h, g in zip(hand, offer.get)]
        worth_after = self._worth(after, aim)
        gain = sum(n * w for n, w in zip(offer.give, worth_after))
        loss = sum(n * w for n, w in zip(offer.get, worth))
        return Answer(accept=gain > loss + 0.5)

    def _pick(self, game: Any, state: CatanState, seat: int) -> Partner:
        yes = game.acceptors(state)
        if not yes:
            return Partner()
        return Partner(seat=min(yes, key=lambda s: (game.total(state, s), s)))

    # --- the race
    def _stop(self, game: Any, state: CatanState, seat: int) -> NameStop:
        _, geo, f = facts(game, state)
        options = race.nameable_stops(state, geo, seat)
        edges = built_edges(state, geo)

        def far(s: int) -> dict[str, int]:
            loco = state.players[s].loco
            return distances(f.adj, [loco], 40, edges) if loco is not None else {}
        mine = far(seat)
        others = [far(s) for s in range(state.n) if s != seat]

        def key(pt: int) -> tuple:
            d = mine.get(str(pt), 50)
            rival = min((o.get(str(pt), 50) for o in others), default=50)
            return (d - 0.5 * rival, pt)
        return NameStop(at=min(options, key=key))

    def _ride(self, game: Any, state: CatanState, seat: int) -> Ride | None:
        if not game.may_ride(state, seat):
            return None
        _, geo, f = facts(game, state)
        p = state.players[seat]
        targets = [str(s) for s in state.stops if s not in p.towers]
        if not targets:
            return None
        routes = game.ride_routes(state, seat)
        if routes:
            return min(routes, key=lambda r: (sum(1 for leg in r.legs if leg.payee is not None), len(r.legs)))
        dist = distances(f.adj, targets, 60, built_edges(state, geo))
        here = dist.get(str(p.loco))
        if here is None:
            return None
        hand = p.hand
        best = None
        for ride in game.ride_legs(state, seat):
            leg = ride.legs[0]
            d = dist.get(leg.to)
            if d is None or d >= here:
                continue
            toll = 0 if leg.payee is None else 1
            spare = -hand[RESOURCES.index(leg.resource)] if leg.resource else 0
            key = (d, toll, spare, leg.to, leg.payee or 0)
            if best is None or key < best[0]:
                best = (key, ride)
        return best[1] if best else None

    # --- building, buying, trading on one's turn
    def _build_step(self, game: Any, state: CatanState, seat: int, rng: random.Random, special: bool) -> Any:
        board, geo, f = facts(game, state)
        p = state.players[seat]
        hand = p.hand
        aim = self._aim(game, state, seat, geo)

        if not special:
            knight = self._knight(game, state, seat, must=False)
            if knight is not None:
                return knight
            card = self._card_play(game, state, seat, aim, geo, f)
            if card is not None:
                return card

        builds = game.builds(state, seat)
        cities = [b for b in builds if b.what == "city"]
        if cities:
            return max(cities, key=lambda b: f.pips[int(b.at)])
        settlements = [b for b in builds if b.what == "settlement"]
        if settlements:
            produced = self._produced(f, state, seat)
            return max(settlements, key=lambda b: self._spot_value(f, state, seat, int(b.at), produced))

        pieces = [b for b in builds if b.what in ("rail", "ferry")]
        if pieces and state.race:
            link = self._link_piece(state, seat, geo, f, pieces)
            if link is not None:
                return link
        if pieces:
            free = state.free_pieces > 0 and not special
            piece = self._best_piece(game, state, seat, geo, f, pieces, aim, free)
            if piece is not None:
                return piece

        if not special:
            trade = self._bank_trade(game, state, seat, aim)
            if trade is not None:
                return trade
            offer = self._offer(game, state, seat, aim, rng)
            if offer is not None:
                return offer

        if game.can_buy(state, seat):
            after = [h - c for h, c in zip(hand, COST["development_card"])]
            # Buy when the aim is a card, or when the purchase leaves the aim's cards alone.
            if aim == COST["development_card"] or all(a >= min(h, n) for a, h, n in zip(after, hand, aim)):
                return Buy()
        return None

    def _card_play(self, game: Any, state: CatanState, seat: int, aim: tuple[int, ...], geo: Geo, f: Facts) -> Any:
        p = state.players[seat]
        if p.played_card:
            return None
        need = self._need(p.hand, aim)
        if game.can_play(state, seat, DevCard.YEAR_OF_PLENTY) and 0 < sum(need) <= 2:
            bank = list(state.bank)
            picks = [0] * N_RES
            due = min(components().year_of_plenty_cards, sum(bank))
            for i in range(N_RES):
                while need[i] > picks[i] and bank[i] > 0 and sum(picks) < due:
                    picks[i] += 1
                    bank[i] -= 1
            while sum(picks) < due:
                i = max(range(N_RES), key=lambda k: (bank[k], -k))
                picks[i] += 1
                bank[i] -= 1
            return Plenty(cards=tuple(picks))  # type: ignore[arg-type]
        if game.can_play(state, seat, DevCard.MONOPOLY) and sum(need) > 0:
            others = sum(q.cards for i, q in enumerate(state.players) if i != seat)
            if others >= 3 * (state.n - 1):
                i = max(range(N_RES), key=lambda k: (need[k], -k))
                return Monopoly(resource=RESOURCES[i].value)
        if (game.can_play(state, seat, DevCard.ROAD_BUILDING) and state.free_pieces == 0
                and game.pieces_left(state, seat, "rail") + game.pieces_left(state, seat, "ferry") > 0):
            values = self._piece_values(game, state, seat, geo, f)
            if values and max(values.values()) >= 1.0:
                return Roads()
        # A Knight toward Largest Army when it is within reach and nothing else asks for it.
        if game.can_play(state, seat, DevCard.KNIGHT):
            best_other = max((q.knights for i, q in enumerate(state.players) if i != seat), default=0)
            if state.largest_army != seat and p.knights + 1 >= max(3, best_other + 1):
                return self._robber(game, state, seat, knight=True)
        return None

    def _piece_values(self, game: Any, state: CatanState, seat: int, geo: Geo, f: Facts) -> dict[str, float]:
        """Each point's worth as the new end of one of the seat's pieces: the targets near it,
        halved per piece between (module docstring)."""
        p = state.players[seat]
        targets: dict[str, float] = {}
        net = race.network_points(state, geo, seat)
        for pt, b in state.buildings.items():
            name = str(pt)
            if name in net:
                continue
            if b.seat == seat:
                if b.kind == "settlement":
                    targets[name] = 4.0
            elif f"touch:{name}" not in p.chips:
                targets[name] = 5.0
        joined = {tuple(j) for j in state.joined}
        for other in range(state.n):
            if other == seat or (min(seat, other), max(seat, other)) in joined:
                continue
            for pt in race.network_points(state, geo, other):
                if pt not in net:
                    targets[pt] = max(targets.get(pt, 0.0), 4.0)
        if state.race:
            for s in state.stops:
                if s not in p.towers and str(s) not in net:
                    targets[str(s)] = max(targets.get(str(s), 0.0), 5.0)
        values: dict[str, float] = {}
        for t, v in targets.items():
            for pt, d in distances(f.adj, [t], 4).items():
                w = v * 0.5 ** d
                if w > values.get(pt, 0.0):
                    values[pt] = w
        return values

    def _best_piece(self, game: Any, state: CatanState, seat: int, geo: Geo, f: Facts, pieces: list[Build],
                    aim: tuple[int, ...], free: bool) -> Build | None:
        net = race.network_points(state, geo, seat)
        values = self._piece_values(game, state, seat, geo, f)
        spots = set(game.settlement_spots(state, geo)) if not state.race else set()
        hand = state.players[seat].hand
        best = None
        for b in pieces:
            a, c = geo.ends[b.at]
            new = [x for x in (a, c) if x not in net]
            if not new:
                continue
            end = new[0]
            if end.isdigit() and int(end) in spots and f.pips[int(end)] >= 6:
                continue  # it would spoil a spot worth settling
            value = values.get(end, 0.0)
            if value <= 0:
                continue
            owners = state.pieces.get(b.at, ())
            value -= 0.5 * len(set(owners))  # the brick fee of a parallel piece
            if b.what == "ferry":
                value -= 0.2
            if value > (best[0] if best else 0.0):
                best = (value, b)
        if best is None:
            return None
        value, b = best
        left = game.pieces_left(state, seat, "rail") + game.pieces_left(state, seat, "ferry")
        if not state.race and left <= 6 and not free:
            # The last pieces are kept for joining the stops once the race is on.
            return b if value >= 4.0 and b.what == "rail" else None
        if free or value >= 4.0:
            return b
        if not state.race and value >= 1.0 and not race.nameable_stops(state, geo, seat):
            # With nothing to name as a stop the race would pass it by (CE-7): reach a building.
            return b
        # Otherwise only with cards the aim does not need.
        cost = COST[b.what]
        if value >= 1.0 and all(h - c >= min(h, n) for h, c, n in zip(hand, cost, aim)):
            return b
        return None

    def _link_piece(self, state: CatanState, seat: int, geo: Geo, f: Facts, pieces: list[Build]) -> Build | None:
        """In the race: a piece on a shortest way (fewest new pieces, riding over anyone's)
        from the locomotive's part of the board to an uncollected stop it cannot reach yet."""
        p = state.players[seat]
        targets = [str(x) for x in state.stops if x not in p.towers]
        if not targets or p.loco is None:
            return None
        built = built_edges(state, geo)
        reach = set(distances(f.adj, [p.loco], 10_000, built))
        if all(t in reach for t in targets):
            return None
        need = _link_cost(f.adj, built, targets)
        here = min(need.get(pt, 99) for pt in reach)
        best = None
        for b in pieces:
            a, c = geo.ends[b.at]
            if (a, c) in built:
                continue  # anyone's piece there already carries the locomotive
            end = c if a in reach else a
            d = need.get(end, 99)
            if d < here and (best is None or (d, b.what == "ferry") < best[0]):
                best = ((d, b.what == "ferry"), b)
        return best[1] if best else None

    def _bank_trade(self, game: Any, state: CatanState, seat: int, aim: tuple[int, ...]) -> BankTrade | None:
        hand = state.players[seat].hand
        need = self._need(hand, aim)
        if not any(need):
            return None
        ports = game.harbours(state, seat)
        wanted = [j for j in range(N_RES) if need[j] > 0 and state.bank[j] > 0]
        if not wanted:
            return None
        j = max(wanted, key=lambda k: (need[k], -k))
        best = None
        for i, r in enumerate(RESOURCES):
            ratio = economy.trade_ratio(r, ports)
            spare = hand[i] - aim[i]
            if i != j and spare >= ratio and hand[i] >= ratio:
                key = (spare - ratio, -ratio)
                if best is None or key > best[0]:
                    best = (key, i, ratio)
        if best is None:
            return None
        _, i, ratio = best
        return BankTrade(give=_one(i, ratio), get=_one(j, 1))

    def _offer(self, game: Any, state: CatanState, seat: int, aim: tuple[int, ...],
               rng: random.Random) -> Propose | None:
        if state.offers_made > 0 or state.n < 2:
            return None
        hand = state.players[seat].hand
        need = self._need(hand, aim)
        if sum(need) != 1 or rng.random() < 0.5:
            return None
        j = need.index(1)
        if components().bank_size(state.n) - state.bank[j] - hand[j] <= 0:
            return None  # nobody else holds the card it misses (the bank and its hand tell it)
        spare = [i for i in range(N_RES) if i != j and hand[i] - aim[i] >= 1]
        if not spare:
            return None
        i = max(spare, key=lambda k: (hand[k] - aim[k], -k))
        # Two of a card it has plenty of make the offer hard to refuse (CE-B5: any terms).
        return Propose(give=_one(i, 2 if hand[i] - aim[i] >= 3 else 1), get=_one(j))


# ---------------------------------------------------------------------------------- the random bot
class RandomBot:
    """A uniformly random kind of move, then a uniformly random move of that kind.

    It draws from `rng` exactly as `random.Random`'s own choice and shuffle would (the same
    games for the same seed), through `_below` and `_shuffle`: the random player runs whole
    games in the benchmarks and fuzzers, where the library's layers of calls showed up."""

    name = "random"

    def choose(self, game: Any, state: CatanState, seat: int, rng: random.Random) -> Any:
        phase = state.phase
        if phase == "main" and not state.moving:
            return self._main(game, state, seat, rng)
        if phase in ONE_KIND_PHASES:
            # `pick` without the sorting: the one kind drawn, then a move.
            legal = game.legal_actions(state, seat)
            _below(rng, 1)
            return legal[_below(rng, len(legal))]
        if phase == "main":
            # Moving: a step, a route to a stop, or stop here — the routes only when drawn.
            if rng.random() < END_CHANCE:
                return _END
            kinds = ["ride", "route"]
            _shuffle(rng, kinds)
            for kind in kinds:
                options = game.ride_legs(state, seat) if kind == "ride" else game.ride_routes(state, seat)
                if options:
                    return options[_below(rng, len(options))]
            return _END
        if phase == "discard":
            # Half the hand at random, card by card: a big hand has hundreds of distinct discards.
            hand = state.players[seat].hand
            cards = [i for i, n in enumerate(hand) for _ in range(n)]
            out = [0] * N_RES
            for i in rng.sample(cards, state.discards[seat]):
                out[i] += 1
            return Discard(cards=tuple(out))
        return self.pick(game.legal_actions(state, seat), rng)

    @staticmethod
    def pick(legal: list[Any], rng: random.Random) -> Any:
        """One of `legal`: a kind first, then a move of that kind (rides to a stop a kind of
        their own, see `_kind`)."""
        if isinstance(legal, Menu) and legal.runs_hold():
            return _pick_by_runs(legal, rng)
        # Counted and found with the list's own (compiled) methods: an offer menu is hundreds long.
        names = list(map(_KIND_OF, legal))
        counts = Counter(names)  # in order of first appearance, as the kinds are drawn
        if "ride" in counts:
            i = -1
            try:
                while True:
                    i = names.index("ride", i + 1)
                    names[i] = _kind(legal[i])
            except ValueError:
                counts = Counter(names)
        ends = counts.pop("end", 0)
        kinds = list(counts)
        if ends and (not kinds or rng.random() < END_CHANCE):
            return legal[names.index("end")]
        kind = kinds[_below(rng, len(kinds))]
        n = counts[kind]
        j = _below(rng, n)
        first = names.index(kind)
        try:
            names.index(kind, first + n)
        except ValueError:
            return legal[first + j]  # none after the first n places: the kind's moves are one run
        return [a for a, k in zip(legal, names) if k == kind][j]

    @staticmethod
    def _main(game: Any, state: CatanState, seat: int, rng: random.Random) -> Any:
        """The main phase kind by kind from the rules' own generators, listing only the kinds
        it needs: the kinds in a random order, the first that has a move wins — the same as a
        uniform draw among the kinds with moves, without listing them all every time."""
        if rng.random() < END_CHANCE:
            return _END
        kinds = list(MAIN_KINDS)
        _shuffle(rng, kinds)
        cards: list[Any] | None = None
        for kind in kinds:
            if kind == "build":
                options = game.builds(state, seat)
            elif kind == "buy":
                options = [_BUY] if game.can_buy(state, seat) else []
            elif kind in CARD_KINDS:
                if cards is None:
                    cards = game.card_plays(state, seat)
                options = [a for a in cards if a.kind == kind]
            elif kind == "bank":
                options = game.bank_trades(state, seat)
            elif kind == "offer":
                offer = _random_offer(state, seat, rng)
                options = [offer] if offer is not None else []
            elif kind == "ride":
                options = game.ride_legs(state, seat)
            else:
                options = game.ride_routes(state, seat)
            if options:
                return options[_below(rng, len(options))]
        return _END


MAIN_KINDS = ("build", "buy", "monopoly", "plenty", "roads", "robber", "bank", "offer", "ride", "route")
RANDOM_GIVE = 4  # the random bot's offers give up to this many cards…
RANDOM_ASK = 3   # …for up to this many
CARD_KINDS = frozenset({"monopoly", "plenty", "roads", "robber"})
# The phases whose moves are all of one kind, neither "end" nor a ride (phases/menus.py).
ONE_KIND_PHASES = frozenset({"answer", "pick", "gold", "robber", "stops", "setup"})
_END, _BUY = End(), Buy()
_KIND_OF = attrgetter("kind")


def _below(rng: random.Random, n: int) -> int:
    """rng._randbelow(n) of random.Random: what its choice, shuffle and randint draw with."""
    if n <= 0:
        raise IndexError("nothing to choose from")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """rng.shuffle(items), drawing the same numbers."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


def _pick_by_runs(legal: Menu, rng: random.Random) -> Any:
    """RandomBot.pick on a menu that says where each kind's moves lie (the same draws)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for kind, start, stop in legal.runs:
        if kind == "ride":  # steps and routes, told apart move by move
            for i in range(start, stop):
                spans.setdefault(_kind(legal[i]), []).append((i, i + 1))
        else:
            spans.setdefault(kind, []).append((start, stop))
    ends = spans.pop("end", None)
    kinds = list(spans)
    if ends is not None and (not kinds or rng.random() < END_CHANCE):
        return legal[ends[0][0]]
    chosen = spans[kinds[_below(rng, len(kinds))]]
    j = _below(rng, sum(stop - start for start, stop in chosen))
    for start, stop in chosen:
        if j < stop - start:
            return legal[start + j]
        j -= stop - start
    raise AssertionError("a draw below the count lies in a span")


def _random_offer(state: CatanState, seat: int, rng: random.Random) -> Propose | None:
    """Some cards of the hand (1 to RANDOM_GIVE) for 1 to RANDOM_ASK cards of other resources:
    one offer drawn at random on any terms the rules allow (CE-B5), without listing the
    thousands a hand allows."""
    hand = state.players[seat].hand
    if state.offers_made >= MAX_OFFERS or not sum(hand):
        return None
    cards = _cards(tuple(hand))
    give = [0] * N_RES
    for i in rng.sample(cards, 1 + _below(rng, min(RANDOM_GIVE, len(cards)))):
        give[i] += 1
    others = [i for i in range(N_RES) if not give[i]]
    if not others:
        return None
    get = [0] * N_RES
    for _ in range(1 + _below(rng, RANDOM_ASK)):
        get[others[_below(rng, len(others))]] += 1
    return _propose(tuple(give), tuple(get))


@lru_cache(maxsize=4096)
def _cards(hand: tuple[int, ...]) -> tuple[int, ...]:
    """One resource index per card of the hand, in resource order (what a random pick draws from)."""
    return tuple(i for i, n in enumerate(hand) for _ in range(n))


@lru_cache(maxsize=4096)
def _propose(give: tuple[int, ...], get: tuple[int, ...]) -> Propose:
    """An offer, made once per terms (a frozen value)."""
    return Propose(give=give, get=get)


def _kind(action: Any) -> str:
    """A move's kind for the random bot's first draw. A ride to a stop counts apart from a
    single step: otherwise a locomotive wanders a big board for thousands of turns."""
    if action.kind == "ride" and len(action.legs) > 1:
        return "route"
    return action.kind


BOTS = {"builder": BuilderBot(), "random": RandomBot()}

__all__ = ["BOTS", "BuilderBot", "RandomBot"]
