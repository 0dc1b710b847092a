"""Pick pictures: the part of the board where a step's options are, with every option marked
by a large number, so that a person picks "7" from what they see instead of a coordinate
from a list (the numbers are the chooser's buttons and select options: bot/discord/picking.py).

A game's renderer says where each place of its game is in its board image (the `locate` of
its `render.kit.images.Places` gives a `Mark`: the spot for the number, and a line or an
outline to trace); this module does the rest for every game alike:

* `regions` groups options too many (over 25, Discord's most in a select) or too spread for
  one legible picture into compact regions of the map, split in two along the longer side
  until each holds at most 25 and its crop is narrow enough; `numbered` puts each region in
  reading order, which numbers its options 1… (every image and menu that numbers a step's
  options takes its numbers from there, so they agree);
* `pick_picture` crops the board around a region's marks and scales the crop to PICTURE_WIDTH,
  traces every option's line or outline and puts a numbered badge on its spot, nudged aside
  (with a leader line) when it would cover another badge, and a mark's short `note` (a
  cost) beside its badge;
* `sheet_picture` draws options that share one place and differ by what they put there (a
  tile's rotations) side by side, each cropped from a board the renderer drew with that
  option in place (`Places.preview`).

Legibility: Discord shows a private picture at most 550 px wide and often 400. A badge is
BADGE_AT_400 px across and its digits DIGITS_AT_400 px tall at 400 px, whatever the crop. Two
badges are apart enough when their spots are at least SPACING_AT_400 px apart there, which
bounds the width of board a picture may show: a crop `w` board px wide shows a distance `d`
as d * 400 / w. The board's own text only grows in a crop (every board is checked legible at
400 px whole, render.kit.legibility), so a crop never makes it worse.

Colours: badges are white with a near-black ring and digits, and traced options are a white
line with near-black edges: no hue, so they read the same for every kind of colour vision and
cannot be taken for a player's or a resource's colour. A board whose own markers are numbers
on white discs (Santa Fe's city values) asks for dark badges (near-black, white digits and
ring), so a pick number is never read as one of them, and traced lines to match (near-black
with white edges); a note is drawn the other way round from its badge.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from PIL import Image, ImageDraw

from render.kit.text import draw_text, measure, wrap

Point = tuple[float, float]
Box = tuple[float, float, float, float]

PICTURE_WIDTH = 800       # px: crisp when Discord shows it 400-550 px wide, small to send
BADGE_AT_400 = 22         # a badge's diameter when the picture is shown 400 px wide
DIGITS_AT_400 = 12        # its digits' size there (the legibility floor is 7)
SPACING_AT_400 = 17       # spots closer than this at 400 px get their badges nudged apart
OPTIONS_AT_MOST = 25      # one select's worth: no step offers more at once
ASPECT = (0.5, 1.2)       # height / width of a picture: never a strip, never taller than a phone shows
LINE_AT_400 = 3.0         # a traced option's white core at 400 px (its dark edges add as much again)
INK = (16, 16, 20)
PAPER = (255, 255, 255)
MAX_SCALE = 3.0           # a crop is enlarged at most this much (beyond, it only blurs)
NOTE_AT_400 = 10          # a mark's note beside its badge, at 400 px (the legibility floor is 7)
BAND = 0.22               # spots whose heights differ by less than this share of a region's height read as one row


@dataclass(frozen=True)
class Mark:
    """Where a place is in a board image (px): `spot` is where its number goes; `line` a path
    to trace (an edge, a section, a route); `outline` a polygon to ring (a hex, a cell);
    `note` a few characters the picture prints beside the number, the same in every language
    (what building there costs: "$2"). `keep`: how wide (board px) the thing under the line
    is, when the picture must not hide it (a route's coloured cars, a section's river marks):
    the line is then traced round it as a casing, the board showing through inside."""

    spot: Point
    line: tuple[Point, ...] = ()
    outline: tuple[Point, ...] = ()
    note: str | None = None
    keep: float = 0.0

    def points(self) -> list[Point]:
        return [self.spot, *self.line, *self.outline]


@dataclass
class Badge:
    """A number as drawn: the option's number and the badge's centre in the picture."""

    number: int
    centre: Point
    spot: Point


@dataclass
class Picture:
    image: Image.Image
    badges: list[Badge] = field(default_factory=list)
    box: Box = (0, 0, 0, 0)  # the board crop shown (board px)


# ------------------------------------------------------------------------------ geometry
def _bounds(points: Sequence[Point]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def nearest_gap(spots: Sequence[Point]) -> float:
    """The shortest distance between two distinct spots (inf for fewer than two)."""
    distinct = list(dict.fromkeys((round(x, 1), round(y, 1)) for x, y in spots))
    best = math.inf
    for i, (x, y) in enumerate(distinct):
        for u, v in distinct[i + 1:]:
            best = min(best, math.hypot(x - u, y - v))
    return best


def widest_crop(spots: Sequence[Point], floor: float) -> float:
    """The widest crop (board px) in which these spots' badges stand SPACING_AT_400 apart at
    400 px; never under `floor` (spots nearly on top of each other are nudged apart instead)."""
    gap = nearest_gap(spots)
    if math.isinf(gap):
        return math.inf
    return max(floor, gap * 400 / SPACING_AT_400)


def crop_box(marks: Sequence[Mark], size: tuple[int, int], margin: float) -> Box:
    """The part of the board to show: the marks with `margin` around, widened to an aspect in
    ASPECT and to at least 4 margins each way, kept inside the board."""
    x0, y0, x1, y1 = _bounds([p for m in marks for p in m.points()])
    x0, y0, x1, y1 = x0 - margin, y0 - margin, x1 + margin, y1 + margin
    least = 4 * margin
    w, h = max(x1 - x0, least), max(y1 - y0, least)
    w = max(w, h / ASPECT[1])
    h = max(h, w * ASPECT[0])
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return _inside((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), size)


def _inside(box: Box, size: tuple[int, int]) -> Box:
    """`box` moved (and if need be cut) to lie inside an image of `size`."""
    x0, y0, x1, y1 = box
    W, H = size
    w, h = min(x1 - x0, W), min(y1 - y0, H)
    x0 = min(max(0.0, x0), W - w)
    y0 = min(max(0.0, y0), H - h)
    return x0, y0, x0 + w, y0 + h


# ------------------------------------------------------------------------------ regions
def regions(marks: Sequence[Mark], *, floor: float, margin: float,
            at_most: int = OPTIONS_AT_MOST) -> list[list[int]]:
    """The options (indexes into `marks`) grouped into regions, each at most `at_most` and
    narrow enough for legible badges (`widest_crop`); one region when all fit. A region is
    split in two along the longer side of its spots (so neighbours stay together), in
    proportion to the regions its count needs; regions come in reading order (`reading_rows`)."""
    def fits(idx: list[int]) -> bool:
        if len(idx) > at_most:
            return False
        spots = [marks[i].spot for i in idx]
        x0, y0, x1, y1 = _bounds([p for i in idx for p in marks[i].points()])
        return max(x1 - x0, (y1 - y0) / ASPECT[1]) + 2 * margin <= widest_crop(spots, floor)

    def split(idx: list[int]) -> list[list[int]]:
        if len(idx) <= 1 or fits(idx):
            return [idx]
        xs = [marks[i].spot[0] for i in idx]
        ys = [marks[i].spot[1] for i in idx]
        axis = 0 if max(xs) - min(xs) >= max(ys) - min(ys) else 1
        ordered = sorted(idx, key=lambda i: (marks[i].spot[axis], marks[i].spot[1 - axis], i))
        # as few regions as the count needs (52 options: 17, 18, 17, not four of 13), cut in
        # proportion so each side splits again evenly; options on one spot split by count alone
        parts = max(2, math.ceil(len(idx) / at_most))
        cut = round(len(ordered) * (parts // 2) / parts)
        return split(ordered[:cut]) + split(ordered[cut:])

    found = [sorted(r) for r in split(list(range(len(marks))))]
    return reading_rows(found, [_bounds([marks[i].spot for i in r]) for r in found])


def reading_rows(items: Sequence[Any], boxes: Sequence[Box]) -> list[Any]:
    """`items` in reading order of their boxes: a row is the boxes whose middles lie within the
    height of the row's first (topmost) box; rows top to bottom, each left to right."""
    order = sorted(range(len(items)), key=lambda k: (boxes[k][1] + boxes[k][3]) / 2)
    rows: list[list[int]] = []
    bottom = -math.inf
    for k in order:
        middle = (boxes[k][1] + boxes[k][3]) / 2
        if rows and middle <= bottom:
            rows[-1].append(k)
        else:
            rows.append([k])
            bottom = boxes[k][3]
    return [items[k] for row in rows for k in sorted(row, key=lambda k: boxes[k][0])]


def reading_order(spots: Sequence[Point]) -> list[int]:
    """The spots (indexes) top to bottom in bands, left to right within a band, as a person
    scans a picture."""
    if not spots:
        return []
    ys = [p[1] for p in spots]
    band = max(1.0, (max(ys) - min(ys)) * BAND, 40.0)
    return sorted(range(len(spots)), key=lambda i: (round((spots[i][1] - min(ys)) / band), spots[i][0], i))


def numbered(marks: Sequence[Mark], *, floor: float, margin: float,
             at_most: int = OPTIONS_AT_MOST) -> list[list[int]]:
    """The regions of `marks` (`regions`), each in reading order: a region's k-th option is
    number k + 1 in its picture and in its menu."""
    if not marks:
        return []
    return [[region[i] for i in reading_order([marks[j].spot for j in region])]
            for region in regions(marks, floor=floor, margin=margin, at_most=at_most)]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


COMPASS = (("nw", "n", "ne"), ("w", "c", "e"), ("sw", "s", "se"))


def compass(spots: Sequence[Point], size: tuple[int, int]) -> str:
    """Where on the board a region lies, as a compass word's key part ("nw", "c", "se"): the
    board in thirds each way."""
    x, y = _mean([p[0] for p in spots]), _mean([p[1] for p in spots])
    col = min(2, max(0, int(3 * x / max(1, size[0]))))
    row = min(2, max(0, int(3 * y / max(1, size[1]))))
    return COMPASS[row][col]


# ------------------------------------------------------------------------------ drawing
def badge_size(width: int) -> tuple[float, int]:
    """(diameter, digit size) of a badge in a picture `width` px wide."""
    return BADGE_AT_400 * width / 400, math.ceil(DIGITS_AT_400 * width / 400)


def pick_picture(board: Image.Image, marks: Sequence[Mark], numbers: Sequence[int], *,
                 margin: float, width: int = PICTURE_WIDTH, dark: bool = False) -> Picture:
    """The board cropped around `marks`, scaled to `width` px (enlarged at most MAX_SCALE),
    each mark traced and numbered with `numbers` (same order); `dark` badges on a board whose
    own markers are white discs."""
    box = crop_box(marks, board.size, margin)
    x0, y0, x1, y1 = box
    scale = min(width / (x1 - x0), MAX_SCALE)
    out_w, out_h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    img = _unmarked(board.convert("RGB").resize((out_w, out_h), Image.Resampling.LANCZOS,
                                                box=(round(x0), round(y0), round(x1), round(y1))))

    def at(p: Point) -> Point:
        return (p[0] - x0) * scale, (p[1] - y0) * scale

    _trace(img, [[at(p) for p in m.line] for m in marks], [[at(p) for p in m.outline] for m in marks],
           [m.keep * scale for m in marks], dark=dark)
    badges = place_badges(img, [at(m.spot) for m in marks], numbers, dark=dark)
    by_number = {b.number: b for b in badges}
    for m, n in zip(marks, numbers):
        if m.note:
            draw_note(img, by_number[n], m.note, [b.centre for b in badges], dark=dark)
    return Picture(img, badges, box)


def _unmarked(img: Image.Image) -> Image.Image:
    """A resampled board without the marks its board carried (`img.info`: the board palette
    of render.kit.encode): a picture is not its board, and mapping its new colours onto the
    board's palette would both blur it and teach that palette colours no board has."""
    img.info.clear()
    return img


def _trace(img: Image.Image, lines: Sequence[Sequence[Point]], outlines: Sequence[Sequence[Point]],
           keeps: Sequence[float] = (), *, dark: bool = False) -> None:
    """Every option's line and outline: near-black edges first, then the white cores, so
    crossing options stay one clean outline each; last, the board shows again inside a line
    that keeps what is under it (`keeps`, picture px wide, per option). `dark`: the other way
    round, as the badges are (and so never taken for a board's own white-and-black halo)."""
    d = ImageDraw.Draw(img)
    core = max(2, round(LINE_AT_400 * img.width / 400))
    edge = core * 2 + 2
    keeps = list(keeps) or [0.0] * len(lines)
    shapes = [(list(p), round(k)) for p, k in zip(lines, keeps) if len(p) >= 2] + \
             [(list(p) + [p[0]], 0) for p in outlines if len(p) >= 3]
    under = img.copy() if any(k > 0 for _, k in shapes) else None
    for width, colour in ((edge, PAPER if dark else INK), (core, INK if dark else PAPER)):
        for pts, keep in shapes:  # a casing's white is a full core wide each side of what it keeps
            d.line(pts, fill=colour, width=width + (keep + core if keep else 0), joint="curve")
    if under is not None:
        mask = Image.new("L", img.size, 0)
        md = ImageDraw.Draw(mask)
        for pts, keep in shapes:
            if keep > 0:
                md.line(pts, fill=255, width=keep, joint="curve")
        img.paste(under, (0, 0), mask)


def place_badges(img: Image.Image, spots: Sequence[Point], numbers: Sequence[int], *,
                 dark: bool = False) -> list[Badge]:
    """A numbered badge on each spot; one that would cover a badge already drawn moves to the
    nearest free place around its spot (rings of 8 positions, the first far enough out for its
    leader line to show past a badge on the spot), joined to it by that line."""
    diameter, digits = badge_size(img.width)
    r = diameter / 2
    placed: list[Point] = []
    out: list[Badge] = []
    order = sorted(range(len(spots)), key=lambda i: (spots[i][1], spots[i][0]))
    for i in order:
        sx, sy = spots[i]
        centre = (sx, sy)
        for ring in range(0, 6):
            tries = [(sx, sy)] if ring == 0 else [
                (sx + (0.7 + 0.5 * ring) * diameter * math.cos(a), sy + (0.7 + 0.5 * ring) * diameter * math.sin(a))
                for a in (k * math.pi / 4 for k in (6, 0, 2, 4, 7, 1, 3, 5))]
            free = [c for c in tries if _clear(c, placed, diameter * 0.95, img.size, r)]
            if free:
                centre = free[0]
                break
        placed.append(centre)
        out.append(Badge(numbers[i], centre, (sx, sy)))
    d = ImageDraw.Draw(img)
    for b in out:  # leader lines under every badge
        if b.centre != b.spot:
            d.line([b.spot, b.centre], fill=INK, width=max(2, round(diameter / 8)))
            d.ellipse(_around(b.spot, diameter / 7), fill=INK)
    for b in out:
        draw_badge(img, b.centre, b.number, diameter, digits, dark=dark)
    return sorted(out, key=lambda b: b.number)


def _around(p: Point, r: float) -> Box:
    return p[0] - r, p[1] - r, p[0] + r, p[1] + r


def _clear(c: Point, placed: Sequence[Point], apart: float, size: tuple[int, int], r: float) -> bool:
    if not (r <= c[0] <= size[0] - r and r <= c[1] <= size[1] - r):
        return False
    return all(math.hypot(c[0] - p[0], c[1] - p[1]) >= apart for p in placed)


def draw_badge(img: Image.Image, centre: Point, number: int, diameter: float, digits: int, *,
               dark: bool = False) -> None:
    """White disc, near-black ring and digits (`dark`: the other way round); two digits widen
    it into a pill."""
    text = str(number)
    tw, _ = measure(text, digits, bold=True)
    h = diameter
    w = max(diameter, tw + diameter * 0.45)
    x, y = centre
    ring = max(2, round(diameter / 10))
    face, ink = (INK, PAPER) if dark else (PAPER, INK)
    ImageDraw.Draw(img).rounded_rectangle((x - w / 2, y - h / 2, x + w / 2, y + h / 2), radius=h / 2,
                                          fill=face, outline=ink, width=ring)
    draw_text(img, (x, y), text, digits, ink, bold=True, anchor="mm")


def draw_note(img: Image.Image, badge: Badge, note: str, others: Sequence[Point], *, dark: bool = False) -> None:
    """`note` on a small tag touching its badge: on the side (right, left, below, above) that
    keeps furthest from the other badges, inside the picture."""
    diameter, digits = badge_size(img.width)
    size = math.ceil(NOTE_AT_400 * img.width / 400)
    tw, _ = measure(note, size, bold=True)
    w, h = tw + size * 0.7, size * 1.5
    bw = max(diameter, measure(str(badge.number), digits, bold=True)[0] + diameter * 0.45)
    x, y = badge.centre
    sides = [(x + bw / 2 + w / 2 - 2, y), (x - bw / 2 - w / 2 + 2, y),
             (x, y + diameter / 2 + h / 2 - 2), (x, y - diameter / 2 - h / 2 + 2)]
    inside = [c for c in sides if w / 2 <= c[0] <= img.width - w / 2 and h / 2 <= c[1] <= img.height - h / 2]
    rest = [o for o in others if o != badge.centre]

    def room(c: Point) -> float:
        return min((math.hypot(c[0] - o[0], c[1] - o[1]) for o in rest), default=math.inf)

    cx, cy = max(inside or sides, key=lambda c: (min(room(c), diameter * 1.5), -sides.index(c)))
    ring = max(2, round(diameter / 14))
    face, ink = (PAPER, INK) if dark else (INK, PAPER)
    ImageDraw.Draw(img).rounded_rectangle((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), radius=h / 3,
                                          fill=face, outline=ink, width=ring)
    draw_text(img, (cx, cy), note, size, ink, bold=True, anchor="mm")


CAPTION_LINES = 2  # a caption under a sheet's option wraps to at most this many lines


def sheet_picture(boards: Sequence[Image.Image], marks: Sequence[Mark], numbers: Sequence[int], *,
                  margin: float, width: int = PICTURE_WIDTH, captions: Sequence[str | None] | None = None,
                  lang: str = "en", dark: bool = False) -> Picture:
    """Options at one place side by side: from each option's own board (the renderer's
    preview), the same crop around all the marks, numbered in its top-left corner; two
    columns for up to four options, three up to nine, four beyond. `captions`: a line under
    each option's board (what a route scores), as large as the badges' digits."""
    n = len(boards)
    cols = 1 if n == 1 else 2 if n <= 4 else 3 if n <= 9 else 4
    rows = -(-n // cols)
    box = crop_box(marks, boards[0].size, margin)
    x0, y0, x1, y1 = box
    gap = max(4, round(width / 200))
    thumb_w = (width - gap * (cols - 1)) // cols
    thumb_h = round(thumb_w * (y1 - y0) / (x1 - x0))
    diameter, digits = badge_size(width)
    pad = round(digits * 0.3)
    texts = [wrap(c, digits, thumb_w - 2 * pad, lang)[:CAPTION_LINES] if c else [] for c in (captions or [])]
    line_h = measure("Hg", digits)[1]
    strip = max((len(t) for t in texts), default=0) * line_h + (2 * pad if any(texts) else 0)
    cell_h = thumb_h + strip
    img = Image.new("RGB", (width, rows * cell_h + gap * (rows - 1)), PAPER)
    badges = []
    for k, (board, number) in enumerate(zip(boards, numbers)):
        col, row = k % cols, k // cols
        left, top = col * (thumb_w + gap), row * (cell_h + gap)
        thumb = board.convert("RGB").resize((thumb_w, thumb_h), Image.Resampling.LANCZOS,
                                            box=(round(x0), round(y0), round(x1), round(y1)))
        img.paste(thumb, (left, top))
        for i, line in enumerate(texts[k] if k < len(texts) else []):
            draw_text(img, (left + pad, top + thumb_h + pad + i * line_h), line, digits, INK, bold=True,
                      max_width=thumb_w - 2 * pad)
        centre = (left + diameter * 0.75, top + diameter * 0.75)
        draw_badge(img, centre, number, diameter, digits, dark=dark)
        badges.append(Badge(number, centre, centre))
    return Picture(img, badges, box)


def overview_picture(board: Image.Image, groups: Sequence[Sequence[Mark]], labels: Sequence[str], *,
                     width: int = PICTURE_WIDTH) -> Picture:
    """The whole board at `width` px with each region's options as dots, the region framed and
    named as its button is ("North-west · 12"), so a person sees where each part of the map is
    before picking one."""
    scale = width / board.width
    img = _unmarked(board.convert("RGB").resize((width, round(board.height * scale)), Image.Resampling.LANCZOS))
    d = ImageDraw.Draw(img)
    _, size = badge_size(width)
    dot = max(3.0, width / 200)
    pad = dot * 3
    frames: list[tuple[Box, list[Point]]] = []
    for marks in groups:
        spots = [(m.spot[0] * scale, m.spot[1] * scale) for m in marks]
        x0, y0, x1, y1 = _bounds(spots)
        frame = (max(1, x0 - pad), max(1, y0 - pad), min(img.width - 2, x1 + pad), min(img.height - 2, y1 + pad))
        frames.append((frame, spots))
        for w, colour in ((5, INK), (2, PAPER)):
            d.rounded_rectangle(frame, radius=pad, outline=colour, width=w)
        for x, y in spots:
            d.ellipse(_around((x, y), dot + 1.5), fill=INK)
            d.ellipse(_around((x, y), dot), fill=PAPER)
    for (frame, spots), label in zip(frames, labels):
        # inside its own frame (a label outside would sit on a neighbour's), in the corner
        # that hides the fewest of its dots
        tw, th = measure(label, size, bold=True)
        w, h = tw + 12, th + 10
        corners = [(frame[0] + 4, frame[1] + 4), (frame[2] - 4 - w, frame[1] + 4),
                   (frame[0] + 4, frame[3] - 4 - h), (frame[2] - 4 - w, frame[3] - 4 - h)]
        x, y = min(corners, key=lambda c: sum(c[0] - dot <= px <= c[0] + w + dot and c[1] - dot <= py <= c[1] + h + dot
                                              for px, py in spots))
        x, y = min(max(x, 2), img.width - w - 2), min(max(y, 2), img.height - h - 2)
        d.rounded_rectangle((x, y, x + w, y + h), radius=6, fill=PAPER, outline=INK, width=2)
        draw_text(img, (x + w / 2, y + h / 2), label, size, INK, bold=True, anchor="mm")
    return Picture(img, [], (0, 0, board.width, board.height))

