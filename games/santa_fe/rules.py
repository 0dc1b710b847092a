"""Santa Fe: the basic game, the advanced game (SF-11) and the optional buy-track rule (SF-12).

Pure functions over `SantaFeState`: `apply` copies the state, changes the copy and returns it with
the events describing what happened. Rule numbers refer to shared/rules/rulings/santa-fe.md.

A round: secret simultaneous card choice (phase "choose") → two track-laying turns ("track";
double-turn players may exchange cards before the second: "exchange") → drawing back to the
hand limit in seat order ("draw") → with SF-12, buying one tile each ("buy") → the first
player marker passes left. The advanced game starts with the engineer purchase ("engineer").
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.vocabulary import Vocabulary
from games.core.protocol import Event, Result
from games.core.referee import Handlers, Referee
from games.core.rng import SeededRng
from games.santa_fe import decisions, notation, scoring
from games.santa_fe.map import SantaFeMap, west
from games.santa_fe.models import (
    DOUBLE,
    NOTHING,
    Buy,
    Choice,
    Decline,
    Draw,
    Engineer,
    Exchange,
    Pass,
    Place,
    Play,
    PlayerState,
    PlayerView,
    SantaFeAction,
    SantaFeOptions,
    SantaFeState,
    SantaFeView,
)


class SantaFe(Referee[SantaFeState, Any, SantaFeView]):
    name = "santa_fe"
    min_players = 2
    max_players = 5
    options_model = SantaFeOptions
    state_model = SantaFeState
    action_model = SantaFeAction
    view_model = SantaFeView
    private_information = True  # SF-13: city cards in hand, and the secret choice until revealed

    def __init__(self, board: SantaFeMap | None = None) -> None:
        self._board = board

    @property
    def board(self) -> SantaFeMap:
        if self._board is None:
            self._board = west()
        return self._board

    # ------------------------------------------------------------------ setup (SF-1)
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> SantaFeState:
        board = self.board
        r = board.rules
        if not r.players_min <= n_players <= r.players_max:
            raise IllegalAction("santa_fe.bad_player_count", count=n_players, min=r.players_min, max=r.players_max)
        try:
            opts = SantaFeOptions.model_validate(options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        except ValidationError as exc:
            raise IllegalAction("santa_fe.bad_options", detail=str(exc.errors()[0]["loc"])) from None
        if opts.first_player is not None and not 0 <= opts.first_player < n_players:
            raise IllegalAction("santa_fe.bad_options", detail="first_player")
        n_rr = len(board.railroads)
        doubles = r.double_turns[n_players]
        money = r.money_advanced if opts.advanced else r.money
        state = SantaFeState.model_construct(
            game="santa_fe", n=n_players, seed=seed, draws=0, options=opts, deck=list(board.city_cards),
            removed=[], doubles_total=doubles, double_pile=doubles - n_players,
            spurs=[r.spurs_per_railroad] * n_rr, spurs_used=0, engineers=r.engineers if opts.advanced else 0,
            supply=[rr.tiles for rr in board.railroads], sec_rr=[-1] * len(board.sections),
            sec_built=[0] * len(board.sections), sec_from=[0] * len(board.sections),
            lines=[[(board.start_city[i], -1, 0, 0)] for i in range(n_rr)],
            connected=[0] * len(board.cities), players=[], phase="choose", round=1, first=0, track_turn=0,
            order_pos=0, left=0, placed_now=0, passes=0, end_reason=None, ended_by=None, last=[],
            turn_key=[], turn_events=[], turn_tiles=[], scores=[],
        )
        for i, city in enumerate(board.start_city):
            state.connected[city] |= 1 << i
        _shuffle(state, state.deck)
        for _ in range(n_players):
            hand = sorted(state.deck.pop() for _ in range(r.initial_city_cards))
            state.players.append(PlayerState(hand=hand, doubles=1, money=money))
        if opts.first_player is not None:
            state.first = opts.first_player
        else:
            state.first = SeededRng(seed, state.draws, "sf-first").randint(0, n_players - 1)
            state.draws += 1
        if opts.advanced:
            state.phase = "engineer"
        return state

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: SantaFeState) -> frozenset[int]:
        phase = state.phase
        if phase == "choose":
            return frozenset(i for i, p in enumerate(state.players) if p.choice is None)
        if phase == "exchange":
            return frozenset(i for i, p in enumerate(state.players) if p.double_turn and not p.exchanged)
        if phase in ("engineer", "track", "draw", "buy"):
            return frozenset((state.current,))
        return frozenset()

    # ------------------------------------------------------------------ legal moves
    def legal_actions(self, state: SantaFeState, seat: int) -> list[Any]:
        if seat not in self.active_players(state):
            return []
        phase = state.phase
        p = state.players[seat]
        if phase == "choose":
            return self._choices(state, seat)
        if phase == "engineer":
            out: list[Any] = [Engineer(buy=False)]
            if p.money >= self.board.rules.engineer_price and state.engineers > 0:
                out.insert(0, Engineer(buy=True))
            return out
        if phase == "exchange":
            return [Exchange(cards=cards) for cards in _sub_multisets(p.hand, len(state.deck))]
        if phase == "draw":
            return self._draws(state, seat)
        if phase == "buy":
            out = [Buy(rr=-1)]
            if p.money >= self.board.rules.track_price:
                out += [Buy(rr=i) for i, k in enumerate(state.supply) if k > 0]
            return out
        if phase == "track":
            supply, own, unaffordable = self._placements(state, seat)
            out = list(supply)
            out += own
            if own and not supply:
                out.append(Decline())
            if state.options.advanced:
                out.append(Pass())
            return out
        return []

    def _choices(self, state: SantaFeState, seat: int) -> list[Play]:
        """SF-2: a city card or the double turn, with the spur card if one is held (it must be
        played the round after it was drawn); in the first round a city card."""
        p = state.players[seat]
        spur = p.spur >= 0
        cards = sorted(set(p.hand))
        if p.doubles and state.round > 1:
            cards.append(DOUBLE)
        if not cards:
            return [Play(card=NOTHING)]
        return [Play(card=c, spur=spur) for c in cards]

    def _draws(self, state: SantaFeState, seat: int) -> list[Draw]:
        """SF-4: draw back to the hand limit, one card at a time."""
        p = state.players[seat]
        out: list[Draw] = []
        if state.deck:
            out.append(Draw(what="city"))
        if state.double_pile > 0:
            out.append(Draw(what="double"))
        if p.spur < 0 and p.money >= self._spur_price(state):
            out += [Draw(what="spur", rr=i) for i, k in enumerate(state.spurs) if k > 0]
        if state.options.advanced and not p.engineer and state.engineers > 0:
            out.append(Draw(what="engineer"))
        return out

    def _spur_price(self, state: SantaFeState) -> int:
        r = self.board.rules
        return r.spur_price_advanced if state.options.advanced else r.spur_price

    def _placements(self, state: SantaFeState, seat: int) -> tuple[list[Place], list[Place], bool]:
        """(placements from the supply, placements with the seat's own bought tiles, whether
        some placement exists that the seat cannot pay for). SF-6, SF-7, SF-11, SF-12."""
        board = self.board
        p = state.players[seat]
        advanced = state.options.advanced
        supply_out: list[Place] = []
        own_out: list[Place] = []
        unaffordable = False
        for r in range(len(board.railroads)):
            if state.supply[r] > 0:
                target = supply_out
            elif p.bought[r] > 0:
                target = own_out
            else:
                continue
            for place in self._rr_placements(state, seat, r):
                if advanced:
                    cost = board.space_cost(place.section, state.sec_built[place.section], p.engineer, place.end)
                    if cost > p.money:
                        unaffordable = True
                        continue
                target.append(place)
        return supply_out, own_out, unaffordable

    def _rr_placements(self, state: SantaFeState, seat: int, r: int) -> list[Place]:
        board = self.board
        twin = board.twin
        adjacency = board.adjacency
        sec_rr = state.sec_rr
        seen: set[tuple[int, int]] = set()
        out: list[Place] = []
        for city, sid, _built, end in state.lines[r]:
            if sid >= 0:
                if (sid, end) not in seen:
                    seen.add((sid, end))
                    out.append(Place(rr=r, section=sid, end=end))
                continue
            for s, e in adjacency[city]:
                if sec_rr[s] == -1 and (twin[s] < 0 or sec_rr[twin[s]] != r) and (s, e) not in seen:
                    seen.add((s, e))
                    out.append(Place(rr=r, section=s, end=e))
        p = state.players[seat]
        if p.spur_active == r and not p.spur_used and len(state.lines[r]) < board.rules.max_lines:
            bit = 1 << r
            for city, mask in enumerate(state.connected):
                if not mask & bit:
                    continue
                for s, e in adjacency[city]:
                    if sec_rr[s] == -1 and (twin[s] < 0 or sec_rr[twin[s]] != r):
                        out.append(Place(rr=r, section=s, end=e, spur=True))
        return out

    def can_place(self, state: SantaFeState, seat: int) -> bool:
        supply, own, unaffordable = self._placements(state, seat)
        return bool(supply or own or unaffordable)

    # ------------------------------------------------------------------ judging a move
    def phase_of(self, state: SantaFeState) -> str:
        return state.phase

    def refusal(self, state: SantaFeState, seat: int, action: Any) -> IllegalAction | None:
        phase = state.phase
        kind = getattr(action, "kind", None)
        if kind is None or self.handlers.find(phase, kind) is None:
            return IllegalAction("santa_fe.wrong_phase", phase={"key": f"santa_fe.phase.{phase}"})
        return _REFUSALS[kind](self, state, seat, action)

    def _play_refusal(self, state: SantaFeState, seat: int, action: Play) -> IllegalAction | None:
        if action in self._choices(state, seat):
            return None
        p = state.players[seat]
        if action.card >= 0 and action.card not in p.hand:
            return IllegalAction("santa_fe.card_not_in_hand", city=self._city(action.card))
        if action.card == DOUBLE and p.doubles and state.round == 1:
            return IllegalAction("santa_fe.first_round_city")
        if action.card == DOUBLE and not p.doubles:
            return IllegalAction("santa_fe.no_double_turn")
        if p.spur >= 0 and not action.spur:
            return IllegalAction("santa_fe.must_play_spur", rr=self._rr(p.spur))
        if action.spur and p.spur < 0:
            return IllegalAction("santa_fe.no_spur")
        return IllegalAction("santa_fe.cannot_play_that")

    def _engineer_refusal(self, state: SantaFeState, seat: int, action: Engineer) -> IllegalAction | None:
        if action.buy:
            price = self.board.rules.engineer_price
            if state.engineers <= 0:
                return IllegalAction("santa_fe.no_engineer_left")
            if state.players[seat].money < price:
                return IllegalAction("santa_fe.cannot_afford", price=price, money=state.players[seat].money)
        return None

    def _exchange_refusal(self, state: SantaFeState, seat: int, action: Exchange) -> IllegalAction | None:
        hand = list(state.players[seat].hand)
        for c in action.cards:
            if c not in hand:
                return IllegalAction("santa_fe.card_not_in_hand",
                                     city=self._city(c) if 0 <= c < len(self.board.cities) else str(c))
            hand.remove(c)
        if len(action.cards) > len(state.deck):
            return IllegalAction("santa_fe.deck_too_small", count=len(state.deck))
        return None

    def _draw_refusal(self, state: SantaFeState, seat: int, action: Draw) -> IllegalAction | None:
        if action in self._draws(state, seat):
            return None
        p = state.players[seat]
        if action.what == "city":
            return IllegalAction("santa_fe.deck_empty")
        if action.what == "double":
            return IllegalAction("santa_fe.no_double_left")
        if action.what == "spur":
            if p.spur >= 0:
                return IllegalAction("santa_fe.one_spur")
            if not 0 <= action.rr < len(state.spurs) or state.spurs[action.rr] <= 0:
                return IllegalAction("santa_fe.no_spur_left")
            return IllegalAction("santa_fe.cannot_afford", price=self._spur_price(state), money=p.money)
        return IllegalAction("santa_fe.no_engineer_left")

    def _buy_refusal(self, state: SantaFeState, seat: int, action: Buy) -> IllegalAction | None:
        if action.rr < 0:
            return None
        price = self.board.rules.track_price
        if action.rr >= len(state.supply) or state.supply[action.rr] <= 0:
            return IllegalAction("santa_fe.no_tiles",
                                 rr=self._rr(action.rr) if action.rr < len(state.supply) else str(action.rr))
        if state.players[seat].money < price:
            return IllegalAction("santa_fe.cannot_afford", price=price, money=state.players[seat].money)
        return None

    def _place_refusal(self, state: SantaFeState, seat: int, action: Place) -> IllegalAction | None:
        board = self.board
        if not 0 <= action.rr < len(board.railroads):
            return IllegalAction("santa_fe.unknown_railroad", rr=str(action.rr))
        if not 0 <= action.section < len(board.sections) or action.end not in (0, 1):
            return IllegalAction("santa_fe.unknown_section", section=str(action.section))
        p = state.players[seat]
        r, sid = action.rr, action.section
        # which tile: the supply first, then (SF-12) the player's own bought tiles
        if state.supply[r] <= 0 and p.bought[r] <= 0:
            return IllegalAction("santa_fe.no_tiles", rr=self._rr(r))
        if action not in self._rr_placements(state, seat, r):
            return self._placement_refusal(state, seat, action, self._rr(r),
                                           notation.section_words(board, sid, action.end))
        cost = board.space_cost(sid, state.sec_built[sid], p.engineer, action.end) if state.options.advanced else 0
        if cost > p.money:
            return IllegalAction("santa_fe.cannot_afford", price=cost, money=p.money)
        return None

    def _pass_refusal(self, state: SantaFeState, seat: int, action: Pass) -> IllegalAction | None:
        return None if state.options.advanced else IllegalAction("santa_fe.cannot_pass")  # SF-11

    def _decline_refusal(self, state: SantaFeState, seat: int, action: Decline) -> IllegalAction | None:
        supply, own, _ = self._placements(state, seat)  # SF-12: only own bought tiles could be placed
        return IllegalAction("santa_fe.cannot_decline") if supply or not own else None

    def after_move(self, before: SantaFeState, s: SantaFeState, seat: int, action: Any, events: list[Event]) -> None:
        s.last = [e for e in events if e.public]
        self._record_turn(s, seat, before.phase, before, action)

    def _record_turn(self, s: SantaFeState, seat: int, phase: str, before: SantaFeState, action: Any) -> None:
        """Extend the last turn, or start a new one when another seat or phase moves; keep the
        score of every seat after each turn."""
        key: list[int | str] = [seat, before.round, phase, before.track_turn]
        scores = [scoring.score(self.board, s, i) for i in range(s.n)]
        if key != s.turn_key:
            s.turn_key = key
            s.turn_events = []
            s.turn_tiles = []
            s.scores.append(scores)
        else:
            s.scores[-1] = scores
        s.turn_events.extend(s.last)
        if isinstance(action, Place):
            s.turn_tiles.append((action.section, before.sec_built[action.section]))

    # --- SF-11: engineers bought before the first round
    def _engineer(self, s: SantaFeState, seat: int, action: Engineer, events: list[Event]) -> bool:
        p = s.players[seat]
        price = self.board.rules.engineer_price
        if action.buy:
            p.money -= price
            p.engineer = True
            s.engineers -= 1
            events.append(Event(key="santa_fe.ev.bought_engineer", params={"seat": seat, "price": price}))
        else:
            events.append(Event(key="santa_fe.ev.no_engineer", params={"seat": seat}))
        p.decided_engineer = True
        s.order_pos += 1
        if s.order_pos >= s.n:
            self._begin_round(s, events, announce=True)
        return True

    # --- SF-2: the secret choice
    def _play(self, s: SantaFeState, seat: int, action: Play, events: list[Event]) -> bool:
        p = s.players[seat]
        p.choice = Choice(card=action.card, spur=action.spur)
        events.append(Event(key="santa_fe.ev.chose", params={"seat": seat}))
        events.append(Event(key="santa_fe.ev.you_chose", params={"choice": self._choice_words(p.choice, p.spur)}, to=(seat,)))
        if all(q.choice is not None for q in s.players):
            self._reveal(s, events)
            return False  # the reveal showed everyone's choice
        return True

    def _reveal(self, s: SantaFeState, events: list[Event]) -> None:
        words = []
        for i, p in enumerate(s.players):
            c = p.choice
            assert c is not None
            words.append({"key": "santa_fe.reveal.one", "params": {"seat": i, "choice": self._choice_words(c, p.spur)}})
            if c.card >= 0:
                p.hand.remove(c.card)
                p.played.append(c.card)
            elif c.card == DOUBLE:
                p.doubles -= 1
            if c.spur:
                p.spur_active, p.spur = p.spur, -1
                p.spur_used = False
            p.revealed, p.choice = c, None
        events.append(Event(key="santa_fe.ev.reveal", params={"choices": words}))
        self._begin_track_turn(s, 1, events)

    # --- SF-3, SF-6 … SF-9: the track-laying turns
    def _begin_track_turn(self, s: SantaFeState, turn: int, events: list[Event]) -> None:
        s.phase = "track"
        s.track_turn = turn
        s.order_pos = -1
        s.passes = 0
        events.append(Event(key="santa_fe.ev.track_turn", params={"turn": turn}))
        self._next_placer(s, events)

    def _next_placer(self, s: SantaFeState, events: list[Event]) -> None:
        """Hand the track-laying turn to the next seat; end the game when that seat cannot
        place (SF-10) or the turn is over."""
        s.order_pos += 1
        if s.order_pos >= s.n:
            if s.options.advanced and s.passes >= s.n:
                self._finish(s, events, "all_passed", None)  # SF-11
                return
            if s.track_turn == 1:
                s.track_turn = 2
                if any(p.double_turn and p.hand and s.deck for p in s.players):
                    s.phase = "exchange"
                    for p in s.players:
                        p.exchanged = not (p.double_turn and p.hand and s.deck)
                    return
                self._begin_track_turn(s, 2, events)
                return
            self._end_track_turns(s, events)
            return
        seat = s.current
        p = s.players[seat]
        s.left = 2 if p.double_turn else 1
        s.placed_now = 0
        self._check_can_place(s, seat, events)

    def _check_can_place(self, s: SantaFeState, seat: int, events: list[Event]) -> None:
        supply, own, unaffordable = self._placements(s, seat)
        if not (supply or own or unaffordable):
            self._finish(s, events, "blocked", seat)  # SF-10: whatever spurs others hold

    def _place(self, s: SantaFeState, seat: int, action: Place, events: list[Event]) -> bool:
        board = self.board
        p = s.players[seat]
        r, sid = action.rr, action.section
        rr_words = self._rr(r)
        sec_words = notation.section_words(board, sid, action.end)
        own = s.supply[r] <= 0  # the supply first, then (SF-12) the player's own bought tiles
        built = s.sec_built[sid]
        cost = board.space_cost(sid, built, p.engineer, action.end) if s.options.advanced else 0
        p.money -= cost
        if own:
            p.bought[r] -= 1
        else:
            s.supply[r] -= 1
        heads = s.lines[r]
        start_city = board.ends[sid][action.end]
        if action.spur:
            heads.append((start_city, -1, 0, action.end))
            line = len(heads) - 1
            p.spur_used = True
        elif s.sec_built[sid] > 0:
            line = next(i for i, h in enumerate(heads) if h[1] == sid)
        else:
            line = next(i for i, h in enumerate(heads) if h[1] == -1 and h[0] == start_city)
        s.sec_rr[sid] = r
        s.sec_from[sid] = action.end
        s.sec_built[sid] = built + 1
        space = built
        params: dict[str, Any] = {"seat": seat, "rr": rr_words, "section": sec_words,
                                  "space": space + 1, "spaces": board.sections[sid].spaces}
        key = "santa_fe.ev.placed_spur" if action.spur else "santa_fe.ev.placed"
        if cost:
            params["cost"] = cost
            key += "_paid"
        events.append(Event(key=key, params=params))
        if built + 1 == board.sections[sid].spaces:
            far = board.ends[sid][1 - action.end]
            heads[line] = (far, -1, 0, 0)
            self._connect(s, seat, r, far, events)
        else:
            heads[line] = (start_city, sid, built + 1, action.end)
        s.left -= 1
        s.placed_now += 1
        if not any(s.supply) and not any(any(q.bought) for q in s.players):
            self._finish(s, events, "all_placed", None)  # SF-10
            return False
        if s.left > 0:
            self._check_can_place(s, seat, events)
        else:
            self._next_placer(s, events)
        return False  # bonuses and ends make undo murky; placements are final like a tile on a table

    def _placement_refusal(self, s: SantaFeState, seat: int, action: Place, rr_words: Any, sec_words: Any) -> IllegalAction:
        """Why a placement is not at a head of the railroad's lines (or its spur's start)."""
        board = self.board
        sid, r = action.section, action.rr
        p = s.players[seat]
        if action.spur:
            if p.spur_active != r:
                return IllegalAction("santa_fe.no_spur_for", rr=rr_words)
            if p.spur_used:
                return IllegalAction("santa_fe.spur_used")
            if len(s.lines[r]) >= board.rules.max_lines:
                return IllegalAction("santa_fe.max_lines", rr=rr_words)
        if s.sec_rr[sid] >= 0:
            if s.sec_built[sid] >= board.sections[sid].spaces:
                return IllegalAction("santa_fe.section_full", section=sec_words)
            if s.sec_rr[sid] != r or s.sec_from[sid] != action.end:
                return IllegalAction("santa_fe.section_taken", section=sec_words, rr=self._rr(s.sec_rr[sid]))
        twin = board.twin[sid]
        if twin >= 0 and s.sec_rr[twin] == r:
            return IllegalAction("santa_fe.both_doubles", section=sec_words, rr=rr_words)
        if action.spur:
            return IllegalAction("santa_fe.spur_not_reached", section=sec_words, rr=rr_words)
        return IllegalAction("santa_fe.not_at_head", section=sec_words, rr=rr_words)

    def _connect(self, s: SantaFeState, seat: int, r: int, city: int, events: list[Event]) -> None:
        """SF-9: $2 to the first to connect a valued city, $4 when a railroad first reaches its
        special city; both doubled for a double-turn player."""
        board = self.board
        rules = board.rules
        p = s.players[seat]
        mult = 2 if p.double_turn else 1
        before = s.connected[city]
        bit = 1 << r
        s.connected[city] = before | bit
        if before & bit:
            return
        cw = self._city(city)
        events.append(Event(key="santa_fe.ev.connected", params={"rr": self._rr(r), "city": cw}))
        if board.values[city] and before == 0:
            amount = rules.city_bonus * mult
            p.money += amount
            events.append(Event(key="santa_fe.ev.bonus_city", params={"seat": seat, "amount": amount, "city": cw}))
        if board.special_city[r] == city:
            amount = rules.special_bonus * mult
            p.money += amount
            events.append(Event(key="santa_fe.ev.bonus_special", params={"seat": seat, "amount": amount, "city": cw,
                                                                    "rr": self._rr(r)}))

    def _pass(self, s: SantaFeState, seat: int, action: Pass, events: list[Event]) -> bool:
        """SF-11: pass instead of placing (the rest of this track-laying turn)."""
        if s.placed_now == 0:
            s.passes += 1
        events.append(Event(key="santa_fe.ev.passed", params={"seat": seat}))
        s.left = 0
        self._next_placer(s, events)
        return s.phase != "over"

    def _decline(self, s: SantaFeState, seat: int, action: Decline, events: list[Event]) -> None:
        """SF-12: only own bought tiles could be placed and the player will not: as unable."""
        events.append(Event(key="santa_fe.ev.declined", params={"seat": seat}))
        self._finish(s, events, "blocked", seat)

    # --- SF-3: exchange before the second track-laying turn
    def _exchange(self, s: SantaFeState, seat: int, action: Exchange, events: list[Event]) -> None:
        p = s.players[seat]
        hand = list(p.hand)
        for c in action.cards:
            hand.remove(c)
        drawn = [s.deck.pop() for _ in action.cards]
        s.removed.extend(action.cards)
        p.hand = sorted(hand + drawn)
        p.exchanged = True
        events.append(Event(key="santa_fe.ev.exchanged", params={"seat": seat, "count": len(action.cards)}))
        if drawn:
            events.append(Event(key="santa_fe.ev.you_exchanged", params={
                "gone": [self._city(c) for c in action.cards], "got": [self._city(c) for c in drawn]}, to=(seat,)))
        if all(q.exchanged for q in s.players):
            self._begin_track_turn(s, 2, events)

    def _end_track_turns(self, s: SantaFeState, events: list[Event]) -> None:
        """SF-5: double turns back to the pile, spurs out of the game; then the draws."""
        for p in s.players:
            if p.revealed is not None and p.revealed.card == DOUBLE:
                s.double_pile += 1
            if p.spur_active >= 0:
                s.spurs_used += 1
            p.spur_active, p.spur_used = -1, False
            p.exchanged = False
        s.phase = "draw"
        s.track_turn = 0
        s.order_pos = -1
        self._next_drawer(s, events)

    # --- SF-4: drawing back to the hand limit
    def _limit(self, p: PlayerState) -> int:
        r = self.board.rules
        # SF-11 / rulebook: the hand shrinks to 4 for an engineer taken instead of a card;
        # one bought for $4 before the game leaves the hand at 5.
        return r.hand_size_engineer if p.engineer_drawn else r.hand_size

    def _next_drawer(self, s: SantaFeState, events: list[Event]) -> None:
        while True:
            if s.order_pos >= 0:
                seat = s.current
                p = s.players[seat]
                if p.hand_size() < self._limit(p):
                    if self._draws(s, seat):
                        return
                    events.append(Event(key="santa_fe.ev.cannot_draw", params={"seat": seat}))
            s.order_pos += 1
            if s.order_pos >= s.n:
                if s.options.buy_track:
                    s.phase = "buy"
                    s.order_pos = 0
                else:
                    self._next_round(s, events)
                return

    def _draw(self, s: SantaFeState, seat: int, action: Draw, events: list[Event]) -> None:
        p = s.players[seat]
        if action.what == "city":
            card = s.deck.pop()
            p.hand = sorted(p.hand + [card])
            events.append(Event(key="santa_fe.ev.drew_city", params={"seat": seat}))
            events.append(Event(key="santa_fe.ev.you_drew", params={"city": self._city(card)}, to=(seat,)))
        elif action.what == "double":
            s.double_pile -= 1
            p.doubles += 1
            events.append(Event(key="santa_fe.ev.drew_double", params={"seat": seat}))
        elif action.what == "spur":
            price = self._spur_price(s)
            s.spurs[action.rr] -= 1
            p.spur = action.rr
            p.money -= price
            events.append(Event(key="santa_fe.ev.drew_spur", params={"seat": seat, "rr": self._rr(action.rr), "price": price}))
        else:
            s.engineers -= 1
            p.engineer = True
            p.engineer_drawn = True
            events.append(Event(key="santa_fe.ev.drew_engineer", params={"seat": seat}))
        if p.hand_size() >= self._limit(p) or not self._draws(s, seat):
            if p.hand_size() < self._limit(p):
                events.append(Event(key="santa_fe.ev.cannot_draw", params={"seat": seat}))
            self._next_drawer(s, events)

    # --- SF-12: buying a tile
    def _buy(self, s: SantaFeState, seat: int, action: Buy, events: list[Event]) -> bool:
        p = s.players[seat]
        price = self.board.rules.track_price
        if action.rr >= 0:
            p.money -= price
            s.supply[action.rr] -= 1
            p.bought[action.rr] += 1
            events.append(Event(key="santa_fe.ev.bought_tile", params={"seat": seat, "rr": self._rr(action.rr), "price": price}))
        else:
            events.append(Event(key="santa_fe.ev.no_buy", params={"seat": seat}))
        s.order_pos += 1
        if s.order_pos >= s.n:
            self._next_round(s, events)
        return True

    # --- rounds and the end
    def _next_round(self, s: SantaFeState, events: list[Event]) -> None:
        s.first = (s.first + 1) % s.n
        s.round += 1
        self._begin_round(s, events, announce=True)

    def _begin_round(self, s: SantaFeState, events: list[Event], announce: bool) -> None:
        s.phase = "choose"
        s.order_pos = 0
        s.track_turn = 0
        for p in s.players:
            p.choice = None
            p.revealed = None
        if announce:
            events.append(Event(key="santa_fe.ev.round", params={"round": s.round, "seat": s.first}))

    def _finish(self, s: SantaFeState, events: list[Event], reason: str, seat: int | None) -> None:
        s.phase = "over"
        s.end_reason = reason
        s.ended_by = seat
        s.left = 0
        params: dict[str, Any] = {} if seat is None else {"seat": seat}
        events.append(Event(key=f"santa_fe.ev.game_over_{reason}", params=params))

    # ------------------------------------------------------------------ views (SF-13)
    def view(self, state: SantaFeState, seat: int | None) -> SantaFeView:
        return self.partial_view(state, seat, with_legal=True)

    def partial_view(self, state: SantaFeState, seat: int | None, with_legal: bool = False) -> SantaFeView:
        """The view, optionally without the legal moves in notation (bots skip that work)."""
        board = self.board
        over = state.phase == "over"
        players = []
        for i, p in enumerate(state.players):
            pv = PlayerView(
                seat=i, money=p.money, played=list(p.played), hand_size=p.hand_size(), doubles=p.doubles,
                spur=p.spur, engineer=p.engineer, bought=list(p.bought), chosen=p.choice is not None,
                revealed=p.revealed, spur_active=p.spur_active, spur_used=p.spur_used,
                score=scoring.score(board, state, i),
            )
            if i == seat:
                pv.hand = list(p.hand)
                pv.choice = p.choice
            players.append(pv)
        active = sorted(self.active_players(state))
        legal: list[str] = []
        if with_legal and seat is not None and seat in active:
            legal = [notation.format_action(board, a) for a in self.legal_actions(state, seat)]
        sequential = state.phase in ("engineer", "track", "draw", "buy")
        return SantaFeView(
            viewer=seat, n=state.n, options=state.options, phase=state.phase, round=state.round, first=state.first,
            track_turn=state.track_turn, current=state.current if sequential else None, active=active,
            left=state.left if state.phase == "track" else 0, deck_size=len(state.deck),
            double_pile=state.double_pile, spurs=list(state.spurs), engineers=state.engineers,
            supply=list(state.supply), sec_rr=list(state.sec_rr), sec_built=list(state.sec_built),
            sec_from=list(state.sec_from), lines=[list(h) for h in state.lines], connected=list(state.connected),
            players=players, last=list(state.last), end_reason=state.end_reason,
            turn_seat=state.turn_key[0] if state.turn_key else None, turn_events=list(state.turn_events),
            turn_tiles=list(state.turn_tiles), scores=[list(row) for row in state.scores],
            result=self.result(state) if over else None, legal=legal,
        )

    def result(self, state: SantaFeState) -> Result | None:
        if state.phase != "over":
            return None
        return scoring.final_result(self.board, state)

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        return notation.format_action(self.board, action)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(self.board, text)

    def public_notation(self, action: Any) -> str:
        if isinstance(action, Play):  # the choice stays secret until the reveal (SF-2)
            return "play (secret)"
        if isinstance(action, Exchange):  # which cards went is private (SF-13)
            return f"exchange ({len(action.cards)})"
        return self.format_action(action)

    def describe_action(self, state: SantaFeState, seat: int, action: Any) -> Event:
        p = state.players[seat]
        held = p.spur if isinstance(action, Play) else -1
        return notation.describe(self.board, action, held, state)

    def vocabulary(self) -> Vocabulary:
        return notation.vocabulary(self)

    def decision(self, state: SantaFeState, seat: int) -> Decision:
        return decisions.decision(self, state, seat)

    # ------------------------------------------------------------------ helpers
    def prompt(self, state: SantaFeState, seat: int) -> Event | None:
        if seat not in self.active_players(state):
            return None
        phase = state.phase
        if phase == "track":
            legal = self.legal_actions(state, seat)
            if legal == [Pass()]:
                return Event(key="santa_fe.prompt.must_pass")
            return Event(key="santa_fe.prompt.track", params={"turn": state.track_turn, "left": state.left})
        if phase == "choose" and state.round == 1:
            return Event(key="santa_fe.prompt.choose_first")
        return Event(key=f"santa_fe.prompt.{phase}")

    def timeout_action(self, state: SantaFeState, seat: int) -> Any:
        """The mildest move: keep the cards (no exchange), buy nothing, no engineer, a blind
        city card; otherwise the first legal move (a card choice, a placement, or a pass)."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("no_legal_action")
        for mild in (Exchange(), Buy(rr=-1), Engineer(buy=False), Draw(what="city")):
            if mild in legal:
                return mild
        return legal[0]

    def bots(self) -> dict[str, Any]:
        from games.santa_fe.bots import BOTS

        return BOTS

    def check_invariants(self, state: SantaFeState) -> None:
        """Conservation: 66 city cards, double turn and spur cards, 128 tiles, money ≥ 0, and
        every built space belongs to a railroad."""
        board = self.board
        cards = list(state.deck) + list(state.removed)
        for p in state.players:
            cards += p.hand + p.played  # a chosen card stays in the hand until the reveal
        assert sorted(cards) == sorted(board.city_cards), "city cards not conserved"
        doubles = state.double_pile + sum(p.doubles for p in state.players)
        doubles += sum(1 for p in state.players if p.revealed is not None and p.revealed.card == DOUBLE
                       and state.phase in ("track", "exchange", "over"))
        assert doubles == state.doubles_total, f"double turn cards not conserved: {doubles}"
        spurs = sum(state.spurs) + state.spurs_used + sum(1 for p in state.players if p.spur >= 0)
        spurs += sum(1 for p in state.players if p.spur_active >= 0)
        assert spurs == board.rules.spurs_per_railroad * len(board.railroads), f"spurs not conserved: {spurs}"
        assert all(p.hand_size() <= board.rules.hand_size for p in state.players)
        for r, rr in enumerate(board.railroads):
            placed = sum(b for sid, b in enumerate(state.sec_built) if state.sec_rr[sid] == r)
            bought = sum(p.bought[r] for p in state.players)
            assert state.supply[r] >= 0 and bought >= 0
            assert state.supply[r] + bought + placed == rr.tiles, f"tiles of {rr.code} not conserved"
            assert 1 <= len(state.lines[r]) <= board.rules.max_lines
        for sid, b in enumerate(state.sec_built):
            assert 0 <= b <= board.sections[sid].spaces
            assert (b == 0) == (state.sec_rr[sid] == -1), "a section is owned exactly when built"
            t = board.twin[sid]
            assert t < 0 or state.sec_rr[sid] == -1 or state.sec_rr[t] != state.sec_rr[sid], "both halves of a double"
        assert all(p.money >= 0 for p in state.players), "negative money"
        engineers = state.engineers + sum(p.engineer for p in state.players)
        assert not state.options.advanced or engineers == board.rules.engineers

    # --- words
    def _city(self, city: int) -> dict[str, str]:
        return notation.city_words(self.board, city)

    def _rr(self, r: int) -> dict[str, str]:
        return notation.rr_words(self.board, r)

    def _choice_words(self, c: Choice, spur_rr: int) -> dict[str, Any]:
        return notation.choice_words(self.board, c.card, c.spur, spur_rr)


SantaFe.handlers = Handlers({
    ("choose", "play"): SantaFe._play,
    ("engineer", "engineer"): SantaFe._engineer,
    ("exchange", "exchange"): SantaFe._exchange,
    ("draw", "draw"): SantaFe._draw,
    ("buy", "buy"): SantaFe._buy,
    ("track", "place"): SantaFe._place,
    ("track", "pass"): SantaFe._pass,
    ("track", "decline"): SantaFe._decline,
})
_REFUSALS = {
    "play": SantaFe._play_refusal,
    "engineer": SantaFe._engineer_refusal,
    "exchange": SantaFe._exchange_refusal,
    "draw": SantaFe._draw_refusal,
    "buy": SantaFe._buy_refusal,
    "place": SantaFe._place_refusal,
    "pass": SantaFe._pass_refusal,
    "decline": SantaFe._decline_refusal,
}


def _shuffle(state: SantaFeState, items: list[int]) -> None:
    SeededRng(state.seed, state.draws, "sf").shuffle(items)
    state.draws += 1


def _sub_multisets(hand: list[int], limit: int) -> list[tuple[int, ...]]:
    """Every way to pick cards of `hand` (a multiset) to exchange, at most `limit` of them;
    the empty choice first."""
    out: list[tuple[int, ...]] = [()]
    counts: dict[int, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    for city, k in sorted(counts.items()):
        out = [prev + (city,) * j for prev in out for j in range(k + 1)]
    out = [o for o in out if len(o) <= limit]
    out.sort(key=lambda o: (len(o), o))
    return out


GAME = SantaFe()
