"""PNG encoding and a cache for static layers.

Encoding is a large share of a move's render time, so it is tuned for speed. Measured on
a mid-game Ticket to Ride board (Pillow 13, one core; ms per encode, file size):

    size        mode                     level 1          level 3          level 6
    1800x1000   RGB                      35 ms  326 KiB   37 ms  317 KiB   51 ms  293 KiB
    1600x1000   RGB                      38 ms  582 KiB   41 ms  570 KiB   51 ms  544 KiB
    1600x1000   P (quantize + encode)    19 ms  178 KiB   20 ms  170 KiB   26 ms  151 KiB

(quantize alone: 14 ms; RGBA costs ~40% more than RGB.) Levels 1-3 share zlib's fast
path; 4+ switch to the slower matcher. Since each game keeps one live board
(bot/sessions/live.py), a board picture is drawn only for a new message, about a third of
the moves, so bytes sent weigh as much as milliseconds. Re-measured on the redrawn
1400x1236 Ticket to Ride board (palette, encode only; quantize ~11-17 ms on top):

    level 4   10 ms  127 KiB      level 5   12 ms  123 KiB      level 6   17 ms  119 KiB

Level 5 is kept: level 6's last 3% of bytes cost 5 ms, which put a move that draws a board
over its 60 ms p95 budget (`railyard bench`), while level 1 (6 ms, 159 KiB) would send a
third more. optimize=True would retry every filter and is several times slower. Palette mode is the fastest and
smallest but lossy (256 colours, no dithering: indistinguishable on flat board art, may
band on gradients or photos), so it is opt-in with palette=True.

A palette per board (`drawn_on`, `BoardPalette`). Quantising every board afresh cost 6-12 ms
of a move's picture (an octree over 1-2 million pixels; quantize_keeping's sample for Steam
and Catan Express). A board now maps onto a palette kept with its static layer: built by
octree once, from the first board drawn on the layer, with the colours that carry meaning
(players, surfaces, the game's key colours) reserved and exact; a later board that shows a
flat colour the palette lacks puts it in place of the colour that board uses least (no
octree), and only a board that drifts from the palette altogether builds it again. Measured
over four whole 4-player games per game, a board every third move as the live board posts
them (Pillow 13, CPU ms per board, p50; "colours" is the octree or the mapping and check,
its mean counting the boards that amend or rebuild the palette; error: each pixel's largest
channel difference from the drawn board, mean over the pixels):

    game             draw   colours before -> after (mean)   render+encode   PNG KiB    error
    ticket_to_ride   10.5   11.6 -> 4.2 (5.5)                34.7 -> 27.6    120 / 121  1.84 -> 0.41
    ginga            11.4    6.0 -> 2.2 (3.0)                22.4 -> 18.5     40 / 40   2.09 -> 0.54
    santa_fe         10.9   11.4 -> 4.2 (5.3)                35.7 -> 28.9    141 / 141  1.11 -> 0.79
    steam            15.9    8.1 -> 5.1 (5.5)                37.4 -> 34.6    137 / 136  1.10 -> 0.16
    catan_express    13.0    7.9 -> 5.3 (6.9)                32.0 -> 29.9     87 / 87   1.17 -> 0.16

Over those boards each game built its palettes 1-6 times (the first board of each layer: a
Catan Express layout is one game's) and learned 7-63 flat colours; pixels off by more than
24 stay under 0.015% of a board before and after. Side by side at full size the boards look
the same; the error is lower because flat areas (panels, cards, tinted rows, terrain) now come
out exactly as drawn where the octree moved them by a level or two.

A board's PNG is written from compressed bands kept from the boards before it
(render/kit/bandpng.py): a move recompresses only the 32-row bands it changed, and the band
after each (its dictionary is the band before). Measured over the late half of a 4-player game
(thread CPU ms per board, p50 / p95, PNG KiB; Pillow's writer at the same level 5 before):

    game             whole image          kept bands
    ticket_to_ride   12.7 / 13.5  126     3.8 / 8.4   125
    steam            13.9 / 14.2  140     4.6 / 10.2  139
    santa_fe         13.4 / 13.9  143     6.8 / 15.6  143

Bands compressed with no dictionary came to 134 KiB on the Ticket to Ride board (4.0 ms), and
with it at level 6 to 122 KiB (6.1 ms): level 5 with a dictionary keeps today's size. The p95
is a board whose palette learned a colour (its indices move in many bands) or a move that
changes much of the board. Python's zlib is slower than the zlib-ng inside Pillow, so a board
with nothing kept (the first on its layer) costs about half as much again as Pillow's writer.

The dictionary was then cut from the band before's last 32 KiB to its last six rows
(bandpng.DICT_ROWS): loading a 32 KiB dictionary cost more than compressing against it gained,
and a band is compressed again only when the rows it reaches back to change, not when anything
in the band before does. Late half of three 4-player games per game, boards mapped first, then
written in move order (CPU ms per board p50 / p95, mean KiB):

    game             32 KiB dictionary          last 6 rows
    ticket_to_ride   3.6 / 9.0   125            2.2 / 6.1   127
    ginga            5.1 / 6.1    41            4.3 / 6.2    42
    santa_fe         6.2 / 9.6   143            4.2 / 7.0   145
    steam            4.3 / 9.1   139            2.7 / 6.2   140
    catan_express    4.0 / 7.3    89            2.3 / 4.7    90

Two rows were a little faster again (Santa Fe 3.8 / 6.6) but sent 2-4% more than the 32 KiB
dictionary, which took a Ticket to Ride game's live board past its budget (the pictures of the
whole game at most a quarter of a post per move, tests/discord/test_live_board_measured.py:
10.3 MB against 10.15); six rows send 10.1 MB there. Level 4 with a short dictionary saved
0.3-1 ms more at 3% more bytes again.
"""
from __future__ import annotations

import io
import json
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable, Hashable, NamedTuple, Sequence

from PIL import Image, ImageChops

from render.kit.bandpng import palette_png

COMPRESS_LEVEL = 5
RGB = tuple[int, int, int]


def quantize_keeping(img: Image.Image, keep: Sequence[tuple[int, int, int]], sample: int = 4) -> Image.Image:
    """A 256-colour image whose palette holds every colour of `keep` (the colours that carry
    meaning: players, goods, terrain, text), so none is merged into a neighbour, and fills the
    other slots with colours chosen by octree from a 1/sample² sample of the image
    (anti-aliased edges, blends); every pixel then takes its nearest palette colour (Pillow's
    lookup is within a few levels). Measured on the 1360x1588 Steam board: 7-9 ms against
    14 ms for an octree over the whole image; mean error per pixel 1.0 (octree 0.8), no pixel
    off by more than 30."""
    keep = list(dict.fromkeys(tuple(c) for c in keep))[:255]
    room = 256 - len(keep)
    sampled = img.reduce(sample) if sample > 1 else img
    chosen = sampled.quantize(room, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    colours = (chosen.getpalette() or [])[: room * 3]
    flat = [v for c in keep for v in c] + colours
    reference = Image.new("P", (1, 1))
    reference.putpalette(flat + [0] * (768 - len(flat)))
    return img.convert("RGB").quantize(palette=reference, dither=Image.Dither.NONE)


# --- a palette built once per board -----------------------------------------------------------------
class StartPalette(NamedTuple):
    """A game's board palette made beforehand (render.kit.make_board_palettes): `colours`, the
    256 of them; `flat`, those that are flat colours of its boards, kept exact."""

    colours: tuple[RGB, ...]
    flat: tuple[RGB, ...]


BOARD_PALETTE_FILE = "board_palette.json"


def board_palette(module: str) -> StartPalette | None:
    """The board palette kept beside a game's board module (`module`: its __file__), written by
    render.kit.make_board_palettes; None if there is no file."""
    path = Path(module).with_name(BOARD_PALETTE_FILE)
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return StartPalette(tuple(tuple(c) for c in data["colours"]), tuple(tuple(c) for c in data["flat"]))  # type: ignore[arg-type]



BOARD_PALETTE = "railyard.board_palette"  # Image.info of a board: the BoardPalette of its static layer
_LAYER_PALETTE = "railyard.layer_palette"  # Image.info of a static layer: its BoardPalette
SAME_CELL = 3  # Pillow maps colours through a cache of 4-level cells: colours this close share one
CHECK_SAMPLE = 4  # the check after each mapping looks at every 4th pixel of every 4th row
# a flat area off: one exact colour further than FLAT_ERROR (largest channel difference) from
# its palette colour at FLAT_COUNT sampled pixels (about 130 on the board)
FLAT_ERROR, FLAT_COUNT = 8, 8
# drift: DRIFT more sampled pixels off by over DRIFT_ERROR than on the board the palette was
# built from (about 1,000 more on the board: edges and blends of pieces the palette lacks)
DRIFT_ERROR, DRIFT = 16, 64
KEEP_MAX = 200  # flat colours a palette keeps at most (a game's boards draw 30-180)
BUILD_SAMPLE = 2  # the octree looks at the board shrunk this many times (the check catches what it misses)


def drawn_on(img: Image.Image, layer: Image.Image, start: StartPalette | None = None) -> Image.Image:
    """Mark `img`, a board, as drawn on the static `layer`: its 256-colour PNG then maps onto
    the palette kept for that layer (BoardPalette) instead of quantising the board afresh.
    The palette is kept in the layer's own `info`, so it lives and goes with the cached layer.
    `start`: the game's board palette (board_palette), the layer's palette from its first board.
    Returns img."""
    palette = layer.info.get(_LAYER_PALETTE)
    if palette is None:
        palette = layer.info.setdefault(_LAYER_PALETTE, BoardPalette(start))
    img.info[BOARD_PALETTE] = palette
    return img


class BoardPalette:
    """The 256 colours the boards drawn on one static layer are mapped onto.

    Built from the first board drawn on the layer (the static layer and that move's pieces and
    panel): first the colours that carry meaning, exactly (the game's key colours, its
    players' colours and the surfaces they stand on: `meaning`, from the renderer), then an
    octree's choice over the board for the other slots. Later boards are mapped onto it
    (Pillow's nearest-colour lookup, 1-5 ms) with no octree.

    A later board can hold what the first did not (a railroad's first track, the tinted row of
    the seat to move, a face-up card): after each mapping, every CHECK_SAMPLE-th pixel of
    every CHECK_SAMPLE-th row is compared with the board (about 1 ms). A flat colour found
    off (one exact colour off by over FLAT_ERROR at FLAT_COUNT samples or more) is put in the
    slot of the colour this board uses least, and kept from then on beside the meaning
    colours, so a look that comes and goes (each seat's tinted row in turn) is learned once.
    Only when a board still has DRIFT more samples off by over DRIFT_ERROR than the board the
    palette was built from (new edges and blends everywhere) is the palette built again from
    it. Either way the board that shows something new is itself encoded right."""

    def __init__(self, start: StartPalette | None = None) -> None:
        self.start = start  # taken as the palette at the first board instead of an octree's (_start)
        self.reference: Image.Image | None = None
        self.kept: list[RGB] = []  # flat colours found off since the first build
        self.off = 0  # sampled pixels off on the board the palette was built from
        self.builds = 0  # octrees: the first board and boards that drifted
        self.learned = 0  # boards whose missing flat colours were put in without an octree
        self._lock = threading.Lock()

    def colours(self) -> list[RGB]:
        """The palette as it stands (empty before the first board)."""
        return colours_of(self.reference) if self.reference is not None else []

    def apply(self, img: Image.Image, meaning: Sequence[RGB] = ()) -> Image.Image:
        """img (RGB) as a "P" image on this board's palette."""
        ref = self.reference
        fixed = list(dict.fromkeys(tuple(c) for c in meaning))
        found: list[RGB] = []
        drift = True
        if ref is None and self.start is not None:
            with self._lock:
                if self.reference is None:
                    return self._start(img, fixed, self.start)
            ref = self.reference
        if ref is not None:
            mapped = img.quantize(palette=ref, dither=Image.Dither.NONE)
            seen, worst, errors = _check(img, mapped)
            drift = sum(errors[DRIFT_ERROR + 1:]) > self.off + DRIFT
            found = self._missing(seen, worst, errors, fixed)
            if not found and not drift:
                return mapped
        with self._lock:  # several threads may draw boards of one layer (workers=0)
            if self.reference is not ref:  # another thread changed it meanwhile
                return img.quantize(palette=self.reference, dither=Image.Dither.NONE)
            if found:  # flat colours missing: they take the slots of the colours this board uses least
                mapped = self._put_in(img, mapped, fixed, found)
                self.learned += 1
                if not drift or sum(_check(img, mapped)[2][DRIFT_ERROR + 1:]) <= self.off + DRIFT:
                    return mapped
            mapped, errors = self._build(img, fixed)
            self.off = sum(errors[DRIFT_ERROR + 1:])
            self.builds += 1
            return mapped

    def _start(self, img: Image.Image, fixed: list[RGB], start: StartPalette) -> Image.Image:
        """Take `start` as the palette, with no octree (the meaning colours and its flat colours
        exact, as if learned); img mapped onto it, its check the drift is measured from, and any
        flat colour it still lacks put in."""
        self.kept = [c for c in dict.fromkeys(start.flat) if c not in fixed][:KEEP_MAX]
        colours = list(dict.fromkeys([*fixed, *self.kept, *start.colours]))[:256]
        self.reference = _keeping(colours, fixed + self.kept)
        mapped, errors = self._mapped_keeping_flat(img, fixed)
        self.off = sum(errors[DRIFT_ERROR + 1:])
        return mapped

    def _build(self, img: Image.Image, fixed: list[RGB]) -> tuple[Image.Image, list[int]]:
        """Build the palette from img; (img mapped onto it, the check's histogram). A flat
        colour of img the octree merged into a neighbour is kept and put in at once, so the
        next board does not find it off."""
        self.reference = _palette_for(img, fixed + self.kept)
        return self._mapped_keeping_flat(img, fixed)

    def _mapped_keeping_flat(self, img: Image.Image, fixed: list[RGB]) -> tuple[Image.Image, list[int]]:
        """img mapped onto the palette just made, with any flat colour it lacks put in at once;
        (the mapped image, the check's histogram of it)."""
        mapped = img.quantize(palette=self.reference, dither=Image.Dither.NONE)
        seen, worst, errors = _check(img, mapped)
        missing = self._missing(seen, worst, errors, fixed)
        if missing:
            mapped = self._put_in(img, mapped, fixed, missing)
            errors = _check(img, mapped)[2]
        return mapped, errors

    def _missing(self, seen: Image.Image, worst: Image.Image, errors: list[int], fixed: list[RGB]) -> list[RGB]:
        """The flat colours the check (`_check`) found off that the palette does not keep yet,
        as many as KEEP_MAX still allows."""
        if len(self.kept) >= KEEP_MAX or sum(errors[FLAT_ERROR + 1:]) < FLAT_COUNT:
            return []
        found = [c for c in _flat_colours(seen, worst) if not _near_any(c, fixed + self.kept, SAME_CELL)]
        return found[:KEEP_MAX - len(self.kept)]

    def _put_in(self, img: Image.Image, mapped: Image.Image, fixed: list[RGB], found: list[RGB]) -> Image.Image:
        """Keep `found` from now on, in the slots of the colours `mapped` uses least; img mapped
        onto the palette that makes."""
        self.kept.extend(found)
        self.reference = _with_colours(self.colours(), mapped.histogram(), fixed + self.kept, found)
        return img.quantize(palette=self.reference, dither=Image.Dither.NONE)


def colours_of(reference: Image.Image) -> list[RGB]:
    """The colours of a "P" image's palette, in index order."""
    flat = reference.getpalette() or []
    return [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]  # type: ignore[misc]


def _palette_for(img: Image.Image, fixed: Sequence[RGB]) -> Image.Image:
    """A reference "P" image: the `fixed` colours exactly, then an octree's colours for img."""
    fixed = list(dict.fromkeys(tuple(c) for c in fixed))[:255]
    source = img.reduce(BUILD_SAMPLE) if BUILD_SAMPLE > 1 else img
    chosen = source.quantize(256 - len(fixed), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = chosen.getpalette() or []
    fill = [tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)]
    return _keeping(fixed + [c for c in fill if not _near_any(c, fixed, SAME_CELL)], fixed)  # type: ignore[misc]


def _with_colours(colours: list[RGB], use: list[int], fixed: Sequence[RGB], new: Sequence[RGB]) -> Image.Image:
    """The palette `colours` with `new` in the slots of the colours used least (`use`: pixels
    per palette index) that are not `fixed`."""
    colours = list(colours) + [(0, 0, 0)] * (256 - len(colours))
    keep = set(fixed)
    spare = sorted((use[i] if i < len(use) else 0, i) for i, c in enumerate(colours) if c not in keep)
    for (_, i), c in zip(spare, new):
        colours[i] = c
    return _keeping(colours, fixed)


def _keeping(colours: list[RGB], fixed: Sequence[RGB]) -> Image.Image:
    """The reference "P" image of `colours`, with every fixed colour found as itself: Pillow
    looks colours up by cell, and another colour close by can take a fixed colour's cell. Such
    a colour gives up its slot; when it is a fixed colour too (two colours a level or two
    apart), the one later in `fixed` does."""
    ref = _reference(colours)
    for _ in range(4):
        taken = _taken_cells(ref, fixed)
        if not taken:
            break
        colours = [c for c in colours if c not in taken]
        ref = _reference(colours)
    return ref


def _check(img: Image.Image, mapped: Image.Image) -> tuple[Image.Image, Image.Image, list[int]]:
    """A sample of img (every CHECK_SAMPLE-th pixel and row), each sampled pixel's largest
    channel difference from `mapped` ("L"), and the histogram of those differences."""
    size = (max(1, img.width // CHECK_SAMPLE), max(1, img.height // CHECK_SAMPLE))
    seen = img.resize(size, Image.Resampling.NEAREST)
    shown = mapped.resize(size, Image.Resampling.NEAREST).convert("RGB")
    r, g, b = ImageChops.difference(seen, shown).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    return seen, worst, worst.histogram()


_FLAT_OFF = [0] * (FLAT_ERROR + 1) + [255] * (255 - FLAT_ERROR)
# Sampled pixels off at most, for counting their colours one by one: a board's check finds 100-500
# off (edges, blends) and nothing new almost every time, and counting a few hundred pixels costs a
# fraction of counting the colours of the whole sample (0.5-1.3 ms a board).
FEW_OFF = 3000


def _flat_colours(seen: Image.Image, worst: Image.Image) -> list[RGB]:
    """The colours of `seen` off by over FLAT_ERROR at FLAT_COUNT sampled pixels or more, most first."""
    mask = worst.point(_FLAT_OFF)
    off = mask.histogram()[255]
    if off <= FEW_OFF:
        return _flat_colours_of_few(seen, mask)
    marker = (1, 2, 3)  # every pixel that is not off becomes this colour, counted out below
    kept = Image.composite(seen, Image.new("RGB", seen.size, marker), mask)
    others = seen.width * seen.height - off
    found = []
    for n, c in kept.getcolors(seen.width * seen.height) or []:
        n -= others if c == marker else 0
        if n >= FLAT_COUNT:
            found.append((n, c))
    return [c for _, c in sorted(found, reverse=True)]


def _flat_colours_of_few(seen: Image.Image, mask: Image.Image) -> list[RGB]:
    """_flat_colours, counting the colours of the pixels `mask` marks (255) one by one."""
    where, pixels = mask.tobytes(), seen.tobytes()
    stride = len(seen.getbands())
    counts: dict[bytes, int] = {}
    i = where.find(255)
    while i >= 0:
        colour = pixels[i * stride:(i + 1) * stride]
        counts[colour] = counts.get(colour, 0) + 1
        i = where.find(255, i + 1)
    found = [(n, tuple(c)) for c, n in counts.items() if n >= FLAT_COUNT]
    return [c for _, c in sorted(found, reverse=True)]  # type: ignore[misc]


def _near_any(c: RGB, colours: Sequence[RGB], within: int) -> bool:
    return any(max(abs(c[0] - o[0]), abs(c[1] - o[1]), abs(c[2] - o[2])) <= within for o in colours)


def _reference(colours: Sequence[RGB]) -> Image.Image:
    flat = [v for c in colours[:256] for v in c]
    ref = Image.new("P", (1, 1))
    ref.putpalette(flat + [0] * (768 - len(flat)))
    return ref


def _taken_cells(ref: Image.Image, fixed: Sequence[RGB]) -> set[RGB]:
    """The palette colours that fixed colours are mapped to instead of themselves, but for
    fixed colours ahead of the one they took."""
    if not fixed:
        return set()
    probe = Image.new("RGB", (len(fixed), 1))
    probe.putdata(list(fixed))
    back = probe.quantize(palette=ref, dither=Image.Dither.NONE).convert("RGB")
    rank = {c: i for i, c in reversed(list(enumerate(fixed)))}
    return {got for i, (want, got) in enumerate(zip(fixed, _pixels(back)))
            if got != want and rank.get(got, len(fixed)) > i}


def _pixels(img: Image.Image) -> list[Any]:
    flattened = getattr(img, "get_flattened_data", None)  # Pillow 12.1+; getdata goes in Pillow 14
    return list(flattened() if flattened is not None else img.getdata())


def few_colours(img: Image.Image, renderer: Any = None) -> Image.Image:
    """img (RGB) in 256 colours for a palette PNG, the fastest way that keeps what matters: a
    board marked with `drawn_on` maps onto its layer's BoardPalette; otherwise the renderer's
    `keep_colours` are kept exactly (quantize_keeping); otherwise an octree over the image."""
    keep = tuple(getattr(renderer, "keep_colours", ()) or ())
    board = img.info.get(BOARD_PALETTE)
    if isinstance(board, BoardPalette):
        colours = getattr(renderer, "palette", None)
        # the players' colours first: of two meaning colours a level apart, the first is exact
        meaning = [*getattr(colours, "players", ()), *keep, *getattr(colours, "surfaces", {}).values()]
        return board.apply(img, meaning)
    if keep:
        return quantize_keeping(img, keep)
    return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def palette_png_of(img: Image.Image, renderer: Any = None, times: dict[str, float] | None = None) -> bytes:
    """img (RGB) as a 256-colour PNG (few_colours). A board drawn on a static layer
    (`drawn_on`) is written from compressed bands kept from the boards before it
    (render.kit.bandpng): most of a board is as it was on the last move. Any other image is
    encoded whole: its bands would seldom come again. `times`, if given, gets the seconds
    spent on "colours" and "png" added (the bench's split), and the thread's CPU seconds on
    "colours cpu" and "png cpu" (the figures to read on a machine others load)."""
    started, started_cpu = time.perf_counter(), time.thread_time()
    mapped = few_colours(img, renderer)
    mapped_at, mapped_cpu = time.perf_counter(), time.thread_time()
    board = isinstance(img.info.get(BOARD_PALETTE), BoardPalette) and "transparency" not in mapped.info
    data = palette_png(mapped) if board else to_png(mapped)
    if times is not None:
        add_times(times, "colours", mapped_at - started, mapped_cpu - started_cpu)
        add_times(times, "png", time.perf_counter() - mapped_at, time.thread_time() - mapped_cpu)
    return data


def add_times(times: dict[str, float], part: str, seconds: float, cpu: float) -> None:
    """Add a step's wall and CPU seconds to the bench's split (`part`, `part` + " cpu")."""
    times[part] = times.get(part, 0.0) + seconds
    times[f"{part} cpu"] = times.get(f"{part} cpu", 0.0) + cpu


def shrink_files(files: Sequence[tuple[str, bytes]], scale: float = 0.5) -> list[tuple[str, bytes]]:
    """(name, data) files with every image scaled by `scale` (a quarter of the pixels at 0.5)
    and re-encoded in its own format; anything that is not an image is kept as it is. Plain
    data in and out, so a render worker can do it (render/pool.py)."""
    from PIL import UnidentifiedImageError

    shrunk: list[tuple[str, bytes]] = []
    for name, data in files:
        try:
            with Image.open(io.BytesIO(data)) as image:
                size = (max(1, int(image.width * scale)), max(1, int(image.height * scale)))
                small = image.resize(size, Image.Resampling.LANCZOS)
                out = io.BytesIO()
                small.save(out, format=image.format or "PNG", optimize=True)
            shrunk.append((name, out.getvalue()))
        except (UnidentifiedImageError, OSError):  # not an image we can read: send as it is
            shrunk.append((name, data))
    return shrunk


def to_png(img: Image.Image, *, palette: bool = False) -> bytes:
    """PNG bytes of img: lossless by default; palette=True quantises to 256 colours."""
    if palette and img.mode in ("RGB", "RGBA"):
        # FASTOCTREE is the only built-in quantiser that keeps an alpha channel.
        img = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    elif img.mode not in ("RGB", "RGBA", "P", "L"):
        img = img.convert("RGB")
    buffer = io.BytesIO()
    img.save(buffer, "PNG", compress_level=COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()


class LayerCache:
    """Memoise layers that never change between moves (a map with its cities and routes).

    `get` returns the cached value itself (any object: a renderer may cache an image
    together with its layout), so callers must copy before drawing on it; `image`
    returns a fresh copy of a cached Image, safe to draw on.
    """

    def __init__(self, maxsize: int = 8) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, object] = OrderedDict()

    def get(self, key: Hashable, build: Callable[[], object]):
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = build()
        self._items[key] = value
        while len(self._items) > self.maxsize:  # least recently used goes first
            self._items.popitem(last=False)
        return value

    def image(self, key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
        """A copy of the cached image (built on first use): draw on it freely."""
        return self.get(key, build).copy()

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
