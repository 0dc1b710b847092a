"""Digests of whole seeded Steam games, to pin the rules' behaviour across speed work.

A game is played by the bots from a seed; after every move the digest takes in the seat and
the move's notation, the whole new state as JSON, the move's events, who may move next and
every legal move of each of them in order (and the result at the end); the state a move was
applied to must be left as it was. A checkpoint is taken
every CHECKPOINT moves so that a difference is found near where it starts.

`python -m tests.games.steam.golden` prints the digests of GAMES as the module
tests/games/steam/golden_digests.py holds them.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass

from games.steam.rules import GAME

CHECKPOINT = 25


@dataclass(frozen=True)
class GoldenGame:
    map: str
    standard: bool
    players: int
    seed: int
    lineup: tuple[str, ...]          # bot per seat, repeated over the seats
    first_order: str = "auction"

    @property
    def name(self) -> str:
        game = "standard" if self.standard else "basic"
        return (f"{self.map}-{game}-{self.players}p-seed{self.seed}-{'+'.join(self.lineup)}"
                + ("" if self.first_order == "auction" else f"-{self.first_order}"))


# Both maps, both games, 3 to 5 players; random bots (the fuzzer of the bench) everywhere, and
# builders (the bots that plan links and deliveries) in some.
GAMES = (
    GoldenGame("northeast", False, 3, 11, ("random",)),
    GoldenGame("northeast", False, 4, 12, ("random",)),
    GoldenGame("northeast", True, 5, 13, ("random",)),
    GoldenGame("rhine_ruhr", False, 5, 14, ("random",)),
    GoldenGame("rhine_ruhr", True, 3, 15, ("random",)),
    GoldenGame("rhine_ruhr", True, 4, 16, ("random",)),
    GoldenGame("northeast", False, 4, 17, ("builder", "random"), "random"),
    GoldenGame("rhine_ruhr", True, 5, 18, ("builder", "random", "builder")),
)


def _json(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _legal_text(state) -> str:
    active = sorted(GAME.active_players(state))
    return _json([[seat, [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]] for seat in active])


def digests(game: GoldenGame) -> dict:
    """Plays `game`; returns its move count, checkpoint digests and final digest."""
    options = {"map": game.map, "standard": game.standard, "first_order": game.first_order}
    rng = random.Random(game.seed)
    state = GAME.setup(game.players, options, game.seed)
    h = hashlib.sha256()
    h.update(state.model_dump_json().encode())
    h.update(_legal_text(state).encode())
    checkpoints: list[str] = []
    moves = 0
    while state.phase != "over":
        seat = GAME.current(state)
        action = GAME.bots()[game.lineup[seat % len(game.lineup)]].choose(GAME, state, seat, rng)
        before = state.model_dump_json()
        done = GAME.apply(state, seat, action)
        assert state.model_dump_json() == before, "apply changed the state it was given"
        state = done.state
        moves += 1
        h.update(_json([seat, GAME.format_action(action)]).encode())
        h.update(state.model_dump_json().encode())
        h.update(_json([e.model_dump() for e in done.events]).encode())
        h.update(_legal_text(state).encode())
        if moves % CHECKPOINT == 0:
            checkpoints.append(h.hexdigest()[:16])
        assert moves < 3000, "the game does not end"
    result = GAME.result(state)
    assert result is not None
    h.update(result.model_dump_json().encode())
    return {"moves": moves, "checkpoints": checkpoints, "final": h.hexdigest()}


def main() -> int:
    print("DIGESTS = {")
    for game in GAMES:
        print(f"    {game.name!r}: {digests(game)!r},")
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
