"""Ticket to Ride (USA): every rule of the rulebook and rulings TTR-1 … TTR-12.

Pure functions over `TicketToRideState`: `apply` copies the state, changes the copy and returns it
with the events that describe what happened. Rule numbers in comments refer to
shared/rules/rulings/ticket-to-ride.md.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.vocabulary import Vocabulary
from games.core.protocol import Event, Result
from games.core.referee import ANY_PHASE, Handlers, Referee
from games.core.rng import SeededRng
from games.ticket_to_ride import decisions, notation, scoring
from games.ticket_to_ride.map import TicketToRideMap, usa
from games.ticket_to_ride.models import (
    EMPTY,
    LOCO,
    UNCLAIMED,
    Claim,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    PlayerState,
    PlayerView,
    TicketView,
    TicketToRideAction,
    TicketToRideOptions,
    TicketToRideState,
    TicketToRideView,
)


class TicketToRide(Referee[TicketToRideState, Any, TicketToRideView]):
    name = "ticket_to_ride"
    min_players = 2
    max_players = 5
    options_model = TicketToRideOptions
    state_model = TicketToRideState
    action_model = TicketToRideAction
    view_model = TicketToRideView
    private_information = True  # TTR-11: train cards and tickets
    record_stats = ("longest",)  # a player's longest path, the figure players compare

    def __init__(self, board: TicketToRideMap | None = None) -> None:
        self._board = board
        self._claim_cache: dict[tuple[int, int, int], Claim] = {}

    @property
    def board(self) -> TicketToRideMap:
        if self._board is None:
            self._board = usa()
        return self._board

    @cached_property
    def _route_facts(self) -> tuple[tuple[int, int, int, int], ...]:
        """(route id, length, colour index or -1 for gray, twin id or -1) for every route."""
        board = self.board
        colors = board.card_colors
        return tuple(
            (r.id, r.length, -1 if r.color == "gray" else colors.index(r.color), board.twin.get(r.id, -1))
            for r in board.routes
        )

    # ------------------------------------------------------------------ setup (TTR-1)
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> TicketToRideState:
        board = self.board
        if not board.rules.players_min <= n_players <= board.rules.players_max:
            raise IllegalAction("ticket_to_ride.bad_player_count", count=n_players,
                                min=board.rules.players_min, max=board.rules.players_max)
        try:
            TicketToRideOptions.model_validate(options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        except ValidationError as exc:
            raise IllegalAction("bad_options", detail=str(exc.errors()[0]["loc"])) from None
        deck = [c for c in range(len(board.deck.colors)) for _ in range(board.deck.cards_per_color)]
        deck += [LOCO] * board.deck.locomotives
        state = TicketToRideState.model_construct(
            game="ticket_to_ride", n=n_players, seed=seed, draws=0, deck=deck, discard=[],
            face_up=[EMPTY] * board.rules.face_up, ticket_deck=[t.id for t in board.tickets],
            owners=[UNCLAIMED] * len(board.routes), players=[], phase="choose", current=0,
            drew_one=False, final_turns=None, triggered_by=None, passes_in_row=0, turn=0,
            end_reason=None, last=[], face_up_stuck=False, turn_log=[], turn_route=None, turn_cards=[], history=[],
        )
        _shuffle(state, state.deck)
        _shuffle(state, state.ticket_deck)
        for _ in range(n_players):
            hand = [0] * len(board.card_colors)
            for _ in range(board.rules.initial_cards):
                hand[state.deck.pop()] += 1
            offered = state.ticket_deck[: board.rules.initial_tickets]
            del state.ticket_deck[: board.rules.initial_tickets]
            state.players.append(PlayerState.model_construct(
                hand=hand, tickets=[], offered=offered, keep_min=board.rules.initial_keep_min,
                trains=board.rules.trains_per_player,
            ))
        _settle_face_up(state, [], board)
        return state

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: TicketToRideState) -> frozenset[int]:
        if state.phase == "choose":
            return frozenset(i for i, p in enumerate(state.players) if p.offered)
        if state.phase == "play":
            return frozenset((state.current,))
        return frozenset()

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self, state: TicketToRideState, seat: int) -> list[Any]:
        if seat not in self.active_players(state):
            return []
        player = state.players[seat]
        if player.offered:  # a ticket choice is pending: only keeps are legal
            return [KeepTickets(ids=ids) for ids in _keep_choices(player.offered, player.keep_min)]
        actions: list[Any] = []
        can_blind = bool(state.deck or state.discard)
        colors = self.board.card_colors
        seen: set[int] = set()
        for card in state.face_up:
            if card == EMPTY or card in seen or (state.drew_one and card == LOCO):
                continue
            seen.add(card)
            actions.append(DrawCard(source=colors[card]))
        if can_blind:
            actions.append(DrawCard(source="deck"))
        if state.drew_one:
            return actions
        if state.ticket_deck:
            actions.append(DrawTickets())
        actions.extend(self._claims(state, seat))
        return actions or [Pass()]  # TTR-7

    def _claims(self, state: TicketToRideState, seat: int) -> list[Claim]:
        """Every route the seat can claim now, with every way to pay for it.

        This runs on every move of every bot and fuzzed game, so it works on precomputed
        route facts and reuses the (immutable) claim actions it built before."""
        board = self.board
        player = state.players[seat]
        hand = player.hand
        locos = hand[LOCO]
        trains = player.trains
        owners = state.owners
        closes_twin = state.n < board.rules.doubles_min_players
        colors = board.card_colors
        cache = self._claim_cache
        out: list[Claim] = []
        for rid, length, color_index, twin in self._route_facts:
            if length > trains or owners[rid] != UNCLAIMED:
                continue
            if twin >= 0 and owners[twin] != UNCLAIMED and (closes_twin or owners[twin] == seat):
                continue
            pay_colors = range(LOCO) if color_index < 0 else (color_index,)
            for c in pay_colors:
                have = hand[c]
                if have == 0 or have + locos < length:
                    continue
                for k in range(max(0, length - have), min(locos, length - 1) + 1):
                    key = (rid, c, k)
                    claim = cache.get(key)
                    if claim is None:
                        claim = cache[key] = Claim(route=rid, color=colors[c], locos=k)
                    out.append(claim)
            if locos >= length:
                key = (rid, LOCO, length)
                claim = cache.get(key)
                if claim is None:
                    claim = cache[key] = Claim(route=rid, color="locomotive", locos=length)
                out.append(claim)
        return out

    # ------------------------------------------------------------------ judging a move
    def phase_of(self, state: TicketToRideState) -> str:
        return state.phase

    def refusal(self, state: TicketToRideState, seat: int, action: Any) -> IllegalAction | None:
        kind = getattr(action, "kind", None)
        player = state.players[seat]
        if player.offered and kind != "keep":
            return IllegalAction("ticket_to_ride.must_keep_tickets", keep_min=player.keep_min)
        if kind == "keep":
            return self._keep_refusal(state, seat, action)
        if kind == "draw":
            return self._draw_refusal(state, action)
        if state.drew_one:
            return IllegalAction("ticket_to_ride.must_draw_second")
        if kind == "tickets":
            return None if state.ticket_deck else IllegalAction("ticket_to_ride.no_tickets_left")  # TTR-6
        if kind == "claim":
            return self._claim_refusal(state, seat, action)
        if kind == "pass":
            # TTR-7: only when nothing else is possible
            return None if self.legal_actions(state, seat) == [Pass()] else IllegalAction("ticket_to_ride.cannot_pass")
        return IllegalAction("unparsable", text=str(action))

    @staticmethod
    def _keep_refusal(state: TicketToRideState, seat: int, action: KeepTickets) -> IllegalAction | None:
        player = state.players[seat]
        if not player.offered:
            return IllegalAction("ticket_to_ride.no_tickets_to_keep")
        ids = list(dict.fromkeys(action.ids))
        if len(ids) != len(action.ids) or any(i not in player.offered for i in ids):
            return IllegalAction("ticket_to_ride.ticket_not_offered", offered=list(player.offered))
        if len(ids) < player.keep_min:
            return IllegalAction("ticket_to_ride.keep_more", keep_min=player.keep_min)
        return None

    def _draw_refusal(self, state: TicketToRideState, action: DrawCard) -> IllegalAction | None:
        if action.source == "deck":
            return None if state.deck or state.discard else IllegalAction("ticket_to_ride.deck_empty")
        colors = self.board.card_colors
        if action.source not in colors:
            return IllegalAction("ticket_to_ride.unknown_color", color=action.source)
        card = colors.index(action.source)
        if card not in state.face_up:
            return IllegalAction("ticket_to_ride.not_face_up", color=_color(action.source))
        if card == LOCO and state.drew_one:
            return IllegalAction("ticket_to_ride.second_face_up_locomotive")  # TTR-3
        return None

    def _claim_refusal(self, state: TicketToRideState, seat: int, action: Claim) -> IllegalAction | None:
        board = self.board
        if not 0 <= action.route < len(board.routes):
            return IllegalAction("ticket_to_ride.unknown_route", route=str(action.route))
        route = board.routes[action.route]
        name = self._route_name(route.id)
        player = state.players[seat]
        if state.owners[route.id] != UNCLAIMED:
            return IllegalAction("ticket_to_ride.route_taken", route=name, owner_seat=state.owners[route.id])
        twin = board.twin.get(route.id)
        if twin is not None and state.owners[twin] == seat:
            return IllegalAction("ticket_to_ride.both_halves", route=name)  # TTR-5
        if twin is not None and state.owners[twin] != UNCLAIMED and state.n < board.rules.doubles_min_players:
            return IllegalAction("ticket_to_ride.double_closed", route=name, players=state.n)  # TTR-5
        if player.trains < route.length:
            return IllegalAction("ticket_to_ride.not_enough_trains", route=name, trains=player.trains, length=route.length)
        colors = board.card_colors
        if action.color not in colors:
            return IllegalAction("ticket_to_ride.unknown_color", color=action.color)
        color = colors.index(action.color)
        locos = action.locos
        if color == LOCO:
            if locos != route.length:
                return IllegalAction("ticket_to_ride.wrong_card_count", route=name, length=route.length)
        else:
            if route.color != "gray" and action.color != route.color:
                return IllegalAction("ticket_to_ride.wrong_color", route=name, route_color=_color(route.color),
                                     color=_color(action.color))
            if not 0 <= locos < route.length:
                return IllegalAction("ticket_to_ride.wrong_card_count", route=name, length=route.length)
        plain = route.length - locos
        if (color != LOCO and player.hand[color] < plain) or player.hand[LOCO] < locos:
            return IllegalAction("ticket_to_ride.not_enough_cards", route=name, length=route.length, color=_color(action.color))
        return None

    def after_move(self, before: TicketToRideState, s: TicketToRideState, seat: int, action: Any, events: list[Event]) -> None:
        if s.phase != "over":
            _settle_face_up(s, events, self.board)  # TTR-2b: after every action
        s.last = [e for e in events if e.public]
        # a second card, or the keep after a ticket draw, finishes the turn the first step began
        _record_turn(s, before.drew_one or (before.phase == "play" and action.kind == "keep"), action)

    # ------------------------------------------------------------------ making a move
    def _keep(self, s: TicketToRideState, seat: int, action: KeepTickets, events: list[Event]) -> bool:
        player = s.players[seat]
        ids = list(action.ids)
        returned = [t for t in player.offered if t not in ids]
        player.tickets.extend(ids)
        s.ticket_deck.extend(returned)  # TTR-6: returned tickets go under the deck
        player.offered = []
        player.keep_min = 0
        events.append(Event(key="ticket_to_ride.ev.kept", params={"seat": seat, "kept": len(ids), "returned": len(returned)}))
        events.append(Event(key="ticket_to_ride.ev.you_kept", params={"tickets": [self._ticket_name(t) for t in ids]}, to=(seat,)))
        if s.phase == "choose":
            if not any(p.offered for p in s.players):
                s.phase = "play"
                s.current = 0
                events.append(Event(key="ticket_to_ride.ev.play_begins", params={"seat": 0}))
        else:
            self._end_turn(s, events)
        return True

    def _draw(self, s: TicketToRideState, seat: int, action: DrawCard, events: list[Event]) -> bool:
        board = self.board
        colors = board.card_colors
        if action.source == "deck":
            if not s.deck:
                _reshuffle(s, events)
            card = s.deck.pop()
            s.players[seat].hand[card] += 1
            events.append(Event(key="ticket_to_ride.ev.drew_deck", params={"seat": seat}))
            events.append(Event(key="ticket_to_ride.ev.you_drew", params={"color": _color(colors[card])}, to=(seat,)))
            ends_turn = s.drew_one
        else:
            card = colors.index(action.source)
            slot = s.face_up.index(card)
            s.face_up[slot] = EMPTY
            s.players[seat].hand[card] += 1
            events.append(Event(key="ticket_to_ride.ev.drew_face_up", params={"seat": seat, "color": _color(colors[card])}))
            _settle_face_up(s, events, board)
            ends_turn = s.drew_one or card == LOCO  # a face-up locomotive is the whole turn
        if ends_turn:
            self._end_turn(s, events)
        else:
            s.drew_one = True
            if not self._second_draw_possible(s):  # TTR-3: nothing left to take
                events.append(Event(key="ticket_to_ride.ev.no_second_card", params={"seat": seat}))
                self._end_turn(s, events)
        return False  # a card was revealed: never undoable

    @staticmethod
    def _second_draw_possible(s: TicketToRideState) -> bool:
        return bool(s.deck or s.discard) or any(c not in (EMPTY, LOCO) for c in s.face_up)

    def _draw_tickets(self, s: TicketToRideState, seat: int, action: DrawTickets, events: list[Event]) -> bool:
        count = min(self.board.rules.draw_tickets, len(s.ticket_deck))
        player = s.players[seat]
        player.offered = s.ticket_deck[:count]
        del s.ticket_deck[:count]
        player.keep_min = self.board.rules.draw_keep_min
        events.append(Event(key="ticket_to_ride.ev.took_tickets", params={"seat": seat, "count": count}))
        events.append(Event(key="ticket_to_ride.ev.offered", params={"tickets": [self._ticket_name(t) for t in player.offered]}, to=(seat,)))
        return False  # hidden tickets were revealed to the player

    def _claim(self, s: TicketToRideState, seat: int, action: Claim, events: list[Event]) -> bool:
        board = self.board
        route = board.routes[action.route]
        name = self._route_name(route.id)
        player = s.players[seat]
        color = board.card_colors.index(action.color)
        locos = action.locos
        plain = route.length - locos
        if color != LOCO:
            player.hand[color] -= plain
            s.discard.extend([color] * plain)
        player.hand[LOCO] -= locos
        s.discard.extend([LOCO] * locos)
        player.trains -= route.length
        s.owners[route.id] = seat
        points = board.rules.route_points[route.length]
        events.append(Event(key="ticket_to_ride.ev.claimed", params={
            "seat": seat, "route": name, "length": route.length, "points": points,
            "payment": notation.payment_words(action, route.length),
        }))
        self._end_turn(s, events)
        return True  # paid cards are public and nothing random happened

    def _pass(self, s: TicketToRideState, seat: int, action: Pass, events: list[Event]) -> bool:
        events.append(Event(key="ticket_to_ride.ev.passed", params={"seat": seat}))
        s.passes_in_row += 1
        self._end_turn(s, events, passed=True)
        return True

    # ------------------------------------------------------------------ turn order and the end (TTR-8)
    def _end_turn(self, s: TicketToRideState, events: list[Event], passed: bool = False) -> None:
        seat = s.current
        s.drew_one = False
        s.turn += 1
        s.history.append(self._scores_after_turn(s, seat))
        if not passed:
            s.passes_in_row = 0
        if s.final_turns is not None:
            s.final_turns -= 1
        elif s.players[seat].trains <= self.board.rules.end_trains_at_most:
            s.final_turns = s.n  # everyone, the trigger player included, plays once more
            s.triggered_by = seat
            events.append(Event(key="ticket_to_ride.ev.final_round", params={"seat": seat, "trains": s.players[seat].trains}))
        if s.final_turns == 0:
            self._finish(s, events, "end")
        elif s.passes_in_row >= s.n:
            # Ruling gap: nobody can move any more (no cards, tickets or claimable routes).
            self._finish(s, events, "stalemate")
        else:
            s.current = (seat + 1) % s.n

    def _scores_after_turn(self, s: TicketToRideState, seat: int) -> list[int]:
        """Every seat's route points now. Only the seat whose turn it was can have scored, so
        the others are carried over from the last row (recounting all seats over all routes
        every turn cost a quarter of a random game's time); a game stored before scores were
        kept has no last row and is counted in full once."""
        if not s.history or len(s.history[-1]) != s.n:
            return [scoring.route_points(self.board, s.owners, i) for i in range(s.n)]
        row = list(s.history[-1])
        row[seat] = scoring.route_points(self.board, s.owners, seat)
        return row

    def _finish(self, s: TicketToRideState, events: list[Event], reason: str) -> None:
        s.phase = "over"
        s.end_reason = reason
        events.append(Event(key=f"ticket_to_ride.ev.game_over_{reason}", params={}))

    # ------------------------------------------------------------------ views (TTR-11)
    def view(self, state: TicketToRideState, seat: int | None) -> TicketToRideView:
        board = self.board
        colors = board.card_colors
        over = state.phase == "over"
        result = self.result(state) if over else None
        players = []
        for i, p in enumerate(state.players):
            pv = PlayerView(
                seat=i, trains=p.trains, card_count=sum(p.hand), ticket_count=len(p.tickets),
                route_points=scoring.route_points(board, state.owners, i),
                routes_claimed=sum(1 for o in state.owners if o == i),
                longest=scoring.longest_path(board, state.owners, i),
                choosing=len(p.offered),
            )
            if over:
                pv.longest_routes = scoring.longest_path_routes(board, state.owners, i)
            if i == seat or over:
                completed = scoring.completed_tickets(board, state.owners, i, p.tickets)
                pv.tickets = [self._ticket_view(t, t in completed) for t in p.tickets]
            if i == seat:
                pv.hand = {colors[c]: n for c, n in enumerate(p.hand)}
                pv.offered = [self._ticket_view(t, None) for t in p.offered]
                pv.keep_min = p.keep_min
            players.append(pv)
        active = sorted(self.active_players(state))
        legal = []
        if seat is not None and seat in active:
            legal = [notation.format_action(board, a) for a in self.legal_actions(state, seat)]
        return TicketToRideView(
            viewer=seat, n=state.n, phase=state.phase, current=state.current, active=active,
            drew_one=state.drew_one, final_round=state.final_turns is not None and not over,
            turns_left=state.final_turns, face_up=[colors[c] if c != EMPTY else None for c in state.face_up],
            deck_size=len(state.deck), discard_size=len(state.discard),
            ticket_deck_size=len(state.ticket_deck), owners=list(state.owners), players=players,
            last=list(state.last), turn=state.turn, result=result, legal=legal,
            turn_log=list(state.turn_log), turn_route=state.turn_route, turn_cards=list(state.turn_cards),
            history=self._history(state, result),
        )

    @staticmethod
    def _history(state: TicketToRideState, result: Result | None) -> list[list[int]]:
        """Scores after each turn; at the end the final totals (tickets, bonus) are the last point."""
        history = [list(row) for row in state.history]
        if result is not None:
            totals = {row.seat: row.total for row in result.players}
            history.append([totals.get(i, 0) for i in range(state.n)])
        return history

    def _ticket_view(self, ticket_id: int, completed: bool | None) -> TicketView:
        t = self.board.ticket_by_id[ticket_id]
        return TicketView(id=t.id, a=t.a, b=t.b, points=t.points, completed=completed)

    def _ticket_name(self, ticket_id: int) -> dict[str, Any]:
        return notation.ticket_words(self.board, ticket_id)

    def _route_name(self, route_id: int) -> dict[str, Any]:
        return notation.route_words(self.board, route_id)

    # ------------------------------------------------------------------ the end (TTR-9, TTR-10, TTR-12)
    def result(self, state: TicketToRideState) -> Result | None:
        if state.phase != "over":
            return None
        return scoring.final_result(self.board, state)

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        return notation.format_action(self.board, action)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(self.board, text)

    def public_notation(self, action: Any) -> str:
        if isinstance(action, KeepTickets):  # which tickets were kept is secret (TTR-11)
            return f"keep ({len(action.ids)})"
        return self.format_action(action)

    def describe_action(self, state: TicketToRideState, seat: int, action: Any) -> Event:
        return notation.describe(self.board, action)

    def vocabulary(self) -> Vocabulary:
        return notation.vocabulary(self)

    def decision(self, state: TicketToRideState, seat: int) -> Decision:
        return decisions.decision(self, state, seat)

    # ------------------------------------------------------------------ helpers for sessions and bots
    def prompt(self, state: TicketToRideState, seat: int) -> Event | None:
        if seat not in self.active_players(state):
            return None
        player = state.players[seat]
        if player.offered:
            return Event(key="ticket_to_ride.prompt.keep", params={"keep_min": player.keep_min, "count": len(player.offered)})
        if state.drew_one:
            return Event(key="ticket_to_ride.prompt.second_card")
        return Event(key="ticket_to_ride.prompt.turn")

    def timeout_action(self, state: TicketToRideState, seat: int) -> Any:
        """The mildest move for a player who let the deadline pass: keep the fewest tickets
        allowed (the first ones offered), or draw a blind card, or pass if nothing is left."""
        player = state.players[seat]
        if player.offered:
            return KeepTickets(ids=tuple(player.offered[: player.keep_min]))
        legal = self.legal_actions(state, seat)
        for action in legal:
            if isinstance(action, DrawCard) and action.source == "deck":
                return action
        for action in legal:
            if isinstance(action, DrawCard):
                return action
        return legal[0] if legal else Pass()

    def bots(self) -> dict[str, Any]:
        from games.ticket_to_ride.bots import BOTS

        return BOTS

    def check_invariants(self, state: TicketToRideState) -> None:
        """TTR conservation: 110 cards, 30 tickets, 45 trains per player at every step."""
        board = self.board
        cards = len(state.deck) + len(state.discard) + sum(1 for c in state.face_up if c != EMPTY)
        cards += sum(sum(p.hand) for p in state.players)
        assert cards == board.total_cards(), f"cards not conserved: {cards}"
        per_kind = [0] * len(board.card_colors)
        for pile in (state.deck, state.discard, [c for c in state.face_up if c != EMPTY]):
            for c in pile:
                per_kind[c] += 1
        for p in state.players:
            for c, k in enumerate(p.hand):
                assert k >= 0, "negative card count"
                per_kind[c] += k
        expected = [board.deck.cards_per_color] * len(board.deck.colors) + [board.deck.locomotives]
        assert per_kind == expected, f"card kinds not conserved: {per_kind}"
        tickets = list(state.ticket_deck)
        for p in state.players:
            tickets += p.tickets + p.offered
        assert sorted(tickets) == sorted(t.id for t in board.tickets), "tickets not conserved"
        for i, p in enumerate(state.players):
            used = sum(board.routes[r].length for r, o in enumerate(state.owners) if o == i)
            assert p.trains + used == board.rules.trains_per_player, f"trains not conserved for seat {i}"


def _record_turn(s: TicketToRideState, same_turn: bool, action: Any) -> None:
    """Keep the whole last turn for the board: a turn's later step adds to what its first
    step recorded, any other action starts a new one. Face-down cards are recorded only as
    "deck"."""
    if not same_turn:
        s.turn_log, s.turn_route, s.turn_cards = [], None, []
    s.turn_log = s.turn_log + s.last
    if isinstance(action, Claim):
        s.turn_route = action.route
    elif isinstance(action, DrawCard):
        s.turn_cards = s.turn_cards + [action.source]


# ---------------------------------------------------------------------- card handling
def _shuffle(state: TicketToRideState, items: list[int]) -> None:
    SeededRng(state.seed, state.draws, "ttr").shuffle(items)
    state.draws += 1


def _reshuffle(state: TicketToRideState, events: list[Event]) -> None:
    """TTR-3: an empty deck is replaced by the shuffled discard pile."""
    if state.deck or not state.discard:
        return
    state.deck, state.discard = state.discard, []
    _shuffle(state, state.deck)
    events.append(Event(key="ticket_to_ride.ev.reshuffled", params={"count": len(state.deck)}))


def _refill_slot(state: TicketToRideState, slot: int, events: list[Event]) -> None:
    if not state.deck:
        _reshuffle(state, events)
    state.face_up[slot] = state.deck.pop() if state.deck else EMPTY


def _settle_face_up(state: TicketToRideState, events: list[Event], board: TicketToRideMap) -> None:
    """TTR-2 and TTR-2b: fill every empty slot that cards exist for, then re-deal the row
    while it holds too many locomotives and a row with fewer can come out of the cards.

    Called after every action, so a row that could not be filled or fixed earlier is mended
    as soon as claims put cards back in the discard. Whether a legal row can be dealt is
    decided by counting (`_legal_row_possible`), so the loop ends: each deal is a fresh
    seeded shuffle of cards that do hold a legal row. However many deals and reshuffles it
    takes, the log gets one line."""
    for slot, card in enumerate(state.face_up):
        if card == EMPTY:
            _refill_slot(state, slot, events)
    threshold = board.rules.face_up_loco_reset
    if state.face_up.count(LOCO) < threshold:
        state.face_up_stuck = False
        return
    if not _legal_row_possible(state, board):
        if not state.face_up_stuck:  # said once, not after every action it stays
            state.face_up_stuck = True
            events.append(Event(key="ticket_to_ride.ev.face_up_stuck", params={"locos": state.face_up.count(LOCO)}))
        return
    deals = 0
    quiet: list[Event] = []  # reshuffles inside a reset are folded into its one line
    while state.face_up.count(LOCO) >= threshold:
        state.discard.extend(c for c in state.face_up if c != EMPTY)
        state.face_up = [EMPTY] * len(state.face_up)
        for slot in range(len(state.face_up)):
            _refill_slot(state, slot, quiet)
        deals += 1
    state.face_up_stuck = False
    key = "ticket_to_ride.ev.face_up_reset" if deals == 1 else "ticket_to_ride.ev.face_up_reset_many"
    events.append(Event(key=key, params={"times": deals, "reshuffled": len(quiet)}))


def _legal_row_possible(state: TicketToRideState, board: TicketToRideMap) -> bool:
    """TTR-2: can the deck, the discard and the row itself make a row with fewer locomotives
    than the reset threshold? A row takes min(row size, cards available) cards, and at most
    threshold − 1 of them may be locomotives."""
    row = [c for c in state.face_up if c != EMPTY]
    available = len(state.deck) + len(state.discard) + len(row)
    size = min(len(state.face_up), available)
    non_locos = (sum(1 for c in state.deck if c != LOCO) + sum(1 for c in state.discard if c != LOCO)
                 + sum(1 for c in row if c != LOCO))
    if not state.deck and not state.discard:
        return False  # the row is every card there is: no other row can be dealt
    return non_locos >= size - (board.rules.face_up_loco_reset - 1)


def _keep_choices(offered: list[int], keep_min: int) -> list[tuple[int, ...]]:
    """Every subset of the offered tickets with at least keep_min of them (at most 7)."""
    out: list[tuple[int, ...]] = []
    n = len(offered)
    for mask in range(1, 1 << n):
        ids = tuple(sorted(offered[i] for i in range(n) if mask >> i & 1))  # one spelling per choice
        if len(ids) >= keep_min:
            out.append(ids)
    out.sort(key=lambda ids: (-len(ids), ids))
    return out


def _color(name: str) -> dict[str, str]:
    return {"key": f"ticket_to_ride.color.{name}"}


TicketToRide.handlers = Handlers({
    (ANY_PHASE, "keep"): TicketToRide._keep,  # the first choice (TTR-1) and after a ticket draw
    ("play", "draw"): TicketToRide._draw,
    ("play", "tickets"): TicketToRide._draw_tickets,
    ("play", "claim"): TicketToRide._claim,
    ("play", "pass"): TicketToRide._pass,
})

GAME = TicketToRide()
