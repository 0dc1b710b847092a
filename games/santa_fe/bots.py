"""Santa Fe bots: a builder that plays the city cards its railroads can reach and lays track
toward them, and a random one for fuzzing.

The builder reads its own view only (public board, money, played cards, its own hand). It
judges distances with the all-pairs shortest paths of the empty board (precomputed once by the
map), which is cheap and good enough: "how many spaces until railroad r can reach city c".
"""
from __future__ import annotations

import random
from typing import Any

from games.core.ai import RandomBot
from games.santa_fe.models import DOUBLE, Buy, Decline, Draw, Engineer, Exchange, Pass, Place, Play, SantaFeView

FAR = 10 ** 6


def rr_distance(board, view: SantaFeView, r: int, city: int) -> int:
    """Spaces railroad r still needs to reach `city` (0 if it does), over the empty board."""
    if view.connected[city] >> r & 1:
        return 0
    d = board.distances
    best = FAR
    for head_city, sid, built, end in view.lines[r]:
        if sid < 0:
            dist = d[head_city][city]
        else:
            far = board.ends[sid][1 - end]
            dist = board.sections[sid].spaces - built + d[far][city]
        best = min(best, dist)
    return best


class BuilderBot:
    name = "builder"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view: SantaFeView = game.partial_view(state, seat)
        board = game.board
        first = legal[0]
        if isinstance(first, Play):
            return self._play(board, view, seat, legal, rng)
        if isinstance(first, (Place, Pass, Decline)):
            return self._place(board, view, seat, legal, rng)
        if isinstance(first, Draw):
            return self._draw(board, view, seat, legal, rng)
        if isinstance(first, Exchange):
            return self._exchange(board, view, seat, legal)
        if isinstance(first, Buy):
            me = view.players[seat]
            buys = [a for a in legal if a.rr >= 0]
            if buys and me.money >= 8 and rng.random() < 0.3:
                return min(buys, key=lambda a: view.supply[a.rr])
            return Buy(rr=-1)
        if isinstance(first, Engineer):
            return Engineer(buy=rng.random() < 0.4) if Engineer(buy=True) in legal else Engineer(buy=False)
        return rng.choice(legal)

    # --- how good is a city card now
    def _prospect(self, board, view: SantaFeView, city: int) -> float:
        score = 0.0
        for r in range(len(board.railroads)):
            d = rr_distance(board, view, r, city)
            if d == 0:
                score += 1
            elif d <= view.supply[r]:
                score += 0.8 / (1 + d / 3)
        return board.values[city] * score

    def _play(self, board, view: SantaFeView, seat: int, legal: list[Play], rng) -> Play:
        cities = [a for a in legal if a.card >= 0]
        doubles = [a for a in legal if a.card == DOUBLE]
        if cities:
            best = max(cities, key=lambda a: (self._prospect(board, view, a.card), rng.random()))
            weak = self._prospect(board, view, best.card) < board.values[best.card] * 0.6
            if doubles and (weak or rng.random() < 0.2):
                return doubles[0]
            return best
        return doubles[0] if doubles else legal[0]

    # --- laying track
    def _targets(self, board, view: SantaFeView, seat: int) -> dict[int, float]:
        me = view.players[seat]
        weights: dict[int, float] = {}
        for c in me.played:
            weights[c] = weights.get(c, 0) + board.values[c]
        for c in me.hand or []:
            weights[c] = weights.get(c, 0) + board.values[c] * 0.4
        for i, p in enumerate(view.players):
            if i != seat:
                for c in p.played:
                    weights[c] = weights.get(c, 0) - board.values[c] * 0.3
        return weights

    def _place(self, board, view: SantaFeView, seat: int, legal: list[Any], rng) -> Any:
        places = [a for a in legal if isinstance(a, Place)]
        if not places:
            return next((a for a in legal if isinstance(a, Pass)), legal[0])
        me = view.players[seat]
        mult = 2 if me.revealed is not None and me.revealed.card == DOUBLE else 1
        targets = self._targets(board, view, seat)
        d = board.distances
        before_cache: dict[tuple[int, int], int] = {}
        best, best_score = places[0], -FAR
        for a in places:
            r, sid = a.rr, a.section
            spaces = board.sections[sid].spaces
            built = view.sec_built[sid]
            far = board.ends[sid][1 - a.end]
            remaining = spaces - built - 1
            score = 0.0
            if remaining == 0:
                if view.connected[far] == 0 and board.values[far]:
                    score += 2 * mult
                if board.special_city[r] == far and not view.connected[far] >> r & 1:
                    score += 4 * mult
            for city, w in targets.items():
                if view.connected[city] >> r & 1:
                    continue
                key = (r, city)
                if key not in before_cache:
                    before_cache[key] = rr_distance(board, view, r, city)
                before = before_cache[key]
                after = remaining + d[far][city]
                if after < before:
                    gain = (before - after) / (1 + after)
                    score += w * gain * (2 if after == 0 else 1)
            if view.options.advanced:
                score -= board.space_cost(sid, built, me.engineer, a.end) * 1.5
            if a.spur:
                score += 0.5
            score += rng.random() * 0.3
            if score > best_score:
                best, best_score = a, score
        if view.options.advanced and best_score < -1 and any(isinstance(a, Pass) for a in legal):
            return Pass()
        return best

    # --- drawing
    def _draw(self, board, view: SantaFeView, seat: int, legal: list[Draw], rng) -> Draw:
        me = view.players[seat]
        kinds = {a.what: a for a in legal if a.what != "spur"}
        spurs = [a for a in legal if a.what == "spur"]
        if spurs and me.money >= 3 and rng.random() < 0.25:
            # a spur for a railroad that is near my cities
            targets = self._targets(board, view, seat)
            if targets:
                def near(a: Draw) -> int:
                    return min((rr_distance(board, view, a.rr, c) for c, w in targets.items() if w > 0), default=FAR)
                return min(spurs, key=near)
        if "double" in kinds and me.doubles == 0 and rng.random() < 0.35:
            return kinds["double"]
        if "city" in kinds:
            return kinds["city"]
        return kinds.get("double") or legal[0]

    def _exchange(self, board, view: SantaFeView, seat: int, legal: list[Exchange]) -> Exchange:
        me = view.players[seat]
        hopeless = sorted(c for c in me.hand or [] if self._prospect(board, view, c) < board.values[c] * 0.25)
        want = tuple(hopeless)
        return Exchange(cards=want) if Exchange(cards=want) in legal else Exchange()


BOTS = {"builder": BuilderBot(), "random": RandomBot()}
