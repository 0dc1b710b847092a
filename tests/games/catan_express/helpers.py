"""Building Catan Express positions for tests: setup played through the real engine, then, where
a test needs a situation that would take many turns to reach (a big hand, a card in hand, rails
already laid, the race under way), the few fields it needs edited on a clone — always keeping
bank + hands and the development deck whole, so `check_invariants` still holds. The move under
test then goes through `GAME.apply`.

The default table is the 3–4 player board's beginner layout (data/catan_express/maps/standard.json),
whose numbers the tests read as a map: intersection 13 touches B3 (forest 4), C2 (pasture 10) and
C3 (hills 12), and so on (the board image prints the same numbers).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

import pytest

from games.core.errors import IllegalAction
from games.core.rng import SeededRng
from games.catan_express.cards import KINDS
from games.catan_express.components import RESOURCES, DevCard
from games.catan_express.models import Building, CatanState
from games.catan_express.rules import GAME

RES = [r.value for r in RESOURCES]

# Each seat's first settlement, second settlement and the centre its free rail runs to, on the
# beginner board: no two of them neighbours, none on the gold river, and every second one on
# three producing hexes so its start cards are easy to read.
SPOTS4 = {
    0: (13, 35, "C4"),   # 35: B5 mountains, C4 fields, C5 hills
    1: (20, 32, "E5"),   # 32: E4 mountains, E5 pasture, F4 fields
    2: (17, 45, "D6"),   # 45: C6 mountains, C5 hills, D6 pasture
    3: (42, 10, "D3"),   # 10: D2 fields, D3 forest, E2 forest
}


def cards(**counts: int) -> list[int]:
    """Five counts in resource order from names: cards(lumber=1, ore=2)."""
    unknown = set(counts) - set(RES)
    assert not unknown, unknown
    return [counts.get(r, 0) for r in RES]


def dice_draw(seed: int, start: int, want: Callable[[int, int], bool]) -> int:
    """The first draw counter from `start` whose roll of the dice satisfies `want`: the dice
    are seeded by (seed, draws) alone, so a test picks its roll by where the counter stands."""
    for d in range(start, start + 20000):
        rng = SeededRng(seed, d, "ce.dice")
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if want(a, b):
            return d
    raise AssertionError("no such roll")


class Table:
    """One game, played by notation; every move is checked to leave its input untouched and
    the cards conserved."""

    def __init__(self, n: int = 4, seed: int = 1, **options: Any) -> None:
        options.setdefault("layout", "beginner")
        self.s: CatanState = GAME.setup(n, options, seed)
        self.events: list = []

    # --- facts
    @property
    def geo(self):
        return GAME.geo(self.s)

    def who(self) -> int:
        active = GAME.active_players(self.s)
        assert len(active) == 1, active
        return next(iter(active))

    def hand(self, seat: int) -> list[int]:
        return list(self.s.players[seat].hand)

    def p(self, seat: int):
        return self.s.players[seat]

    def legal(self, seat: int | None = None) -> list[str]:
        seat = self.who() if seat is None else seat
        return [GAME.format_action(a) for a in GAME.legal_actions(self.s, seat)]

    def line(self, *points: str | int) -> list[str]:
        """The pieces joining consecutive points ("35", "C4", "18" → ["35-C4", "18-C4"])."""
        out = []
        for a, b in zip(points, points[1:]):
            found = self.geo.between[frozenset((str(a), str(b)))]
            assert len(found) == 1, (a, b, found)
            out.append(found[0])
        return out

    # --- moves through the engine
    def play(self, text: str, seat: int | None = None):
        seat = self.who() if seat is None else seat
        before = self.s.model_dump_json()
        result = GAME.apply(self.s, seat, GAME.parse_action(text))
        assert self.s.model_dump_json() == before, "apply changed its input"
        self.s = result.state
        GAME.check_invariants(self.s)
        self.events += result.events
        return result

    def refusal(self, text: str, seat: int | None = None) -> IllegalAction:
        """The refusal of a move; the state must be left exactly as it was."""
        seat = self.who() if seat is None else seat
        before = self.s.model_dump_json()
        with pytest.raises(IllegalAction) as err:
            GAME.apply(self.s, seat, GAME.parse_action(text))
        assert self.s.model_dump_json() == before
        return err.value

    def refuse(self, text: str, seat: int | None = None) -> str:
        return self.refusal(text, seat).code

    def seat_all(self, spots: dict[int, tuple[int, int, str]] = SPOTS4, gold: str | None = None) -> None:
        """Play the whole setup: each seat's first settlement, then in reverse order its second
        and the free rail to the named centre (a gold river's card: `gold`, else the first offered)."""
        for _ in range(self.s.n):
            seat = self.who()
            self.play(f"build settlement {spots[seat][0]}")
        for _ in range(self.s.n):
            seat = self.who()
            first, second, centre = spots[seat]
            self.play(f"build settlement {second}")
            while self.s.phase == "gold":
                self.play(gold or self.legal()[0])
            self.play(f"build rail {second}-{centre}")
        assert self.s.phase == "roll" and self.s.current == 0

    def seat_any(self) -> None:
        """Play the setup with the first spot and rail offered each time (any map, any count)."""
        while self.s.phase in ("setup", "gold"):
            self.play(self.legal()[0])

    def roll(self, total: int | None = None, dice: tuple[int, int] | None = None) -> None:
        """Roll the dice to a chosen total (or exact dice) by moving the draw counter."""
        if dice is not None:
            want = lambda a, b: (a, b) == dice  # noqa: E731
        else:
            want = lambda a, b: a + b == total  # noqa: E731
        d = dice_draw(self.s.seed, self.s.draws, want)
        self.edit(lambda s: setattr(s, "draws", d))
        self.play("roll")

    def to_main(self, total: int = 8) -> None:
        """Roll a non-7 for the player to move and settle any gold river choices."""
        assert total != 7
        self.roll(total)
        while self.s.phase == "gold":
            self.play(self.legal()[0])
        assert self.s.phase == "main"

    def end(self) -> None:
        """End the turn and pass any special building phase (5–6 players)."""
        self.play("end")
        while self.s.phase == "special":
            self.play("end")

    # --- edits for setting up a situation (conservation kept)
    def edit(self, fn: Callable[[CatanState], Any]) -> None:
        s = self.s.clone()
        fn(s)
        for p in s.players:
            p.cards = sum(p.hand)
            p.dev_cards = sum(p.dev) + sum(p.dev_new)
        s.deck_left = len(s.deck)
        GAME.check_invariants(s)
        self.s = s

    def set_hand(self, seat: int, **counts: int) -> None:
        """Give `seat` exactly these cards, the difference going to or from the bank."""
        def fn(s: CatanState) -> None:
            new = cards(**counts)
            old = s.players[seat].hand
            s.bank = [b + o - n for b, o, n in zip(s.bank, old, new)]
            assert min(s.bank) >= 0, "the bank cannot cover that hand"
            s.players[seat].hand = new
        self.edit(fn)

    def set_bank(self, park: int, **counts: int) -> None:
        """Leave the bank holding `counts` of the named resources, the rest parked in seat
        `park`'s hand (or taken back from it)."""
        def fn(s: CatanState) -> None:
            for r, n in counts.items():
                i = RES.index(r)
                moved = s.bank[i] - n
                s.bank[i] = n
                s.players[park].hand[i] += moved
                assert s.players[park].hand[i] >= 0
        self.edit(fn)

    def deal_dev(self, seat: int, kind: str, count: int = 1, *, where: str = "dev") -> None:
        """Move development cards of `kind` from the deck to a seat: held ("dev"), bought this
        turn ("dev_new"), played ("played", knights counted) or revealed ("vp")."""
        def fn(s: CatanState) -> None:
            p = s.players[seat]
            i = KINDS.index(DevCard(kind))
            for _ in range(count):
                s.deck.remove(kind)
                if where == "vp":
                    p.vp_cards += 1
                elif where == "played":
                    p.played[i] += 1
                    if kind == "knight":
                        p.knights += 1
                else:
                    getattr(p, where)[i] += 1
        self.edit(fn)

    def deck_top(self, kind: str) -> None:
        """Put a card of `kind` on top of the deck (the deck is only reordered)."""
        def fn(s: CatanState) -> None:
            s.deck.remove(kind)
            s.deck.insert(0, kind)
        self.edit(fn)

    def lay(self, seat: int, pieces: Iterable[str]) -> None:
        def fn(s: CatanState) -> None:
            for piece in pieces:
                assert piece in self.geo.kind, piece
                s.pieces[piece] = s.pieces.get(piece, []) + [seat]
        self.edit(fn)

    def put(self, point: int, seat: int, kind: str = "settlement") -> None:
        self.edit(lambda s: s.buildings.__setitem__(point, Building(seat=seat, kind=kind)))


def find(events, key: str) -> list:
    return [e for e in events if e.key == key]
