"""Write each game's board palette (render/<game>/board_palette.json): the 256 colours its boards
are mapped onto from the first board on (render.kit.encode.BoardPalette).

Maintainers only; the bot itself never runs this. Run it again when a game's board art changes:

    python -m render.kit.make_board_palettes [game ...]

A palette built from a game's first board (a nearly empty map) lacks what later boards draw:
tinted rows, shadows and windows of pieces, the edges of track over terrain. Late boards then
learned those colours one at a time, or built the palette again, each a spike of 10-40 ms on the
move (the mapping, then the bands whose indices moved). So the palette is made here, from every
board of SAMPLE_SEEDS seeded games at each player count played by the game's strongest bot: the
flat colours the boards draw are found the way a board palette finds them, kept exactly, and the
other slots are chosen by octree over all those boards together. A board that still shows
something new is handled as before (learned or rebuilt), so a stale file costs speed, not looks.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from PIL import Image

from games import registry as games
from render import registry as renderers
from render.kit import encode

SAMPLE_SEEDS = (101,)  # games per player count
LEARN_ROUNDS = 5  # passes over the boards, each with the palette the last one made
MONTAGE_EVERY = 4  # every fourth board goes into the octree's sample
MONTAGE_SCALE = 4  # shrunk this many times each way


def sample_views(game_name: str) -> list[tuple[object, list[str]]]:
    """Every public view of the sample games, with the seats' names."""
    game = games.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    views = []
    for players in range(game.min_players, game.max_players + 1):
        names = [f"P{i}" for i in range(players)]
        for seed in SAMPLE_SEEDS:
            rng = random.Random(seed)
            state = game.setup(players, None, seed)
            while True:
                views.append((game.view(state, None), names))
                if game.result(state) is not None:
                    break
                seat = min(game.active_players(state))
                state = game.apply(state, seat, smart.choose(game, state, seat, rng)).state
    return views


def make_palette(game_name: str) -> encode.StartPalette:
    """The meaning colours, the flat colours the boards draw, then an octree's choice over all the
    boards together; passes over the boards repeated with the palette made so far until no board
    learns a colour (or LEARN_ROUNDS)."""
    renderer = renderers.get(game_name)
    meaning = meaning_of(game_name)
    views = sample_views(game_name)
    flat: list[encode.RGB] = []
    start: encode.StartPalette | None = None
    sample: list[Image.Image] = []
    for round_ in range(LEARN_ROUNDS):
        palette = encode.BoardPalette(start)
        palette.kept = list(flat)
        for i, (view, names) in enumerate(views):
            img = renderer.board_image(view, names, "en")
            palette.apply(img, meaning)
            if round_ == 0 and i % MONTAGE_EVERY == 0:
                sample.append(img.reduce(MONTAGE_SCALE))
        new = [c for c in palette.kept if c not in flat]
        print(f"{game_name}: pass {round_ + 1}, {len(views)} boards, {len(new)} flat colours learned", flush=True)
        if start is not None and not new:
            break
        flat += new
        flat = flat[:encode.KEEP_MAX]
        start = encode.StartPalette(tuple(encode.colours_of(encode._palette_for(_montage(sample, meaning),
                                                                                 meaning + flat))), tuple(flat))
    assert start is not None
    return start


def _montage(sample: list[Image.Image], meaning: list[encode.RGB]) -> Image.Image:
    w, h = max(b.width for b in sample), max(b.height for b in sample)
    montage = Image.new("RGB", (w, h * len(sample)), meaning[0] if meaning else (0, 0, 0))
    for i, img in enumerate(sample):
        montage.paste(img, (0, i * h))
    return montage


def meaning_of(game_name: str) -> list[encode.RGB]:
    """The colours every board palette keeps exact (as render.kit.encode.few_colours passes them)."""
    images = renderers.get(game_name)._images
    colours = images.palette
    return list(dict.fromkeys([*colours.players, *images.keep_colours, *colours.surfaces.values()]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games (all that draw palette PNGs if none)")
    args = parser.parse_args(argv)
    names = args.games or [n for n in renderers.names() if getattr(renderers.get(n)._images, "palette_png", False)]
    for name in names:
        colours = make_palette(name)
        module = renderers._RENDERERS[name].split(":")[0]
        path = Path(sys.modules[module].__file__ or "").with_name(encode.BOARD_PALETTE_FILE)
        path.write_text(json.dumps({"colours": [list(c) for c in colours.colours], "flat": [list(c) for c in colours.flat]},
                                   separators=(",", ":")) + "\n")
        print(f"{name}: {len(colours.flat)} flat colours -> {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
