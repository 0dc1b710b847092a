"""Place options picked on the board: a step whose options name places (`Pick.place`) is shown
with a pick picture (render/pick.py) where every option has a large number, and its buttons or
select options carry the same numbers ("7 · B4").

When is a picture shown: see `chooser.on_board` (and the renderer must locate at least two of
the options).

Options too many for one select (25) or too spread for one legible picture are grouped into
regions of the map (render.kit.picking.regions); the step then first shows a button per
region ("North-west · 12") under the whole board with each region framed and named so, and a
region's button (`cr` with the region's number) shows its
picture and options, with the other regions' buttons beside to move on. Regions are worked out
again from the same menu on every click, so ids carry only the region's number.

The option numbers in a picture run 1… in reading order (top to bottom, then left to right)
within the picture; ids carry the option's index in the step, as for any other pick.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import discord

from bot.discord import chooser
from bot.discord.replies import Picture
from bot.discord.text import LABEL_MAX, clip, t
from bot.discord.ui.components import Row, button
from games.core.choices import Pick
from games.core.errors import IllegalAction
from render import pick as pick_render
from render import pool as render_pool
from render.kit.picking import compass


@dataclass
class Layout:
    """How a step's options are shown: the regions of place options (indexes into the step's
    options, each in reading order) with their compass names, and the options without a place."""

    regions: list[list[int]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    unplaced: list[int] = field(default_factory=list)

    def numbers(self, region: int) -> dict[int, int]:
        """Option index -> its number in region `region`'s picture."""
        return {i: k + 1 for k, i in enumerate(self.regions[region])}


def layout(game: str, view: Any, options: Sequence[Pick]) -> Layout | None:
    """The step's regions, or None when it is shown as a plain menu."""
    if not chooser.on_board(options):
        return None
    indexes = [i for i, o in enumerate(options) if o.place is not None]
    marks = pick_render.locate(game, view, [options[i].place for i in indexes])  # type: ignore[misc]
    found = [(i, m) for i, m in zip(indexes, marks) if m is not None]
    if len(found) < 2:
        return None
    located = {j for j, _ in found}
    unplaced = [i for i in range(len(options)) if i not in located]
    groups = pick_render.plan(game, [m for _, m in found], beside=len(unplaced))
    size = pick_render.board_size(game, view)
    out = Layout(unplaced=unplaced)
    for group in groups:  # each in reading order already
        out.regions.append([found[k][0] for k in group])
        out.names.append(compass([found[k][1].spot for k in group], size))
    return out


def region_labels(lay: Layout, lang: str) -> list[str]:
    """"North-west · 12" per region; a compass word used twice gets an ordinal."""
    words = [t(lang, f"discord.pick.region.{name}") for name in lay.names]
    seen: dict[str, int] = {}
    labels = []
    for word, region in zip(words, lay.regions):
        seen[word] = seen.get(word, 0) + 1
        twice = words.count(word) > 1
        name = f"{word} {seen[word]}" if twice else word
        labels.append(t(lang, "discord.pick.region_label", region=name, count=len(region)))
    return labels


def region_rows(game_id: int, version: int, check: str, path: Sequence[int], lay: Layout, lang: str, *,
                current: int | None, verbs: chooser.Verbs = chooser.MOVE_VERBS) -> list[Row]:
    """A button per region (the one shown greyed)."""
    labels = region_labels(lay, lang)
    items = [button(game_id, version, verbs.region, chooser.Ref(check, tuple(path), n).arg(),
                    label=clip(label, LABEL_MAX), emoji="🗺️", disabled=n == current)
             for n, label in enumerate(labels)]
    return [items[i:i + 5] for i in range(0, len(items), 5)]


def public_rows(game: str, game_id: int, version: int, check: str, view: Any, options: Sequence[Pick],
                look: chooser.Look, lang: str) -> list[Row] | None:
    """A turn post's first step when its options are places: a button per part of the map (one
    "Choose on the map · 12" when they fit one picture), each opening that part's picture and
    options privately, and the step's other options as quick taps. None when the step is not
    shown on the board (or the public view cannot place it)."""
    lay = layout(game, view, options)
    if lay is None:
        return None
    if len(lay.regions) > 1:
        rows = region_rows(game_id, version, check, (), lay, lang, current=None)
    else:
        rows = [[button(game_id, version, chooser.MOVE_VERBS.region, chooser.Ref(check, (), 0).arg(),
                        label=clip(t(lang, "discord.pick.on_map", count=len(lay.regions[0])), LABEL_MAX),
                        emoji="🗺️", style=discord.ButtonStyle.primary)]]
    if lay.unplaced:
        rows += chooser.stop_rows(game_id, version, check, (), options, options[0].step, look, lang,
                                  buttons_at_most=chooser.PUBLIC_BUTTONS_AT_MOST, shown=lay.unplaced)
    return rows


async def draw(game: str, game_id: int, view: Any, names: Sequence[str], lang: str, options: Sequence[Pick],
               lay: Layout, region: int) -> Picture:
    """The region's pick picture, drawn in the render pool (a worker when the bot has them)."""
    numbers = lay.numbers(region)
    places = [options[i].place for i in lay.regions[region]]
    data, alt, _ = await render_pool.current().call(
        pick_render.draw, game, render_pool.sendable(view), list(names), lang, places,
        [numbers[i] for i in lay.regions[region]], route=game_id)
    return Picture(data, alt)


@dataclass
class Shown:
    """A step as shown: its rows, a line telling how to pick, and the picture (or None)."""

    rows: list[Row]
    lines: list[str]
    picture: Picture | None = None
    filename: str = "pick.png"  # "regions.png" for the whole board with its parts framed


async def stop_shown(game: str, game_id: int, version: int, check: str, path: Sequence[int], view: Any,
                     names: Sequence[str], options: Sequence[Pick], step: str | None, look: chooser.Look,
                     lang: str, *, page: int = 0, region: int | None = None,
                     buttons_at_most: int = chooser.BUTTONS_AT_MOST,
                     verbs: chooser.Verbs = chooser.MOVE_VERBS) -> Shown:
    """One step of a menu: with its pick picture when its options are places, else as the
    chooser draws any step."""
    lay = layout(game, view, options)
    if lay is None:
        return Shown(chooser.stop_rows(game_id, version, check, path, options, step, look, lang, page=page,
                                       buttons_at_most=buttons_at_most, verbs=verbs, names=names), [])
    unplaced = chooser.stop_rows(game_id, version, check, path, options, step, look, lang, verbs=verbs,
                                 names=names, shown=lay.unplaced) if lay.unplaced else []
    if region is None and len(lay.regions) > 1:
        rows = region_rows(game_id, version, check, path, lay, lang, current=None, verbs=verbs) + unplaced
        data, alt = await render_pool.current().call(
            pick_render.draw_overview, game, render_pool.sendable(view), list(names), lang,
            [[options[i].place for i in r] for r in lay.regions], region_labels(lay, lang), route=game_id)
        return Shown(rows, ["🗺️ " + t(lang, "discord.pick.regions", count=sum(map(len, lay.regions)))],
                     Picture(data, alt), "regions.png")
    region = 0 if region is None else region
    if not 0 <= region < len(lay.regions):
        raise IllegalAction("choice.not_offered")
    numbers = lay.numbers(region)
    rows = chooser.stop_rows(game_id, version, check, path, options, step, look, lang, verbs=verbs, names=names,
                             shown=lay.regions[region], numbers=numbers)
    if len(lay.regions) > 1:
        rows += region_rows(game_id, version, check, path, lay, lang, current=region, verbs=verbs)
    rows += unplaced
    picture = await draw(game, game_id, view, names, lang, options, lay, region)
    return Shown(rows, ["🔢 " + t(lang, "discord.pick.numbers")], picture)
