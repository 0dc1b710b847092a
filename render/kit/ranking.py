"""The final-result image every game shares: a title, one ranking row per player (medal,
seat colour, name, a stats line, the total), a sentence for every tie saying which of the
game's tie-breaks decided it (the result's own data, games.core.protocol.Tie) and a score
chart below."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from games.core.i18n import has_key, translate
from games.core.protocol import Result
from render.kit.palette import contrast_text
from render.kit.text import draw_text, measure, wrap

RGB = tuple[int, int, int]

MEDALS = {1: (212, 165, 32), 2: (160, 166, 176), 3: (176, 110, 60)}


@dataclass(frozen=True)
class RankingLook:
    """A game's sizes and colours for its final image."""
    background: RGB
    panel: RGB
    panel_edge: RGB
    text: RGB
    muted: RGB
    width: int = 1100
    pad: int = 28
    header_h: int = 70  # from the top padding to the first row
    title_y: int = 28  # the title's middle, below the top padding
    title_size: int = 38
    subtitle_size: int = 20
    row_h: int = 78
    row_gap: int = 10
    chart_base_h: int = 150  # chart title, legend and margins
    chart_row_h: int = 62
    medal_r: int = 26
    rank_size: int = 30
    swatch_x: int = 84  # the seat-colour swatch, from the left padding
    swatch_inset: int = 14  # above and below it
    swatch_outline: RGB | None = None
    name_x: int = 116  # from the left padding
    total_size: int = 40
    stats_size: int = 20
    note_gap: int = 8  # between a tie's sentence and the next


def tie_notes(result: Result, lang: str, names: Sequence[str]) -> list[str]:
    """One sentence per tie of the result, in ranking order: who is level with whom and which
    tie-break put one ahead (or that they share the place), in the game's catalog words."""
    return [translate(lang, tie.key, tie.words(), names) for tie in result.ties]


def notes_height(look: RankingLook, notes: Sequence[str], lang: str) -> int:
    """The height `draw_notes` takes (0 without notes)."""
    if not notes:
        return 0
    lines = sum(len(_note_lines(look, note, lang)) for note in notes)
    return lines * _note_line_h(look) + len(notes) * look.note_gap


def draw_notes(img: Image.Image, look: RankingLook, notes: Sequence[str], y: int, lang: str) -> int:
    """The tie sentences from `y`, full width, wrapped; returns the y below them."""
    for note in notes:
        for line in _note_lines(look, note, lang):
            draw_text(img, (look.pad + 4, y), line, look.stats_size, look.text, anchor="la")
            y += _note_line_h(look)
        y += look.note_gap
    return y


def _note_lines(look: RankingLook, note: str, lang: str) -> list[str]:
    return wrap(note, look.stats_size, look.width - 2 * look.pad - 8, lang)


def _note_line_h(look: RankingLook) -> int:
    return round(look.stats_size * 1.45)


@dataclass(frozen=True)
class RankEntry:
    rank: int
    colour: RGB
    name: str
    stats: str
    total: str


Section = tuple[int, Callable[[tuple[int, int]], Image.Image]]  # height, draw(size) -> image


def render_ranking(look: RankingLook, title: str, subtitle: str | None, entries: Sequence[RankEntry],
                   chart: Callable[[tuple[int, int]], Image.Image],
                   sections: Sequence[Section] = (), notes: Sequence[str] = (), lang: str = "en") -> Image.Image:
    """The whole image; `notes` (the ties' sentences, `tie_notes`) go under the rows,
    `chart(size)` draws the score chart that goes below them, and each of `sections`
    (height, draw(size)) is stacked below it full width (a score-over-time chart, each
    player's details), 20 px apart."""
    pad, width, n = look.pad, look.width, len(entries)
    top = pad + look.header_h
    chart_h = look.chart_base_h + n * look.chart_row_h
    extra_h = sum(h + 20 for h, _ in sections)
    notes_h = notes_height(look, notes, lang)
    height = top + n * (look.row_h + look.row_gap) + notes_h + 20 + chart_h + extra_h + pad
    img = Image.new("RGB", (width, height), look.background)
    d = ImageDraw.Draw(img)
    draw_text(img, (pad, pad + look.title_y), title, look.title_size, look.text, bold=True, anchor="lm")
    if subtitle is not None:
        draw_text(img, (width - pad, pad + 30), subtitle, look.subtitle_size, look.muted, anchor="rm",
                  max_width=width - 2 * pad - measure(title, look.title_size, True)[0] - 30)
    y = top
    for entry in entries:
        draw_rank_row(img, d, look, entry, y)
        y += look.row_h + look.row_gap
    y = draw_notes(img, look, notes, y, lang) if notes else y
    img.paste(chart((width - 2 * pad, chart_h)), (pad, y + 20))
    y += 20 + chart_h
    for section_h, draw_section in sections:
        img.paste(draw_section((width - 2 * pad, section_h)), (pad, y + 20))
        y += 20 + section_h
    return img


def draw_rank_row(img: Image.Image, d: ImageDraw.ImageDraw, look: RankingLook, entry: RankEntry, y: int) -> None:
    pad, row_h = look.pad, look.row_h
    first = entry.rank == 1
    d.rounded_rectangle((pad, y, look.width - pad, y + row_h), 14, fill=look.panel,
                        outline=MEDALS[1] if first else look.panel_edge, width=4 if first else 2)
    mid = y + row_h // 2
    cx, r = pad + 44, look.medal_r
    medal = MEDALS.get(entry.rank, look.panel_edge)
    d.ellipse((cx - r, mid - r, cx + r, mid + r), fill=medal)
    draw_text(img, (cx, mid), str(entry.rank), look.rank_size, contrast_text(medal), bold=True, anchor="mm")
    swatch = (pad + look.swatch_x, y + look.swatch_inset, pad + look.swatch_x + 16, y + row_h - look.swatch_inset)
    if look.swatch_outline is None:
        d.rounded_rectangle(swatch, 5, fill=entry.colour)
    else:
        d.rounded_rectangle(swatch, 5, fill=entry.colour, outline=look.swatch_outline, width=2)
    tw, _ = measure(entry.total, look.total_size, True)
    right = look.width - pad - 22
    draw_text(img, (right, mid), entry.total, look.total_size, look.text, bold=True, anchor="rm")
    sw, _ = measure(entry.stats, look.stats_size, False)
    name_x = pad + look.name_x
    stats_x = right - tw - 28
    draw_text(img, (stats_x, mid), entry.stats, look.stats_size, look.muted, anchor="rm")
    draw_text(img, (name_x, mid), entry.name, 32, look.text, bold=True, anchor="lm",
              max_width=stats_x - sw - 20 - name_x)


def category_label(result: Result, category: str, lang: str) -> str:
    """A score category's name: the game's own label, a shared one, or the key made readable."""
    key = f"{result.label_prefix}.category.{category}" if result.label_prefix else f"category.{category}"
    if has_key(lang, key) or has_key("en", key):
        return translate(lang, key)
    return category.replace("_", " ").capitalize()


def chart_rows(result: Result, name: Callable[[int], str], colour: Callable[[int], RGB]
               ) -> list[tuple[str, list[int], RGB]]:
    """Per player in ranking order: name, points per category of the result, seat colour."""
    rows = []
    for row in result.players:
        per = row.by_category()
        rows.append((name(row.seat), [per.get(c, 0) for c in result.categories], colour(row.seat)))
    return rows


def ending_on_totals(history: Sequence[Sequence[int]], result: Result, n: int) -> list[list[int]]:
    """Each seat's score after each turn (`history`, rows of n), ending on the final totals:
    when the last row is not the result (scoring at the end of the game, a game stored before
    scores were kept), the totals follow as one more point, so a chart's last point is always
    the score the ranking shows."""
    totals = final_totals(result, n)
    rows = [list(row) for row in history if len(row) == n]
    return rows if rows and rows[-1] == totals else [*rows, totals]


def final_totals(result: Result, n: int) -> list[int]:
    """The result's total of every seat, in seat order (0 for a seat the result leaves out)."""
    by_seat = {row.seat: row.total for row in result.players}
    return [by_seat.get(seat, 0) for seat in range(n)]
