"""A tiny but complete game for testing the sessions service and the store.

2–4 players. Cards 1..deck_size are shuffled with the seed; each player is dealt a hidden
hand. First every player secretly picks a colour at the same time ("open red" / "open
blue"); the choices are revealed when the last one is in. Then, in seat order for a fixed
number of rounds, a player either plays a card from hand face up ("play 7", undoable),
draws the top card blind ("draw", reveals hidden information: not undoable) or passes.
Score: the sum of the cards played, plus 2 per played card whose parity matches the colour
(red: odd, blue: even).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Field

from games.core import ApplyResult, Event, Game, IllegalAction, PlayerResult, Result, ScoreLine
from games.core.rng import SeededRng


class ToyOptions(BaseModel):
    rounds: int = Field(3, ge=1, le=200)
    hand_size: int = Field(3, ge=1, le=10)
    deck_size: int = Field(40, ge=8, le=1000)


class Open(BaseModel):
    kind: Literal["open"] = "open"
    color: Literal["red", "blue"]


class Play(BaseModel):
    kind: Literal["play"] = "play"
    card: int


class Draw(BaseModel):
    kind: Literal["draw"] = "draw"


class Pass(BaseModel):
    kind: Literal["pass"] = "pass"


ToyAction = Annotated[Union[Open, Play, Draw, Pass], Field(discriminator="kind")]


class ToyState(BaseModel):
    n: int
    seed: int
    rounds: int
    deck_size: int
    phase: Literal["opening", "play", "over"] = "opening"
    deck: list[int]
    hands: list[list[int]]
    table: list[list[int]]
    openings: list[str | None]
    turn: int = 0
    round: int = 1


class ToyView(BaseModel):
    seat: int | None
    phase: str
    round: int
    rounds: int
    turn: int
    deck_count: int
    hand_counts: list[int]
    table: list[list[int]]
    chosen: list[bool]
    openings: list[str | None]  # revealed once everyone chose; your own always
    hand: list[int] | None = None


class FirstBot:
    def choose(self, game: "ToyGame", state: ToyState, seat: int, rng: Any) -> Any:
        return game.legal_actions(state, seat)[0]


class RandomBot:
    def choose(self, game: "ToyGame", state: ToyState, seat: int, rng: Any) -> Any:
        return rng.choice(game.legal_actions(state, seat))


_BOTS = {"random": RandomBot(), "first": FirstBot()}


class ToyGame(Game[ToyState, Any, ToyView]):
    name = "toy"
    min_players = 2
    max_players = 4
    options_model = ToyOptions
    state_model = ToyState
    action_model = ToyAction
    view_model = ToyView
    private_information = True  # hands, and the opening colour until all have chosen

    def setup(self, n_players: int, options: Any, seed: int) -> ToyState:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalAction("bad_player_count", n=n_players)
        opts = options if isinstance(options, ToyOptions) else ToyOptions.model_validate(
            options.model_dump() if isinstance(options, BaseModel) else (options or {}))
        if opts.deck_size < n_players * opts.hand_size:
            raise IllegalAction("deck_too_small")
        deck = list(range(1, opts.deck_size + 1))
        SeededRng(seed, 0, "deck").shuffle(deck)
        hands = [sorted(deck[i * opts.hand_size:(i + 1) * opts.hand_size]) for i in range(n_players)]
        deck = deck[n_players * opts.hand_size:]
        return ToyState(
            n=n_players, seed=seed, rounds=opts.rounds, deck_size=opts.deck_size, deck=deck,
            hands=hands, table=[[] for _ in range(n_players)], openings=[None] * n_players,
        )

    def active_players(self, state: ToyState) -> frozenset[int]:
        if state.phase == "opening":
            return frozenset(i for i, o in enumerate(state.openings) if o is None)
        if state.phase == "play":
            return frozenset({state.turn})
        return frozenset()

    def legal_actions(self, state: ToyState, seat: int) -> list[Any]:
        if seat not in self.active_players(state):
            return []
        if state.phase == "opening":
            return [Open(color="red"), Open(color="blue")]
        actions: list[Any] = [Pass()]
        if state.deck:
            actions.append(Draw())
        actions += [Play(card=c) for c in sorted(state.hands[seat])]
        return actions

    def apply(self, state: ToyState, seat: int, action: Any) -> ApplyResult:
        if state.phase == "over":
            raise IllegalAction("game_over")
        active = self.active_players(state)
        if seat not in active:
            raise IllegalAction("not_active", waiting=sorted(active))
        s = state.model_copy(deep=True)
        events: list[Event] = []
        if s.phase == "opening":
            if not isinstance(action, Open):
                raise IllegalAction("wrong_phase")
            s.openings[seat] = action.color
            events.append(Event(key="toy.opened", params={"seat": seat}))
            events.append(Event(key="toy.you_opened", params={"color": action.color}, to=(seat,)))
            if all(o is not None for o in s.openings):
                s.phase = "play"
                events.append(Event(key="toy.revealed", params={"colors": list(s.openings)}))
                return ApplyResult(state=s, events=events, undoable=False)
            return ApplyResult(state=s, events=events, undoable=True)
        undoable = True
        if isinstance(action, Play):
            if action.card not in s.hands[seat]:
                raise IllegalAction("card_not_in_hand", card=action.card)
            s.hands[seat].remove(action.card)
            s.table[seat].append(action.card)
            events.append(Event(key="toy.played", params={"seat": seat, "card": action.card}))
        elif isinstance(action, Draw):
            if not s.deck:
                raise IllegalAction("deck_empty")
            card = s.deck.pop(0)
            s.hands[seat].append(card)
            s.hands[seat].sort()
            events.append(Event(key="toy.drew", params={"seat": seat}))
            events.append(Event(key="toy.you_drew", params={"card": card}, to=(seat,)))
            undoable = False
        elif isinstance(action, Pass):
            events.append(Event(key="toy.passed", params={"seat": seat}))
        else:
            raise IllegalAction("wrong_phase")
        s.turn = (s.turn + 1) % s.n
        if s.turn == 0:
            s.round += 1
            if s.round > s.rounds:
                s.phase = "over"
                events.append(Event(key="toy.over"))
        return ApplyResult(state=s, events=events, undoable=undoable)

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        revealed = state.phase != "opening"
        openings = [o if revealed or i == seat else None for i, o in enumerate(state.openings)]
        return ToyView(
            seat=seat, phase=state.phase, round=state.round, rounds=state.rounds, turn=state.turn,
            deck_count=len(state.deck), hand_counts=[len(h) for h in state.hands],
            table=[list(t) for t in state.table], chosen=[o is not None for o in state.openings],
            openings=openings, hand=list(state.hands[seat]) if seat is not None else None,
        )

    def score(self, state: ToyState, seat: int) -> tuple[int, int]:
        cards = sum(state.table[seat])
        parity = 1 if state.openings[seat] == "red" else 0
        bonus = 2 * sum(1 for c in state.table[seat] if c % 2 == parity)
        return cards, bonus

    def result(self, state: ToyState) -> Result | None:
        if state.phase != "over":
            return None
        totals = {seat: self.score(state, seat) for seat in range(state.n)}
        order = sorted(range(state.n), key=lambda s: (-sum(totals[s]), s))
        players: list[PlayerResult] = []
        for seat in order:
            total = sum(totals[seat])
            rank = 1 + sum(1 for other in range(state.n) if sum(totals[other]) > total)
            players.append(PlayerResult(seat=seat, rank=rank, total=total, lines=[
                ScoreLine(category="cards", points=totals[seat][0]),
                ScoreLine(category="bonus", points=totals[seat][1]),
            ]))
        return Result(players=players, categories=["cards", "bonus"])

    def format_action(self, action: Any) -> str:
        if isinstance(action, Open):
            return f"open {action.color}"
        if isinstance(action, Play):
            return f"play {action.card}"
        if isinstance(action, Draw):
            return "draw"
        return "pass"

    def parse_action(self, text: str) -> Any:
        words = text.strip().lower().split()
        if words == ["draw"]:
            return Draw()
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "open" and words[1] in ("red", "blue"):
            return Open(color=words[1])  # type: ignore[arg-type]
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return Play(card=int(words[1]))
        raise IllegalAction("unparsable", text=text)

    def describe_action(self, state: ToyState, seat: int, action: Any) -> Event:
        return Event(key=f"toy.action.{action.kind}", params=action.model_dump(exclude={"kind"}))

    def prompt(self, state: ToyState, seat: int) -> Event | None:
        if seat not in self.active_players(state):
            return None
        return Event(key=f"toy.prompt.{state.phase}")

    def bots(self) -> dict[str, Any]:
        return dict(_BOTS)

    def check_invariants(self, state: ToyState) -> None:
        cards = sorted(state.deck + [c for h in state.hands for c in h] + [c for t in state.table for c in t])
        assert cards == list(range(1, state.deck_size + 1)), "cards are not conserved"


GAME = ToyGame()
