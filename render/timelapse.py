"""A game's timelapse: its public board from the first move to the last, as one animated image.

`timelapse(record, names, lang)` replays a recorded game (games/replay.py: game, players,
options, seed and the moves in force, undone ones left out) through its rules and draws the
public board before the first move and after every turn, then encodes the frames with
render/kit/animate.py. A turn is a run of moves by one seat (two card draws, a placement and
its second tile), so a frame shows what a player saw change when the game came back to them.
A game of more turns than the animation shows (render.kit.animate.MAX_FRAMES) is shown at
evenly spread turns, and only those positions are drawn.

The bot attaches the result to a game's final post and `railyard demo` writes it beside the
other images; both run it off the event loop.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from games import registry as games
from games.core.i18n import translate
from games.replay import GameRecord
from render import registry as renderers
from render.kit.animate import BUDGET_BYTES, animate


@dataclass(frozen=True)
class Timelapse:
    data: bytes
    filename: str
    description: str  # alt text
    frames: int  # frames in the file (fewer than turns + 1 in a very long game, or when some were dropped for size)
    turns: int
    seconds: float


def turn_ends(moves: Sequence[tuple[int, str]]) -> list[int]:
    """The number of moves played at the end of each turn (a turn: moves in a row by one seat)."""
    ends = [i + 1 for i in range(len(moves)) if i + 1 == len(moves) or moves[i + 1][0] != moves[i][0]]
    return ends


def timelapse(record: GameRecord, names: Sequence[str], lang: str = "en", *,
              budget: int = BUDGET_BYTES) -> Timelapse:
    game = games.get(record.game)
    renderer = renderers.get(record.game)
    names = list(names)
    moves = [(seat, game.parse_action(notation)) for seat, notation in record.moves]
    ends = [0, *turn_ends(record.moves)]  # moves played before each frame

    # States are computed forwards as the encoder asks for frames in order; a frame asked out
    # of order (a retry with fewer frames starts again) replays from the start.
    position = {"played": 0, "state": game.setup(record.players, record.options, record.seed)}

    def state_after(played: int) -> Any:
        if played < position["played"]:
            position.update(played=0, state=game.setup(record.players, record.options, record.seed))
        state = position["state"]
        for seat, action in moves[position["played"]:played]:
            state = game.apply(state, seat, action).state
        position.update(played=played, state=state)
        return state

    def frame(index: int):
        return renderer.board_image(game.view(state_after(ends[index]), None), names, lang)

    animation = animate(len(ends), frame, budget=budget)
    final_view = game.view(state_after(ends[-1]), None)
    try:
        final = renderer.describe("board", final_view, names, lang)
    except Exception:  # noqa: BLE001 - the animation is worth posting without the board's words
        final = ""
    description = translate(lang, "timelapse.description", {"count": animation.frames, "final": final}, names)
    return Timelapse(data=animation.data, filename=f"timelapse.{animation.extension}",
                     description=description.strip(), frames=animation.frames,
                     turns=len(ends) - 1, seconds=animation.seconds)
