"""銀河鉄道 英楽園 (Galactic Railway): every rule of the rulebook and rulings GT-1 … GT-12.

Pure functions over `GingaState`: `apply` copies the state, changes the copy and returns it with
the events that describe what happened. Rule numbers refer to
shared/rules/rulings/ginga-tetsudo.md.

A turn (GT-6): place one tile from the hand (it scores at once), then place the other one too
or `stop`; then refill the hand to two from the face-up pile. A player who cannot place any
tile passes — there is nothing to decide, so the rules pass for them as soon as their turn
comes (an event says so) and go on; after as many passes in a row as there are players the
game is over (GT-8). When the other tile has no legal placement the turn ends by itself after
the first one.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.vocabulary import Vocabulary
from games.core.protocol import Event, Result
from games.core.referee import ANY_PHASE, Handlers, Referee
from games.core.rng import SeededRng
from games.ginga import decisions, notation, scoring
from games.ginga.board import CENTRE, SIZE, Board, Placed, board_of, cell_name, second_cell
from games.ginga.models import (
    Frame,
    GingaAction,
    GingaOptions,
    GingaState,
    GingaView,
    LastPlacement,
    Option,
    Place,
    PlayerView,
    Stop,
    TileOnBoard,
)
from games.ginga.tiles import DX, DY, Tile, tileset


@lru_cache(maxsize=4096)
def _placements(key: tuple[Placed, ...], tile: int) -> tuple[tuple[int, int, int], ...]:
    rules = tileset().rules
    return tuple(board_of(key).placements(tileset().tiles[tile], rules.frame))


class GalacticRailway(Referee[GingaState, Any, GingaView]):
    name = "ginga"
    min_players = 2
    max_players = 4
    options_model = GingaOptions
    state_model = GingaState
    action_model = GingaAction
    view_model = GingaView
    private_information = False  # GT-7: hands and the top of the pile are public

    @property
    def frame(self) -> int:
        return tileset().rules.frame

    # ------------------------------------------------------------------ setup (GT-7)
    def setup(self, n_players: int, options: dict[str, Any] | BaseModel | None, seed: int) -> GingaState:
        rules = tileset().rules
        if not rules.players_min <= n_players <= rules.players_max:
            raise IllegalAction("ginga.bad_player_count", count=n_players, min=rules.players_min, max=rules.players_max)
        try:
            opts = GingaOptions.model_validate(options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        except ValidationError as exc:
            raise IllegalAction("bad_options", detail=str(exc.errors()[0]["loc"])) from None
        if opts.start_player is not None and opts.start_player > n_players:
            raise IllegalAction("ginga.bad_start_player", number=opts.start_player, count=n_players)
        pile = list(range(len(tileset())))
        SeededRng(seed, 0, "gt-pile").shuffle(pile)
        start = opts.start_player - 1 if opts.start_player else SeededRng(seed, 1, "gt-start").randint(0, n_players - 1)
        hands: list[list[int]] = [[] for _ in range(n_players)]
        for i in range(n_players):  # two tiles each, in turn order from the start player
            seat = (start + i) % n_players
            hands[seat] = pile[: rules.hand_size]
            del pile[: rules.hand_size]
        return GingaState.model_construct(
            game="ginga", n=n_players, seed=seed, start=start, pile=pile, hands=hands, placed=[],
            current=start, step="place", passes_in_row=0, turn=0, latest=[], last=[],
        )

    # ------------------------------------------------------------------ whose move
    def active_players(self, state: GingaState) -> frozenset[int]:
        return frozenset() if state.step == "over" else frozenset((state.current,))

    # ------------------------------------------------------------------ legal moves (GT-4 … GT-6)
    def legal_actions(self, state: GingaState, seat: int) -> list[Any]:
        if state.step == "over" or seat != state.current:
            return []
        key = scoring.placed_key(state)
        actions: list[Any] = [Stop()] if state.step == "second" else []
        for tile in dict.fromkeys(state.hands[seat]):
            actions.extend(Place(tile=tile, x=x, y=y, orient=o) for x, y, o in _placements(key, tile))
        return actions

    def can_place(self, state: GingaState, seat: int) -> bool:
        board = board_of(scoring.placed_key(state))
        tiles = [tileset().tiles[t] for t in state.hands[seat]]
        return board.can_place(tiles, self.frame)

    # ------------------------------------------------------------------ judging and making a move
    def phase_of(self, state: GingaState) -> str:
        return state.step

    def is_active(self, state: GingaState, seat: int) -> bool:
        return seat == state.current

    def refusal(self, state: GingaState, seat: int, action: Any) -> IllegalAction | None:
        kind = getattr(action, "kind", None)
        if kind == "place":
            try:
                self._check_place(board_of(scoring.placed_key(state)), state.hands[seat], action)
            except IllegalAction as exc:
                return exc
            return None
        if kind == "stop":
            return None if state.step == "second" else IllegalAction("ginga.cannot_stop")
        return IllegalAction("unparsable", text=str(action)[:80])

    def after_move(self, before: GingaState, s: GingaState, seat: int, action: Any, events: list[Event]) -> None:
        s.last = [e for e in events if e.public]

    def _check_place(self, board: Board, hand: list[int], action: Place) -> Tile:
        tiles = tileset()
        if not 0 <= action.tile < len(tiles):
            raise IllegalAction("ginga.unknown_tile", tile=f"T{action.tile + 1}", count=len(tiles))
        if action.tile not in hand:
            raise IllegalAction("ginga.not_in_hand", tile=notation.tile_name(action.tile),
                                hand=[notation.tile_name(t) for t in hand])
        tile = tiles.tiles[action.tile]
        if not 0 <= action.orient <= 3:
            raise IllegalAction("unparsable", text=str(action.orient))
        (lx, ly), (rx, ry) = (action.x, action.y), second_cell(action.x, action.y, action.orient)
        if board.empty:  # GT-5: the first tile goes anywhere; the table is centred on it
            if (lx, ly) != CENTRE:
                raise IllegalAction("ginga.first_at_centre", cell=cell_name(*CENTRE))
            return tile
        for x, y in ((lx, ly), (rx, ry)):
            if not (0 <= x < SIZE and 0 <= y < SIZE):
                raise IllegalAction("ginga.outside_frame", cell=f"{x},{y}", size=self.frame)
            if board.occ >> (y * 16 + x) & 1:
                raise IllegalAction("ginga.cell_taken", cell=cell_name(x, y))
        width = max(board.max_x, lx, rx) - min(board.min_x, lx, rx) + 1
        height = max(board.max_y, ly, ry) - min(board.min_y, ly, ry) + 1
        if width > self.frame:
            raise IllegalAction("ginga.too_wide", columns=width, size=self.frame)
        if height > self.frame:
            raise IllegalAction("ginga.too_tall", rows=height, size=self.frame)
        touching = False
        for x, y in ((lx, ly), (rx, ry)):
            for d in range(4):
                nx, ny = x + DX[d], y + DY[d]
                if 0 <= nx < SIZE and 0 <= ny < SIZE and board.occ >> (ny * 16 + nx) & 1:
                    touching = True
        if not touching:
            raise IllegalAction("ginga.not_touching")
        successes, failures = board.check(tile, lx, ly, action.orient)
        if failures > 1:
            raise IllegalAction("ginga.two_failures", failures=failures)
        if successes == 0:
            raise IllegalAction("ginga.no_success")
        return tile

    def _place(self, s: GingaState, seat: int, action: Place, events: list[Event]) -> bool:
        key = scoring.placed_key(s)
        hand = s.hands[seat]
        score = scoring.evaluate(key, action.tile, action.x, action.y, action.orient)
        hand.remove(action.tile)
        s.placed.append((action.tile, action.x, action.y, action.orient, seat, score.stations, score.loop))
        s.passes_in_row = 0  # GT-8
        cells = [(action.x, action.y), second_cell(action.x, action.y, action.orient)]
        latest = LastPlacement(seat=seat, tile=notation.tile_name(action.tile), cells=cells,
                               station_points=score.stations, stations=scoring.cells_xy(score.station_cells),
                               loop_points=score.loop, loop=scoring.cells_xy(score.loop_cells))
        first = s.step == "place"
        s.latest = [latest] if first else [*s.latest, latest]
        events.append(Event(key="ginga.ev.placed", params={"seat": seat, "place": notation.place_words(action)}))
        if score.stations:
            events.append(Event(key="ginga.ev.stations", params={"seat": seat, "count": score.stations}))
        if score.loop:
            events.append(Event(key="ginga.ev.loop", params={"seat": seat, "length": score.loop}))
        if first and hand and self.can_place(s, seat):
            s.step = "second"  # GT-6: they may place the other tile too, or stop
            return True  # nothing hidden was revealed: the placement may be taken back
        return self._end_turn(s, events)

    def _stop(self, s: GingaState, seat: int, action: Stop, events: list[Event]) -> bool:
        events.append(Event(key="ginga.ev.stopped", params={"seat": seat}))
        return self._end_turn(s, events)

    # ------------------------------------------------------------------ end of turn, passes, the end (GT-6, GT-8)
    def _refill(self, s: GingaState, seat: int, events: list[Event]) -> bool:
        """Fill the hand to two from the top of the pile; True if a hidden tile came to light
        (any tile below the top, i.e. the new top or a second tile drawn)."""
        need = max(0, tileset().rules.hand_size - len(s.hands[seat]))
        drawn = s.pile[:need]
        if not drawn:
            return False
        del s.pile[:need]
        s.hands[seat].extend(drawn)
        events.append(Event(key="ginga.ev.refilled", params={
            "seat": seat, "tiles": [notation.tile_name(t) for t in drawn],
            "top": notation.tile_name(s.pile[0]) if s.pile else {"key": "ginga.pile_empty"},
        }))
        return len(drawn) >= 2 or bool(s.pile)

    def _end_turn(self, s: GingaState, events: list[Event]) -> bool:
        """Refill, pass the turn on, pass for everyone who cannot place, end the game when all
        passed in a row. Returns whether the move may be undone (nothing was revealed)."""
        seat = s.current
        revealed = self._refill(s, seat, events)
        s.turn += 1
        s.step = "place"
        player = seat
        while True:
            if s.passes_in_row >= s.n:
                s.step = "over"
                events.append(Event(key="ginga.ev.game_over_end", params={}))
                return not revealed
            player = (player + 1) % s.n
            s.current = player
            if self.can_place(s, player):
                return not revealed
            s.passes_in_row += 1  # GT-6: nothing can be placed: a pass, then the refill
            events.append(Event(key="ginga.ev.passed", params={"seat": player, "count": s.passes_in_row, "n": s.n}))
            revealed = self._refill(s, player, events) or revealed
            s.turn += 1

    # ------------------------------------------------------------------ views (GT-7: everything public but the pile)
    def view(self, state: GingaState, seat: int | None) -> GingaView:
        over = state.step == "over"
        key = scoring.placed_key(state)
        board = board_of(key)
        tiles = [TileOnBoard(tile=notation.tile_name(t), x=x, y=y, orient=o, seat=who, number=i + 1)
                 for i, (t, x, y, o, who, _, _) in enumerate(state.placed)]
        players = []
        for i in range(state.n):
            stations, loops = scoring.totals(state, i)
            mine = [row for row in state.placed if row[4] == i]
            players.append(PlayerView(
                seat=i, hand=[notation.tile_name(t) for t in state.hands[i]], stations=stations, loops=loops,
                total=stations + loops, placed=len(mine), best_loop=max((row[6] for row in mine), default=0),
            ))
        if board.empty:
            frame = Frame(reach=board.region_box(self.frame), size=self.frame)
        else:
            frame = Frame(min_x=board.min_x, max_x=board.max_x, min_y=board.min_y, max_y=board.max_y,
                          fixed_x=board.max_x - board.min_x + 1 >= self.frame,
                          fixed_y=board.max_y - board.min_y + 1 >= self.frame,
                          reach=board.region_box(self.frame), size=self.frame)
        active = sorted(self.active_players(state))
        legal: list[str] = []
        options: list[Option] = []
        if seat is not None and seat in active:
            for action in self.legal_actions(state, seat):
                legal.append(notation.format_action(action))
                if isinstance(action, Place):
                    score = scoring.evaluate(key, action.tile, action.x, action.y, action.orient)
                    options.append(Option(
                        notation=legal[-1], tile=notation.tile_name(action.tile),
                        cells=[(action.x, action.y), second_cell(action.x, action.y, action.orient)],
                        orient=action.orient, stations=score.stations, loop=score.loop,
                    ))
        return GingaView(
            viewer=seat, n=state.n, phase="over" if over else "play", step=state.step, current=state.current,
            start=state.start, active=active, turn=state.turn, tiles=tiles,
            pile_top=notation.tile_name(state.pile[0]) if state.pile else None, pile_size=len(state.pile),
            players=players, passes_in_row=state.passes_in_row, frame=frame, latest=list(state.latest),
            last=list(state.last), result=self.result(state) if over else None, legal=legal, options=options,
            score_history=scoring.score_history(state), bests=scoring.bests(state) if over else [],
        )

    # ------------------------------------------------------------------ the end (GT-12)
    def result(self, state: GingaState) -> Result | None:
        if state.step != "over":
            return None
        return scoring.final_result(state)

    # ------------------------------------------------------------------ notation
    def format_action(self, action: Any) -> str:
        return notation.format_action(action)

    def parse_action(self, text: str) -> Any:
        return notation.parse_action(text)

    def describe_action(self, state: GingaState, seat: int, action: Any) -> Event:
        if isinstance(action, Stop):
            rest = [notation.tile_name(t) for t in state.hands[seat]] if 0 <= seat < state.n else []
            return Event(key="ginga.act.stop", params={"tiles": rest})
        stations = loop = 0
        key = scoring.placed_key(state)
        try:  # the points only for a placement the rules allow (a label may be asked for any)
            if 0 <= seat < state.n:
                self._check_place(board_of(key), state.hands[seat], action)
                score = scoring.evaluate(key, action.tile, action.x, action.y, action.orient)
                stations, loop = score.stations, score.loop
        except IllegalAction:
            pass
        return Event(key="ginga.act.place", params={"place": notation.place_words(action),
                                                 "score": notation.score_words(stations, loop)})

    def vocabulary(self) -> Vocabulary:
        return notation.vocabulary(self)

    def decision(self, state: GingaState, seat: int) -> Decision:
        return decisions.decision(self, state, seat)

    # ------------------------------------------------------------------ helpers for sessions and bots
    def forced_action(self, state: GingaState, seat: int) -> Any:
        """A seat's only legal move is made for it (GT-7: hands and the top of the pile are
        public, so it reveals nothing)."""
        return self.sole_legal_action(state, seat)

    def prompt(self, state: GingaState, seat: int) -> Event | None:
        if seat not in self.active_players(state):
            return None
        hand = [notation.tile_name(t) for t in state.hands[seat]]
        if state.step == "second":
            return Event(key="ginga.prompt.second", params={"tiles": hand})
        return Event(key="ginga.prompt.place", params={"tiles": hand})

    def timeout_action(self, state: GingaState, seat: int) -> Any:
        """For a player whose deadline passed: stop after a first tile; otherwise the first
        legal placement (a placement is compulsory when one exists, GT-6)."""
        if state.step == "second":
            return Stop()
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("no_legal_action")
        return legal[0]

    def bots(self) -> dict[str, Any]:
        from games.ginga.bots import BOTS

        return BOTS


    def check_invariants(self, state: GingaState) -> None:
        """32 tiles, each exactly once (pile, hands, table); hands of at most two; no cell
        covered twice; everything inside one 8×8 box; scores are the placements' points."""
        count = len(tileset())
        everywhere = list(state.pile) + [t for h in state.hands for t in h] + [row[0] for row in state.placed]
        assert sorted(everywhere) == list(range(count)), f"tiles not conserved: {sorted(everywhere)}"
        assert all(len(h) <= tileset().rules.hand_size for h in state.hands), "a hand holds more than two tiles"
        cells: set[tuple[int, int]] = set()
        for t, x, y, o, seat, st, lp in state.placed:
            for cell in ((x, y), second_cell(x, y, o)):
                assert cell not in cells, f"cell {cell} covered twice"
                assert 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE, f"cell {cell} off the table"
                cells.add(cell)
            assert 0 <= seat < state.n and st >= 0 and lp >= 0 and lp % 2 == 0 and st != 1
        if cells:
            xs, ys = [c[0] for c in cells], [c[1] for c in cells]
            assert max(xs) - min(xs) < self.frame and max(ys) - min(ys) < self.frame, "tiles outside the 8×8 box"
        assert 0 <= state.passes_in_row <= state.n and 0 <= state.current < state.n
        if state.step != "over" and state.step == "place":
            assert state.hands[state.current] and self.can_place(state, state.current), \
                "the player to move cannot place (they should have passed)"


GalacticRailway.handlers = Handlers({
    (ANY_PHASE, "place"): GalacticRailway._place,  # GT-6: the first tile, and the other one too
    ("second", "stop"): GalacticRailway._stop,
})

GAME = GalacticRailway()
