"""Ticket to Ride bots: a planner that pursues its tickets, and a random one for fuzzing.

The planner looks at its own view only. Each turn it finds the cheapest way to join the
cities of its open tickets (Dijkstra over the map: its own routes cost nothing, routes it can
still claim cost their length, routes closed to it are impassable), claims the longest route
of that plan it can pay for, otherwise draws the colours the plan needs. With every ticket
done it takes more tickets while it has trains to spare, or scores long routes.
"""
from __future__ import annotations

import heapq
import random
from collections import Counter
from typing import Any

from games.core.ai import RandomBot
from games.ticket_to_ride.models import Claim, DrawCard, DrawTickets, KeepTickets, TicketToRideView

INF = float("inf")


class PlannerBot:
    name = "planner"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        legal = game.legal_actions(state, seat)
        if len(legal) == 1:
            return legal[0]
        view: TicketToRideView = game.view(state, seat)
        board = game.board
        me = view.players[seat]
        if me.offered:
            return self._keep(board, view, seat, legal)
        plan = self._plan(board, view, seat, [t for t in (me.tickets or []) if not t.completed])
        claims = [a for a in legal if isinstance(a, Claim)]
        draws = [a for a in legal if isinstance(a, DrawCard)]
        if not view.drew_one and claims:
            wanted = [a for a in claims if a.route in plan]
            if wanted:
                return self._best_claim(board, wanted, me.hand or {}, plan)
            if not plan:
                if (any(isinstance(a, DrawTickets) for a in legal) and me.trains >= 18
                        and not view.final_round and len(me.tickets or []) < 8):
                    return DrawTickets()
                long = [a for a in claims if board.routes[a.route].length >= 3 or me.trains <= 6 or view.final_round]
                if long:
                    return self._best_claim(board, long, me.hand or {}, plan)
            if view.final_round or sum((me.hand or {}).values()) > 24:
                return self._best_claim(board, claims, me.hand or {}, plan)
        if draws:
            return self._draw(board, view, draws, plan, me.hand or {}, rng)
        return legal[0]

    # --- tickets ---------------------------------------------------------------------
    def _keep(self, board, view: TicketToRideView, seat: int, legal: list[Any]) -> KeepTickets:
        me = view.players[seat]
        scored = []
        for t in me.offered or []:
            cost = len(self._plan(board, view, seat, [t], weights=True))
            scored.append((cost - t.points * 0.6 if cost < INF else 99, t.id, cost))
        scored.sort()
        keep = [tid for _, tid, _ in scored[: me.keep_min]]
        for value, tid, cost in scored[me.keep_min:]:
            if value <= 0 and cost <= me.trains // 4:
                keep.append(tid)
        wanted = set(keep)
        for action in legal:
            if isinstance(action, KeepTickets) and set(action.ids) == wanted:
                return action
        return next(a for a in legal if isinstance(a, KeepTickets))

    # --- planning --------------------------------------------------------------------
    def _plan(self, board, view: TicketToRideView, seat: int, tickets, weights: bool = False) -> set[int] | list[int]:
        """Route ids on the cheapest paths joining each ticket's cities (none if impossible)."""
        graph = self._graph(board, view, seat)
        index = board.city_index
        routes: set[int] = set()
        weighted: list[int] = []
        for t in tickets:
            path = _dijkstra(graph, index[t.a], index[t.b], view.players[seat].trains)
            if path is None:
                if weights:
                    return [0] * 1000  # unreachable: a huge cost
                continue
            for rid, own in path:
                if not own:
                    routes.add(rid)
                    weighted.extend([rid] * board.routes[rid].length)
        return weighted if weights else routes

    def _graph(self, board, view: TicketToRideView, seat: int) -> dict[int, list[tuple[int, int, int, bool]]]:
        graph: dict[int, list[tuple[int, int, int, bool]]] = {}
        for r in board.routes:
            owner = view.owners[r.id]
            twin = board.twin.get(r.id)
            twin_owner = view.owners[twin] if twin is not None else -1
            if owner == seat:
                cost, own = 0, True
            elif owner != -1 or twin_owner == seat or (twin_owner != -1 and view.n < board.rules.doubles_min_players):
                continue
            else:
                cost, own = r.length, False
            a, b = board.route_ends[r.id]
            graph.setdefault(a, []).append((b, cost, r.id, own))
            graph.setdefault(b, []).append((a, cost, r.id, own))
        return graph

    # --- choosing among moves --------------------------------------------------------
    def _best_claim(self, board, claims: list[Claim], hand: dict[str, int], plan: set[int]) -> Claim:
        def score(a: Claim) -> tuple:
            length = board.routes[a.route].length
            return (a.route in plan, length, -a.locos, hand.get(a.color, 0))
        return max(claims, key=score)

    def _draw(self, board, view: TicketToRideView, draws: list[DrawCard], plan: set[int], hand: dict[str, int], rng) -> DrawCard:
        need: Counter[str] = Counter()
        for rid in plan:
            r = board.routes[rid]
            if r.color == "gray":
                best = max(board.deck.colors, key=lambda c: hand.get(c, 0))
                need[best] += r.length
            else:
                need[r.color] += r.length
        for color, _ in need.most_common():
            if hand.get(color, 0) >= need[color]:
                continue
            for d in draws:
                if d.source == color:
                    return d
        if not view.drew_one:
            for d in draws:
                if d.source == "locomotive" and need:
                    return d
        blind = [d for d in draws if d.source == "deck"]
        if blind:
            return blind[0]
        return rng.choice(draws)


def _dijkstra(graph, start: int, goal: int, budget: int) -> list[tuple[int, bool]] | None:
    dist = {start: 0}
    prev: dict[int, tuple[int, int, bool]] = {}
    heap = [(0, start)]
    while heap:
        d, node = heapq.heappop(heap)
        if node == goal:
            break
        if d > dist.get(node, INF) or d > budget:
            continue
        for other, cost, rid, own in graph.get(node, ()):
            nd = d + cost
            if nd < dist.get(other, INF):
                dist[other] = nd
                prev[other] = (node, rid, own)
                heapq.heappush(heap, (nd, other))
    if goal not in dist or dist[goal] > budget:
        return None
    path = []
    node = goal
    while node != start:
        node, rid, own = prev[node]
        path.append((rid, own))
    return path


BOTS = {"planner": PlannerBot(), "random": RandomBot()}
