"""Ticket to Ride scoring (TTR-9, TTR-10, TTR-12): routes, tickets, longest path, ranking."""
from __future__ import annotations

from games.core.graph import DisjointSet, longest_trail
from games.core.protocol import PlayerResult, Result, ScoreLine
from games.core.ranking import TieBreak, rank
from games.ticket_to_ride.map import TicketToRideMap
from games.ticket_to_ride.models import TicketToRideState

CATEGORIES = ["routes", "tickets_completed", "tickets_failed", "longest_path"]
# TTR-10: on equal points, the most completed tickets, then the holder of the longest-path
# bonus; still tied, they share the place.
TIE_BREAKS = (TieBreak("completed", "ticket_to_ride.tie.completed"), TieBreak("longest_bonus", "ticket_to_ride.tie.longest"))


def route_points(board: TicketToRideMap, owners: list[int], seat: int) -> int:
    points = board.rules.route_points
    return sum(points[board.routes[r].length] for r, o in enumerate(owners) if o == seat)


def _edges(board: TicketToRideMap, owners: list[int], seat: int) -> list[tuple[int, int, int]]:
    ends = board.route_ends
    return [(*ends[r], board.routes[r].length) for r, o in enumerate(owners) if o == seat]


def longest_path(board: TicketToRideMap, owners: list[int], seat: int) -> int:
    return longest_trail(_edges(board, owners, seat))


def longest_path_routes(board: TicketToRideMap, owners: list[int], seat: int) -> list[int]:
    """The routes of one of the seat's longest continuous paths (no route used twice), in
    order along the path: what the final images draw. Its length equals longest_path()."""
    ends = board.route_ends
    mine = [r for r, o in enumerate(owners) if o == seat]
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for r in mine:
        a, b = ends[r]
        adjacency.setdefault(a, []).append((r, b))
        adjacency.setdefault(b, []).append((r, a))
    best: tuple[int, list[int]] = (0, [])
    used: set[int] = set()
    trail: list[int] = []

    def walk(node: int, length: int) -> None:
        nonlocal best
        if length > best[0]:
            best = (length, list(trail))
        for r, other in adjacency[node]:
            if r not in used:
                used.add(r)
                trail.append(r)
                walk(other, length + board.routes[r].length)
                trail.pop()
                used.discard(r)

    for start in sorted(adjacency):
        walk(start, 0)
    return best[1]


def completed_tickets(board: TicketToRideMap, owners: list[int], seat: int, tickets: list[int]) -> set[int]:
    network = DisjointSet()
    for a, b, _ in _edges(board, owners, seat):
        network.union(a, b)
    index = board.city_index
    done = set()
    for tid in tickets:
        t = board.ticket_by_id[tid]
        if network.connected(index[t.a], index[t.b]):
            done.add(tid)
    return done


def final_result(board: TicketToRideMap, state: TicketToRideState) -> Result:
    from games.ticket_to_ride.notation import ticket_words  # words live with the notation

    longest = [longest_path(board, state.owners, i) for i in range(state.n)]
    best = max(longest) if longest else 0
    rows: list[PlayerResult] = []
    for seat, player in enumerate(state.players):
        lines = []
        claimed = [r for r, o in enumerate(state.owners) if o == seat]
        lines.append(ScoreLine(category="routes", points=route_points(board, state.owners, seat),
                               key="ticket_to_ride.line.routes", params={"count": len(claimed)}))
        done = completed_tickets(board, state.owners, seat, player.tickets)
        for tid in player.tickets:
            value = board.ticket_by_id[tid].points
            ok = tid in done
            lines.append(ScoreLine(
                category="tickets_completed" if ok else "tickets_failed",
                points=value if ok else -value,
                key="ticket_to_ride.line.ticket_ok" if ok else "ticket_to_ride.line.ticket_failed",
                params={"ticket": ticket_words(board, tid)},
            ))
        has_bonus = best > 0 and longest[seat] == best  # TTR-9: every tied player scores it
        lines.append(ScoreLine(category="longest_path", points=board.rules.longest_path_bonus if has_bonus else 0,
                               key="ticket_to_ride.line.longest", params={"length": longest[seat]}))
        rows.append(PlayerResult(
            seat=seat, rank=0, total=sum(line.points for line in lines), lines=lines,
            stats={"longest": longest[seat], "longest_bonus": has_bonus, "completed": len(done),
                   "failed": len(player.tickets) - len(done), "trains_left": player.trains},
        ))
    ties = rank(rows, TIE_BREAKS, "ticket_to_ride.tie.shared")
    return Result(players=rows, categories=list(CATEGORIES), label_prefix="ticket_to_ride", reason=state.end_reason or "end",
                  ties=ties)
